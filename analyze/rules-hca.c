/* rules-hca: layer 1 (hca) of the rules: the HCA's firmware and the physical
 * link, from the kernel log (klog, load-klog.c), the port counters
 * (counters, kind 'pma') and mlxlink outputs (phy, load-phy.c).
 *
 * Scope: the queries read the HCA port's own counters (sysfs); the peer
 * switch port's PortCounters and both ends' PortInfo, when the bundle has
 * MAD evidence (the mad source, a --fabric scan), are read by the check
 * functions of the section "the far side" that these rules also run.
 * A port down on purpose (Disabled, no cable or module, or Polling with
 * nothing saying it should be up: rules/port.sql) is never a reason for
 * flapping or physical-layer findings; a port that should be up is.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "db.h"
#include "log.h"
#include "rules.h"
#include "util.h"

#define MAX_BUNDLES 4096
#define MAX_EVIDENCE 8
#define DAY_US (86400LL * 1000000)
#define INCIDENT_US (60LL * 1000000)	/* one health dump, one incident */

/* RDMA device to PCI function: devices.pci_addr, or load-phy's own
 * resolution of the device link */
/* bundle b's (an SQL parameter: ?1) RDMA devices and their PCI
 * functions.  The bundle is named inside: SQLite does not push a
 * bundle_id from outside into this UNION over the views of 012, which
 * then read every bundle's devices once a call (180 bundles: 120 ms of
 * LINK_FLAPPING) */
#define IBDEV_PCI_OF(b) "(SELECT bundle_id, ibdev, pci_addr FROM devices " \
	"WHERE bundle_id = " b " AND pci_addr IS NOT NULL UNION SELECT " \
	"bundle_id, ibdev, pci_addr FROM ibdev_pci WHERE bundle_id = " b ")"

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
	sqlite3_stmt *st = db_query(db, "SELECT ibdev FROM " IBDEV_PCI_OF("?1")
				    " WHERE pci_addr = ?2 ORDER BY ibdev LIMIT "
				    "1", "is", bid, pci);

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

/* --- the far side: the checks that MAD evidence makes possible
 * (load-fabric.c: mad_* from a node's own ports, fabric_* from a --fabric
 * scan), run after the sysfs queries of the same rules:
 *
 *   LINK_DEGRADED              both ends' enabled/supported/active width
 *                              and speed (the best common one vs active)
 *   SYMBOL_ERRORS, PORT_RCV_ERRORS, LINK_FLAPPING, XMIT_DISCARDS,
 *   XMIT_WAIT_HIGH             the PMA counters of the peer port of each
 *                              node port (mad), and of every port, switch
 *                              or CA, of a fabric scan (port 255: a
 *                              switch's ports summed, ibqueryerrors'
 *                              'port ALL')
 *
 * These rules need sysfs, mad or fabric: an ibdiagnet import has only the
 * fabric tables.  One finding per physical port per bundle: a switch port
 * that the bundle's mad documents describe (the peer of one of its ports)
 * is reported from them, named after the local port it faces, and the
 * same bundle's fabric scan does not report it again; an HCA port's own
 * counters stay with the sysfs queries (the same PMA counters), and its
 * link, when the scan has both ends' PortInfo, with the scan.
 *
 * Which side: a port's receive counters (symbol errors, PortRcvErrors,
 * link integrity) count what arrived over the cable, so they point at the
 * cable or at the transmitter at the far end; PortXmitDiscards and
 * PortXmitWait count what the port could not send, so they point at
 * congestion downstream of it. --- */

#define FABRIC_JSON "rdma-collect/fabric/fabric.json"

/* --- widths and speeds (PortInfo bit masks) --- */

/* lanes of one LinkWidth bit: 1 1X, 16 2X, 2 4X, 4 8X, 8 12X */
static int width_lanes(int64_t bit)
{
	switch (bit) {
	case 1: return 1;
	case 16: return 2;
	case 2: return 4;
	case 4: return 8;
	case 8: return 12;
	}
	return 0;
}

/* the widest width in a mask, as lanes (0: none) */
static int widest(int64_t mask)
{
	int best = 0, b;

	for (b = 0; b < 5; b++)
		if (mask & (1 << b) && width_lanes(1 << b) > best)
			best = width_lanes(1 << b);
	return best;
}

/* speeds ranked like rules-hca.c's SPEED_RANK: SDR 1, DDR 2, QDR 3,
 * (FDR10 4: a vendor extension PortInfo does not show), FDR 5, EDR 6,
 * HDR 7, NDR 8, XDR 9 */
static const char *const speed_names[] = { "?", "SDR", "DDR", "QDR", "FDR10",
					   "FDR", "EDR", "HDR", "NDR", "XDR" };

/* the fastest speed of a LinkSpeed mask (bits 1 SDR, 2 DDR, 4 QDR) and a
 * LinkSpeedExt mask (1 FDR, 2 EDR, 4 HDR, 8 NDR, 16 XDR) */
static int fastest(int64_t base, int64_t ext)
{
	int b;

	for (b = 4; b >= 0; b--)
		if (ext > 0 && ext & (1 << b))
			return 5 + b;
	for (b = 2; b >= 0; b--)
		if (base > 0 && base & (1 << b))
			return 1 + b;
	return 0;
}

/* one end of a link */
struct end {
	int64_t state, w_en, w_sup, w_act, s_en, s_sup, s_act, x_en, x_sup,
		x_act;
};

static void end_read(sqlite3_stmt *st, int i, struct end *e)
{
	e->state = db_col_int(st, i);
	e->w_en = db_col_int(st, i + 1);
	e->w_sup = db_col_int(st, i + 2);
	e->w_act = db_col_int(st, i + 3);
	e->s_en = db_col_int(st, i + 4);
	e->s_sup = db_col_int(st, i + 5);
	e->s_act = db_col_int(st, i + 6);
	e->x_en = db_col_int(st, i + 7);
	e->x_sup = db_col_int(st, i + 8);
	e->x_act = db_col_int(st, i + 9);
	/* LinkWidthEnabled 255: "as supported" */
	if (e->w_en == 255)
		e->w_en = e->w_sup;
}

#define END_COLS(p) p ".state, " p ".width_enabled, " p ".width_supported, " \
	p ".width_active, " p ".speed_enabled, " p ".speed_supported, " p     \
	".speed_active, " p ".speed_ext_enabled, " p ".speed_ext_supported, " \
	p ".speed_ext_active"

static void end_text(struct buf *b, const struct end *e)
{
	buf_addf(b, "LinkWidthEnabled %" PRId64 ", LinkWidthSupported %" PRId64
		 ", LinkWidthActive %" PRId64 ", LinkSpeedEnabled %" PRId64
		 ", LinkSpeedSupported %" PRId64 ", LinkSpeedActive %" PRId64
		 ", LinkSpeedExtEnabled %" PRId64 ", LinkSpeedExtSupported %"
		 PRId64 ", LinkSpeedExtActive %" PRId64, e->w_en, e->w_sup,
		 e->w_act, e->s_en, e->s_sup, e->s_act, e->x_en, e->x_sup,
		 e->x_act);
}

/* compare a link's active width and speed with the best both ends support
 * and enable: below it, the link trained down (a bad lane, cable or
 * connector): critical.  At it, but one end enables less than the other
 * enables and both support, the link is held down by that end's
 * configuration: a warning naming the end.  (Both ends enabling less than
 * they support is a fabric-wide choice, not a fault.)  Returns the
 * severity, 0 when the link is at its best, with what in out. */
static int degraded(const struct end *a, const struct end *z,
		    const char *aname, const char *zname, char *out, size_t n)
{
	int wbest, wact, sbest, sact, wa, wz, sa, sz;
	int64_t xa, xz, xsa, xsz;

	/* an active extended speed may come alone (ibdiagnet's PORTS
	 * table, iblinkinfo): LinkSpeedActive is then not needed */
	if (a->state != 4 || z->state != 4 || a->w_en < 0 || a->w_sup < 0 ||
	    z->w_en < 0 || z->w_sup < 0 || a->w_act <= 0 ||
	    (a->s_act <= 0 && a->x_act <= 0))
		return 0;
	wbest = widest(a->w_en & a->w_sup & z->w_en & z->w_sup);
	wact = width_lanes(a->w_act);
	xsa = a->x_sup > 0 ? a->x_sup : 0;
	xsz = z->x_sup > 0 ? z->x_sup : 0;
	xa = a->x_en > 0 ? a->x_en & xsa : 0;
	xz = z->x_en > 0 ? z->x_en & xsz : 0;
	sbest = fastest(a->s_en & a->s_sup & z->s_en & z->s_sup, xa & xz);
	sact = a->x_act > 0 ? fastest(0, a->x_act) : fastest(a->s_act, 0);
	if (!wbest || !wact || !sbest || !sact)
		return 0;
	if (wact < wbest || sact < sbest) {
		snprintf(out, n, "%dX %s where both ends support and enable "
			 "%dX %s", wact, speed_names[sact], wbest,
			 speed_names[sbest]);
		return SEV_CRITICAL;
	}
	/* the best each end enables of what both support */
	wa = widest(a->w_en & a->w_sup & z->w_sup);
	wz = widest(z->w_en & z->w_sup & a->w_sup);
	sa = fastest(a->s_en & a->s_sup & z->s_sup, xa & xsz);
	sz = fastest(z->s_en & z->s_sup & a->s_sup, xz & xsa);
	if (wact >= (wa > wz ? wa : wz) && sact >= (sa > sz ? sa : sz))
		return 0;
	snprintf(out, n, "%dX %s: %s enables only %dX %s while %s enables "
		 "%dX %s and both support it", wact, speed_names[sact],
		 wa * 16 + sa < wz * 16 + sz ? aname : zname,
		 wa < wz ? wa : wz, speed_names[sa < sz ? sa : sz],
		 wa * 16 + sa < wz * 16 + sz ? zname : aname,
		 wa > wz ? wa : wz, speed_names[sa > sz ? sa : sz]);
	return SEV_WARNING;
}

/* LINK_DEGRADED from the mad documents: each IB port and its peer */
static void degraded_mad(struct rctx *rc)
{
	sqlite3_stmt *st = db_query(rc->db,
		"SELECT l.bundle_id, l.ibdev, l.port, m.path, p.node_desc, "
		"p.node_guid, p.port_num, " END_COLS("l") ", " END_COLS("p") " "
		"FROM mad_portinfo l JOIN todo_rule t ON t.bundle_id = l.bundle_id "
		"JOIN mad_portinfo p ON p.bundle_id = l.bundle_id AND p.ibdev = "
		"l.ibdev AND p.port = l.port AND p.side = 'peer' "
		"JOIN mad_ports m ON m.bundle_id = l.bundle_id AND m.ibdev = "
		"l.ibdev AND m.port = l.port WHERE l.side = 'local' "
		"ORDER BY l.bundle_id, l.ibdev, l.port", "");

	while (sqlite3_step(st) == SQLITE_ROW) {
		struct end a, z;
		char what[1200], comp[80], peer[320];
		struct buf ev = BUF_INIT;
		int64_t fid;
		int sev;

		end_read(st, 7, &a);
		end_read(st, 17, &z);
		snprintf(comp, sizeof(comp), "%s:%" PRId64, db_col(st, 1),
			 db_col_int(st, 2));
		snprintf(peer, sizeof(peer), "%s port %" PRId64, db_col(st, 4),
			 db_col_int(st, 6));
		sev = degraded(&a, &z, comp, peer, what, sizeof(what));
		if (!sev)
			continue;
		fid = finding_add(
			rc, sqlite3_column_int64(st, 0), sev, comp,
			"link of %s to %s port %" PRId64 " (%s) runs %s", comp,
			db_col(st, 4), db_col_int(st, 6), db_col(st, 5), what);
		buf_addf(&ev, "local.portinfo: ");
		end_text(&ev, &a);
		finding_evidence(rc, fid, db_col(st, 3), "%s", ev.buf);
		buf_reset(&ev);
		buf_addf(&ev, "peer.portinfo: ");
		end_text(&ev, &z);
		finding_evidence(rc, fid, db_col(st, 3), "%s", ev.buf);
		buf_release(&ev);
	}
	db_done(st);
}

/* a fabric port as "<description> port N" */
static void port_name(char *out, size_t n, const char *desc, const char *guid,
		      int64_t port)
{
	snprintf(out, n, "%s port %" PRId64, *desc ? desc : guid, port);
}

/* LINK_DEGRADED on every cable of a fabric scan, each seen once (from its
 * lower GUID end), except those the bundle's mad documents describe */
static void degraded_fabric(struct rctx *rc)
{
	sqlite3_stmt *st = db_query(rc->db,
		"SELECT a.bundle_id, a.guid, a.port, coalesce(na.desc, ''), "
		"z.guid, z.port, coalesce(nz.desc, ''), " END_COLS("a") ", "
		END_COLS("z") " FROM fabric_ports a JOIN todo_rule t ON "
		"t.bundle_id = a.bundle_id JOIN fabric_ports z ON z.bundle_id = "
		"a.bundle_id AND z.guid = a.remote_guid AND z.port = a.remote_port "
		"LEFT JOIN fabric_nodes na ON na.bundle_id = a.bundle_id AND "
		"na.guid = a.guid LEFT JOIN fabric_nodes nz ON nz.bundle_id = "
		"a.bundle_id AND nz.guid = z.guid "
		"WHERE (a.guid < z.guid OR (a.guid = z.guid AND a.port < z.port)) "
		"AND NOT EXISTS (SELECT 1 FROM mad_portinfo m WHERE m.bundle_id = "
		"a.bundle_id AND ((m.node_guid = a.guid AND m.port_num = a.port) OR "
		"(m.node_guid = z.guid AND m.port_num = z.port))) "
		"ORDER BY a.bundle_id, na.desc, a.port", "");

	while (sqlite3_step(st) == SQLITE_ROW) {
		struct end a, z;
		char what[1200], an[320], zn[320], comp[700];
		struct buf ev = BUF_INIT;
		int64_t fid;
		int sev;

		end_read(st, 7, &a);
		end_read(st, 17, &z);
		port_name(an, sizeof(an), db_col(st, 3), db_col(st, 1),
			  db_col_int(st, 2));
		port_name(zn, sizeof(zn), db_col(st, 6), db_col(st, 4),
			  db_col_int(st, 5));
		sev = degraded(&a, &z, an, zn, what, sizeof(what));
		if (!sev)
			continue;
		snprintf(comp, sizeof(comp), "%s <-> %s", an, zn);
		fid = finding_add(rc, sqlite3_column_int64(st, 0), sev, comp,
				  "link %s (%s:%" PRId64 " - %s:%" PRId64
				  ") runs %s",
				  comp, db_col(st, 1), db_col_int(st, 2),
				  db_col(st, 4), db_col_int(st, 5), what);
		buf_addf(&ev, "%s port %" PRId64 ": ", db_col(st, 1),
			 db_col_int(st, 2));
		end_text(&ev, &a);
		finding_evidence(rc, fid, FABRIC_JSON, "%s", ev.buf);
		buf_reset(&ev);
		buf_addf(&ev, "%s port %" PRId64 ": ", db_col(st, 4),
			 db_col_int(st, 5));
		end_text(&ev, &z);
		finding_evidence(rc, fid, FABRIC_JSON, "%s", ev.buf);
		buf_release(&ev);
	}
	db_done(st);
}

static int fabric_link_degraded(struct rctx *rc)
{
	degraded_mad(rc);
	degraded_fabric(rc);
	return 0;
}

/* --- error counters of switch ports --- */

/* what a rule reads, and what it means for the side of the link */
struct counter_rule {
	const char *names[5];
	const char *before, *after;	/* the meaning, around the far end */
};

static const struct counter_rule symbol_errors = {
	{ "SymbolErrorCounter", "LinkErrorRecoveryCounter" },
	"bit errors received over the cable: the cable, or the transmitter "
	"at ", "",
};
static const struct counter_rule rcv_errors = {
	{ "PortRcvErrors", "PortRcvRemotePhysicalErrors",
	  "LocalLinkIntegrityErrors", "ExcessiveBufferOverrunErrors" },
	"bad packets received over the cable: the cable, or the transmitter "
	"at ", " (remote physical errors: further upstream; buffer overruns: "
	"flow control)",
};
static const struct counter_rule link_downed = {
	{ "LinkDownedCounter" },
	"the link to ", " went down and retrained since the counters were "
	"cleared",
};
static const struct counter_rule xmit_discards = {
	{ "PortXmitDiscards" },
	"packets towards ", " dropped on egress: congestion (or the link going "
	"down while sending)",
};

static int wanted(const struct counter_rule *cr, const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cr->names) && cr->names[i]; i++)
		if (!strcmp(cr->names[i], name))
			return 1;
	return 0;
}

/* a switch (or peer) port with counters over zero, gathered row by row */
struct hot {
	int64_t bid, port;
	char key[400];		/* what identifies the port in the query */
	char comp[400], far[400], guid[20], path[300];
	struct buf vals, ev;
};

static void hot_flush(struct rctx *rc, const struct counter_rule *cr,
		      struct hot *h)
{
	int64_t fid;

	if (h->vals.len) {
		fid = finding_add(rc, h->bid, -1, h->comp, "%s on %s (%s): %s%s%s",
				  h->vals.buf, h->comp, h->guid, cr->before,
				  h->far, cr->after);
		finding_evidence(rc, fid, h->path, "%s", h->ev.buf);
	}
	buf_reset(&h->vals);
	buf_reset(&h->ev);
	h->key[0] = 0;
}

/* rows: bundle_id, key, component, far end, guid, path, evidence prefix,
 * name, value */
static void hot_ports(struct rctx *rc, const struct counter_rule *cr,
		      sqlite3_stmt *st)
{
	struct hot h = { .vals = BUF_INIT, .ev = BUF_INIT };

	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = db_col(st, 7);
		char key[400];

		if (!wanted(cr, name))
			continue;
		snprintf(key, sizeof(key), "%" PRId64 "|%s", db_col_int(st, 0),
			 db_col(st, 1));
		if (strcmp(key, h.key)) {
			hot_flush(rc, cr, &h);
			snprintf(h.key, sizeof(h.key), "%s", key);
			h.bid = sqlite3_column_int64(st, 0);
			snprintf(h.comp, sizeof(h.comp), "%s", db_col(st, 2));
			snprintf(h.far, sizeof(h.far), "%s", db_col(st, 3));
			snprintf(h.guid, sizeof(h.guid), "%s", db_col(st, 4));
			snprintf(h.path, sizeof(h.path), "%s", db_col(st, 5));
		}
		buf_addf(&h.vals, "%s%s %" PRId64, h.vals.len ? ", " : "", name,
			 db_col_int(st, 8));
		buf_addf(&h.ev, "%s%s%s %" PRId64, h.ev.len ? "; " : "",
			 db_col(st, 6), name, db_col_int(st, 8));
	}
	hot_flush(rc, cr, &h);
	db_done(st);
	buf_release(&h.vals);
	buf_release(&h.ev);
}

/* a port of a fabric scan that is not one of the bundle's own CA ports
 * whose counters sysfs has (the sysfs queries report those) */
#define NOT_OWN(c) "(n.type = 2 OR NOT EXISTS (SELECT 1 FROM devices d " \
	"JOIN counters k ON k.bundle_id = d.bundle_id AND k.ibdev = d.ibdev " \
	"AND k.port = " c ".port AND k.kind = 'pma' WHERE d.bundle_id = " c  \
	".bundle_id AND '0x' || replace(d.node_guid, ':', '') = " c ".guid))"

/* a fabric port in a finding: port 255 is a switch's ports summed (the
 * PMA's AllPortSelect: an ibqueryerrors 'port ALL' line), no one port */
#define PORT_OF(c) "(CASE WHEN " c ".port = 255 THEN ' port ALL (all ports " \
	"summed)' ELSE ' port ' || " c ".port END)"
#define FAR_OF(c) "CASE WHEN " c ".port = 255 THEN 'the far end of one or " \
	"more of its ports' WHEN fp.remote_guid IS NULL THEN 'the far end' " \
	"ELSE coalesce(nullif(r.desc, ''), fp.remote_guid) || ' port ' || " \
	"fp.remote_port END"
/* a sum whose counter one of the switch's own ports shows too: that port
 * is reported, the sum would say it again */
#define NOT_SUMMED_AGAIN(c) "NOT (" c ".port = 255 AND EXISTS (SELECT 1 " \
	"FROM fabric_counters o WHERE o.bundle_id = " c ".bundle_id AND " \
	"o.guid = " c ".guid AND o.grp = " c ".grp AND o.name = " c ".name " \
	"AND o.port < 255 AND o.value > 0))"

/* the peer ports of the bundle's own IB ports (mad), then every port of
 * its fabric scan, switch or CA, that no mad document describes and no
 * sysfs query reports */
static void counter_check(struct rctx *rc, const struct counter_rule *cr)
{
	hot_ports(rc, cr, db_query(rc->db,
		"SELECT c.bundle_id, c.ibdev || ':' || c.port, "
		"coalesce(nullif(p.node_desc, ''), p.node_guid, 'peer') || ' port ' "
		"|| coalesce(p.port_num, '?') || ' (peer of ' || c.ibdev || ':' || "
		"c.port || ')', c.ibdev || ':' || c.port, coalesce(p.node_guid, "
		"'?'), m.path, 'peer.pma.PortCounters.', c.name, c.value "
		"FROM mad_counters c JOIN todo_rule t ON t.bundle_id = c.bundle_id "
		"JOIN mad_ports m ON m.bundle_id = c.bundle_id AND m.ibdev = "
		"c.ibdev AND m.port = c.port LEFT JOIN mad_portinfo p ON "
		"p.bundle_id = c.bundle_id AND p.ibdev = c.ibdev AND p.port = "
		"c.port AND p.side = 'peer' WHERE c.side = 'peer' AND c.grp = "
		"'PortCounters' AND c.value > 0 "
		"ORDER BY c.bundle_id, c.ibdev, c.port, c.name", ""));
	hot_ports(rc, cr, db_query(rc->db,
		"SELECT c.bundle_id, c.guid || ':' || c.port, "
		"coalesce(nullif(n.desc, ''), c.guid) || " PORT_OF("c") ", "
		FAR_OF("c") ", c.guid, '" FABRIC_JSON "', 'node ' || c.guid "
		"|| " PORT_OF("c") " || ' PortCounters.', c.name, c.value "
		"FROM fabric_counters c JOIN todo_rule t ON t.bundle_id = "
		"c.bundle_id JOIN fabric_nodes n ON n.bundle_id = c.bundle_id AND "
		"n.guid = c.guid AND " NOT_OWN("c") " LEFT JOIN fabric_ports fp ON "
		"fp.bundle_id = c.bundle_id AND fp.guid = c.guid AND fp.port = "
		"c.port LEFT JOIN fabric_nodes r ON r.bundle_id = c.bundle_id AND "
		"r.guid = fp.remote_guid WHERE c.grp = 'PortCounters' AND "
		"c.value > 0 AND " NOT_SUMMED_AGAIN("c") " AND NOT EXISTS (SELECT "
		"1 FROM mad_portinfo x WHERE "
		"x.bundle_id = c.bundle_id AND x.side = 'peer' AND x.node_guid = "
		"c.guid AND x.port_num = c.port) "
		"ORDER BY c.bundle_id, n.desc, c.guid, c.port, c.name", ""));
}

static int fabric_symbol_errors(struct rctx *rc)
{
	counter_check(rc, &symbol_errors);
	return 0;
}

static int fabric_rcv_errors(struct rctx *rc)
{
	counter_check(rc, &rcv_errors);
	return 0;
}

static int fabric_link_downed(struct rctx *rc)
{
	counter_check(rc, &link_downed);
	return 0;
}

static int fabric_xmit_discards(struct rctx *rc)
{
	counter_check(rc, &xmit_discards);
	return 0;
}

/* XMIT_WAIT_HIGH: PortXmitWait against the data sent (the 64-bit
 * PortCountersExtended PortXmitData when there, else the 32-bit one,
 * which saturates) over the counters' life, as the sysfs query does */
static int fabric_xmit_wait(struct rctx *rc)
{
	double thr = threshold(rc->db, "xmit_wait_ratio");
	sqlite3_stmt *st = db_query(rc->db,
		"WITH w AS ("
		"SELECT c.bundle_id, c.ibdev || ':' || c.port AS k, "
		"coalesce(nullif(p.node_desc, ''), p.node_guid, 'peer') || ' port ' "
		"|| coalesce(p.port_num, '?') || ' (peer of ' || c.ibdev || ':' || "
		"c.port || ')' AS comp, c.ibdev || ':' || c.port AS far, "
		"coalesce(p.node_guid, '?') AS guid, m.path AS path, 'peer.pma.' "
		"AS pre, c.value AS wait, (SELECT value FROM mad_counters "
		"d WHERE d.bundle_id = c.bundle_id AND d.ibdev = c.ibdev AND "
		"d.port = c.port AND d.side = 'peer' AND d.name = 'PortXmitData' "
		"ORDER BY d.grp DESC LIMIT 1) AS data "
		"FROM mad_counters c JOIN todo_rule t ON t.bundle_id = c.bundle_id "
		"JOIN mad_ports m ON m.bundle_id = c.bundle_id AND m.ibdev = "
		"c.ibdev AND m.port = c.port LEFT JOIN mad_portinfo p ON "
		"p.bundle_id = c.bundle_id AND p.ibdev = c.ibdev AND p.port = "
		"c.port AND p.side = 'peer' WHERE c.side = 'peer' AND c.grp = "
		"'PortCounters' AND c.name = 'PortXmitWait' AND c.value > 0 "
		"UNION ALL "
		"SELECT c.bundle_id, c.guid || ':' || c.port, coalesce(nullif("
		"n.desc, ''), c.guid) || " PORT_OF("c") ", " FAR_OF("c") ", "
		"c.guid, '" FABRIC_JSON "', 'node ' || c.guid || " PORT_OF("c")
		" || ' ', c.value, (SELECT value FROM "
		"fabric_counters d WHERE d.bundle_id = c.bundle_id AND d.guid = "
		"c.guid AND d.port = c.port AND d.name = 'PortXmitData' ORDER BY "
		"d.grp DESC LIMIT 1) "
		"FROM fabric_counters c JOIN todo_rule t ON t.bundle_id = "
		"c.bundle_id JOIN fabric_nodes n ON n.bundle_id = c.bundle_id AND "
		"n.guid = c.guid AND " NOT_OWN("c") " LEFT JOIN fabric_ports fp ON "
		"fp.bundle_id = c.bundle_id AND fp.guid = c.guid AND fp.port = "
		"c.port LEFT JOIN fabric_nodes r ON r.bundle_id = c.bundle_id AND "
		"r.guid = fp.remote_guid WHERE c.grp = 'PortCounters' AND c.name = "
		"'PortXmitWait' AND c.value > 0 AND " NOT_SUMMED_AGAIN("c") " AND "
		"NOT EXISTS (SELECT 1 FROM "
		"mad_portinfo x WHERE x.bundle_id = c.bundle_id AND x.side = "
		"'peer' AND x.node_guid = c.guid AND x.port_num = c.port)) "
		"SELECT * FROM w ORDER BY bundle_id, comp", "");

	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t wait = db_col_int(st, 7), data = db_col_int(st, 8), fid;
		double ratio = data > 0 ? (double)wait / (double)data : 1e308;

		/* no PortXmitData beside it (ibqueryerrors without --data):
		 * not "no data sent", nothing to compare the wait with */
		if (sqlite3_column_type(st, 8) == SQLITE_NULL || ratio <= thr)
			continue;
		if (data > 0)
			fid = finding_add(
				rc, sqlite3_column_int64(st, 0), -1,
				db_col(st, 2),
				"PortXmitWait on %s (%s) is "
				"%.1f%% of PortXmitData since the "
				"counters began (threshold %g%%): "
				"congestion: it waited for credits to "
				"send towards %s",
				db_col(st, 2), db_col(st, 4), 100 * ratio,
				100 * thr, db_col(st, 3));
		else
			fid = finding_add(
				rc, sqlite3_column_int64(st, 0), -1,
				db_col(st, 2),
				"PortXmitWait on %s (%s) "
				"is %" PRId64 " while no data was sent: "
				"congestion or missing credits towards "
				"%s",
				db_col(st, 2), db_col(st, 4), wait,
				db_col(st, 3));
		finding_evidence(rc, fid, db_col(st, 5),
				 "%sPortXmitWait %" PRId64
				 ", PortXmitData %" PRId64,
				 db_col(st, 6), wait, data);
	}
	db_done(st);
	return 0;
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
	return db_int(db, "SELECT count(*) FROM klog k JOIN " IBDEV_PCI_OF("?1")
		      " d ON d.bundle_id = k.bundle_id AND d.pci_addr = "
		      "k.device WHERE k.bundle_id = ?1 AND d.ibdev = ?2 AND "
		      "k.text LIKE '%firmware version: %'", "is", bid,
		      ibdev) > 1 ||
	       db_int(db, "SELECT count(*) FROM klog k JOIN " IBDEV_PCI_OF("?1")
		      " d ON d.bundle_id = k.bundle_id AND d.pci_addr = "
		      "k.device WHERE k.bundle_id = ?1 AND d.ibdev = ?2 AND "
		      "k.category = 'fw_reset'", "is", bid, ibdev) > 0;
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
		      "klog k LEFT JOIN " IBDEV_PCI_OF("?1") " d ON d.bundle_id = "
		      "k.bundle_id AND d.pci_addr = k.device WHERE k.bundle_id = "
		      "?1 AND "
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

/* the HCA side (kernel log, sysfs counters), then the switch side (MAD) */
static int link_flapping_both(struct rctx *rc)
{
	if (link_flapping(rc) < 0)
		return -1;
	return fabric_link_downed(rc);
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
		.imp_needs = IMP_NEEDS(&need_flap_evidence),
		.thresholds = "flaps_critical fleet_min_nodes",
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
		.thresholds = "ber_warning ber_critical raw_ber fleet_min_nodes",
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
		.thresholds = "eye_ratio fleet_min_nodes",
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
		.imp_needs = IMP_NEEDS(&need_port_counters),
		.thresholds = "fleet_min_nodes",
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
		.imp_needs = IMP_NEEDS(&need_port_counters),
		.thresholds = "fleet_min_nodes",
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
		.imp_needs = IMP_NEEDS(&need_port_counters),
		.thresholds = "fleet_min_nodes",
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
		.imp_needs = IMP_NEEDS(&need_port_counters),
		.thresholds = "xmit_wait_ratio fleet_min_nodes",
		.evidence = "sys/class/infiniband/<dev>/ports/<n>/counters/{port_xmit_wait,port_xmit_data}: the growth over the --sample interval when both reads exist, else since the counters began; PortXmitWait against PortXmitData (PortCountersExtended when there) of the peer switch port (rdma-collect/mad/<dev>.<n>.json peer.pma) and of every switch port of a fabric scan (rdma-collect/fabric/fabric.json), since the counters began; threshold xmit_wait_ratio",
		.remediation = "The port had data to send but no credits: the fabric is congested downstream (an oversubscribed link, a slow receiver, or a routing hot spot); check the switch ports along the path (ibqueryerrors, perfquery -x) and the adaptive routing / congestion control settings.",
		.sql = 1,
		.check = fabric_xmit_wait,
	},
	{ 0 },
};
