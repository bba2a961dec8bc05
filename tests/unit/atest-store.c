/* atest-store: the storage of store.c: staged rows come back from the
 * views as they went in (zeros implied, NULL kept, an odd interval kept,
 * a replaced row's last value), a bundle with the same keys or rows
 * shares the key set or row set, and evidence_gc() removes exactly the
 * sets no bundle refers to */
#include <stdint.h>
#include <stdio.h>

#include "db.h"
#include "store.h"
#include "t.h"

/* stage bundle bid's port counters: mlx5_0 port 1, pma and hw; extra
 * adds a key (another key set) */
static int stage(sqlite3 *db, int64_t bid, int extra)
{
	int rc = 0;

	rc |= db_exec(db, "INSERT INTO temp.s_counters VALUES (?, 'mlx5_0', 1, "
		      "'pma', 'symbol_error', 0, 0, 1000, 'p/symbol_error')", "i",
		      bid);
	rc |= db_exec(db, "INSERT INTO temp.s_counters VALUES (?, 'mlx5_0', 1, "
		      "'pma', 'port_rcv_data', ?, ?, 1000, 'p/port_rcv_data')",
		      "iii", bid, bid * 100, bid * 100 + 7);
	rc |= db_exec(db, "INSERT INTO temp.s_counters VALUES (?, 'mlx5_0', 1, "
		      "'pma', 'link_downed', NULL, 0, 1000, 'p/link_downed')",
		      "i", bid);
	rc |= db_exec(db, "INSERT INTO temp.s_counters VALUES (?, 'mlx5_0', 1, "
		      "'hw', 'out_of_buffer', 0, 0, 999, 'h/out_of_buffer')", "i",
		      bid);
	rc |= db_exec(db, "INSERT INTO temp.s_counters VALUES (?, 'mlx5_0', 1, "
		      "'hw', 'rx_write_requests', 0, NULL, NULL, NULL)", "i", bid);
	if (extra)
		rc |= db_exec(db, "INSERT INTO temp.s_counters VALUES (?, "
			      "'mlx5_1', 1, 'pma', 'symbol_error', 0, 0, 1000, "
			      "NULL)", "i", bid);
	rc |= db_exec(db, "INSERT INTO temp.s_netdev_stats VALUES (?, 'ib0', "
		      "'sysfs', 'rx_errors', 0, NULL, NULL)", "i", bid);
	return rc;
}

#define ROWS "SELECT group_concat(r, ';') FROM (SELECT ibdev || ',' || port " \
	"|| ',' || kind || ',' || name || ',' || quote(value) || ',' || " \
	"quote(value2) || ',' || quote(interval_ms) || ',' || quote(path) AS r " \
	"FROM counters WHERE bundle_id = ?)"

static void rows(sqlite3 *db, int64_t bid, const char *want, const char *what)
{
	sqlite3_stmt *st = db_query(db, ROWS, "i", bid);

	sqlite3_step(st);
	T_STREQ(db_col(st, 0), want, "%s", what);
	db_done(st);
}

/* a row table (facts): bundles 4 and 5 with the same rows share a set,
 * bundle 6's differ; OR REPLACE in the staging keeps the last row */
static void rowsets(sqlite3 *db)
{
	static const char *const ins = "INSERT OR REPLACE INTO temp.s_facts "
		"(bundle_id, key, value, path) VALUES (?, ?, ?, 'p')";
	int64_t b;

	for (b = 4; b <= 6; b++) {
		db_exec(db, ins, "iss", b, "kernel", "6.1");
		db_exec(db, ins, "iss", b, "arch", "x86_64");
		db_exec(db, ins, "iss", b, "kernel", b == 6 ? "6.8" : "6.2");
		T_OK(!store_bundle(db, b), "bundle %d's facts stored", (int)b);
	}
	T_OK(db_int(db, "SELECT count(*) FROM row_sets WHERE tbl = 'facts'",
		    NULL) == 2 && db_int(db, "SELECT count(*) FROM facts_rows",
					 NULL) == 4,
	     "bundles 4 and 5 share a row set of facts, bundle 6 has its own");
	T_OK(db_int(db, "SELECT count(*) FROM facts WHERE bundle_id = 5 AND "
		    "key = 'kernel' AND value = '6.2'", NULL) == 1 &&
	     db_int(db, "SELECT count(*) FROM facts WHERE bundle_id = 5",
		    NULL) == 2, "the view gives bundle 5 its 2 facts, the "
	     "replaced kernel's last value");
	db_run(db, "DELETE FROM bundle_sets WHERE bundle_id IN (4, 6)");
	T_OK(evidence_gc(db) == 3, "bundles 4 and 6 deleted: bundle 6's set "
	     "(1 set + 2 rows) is collected");
	T_OK(db_int(db, "SELECT count(*) FROM facts WHERE bundle_id = 5",
		    NULL) == 2, "bundle 5 keeps the set it shared with 4");
	db_run(db, "DELETE FROM bundle_sets");
	T_OK(evidence_gc(db) == 3 && db_int(db, "SELECT count(*) FROM "
					    "facts_rows", NULL) == 0,
	     "bundle 5 deleted: its set and rows are collected");
}

int main(void)
{
	sqlite3 *db = db_open(":memory:");

	if (!db)
		return 1;
	/* no bundles rows: this is the storage alone */
	db_run(db, "PRAGMA foreign_keys = OFF");
	T_OK(!store_stage(db), "the staging tables are made");
	T_OK(!stage(db, 1, 0) && !store_bundle(db, 1), "bundle 1 stored");
	rows(db, 1, "mlx5_0,1,hw,out_of_buffer,0,0,999,'h/out_of_buffer';"
	     "mlx5_0,1,hw,rx_write_requests,0,NULL,NULL,NULL;"
	     "mlx5_0,1,pma,link_downed,NULL,0,1000,'p/link_downed';"
	     "mlx5_0,1,pma,port_rcv_data,100,107,1000,'p/port_rcv_data';"
	     "mlx5_0,1,pma,symbol_error,0,0,1000,'p/symbol_error'",
	     "the view gives bundle 1's rows back, in key order");
	T_OK(db_int(db, "SELECT count(*) FROM counter_values WHERE bundle_id = 1",
		    NULL) == 3, "only the rows not implied are stored (3 of 5)");
	T_OK(db_int(db, "SELECT count(*) FROM temp.s_counters", NULL) == 0 &&
	     db_int(db, "SELECT count(*) FROM temp.s_netdev_stats", NULL) == 0,
	     "the staging tables are emptied");
	T_OK(db_int(db, "SELECT count(*) FROM netdev_stats WHERE bundle_id = 1 "
		    "AND value = 0 AND value2 IS NULL", NULL) == 1 &&
	     db_int(db, "SELECT count(*) FROM netdev_stat_values", NULL) == 0,
	     "a netdev counter at zero is implied");
	T_OK(!stage(db, 2, 0) && !store_bundle(db, 2), "bundle 2 stored");
	T_OK(db_int(db, "SELECT count(*) FROM counter_sets", NULL) == 1 &&
	     db_int(db, "SELECT count(*) FROM counter_keys", NULL) == 5,
	     "bundle 2, with the same keys, shares bundle 1's key set");
	T_OK(!stage(db, 3, 1) && !store_bundle(db, 3), "bundle 3 stored");
	T_OK(db_int(db, "SELECT count(*) FROM counter_sets", NULL) == 2 &&
	     db_int(db, "SELECT count(*) FROM counters WHERE bundle_id = 3",
		    NULL) == 6, "bundle 3, one key more, has a set of its own");
	T_OK(evidence_gc(db) == 0, "nothing to collect while all are used");
	db_run(db, "DELETE FROM counter_bundles WHERE bundle_id IN (1, 3); "
	       "DELETE FROM counter_values WHERE bundle_id IN (1, 3); "
	       "DELETE FROM netdev_stat_bundles WHERE bundle_id IN (1, 3); "
	       "DELETE FROM netdev_stat_values WHERE bundle_id IN (1, 3)");
	T_OK(evidence_gc(db) == 7, "bundles 1 and 3 deleted: bundle 3's set "
	     "(1 set + 6 keys) is collected");
	T_OK(db_int(db, "SELECT count(*) FROM counters", NULL) == 5 &&
	     db_int(db, "SELECT count(*) FROM counter_sets s JOIN "
		    "counter_bundles b ON b.set_id = s.id", NULL) == 1,
	     "bundle 2 keeps the set it shared with bundle 1");
	rowsets(db);
	db_run(db, "DELETE FROM counter_bundles; DELETE FROM counter_values; "
	       "DELETE FROM netdev_stat_bundles");
	T_OK(evidence_gc(db) == 8, "every bundle deleted: the two sets left "
	     "(a counter set of 5 keys, a netdev set of 1) are collected");
	T_OK(db_int(db, "SELECT (SELECT count(*) FROM counter_keys) + (SELECT "
		    "count(*) FROM netdev_stat_keys) + (SELECT count(*) FROM "
		    "counter_sets) + (SELECT count(*) FROM netdev_stat_sets)",
		    NULL) == 0 && evidence_gc(db) == 0,
	     "no shared row is left, and a second pass removes nothing");
	db_close(db);
	return t_done();
}
