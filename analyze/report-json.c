/* report-json: the documented, stable form (schema/REPORT.md) */
#include <stdio.h>

#include "buf.h"
#include "db.h"
#include "import.h"
#include "json.h"
#include "report.h"
#include "rules.h"

#ifndef VERSION
#define VERSION "0.0.0"
#endif

int report_json(sqlite3 *db, const struct report_opts *o)
{
	struct buf out = BUF_INIT;
	sqlite3_stmt *b, *f, *e, *s;
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
	b = db_query(db, "SELECT b.id, b.hostname, b.file, b.sha256, "
		     "b.collected_at, b.machine_id, coalesce((SELECT max(severity) "
		     "FROM findings WHERE bundle_id = b.id), -1) FROM bundles b "
		     "JOIN report_bundles r ON r.bundle_id = b.id ORDER BY "
		     "b.hostname, b.id", NULL);
	while (sqlite3_step(b) == SQLITE_ROW) {
		int64_t bid = sqlite3_column_int64(b, 0);
		int worst = sqlite3_column_int(b, 6);

		json_obj_open(&j, NULL);
		json_str(&j, "node", db_col_null(b, 1));
		json_str(&j, "bundle", db_col_null(b, 2));
		json_str(&j, "sha256", db_col_null(b, 3));
		json_str(&j, "collected_at", db_col_null(b, 4));
		json_str(&j, "machine_id", db_col_null(b, 5));
		json_str(&j, "worst", worst < 0 ? NULL : severity_name(worst));
		json_arr_open(&j, "findings");
		f = db_query(db, "SELECT id, rule, layer, severity, component, "
			     "summary, remediation FROM findings WHERE bundle_id = ? "
			     "ORDER BY " LAYER_ORDER ", severity DESC, rule, component",
			     "i", bid);
		while (sqlite3_step(f) == SQLITE_ROW) {
			json_obj_open(&j, NULL);
			json_str(&j, "rule", db_col_null(f, 1));
			json_str(&j, "layer", db_col_null(f, 2));
			json_str(&j, "severity", severity_name(sqlite3_column_int(f, 3)));
			json_str(&j, "node", db_col_null(b, 1));
			json_str(&j, "component", db_col_null(f, 4));
			json_str(&j, "summary", db_col_null(f, 5));
			json_arr_open(&j, "evidence");
			/* an imported node's evidence: the input file too */
			e = db_query(db, "SELECT e.path, e.value, " IMP_ORIGIN_SQL(
				     "?", "e.path") " FROM finding_evidence e WHERE "
				     "e.finding_id = ? ORDER BY e.rowid", "ii", bid,
				     (int64_t)sqlite3_column_int64(f, 0));
			while (sqlite3_step(e) == SQLITE_ROW) {
				json_obj_open(&j, NULL);
				json_str(&j, "path", db_col_null(e, 0));
				if (sqlite3_column_type(e, 2) != SQLITE_NULL)
					json_str(&j, "origin",
						 db_col_null(e, 2));
				json_str(&j, "value", db_col_null(e, 1));
				json_obj_close(&j);
			}
			db_done(e);
			json_arr_close(&j);
			json_str(&j, "remediation", db_col_null(f, 6));
			json_obj_close(&j);
		}
		db_done(f);
		json_arr_close(&j);
		json_arr_open(&j, "skipped");
		s = db_query(db, "SELECT rule, reason FROM skipped WHERE bundle_id "
			     "= ? ORDER BY rule", "i", bid);
		while (sqlite3_step(s) == SQLITE_ROW) {
			json_obj_open(&j, NULL);
			json_str(&j, "rule", db_col_null(s, 0));
			json_str(&j, "reason", db_col_null(s, 1));
			json_obj_close(&j);
		}
		db_done(s);
		json_arr_close(&j);
		/* an import: what became of each of its input files */
		s = db_query(db, "SELECT file, line, command, reader, status, "
			     "reason FROM import_inputs WHERE bundle_id = ? ORDER "
			     "BY file, line", "i", bid);
		if (sqlite3_step(s) == SQLITE_ROW) {
			json_arr_open(&j, "inputs");
			do {
				json_obj_open(&j, NULL);
				json_str(&j, "file", db_col_null(s, 0));
				if (sqlite3_column_int64(s, 1))
					json_int(&j, "line", sqlite3_column_int64(s, 1));
				if (sqlite3_column_type(s, 2) != SQLITE_NULL)
					json_str(&j, "command",
						 db_col_null(s, 2));
				json_str(&j, "reader",
					 sqlite3_column_type(s, 3) ==
							 SQLITE_NULL
						 ? NULL
						 : db_col_null(s, 3));
				json_str(&j, "status", db_col_null(s, 4));
				if (sqlite3_column_type(s, 5) != SQLITE_NULL)
					json_str(&j, "reason",
						 db_col_null(s, 5));
				json_obj_close(&j);
			} while (sqlite3_step(s) == SQLITE_ROW);
			json_arr_close(&j);
		}
		db_done(s);
		json_obj_close(&j);
	}
	db_done(b);
	json_arr_close(&j);
	json_obj_close(&j);
	json_end(&j);
	rc = fwrite(out.buf, 1, out.len, o->out) == out.len ? 0 : -1;
	buf_release(&out);
	return rc;
}
