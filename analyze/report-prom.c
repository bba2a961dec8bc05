/* report-prom: the findings, ports and counters of the report's bundles as
 * Prometheus metrics, in the text exposition format 0.0.4 that
 * node_exporter's textfile collector reads (schema/REPORT.md, "Prometheus
 * metrics").  Every label value comes from a bundle: it is made valid
 * UTF-8 in SQL (prom_utf8, so rows are grouped and sorted by what is
 * written: two label sets never collide) and escaped as it is written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "db.h"
#include "report.h"
#include "log.h"

/* one metric family: its HELP and TYPE lines go out before its first
 * sample, never for a family without one */
struct prom_family {
	const char *name, *type, *help;
	int started;
};

/* the length of the valid UTF-8 sequence at s (n bytes left), 0 if none:
 * no overlong form, no surrogate, nothing past U+10FFFF (Go's rule, which
 * the Prometheus parsers apply to label values) */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

/* SQL prom_utf8(x): x as text with every byte that is not part of a valid
 * UTF-8 sequence replaced by U+FFFD; NULL stays NULL */
static void sql_prom_utf8(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const unsigned char *s;
	struct buf b = BUF_INIT;
	size_t n, i, l;

	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
		return;
	s = sqlite3_value_text(argv[0]);
	n = (size_t)sqlite3_value_bytes(argv[0]);
	if (!s)
		return;
	for (i = 0; i < n; i += l ? l : 1) {
		l = utf8_len(s + i, n - i);
		if (l)
			buf_add(&b, s + i, l);
		else
			buf_addstr(&b, "\xef\xbf\xbd");
	}
	sqlite3_result_text(ctx, b.buf ? b.buf : "", (int)b.len, SQLITE_TRANSIENT);
	buf_release(&b);
}

/* a label value: \ " and newline escaped, as the format wants */
static void put_value(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", out);
		else if (*s == '"')
			fputs("\\\"", out);
		else if (*s == '\n')
			fputs("\\n", out);
		else
			putc(*s, out);
	}
}

/* one sample of family f: labels names (comma-separated) take the first
 * columns of row st, the value is column nlabels (integer or real) */
static void put_sample(FILE *out, struct prom_family *f, const char *labels,
		       sqlite3_stmt *st)
{
	const char *l = labels, *e;
	int i = 0;

	if (!f->started) {
		fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", f->name, f->help,
			f->name, f->type);
		f->started = 1;
	}
	fputs(f->name, out);
	putc('{', out);
	while (*l) {
		e = strchr(l, ',');
		if (!e)
			e = l + strlen(l);
		if (i)
			putc(',', out);
		fprintf(out, "%.*s=\"", (int)(e - l), l);
		put_value(out, db_col(st, i));
		putc('"', out);
		i++;
		l = *e ? e + 1 : e;
	}
	putc('}', out);
	if (sqlite3_column_type(st, i) == SQLITE_INTEGER)
		fprintf(out, " %lld\n", (long long)sqlite3_column_int64(st, i));
	else
		fprintf(out, " %.15g\n", sqlite3_column_double(st, i));
}

/* every row of sql (labels, then the value; NULL values left out) */
static void put_family(sqlite3 *db, FILE *out, struct prom_family *f,
		       const char *labels, const char *sql)
{
	sqlite3_stmt *st = db_query(db, sql, NULL);
	int nl = 1;
	const char *p;

	for (p = labels; *p; p++)
		nl += *p == ',';
	while (st && sqlite3_step(st) == SQLITE_ROW)
		if (sqlite3_column_type(st, nl) != SQLITE_NULL)
			put_sample(out, f, labels, st);
	db_done(st);
}

/* the node label: the hostname (else the node's name), valid UTF-8 */
#define PROM_NODE "prom_utf8(coalesce(b.hostname, (SELECT name FROM nodes " \
	"WHERE id = b.node_id), ''))"

/* prom_bundles(bundle_id, node): the bundles ids, the newest of those with
 * the same node label only (two would give the same series twice) */
static int prom_select(sqlite3 *db, const int64_t *ids, size_t n)
{
	size_t i;

	if (sqlite3_create_function(db, "prom_utf8", 1, SQLITE_UTF8 |
				    SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
				    NULL, sql_prom_utf8, NULL, NULL) != SQLITE_OK ||
	    db_run(db, "CREATE TEMP TABLE IF NOT EXISTS prom_bundles (bundle_id "
		   "INTEGER PRIMARY KEY, node TEXT NOT NULL); DELETE FROM "
		   "prom_bundles") < 0)
		return -1;
	for (i = 0; i < n; i++)
		db_exec(db, "INSERT OR IGNORE INTO prom_bundles SELECT b.id, "
			PROM_NODE " FROM bundles b WHERE b.id = ?", "i", ids[i]);
	return db_run(db, "DELETE FROM prom_bundles AS p WHERE EXISTS (SELECT 1 "
		      "FROM prom_bundles q JOIN bundles bq ON bq.id = q.bundle_id "
		      "JOIN bundles bp ON bp.id = p.bundle_id WHERE q.node = p.node "
		      "AND (coalesce(bq.collected_at, '') > coalesce(bp.collected_at, "
		      "'') OR (coalesce(bq.collected_at, '') = coalesce("
		      "bp.collected_at, '') AND bq.id > bp.id)))");
}

static struct prom_family fam[] = {
	{ "rdma_node_worst_severity", "gauge", "Worst finding of the node at "
	  "warning or above: 0 ok, 1 warning, 2 critical.", 0 },
	{ "rdma_node_findings", "gauge", "Findings of the node by severity "
	  "(info, warning, critical).", 0 },
	{ "rdma_finding", "gauge", "Findings of one check on one component of "
	  "the node, by severity (a check id of schema/RULES.md).", 0 },
	{ "rdma_node_checks_skipped", "gauge", "Checks that could not run on "
	  "the node's bundle (evidence missing or unreadable).", 0 },
	{ "rdma_node_sources", "gauge", "Evidence sources of the node's bundle "
	  "by status (ok, partial, absent, denied, timeout, error).", 0 },
	{ "rdma_node_inputs_unread", "gauge", "Input files of an imported node "
	  "that no reader wholly understood (INPUT_UNREAD).", 0 },
	{ "rdma_node_collected_timestamp_seconds", "gauge", "When the node's "
	  "bundle was collected, in seconds since the epoch.", 0 },
	{ "rdma_port_info", "gauge", "RDMA port: its link layer and netdev "
	  "(always 1).", 0 },
	{ "rdma_port_state", "gauge", "RDMA port logical state (1 DOWN, 2 INIT, "
	  "3 ARMED, 4 ACTIVE, 5 ACTIVE_DEFER).", 0 },
	{ "rdma_port_phys_state", "gauge", "RDMA port physical state (2 Polling, "
	  "3 Disabled, 4 PortConfigurationTraining, 5 LinkUp, 6 "
	  "LinkErrorRecovery, 7 PhyTest).", 0 },
	{ "rdma_port_rate_gbps", "gauge", "RDMA port active rate in Gb/s.", 0 },
	{ "rdma_port_stat_total", "counter", "RDMA port counter (sysfs "
	  "counters/), the bundle's last read.", 0 },
	{ "rdma_port_hw_stat_total", "counter", "RDMA port hardware counter "
	  "(sysfs hw_counters/), the bundle's last read.", 0 },
	{ "rdma_device_hw_stat_total", "counter", "RDMA device hardware "
	  "counter (the device's hw_counters/), the bundle's last read.", 0 },
	{ "rdma_netdev_ethtool_stat_total", "counter", "Counter of the netdev of an "
	  "RDMA port (ethtool -S), the bundle's last read.", 0 },
	{ "rdma_netdev_stat_total", "counter", "Counter of the netdev of an "
	  "RDMA port (sysfs statistics/), the bundle's last read.", 0 },
	{ "rdma_mad_port_stat_total", "counter", "PMA counter of an InfiniBand "
	  "port's cable read by MAD (perfquery): side local is the HCA port, "
	  "peer the switch port at the far end.", 0 },
};

/* a port or device counter family of kind k */
#define PROM_COUNTER(k, port) "SELECT p.node, prom_utf8(c.ibdev)" port \
	", prom_utf8(c.name) AS n, max(coalesce(c.value2, c.value)) FROM " \
	"prom_bundles p JOIN counters c ON c.bundle_id = p.bundle_id AND " \
	"c.kind = '" k "' GROUP BY 1, 2" port ", n ORDER BY 1, 2" port ", n"
#define PROM_NETDEV(s) "SELECT p.node, prom_utf8(s.netdev), " \
	"prom_utf8(coalesce(d.ibdev, '')), coalesce(d.port, ''), " \
	"prom_utf8(s.name) AS n, max(coalesce(s.value2, s.value)) FROM " \
	"prom_bundles p JOIN netdev_stats s ON s.bundle_id = p.bundle_id AND " \
	"s.source = '" s "' LEFT JOIN netdevs d ON d.bundle_id = s.bundle_id " \
	"AND d.name = s.netdev GROUP BY 1, 2, n ORDER BY 1, 2, n"

static void prom_body(sqlite3 *db, FILE *out)
{
	size_t i;

	for (i = 0; i < sizeof(fam) / sizeof(fam[0]); i++)
		fam[i].started = 0;
	put_family(db, out, &fam[0], "node", "SELECT p.node, coalesce((SELECT "
		   "max(severity) FROM findings f WHERE f.bundle_id = p.bundle_id "
		   "AND f.severity > 0), 0) FROM prom_bundles p ORDER BY 1");
	put_family(db, out, &fam[1], "node,severity", "SELECT p.node, v.name, "
		   "(SELECT count(*) FROM findings f WHERE f.bundle_id = "
		   "p.bundle_id AND f.severity = v.sev) FROM prom_bundles p, "
		   "(SELECT 0 AS sev, 'info' AS name UNION ALL SELECT 1, "
		   "'warning' UNION ALL SELECT 2, 'critical') v ORDER BY 1, v.sev");
	put_family(db, out, &fam[2], "node,check,severity,component",
		   "SELECT p.node, prom_utf8(f.rule) AS r, CASE f.severity WHEN 2 "
		   "THEN 'critical' WHEN 1 THEN 'warning' ELSE 'info' END AS s, "
		   "prom_utf8(f.component) AS c, count(*) FROM prom_bundles p "
		   "JOIN findings f ON f.bundle_id = p.bundle_id GROUP BY 1, r, s, "
		   "c ORDER BY 1, r, s, c");
	put_family(db, out, &fam[3], "node", "SELECT p.node, (SELECT count(*) "
		   "FROM skipped k WHERE k.bundle_id = p.bundle_id) FROM "
		   "prom_bundles p ORDER BY 1");
	put_family(db, out, &fam[4], "node,status", "SELECT p.node, "
		   "prom_utf8(s.status) AS st, count(*) FROM prom_bundles p JOIN "
		   "sources s ON s.bundle_id = p.bundle_id GROUP BY 1, st ORDER "
		   "BY 1, st");
	put_family(db, out, &fam[5], "node", "SELECT p.node, (SELECT count("
		   "DISTINCT i.file) FROM import_inputs i WHERE i.bundle_id = "
		   "p.bundle_id AND i.status IN ('unread', 'partial')) FROM "
		   "prom_bundles p WHERE EXISTS (SELECT 1 FROM imports m WHERE "
		   "m.bundle_id = p.bundle_id) ORDER BY 1");
	put_family(db, out, &fam[6], "node", "SELECT p.node, CAST(strftime("
		   "'%s', b.collected_at) AS INTEGER) FROM prom_bundles p JOIN "
		   "bundles b ON b.id = p.bundle_id ORDER BY 1");
	put_family(db, out, &fam[7], "node,device,port,link_layer,netdev",
		   "SELECT p.node, prom_utf8(o.ibdev) AS d, o.port, "
		   "prom_utf8(coalesce(max(o.link_layer), '')), "
		   "prom_utf8(coalesce(max(o.netdev), '')), 1 FROM prom_bundles p "
		   "JOIN ports o ON o.bundle_id = p.bundle_id GROUP BY 1, d, "
		   "o.port ORDER BY 1, d, o.port");
	put_family(db, out, &fam[8], "node,device,port", "SELECT p.node, "
		   "prom_utf8(o.ibdev) AS d, o.port, max(o.state) FROM "
		   "prom_bundles p JOIN ports o ON o.bundle_id = p.bundle_id "
		   "GROUP BY 1, d, o.port ORDER BY 1, d, o.port");
	put_family(db, out, &fam[9], "node,device,port", "SELECT p.node, "
		   "prom_utf8(o.ibdev) AS d, o.port, max(o.phys_state) FROM "
		   "prom_bundles p JOIN ports o ON o.bundle_id = p.bundle_id "
		   "GROUP BY 1, d, o.port ORDER BY 1, d, o.port");
	put_family(db, out, &fam[10], "node,device,port", "SELECT p.node, "
		   "prom_utf8(o.ibdev) AS d, o.port, max(o.rate_gbps) FROM "
		   "prom_bundles p JOIN ports o ON o.bundle_id = p.bundle_id "
		   "GROUP BY 1, d, o.port ORDER BY 1, d, o.port");
	put_family(db, out, &fam[11], "node,device,port,counter",
		   PROM_COUNTER("pma", ", c.port"));
	put_family(db, out, &fam[12], "node,device,port,counter",
		   PROM_COUNTER("hw", ", c.port"));
	put_family(db, out, &fam[13], "node,device,counter",
		   PROM_COUNTER("hw_dev", ""));
	put_family(db, out, &fam[14], "node,netdev,device,port,counter",
		   PROM_NETDEV("ethtool"));
	put_family(db, out, &fam[15], "node,netdev,device,port,counter",
		   PROM_NETDEV("sysfs"));
	put_family(db, out, &fam[16], "node,device,port,side,group,counter",
		   "SELECT p.node, prom_utf8(m.ibdev) AS d, m.port, "
		   "prom_utf8(m.side) AS s, prom_utf8(m.grp) AS g, "
		   "prom_utf8(m.name) AS n, max(m.value) FROM prom_bundles p "
		   "JOIN mad_counters m ON m.bundle_id = p.bundle_id GROUP BY 1, "
		   "d, m.port, s, g, n ORDER BY 1, d, m.port, s, g, n");
}

int report_prom_write(sqlite3 *db, const int64_t *ids, size_t n, FILE *out)
{
	if (prom_select(db, ids, n) < 0)
		return -1;
	prom_body(db, out);
	return ferror(out) ? -1 : 0;
}

int report_prom(sqlite3 *db, const struct report_opts *o)
{
	sqlite3_stmt *st = db_query(db, "SELECT bundle_id FROM report_bundles "
				    "ORDER BY bundle_id", NULL);
	int64_t *ids = NULL;
	size_t n = 0, cap = 0;
	int rc;

	while (st && sqlite3_step(st) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			ids = xrealloc(ids, cap * sizeof(*ids));
		}
		ids[n++] = sqlite3_column_int64(st, 0);
	}
	db_done(st);
	rc = report_prom_write(db, ids, n, o->out);
	free(ids);
	return rc;
}

struct prom_args {
	sqlite3 *db;
	const int64_t *ids;
	size_t n;
};

static int prom_to(void *arg, FILE *out)
{
	struct prom_args *a = arg;

	return report_prom_write(a->db, a->ids, a->n, out);
}

int report_prom_file(sqlite3 *db, const int64_t *ids, size_t n,
		     const char *path)
{
	struct prom_args a = { db, ids, n };

	return report_write_file(path, prom_to, &a);
}
