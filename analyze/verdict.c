/* verdict: one node's verdict for one bundle as a JSON object (verdict.h;
 * its schema: schema/node-verdict.schema.json) */
#include <stdio.h>

#include "buf.h"
#include "db.h"
#include "import.h"
#include "json.h"
#include "report.h"
#include "rules.h"
#include "verdict.h"

/* the evidence of finding fid: path (and for an import the input file it
 * came from) and value, in the order the rule gave them */
static void verdict_evidence(sqlite3 *db, int64_t bid, int64_t fid,
			     struct json *j)
{
	sqlite3_stmt *e;

	json_arr_open(j, "evidence");
	e = db_query(db, "SELECT e.path, e.value, " IMP_ORIGIN_SQL(
		     "?", "e.path") " FROM finding_evidence e WHERE "
		     "e.finding_id = ? ORDER BY e.rowid", "ii", bid, fid);
	while (sqlite3_step(e) == SQLITE_ROW) {
		json_obj_open(j, NULL);
		json_str(j, "path", db_col_null(e, 0));
		if (sqlite3_column_type(e, 2) != SQLITE_NULL)
			json_str(j, "origin", db_col_null(e, 2));
		json_str(j, "value", db_col_null(e, 1));
		json_obj_close(j);
	}
	db_done(e);
	json_arr_close(j);
}

static void verdict_findings(sqlite3 *db, int64_t bid, const char *node,
			     struct json *j)
{
	sqlite3_stmt *f;

	json_arr_open(j, "findings");
	f = db_query(db, "SELECT id, rule, layer, severity, component, "
		     "summary, remediation FROM findings WHERE bundle_id = ? "
		     "ORDER BY " LAYER_ORDER ", severity DESC, rule, component",
		     "i", bid);
	while (sqlite3_step(f) == SQLITE_ROW) {
		json_obj_open(j, NULL);
		json_str(j, "rule", db_col_null(f, 1));
		json_str(j, "layer", db_col_null(f, 2));
		json_str(j, "severity", severity_name(sqlite3_column_int(f, 3)));
		json_str(j, "node", node);
		json_str(j, "component", db_col_null(f, 4));
		json_str(j, "summary", db_col_null(f, 5));
		verdict_evidence(db, bid, sqlite3_column_int64(f, 0), j);
		json_str(j, "remediation", db_col_null(f, 6));
		json_obj_close(j);
	}
	db_done(f);
	json_arr_close(j);
}

static void verdict_skipped(sqlite3 *db, int64_t bid, struct json *j)
{
	sqlite3_stmt *s;

	json_arr_open(j, "skipped");
	s = db_query(db, "SELECT rule, reason FROM skipped WHERE bundle_id "
		     "= ? ORDER BY rule", "i", bid);
	while (sqlite3_step(s) == SQLITE_ROW) {
		json_obj_open(j, NULL);
		json_str(j, "rule", db_col_null(s, 0));
		json_str(j, "reason", db_col_null(s, 1));
		json_obj_close(j);
	}
	db_done(s);
	json_arr_close(j);
}

/* an import: what became of each of its input files (no member otherwise) */
static void verdict_inputs(sqlite3 *db, int64_t bid, struct json *j)
{
	sqlite3_stmt *s;

	s = db_query(db, "SELECT file, line, command, reader, status, "
		     "reason FROM import_inputs WHERE bundle_id = ? ORDER "
		     "BY file, line", "i", bid);
	if (sqlite3_step(s) != SQLITE_ROW) {
		db_done(s);
		return;
	}
	json_arr_open(j, "inputs");
	do {
		json_obj_open(j, NULL);
		json_str(j, "file", db_col_null(s, 0));
		if (sqlite3_column_int64(s, 1))
			json_int(j, "line", sqlite3_column_int64(s, 1));
		if (sqlite3_column_type(s, 2) != SQLITE_NULL)
			json_str(j, "command", db_col_null(s, 2));
		json_str(j, "reader", sqlite3_column_type(s, 3) == SQLITE_NULL
				      ? NULL : db_col_null(s, 3));
		json_str(j, "status", db_col_null(s, 4));
		if (sqlite3_column_type(s, 5) != SQLITE_NULL)
			json_str(j, "reason", db_col_null(s, 5));
		json_obj_close(j);
	} while (sqlite3_step(s) == SQLITE_ROW);
	json_arr_close(j);
	db_done(s);
}

int verdict_json(sqlite3 *db, int64_t bid, struct json *j, const char *key)
{
	sqlite3_stmt *b;
	int worst;

	b = db_query(db, "SELECT hostname, file, sha256, collected_at, "
		     "machine_id, coalesce((SELECT max(severity) FROM findings "
		     "WHERE bundle_id = b.id), -1) FROM bundles b WHERE b.id = ?",
		     "i", bid);
	if (sqlite3_step(b) != SQLITE_ROW) {
		db_done(b);
		return -1;
	}
	worst = sqlite3_column_int(b, 5);
	json_obj_open(j, key);
	json_int(j, "verdict_version", VERDICT_VERSION);
	json_str(j, "node", db_col_null(b, 0));
	json_str(j, "bundle", db_col_null(b, 1));
	json_str(j, "sha256", db_col_null(b, 2));
	json_str(j, "collected_at", db_col_null(b, 3));
	json_str(j, "machine_id", db_col_null(b, 4));
	json_str(j, "worst", worst < 0 ? NULL : severity_name(worst));
	verdict_findings(db, bid, db_col_null(b, 0), j);
	verdict_skipped(db, bid, j);
	verdict_inputs(db, bid, j);
	json_obj_close(j);
	db_done(b);
	return 0;
}

int verdict_write(sqlite3 *db, int64_t bid, FILE *out)
{
	struct buf b = BUF_INIT;
	struct json j;
	int rc;

	json_init(&j, &b, 1);
	rc = verdict_json(db, bid, &j, NULL);
	if (!rc) {
		json_end(&j);
		rc = fwrite(b.buf, 1, b.len, out) == b.len ? 0 : -1;
	}
	buf_release(&b);
	return rc;
}
