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

void report_inputs_counts(sqlite3 *db, int64_t *files, int64_t *read,
			  int64_t *unread)
{
	static const char q[] = "SELECT count(DISTINCT i.bundle_id || '/' || "
		"i.file) FROM import_inputs i JOIN report_bundles r ON "
		"r.bundle_id = i.bundle_id";

	*files = db_int(db, q, NULL);
	*read = db_int(db, "SELECT count(DISTINCT i.bundle_id || '/' || i.file) "
		       "FROM import_inputs i JOIN report_bundles r ON r.bundle_id "
		       "= i.bundle_id WHERE i.status IN ('read', 'partial')", NULL);
	*unread = db_int(db, "SELECT count(DISTINCT i.bundle_id || '/' || "
			 "i.file) FROM import_inputs i JOIN report_bundles r ON "
			 "r.bundle_id = i.bundle_id WHERE i.status IN ('unread', "
			 "'partial')", NULL);
}

void report_inputs_line(sqlite3 *db, FILE *out)
{
	int64_t files, read, unread;

	report_inputs_counts(db, &files, &read, &unread);
	if (files)
		fprintf(out, "rdma-analyze: %lld input file(s) imported: %lld "
			"read, %lld not (wholly) understood (INPUT_UNREAD)\n",
			(long long)files, (long long)read, (long long)unread);
}
