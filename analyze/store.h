/* store: the counter tables as shared key sets and the values that are
 * not implied, and the tables of rows that seldom change as shared row
 * sets (schema/012-store.sql, 013-store-views.sql, DATABASE.md
 * "Storage").
 *
 * The loader's extractors write rows of the old shape into temp tables
 * (temp.s_<table>, made by store_stage()); store_bundle() then moves one
 * bundle's staged rows into the shared sets and its own values.  The
 * views of 013 read them back, row for row.
 */
#ifndef RDMA_ANALYZE_STORE_H
#define RDMA_ANALYZE_STORE_H

#include <sqlite3.h>
#include <stdint.h>

/* make the staging tables of this connection (once; 0 or -1) */
int store_stage(sqlite3 *db);
/* store the staged rows as bundle bid's and empty the staging tables:
 * 0, or -1 with a message (the caller rolls the bundle back) */
int store_bundle(sqlite3 *db, int64_t bid);
/* Rows computed after load (fingerprint.c): store_unset() takes table's
 * rows (one of the row tables) from the bundles listed in todo (a table
 * of bundle_id: "temp.fp_todo"); store_staged() then stores the rows
 * staged in temp.s_<table> as their bundles'.  0 or -1.  store_unset()
 * writes: called first in a deferred transaction, it takes the write
 * lock (waiting for another writer) before anything is read */
int store_unset(sqlite3 *db, const char *table, const char *todo);
int store_staged(sqlite3 *db, const char *table);
/* merge: the key sets and set references of the bundles mapped in
 * temp.bmap (old id in the attached "src", new id in main); the value
 * tables are copied as every bundle_id table is */
int store_merge(sqlite3 *db);
/* whether merge's generic copy must leave table t to store_merge */
int store_is_shared(const char *t);
/* right after migration n (012, 014) made the storage: the rows of the
 * tables it replaces stored anew and those tables dropped (012: for
 * 013's views to take their names; 014 renamed them T_before and made
 * its views), inside the migrations' transaction */
int store_upgrade(sqlite3 *db, int n);

/* Remove the shared rows no bundle refers to (key sets of the counter
 * tables).  Call it after deleting bundles' evidence (the rows of every
 * table with a bundle_id, then bundles), in the same transaction or
 * after it: it deletes only what nothing references, so it is safe at
 * any time and idempotent.  Returns the number of shared rows removed,
 * or -1 with a message. */
int evidence_gc(sqlite3 *db);

#endif
