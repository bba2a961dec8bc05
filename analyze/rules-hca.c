/* rules-hca: layer 1 (hca) of the rules: the HCA's firmware and the physical
 * link, from the kernel log (klog, load-klog.c), the port counters
 * (counters, kind 'pma') and mlxlink outputs (phy, load-phy.c).
 *
 * Scope: the queries here read the HCA port's own counters (sysfs); the
 * peer switch port's PortCounters and both ends' PortInfo, when the bundle
 * has MAD evidence (the mad source, a --fabric scan), are read by the
 * check functions of rules-fabric.c that these rules also run.
 * A port down on purpose (Disabled, no cable or module, or Polling with
 * nothing saying it should be up: rules/port.sql) is never a reason for
 * flapping or physical-layer findings; a port that should be up is.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "log.h"
#include "rules.h"
#include "rules-fabric.h"
#include "util.h"

#define MAX_BUNDLES 4096
#define MAX_EVIDENCE 8
#define DAY_US (86400LL * 1000000)
#define INCIDENT_US (60LL * 1000000)	/* one health dump, one incident */

/* RDMA device to PCI function: devices.pci_addr, or load-phy's own
 * resolution of the device link */
#define IBDEV_PCI "(SELECT bundle_id, ibdev, pci_addr FROM devices WHERE " \
	"pci_addr IS NOT NULL UNION SELECT bundle_id, ibdev, pci_addr FROM " \
	"ibdev_pci)"

static size_t todo(struct rctx *rc, int64_t *ids, size_t max)
{
	sqlite3_stmt *st = db_query(rc->db, "SELECT bundle_id FROM todo_rule "
				    "ORDER BY bundle_id", "");
	size_t n = 0;

	while (sqlite3_step(st) == SQLITE_ROW && n < max)
		ids[n++] = sqlite3_column_int64(st, 0);
	db_done(st);
	return n;
}

/* the stored kernel log's path: kmsg records have a sequence number */
static const char *klog_path(sqlite3 *db, int64_t bid)
{
	return db_int(db, "SELECT count(*) FROM klog WHERE bundle_id = ? AND "
		      "seq IS NOT NULL", "i", bid) ?
		       "rdma-collect/klog/kmsg.txt" :
		       "rdma-collect/klog/syslog.txt";
}

static void fmt_ts(char *out, size_t n, int64_t ts)
{
	if (ts >= 0)
		snprintf(out, n, "[%5" PRId64 ".%06" PRId64 "] ", ts / 1000000,
			 ts % 1000000);
	else
		out[0] = 0;
}

/* the RDMA device on a PCI function, else the address itself */
static void component_of(sqlite3 *db, int64_t bid, const char *pci,
			 char *out, size_t n)
{
	sqlite3_stmt *st = db_query(db, "SELECT ibdev FROM " IBDEV_PCI " WHERE "
				    "bundle_id = ? AND pci_addr = ? ORDER BY "
				    "ibdev LIMIT 1", "is", bid, pci);

	if (pci && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(out, n, "%s", (const char *)sqlite3_column_text(st, 0));
	else
		snprintf(out, n, "%s", pci ? pci : "kernel log");
	db_done(st);
}

/* --- kernel-log events per device: FW_RESET, FW_MEM_ALLOC_FAILED,
 * CABLE_MODULE_ERROR --- */

struct klog_kind {
	const char *category;
	const char *what;	/* "firmware health event" */
	int crit_repeated;	/* 2+ incidents: critical */
	/* one incident, one finding: the firmware (its health buffer, its
	 * page supply) is the adapter's, so what every PCI function of one
	 * device logs (0000:3b:00.0 and .1) is one finding on the first of
	 * them; a module event is one port's (a function's) */
	int per_device;
	/* lines that make one incident critical (NULL-terminated) */
	const char *const *critical;
};

/* the adapter of a PCI function: domain:bus:device, the function number
 * dropped (the functions of a multi-function device share it) */
#define SLOT_LEN 10

struct kgroup {
	char key[16];
	char funcs[8][16];	/* the functions that logged, in address order */
	int64_t nfuncs, flines[8];
	int64_t lines, incidents, last;
	int crit;
	char synd[96];		/* the syndrome a health dump names */
	char *ev[MAX_EVIDENCE];
	size_t ne;
};

/* "Health issue observed, firmware internal error, severity(3) ERROR:" or
 * "synd 0x1: firmware internal error": the syndrome's words */
static void syndrome_of(const char *text, char *out, size_t n)
{
	const char *p = strstr(text, "Health issue observed, "), *e;

	if (p) {
		p += strlen("Health issue observed, ");
		e = strstr(p, ", severity(");
	} else if ((p = strstr(text, "): synd 0x")) && (p = strstr(p, ": ")) &&
		   (p = strstr(p + 2, ": "))) {
		p += 2;
		e = p + strlen(p);
	} else {
		return;
	}
	if (!e || e <= p || out[0])
		return;
	snprintf(out, n, "%.*s", (int)(e - p), p);
}

static void kgroup_flush(struct rctx *rc, int64_t bid, const char *path,
			 const struct klog_kind *k, struct kgroup *g)
{
	char comp[64], other[64], why[160], funcs[64];
	const char *pci = g->funcs[0][0] ? g->funcs[0] : NULL;
	int sev = -1;
	int64_t fid, i;
	size_t e;

	if (!g->lines)
		return;
	component_of(rc->db, bid, pci, comp, sizeof(comp));
	why[0] = 0;
	if (k->crit_repeated)
		sev = g->incidents >= 2 || g->crit ? SEV_CRITICAL : SEV_WARNING;
	if (g->crit)
		snprintf(why, sizeof(why), "; the firmware health check failed%s%s%s",
			 g->synd[0] ? " (syndrome: " : "", g->synd,
			 g->synd[0] ? ")" : "");
	if (g->nfuncs > 1)
		snprintf(funcs, sizeof(funcs), ", logged by %" PRId64 " PCI "
			 "functions of the device", g->nfuncs);
	else
		funcs[0] = 0;
	fid = finding_add(rc, bid, sev, comp, "%" PRId64 " %s%s (%" PRId64
			  " kernel log line%s) on %s%s%s%s%s%s", g->incidents,
			  k->what, g->incidents == 1 ? "" : "s", g->lines,
			  g->lines == 1 ? "" : "s", comp,
			  pci && strcmp(pci, comp) ? " (" : "",
			  pci && strcmp(pci, comp) ? pci : "",
			  pci && strcmp(pci, comp) ? ")" : "", funcs, why);
	for (e = 0; e < g->ne; e++) {
		finding_evidence(rc, fid, path, "%s", g->ev[e]);
		free(g->ev[e]);
	}
	if (g->lines > (int64_t)g->ne)
		finding_evidence(rc, fid, path, "... %" PRId64 " more lines",
				 g->lines - (int64_t)g->ne);
	/* the other functions of the device: the same incident */
	for (i = 1; i < g->nfuncs; i++) {
		component_of(rc->db, bid, g->funcs[i], other, sizeof(other));
		finding_evidence(rc, fid, path, "%s%s%s%s: the same incident, %"
				 PRId64 " line%s", g->funcs[i],
				 strcmp(g->funcs[i], other) ? " (" : "",
				 strcmp(g->funcs[i], other) ? other : "",
				 strcmp(g->funcs[i], other) ? ")" : "",
				 g->flines[i], g->flines[i] == 1 ? "" : "s");
	}
	memset(g, 0, sizeof(*g));
}

static int klog_device_events(struct rctx *rc, const struct klog_kind *k)
{
	static int64_t ids[MAX_BUNDLES];
	size_t n = todo(rc, ids, MAX_BUNDLES), i;
	struct kgroup *g = xcalloc(1, sizeof(*g));

	for (i = 0; i < n; i++) {
		const char *path = klog_path(rc->db, ids[i]);
		/* a device's lines in log order, its functions in address
		 * order; the lines without a device are one group */
		sqlite3_stmt *st = db_query(rc->db, "SELECT coalesce(device, ''), "
					    "ts_us, text FROM klog WHERE bundle_id = ? "
					    "AND category = ? ORDER BY CASE WHEN ? "
					    "THEN substr(coalesce(device, ''), 1, ?) "
					    "ELSE coalesce(device, '') END, rowid",
					    "isii", ids[i], k->category,
					    (int64_t)k->per_device, (int64_t)SLOT_LEN);

		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *dev = (const char *)sqlite3_column_text(st, 0);
			int64_t t = sqlite3_column_type(st, 1) == SQLITE_NULL ?
				    -1 : sqlite3_column_int64(st, 1);
			const char *text = (const char *)sqlite3_column_text(st, 2);
			char key[16];
			const char *const *c;
			int64_t f;

			snprintf(key, sizeof(key), "%.*s",
				 k->per_device ? SLOT_LEN : 15, dev);
			if (g->lines && strcmp(key, g->key)) {
				/* the inner queries reuse no statement */
				kgroup_flush(rc, ids[i], path, k, g);
			}
			snprintf(g->key, sizeof(g->key), "%s", key);
			for (f = 0; f < g->nfuncs; f++)
				if (!strcmp(g->funcs[f], dev))
					break;
			if (f == g->nfuncs && f < (int64_t)ARRAY_SIZE(g->funcs)) {
				/* keep them in address order: the first is
				 * the component */
				while (f > 0 && strcmp(g->funcs[f - 1], dev) > 0) {
					memcpy(g->funcs[f], g->funcs[f - 1],
					       sizeof(g->funcs[f]));
					g->flines[f] = g->flines[f - 1];
					f--;
				}
				snprintf(g->funcs[f], sizeof(g->funcs[f]), "%s", dev);
				g->flines[f] = 0;
				g->nfuncs++;
			}
			if (f < (int64_t)ARRAY_SIZE(g->funcs))
				g->flines[f]++;
			/* a health dump is many lines: one incident is the
			 * lines within a minute of each other */
			if (!g->lines || t < 0 || g->last < 0 || t < g->last ||
			    t - g->last > INCIDENT_US)
				g->incidents++;
			if (t >= 0)
				g->last = t;
			g->lines++;
			for (c = k->critical; c && *c && text; c++)
				if (strstr(text, *c)) {
					g->crit = 1;
					syndrome_of(text, g->synd, sizeof(g->synd));
				}
			if (g->ne < MAX_EVIDENCE) {
				char buf[1200], ts[40];

				fmt_ts(ts, sizeof(ts), t);
				snprintf(buf, sizeof(buf), "%s%s", ts,
					 text ? text : "");
				g->ev[g->ne++] = xstrdup(buf);
			}
		}
		db_done(st);
		kgroup_flush(rc, ids[i], path, k, g);
	}
	free(g);
	return 0;
}

/* what makes one firmware health incident critical: the firmware's health
 * failed (health.c poll_health: the health counter stopped, "device's
 * health compromised - reached miss count"; or print_health_info's dump of
 * a non-zero syndrome: "Health issue observed, <syndrome>, severity(N)",
 * its assert_var/synd lines, old form without the header too; the
 * syndrome "firmware internal error"; schema/REPORT.md, conventions) */
static const char *const fw_health_failed[] = {
	"health compromised", "print_health_info:", "Health issue observed",
	"firmware internal error", NULL,
};

static int fw_reset(struct rctx *rc)
{
	static const struct klog_kind k = { "fw_reset",
		"firmware health/reset incident", 1, 1, fw_health_failed };

	return klog_device_events(rc, &k);
}

static int fw_mem_alloc(struct rctx *rc)
{
	static const struct klog_kind k = { "fw_mem_alloc",
		"firmware memory (page/ICM) or resource allocation failure", 0,
		1, NULL };

	return klog_device_events(rc, &k);
}

static int cable_module(struct rctx *rc)
{
	static const struct klog_kind k = { "cable_module",
		"port module (cable/transceiver) error event", 0, 0, NULL };

	return klog_device_events(rc, &k);
}

/* --- LINK_FLAPPING --- */

struct flap_port {
	char comp[80];
	char ibdev[64];
	int64_t port;
	int64_t ts[64];		/* link-down events (first 64) */
	int nts, nev;
	char *ev[MAX_EVIDENCE];
	int nshown;
	/* the last down of each family (0 "Link down" / "Link up", 1 "Cable
	 * unplugged" / "Cable plugged") not yet followed by its up */
	int pending[2];
	int64_t pend_ts[2];
	char *pend_text[2];
	int64_t downed, downed2, has_downed;
	char downed_path[512];
};

static struct flap_port *flap_get(struct flap_port **v, size_t *n,
				  const char *comp, const char *ibdev,
				  int64_t port)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i].comp, comp))
			return &(*v)[i];
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	memset(&(*v)[*n], 0, sizeof(**v));
	snprintf((*v)[*n].comp, sizeof((*v)[*n].comp), "%s", comp);
	snprintf((*v)[*n].ibdev, sizeof((*v)[*n].ibdev), "%s", ibdev ? ibdev : "");
	(*v)[*n].port = port;
	return &(*v)[(*n)++];
}

/* "mlx5_core 0000:17:00.0 ens1f0np0: Link down": the netdev */
static int netdev_of(const char *text, char *out, size_t n)
{
	const char *p = strchr(text, ' '), *e;

	if (!p || !(p = strchr(p + 1, ' ')))
		return -1;
	p++;
	e = strchr(p, ':');
	if (!e || e == p || (size_t)(e - p) >= n || memchr(p, ' ', (size_t)(e - p)))
		return -1;
	memcpy(out, p, (size_t)(e - p));
	out[e - p] = 0;
	return 0;
}

/* the most events in any 24 hours */
static int max_in_day(const int64_t *ts, int n)
{
	int best = 0, i, j;

	for (i = 0; i < n; i++) {
		int c = 0;

		if (ts[i] < 0) {
			c = 1;
		} else {
			for (j = 0; j < n; j++)
				c += ts[j] >= ts[i] && ts[j] - ts[i] < DAY_US;
		}
		best = c > best ? c : best;
	}
	return best;
}

static int down_on_purpose(sqlite3 *db, int64_t bid, const char *ibdev,
			   int64_t port)
{
	/* port_judged: rules/port.sql, as PORT_DOWN judges it */
	return ibdev[0] && db_int(db, "SELECT count(*) FROM port_judged p "
				  "WHERE p.bundle_id = ? AND p.ibdev = ? AND "
				  "p.port = ? AND p.on_purpose", "isi", bid, ibdev,
				  port) > 0;
}

/* a driver restart or firmware reset on the device explains one
 * link_downed step: the device probed twice, or a health incident */
static int restarted(sqlite3 *db, int64_t bid, const char *ibdev)
{
	return db_int(db, "SELECT count(*) FROM klog k JOIN " IBDEV_PCI " d ON "
		      "d.bundle_id = k.bundle_id AND d.pci_addr = k.device "
		      "WHERE k.bundle_id = ? AND d.ibdev = ? AND k.text LIKE "
		      "'%firmware version: %'", "is", bid, ibdev) > 1 ||
	       db_int(db, "SELECT count(*) FROM klog k JOIN " IBDEV_PCI " d ON "
		      "d.bundle_id = k.bundle_id AND d.pci_addr = k.device "
		      "WHERE k.bundle_id = ? AND d.ibdev = ? AND k.category = "
		      "'fw_reset'", "is", bid, ibdev) > 0;
}

/* one down/up cycle of f: its down line (owned, freed here) and the up
 * line that ended it (NULL: none) as evidence */
static void flap_count(struct flap_port *f, int64_t t, char *down,
		       const char *up)
{
	if (f->nts < (int)ARRAY_SIZE(f->ts))
		f->ts[f->nts++] = t;
	f->nev++;
	if (f->nshown < MAX_EVIDENCE)
		f->ev[f->nshown++] = down;
	else
		free(down);
	if (up && f->nshown < MAX_EVIDENCE)
		f->ev[f->nshown++] = xstrdup(up);
}

static void flap_bundle(struct rctx *rc, int64_t bid, double crit_at)
{
	const char *path = klog_path(rc->db, bid);
	struct flap_port *v = NULL;
	size_t n = 0, i;
	sqlite3_stmt *st;

	/* a flap is a cycle: a down followed by its up ("Link down" ...
	 * "Link up", "Cable unplugged" ... "Cable plugged"), or by another
	 * down (it came up in between), or a down whose port is up now; a
	 * down with nothing after it on a port that is still down is not a
	 * flap (an unplug at boot never followed by a plug: no cable, the
	 * port down on purpose) */
	st = db_query(rc->db, "SELECT k.ts_us, k.text, k.device, d.ibdev FROM "
		      "klog k LEFT JOIN " IBDEV_PCI " d ON d.bundle_id = k.bundle_id "
		      "AND d.pci_addr = k.device WHERE k.bundle_id = ? AND "
		      "k.category IN ('link_flap', 'probe') AND (k.text LIKE "
		      "'%: Link down%' OR k.text LIKE '%: Link up%' OR k.text LIKE "
		      "'%Port module event: %Cable unplugged%' OR k.text LIKE "
		      "'%Port module event: %Cable plugged%') ORDER BY k.rowid",
		      "i", bid);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t t = sqlite3_column_type(st, 0) == SQLITE_NULL ? -1 :
			    sqlite3_column_int64(st, 0);
		const char *text = (const char *)sqlite3_column_text(st, 1);
		const char *dev = (const char *)sqlite3_column_text(st, 2);
		const char *ibdev = (const char *)sqlite3_column_text(st, 3);
		char comp[80], nd[64], ts[40], buf[1200];
		int64_t port = 1;
		int fam = strstr(text, "Port module event") != NULL;
		int down = fam ? strstr(text, "Cable unplugged") != NULL :
				 strstr(text, ": Link down") != NULL;
		struct flap_port *f;

		if (!fam && netdev_of(text, nd, sizeof(nd)) == 0) {
			sqlite3_stmt *q = db_query(rc->db, "SELECT ibdev, port FROM "
						   "netdevs WHERE bundle_id = ? AND "
						   "name = ? AND ibdev IS NOT NULL",
						   "is", bid, nd);

			if (sqlite3_step(q) == SQLITE_ROW) {
				snprintf(buf, sizeof(buf), "%s",
					 (const char *)sqlite3_column_text(q, 0));
				port = sqlite3_column_int64(q, 1);
				db_done(q);
				snprintf(comp, sizeof(comp), "%s:%" PRId64, buf, port);
				f = flap_get(&v, &n, comp, buf, port);
				goto add;
			}
			db_done(q);
		}
		if (ibdev)
			snprintf(comp, sizeof(comp), "%s:1", ibdev);
		else
			snprintf(comp, sizeof(comp), "%s", dev ? dev : "kernel log");
		f = flap_get(&v, &n, comp, ibdev, port);
add:
		fmt_ts(ts, sizeof(ts), t);
		snprintf(buf, sizeof(buf), "%s%s", ts, text);
		/* a pending down is a cycle now: its up came, or another
		 * down did (it came up in between) */
		if (f->pending[fam]) {
			flap_count(f, f->pend_ts[fam], f->pend_text[fam],
				   down ? NULL : buf);
			f->pending[fam] = 0;
			f->pend_text[fam] = NULL;
		}
		if (down) {
			f->pending[fam] = 1;
			f->pend_ts[fam] = t;
			f->pend_text[fam] = xstrdup(buf);
		}
	}
	db_done(st);
	/* the downs nothing followed: a flap only if the port is up now */
	for (i = 0; i < n; i++) {
		struct flap_port *f = &v[i];
		int fam, up = f->ibdev[0] && db_int(rc->db, "SELECT count(*) "
						    "FROM ports WHERE bundle_id = ? "
						    "AND ibdev = ? AND port = ? AND "
						    "state = 4", "isi", bid,
						    f->ibdev, f->port) > 0;

		for (fam = 0; fam < 2; fam++) {
			if (!f->pending[fam])
				continue;
			if (up)
				flap_count(f, f->pend_ts[fam], f->pend_text[fam],
					   NULL);
			else
				free(f->pend_text[fam]);
			f->pending[fam] = 0;
		}
	}
	st = db_query(rc->db, "SELECT c.ibdev, c.port, c.value, c.value2, c.path, "
		      "c.interval_ms FROM counters c WHERE c.bundle_id = ? AND "
		      "c.kind = 'pma' AND c.name = 'link_downed' AND (c.value > 0 "
		      "OR c.value2 > 0) ORDER BY c.ibdev, c.port", "i", bid);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *ibdev = (const char *)sqlite3_column_text(st, 0);
		int64_t port = sqlite3_column_int64(st, 1);
		char comp[80];
		struct flap_port *f;

		snprintf(comp, sizeof(comp), "%s:%" PRId64, ibdev, port);
		f = flap_get(&v, &n, comp, ibdev, port);
		f->has_downed = 1;
		f->downed = sqlite3_column_int64(st, 2);
		f->downed2 = sqlite3_column_type(st, 3) == SQLITE_NULL ? -1 :
			     sqlite3_column_int64(st, 3);
		snprintf(f->downed_path, sizeof(f->downed_path), "%s",
			 (const char *)sqlite3_column_text(st, 4));
	}
	db_done(st);
	for (i = 0; i < n; i++) {
		struct flap_port *f = &v[i];
		int day = max_in_day(f->ts, f->nts), sev, k;
		int grew = f->has_downed && f->downed2 > f->downed;
		int64_t fid;

		/* only up lines, or downs that were no cycle */
		if (!f->nev && !f->has_downed)
			goto next;
		if (f->ibdev[0] && down_on_purpose(rc->db, bid, f->ibdev, f->port))
			goto next;
		/* the one step of a driver restart or firmware reset */
		if (!f->nev && f->has_downed && !grew && f->downed == 1 &&
		    restarted(rc->db, bid, f->ibdev))
			goto next;
		sev = day >= crit_at || grew ? SEV_CRITICAL : SEV_WARNING;
		if (f->nev && f->has_downed)
			fid = finding_add(rc, bid, sev, f->comp, "link of %s went "
					  "down %d time%s in the kernel log (%d "
					  "within 24 h) and LinkDownedCounter is %"
					  PRId64 "%s", f->comp, f->nev,
					  f->nev == 1 ? "" : "s", day,
					  grew ? f->downed2 : f->downed,
					  grew ? ", growing" : "");
		else if (f->nev)
			fid = finding_add(rc, bid, sev, f->comp, "link of %s went "
					  "down %d time%s in the kernel log (%d "
					  "within 24 h)", f->comp, f->nev,
					  f->nev == 1 ? "" : "s", day);
		else if (grew)
			fid = finding_add(rc, bid, sev, f->comp, "LinkDownedCounter "
					  "of %s went from %" PRId64 " to %" PRId64
					  " between the two reads: the link is "
					  "going down now", f->comp, f->downed,
					  f->downed2);
		else
			fid = finding_add(rc, bid, sev, f->comp, "LinkDownedCounter "
					  "of %s is %" PRId64 ": the link went "
					  "down and retrained since the counters "
					  "were cleared", f->comp, f->downed);
		for (k = 0; k < f->nshown; k++)
			finding_evidence(rc, fid, path, "%s", f->ev[k]);
		if (f->has_downed) {
			if (f->downed2 >= 0)
				finding_evidence(rc, fid, f->downed_path,
						 "%" PRId64 " (second read %" PRId64
						 ")", f->downed, f->downed2);
			else
				finding_evidence(rc, fid, f->downed_path,
						 "%" PRId64, f->downed);
		}
next:
		for (k = 0; k < f->nshown; k++)
			free(f->ev[k]);
	}
	free(v);
}

static int link_flapping(struct rctx *rc);

/* the HCA side (kernel log, sysfs counters), then the switch side (MAD) */
static int link_flapping_both(struct rctx *rc)
{
	if (link_flapping(rc) < 0)
		return -1;
	return fabric_link_downed(rc);
}

static int link_flapping(struct rctx *rc)
{
	static int64_t ids[MAX_BUNDLES];
	size_t n = todo(rc, ids, MAX_BUNDLES), i;
	double crit = threshold(rc->db, "flaps_critical");

	if (crit < 1)
		crit = 2;
	for (i = 0; i < n; i++)
		flap_bundle(rc, ids[i], crit);
	return 0;
}

/* --- PHY_BER_HIGH, PHY_EYE_LOW --- */

/* a bundle whose mlxlink outputs do not hold what the rule reads is
 * skipped with the reason, never judged healthy on a table nobody filled:
 * have is the SQL over phy h of a row that holds it */
#define PHY_ABSENT(have, section)                                           \
	"INSERT OR IGNORE INTO skipped (bundle_id, rule, reason) SELECT "      \
	"t.bundle_id, ?1, CASE WHEN EXISTS (SELECT 1 FROM phy h WHERE "        \
	"h.bundle_id = t.bundle_id) THEN 'mlxlink output without its "         \
	section "' ELSE 'no mlxlink output of a network link (mlxlink -d "      \
	"<dev> -m -e -c; rdma-collect --commands runs it where mlxlink is "    \
	"installed)' END FROM todo_rule t WHERE NOT EXISTS (SELECT 1 FROM "    \
	"phy h WHERE h.bundle_id = t.bundle_id AND (" have "))"

static int ber_absent(struct rctx *rc)
{
	return db_exec(rc->db, PHY_ABSENT("h.eff_errors IS NOT NULL OR "
					  "h.eff_ber IS NOT NULL OR h.raw_ber "
					  "IS NOT NULL", "Physical Counters and "
					  "BER Info (-c)"),
		       "s", rc->rule->id) < 0 ? -1 : 0;
}

static int eye_absent(struct rctx *rc)
{
	return db_exec(rc->db, PHY_ABSENT("h.eye_height IS NOT NULL OR "
					  "h.eye_phase IS NOT NULL", "eye "
					  "heights and phases (-e; the FOM "
					  "grades of 7 nm devices are not "
					  "read)"),
		       "s", rc->rule->id) < 0 ? -1 : 0;
}

static int lanes(const char *s, double *v, int max)
{
	int n = 0;

	while (s && *s && n < max) {
		char *end;

		v[n++] = strtod(s, &end);
		if (end == s)
			return n - 1;
		s = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
	return n;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* lanes below ratio x the median of the other lanes, as "lane N: v
 * (median m)" in out; returns how many */
static int low_lanes(const double *v, int n, double ratio, char *out,
		     size_t len)
{
	int i, j, bad = 0;
	size_t o = 0;

	out[0] = 0;
	for (i = 0; i < n; i++) {
		double others[16], med;
		int k = 0;

		if (v[i] < 0)
			continue;
		for (j = 0; j < n && k < 16; j++)
			if (j != i && v[j] >= 0)
				others[k++] = v[j];
		if (k < 1)
			continue;
		qsort(others, (size_t)k, sizeof(*others), cmp_d);
		med = k % 2 ? others[k / 2] : (others[k / 2 - 1] + others[k / 2]) / 2;
		if (med > 0 && v[i] < ratio * med) {
			int w = snprintf(out + o, len - o, "%slane %d: %g (others' "
					 "median %g)", bad ? ", " : "", i, v[i], med);

			if (w > 0 && (size_t)w < len - o)
				o += (size_t)w;
			bad++;
		}
	}
	return bad;
}

static int eye_low(struct rctx *rc)
{
	double ratio = threshold(rc->db, "eye_ratio");
	sqlite3_stmt *st;
	struct row {
		int64_t bid;
		char comp[80], path[512], hs[256], ps[256];
	} *rows = NULL;
	size_t n = 0, i;

	if (eye_absent(rc) < 0)
		return -1;
	st = db_query(rc->db, "SELECT h.bundle_id, h.path, h.ibdev, h.port, "
		      "h.eye_height, h.eye_phase FROM phy h JOIN todo_rule t ON "
		      "t.bundle_id = h.bundle_id WHERE NOT coalesce((SELECT "
		      "j.on_purpose FROM port_judged j WHERE j.bundle_id = "
		      "h.bundle_id AND j.ibdev = h.ibdev AND j.port = h.port), 0) "
		      "AND (h.eye_height IS "
		      "NOT NULL OR h.eye_phase IS NOT NULL) ORDER BY h.bundle_id, "
		      "h.path", "");
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *ib = (const char *)sqlite3_column_text(st, 2);
		const char *h = (const char *)sqlite3_column_text(st, 4);
		const char *p = (const char *)sqlite3_column_text(st, 5);
		struct row *r;

		rows = xrealloc(rows, (n + 1) * sizeof(*rows));
		r = &rows[n++];
		r->bid = sqlite3_column_int64(st, 0);
		snprintf(r->path, sizeof(r->path), "%s",
			 (const char *)sqlite3_column_text(st, 1));
		if (ib)
			snprintf(r->comp, sizeof(r->comp), "%s:%lld", ib,
				 (long long)sqlite3_column_int64(st, 3));
		else
			snprintf(r->comp, sizeof(r->comp), "%s", r->path);
		snprintf(r->hs, sizeof(r->hs), "%s", h ? h : "");
		snprintf(r->ps, sizeof(r->ps), "%s", p ? p : "");
	}
	db_done(st);
	for (i = 0; i < n; i++) {
		double hv[16], pv[16];
		int nh = lanes(rows[i].hs, hv, 16), np = lanes(rows[i].ps, pv, 16);
		char hb[512], pb[512];
		int bh = low_lanes(hv, nh, ratio, hb, sizeof(hb));
		int bp = low_lanes(pv, np, ratio, pb, sizeof(pb));
		int64_t fid;

		if (!bh && !bp)
			continue;
		fid = finding_add(rc, rows[i].bid, -1, rows[i].comp, "eye opening "
				  "of %s low on one lane%s%s%s%s%s", rows[i].comp,
				  bh ? ": height " : "", bh ? hb : "",
				  bh && bp ? ";" : "", bp ? " phase " : "",
				  bp ? pb : "");
		if (rows[i].hs[0])
			finding_evidence(rc, fid, rows[i].path, "Height Eye "
					 "Opening [mV] %s", rows[i].hs);
		if (rows[i].ps[0])
			finding_evidence(rc, fid, rows[i].path, "Phase Eye "
					 "Opening [psec] %s", rows[i].ps);
	}
	free(rows);
	return 0;
}

const struct rule rules_hca[] = {
	{
		.id = "FW_RESET",
		.layer = LAYER_HCA,
		.severity = SEV_WARNING,
		.title = "mlx5 firmware health event, fatal error, reset or recovery",
		.needs = "klog",
		.mlx5_only = "mlx5_core's firmware health lines",
		.evidence = "rdma-collect/klog/kmsg.txt (or syslog.txt): health dump (\"Health issue observed\", print_health_info lines), \"Fatal error N detected\", health compromised, FW reset and recovery lines. One incident is the lines within a minute of each other, and the lines every PCI function of one adapter (domain:bus:device, 0000:3b:00.0 and .1) logs are one finding on its first function, the others in the evidence; critical at 2+ incidents, or at one whose firmware health failed: \"device's health compromised - reached miss count\" or a syndrome dump (\"Health issue observed, firmware internal error, severity(N)\", the old form's print_health_info assert_var/synd lines) (mlx5 only: skipped on a node without an mlx5 device)",
		.remediation = "The HCA's firmware crashed or was reset. Save the health dump (synd, ext_synd, fw_ver) and the devlink health report (devlink health show; devlink health dump show pci/<bdf> reporter fw_fatal), update the firmware to the current release for the board (mlxfwmanager), and check temperature and PCIe errors (AER); repeated resets mean the card goes to the vendor (RMA).",
		.check = fw_reset,
	},
	{
		.id = "FW_MEM_ALLOC_FAILED",
		.layer = LAYER_HCA,
		.severity = SEV_CRITICAL,
		.title = "firmware memory (page/ICM) allocation failure, or firmware resources used up",
		.needs = "klog",
		.mlx5_only = "mlx5_core's firmware page and command lines",
		.evidence = "rdma-collect/klog/kmsg.txt: pagealloc lines (\"failed to allocate page\", \"func_id 0x.., npages N, err N\", \"failed reclaiming pages\" ...), SW ICM pool failures, commands failing with \"limits exceeded\" or \"no resources\", and a CREATE_* or ALLOC_* command (CREATE_QP, CREATE_MKEY ...) refused with \"bad resource\" (the object table used up: a QP loop stopping below max_qp); what every PCI function of one adapter logs is one finding on its first function (mlx5 only: skipped on a node without an mlx5 device)",
		.remediation = "The host could not give the HCA firmware the memory it asked for (ICM pages), or the application exhausted HCA resources: check host memory pressure and huge pages, lower the number of QPs/MRs (NCCL_IB_QPS_PER_CONNECTION, MR caching, fewer processes per HCA), and look for an application leaking QPs or MRs; reload the driver after freeing memory.",
		.check = fw_mem_alloc,
	},
	{
		.id = "CABLE_MODULE_ERROR",
		.layer = LAYER_HCA,
		.severity = SEV_CRITICAL,
		.title = "port module event error (bad or shorted cable, temperature, unsupported module)",
		.needs = "klog",
		.mlx5_only = "mlx5_core's port module events",
		.evidence = "rdma-collect/klog/kmsg.txt: \"Port module event[error]: module N, Cable error, <reason>\" (old kernels: \"Port module event: module N, Cable error, ...\") (mlx5 only: skipped on a node without an mlx5 device)",
		.remediation = "Reseat, then replace the cable or transceiver named by the module number (mlxlink -d <dev> -m shows the module; mlxcables for its EEPROM); for High Temperature check the airflow; for power budget or PCIe slot power use a supported module or a slot that advertises enough power; Enforce part number list / Long Range: use an NVIDIA-qualified cable.",
		.check = cable_module,
	},
	{
		.id = "LINK_FLAPPING",
		.layer = LAYER_HCA,
		.severity = SEV_WARNING,
		.title = "link went down and up (kernel log, LinkDownedCounter)",
		.needs = "",
		.evidence = "rdma-collect/klog/kmsg.txt \"<if>: Link down\" ... \"<if>: Link up\" and \"Port module event: module N, Cable unplugged\" ... \"Cable plugged\": only a cycle counts, a down followed by its up, by another down, or on a port that is up now (a down never followed on a port still down is a port down, not a flap: an unplug at boot with no plug is no cable, PORT_DOWN info); sys/class/infiniband/<dev>/ports/<n>/counters/link_downed (and its --sample second read); critical at flaps_critical events within 24 h or a growing counter. The switch side: LinkDownedCounter of the peer port (rdma-collect/mad/<dev>.<n>.json peer.pma) and of every switch port of a fabric scan (rdma-collect/fabric/fabric.json), a warning",
		.remediation = "Find which side drops the link: mlxlink -d <dev> -m -e -c for BER and the eye, the switch port's counters (perfquery -x <lid> <port> / ibportstate), and reseat or replace the cable; a link that flaps repeatedly breaks NCCL jobs (retry exceeded) and should be drained until fixed.",
		.check = link_flapping_both,
	},
	{
		.id = "PHY_BER_HIGH",
		.layer = LAYER_HCA,
		.severity = SEV_CRITICAL,
		.title = "physical-layer errors or BER above threshold (mlxlink)",
		.needs = "",
		.mlx5_only = "mlxlink output (mlxlink reads NVIDIA/Mellanox adapters only)",
		.evidence = "mlxlink -m -e -c text (rdma-collect/commands/mlxlink-<dev>/stdout, a pasted one named by its RDMA device, or its mst device or PCI address that mst status -v names; or an attachment): Effective Physical Errors, Effective Physical BER (ber_warning, ber_critical: 1e-12 is the InfiniBand specification's and ibdiagnet's BER limit), Raw Physical BER (raw_ber: NVIDIA's Quantum release notes call a raw BER of 10e-6 unclean; healthy PAM4 links with FEC show 1e-9 to 1e-7 and are quiet); effective errors on a link whose FEC has PLR (HDR, NDR) are a warning, not critical: PLR retransmits them, and NVIDIA names Symbol Errors, not read here, the errors the application sees; skipped without an mlxlink output holding them (mlx5 only: skipped on a node without an mlx5 device)",
		.remediation = "Effective errors get past FEC: swap the cable first, then the transceiver, then move to another switch port, then the HCA; re-check with mlxlink -c after clearing (--pc) and some traffic. A raw BER above 1e-5 alone means the link runs on FEC margin: clean or replace the optics before it fails.",
		.sql = 1,
		.check = ber_absent,
	},
	{
		.id = "PHY_EYE_LOW",
		.layer = LAYER_HCA,
		.severity = SEV_WARNING,
		.title = "one lane's eye opening clearly below the others (mlxlink)",
		.needs = "",
		.mlx5_only = "mlxlink output (mlxlink reads NVIDIA/Mellanox adapters only)",
		.evidence = "mlxlink -e text: Height Eye Opening [mV] and Phase Eye Opening [psec] per lane; a lane below eye_ratio x the median of the other lanes; skipped without an mlxlink output holding them (7 nm devices print FOM grades instead, not read) (mlx5 only: skipped on a node without an mlx5 device)",
		.remediation = "A weak lane is the early sign of a failing cable or transceiver (dirty or damaged fibre, bent copper): clean or replace it in the next maintenance window and watch the BER (mlxlink -c) meanwhile.",
		.check = eye_low,
	},
	{
		.id = "SYMBOL_ERRORS",
		.layer = LAYER_HCA,
		.severity = SEV_WARNING,
		.title = "SymbolErrorCounter or LinkErrorRecoveryCounter > 0",
		.needs = "sysfs|mad|fabric",
		.evidence = "sys/class/infiniband/<dev>/ports/<n>/counters/{symbol_error,link_error_recovery} (critical when growing between the --sample reads); SymbolErrorCounter and LinkErrorRecoveryCounter of the peer switch port (rdma-collect/mad/<dev>.<n>.json peer.pma) and of every switch port of a fabric scan (rdma-collect/fabric/fabric.json): errors a port received point at the cable or the far end's transmitter",
		.remediation = "Symbol errors are bit errors on the wire, counted by the receiving port: check mlxlink BER and eye, then swap the cable, then the transceiver, then move to another switch port, then the HCA, re-reading the counters (perfquery -x) after each step; growing counters mean a link that will fail under load.",
		.sql = 1,
		.check = fabric_symbol_errors,
	},
	{
		.id = "PORT_RCV_ERRORS",
		.layer = LAYER_HCA,
		.severity = SEV_WARNING,
		.title = "PortRcvErrors, remote physical, local link integrity or buffer overrun errors > 0",
		.needs = "sysfs|mad|fabric",
		.evidence = "sys/class/infiniband/<dev>/ports/<n>/counters/{port_rcv_errors,port_rcv_remote_physical_errors,local_link_integrity_errors,excessive_buffer_overrun_errors}; the same PortCounters of the peer switch port (rdma-collect/mad/<dev>.<n>.json peer.pma) and of every switch port of a fabric scan (rdma-collect/fabric/fabric.json): the cable or the far end's transmitter",
		.remediation = "Received packets were bad (CRC, malformed) or dropped by the port that counts them: with symbol errors it is the link into it (swap the cable, then the transceiver, then the switch port, then the HCA); remote physical errors point upstream in the fabric (ibqueryerrors for the whole path); excessive buffer overruns mean a flow-control (credit/VL) problem.",
		.sql = 1,
		.check = fabric_rcv_errors,
	},
	{
		.id = "LINK_DEGRADED",
		.layer = LAYER_HCA,
		.severity = SEV_CRITICAL,
		.title = "active link width or speed below what both ends support and enable",
		.needs = "sysfs|mad|fabric",
		.evidence = "With MAD PortInfo of both ends (rdma-collect/mad/<dev>.<n>.json local and peer; every cable of a fabric scan, rdma-collect/fabric/fabric.json): LinkWidth/LinkSpeed/LinkSpeedExt Enabled, Supported and Active: active below the best width and speed both ends support and enable is critical; at it, but held down by one end enabling less than the other end enables and both support, a warning naming that end. Without it: sys/class/infiniband/<dev>/ports/<n>/rate (width, speed), verbs active_width/active_speed, the HCA type (hca_type), mlxlink Enabled Link Speed / Supported Cable Speed when present; speed-only findings without mlxlink evidence are then warnings",
		.remediation = "A narrower link (1X/2X) is a bad cable lane or connector: reseat and replace. A slower link than the HCA does: check the switch port's supported and enabled speeds (ibportstate <lid> <port>, mlxlink -d <dev> -m for Enabled Link Speed) and the cable's rating; force the speed only after fixing the cable.",
		.sql = 1,
		.check = fabric_link_degraded,
	},
	{
		.id = "XMIT_DISCARDS",
		.layer = LAYER_HCA,
		.severity = SEV_WARNING,
		.title = "PortXmitDiscards > 0",
		.needs = "sysfs|mad|fabric",
		.evidence = "sys/class/infiniband/<dev>/ports/<n>/counters/port_xmit_discards; PortXmitDiscards of the peer switch port (rdma-collect/mad/<dev>.<n>.json peer.pma) and of every switch port of a fabric scan (rdma-collect/fabric/fabric.json): congestion towards the far end",
		.remediation = "Packets were dropped on egress: congestion (check PortXmitWait, XMIT_WAIT_HIGH), a link going down while sending, or on RoCE no PFC on the traffic class; find the hot spot with the switch counters.",
		.sql = 1,
		.check = fabric_xmit_discards,
	},
	{
		.id = "XMIT_WAIT_HIGH",
		.layer = LAYER_HCA,
		.severity = SEV_WARNING,
		.title = "PortXmitWait high relative to PortXmitData",
		.needs = "sysfs|mad|fabric",
		.evidence = "sys/class/infiniband/<dev>/ports/<n>/counters/{port_xmit_wait,port_xmit_data}: the growth over the --sample interval when both reads exist, else since the counters began; PortXmitWait against PortXmitData (PortCountersExtended when there) of the peer switch port (rdma-collect/mad/<dev>.<n>.json peer.pma) and of every switch port of a fabric scan (rdma-collect/fabric/fabric.json), since the counters began; threshold xmit_wait_ratio",
		.remediation = "The port had data to send but no credits: the fabric is congested downstream (an oversubscribed link, a slow receiver, or a routing hot spot); check the switch ports along the path (ibqueryerrors, perfquery -x) and the adaptive routing / congestion control settings.",
		.sql = 1,
		.check = fabric_xmit_wait,
	},
	{ 0 },
};
