/* rules-fabric: the checks that MAD evidence makes possible (load-fabric.c:
 * mad_* from a node's own ports, fabric_* from a --fabric scan).  They are
 * the check functions of rules already in rules-hca.c and rules-sm.c, run
 * after those rules' sysfs queries:
 *
 *   SM_ABSENT, SM_NOT_MASTER   SMInfo of the SM each port names
 *   LINK_DEGRADED              both ends' enabled/supported/active width
 *                              and speed (the best common one vs active)
 *   SYMBOL_ERRORS, PORT_RCV_ERRORS, LINK_FLAPPING, XMIT_DISCARDS,
 *   XMIT_WAIT_HIGH             the PMA counters of the peer port of each
 *                              node port (mad), and of every port, switch
 *                              or CA, of a fabric scan (port 255: a
 *                              switch's ports summed, ibqueryerrors'
 *                              'port ALL')
 *   FW_VERSION_OUTLIER         (its fabric part, run by rules-fleet.c) the
 *                              FW Check of an ibdiagnet console log: a
 *                              node older than the newest firmware of its
 *                              Devid/PSID on the fabric
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
 * congestion downstream of it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "db.h"
#include "rules-fabric.h"
#include "util.h"

#define FABRIC_JSON "rdma-collect/fabric/fabric.json"
#define DIAG_JSON "rdma-collect/fabric/ibdiagnet.json"

static int64_t icol(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? -1 :
	       sqlite3_column_int64(st, i);
}

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
	e->state = icol(st, i);
	e->w_en = icol(st, i + 1);
	e->w_sup = icol(st, i + 2);
	e->w_act = icol(st, i + 3);
	e->s_en = icol(st, i + 4);
	e->s_sup = icol(st, i + 5);
	e->s_act = icol(st, i + 6);
	e->x_en = icol(st, i + 7);
	e->x_sup = icol(st, i + 8);
	e->x_act = icol(st, i + 9);
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
			 icol(st, 2));
		snprintf(peer, sizeof(peer), "%s port %" PRId64, db_col(st, 4),
			 icol(st, 6));
		sev = degraded(&a, &z, comp, peer, what, sizeof(what));
		if (!sev)
			continue;
		fid = finding_add(
			rc, sqlite3_column_int64(st, 0), sev, comp,
			"link of %s to %s port %" PRId64 " (%s) runs %s", comp,
			db_col(st, 4), icol(st, 6), db_col(st, 5), what);
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
			  icol(st, 2));
		port_name(zn, sizeof(zn), db_col(st, 6), db_col(st, 4),
			  icol(st, 5));
		sev = degraded(&a, &z, an, zn, what, sizeof(what));
		if (!sev)
			continue;
		snprintf(comp, sizeof(comp), "%s <-> %s", an, zn);
		fid = finding_add(rc, sqlite3_column_int64(st, 0), sev, comp,
				  "link %s (%s:%" PRId64 " - %s:%" PRId64
				  ") runs %s",
				  comp, db_col(st, 1), icol(st, 2),
				  db_col(st, 4), icol(st, 5), what);
		buf_addf(&ev, "%s port %" PRId64 ": ", db_col(st, 1),
			 icol(st, 2));
		end_text(&ev, &a);
		finding_evidence(rc, fid, FABRIC_JSON, "%s", ev.buf);
		buf_reset(&ev);
		buf_addf(&ev, "%s port %" PRId64 ": ", db_col(st, 4),
			 icol(st, 5));
		end_text(&ev, &z);
		finding_evidence(rc, fid, FABRIC_JSON, "%s", ev.buf);
		buf_release(&ev);
	}
	db_done(st);
}

int fabric_link_degraded(struct rctx *rc)
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
		snprintf(key, sizeof(key), "%" PRId64 "|%s", icol(st, 0),
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
			 icol(st, 8));
		buf_addf(&h.ev, "%s%s%s %" PRId64, h.ev.len ? "; " : "",
			 db_col(st, 6), name, icol(st, 8));
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

int fabric_symbol_errors(struct rctx *rc)
{
	counter_check(rc, &symbol_errors);
	return 0;
}

int fabric_rcv_errors(struct rctx *rc)
{
	counter_check(rc, &rcv_errors);
	return 0;
}

int fabric_link_downed(struct rctx *rc)
{
	counter_check(rc, &link_downed);
	return 0;
}

int fabric_xmit_discards(struct rctx *rc)
{
	counter_check(rc, &xmit_discards);
	return 0;
}

/* XMIT_WAIT_HIGH: PortXmitWait against the data sent (the 64-bit
 * PortCountersExtended PortXmitData when there, else the 32-bit one,
 * which saturates) over the counters' life, as the sysfs query does */
int fabric_xmit_wait(struct rctx *rc)
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
		int64_t wait = icol(st, 7), data = icol(st, 8), fid;
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

/* --- the subnet manager --- */

static const char *const sm_states[] = { "NOTACTIVE", "DISCOVERING",
					 "STANDBY", "MASTER" };

/* the port that asked: port 0 is one the input does not name (an import
 * of a lone sminfo, rdma-collect/mad/sminfo.json): the subnet's SM */
#define SM_ASKER "CASE WHEN s.port = 0 THEN 'sm' ELSE s.ibdev || ':' || " \
	"s.port END"

/* SM_ABSENT: a port whose SMInfo query found no SM (no answer, or no SM
 * LID), unless the sysfs query already reported the port */
int fabric_sm_absent(struct rctx *rc)
{
	sqlite3_stmt *st = db_query(rc->db,
		"SELECT s.bundle_id, " SM_ASKER ", s.sm_lid, s.error, "
		"m.path FROM mad_sminfo s JOIN todo_rule t ON t.bundle_id = "
		"s.bundle_id JOIN mad_ports m ON m.bundle_id = s.bundle_id AND "
		"m.ibdev = s.ibdev AND m.port = s.port WHERE s.state IS NULL AND "
		"s.error IS NOT NULL AND NOT EXISTS (SELECT 1 FROM findings f "
		"WHERE f.bundle_id = s.bundle_id AND f.rule = 'SM_ABSENT' AND "
		"f.component = " SM_ASKER ") "
		"ORDER BY s.bundle_id, s.ibdev, s.port", "");

	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t lid = icol(st, 2), fid;

		if (lid > 0)
			fid = finding_add(rc, sqlite3_column_int64(st, 0), -1,
					  db_col(st, 1),
					  "no subnet manager answers "
					  "%s: SMInfo to SM LID %" PRId64
					  " failed (%s)",
					  db_col(st, 1), lid, db_col(st, 3));
		else if (!strcmp(db_col(st, 1), "sm"))
			fid = finding_add(rc, sqlite3_column_int64(st, 0), -1,
					  "sm",
					  "sminfo found no subnet manager "
					  "(%s)",
					  db_col(st, 3));
		else
			fid = finding_add(rc, sqlite3_column_int64(st, 0), -1,
					  db_col(st, 1),
					  "no subnet manager is "
					  "known to %s (%s)",
					  db_col(st, 1), db_col(st, 3));
		finding_evidence(rc, fid, db_col(st, 4), "errors.sminfo %s",
				 db_col(st, 3));
	}
	db_done(st);
	return 0;
}

/* SM_NOT_MASTER: the SM that answered is not MASTER; one finding per SM
 * (its GUID), naming the ports that asked it */
int fabric_sm_not_master(struct rctx *rc)
{
	sqlite3_stmt *st = db_query(rc->db,
		"SELECT s.bundle_id, coalesce(s.guid, 'LID ' || s.sm_lid), "
		"min(s.sm_lid), min(s.state), min(s.priority), "
		"group_concat(CASE WHEN s.port = 0 THEN 'this node' ELSE "
		"s.ibdev || ':' || s.port END, ', '), min(m.path) "
		"FROM mad_sminfo s JOIN todo_rule t ON t.bundle_id = s.bundle_id "
		"JOIN mad_ports m ON m.bundle_id = s.bundle_id AND m.ibdev = "
		"s.ibdev AND m.port = s.port WHERE s.state BETWEEN 0 AND 2 "
		"GROUP BY s.bundle_id, 2 ORDER BY s.bundle_id, 2", "");

	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t state = icol(st, 3), fid;

		fid = finding_add(
			rc, sqlite3_column_int64(st, 0), -1, "sm",
			"the subnet manager at LID %" PRId64 " (%s, "
			"priority %" PRId64 ") answers %s in state %s, "
			"not MASTER",
			icol(st, 2), db_col(st, 1), icol(st, 4), db_col(st, 5),
			sm_states[state >= 0 && state <= 3 ? state : 0]);
		finding_evidence(
			rc, fid, db_col(st, 6),
			"sminfo.SmState %" PRId64 " (%s), SmPriority %" PRId64,
			state, sm_states[state >= 0 && state <= 3 ? state : 0],
			icol(st, 4));
	}
	db_done(st);
	return 0;
}

/* --- firmware, as ibdiagnet's FW Check compared it --- */

/* FW_VERSION_OUTLIER on each node the FW Check named: its firmware is not
 * the newest the fabric runs for the same board (Devid/PSID).  ibdiagnet
 * names the older ones; a node is named by its node GUID when ibdiagnet's
 * name for it carries one ("S<guid>/N<guid>"), else by that name
 * ("host/mlx5_0").  The stage's own count says when the log lists only
 * some of them (the rest are in ibdiagnet2.db_csv). */
int fabric_fw_mixed(struct rctx *rc)
{
	sqlite3_stmt *st = db_query(rc->db,
		"SELECT f.bundle_id, coalesce(f.guid, f.object), f.object, "
		"coalesce(f.device_id, '?'), coalesce(f.psid, '?'), f.fw, "
		"f.latest, (SELECT count(*) FROM fabric_diag_fw x WHERE "
		"x.bundle_id = f.bundle_id AND x.psid IS f.psid AND "
		"x.device_id IS f.device_id), coalesce((SELECT warnings FROM "
		"fabric_diag_stages s WHERE s.bundle_id = f.bundle_id AND "
		"s.stage = 'Nodes Information'), -1) "
		"FROM fabric_diag_fw f JOIN todo_rule t ON t.bundle_id = "
		"f.bundle_id WHERE f.fw <> f.latest ORDER BY f.bundle_id, 2", "");

	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t fid = finding_add(
			rc, sqlite3_column_int64(st, 0), -1, db_col(st, 1),
			"%s runs firmware %s while "
			"the newest on this fabric for the same "
			"board (Devid %s, PSID %s) is %s "
			"(ibdiagnet's FW Check: %" PRId64 " "
			"node(s) of that board named behind)",
			db_col(st, 2), db_col(st, 5), db_col(st, 3),
			db_col(st, 4), db_col(st, 6), icol(st, 7));

		finding_evidence(
			rc, fid, DIAG_JSON,
			"fw %s: Devid %s, PSID %s, "
			"FW %s, latest %s%s",
			db_col(st, 2), db_col(st, 3), db_col(st, 4),
			db_col(st, 5), db_col(st, 6),
			icol(st, 8) > icol(st, 7)
				? " (the log lists "
				  "only some of the stage's warnings: the rest "
				  "are in ibdiagnet2.db_csv)"
				: "");
	}
	db_done(st);
	return 0;
}
