/* report-json: the documented, stable form (schema/REPORT.md); each node
 * is its verdict (verdict.c) */
#include <stdio.h>

#include "buf.h"
#include "db.h"
#include "json.h"
#include "report.h"
#include "verdict.h"

#ifndef VERSION
#define VERSION "0.0.0"
#endif

int report_json(sqlite3 *db, const struct report_opts *o)
{
	struct buf out = BUF_INIT;
	sqlite3_stmt *b;
	struct json j;
	int rc;

	json_init(&j, &out, 1);
	json_obj_open(&j, NULL);
	json_str(&j, "tool", "rdma-analyze");
	json_str(&j, "version", VERSION);
	json_int(&j, "report_format", 1);
	json_obj_open(&j, "summary");
	json_int(&j, "bundles", db_int(db, "SELECT count(*) FROM report_bundles", NULL));
	json_int(&j, "critical", db_int(db, "SELECT count(*) FROM findings WHERE "
					"severity = 2 AND bundle_id IN (SELECT "
					"bundle_id FROM report_bundles)", NULL));
	json_int(&j, "warning", db_int(db, "SELECT count(*) FROM findings WHERE "
				       "severity = 1 AND bundle_id IN (SELECT "
				       "bundle_id FROM report_bundles)", NULL));
	json_int(&j, "info", db_int(db, "SELECT count(*) FROM findings WHERE "
				    "severity = 0 AND bundle_id IN (SELECT "
				    "bundle_id FROM report_bundles)", NULL));
	{
		int64_t files, read, unread;

		report_inputs_counts(db, &files, &read, &unread);
		json_int(&j, "input_files", files);
		json_int(&j, "input_files_read", read);
		json_int(&j, "input_files_unread", unread);
	}
	json_obj_close(&j);
	json_arr_open(&j, "nodes");
	b = db_query(db, "SELECT b.id FROM bundles b JOIN report_bundles r ON "
		     "r.bundle_id = b.id ORDER BY b.hostname, b.id", NULL);
	while (sqlite3_step(b) == SQLITE_ROW)
		verdict_json(db, sqlite3_column_int64(b, 0), &j, NULL);
	db_done(b);
	json_arr_close(&j);
	json_obj_close(&j);
	json_end(&j);
	rc = fwrite(out.buf, 1, out.len, o->out) == out.len ? 0 : -1;
	buf_release(&out);
	return rc;
}
