/* store: counter tables kept as shared key sets plus the values that are
 * not implied (see store.h, schema/012-store.sql) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "log.h"
#include "sha256.h"
#include "store.h"
#include "util.h"

/* a counter table: its view, the staging table of its old shape, and the
 * tables it is stored in */
struct family {
	const char *view;	/* counters */
	const char *cols;	/* the view's columns, in order */
	const char *key;	/* the key columns, in key order */
	const char *extra;	/* key-set columns that are not the key */
	const char *on;		/* key k of staged row s */
	const char *kcols;	/* the key table's columns but set_id */
	const char *sets, *keys, *bundles, *values;
	const char *stage_ddl;
};

static const struct family families[] = {
	{ "counters",
	  "bundle_id, ibdev, port, kind, name, value, value2, interval_ms, path",
	  "kind, name, ibdev, port", "path",
	  "k.kind = s.kind AND k.name = s.name AND k.ibdev = s.ibdev AND "
	  "k.port = s.port", "kind, name, ibdev, port, slot, path, sampled",
	  "counter_sets", "counter_keys", "counter_bundles", "counter_values",
	  "CREATE TEMP TABLE IF NOT EXISTS s_counters (bundle_id INTEGER NOT "
	  "NULL, ibdev TEXT NOT NULL, port INTEGER NOT NULL, kind TEXT NOT "
	  "NULL, name TEXT NOT NULL, value INTEGER, value2 INTEGER, "
	  "interval_ms INTEGER, path TEXT, PRIMARY KEY (bundle_id, kind, "
	  "name, ibdev, port)) WITHOUT ROWID" },
	{ "netdev_stats",
	  "bundle_id, netdev, source, name, value, value2, interval_ms",
	  "source, name, netdev", NULL,
	  "k.source = s.source AND k.name = s.name AND k.netdev = s.netdev",
	  "source, name, netdev, slot, sampled",
	  "netdev_stat_sets", "netdev_stat_keys", "netdev_stat_bundles",
	  "netdev_stat_values",
	  "CREATE TEMP TABLE IF NOT EXISTS s_netdev_stats (bundle_id INTEGER "
	  "NOT NULL, netdev TEXT NOT NULL, source TEXT NOT NULL, name TEXT "
	  "NOT NULL, value INTEGER, value2 INTEGER, interval_ms INTEGER, "
	  "PRIMARY KEY (bundle_id, source, name, netdev)) WITHOUT ROWID" },
};

#define NFAM (sizeof(families) / sizeof(families[0]))

/* a table of rows that seldom change: its view, the columns of its key
 * (NULL: none), whether it is WITHOUT ROWID and its columns but
 * bundle_id, in order.  A table of migration 014 (klog, limits,
 * environment) has no key and its order matters: its set's rows are
 * numbered (pos, 1.. in the order written) and its staging table, of
 * the old shape, is made by `stage` (the others' is derived from their
 * T_rows, made by 012) */
struct rowtab {
	const char *view;
	const char *key;
	int keyed;		/* WITHOUT ROWID: its rows in key order */
	const char *cols;
	const char *stage;	/* 014's: the staging table */
};

#define ORDERED(v, cols, stage) { v, NULL, 0, cols, \
	"CREATE TEMP TABLE IF NOT EXISTS s_" v " (bundle_id INTEGER NOT " \
	"NULL, " stage ")" }

static const struct rowtab rowtabs[] = {
	{ "addresses", NULL, 0,
	  "netdev, family, address, prefixlen", NULL },
	{ "devices", "ibdev", 0,
	  "ibdev, node_type, node_guid, sys_image_guid, fw_ver, hca_type, "
	  "board_id, hw_rev, node_desc, pci_addr, parent, vendor_id, "
	  "vendor_part_id, phys_port_cnt", NULL },
	{ "devnodes", "name", 0,
	  "name, type, mode, uid, gid, user, \"group\", major, minor", NULL },
	{ "facts", "key", 0,
	  "key, value, path", NULL },
	{ "gids", "ibdev, port, idx", 0,
	  "ibdev, port, idx, gid, type, ndev, ipv4", NULL },
	{ "ibdev_pci", "ibdev", 0,
	  "ibdev, pci_addr", NULL },
	{ "iommu_groups", "grp", 0,
	  "grp, type, path", NULL },
	{ "link_active", "ibdev, port", 0,
	  "ibdev, port, active_width, active_speed, active_speed_ex", NULL },
	{ "meminfo", "name", 0,
	  "name, value", NULL },
	{ "module_params", "module, name", 0,
	  "module, name, value", NULL },
	{ "modules", "name", 0,
	  "name, size, refcnt, used_by, state, version, srcversion", NULL },
	{ "netdevs", "name", 0,
	  "name, ibdev, port, mtu, operstate, carrier, speed, address, type, "
	  "driver, driver_version, fw_version, bus_info, master", NULL },
	{ "pci_acs", "addr", 0,
	  "addr, cap, ctrl, src_valid, trans_blk, req_redir, cmplt_redir, "
	  "upstream_fwd, egress_ctrl, direct_trans, offset", NULL },
	{ "pci_functions", "addr", 0,
	  "addr, vendor, device, class, subsys_vendor, subsys_device, kind, "
	  "parent_addr, driver, numa_node, iommu_group, cur_link_speed, "
	  "cur_link_width, max_link_speed, max_link_width, config_bytes, "
	  "lnkcap_speed, lnkcap_width, lnksta_speed, lnksta_width, "
	  "pcie_port_type, path, lnkcap2, ibdev", NULL },
	{ "pfc", "netdev", 0,
	  "netdev, status, pfc_cap, pfc_en, delay, mbc, dcbx, trust", NULL },
	{ "ports", "ibdev, port", 0,
	  "ibdev, port, state, state_text, phys_state, phys_state_text, "
	  "link_layer, rate, rate_gbps, width, speed, lid, sm_lid, lmc, "
	  "sm_sl, cap_mask, max_mtu, active_mtu, gid_tbl_len, netdev", NULL },
	{ "rdma_cdevs", "name", 0,
	  "name, class, ibdev, port, dev, path", NULL },
	{ "fingerprint_attrs", "attr", 1,
	  "attr, grp, value, path", NULL },
	ORDERED("klog", "seq, ts_us, prio, device, text, category",
		"seq INTEGER, ts_us INTEGER, prio INTEGER, device TEXT, text "
		"TEXT NOT NULL, category TEXT"),
	ORDERED("limits", "who, item, domain, type, value, path",
		"who TEXT NOT NULL, item TEXT NOT NULL, domain TEXT, type TEXT, "
		"value TEXT, path TEXT"),
	ORDERED("environment", "who, name, value",
		"who TEXT NOT NULL, name TEXT NOT NULL, value TEXT"),
};

#define NROW (sizeof(rowtabs) / sizeof(rowtabs[0]))

/* the staging table of a row table: its T_rows table's own definition,
 * keyed by bundle_id instead of set_id (the same constraints: INSERT OR
 * REPLACE and OR IGNORE keep or drop the rows they kept or dropped) */
static int stage_rowtab(sqlite3 *db, const struct rowtab *t)
{
	char *ddl;
	sqlite3_stmt *st;
	int rc = -1;

	if (t->stage)
		return db_run(db, t->stage);
	st = db_query(db, "SELECT replace(replace(replace(sql, 'CREATE TABLE "
		      "' || ?1 || '_rows (', 'CREATE TEMP TABLE IF NOT EXISTS s_' "
		      "|| ?1 || ' ('), 'set_id INTEGER NOT NULL REFERENCES "
		      "row_sets (id)', 'bundle_id INTEGER NOT NULL'), 'PRIMARY "
		      "KEY (set_id', 'PRIMARY KEY (bundle_id') FROM "
		      "main.sqlite_master WHERE name = ?1 || '_rows'", "s",
		      t->view);
	ddl = sqlite3_step(st) == SQLITE_ROW ? db_col_dup(st, 0) : NULL;
	db_done(st);
	if (ddl)
		rc = db_run(db, ddl);
	else
		error("database: no table %s_rows", t->view);
	free(ddl);
	return rc;
}

int store_stage(sqlite3 *db)
{
	size_t i;

	for (i = 0; i < NFAM; i++)
		if (db_run(db, families[i].stage_ddl) < 0)
			return -1;
	for (i = 0; i < NROW; i++)
		if (stage_rowtab(db, &rowtabs[i]) < 0)
			return -1;
	return 0;
}

int store_is_shared(const char *t)
{
	size_t i;

	for (i = 0; i < NFAM; i++)
		if (!strcmp(t, families[i].sets) ||
		    !strcmp(t, families[i].keys) ||
		    !strcmp(t, families[i].bundles))
			return 1;
	return !strcmp(t, "row_sets") || !strcmp(t, "bundle_sets");
}

/* v into the digest, 8 bytes little-endian */
static void hash_u64(struct sha256_ctx *c, uint64_t v)
{
	unsigned char b[8];
	int k;

	for (k = 0; k < 8; k++)
		b[k] = (unsigned char)(v >> (8 * k));
	sha256_update(c, b, 8);
}

/* one column into the digest: its type, then its value exactly (a real
 * by its bits, text and blobs by their length and bytes) */
static void hash_col(struct sha256_ctx *c, sqlite3_stmt *st, int i)
{
	unsigned char t = (unsigned char)sqlite3_column_type(st, i);
	const void *p;
	double d;
	uint64_t u;
	int n;

	sha256_update(c, &t, 1);
	switch (t) {
	case SQLITE_INTEGER:
		hash_u64(c, (uint64_t)sqlite3_column_int64(st, i));
		break;
	case SQLITE_FLOAT:
		d = sqlite3_column_double(st, i);
		memcpy(&u, &d, sizeof(u));
		hash_u64(c, u);
		break;
	case SQLITE_TEXT:
	case SQLITE_BLOB:
		p = t == SQLITE_TEXT ? (const void *)sqlite3_column_text(st, i) :
		    sqlite3_column_blob(st, i);
		n = sqlite3_column_bytes(st, i);
		hash_u64(c, (uint64_t)n);
		if (n > 0)
			sha256_update(c, p, (size_t)n);
		break;
	}
}

/* a staged counter row's value columns: value, value2, interval_ms; an
 * integer or NULL held in place (all a loader writes), anything else a
 * copy of the value (a bundle of 200,000 counters held 600,000 copies) */
struct vals {
	int64_t i[3];
	sqlite3_value *o[3];
	unsigned char t[3];	/* SQLITE_INTEGER, SQLITE_NULL or other */
};

static void vals_set(struct vals *r, int k, sqlite3_value *v)
{
	r->t[k] = (unsigned char)sqlite3_value_type(v);
	r->o[k] = NULL;
	if (r->t[k] == SQLITE_INTEGER)
		r->i[k] = sqlite3_value_int64(v);
	else if (r->t[k] != SQLITE_NULL)
		r->o[k] = sqlite3_value_dup(v);
}

/* value k of r is the integer x */
static int vals_is(const struct vals *r, int k, int64_t x)
{
	return r->t[k] == SQLITE_INTEGER && r->i[k] == x;
}

static void vals_bind(sqlite3_stmt *st, int col, const struct vals *r, int k)
{
	if (r->t[k] == SQLITE_INTEGER)
		sqlite3_bind_int64(st, col, r->i[k]);
	else if (r->t[k] == SQLITE_NULL)
		sqlite3_bind_null(st, col);
	else
		sqlite3_bind_value(st, col, r->o[k]);
}

static void vals_free(struct vals *v, int64_t n)
{
	int64_t i;
	int k;

	for (i = 0; v && i < n; i++)
		for (k = 0; k < 3; k++)
			sqlite3_value_free(v[i].o[k]);
	free(v);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* the staged rows of f: the SHA-256 of their key set (keys, extra
 * columns, read twice or not) in key order into out, their values in
 * the same order (slot i + 1) into *vals; their count, or -1 */
static int64_t key_digest(sqlite3 *db, const struct family *f,
			  unsigned char out[32], struct vals **vals)
{
	char sql[512];
	struct sha256_ctx c;
	sqlite3_stmt *st;
	int64_t n = 0;
	size_t alloc = 0;
	int rc, i, nk;

	/* (one bundle is staged at a time: bundle_id first is the
	 * staging table's own order, no sort) */
	snprintf(sql, sizeof(sql), "SELECT %s%s%s, value2 IS NOT NULL, value, "
		 "value2, interval_ms FROM temp.s_%s ORDER BY bundle_id, %s",
		 f->key, f->extra ? ", " : "", f->extra ? f->extra : "",
		 f->view, f->key);
	st = db_query(db, sql, NULL);
	sha256_init(&c);
	sha256_update(&c, f->view, strlen(f->view) + 1);
	*vals = NULL;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		nk = sqlite3_column_count(st) - 3;
		for (i = 0; i < nk; i++)
			hash_col(&c, st, i);
		if ((size_t)n == alloc) {
			alloc = alloc ? 2 * alloc : 1024;
			*vals = xrealloc(*vals, alloc * sizeof(**vals));
		}
		for (i = 0; i < 3; i++)
			vals_set(&(*vals)[n], i, sqlite3_column_value(st,
								     nk + i));
		n++;
	}
	db_done(st);
	if (rc != SQLITE_DONE) {
		vals_free(*vals, n);
		*vals = NULL;
		return error("database: %s", sqlite3_errmsg(db));
	}
	sha256_final(&c, out);
	return n;
}

/* the set of the digest, made from the staged rows if new */
static int64_t key_set(sqlite3 *db, const struct family *f,
		       const unsigned char d[32])
{
	char sql[1024];
	sqlite3_stmt *st;
	int64_t id = 0;

	snprintf(sql, sizeof(sql), "SELECT id FROM main.%s WHERE digest = ?",
		 f->sets);
	st = db_query(db, sql, NULL);
	sqlite3_bind_blob(st, 1, d, 32, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	db_done(st);
	if (id)
		return id;
	snprintf(sql, sizeof(sql), "INSERT INTO main.%s (digest) VALUES (?)",
		 f->sets);
	st = db_query(db, sql, NULL);
	sqlite3_bind_blob(st, 1, d, 32, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		db_done(st);
		return error("database: %s", sqlite3_errmsg(db));
	}
	db_done(st);
	id = sqlite3_last_insert_rowid(db);
	snprintf(sql, sizeof(sql), "INSERT INTO main.%s (set_id, %s, slot, "
		 "%s%ssampled) SELECT ?, %s, row_number() OVER (ORDER BY %s), "
		 "%s%svalue2 IS NOT NULL FROM temp.s_%s", f->keys, f->key,
		 f->extra ? f->extra : "", f->extra ? ", " : "", f->key,
		 f->key, f->extra ? f->extra : "", f->extra ? ", " : "",
		 f->view);
	if (db_exec(db, sql, "i", id) < 0)
		return -1;
	return id;
}

/* the interval of a bundle's implied rows: the one most of its rows read
 * twice have (the smallest of equally many; -1: none, or NULL) */
static int64_t implied_interval(const struct vals *v, int64_t n)
{
	int64_t *iv = xmalloc((size_t)(n ? n : 1) * sizeof(*iv));
	int64_t i, k = 0, best = -1, run = 0, most = 0;

	for (i = 0; i < n; i++)
		if (v[i].t[1] != SQLITE_NULL && v[i].t[2] == SQLITE_INTEGER)
			iv[k++] = v[i].i[2];
	qsort(iv, (size_t)k, sizeof(*iv), cmp_i64);
	for (i = 0; i < k; i++) {
		run = i && iv[i] == iv[i - 1] ? run + 1 : 1;
		if (run > most) {
			most = run;
			best = iv[i];
		}
	}
	free(iv);
	return best < 0 ? -1 : best;
}

/* whether a row is its key's implied one (value 0; value2 0 and the
 * bundle's interval when read twice, else both NULL) */
static int implied(const struct vals *r, int64_t ims)
{
	if (!vals_is(r, 0, 0))
		return 0;
	if (r->t[1] == SQLITE_NULL)
		return r->t[2] == SQLITE_NULL;
	return vals_is(r, 1, 0) && ims >= 0 && vals_is(r, 2, ims);
}

static int store_family(sqlite3 *db, const struct family *f, int64_t bid)
{
	char sql[256];
	unsigned char d[32];
	struct vals *v;
	int64_t n, i, set, ims;
	sqlite3_stmt *st;
	int rc = 0, k;

	n = key_digest(db, f, d, &v);
	if (n <= 0)
		return (int)n;
	set = key_set(db, f, d);
	ims = implied_interval(v, n);
	snprintf(sql, sizeof(sql), "INSERT INTO main.%s (bundle_id, set_id, "
		 "interval_ms) VALUES (?, ?, ?)", f->bundles);
	if (set < 0 || db_exec(db, sql, "iiN", bid, set, ims) < 0)
		rc = -1;
	/* the values that are not implied, slot i + 1 */
	snprintf(sql, sizeof(sql), "INSERT INTO main.%s (bundle_id, slot, "
		 "value, value2, interval_ms) VALUES (?, ?, ?, ?, ?)", f->values);
	for (i = 0; i < n && !rc; i++) {
		if (implied(&v[i], ims))
			continue;
		st = db_query(db, sql, "ii", bid, i + 1);
		for (k = 0; k < 3; k++)
			vals_bind(st, 3 + k, &v[i], k);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = error("database: %s", sqlite3_errmsg(db));
		db_done(st);
	}
	vals_free(v, n);
	return rc;
}

/* how a table's rows are ordered: as written, or by key */
static const char *row_order(const struct rowtab *t)
{
	return t->keyed ? t->key : "rowid";
}

/* the digest of a bundle's staged rows of t, in their order, and their
 * count (or -1) */
static int64_t row_digest(sqlite3 *db, const struct rowtab *t, int64_t bid,
			  unsigned char out[32])
{
	char sql[1024];
	struct sha256_ctx c;
	sqlite3_stmt *st;
	int64_t n = 0;
	int rc, i, nc;

	snprintf(sql, sizeof(sql), "SELECT %s FROM temp.s_%s WHERE bundle_id = "
		 "? ORDER BY %s", t->cols, t->view, row_order(t));
	st = db_query(db, sql, "i", bid);
	sha256_init(&c);
	sha256_update(&c, t->view, strlen(t->view) + 1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		nc = sqlite3_column_count(st);
		for (i = 0; i < nc; i++)
			hash_col(&c, st, i);
		n++;
	}
	db_done(st);
	if (rc != SQLITE_DONE)
		return error("database: %s", sqlite3_errmsg(db));
	sha256_final(&c, out);
	return n;
}

/* bundle bid's rows of t: the set that has them, made if new */
static int store_rowtab(sqlite3 *db, const struct rowtab *t, int64_t bid)
{
	char sql[1024];
	unsigned char d[32];
	sqlite3_stmt *st;
	int64_t n, id = 0;

	n = row_digest(db, t, bid, d);
	if (n <= 0)
		return (int)n;
	st = db_query(db, "SELECT id FROM main.row_sets WHERE tbl = ? AND "
		      "digest = ?", "s", t->view);
	sqlite3_bind_blob(st, 2, d, 32, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	db_done(st);
	if (!id) {
		st = db_query(db, "INSERT INTO main.row_sets (tbl, digest) "
			      "VALUES (?, ?)", "s", t->view);
		sqlite3_bind_blob(st, 2, d, 32, SQLITE_STATIC);
		n = sqlite3_step(st);
		db_done(st);
		if (n != SQLITE_DONE)
			return error("database: %s", sqlite3_errmsg(db));
		id = sqlite3_last_insert_rowid(db);
		snprintf(sql, sizeof(sql), "INSERT INTO main.%s_rows (set_id, "
			 "%s%s) SELECT ?, %s%s FROM temp.s_%s WHERE bundle_id = ? "
			 "ORDER BY %s", t->view, t->stage ? "pos, " : "", t->cols,
			 t->stage ? "row_number() OVER (ORDER BY rowid), " : "",
			 t->cols, t->view, row_order(t));
		if (db_exec(db, sql, "ii", id, bid) < 0)
			return -1;
	}
	return db_exec(db, "INSERT INTO main.bundle_sets (bundle_id, tbl, "
		       "set_id) VALUES (?, ?, ?)", "isi", bid, t->view, id);
}

int store_bundle(sqlite3 *db, int64_t bid)
{
	char sql[128];
	size_t i;
	int rc = 0;

	for (i = 0; i < NFAM && !rc; i++)
		rc = store_family(db, &families[i], bid);
	for (i = 0; i < NROW && !rc; i++)
		rc = store_rowtab(db, &rowtabs[i], bid);
	for (i = 0; i < NFAM + NROW; i++) {
		snprintf(sql, sizeof(sql), "DELETE FROM temp.s_%s", i < NFAM ?
			 families[i].view : rowtabs[i - NFAM].view);
		if (db_run(db, sql) < 0)
			rc = -1;
	}
	return rc;
}

int store_unset(sqlite3 *db, const char *table, const char *todo)
{
	char sql[512];

	snprintf(sql, sizeof(sql), "DELETE FROM main.bundle_sets WHERE tbl = ? "
		 "AND bundle_id IN (SELECT bundle_id FROM %s)", todo);
	return db_exec(db, sql, "s", table);
}

int store_staged(sqlite3 *db, const char *table)
{
	char sql[512];
	const struct rowtab *t = NULL;
	sqlite3_stmt *st;
	size_t i;
	int rc = 0;

	for (i = 0; i < NROW; i++)
		if (!strcmp(rowtabs[i].view, table))
			t = &rowtabs[i];
	if (!t)
		return error("store: no row table %s", table);
	snprintf(sql, sizeof(sql), "SELECT DISTINCT bundle_id FROM temp.s_%s",
		 table);
	st = db_query(db, sql, NULL);
	while (!rc && sqlite3_step(st) == SQLITE_ROW)
		rc = store_rowtab(db, t, sqlite3_column_int64(st, 0));
	db_done(st);
	snprintf(sql, sizeof(sql), "DELETE FROM temp.s_%s", table);
	if (db_run(db, sql) < 0)
		rc = -1;
	return rc;
}

static int merge_rowtabs(sqlite3 *db);

int store_merge(sqlite3 *db)
{
	char sql[1024];
	size_t i;

	for (i = 0; i < NFAM; i++) {
		const struct family *f = &families[i];

		/* the sets of the merged bundles, by digest */
		snprintf(sql, sizeof(sql), "INSERT OR IGNORE INTO main.%s "
			 "(digest) SELECT DISTINCT s.digest FROM src.%s s JOIN "
			 "src.%s b ON b.set_id = s.id JOIN temp.bmap m ON "
			 "m.old = b.bundle_id", f->sets, f->sets, f->bundles);
		if (db_run(db, sql) < 0)
			return -1;
		/* their keys, where the set is new here (an old one has
		 * the same keys: its digest says so) */
		snprintf(sql, sizeof(sql), "INSERT INTO main.%s (set_id, %s) "
			 "SELECT nid, %s FROM (SELECT n.id AS nid, k.* FROM "
			 "src.%s k JOIN src.%s s ON s.id = k.set_id JOIN main.%s "
			 "n ON n.digest = s.digest WHERE NOT EXISTS (SELECT 1 "
			 "FROM main.%s x WHERE x.set_id = n.id))", f->keys,
			 f->kcols, f->kcols, f->keys, f->sets, f->sets, f->keys);
		if (db_run(db, sql) < 0)
			return -1;
		snprintf(sql, sizeof(sql), "INSERT INTO main.%s (bundle_id, "
			 "set_id, interval_ms) SELECT m.new, n.id, b.interval_ms "
			 "FROM src.%s b JOIN temp.bmap m ON m.old = b.bundle_id "
			 "JOIN src.%s s ON s.id = b.set_id JOIN main.%s n ON "
			 "n.digest = s.digest", f->bundles, f->bundles, f->sets,
			 f->sets);
		if (db_run(db, sql) < 0)
			return -1;
	}
	return merge_rowtabs(db);
}

/* merge: the row sets of the merged bundles, found or added by digest */
static int merge_rowtabs(sqlite3 *db)
{
	char sql[1024];
	size_t i;

	if (db_run(db, "INSERT OR IGNORE INTO main.row_sets (tbl, digest) "
		   "SELECT DISTINCT s.tbl, s.digest FROM src.row_sets s JOIN "
		   "src.bundle_sets b ON b.set_id = s.id JOIN temp.bmap m ON "
		   "m.old = b.bundle_id") < 0)
		return -1;
	for (i = 0; i < NROW; i++) {
		const struct rowtab *t = &rowtabs[i];

		const char *pos = t->stage ? "pos, " : "";

		snprintf(sql, sizeof(sql), "INSERT INTO main.%s_rows (set_id, "
			 "%s%s) SELECT nid, %s%s FROM (SELECT n.id AS nid, %s AS "
			 "rid, r.* FROM src.%s_rows r JOIN src.row_sets s ON s.id "
			 "= r.set_id JOIN main.row_sets n ON n.tbl = s.tbl AND "
			 "n.digest = s.digest WHERE s.tbl = '%s' AND NOT EXISTS "
			 "(SELECT 1 FROM main.%s_rows x WHERE x.set_id = n.id)) "
			 "ORDER BY nid, rid", t->view, pos, t->cols, pos, t->cols,
			 t->keyed || t->stage ? "NULL" : "r.rowid", t->view,
			 t->view, t->view);
		if (db_run(db, sql) < 0)
			return -1;
	}
	return db_run(db, "INSERT INTO main.bundle_sets (bundle_id, tbl, "
		      "set_id) SELECT m.new, b.tbl, n.id FROM src.bundle_sets b "
		      "JOIN temp.bmap m ON m.old = b.bundle_id JOIN src.row_sets "
		      "s ON s.id = b.set_id JOIN main.row_sets n ON n.tbl = "
		      "s.tbl AND n.digest = s.digest");
}

/* the name of the table a migration's step reads: 012's are the old
 * tables, 014's were renamed T_before by its SQL */
static const char *old_name(const char *view, int n, char *out, size_t len)
{
	snprintf(out, len, "%s%s", view, n == 14 ? "_before" : "");
	return out;
}

/* bundle bid's rows of the table before migration n (T) into its
 * staging table: cols, bundle_id first or not (add it); a rowid table's
 * in the order they were written (the counter tables were WITHOUT
 * ROWID: their key order is their order) */
static int stage_old(sqlite3 *db, const char *view, const char *cols,
		     int64_t bid, int rowid, int n)
{
	char sql[1024], old[64];
	const char *b = strncmp(cols, "bundle_id,", 10) ? "bundle_id, " : "";

	snprintf(sql, sizeof(sql), "INSERT INTO temp.s_%s (%s%s) SELECT %s%s "
		 "FROM main.%s WHERE bundle_id = ?%s", view, b, cols, b,
		 cols, old_name(view, n, old, sizeof(old)),
		 rowid ? " ORDER BY rowid" : "");
	return db_exec(db, sql, "i", bid);
}

/* whether migration n made table i (families, then rowtabs) shared:
 * 012 the counter tables and the rowtabs without `stage`, 014 those */
static int moved(size_t i, int n)
{
	if (i < NFAM)
		return n == 12;
	return rowtabs[i - NFAM].stage ? n == 14 : n == 12;
}

int store_upgrade(sqlite3 *db, int n)
{
	char sql[128], old[64];
	sqlite3_stmt *st;
	size_t i;
	int rc = 0;

	if (store_stage(db) < 0)
		return -1;
	/* every bundle, one at a time (rows of no bundle, which no query
	 * joined to one, are not kept) */
	st = db_query(db, "SELECT id FROM bundles ORDER BY id", NULL);
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		int64_t bid = sqlite3_column_int64(st, 0);

		for (i = 0; i < NFAM && !rc; i++)
			if (moved(i, n))
				rc = stage_old(db, families[i].view,
					       families[i].cols, bid, 0, n);
		for (i = 0; i < NROW && !rc; i++)
			if (moved(NFAM + i, n))
				rc = stage_old(db, rowtabs[i].view,
					       rowtabs[i].cols, bid,
					       !rowtabs[i].keyed, n);
		if (!rc)
			rc = store_bundle(db, bid);
	}
	db_done(st);
	for (i = 0; i < NFAM + NROW && !rc; i++) {
		if (!moved(i, n))
			continue;
		snprintf(sql, sizeof(sql), "DROP TABLE main.%s",
			 old_name(i < NFAM ? families[i].view :
				  rowtabs[i - NFAM].view, n, old, sizeof(old)));
		rc = db_run(db, sql);
	}
	return rc;
}

int evidence_gc(sqlite3 *db)
{
	char sql[512];
	size_t i;
	int n = 0;

	for (i = 0; i < NFAM; i++) {
		const struct family *f = &families[i];

		snprintf(sql, sizeof(sql), "DELETE FROM main.%s WHERE set_id IN "
			 "(SELECT id FROM main.%s WHERE id NOT IN (SELECT set_id "
			 "FROM main.%s))", f->keys, f->sets, f->bundles);
		if (db_run(db, sql) < 0)
			return -1;
		n += sqlite3_changes(db);
		snprintf(sql, sizeof(sql), "DELETE FROM main.%s WHERE id NOT IN "
			 "(SELECT set_id FROM main.%s)", f->sets, f->bundles);
		if (db_run(db, sql) < 0)
			return -1;
		n += sqlite3_changes(db);
	}
	for (i = 0; i < NROW; i++) {
		snprintf(sql, sizeof(sql), "DELETE FROM main.%s_rows WHERE set_id "
			 "IN (SELECT id FROM main.row_sets WHERE tbl = '%s' AND id "
			 "NOT IN (SELECT set_id FROM main.bundle_sets))",
			 rowtabs[i].view, rowtabs[i].view);
		if (db_run(db, sql) < 0)
			return -1;
		n += sqlite3_changes(db);
	}
	if (db_run(db, "DELETE FROM main.row_sets WHERE id NOT IN (SELECT "
		   "set_id FROM main.bundle_sets)") < 0)
		return -1;
	return n + sqlite3_changes(db);
}
