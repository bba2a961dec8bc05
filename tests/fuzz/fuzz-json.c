/* fuzz-json: the JSON parser (include/jsonp.c) that reads manifests and
 * every JSON form in a bundle; each value of a tree that parses is read
 * through every accessor, as the loader reads fields of unknown type. */
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[160];
	struct jv *v = jparse((const char *)data, size, err, sizeof(err));

	walk(v, 0);
	jfree(v);
	return 0;
}
