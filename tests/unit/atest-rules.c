/* atest-rules: the rule table against what it points at: every query of
 * analyze/rules/<ID>.sql has a row that runs it and every row that names
 * SQL has its file, every row has a query or a check (the pairs layer's
 * are added by `rdma-analyze pairs` itself), ids are unique and every
 * layer is one of the table's; every threshold is read by a rule, every
 * threshold a row names exists, and an SQL rule names what its query
 * reads (its text's 'name' literals and those of the views it reads). */
#include <stdio.h>
#include <stdlib.h>
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

static const struct threshold *threshold_find(const char *name, size_t n)
{
	const struct threshold *t;

	for (t = thresholds; t->name; t++)
		if (strlen(t->name) == n && !memcmp(t->name, name, n))
			return t;
	return NULL;
}

static void threshold_names(void)
{
	const struct rule *const *r;
	const struct threshold *t;

	for (t = thresholds; t->name; t++) {
		int readers = 0;

		for (r = rules_all(); *r; r++)
			readers += rule_reads(*r, t->name);
		T_OK(readers > 0, "threshold %s: read by a rule", t->name);
	}
	for (r = rules_all(); *r; r++) {
		const char *p = (*r)->thresholds ? (*r)->thresholds : "";

		while (*p) {
			size_t w = strcspn(p, " ");

			T_OK(w && threshold_find(p, w), "rule %s: threshold "
			     "'%.*s' exists", (*r)->id, (int)w, p);
			p += w;
			p += strspn(p, " ");
		}
	}
}

/* SQL without its -- comments (quotes kept whole) */
static char *uncomment(const char *sql)
{
	char *out = malloc(strlen(sql) + 1), *o = out;
	int quoted = 0;

	while (*sql) {
		if (*sql == '\'')
			quoted = !quoted;
		if (!quoted && sql[0] == '-' && sql[1] == '-') {
			sql += strcspn(sql, "\n");
			continue;
		}
		*o++ = *sql++;
	}
	*o = 0;
	return out;
}

/* is name a word of text (no letter, digit or _ around it)? */
static int has_word(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *s;

	for (s = text; (s = strstr(s, name)); s += n) {
		int before = s > text && (s[-1] == '_' || (s[-1] >= 'a' &&
			     s[-1] <= 'z') || (s[-1] >= '0' && s[-1] <= '9'));
		int after = s[n] == '_' || (s[n] >= 'a' && s[n] <= 'z') ||
			    (s[n] >= '0' && s[n] <= '9');

		if (!before && !after)
			return 1;
	}
	return 0;
}

#define MAX_VIEWS 16
#define VIEW "CREATE TEMP VIEW IF NOT EXISTS "

/* the views of analyze/rules/<lower>.sql: name, text and the thresholds
 * each reads (bit i: thresholds[i]), with those of the views it reads */
static struct view {
	char name[64];
	char *text;
	unsigned long reads;
} views[MAX_VIEWS];
static size_t nviews;

static unsigned long literals(const char *text)
{
	const struct threshold *t;
	unsigned long bits = 0;
	char q[80];

	for (t = thresholds; t->name; t++) {
		snprintf(q, sizeof(q), "'%s'", t->name);
		if (strstr(text, q))
			bits |= 1UL << (t - thresholds);
	}
	return bits;
}

/* the thresholds text reads, directly or through a view */
static unsigned long reads_of(const char *text)
{
	unsigned long bits = literals(text);
	size_t i;

	for (i = 0; i < nviews; i++)
		if (has_word(text, views[i].name))
			bits |= views[i].reads;
	return bits;
}

static void views_read(void)
{
	const char *const *v;
	size_t i, pass;

	for (v = rules_sql_views; *v; v++) {
		char *text = uncomment(*v), *p = text;

		while ((p = strstr(p, VIEW)) && nviews < MAX_VIEWS) {
			struct view *w = &views[nviews++];
			char *end = strstr(p + 1, VIEW);
			size_t n = strcspn(p + strlen(VIEW), " \n");

			snprintf(w->name, sizeof(w->name), "%.*s", (int)n,
				 p + strlen(VIEW));
			w->text = end ? strndup(p, (size_t)(end - p)) : strdup(p);
			p += strlen(VIEW);
		}
		free(text);
	}
	/* a view reading a view: as deep as there are views */
	for (i = 0; i < nviews; i++)
		views[i].reads = literals(views[i].text);
	for (pass = 0; pass < nviews; pass++)
		for (i = 0; i < nviews; i++)
			views[i].reads |= reads_of(views[i].text);
	T_OK(nviews > 0, "the rules' views are found (%zu)", nviews);
}

/* a row may name more than its query reads where a check, or a part run
 * elsewhere, reads it: HCA_MISSING's fleet part (rules-fleet.c) */
static int read_elsewhere(const struct rule *r, const char *name)
{
	return r->check || (!strcmp(r->id, "HCA_MISSING") &&
			    !strcmp(name, "fleet_min_nodes"));
}

static void sql_thresholds(void)
{
	const struct rule *const *r;
	const struct threshold *t;
	size_t i;

	views_read();
	for (r = rules_all(); *r; r++) {
		const char *sql = (*r)->sql ? rule_sql((*r)->id) : NULL;
		char *text;
		unsigned long bits;

		if (!sql)
			continue;
		text = uncomment(sql);
		bits = reads_of(text);
		for (t = thresholds; t->name; t++) {
			int in_sql = !!(bits & (1UL << (t - thresholds)));
			int listed = rule_reads(*r, t->name);

			if (in_sql)
				T_OK(listed, "rule %s: its query reads %s, its "
				     "row names it", (*r)->id, t->name);
			else if (listed)
				T_OK(read_elsewhere(*r, t->name), "rule %s: "
				     "names %s, which its query does not read",
				     (*r)->id, t->name);
		}
		free(text);
	}
	for (i = 0; i < nviews; i++)
		free(views[i].text);
}

int main(void)
{
	sql_files();
	rows();
	threshold_names();
	sql_thresholds();
	return t_done();
}
