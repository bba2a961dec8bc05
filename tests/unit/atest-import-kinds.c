/* atest-import-kinds: the table of import kinds (IMP_KINDS, import.h):
 * names distinct, texts set, and the SQL expression IMP_KIND_TEXT_SQL
 * giving each kind's text as imp_kind_text() does -- the same values the
 * CASE spelled out in rules-import.c gave before the table -- and an
 * unknown kind itself. */
#include <sqlite3.h>
#include <string.h>

#include "import.h"
#include "t.h"

/* the expression rules-import.c had, to compare with */
#define OLD_CASE "CASE ?1 WHEN 'sos' THEN 'sos report' WHEN 'ibdiagnet' " \
	"THEN 'ibdiagnet output' WHEN 'outputs' THEN 'folder of command " \
	"outputs' ELSE ?1 END"

/* the text of expr for kind, in buf ("(null)" for NULL) */
static const char *eval(sqlite3 *db, const char *expr, const char *kind,
			char *buf, size_t n)
{
	sqlite3_stmt *st;
	char sql[1024];
	const unsigned char *t;

	snprintf(sql, sizeof(sql), "SELECT %s", expr);
	snprintf(buf, n, "(error)");
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return buf;
	if (kind)
		sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		t = sqlite3_column_text(st, 0);
		snprintf(buf, n, "%s", t ? (const char *)t : "(null)");
	}
	sqlite3_finalize(st);
	return buf;
}

int main(void)
{
	static const char *const other[] = { "rdma-collect", "", "SOS", NULL };
	char a[256], b[256];
	sqlite3 *db;
	int i, k;

	T_OK(sqlite3_open(":memory:", &db) == SQLITE_OK, "an SQLite in memory");
	for (i = 0; i < IMP_KIND_NR; i++) {
		const char *nm = imp_kind_name((enum imp_kind_id)i);

		T_OK(*nm && *imp_kind_text((enum imp_kind_id)i),
		     "kind %d: a name and a text (%s)", i, nm);
		for (k = 0; k < i; k++)
			if (!strcmp(nm, imp_kind_name((enum imp_kind_id)k)))
				break;
		T_OK(k == i, "kind %s: named once", nm);
		T_STREQ(eval(db, IMP_KIND_TEXT_SQL("?1"), nm, a, sizeof(a)),
			imp_kind_text((enum imp_kind_id)i),
			"IMP_KIND_TEXT_SQL('%s'): the table's text", nm);
		T_STREQ(a, eval(db, OLD_CASE, nm, b, sizeof(b)),
			"IMP_KIND_TEXT_SQL('%s'): what rules-import.c's CASE "
			"gave", nm);
	}
	for (i = 0; i < (int)(sizeof(other) / sizeof(*other)); i++)
		T_STREQ(eval(db, IMP_KIND_TEXT_SQL("?1"), other[i], a, sizeof(a)),
			eval(db, OLD_CASE, other[i], b, sizeof(b)),
			"IMP_KIND_TEXT_SQL(%s%s%s): itself, as before",
			other[i] ? "'" : "", other[i] ? other[i] : "NULL",
			other[i] ? "'" : "");
	T_STREQ(imp_kind_name(IMP_KIND_NR), "", "no kind past the table");
	sqlite3_close(db);
	return t_done();
}
