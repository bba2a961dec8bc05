/* atest-rules: the rule table against what it points at: every query of
 * analyze/rules/<ID>.sql has a row that runs it and every row that names
 * SQL has its file, every row has a query or a check (the pairs layer's
 * are added by `rdma-analyze pairs` itself), ids are unique and every
 * layer is one of the table's. */
#include <string.h>

#include "rules.h"
#include "t.h"

static void sql_files(void)
{
	const struct rule *const *r;
	const char *const *s;

	for (s = rules_sql; *s; s += 2) {
		const struct rule *row = rule_find(*s);

		T_OK(row && row->sql, "analyze/rules/%s.sql has a rule row "
		     "with .sql set", *s);
	}
	for (r = rules_all(); *r; r++) {
		if ((*r)->sql)
			T_OK(rule_sql((*r)->id) != NULL, "rule %s: its "
			     "analyze/rules/%s.sql exists", (*r)->id, (*r)->id);
		if ((*r)->layer != LAYER_PAIRS)
			T_OK((*r)->sql || (*r)->check, "rule %s: a query or a "
			     "check", (*r)->id);
	}
}

static void rows(void)
{
	const struct rule *const *r, *const *q;
	int bad_layer = 0, twice = 0;

	for (r = rules_all(); *r; r++) {
		bad_layer += (unsigned)(*r)->layer >= LAYER_COUNT;
		for (q = r + 1; *q; q++)
			twice += !strcmp((*r)->id, (*q)->id);
	}
	T_OK(!bad_layer, "every rule's layer is one of the table's");
	T_OK(!twice, "every rule id is used once");
	T_STREQ(layer_name(layer_find("history")), "history", "layer_find");
	T_OK(layer_find("nope") < 0, "layer_find: unknown name");
}

int main(void)
{
	sql_files();
	rows();
	return t_done();
}
