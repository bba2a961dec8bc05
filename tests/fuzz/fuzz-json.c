/* fuzz-json: the JSON parser (include/jsonp.c) that reads manifests and
 * every JSON form in a bundle; each value of a tree that parses is read
 * through every accessor, as the loader reads fields of unknown type.
 * Then the value budget: the text again with a budget of the first byte's
 * value; a tree that parses within it holds no more members than that. */
#include "fuzz.h"
#include "jsonp.h"

static void walk(const struct jv *v, int depth)
{
	size_t i;

	jstr(v, NULL);
	jint(v, NULL, 0);
	juint(v, NULL, 0);
	jnum(v, NULL, 0);
	jbool(v, NULL, 0);
	if (depth > JSON_PARSE_MAX_DEPTH + 1)
		__builtin_trap();	/* the parser's depth limit failed */
	for (i = 0; i < jlen(v); i++) {
		walk(jat(v, i), depth + 1);
		if (v->t == J_OBJ)
			jget(v, v->k[i]);
	}
}

/* the members of every array and object of the tree */
static size_t members(const struct jv *v)
{
	size_t i, n = jlen(v);

	for (i = 0; i < jlen(v); i++)
		n += members(jat(v, i));
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[160];
	struct jv *v = jparse((const char *)data, size, err, sizeof(err));
	size_t budget = size ? data[0] : 0, start = budget;

	walk(v, 0);
	jfree(v);
	v = jparse_budget((const char *)data, size, &budget, err, sizeof(err));
	if (v && (members(v) > start || start - budget != members(v)))
		__builtin_trap();	/* the budget did not hold, or miscounted */
	jfree(v);
	return 0;
}
