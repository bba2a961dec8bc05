/* history: a node's snapshots, counter deltas and rates between them,
 * settings that changed, kernel log records that are new (history.h) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "history.h"
#include "log.h"
#include "util.h"

/* --- counters --- */

/* The PMA PortCounters fields: the sysfs file (ib_core's counters/) and
 * libibmad's name (the mad documents), with their width in the attribute
 * (IBA 16.1.3.5).  PMA counters stop at their maximum. */
static const struct pma_field {
	const char *sysfs, *mad;
	unsigned width;
	int error;
} pma_fields[] = {
	{ "symbol_error", "SymbolErrorCounter", 16, 1 },
	{ "link_error_recovery", "LinkErrorRecoveryCounter", 8, 1 },
	{ "link_downed", "LinkDownedCounter", 8, 1 },
	{ "port_rcv_errors", "PortRcvErrors", 16, 1 },
	{ "port_rcv_remote_physical_errors", "PortRcvRemotePhysicalErrors", 16, 1 },
	{ "port_rcv_switch_relay_errors", "PortRcvSwitchRelayErrors", 16, 1 },
	{ "port_xmit_discards", "PortXmitDiscards", 16, 1 },
	{ "port_xmit_constraint_errors", "PortXmitConstraintErrors", 8, 1 },
	{ "port_rcv_constraint_errors", "PortRcvConstraintErrors", 8, 1 },
	{ "local_link_integrity_errors", "LocalLinkIntegrityErrors", 4, 1 },
	{ "excessive_buffer_overrun_errors", "ExcessiveBufferOverrunErrors", 4, 1 },
	{ "VL15_dropped", "VL15Dropped", 16, 1 },
	{ NULL, "QP1Dropped", 16, 0 },
	{ "port_xmit_wait", "PortXmitWait", 32, 0 },
	/* 32 bits in PortCounters, 64 in the extended table (sysfs shows
	 * whichever the HCA's ClassPortInfo offers) */
	{ "port_xmit_data", "PortXmitData", 32, 0 },
	{ "port_rcv_data", "PortRcvData", 32, 0 },
	{ "port_xmit_packets", "PortXmitPkts", 32, 0 },
	{ "port_rcv_packets", "PortRcvPkts", 32, 0 },
};

/* hw_counters that count errors (mlx5's q counters, Soft-RoCE's); the
 * flush errors are left out: one failed QP flushes all its WQEs */
static const char *const hw_errors[] = {
	"out_of_sequence", "duplicate_request", "packet_seq_err",
	"implied_nak_seq_err", "local_ack_timeout_err", "rnr_nak_retry_err",
	"req_cqe_error", "resp_cqe_error", "req_remote_invalid_request",
	"req_remote_access_errors", "resp_remote_access_errors",
	"resp_local_length_error", "req_transport_retries_exceeded",
	"req_rnr_retries_exceeded",
	/* rdma_rxe */
	"rcvd_seq_err", "retry_exceeded_err", "retry_rnr_exceeded_err",
	"completer_retry_err", "send_err", "link_downed",
};

/* ethtool -S names of mlx5e: the port's discards and physical errors */
static const char *const ethtool_errors[] = {
	"rx_discards_phy", "tx_discards_phy", "tx_errors_phy",
	"rx_out_of_buffer", "rx_symbol_err_phy", "rx_pcs_symbol_err_phy",
	"rx_crc_errors_phy", "link_down_events_phy",
};

static int in_list(const char *const *v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

uint64_t hist_max(unsigned width)
{
	return width >= 64 ? UINT64_MAX : ((uint64_t)1 << width) - 1;
}

int hist_counter_info(const char *kind, const char *name, uint64_t value,
		      struct hist_counter *c)
{
	size_t i;

	c->width = 64;
	c->error = 0;
	if (!strcmp(kind, "pma") || !strcmp(kind, "PortCounters")) {
		int sysfs = kind[0] == 'p';

		for (i = 0; i < ARRAY_SIZE(pma_fields); i++) {
			const char *n = sysfs ? pma_fields[i].sysfs :
						pma_fields[i].mad;

			if (!n || strcmp(n, name))
				continue;
			c->width = pma_fields[i].width;
			c->error = pma_fields[i].error;
			/* a data counter above 32 bits is the extended one */
			if (c->width == 32 && sysfs && !c->error &&
			    strcmp(name, "port_xmit_wait") &&
			    value > hist_max(32))
				c->width = 64;
			return 0;
		}
		/* PortSelect, CounterSelect: not counters; other sysfs
		 * counters/ files (unicast_*): 64-bit extended */
		return sysfs ? 0 : -1;
	}
	if (!strcmp(kind, "hw") || !strcmp(kind, "hw_dev"))
		c->error = in_list(hw_errors, ARRAY_SIZE(hw_errors), name);
	else if (!strcmp(kind, "ethtool"))
		c->error = in_list(ethtool_errors, ARRAY_SIZE(ethtool_errors),
				   name);
	return 0;
}

const char *hist_status_name(enum hist_status s)
{
	switch (s) {
	case HIST_DELTA: return "delta";
	case HIST_WRAP: return "wrap";
	case HIST_REBOOT: return "reboot";
	case HIST_RESET: return "reset";
	case HIST_SATURATED: return "saturated";
	}
	return "?";
}

static double per_hour(uint64_t delta, double seconds)
{
	return seconds > 0 ? (double)delta * 3600.0 / seconds : -1;
}

void hist_delta(uint64_t prev, uint64_t cur, unsigned width, int rebooted,
		double interval_s, double uptime_s, struct hist_delta *d)
{
	/* a 64-bit counter is held at INT64_MAX from 2^63 up (util.h
	 * u64_stored): there it is saturated too */
	uint64_t max = width < 64 ? hist_max(width) : (uint64_t)INT64_MAX;

	memset(d, 0, sizeof(*d));
	d->per_hour = -1;
	if (cur >= max) {
		/* it stopped counting somewhere: only "at least" is known */
		d->status = HIST_SATURATED;
		d->delta = rebooted ? cur : cur >= prev ? cur - prev : 0;
		return;
	}
	if (rebooted) {
		/* counting restarted at boot: the value is the growth since,
		 * over the uptime (which must fit in the interval) */
		d->status = HIST_REBOOT;
		d->delta = cur;
		if (uptime_s > 0 && (interval_s < 0 || uptime_s <= interval_s))
			d->seconds = uptime_s;
		d->per_hour = per_hour(d->delta, d->seconds);
		return;
	}
	d->seconds = interval_s > 0 ? interval_s : 0;
	if (cur >= prev) {
		d->status = HIST_DELTA;
		d->delta = cur - prev;
	} else if (width >= 64 && prev >= (uint64_t)3 << 62 &&
		   cur < (uint64_t)1 << 62) {
		/* from the top quarter to the bottom one: a wrap; a reset of
		 * a counter that large is far less likely than the wrap */
		d->status = HIST_WRAP;
		d->delta = cur + (UINT64_MAX - prev) + 1;
	} else {
		/* cleared, or the driver reloaded, at a time not recorded */
		d->status = HIST_RESET;
		d->seconds = 0;
		return;
	}
	d->per_hour = per_hour(d->delta, d->seconds);
}

/* --- snapshots --- */

/* hist_seq: each bundle's place among its node's bundles (pos 1 = the
 * oldest) and its neighbours, computed in one pass over the bundles: the
 * bundles table has no index on node_id, and the history looks neighbours
 * up once per bundle */
static int seq_build(sqlite3 *db)
{
	return db_run(db,
		"DROP TABLE IF EXISTS temp.hist_seq;"
		"CREATE TEMP TABLE hist_seq (bundle_id INTEGER PRIMARY KEY, "
		"node_id INTEGER, pos INTEGER, prev INTEGER, next INTEGER);"
		"INSERT INTO hist_seq SELECT id, node_id, row_number() OVER w, "
		"lag(id) OVER w, lead(id) OVER w FROM bundles WINDOW w AS "
		"(PARTITION BY node_id ORDER BY coalesce(collected_at, ''), id);"
		"CREATE INDEX temp.hist_seq_node ON hist_seq (node_id, pos);");
}

static int seq_fresh(sqlite3 *db)
{
	/* rebuilt when bundles were added since (the count is enough: the
	 * history never deletes bundles) */
	if (db_run(db, "CREATE TEMP TABLE IF NOT EXISTS hist_seq (bundle_id "
		   "INTEGER PRIMARY KEY, node_id INTEGER, pos INTEGER, prev "
		   "INTEGER, next INTEGER)") < 0)
		return -1;
	if (db_int(db, "SELECT count(*) FROM hist_seq", NULL) ==
	    db_int(db, "SELECT count(*) FROM bundles", NULL))
		return 0;
	return seq_build(db);
}

static void snap_read(sqlite3_stmt *st, struct hist_snap *s)
{
	s->bundle_id = sqlite3_column_int64(st, 0);
	s->file = db_col_dup(st, 1);
	s->collected_at = db_col_dup(st, 2);
	s->boot_id = db_col_dup(st, 3);
	s->kernel = db_col_dup(st, 4);
	s->t_ok = sqlite3_column_type(st, 5) != SQLITE_NULL;
	s->t = sqlite3_column_int64(st, 5);
	s->uptime_s = sqlite3_column_type(st, 6) == SQLITE_NULL ? -1 :
		      sqlite3_column_double(st, 6);
}

int hist_node_load(sqlite3 *db, int64_t node_id, int64_t upto, size_t last,
		   struct hist_node *h)
{
	sqlite3_stmt *st;
	int64_t top;

	memset(h, 0, sizeof(*h));
	h->node_id = node_id;
	if (seq_fresh(db) < 0)
		return -1;
	st = db_query(db, "SELECT name, machine_id FROM nodes WHERE id = ?",
		      "i", node_id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		h->name = db_col_dup(st, 0);
		h->machine_id = db_col_dup(st, 1);
	}
	db_done(st);
	top = upto ? db_int(db, "SELECT pos FROM hist_seq WHERE bundle_id = ? "
			    "AND node_id = ?", "ii", upto, node_id) :
		     db_int(db, "SELECT max(pos) FROM hist_seq WHERE node_id = ?",
			    "i", node_id);
	if (top <= 0)
		return 0;
	st = db_query(db, "SELECT b.id, b.file, b.collected_at, b.boot_id, "
		      "b.kernel_release, CAST(strftime('%s', b.collected_at) AS "
		      "INTEGER), b.uptime_s FROM hist_seq s JOIN bundles b ON "
		      "b.id = s.bundle_id WHERE s.node_id = ?1 AND s.pos <= ?2 "
		      "AND s.pos > ?2 - ?3 ORDER BY s.pos", "iii", node_id, top,
		      last ? (int64_t)last : top);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (h->n >= (size_t)top)
			break;
		h->v = xrealloc(h->v, (h->n + 1) * sizeof(*h->v));
		snap_read(st, &h->v[h->n++]);
	}
	db_done(st);
	return 0;
}

void hist_node_release(struct hist_node *h)
{
	size_t i;

	for (i = 0; i < h->n; i++) {
		free(h->v[i].file);
		free(h->v[i].collected_at);
		free(h->v[i].boot_id);
		free(h->v[i].kernel);
	}
	free(h->v);
	free(h->name);
	free(h->machine_id);
	memset(h, 0, sizeof(*h));
}

int hist_rebooted(const struct hist_snap *a, const struct hist_snap *b)
{
	return a->boot_id && b->boot_id && strcmp(a->boot_id, b->boot_id);
}

double hist_interval(const struct hist_snap *a, const struct hist_snap *b)
{
	if (!a->t_ok || !b->t_ok)
		return -1;
	return (double)(b->t - a->t);
}

/* --- counter rows --- */

/* every counter of bundle P as (kind, obj, name, value, value2,
 * interval_ms, path, descr); the far end's PMA counters only (the near
 * end's are the sysfs counters/ files again) */
#define COUNTERS(P) \
	"SELECT kind, ibdev || ':' || port AS obj, name, value, value2, " \
	"interval_ms, path, NULL AS descr FROM counters WHERE bundle_id = " P \
	" UNION ALL SELECT source, netdev, name, value, value2, interval_ms, " \
	"CASE source WHEN 'ethtool' THEN 'rdma-collect/ethtool/' || netdev || " \
	"'.json' ELSE 'sys/class/net/' || netdev || '/statistics/' || name " \
	"END, NULL FROM netdev_stats WHERE bundle_id = " P \
	" UNION ALL SELECT c.grp, coalesce(p.node_guid || ':' || p.port_num, " \
	"c.ibdev || ':' || c.port || ' peer'), c.name, c.value, NULL, NULL, " \
	"'rdma-collect/mad/' || c.ibdev || '.' || c.port || '.json', " \
	"p.node_desc FROM mad_counters c LEFT JOIN mad_portinfo p ON " \
	"p.bundle_id = c.bundle_id AND p.ibdev = c.ibdev AND p.port = c.port " \
	"AND p.side = 'peer' WHERE c.bundle_id = " P " AND c.side = 'peer'"

/* the error counters of bundle ?1 as the rows of HIST_JOIN below (each
 * with its value in bundles ?2 and ?3, the two before it, NULL where
 * absent): hist_err first (CROSS JOIN keeps it outside), each of its names
 * a seek into ?1's counters (keyed by kind and name after the bundle),
 * and each value before a seek by the whole key.  Zeros only after a
 * value in the top half (stored negative), a 64-bit wrap: no other zero
 * grew, and most error counters are zero.  (Three whole counter sets
 * joined cost 60 ms a bundle; the error sets gathered in a temporary
 * table, 0.5 ms and all of them in memory.) */
#define PEER_OBJ(C, P) "coalesce(" P ".node_guid || ':' || " P ".port_num, " \
	C ".ibdev || ':' || " C ".port || ' peer')"
#define PEER_BEFORE(B) "(SELECT x.value FROM mad_counters x LEFT JOIN " \
	"mad_portinfo y ON y.bundle_id = x.bundle_id AND y.ibdev = x.ibdev " \
	"AND y.port = x.port AND y.side = 'peer' WHERE x.bundle_id = " B \
	" AND x.side = 'peer' AND x.grp = c.grp AND x.name = c.name AND " \
	PEER_OBJ("x", "y") " = " PEER_OBJ("c", "p") ")"
#define ERR_ROWS \
	"SELECT kind, obj, name, value, value2, interval_ms, path, descr, " \
	"pv, pv IS NOT NULL, qv, qv IS NOT NULL FROM (" \
	"SELECT c.kind, c.ibdev || ':' || c.port AS obj, c.name, c.value, " \
	"c.value2, c.interval_ms, c.path, NULL AS descr, (SELECT x.value FROM " \
	"counters x WHERE x.bundle_id = ?2 AND x.kind = c.kind AND x.name = " \
	"c.name AND x.ibdev = c.ibdev AND x.port = c.port) AS pv, (SELECT " \
	"x.value FROM counters x WHERE x.bundle_id = ?3 AND x.kind = c.kind " \
	"AND x.name = c.name AND x.ibdev = c.ibdev AND x.port = c.port) AS qv " \
	"FROM hist_err e CROSS JOIN counters c ON c.bundle_id = ?1 AND " \
	"c.kind = e.kind AND c.name = e.name " \
	"UNION ALL SELECT n.source, n.netdev, n.name, n.value, n.value2, " \
	"n.interval_ms, CASE n.source WHEN 'ethtool' THEN " \
	"'rdma-collect/ethtool/' || n.netdev || '.json' ELSE " \
	"'sys/class/net/' || n.netdev || '/statistics/' || n.name END, NULL, " \
	"(SELECT x.value FROM netdev_stats x WHERE x.bundle_id = ?2 AND " \
	"x.source = n.source AND x.name = n.name AND x.netdev = n.netdev), " \
	"(SELECT x.value FROM netdev_stats x WHERE x.bundle_id = ?3 AND " \
	"x.source = n.source AND x.name = n.name AND x.netdev = n.netdev) " \
	"FROM hist_err e CROSS JOIN netdev_stats n ON n.bundle_id = ?1 AND " \
	"n.source = e.kind AND n.name = e.name " \
	"UNION ALL SELECT c.grp, " PEER_OBJ("c", "p") ", c.name, c.value, " \
	"NULL, NULL, 'rdma-collect/mad/' || c.ibdev || '.' || c.port || " \
	"'.json', p.node_desc, " PEER_BEFORE("?2") ", " PEER_BEFORE("?3") \
	" FROM mad_counters c LEFT JOIN mad_portinfo p ON p.bundle_id = " \
	"c.bundle_id AND p.ibdev = c.ibdev AND p.port = c.port AND p.side = " \
	"'peer' WHERE c.bundle_id = ?1 AND c.side = 'peer' AND EXISTS " \
	"(SELECT 1 FROM hist_err e WHERE e.kind = c.grp AND e.name = " \
	"c.name)) WHERE value IS NOT NULL AND (value <> 0 OR pv < 0) " \
	"ORDER BY obj, kind, name"

static int errors_table(sqlite3 *db)
{
	size_t i;

	if (db_run(db, "CREATE TEMP TABLE IF NOT EXISTS hist_err (kind TEXT, "
		   "name TEXT, PRIMARY KEY (kind, name)) WITHOUT ROWID") < 0)
		return -1;
	if (db_int(db, "SELECT count(*) FROM hist_err", NULL))
		return 0;
	for (i = 0; i < ARRAY_SIZE(pma_fields); i++) {
		if (!pma_fields[i].error)
			continue;
		db_exec(db, "INSERT OR IGNORE INTO hist_err VALUES ('pma', ?)",
			"s", pma_fields[i].sysfs);
		db_exec(db, "INSERT OR IGNORE INTO hist_err VALUES "
			"('PortCounters', ?)", "s", pma_fields[i].mad);
	}
	for (i = 0; i < ARRAY_SIZE(hw_errors); i++) {
		db_exec(db, "INSERT OR IGNORE INTO hist_err VALUES ('hw', ?)",
			"s", hw_errors[i]);
		db_exec(db, "INSERT OR IGNORE INTO hist_err VALUES ('hw_dev', ?)",
			"s", hw_errors[i]);
	}
	for (i = 0; i < ARRAY_SIZE(ethtool_errors); i++)
		db_exec(db, "INSERT OR IGNORE INTO hist_err VALUES ('ethtool', ?)",
			"s", ethtool_errors[i]);
	return 0;
}

/* the rows of c, each with its value in p and q (the bundles before) */
#define HIST_JOIN \
	"SELECT c.kind, c.obj, c.name, c.value, c.value2, c.interval_ms, " \
	"c.path, c.descr, p.value, p.kind IS NOT NULL AND p.value IS NOT " \
	"NULL, q.value, q.kind IS NOT NULL AND q.value IS NOT NULL FROM c " \
	"LEFT JOIN temp.hist_before p ON p.step = 1 AND p.kind = c.kind AND " \
	"p.obj = c.obj AND p.name = c.name LEFT JOIN temp.hist_before q ON " \
	"q.step = 2 AND q.kind = c.kind AND q.obj = c.obj AND q.name = " \
	"c.name WHERE c.value IS NOT NULL ORDER BY c.obj, c.kind, c.name"

/* hist_before: the counters of the two bundles before (step 1 and 2),
 * indexed for HIST_JOIN's lookups.  As two materialized CTEs, SQLite
 * scanned the first for each row of the current bundle (no automatic
 * index on the first LEFT JOIN): 1,400 x 1,400 rows, 75 ms a bundle, a
 * node's history of 30 snapshots 2.2 s */
static int before_table(sqlite3 *db, int64_t prev, int64_t pprev)
{
	if (db_run(db, "CREATE TEMP TABLE IF NOT EXISTS hist_before (step "
		   "INTEGER, kind TEXT, obj TEXT, name TEXT, value INTEGER); "
		   "CREATE INDEX IF NOT EXISTS temp.hist_before_key ON "
		   "hist_before (step, kind, obj, name); DELETE FROM "
		   "temp.hist_before") < 0)
		return -1;
	return db_exec(db, "INSERT INTO temp.hist_before SELECT 1, kind, obj, "
		       "name, value FROM (" COUNTERS("?1") ") UNION ALL SELECT "
		       "2, kind, obj, name, value FROM (" COUNTERS("?2") ")",
		       "ii", prev, pprev);
}

int hist_counters(sqlite3 *db, int64_t cur, int64_t prev, int64_t pprev,
		  int errors_only, hist_row_fn fn, void *arg)
{
	sqlite3_stmt *st;
	int r, rc = 0;

	if (errors_table(db) < 0 ||
	    (!errors_only && before_table(db, prev, pprev) < 0))
		return -1;
	/* not a cached statement: fn may run queries of its own, and the
	 * SQL is long enough that preparing it is not the cost */
	if (errors_only ? sqlite3_prepare_v2(db, ERR_ROWS, -1, &st, NULL) :
	    sqlite3_prepare_v2(db,
		"WITH c AS MATERIALIZED (" COUNTERS("?1") ") " HIST_JOIN, -1,
		&st, NULL))
		return error("history: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, cur);
	if (errors_only) {
		sqlite3_bind_int64(st, 2, prev);
		sqlite3_bind_int64(st, 3, pprev);
	}
	while (!rc && (r = sqlite3_step(st)) == SQLITE_ROW) {
		struct hist_row row;

		memset(&row, 0, sizeof(row));
		row.kind = db_col(st, 0);
		row.obj = db_col(st, 1);
		row.name = db_col(st, 2);
		/* counters are stored unsigned, past 2^63 held at INT64_MAX
		 * (util.h u64_stored); an older database's two's complement
		 * reads back as the unsigned value it was */
		row.cur = (uint64_t)sqlite3_column_int64(st, 3);
		row.has_v2 = sqlite3_column_type(st, 4) != SQLITE_NULL &&
			     sqlite3_column_type(st, 5) != SQLITE_NULL;
		row.v2 = (uint64_t)sqlite3_column_int64(st, 4);
		row.interval_ms = sqlite3_column_int64(st, 5);
		row.path = db_col(st, 6);
		row.desc = (const char *)sqlite3_column_text(st, 7);
		row.prev = (uint64_t)sqlite3_column_int64(st, 8);
		row.has_prev = sqlite3_column_int(st, 9);
		row.pprev = (uint64_t)sqlite3_column_int64(st, 10);
		row.has_pprev = sqlite3_column_int(st, 11);
		rc = fn(&row, arg);
	}
	if (!rc && r != SQLITE_DONE)
		rc = error("history: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc < 0 ? -1 : 0;
}

/* --- settings --- */

/* the RDMA stack's modules: loaded or not, and their version */
#define STACK_MODULES "('mlx5_core'), ('mlx5_ib'), ('ib_core'), " \
	"('ib_uverbs'), ('ib_umad'), ('ib_cm'), ('rdma_cm'), ('rdma_ucm'), " \
	"('ib_ipoib'), ('rdma_rxe'), ('nvidia_peermem'), ('nv_peer_mem'), " \
	"('mlx_compat')"

/* the compared settings of bundle P as (component, name, value, path) */
#define SETTINGS(P) \
	"SELECT 'kernel' AS component, 'release' AS name, kernel_release AS " \
	"value, 'proc/sys/kernel/osrelease' AS path FROM bundles WHERE id = " P \
	" UNION ALL SELECT ibdev, 'fw_ver', fw_ver, 'sys/class/infiniband/' " \
	"|| ibdev || '/fw_ver' FROM devices WHERE bundle_id = " P \
	" UNION ALL SELECT ibdev, 'board_id', board_id, " \
	"'sys/class/infiniband/' || ibdev || '/board_id' FROM devices WHERE " \
	"bundle_id = " P \
	" UNION ALL SELECT 'module ' || m.column1, 'version', CASE WHEN " \
	"d.name IS NULL THEN 'not loaded' ELSE coalesce(d.version, " \
	"d.srcversion, 'loaded') END, 'proc/modules' FROM (VALUES " \
	STACK_MODULES ") m LEFT JOIN modules d ON d.bundle_id = " P " AND " \
	"d.name = m.column1 WHERE EXISTS (SELECT 1 FROM sources WHERE " \
	"bundle_id = " P " AND name = 'modules' AND status IN ('ok', " \
	"'partial'))" \
	" UNION ALL SELECT 'module ' || p.module, p.name, p.value, " \
	"'sys/module/' || p.module || '/parameters/' || p.name FROM " \
	"module_params p JOIN (VALUES " STACK_MODULES ") m ON m.column1 = " \
	"p.module WHERE p.bundle_id = " P \
	" UNION ALL SELECT ibdev || ':' || port, 'link_layer', link_layer, " \
	"'sys/class/infiniband/' || ibdev || '/ports/' || port || " \
	"'/link_layer' FROM ports WHERE bundle_id = " P \
	" UNION ALL SELECT ibdev || ':' || port, 'rate', rate, " \
	"'sys/class/infiniband/' || ibdev || '/ports/' || port || '/rate' " \
	"FROM ports WHERE bundle_id = " P \
	" UNION ALL SELECT ibdev || ':' || port, 'active_mtu', active_mtu, " \
	"'rdma-collect/verbs/' || ibdev || '.json' FROM ports WHERE " \
	"bundle_id = " P \
	" UNION ALL SELECT name, 'mtu', mtu, 'sys/class/net/' || name || " \
	"'/mtu' FROM netdevs WHERE bundle_id = " P \
	" UNION ALL SELECT name, 'driver_version', driver_version, " \
	"'rdma-collect/ethtool/' || name || '.json' FROM netdevs WHERE " \
	"bundle_id = " P \
	" UNION ALL SELECT netdev, 'pfc_en', pfc_en, 'rdma-collect/dcb/' || " \
	"netdev || '.json' FROM pfc WHERE bundle_id = " P \
	" UNION ALL SELECT netdev, 'trust', trust, 'rdma-collect/dcb/' || " \
	"netdev || '.json' FROM pfc WHERE bundle_id = " P \
	" UNION ALL SELECT addr, 'pcie_link', lnksta_speed || ' GT/s x' || " \
	"lnksta_width, path FROM pci_functions WHERE bundle_id = " P " AND " \
	"kind = 'hca'" \
	" UNION ALL SELECT 'memlock', type, value, path FROM limits WHERE " \
	"bundle_id = " P " AND who = 'collector' AND item = 'memlock'" \
	" UNION ALL SELECT 'hugepages', name, value, 'proc/meminfo' FROM " \
	"meminfo WHERE bundle_id = " P " AND name = 'HugePages_Total'" \
	" UNION ALL SELECT key, 'value', value, path FROM facts WHERE " \
	"bundle_id = " P " AND key IN ('cmdline', 'iommu_passthrough', " \
	"'peermem_loaded')"

/* each row (component, name, from, to, path) of st to fn; finalizes st */
static int each_setting(sqlite3 *db, sqlite3_stmt *st, hist_setting_fn fn,
			void *arg)
{
	int r, rc = 0;

	while (!rc && (r = sqlite3_step(st)) == SQLITE_ROW) {
		struct hist_setting s = {
			db_col(st, 0), db_col(st, 1), db_col(st, 2),
			db_col(st, 3), db_col(st, 4),
		};

		rc = fn(&s, arg);
	}
	if (!rc && r != SQLITE_DONE)
		rc = error("history: %s", sqlite3_errmsg(db));
	db_done(st);
	return rc < 0 ? -1 : 0;
}

int hist_settings_changed(sqlite3 *db, int64_t prev, int64_t cur,
			  hist_setting_fn fn, void *arg)
{
	sqlite3_stmt *st;
	int rc;

	/* only values present on both sides: a source that failed in one
	 * bundle is not a change of configuration */
	/* both sides in one list, paired by sorting (joining the two
	 * unindexed lists compared every row with every other: 1.8 ms a
	 * bundle, most of a fleet's history checks) */
	/* cached statements (db.c): compiling the settings' union took
	 * a third of the check's time */
	st = db_query(db,
		"WITH s AS (SELECT 1 AS side, * FROM (" SETTINGS("?1") ") "
		"UNION ALL SELECT 2, * FROM (" SETTINGS("?2") ")), p AS (SELECT "
		"component, name, max(CASE WHEN side = 1 THEN value END) AS "
		"a, max(CASE WHEN side = 2 THEN value END) AS b, max(CASE WHEN "
		"side = 2 THEN path END) AS path FROM s GROUP BY component, "
		"name) SELECT component, name, a, b, path FROM p WHERE a IS NOT "
		"NULL AND b IS NOT NULL AND CAST(a AS TEXT) <> CAST(b AS TEXT) "
		"ORDER BY component, name", "ii", prev, cur);
	rc = each_setting(db, st, fn, arg);
	if (rc)
		return rc;
	/* the rest of the configuration fingerprint (fingerprint.c) that the
	 * settings above do not cover: ACS, IOMMU domains, NCCL environment
	 * and nccl.conf, GUIDs and addresses (an HCA swapped, a node
	 * renumbered), GID table shape, link width, HCA and port counts.
	 * There NULL means "known to be absent", so a value that appears or
	 * goes away is a change too; an attribute missing on one side (a
	 * source that did not run) is not. */
	st = db_query(db,
		"SELECT b.attr, b.attr, coalesce(a.value, 'absent'), "
		"coalesce(b.value, 'absent'), b.path FROM fingerprint_attrs b "
		"JOIN fingerprint_attrs a ON a.bundle_id = ?1 AND a.attr = "
		"b.attr WHERE b.bundle_id = ?2 AND a.value IS NOT b.value AND ("
		"b.attr LIKE 'acs.%' OR b.attr LIKE 'env.%' OR b.attr LIKE "
		"'nccl.conf.%' OR (b.attr LIKE 'iommu.%' AND b.attr <> "
		"'iommu.passthrough') OR b.attr LIKE 'guid.%' OR b.attr LIKE "
		"'ip.%' OR (b.attr LIKE 'port.%' AND (b.attr LIKE '%.gids' OR "
		"b.attr LIKE '%.width')) OR b.attr LIKE 'hca.%.model' OR b.attr "
		"LIKE 'param.nvidia.%' OR b.attr IN ('hugepages.size_kb', "
		"'hcas', 'hca_functions', 'ports_active')) "
		/* NCCL settings set or unset: a row on one side only, when
		 * the nccl source read both bundles */
		"UNION ALL SELECT x.attr, x.attr, CASE WHEN x.bundle_id = ?1 "
		"THEN x.value ELSE 'absent' END, CASE WHEN x.bundle_id = ?2 "
		"THEN x.value ELSE 'absent' END, x.path FROM fingerprint_attrs "
		"x WHERE x.bundle_id IN (?1, ?2) AND (x.attr LIKE 'env.%' OR "
		"x.attr LIKE 'nccl.conf.%') AND NOT EXISTS (SELECT 1 FROM "
		"fingerprint_attrs y WHERE y.bundle_id = CASE WHEN x.bundle_id "
		"= ?1 THEN ?2 ELSE ?1 END AND y.attr = x.attr) AND (SELECT "
		"count(*) FROM sources WHERE bundle_id IN (?1, ?2) AND name = "
		"'nccl' AND status IN ('ok', 'partial')) = 2 ORDER BY 1",
		"ii", prev, cur);
	return each_setting(db, st, fn, arg);
}

/* --- kernel log --- */

int hist_new_klog(sqlite3 *db, const struct hist_snap *cur,
		  hist_klog_fn fn, void *arg)
{
	sqlite3_stmt *st;
	int r, n = 0, rc = 0;

	if (seq_fresh(db) < 0)
		return -1;
	/* events: the categorised records, except the normal state lines
	 * (category probe, and the IOMMU's default-domain line) */
	if (sqlite3_prepare_v2(db,
		"SELECT k.category, k.ts_us, k.device, k.text FROM klog k WHERE "
		"k.bundle_id = ?1 AND k.category IS NOT NULL AND k.category <> "
		"'probe' AND NOT (k.category = 'iommu' AND k.text LIKE "
		"'%Default domain type%') AND NOT EXISTS (SELECT 1 FROM hist_seq "
		"s JOIN hist_seq me ON me.bundle_id = ?1 JOIN bundles ob ON ob.id "
		"= s.bundle_id JOIN klog o ON o.bundle_id = s.bundle_id AND "
		"o.category = k.category WHERE s.node_id = me.node_id AND s.pos "
		"< me.pos AND ob.boot_id = ?2 AND o.ts_us IS k.ts_us AND o.text "
		"= k.text) ORDER BY k.rowid", -1, &st, NULL) != SQLITE_OK)
		return error("history: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, cur->bundle_id);
	if (cur->boot_id)
		sqlite3_bind_text(st, 2, cur->boot_id, -1, SQLITE_STATIC);
	while (!rc && (r = sqlite3_step(st)) == SQLITE_ROW) {
		n++;
		if (fn)
			rc = fn(db_col(st, 0), sqlite3_column_int64(st, 1),
				(const char *)sqlite3_column_text(st, 2),
				db_col(st, 3), arg);
	}
	if (!rc && r != SQLITE_DONE)
		rc = error("history: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc < 0 ? -1 : n;
}

/* --- formatting --- */

void hist_fmt_rate(char *out, size_t n, double v)
{
	if (v >= 100 || v == 0)
		snprintf(out, n, "%.0f/h", v);
	else if (v >= 1)
		snprintf(out, n, "%.1f/h", v);
	else
		snprintf(out, n, "%.2g/h", v);
}

void hist_fmt_span(char *out, size_t n, double s)
{
	if (s < 0)
		snprintf(out, n, "unknown time");
	else if (s < 3600)
		snprintf(out, n, "%.0f min", s / 60);
	else if (s < 4 * 86400)
		snprintf(out, n, "%.1f h", s / 3600);
	else
		snprintf(out, n, "%.1f d", s / 86400);
}

/* --- the rules' bundles --- */

int hist_widen_todo(sqlite3 *db)
{
	if (seq_build(db) < 0)
		return -1;
	return db_run(db,
		"CREATE TEMP TABLE IF NOT EXISTS hist_next (bundle_id INTEGER "
		"PRIMARY KEY); DELETE FROM hist_next;"
		"INSERT OR IGNORE INTO hist_next SELECT s.next FROM todo t JOIN "
		"hist_seq s ON s.bundle_id = t.bundle_id WHERE s.next IS NOT "
		"NULL AND s.next NOT IN (SELECT bundle_id FROM todo);"
		"DELETE FROM finding_evidence WHERE finding_id IN (SELECT id "
		"FROM findings WHERE bundle_id IN (SELECT bundle_id FROM "
		"hist_next));"
		"DELETE FROM findings WHERE bundle_id IN (SELECT bundle_id FROM "
		"hist_next);"
		"DELETE FROM skipped WHERE bundle_id IN (SELECT bundle_id FROM "
		"hist_next);"
		"INSERT OR IGNORE INTO todo SELECT bundle_id FROM hist_next;");
}
