/* rules: registry, thresholds and the runner */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "db.h"
#include "history.h"
#include "log.h"
#include "rules.h"
#include "util.h"

const struct threshold thresholds[] = {
	{ "ber_warning", 1e-12, "effective BER above this: warning (NDR bring-up figure)" },
	{ "ber_critical", 1e-11, "effective BER above this: critical" },
	{ "raw_ber", 1e-5, "raw (pre-FEC) BER above this: PHY_BER_HIGH" },
	{ "xmit_wait_ratio", 0.10, "PortXmitWait above this share of PortXmitData" },
	{ "pause_ratio", 0.01, "received pause time above this share of the interval (or uptime)" },
	{ "cnp_per_s", 10000, "CNPs per second above this: CNP_HEAVY" },
	{ "bw_ratio", 0.85, "perftest below this share of line rate: BW_BELOW_LINE_RATE" },
	{ "gdr_ratio", 0.5, "GPU-memory bandwidth below this share of host-memory: GDR_BW_LOW" },
	{ "flaps_critical", 2, "link down/up events in 24 h for critical LINK_FLAPPING" },
	{ "expect_hcas", 0, "RDMA devices a node should have (0: not checked); --expect-hcas N" },
	{ "eye_ratio", 0.5, "a lane's eye below this share of the others' median: PHY_EYE_LOW" },
	{ "fleet_min_nodes", 3, "nodes of a class (with the attribute) before its majority counts: fleet checks, and a port that should be up (rules/port.sql)" },
	{ "counter_mad_k", 5, "COUNTER_OUTLIER: rate above the class median + k x 1.4826 x MAD" },
	{ "counter_min_per_hour", 1, "COUNTER_OUTLIER: ... and at least this many per hour above the median" },
	{ NULL, 0, NULL },
};

static const char *const layer_names[LAYER_COUNT] = {
	[LAYER_HCA] = "hca",
	[LAYER_KERNEL] = "kernel",
	[LAYER_SM] = "sm",
	[LAYER_VERBS] = "verbs",
	[LAYER_PERF] = "perf",
	[LAYER_APP] = "app",
	[LAYER_FLEET] = "fleet",
	[LAYER_HISTORY] = "history",
	[LAYER_PAIRS] = "pairs",
	[LAYER_EVIDENCE] = "evidence",
};

const char *layer_name(enum layer l)
{
	return (unsigned)l < LAYER_COUNT ? layer_names[l] : "?";
}

int layer_find(const char *name)
{
	int l;

	for (l = 0; l < LAYER_COUNT; l++)
		if (!strcmp(layer_names[l], name))
			return l;
	return -1;
}

const struct rule *const *rules_all(void)
{
	static const struct rule *all[256];
	static int done;
	const struct rule *const lists[] = {
		rules_evidence, rules_pci, rules_hca, rules_kernel,
		rules_klog_extra, rules_sm, rules_verbs, rules_perf, rules_app,
		rules_counters, rules_fleet, rules_history, rules_pairs,
	};
	size_t i, n = 0;

	if (done)
		return all;
	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		const struct rule *r;

		for (r = lists[i]; r->id; r++) {
			if (n + 1 >= ARRAY_SIZE(all))
				die("too many rules");
			all[n++] = r;
		}
	}
	all[n] = NULL;
	done = 1;
	return all;
}

const char *rule_sql(const char *id)
{
	const char *const *s;

	for (s = rules_sql; *s; s += 2)
		if (!strcmp(*s, id))
			return s[1];
	return NULL;
}

const struct rule *rule_find(const char *id)
{
	const struct rule *const *r;

	for (r = rules_all(); *r; r++)
		if (!strcmp((*r)->id, id))
			return *r;
	return NULL;
}

const char *severity_name(int sev)
{
	return sev == SEV_CRITICAL ? "critical" :
	       sev == SEV_WARNING ? "warning" : "info";
}

int64_t finding_add(struct rctx *rc, int64_t bundle_id, int severity,
		    const char *component, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	db_exec(rc->db, "INSERT INTO findings (bundle_id, rule, layer, severity, "
		"component, summary, remediation) VALUES (?, ?, ?, ?, ?, ?, ?)",
		"ississs", bundle_id, rc->rule->id, layer_name(rc->rule->layer),
		(int64_t)(severity < 0 ? rc->rule->severity : severity),
		component ? component : "node", b.buf, rc->rule->remediation);
	buf_release(&b);
	return sqlite3_last_insert_rowid(rc->db);
}

void finding_evidence(struct rctx *rc, int64_t fid, const char *path,
		      const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	db_exec(rc->db, "INSERT INTO finding_evidence (finding_id, path, value) "
		"VALUES (?, ?, ?)", "iss", fid, path, b.buf);
	buf_release(&b);
}

/* one "name value" line of a thresholds file: 0, or -1 with a message */
static int threshold_line(sqlite3 *db, const char *file, int lineno,
			  const char *line)
{
	const struct threshold *t;
	char name[64], rest[8];
	double v;

	if (line[0] == '#' || strspn(line, " \t\r") == strlen(line))
		return 0;
	if (sscanf(line, "%63s %lf %7s", name, &v, rest) != 2)
		return error("%s:%d: expected 'name value'", file, lineno);
	for (t = thresholds; t->name; t++)
		if (!strcmp(t->name, name))
			break;
	if (!t->name)
		return error("%s:%d: unknown threshold '%s' (see rdma-analyze "
			     "rules --thresholds)", file, lineno, name);
	if (!isfinite(v) || v < 0)
		return error("%s:%d: threshold '%s' must be a finite number, "
			     "0 or more", file, lineno, name);
	db_exec(db, "INSERT OR REPLACE INTO thresholds VALUES (?, ?)", "sd",
		name, v);
	return 0;
}

int thresholds_load(sqlite3 *db, const char *file)
{
	const struct threshold *t;
	char *data, *line, *nl, err[128];
	size_t len;
	int lineno = 0, rc = 0;

	if (db_run(db, "CREATE TEMP TABLE IF NOT EXISTS thresholds (name TEXT "
		   "PRIMARY KEY, value REAL)") < 0)
		return -1;
	for (t = thresholds; t->name; t++)
		db_exec(db, "INSERT OR REPLACE INTO thresholds VALUES (?, ?)",
			"sd", t->name, t->value);
	if (!file)
		return 0;
	/* a thresholds file is a few lines: 64 KiB is generous */
	if (read_named_file(file, 64 << 10, &data, &len, err, sizeof(err)) < 0)
		return error("cannot read thresholds '%s': %s", file, err);
	if (memchr(data, 0, len)) {
		free(data);
		return error("thresholds '%s': not a text file (a NUL byte)",
			     file);
	}
	for (line = data; line && !rc; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		rc = threshold_line(db, file, ++lineno, line);
	}
	free(data);
	return rc;
}

double threshold(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st = db_query(db, "SELECT value FROM thresholds WHERE "
				    "name = ?", "s", name);
	double v = 0;

	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_double(st, 0);
	db_done(st);
	return v;
}

int rule_reads(const struct rule *r, const char *name)
{
	const char *p = r->thresholds ? r->thresholds : "";
	size_t n = strlen(name);

	while (*p) {
		size_t w = strcspn(p, " ");

		if (w == n && !memcmp(p, name, n))
			return 1;
		p += w;
		p += strspn(p, " ");
	}
	return 0;
}

/* the sources of the bundles being judged, read once a run: every rule's
 * needs are checked against them in memory (two statements a rule, each
 * scanning every todo bundle's sources with instr(), were a fifth of the
 * rules' time), and todo_rule is rewritten only when a rule's set is not
 * all of todo, which in a fleet of collected bundles it nearly always is */
struct srcrow {
	int64_t bid;
	char *name, *status, *reason;
};

struct todo_set {
	int64_t *ids;		/* todo, ascending */
	size_t n;
	struct srcrow *src;	/* their sources, by bundle */
	size_t nsrc;
	size_t *first;		/* ids[i]'s sources: src[first[i] .. first[i + 1]) */
	int full;		/* todo_rule holds all of todo */
};

static void todo_read(sqlite3 *db, struct todo_set *t)
{
	sqlite3_stmt *st;
	size_t alloc = 0, i, k;

	memset(t, 0, sizeof(*t));
	st = db_query(db, "SELECT bundle_id FROM todo ORDER BY bundle_id", NULL);
	while (sqlite3_step(st) == SQLITE_ROW) {
		t->ids = xrealloc(t->ids, (t->n + 1) * sizeof(*t->ids));
		t->ids[t->n++] = sqlite3_column_int64(st, 0);
	}
	db_done(st);
	st = db_query(db, "SELECT s.bundle_id, coalesce(s.name, ''), "
		      "coalesce(s.status, ''), "
		      "coalesce(s.reason, '') FROM sources s JOIN todo t ON "
		      "t.bundle_id = s.bundle_id ORDER BY s.bundle_id", NULL);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct srcrow *w;

		if (t->nsrc == alloc) {
			alloc = alloc ? alloc * 2 : 256;
			t->src = xrealloc(t->src, alloc * sizeof(*t->src));
		}
		w = &t->src[t->nsrc++];
		w->bid = sqlite3_column_int64(st, 0);
		w->name = xstrdup((const char *)sqlite3_column_text(st, 1));
		w->status = xstrdup((const char *)sqlite3_column_text(st, 2));
		w->reason = xstrdup((const char *)sqlite3_column_text(st, 3));
	}
	db_done(st);
	/* both in bundle order: each bundle's sources found in one walk */
	t->first = xcalloc(t->n + 1, sizeof(*t->first));
	for (i = 0, k = 0; i < t->n; i++) {
		while (k < t->nsrc && t->src[k].bid < t->ids[i])
			k++;
		t->first[i] = k;
	}
	t->first[t->n] = t->nsrc;
	t->full = 1;	/* rules_run() filled todo_rule from todo */
}

static void todo_release(struct todo_set *t)
{
	size_t i;

	for (i = 0; i < t->nsrc; i++) {
		free(t->src[i].name);
		free(t->src[i].status);
		free(t->src[i].reason);
	}
	free(t->src);
	free(t->ids);
	free(t->first);
	memset(t, 0, sizeof(*t));
}

/* is one source of the group "a|b|c" ok or partial in [lo, hi)? */
static int group_met(const struct todo_set *t, size_t lo, size_t hi,
		     const char *g, size_t gl)
{
	size_t i;

	for (i = lo; i < hi; i++) {
		const char *n = t->src[i].name, *p = g, *end = g + gl;
		size_t nl = strlen(n);

		if (strcmp(t->src[i].status, "ok") &&
		    strcmp(t->src[i].status, "partial"))
			continue;
		while (p <= end) {
			const char *bar = memchr(p, '|', (size_t)(end - p));
			size_t al = bar ? (size_t)(bar - p) : (size_t)(end - p);

			if (al == nl && !memcmp(p, n, nl))
				return 1;
			if (!bar)
				break;
			p = bar + 1;
		}
	}
	return 0;
}

/* a bundle with an mlx5 device: a ConnectX function (in the pci source,
 * or the PCI core's enumeration line "pci 0000:01:00.0: [15b3:1007] type
 * 00 class 0x020000" of its kernel log), an mlx5 RDMA device (by name,
 * HCA type or driver), mlx5_core in its kernel log, an mlxlink output of
 * a network link or of the host's PCIe link (mlxlink reads ConnectX-4
 * and later and BlueField only: a pasted one names its device by an mst
 * path), or ethtool counters only
 * mlx5e names (its PPCNT port counters and the q counter's
 * rx_out_of_buffer: en_stats.c) */
#define HAS_MLX5 "SELECT (SELECT count(*) FROM pci_functions WHERE " \
	"bundle_id = ?1 AND (driver = 'mlx5_core' OR (vendor = 0x15b3 AND " \
	"kind = 'hca'))) + (SELECT count(*) FROM devices WHERE bundle_id = " \
	"?1 AND (ibdev LIKE 'mlx5!_%' ESCAPE '!' OR hca_type GLOB 'MT4[0-9]*' " \
	"OR hca_type GLOB 'MT41[0-9][0-9][0-9]')) + (SELECT count(*) FROM " \
	"netdevs WHERE bundle_id = ?1 AND driver = 'mlx5_core') + EXISTS " \
	"(SELECT 1 FROM klog WHERE bundle_id = ?1 AND category IS NOT NULL " \
	"AND text LIKE 'mlx5_core %') + EXISTS (SELECT 1 FROM klog WHERE " \
	"bundle_id = ?1 AND text LIKE 'pci %: [15b3:%] type 00 class 0x02%') " \
	"+ EXISTS (SELECT 1 FROM phy WHERE bundle_id = ?1) + EXISTS (SELECT 1 " \
	"FROM phy_pcie WHERE bundle_id = ?1) + EXISTS (SELECT 1 " \
	"FROM netdev_stats WHERE bundle_id = ?1 AND source IN ('ethtool', " \
	"'ethtool-rate') AND name IN ('rx_discards_phy', 'tx_discards_phy', " \
	"'rx_pause_ctrl_phy', 'tx_pause_ctrl_phy', 'rx_out_of_buffer', " \
	"'rx_packets_phy', 'tx_pause_storm_warning_events', " \
	"'tx_pause_storm_error_events'))"

/* the bundles of todo whose needed sources are ok or partial go to
 * todo_rule; the others get a skipped row naming the source (the first
 * of a group "sysfs|fabric", which any one of meets: a port's counters
 * from sysfs, or the same counters of every port from a fabric scan).
 * Then an import without the evidence a rule reads is skipped too
 * (rules-import.c). */
static int select_bundles(sqlite3 *db, const struct rule *r,
			  struct todo_set *t)
{
	const char *needs = r->needs ? r->needs : "", *p;
	char *out = xcalloc(t->n ? t->n : 1, 1);	/* dropped, by index */
	size_t i, dropped = 0;
	int rc = 0;
	int64_t before;

	for (p = needs; *p;) {
		const char *e = strchrnul(p, ',');
		size_t gl = (size_t)(e - p), fl = strcspn(p, "|");

		if (fl > gl)
			fl = gl;
		for (i = 0; i < t->n; i++) {
			size_t lo, hi, k;
			const char *status = "missing", *reason = "";
			char first[64], why[1024];

			if (out[i])
				continue;
			lo = t->first[i];
			hi = t->first[i + 1];
			if (group_met(t, lo, hi, p, gl))
				continue;
			snprintf(first, sizeof(first), "%.*s", (int)fl, p);
			for (k = lo; k < hi; k++)
				if (!strcmp(t->src[k].name, first)) {
					status = t->src[k].status;
					reason = t->src[k].reason;
					break;
				}
			snprintf(why, sizeof(why), "source %s %s%s%s", first, status,
				 *reason ? ": " : "", reason);
			if (db_exec(db, "INSERT OR IGNORE INTO skipped (bundle_id, "
				    "rule, reason) VALUES (?, ?, ?)", "iss",
				    t->ids[i], r->id, why) < 0)
				rc = -1;
			out[i] = 1;
			dropped++;
		}
		p = *e ? e + 1 : e;
	}
	/* evidence only mlx5 gives: not run where there is no mlx5 */
	for (i = 0; r->mlx5_only && i < t->n; i++) {
		if (out[i] || db_int(db, HAS_MLX5, "i", t->ids[i]) > 0)
			continue;
		if (db_exec(db, "INSERT OR IGNORE INTO skipped (bundle_id, rule, "
			    "reason) SELECT ?1, ?2, 'no mlx5 device' || coalesce("
			    "' (RDMA devices: ' || (SELECT group_concat(ibdev, ' ') "
			    "FROM (SELECT ibdev FROM devices WHERE bundle_id = ?1 "
			    "ORDER BY ibdev)) || ')', '') || ': it reads ' || ?3",
			    "iss", t->ids[i], r->id, r->mlx5_only) < 0)
			rc = -1;
		out[i] = 1;
		dropped++;
	}
	if (dropped || !t->full) {
		if (db_run(db, "DELETE FROM todo_rule; INSERT INTO todo_rule "
			   "SELECT bundle_id FROM todo") < 0)
			rc = -1;
		for (i = 0; i < t->n; i++)
			if (out[i] && db_exec(db, "DELETE FROM todo_rule WHERE "
					      "bundle_id = ?", "i", t->ids[i]) < 0)
				rc = -1;
		t->full = !dropped;
	}
	free(out);
	before = sqlite3_total_changes64(db);
	if (rules_import_skip(db, r) < 0)
		rc = -1;
	if (sqlite3_total_changes64(db) != before)
		t->full = 0;	/* it dropped imports from todo_rule */
	return rc;
}

static int run_sql(struct rctx *rc)
{
	sqlite3_stmt *st;
	int r;

	const char *sql = rule_sql(rc->rule->id);

	if (!sql)
		return error("rule %s: no analyze/rules/%s.sql", rc->rule->id,
			     rc->rule->id);
	/* cached: preparing each rule's query again at every batch of a
	 * load cost 20 M instructions */
	st = db_query(rc->db, sql, NULL);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		const char *comp = (const char *)sqlite3_column_text(st, 1);
		const char *sum = (const char *)sqlite3_column_text(st, 2);
		const char *ev = (const char *)sqlite3_column_text(st, 3);
		int sev = sqlite3_column_type(st, 4) == SQLITE_NULL ? -1 :
			  sqlite3_column_int(st, 4);
		int64_t fid = finding_add(rc, sqlite3_column_int64(st, 0), sev,
					  comp, "%s", sum ? sum : rc->rule->title);

		while (ev && *ev) {
			const char *nl = strchrnul(ev, '\n');
			const char *tab = memchr(ev, '\t', (size_t)(nl - ev));

			if (tab) {
				char *path = xstrndup(ev, (size_t)(tab - ev));

				finding_evidence(rc, fid, path, "%.*s",
						 (int)(nl - tab - 1), tab + 1);
				free(path);
			}
			ev = *nl ? nl + 1 : nl;
		}
	}
	db_done(st);
	if (r != SQLITE_DONE)
		return error("rule %s: %s", rc->rule->id, sqlite3_errmsg(rc->db));
	return 0;
}

int rules_run(sqlite3 *db, const int64_t *ids, size_t n)
{
	struct todo_set t;
	const struct rule *const *r;
	size_t i;
	int rc = 0;

	/* nothing new (report --db): the rules' queries over an empty set
	 * still cost a scan each, 2.5 s on 2,000 bundles */
	if (!n)
		return 0;
	if (db_run(db, "CREATE TEMP TABLE IF NOT EXISTS todo (bundle_id "
		   "INTEGER PRIMARY KEY); CREATE TEMP TABLE IF NOT EXISTS "
		   "todo_rule (bundle_id INTEGER PRIMARY KEY); DELETE FROM todo;") < 0)
		return -1;
	if (db_run(db, "SELECT 1 FROM thresholds LIMIT 1") < 0)
		return -1;
	for (i = 0; rules_sql_views[i]; i++)
		if (db_run(db, rules_sql_views[i]) < 0)
			return -1;
	if (db_run(db, "BEGIN IMMEDIATE") < 0)
		return -1;
	for (i = 0; i < n; i++) {
		db_exec(db, "INSERT OR IGNORE INTO todo VALUES (?)", "i", ids[i]);
		db_exec(db, "DELETE FROM finding_evidence WHERE finding_id IN "
			"(SELECT id FROM findings WHERE bundle_id = ?)", "i", ids[i]);
		db_exec(db, "DELETE FROM findings WHERE bundle_id = ?", "i", ids[i]);
		db_exec(db, "DELETE FROM skipped WHERE bundle_id = ?", "i", ids[i]);
	}
	/* a bundle loaded now may come before one already there, whose
	 * history findings must then compare it with this one */
	if (hist_widen_todo(db) < 0)
		rc = -1;
	/* the temporary tables' row counts for the planner: without them it
	 * takes todo_rule for as large as any table and reads the evidence
	 * tables whole, looking each row's bundle up in todo_rule, instead
	 * of seeking each todo bundle's rows (2,000 bundles: the counter
	 * checks took 130 ms each instead of 20); these two only: the
	 * history's temporary tables grow with every batch of a load */
	if (db_run(db, "DELETE FROM todo_rule; INSERT INTO todo_rule SELECT "
		   "bundle_id FROM todo; ANALYZE temp.todo; ANALYZE "
		   "temp.todo_rule") < 0)
		rc = -1;
	todo_read(db, &t);
	for (r = rules_all(); *r; r++) {
		struct rctx c = { db, *r };

		/* across nodes: rules_run_fleet(), over the report's set */
		if ((*r)->layer == LAYER_FLEET)
			continue;
		if (select_bundles(db, *r, &t) < 0) {
			rc = -1;
			break;
		}
		if ((*r)->sql && run_sql(&c) < 0)
			rc = -1;
		if ((*r)->check && (*r)->check(&c) < 0)
			rc = -1;
	}
	todo_release(&t);
	db_run(db, rc ? "ROLLBACK" : "COMMIT");
	return rc;
}
