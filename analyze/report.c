/* report: which bundles, how bad, and the table of formats */
#include "db.h"
#include "report.h"

const struct report_format report_formats[] = {
	{ "text", report_text },
	{ "json", report_json },
	{ "html", report_html },
	{ NULL, NULL },
};

int report_select(sqlite3 *db, const int64_t *ids, size_t n)
{
	size_t i;

	if (db_run(db, "CREATE TEMP TABLE IF NOT EXISTS report_bundles "
		   "(bundle_id INTEGER PRIMARY KEY); DELETE FROM report_bundles") < 0)
		return -1;
	if (ids) {
		for (i = 0; i < n; i++)
			db_exec(db, "INSERT OR IGNORE INTO report_bundles VALUES (?)",
				"i", ids[i]);
		return 0;
	}
	return db_run(db, "INSERT INTO report_bundles SELECT (SELECT b.id FROM "
		      "bundles b WHERE b.node_id = n.id ORDER BY b.collected_at "
		      "DESC, b.id DESC LIMIT 1) FROM nodes n WHERE EXISTS (SELECT "
		      "1 FROM bundles b WHERE b.node_id = n.id)");
}

int report_worst(sqlite3 *db)
{
	return (int)db_int(db, "SELECT coalesce(max(severity), 0) FROM findings "
			   "WHERE bundle_id IN (SELECT bundle_id FROM "
			   "report_bundles)", NULL);
}
