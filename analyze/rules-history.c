/* rules-history: layer "history", a bundle compared with the earlier
 * bundles of its node (history.h): error counters that grow, settings that
 * changed, kernel log events that are new.  A bundle with no earlier
 * bundle of its node gets no history finding. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "db.h"
#include "history.h"
#include "log.h"
#include "rules.h"

/* a newest rate at least this many times the previous interval's (and
 * above the since-boot average) is accelerating */
#define ACCEL_FACTOR 3.0

/* what goes into a message from a bundle: printable, bounded */
static const char *clean(const char *in, char *out, size_t n)
{
	size_t i;

	for (i = 0; in && in[i] && i + 1 < n; i++)
		out[i] = (unsigned char)in[i] < 0x20 || in[i] == 0x7f ? ' ' : in[i];
	out[i] = 0;
	return out;
}

/* for each bundle being diagnosed that has an earlier bundle of its node:
 * fn with the node's newest `last` snapshots up to it (h->n >= 2) */
static int each_with_past(struct rctx *rc, size_t last,
			  int (*fn)(struct rctx *rc, const struct hist_node *h))
{
	sqlite3_stmt *st;
	int64_t *ids = NULL, *nodes = NULL;
	size_t n = 0, i;
	int ret = 0;

	/* gathered first: fn runs queries of its own */
	st = db_query(rc->db, "SELECT t.bundle_id, b.node_id FROM todo_rule t "
		      "JOIN bundles b ON b.id = t.bundle_id ORDER BY t.bundle_id",
		      NULL);
	while (sqlite3_step(st) == SQLITE_ROW) {
		ids = xrealloc(ids, (n + 1) * sizeof(*ids));
		nodes = xrealloc(nodes, (n + 1) * sizeof(*nodes));
		ids[n] = sqlite3_column_int64(st, 0);
		nodes[n++] = sqlite3_column_int64(st, 1);
	}
	db_done(st);
	for (i = 0; i < n; i++) {
		struct hist_node h;

		if (hist_node_load(rc->db, nodes[i], ids[i], last, &h) < 0) {
			ret = -1;
			break;
		}
		if (h.n >= 2 && fn(rc, &h) < 0)
			ret = -1;
		hist_node_release(&h);
	}
	free(ids);
	free(nodes);
	return ret;
}

/* --- COUNTER_GROWING --- */

struct growth {
	struct rctx *rc;
	const struct hist_snap *s0, *s1, *s2;	/* s0 may be NULL */
	char obj[256], desc[96];
	struct buf sum, ev;			/* ev: "path\tvalue\n" */
	int sev, n;
};

static void growth_flush(struct growth *g)
{
	const char *e = g->ev.buf;
	int64_t fid;

	if (g->n) {
		fid = finding_add(g->rc, g->s2->bundle_id, g->sev, g->obj,
				  "%s%s%s%s: %s", g->obj, g->desc[0] ? " (switch "
				  "port of " : "", g->desc, g->desc[0] ? ")" : "",
				  g->sum.buf);
		while (*e) {
			const char *tab = strchr(e, '\t'), *nl = strchr(e, '\n');
			char *path = xstrndup(e, (size_t)(tab - e));

			finding_evidence(g->rc, fid, path, "%.*s",
					 (int)(nl - tab - 1), tab + 1);
			free(path);
			e = nl + 1;
		}
	}
	buf_reset(&g->sum);
	buf_reset(&g->ev);
	g->n = 0;
	g->sev = SEV_WARNING;
	g->obj[0] = 0;
	g->desc[0] = 0;
}

/* the far end's counters are the switch's: its counters do not restart
 * when this node reboots */
static int is_peer(const char *kind)
{
	return !strncmp(kind, "PortCounters", 12);
}

static int link_down_counter(const char *name)
{
	return !strcmp(name, "LinkDownedCounter") ||
	       !strcmp(name, "link_downed") ||
	       !strcmp(name, "link_down_events_phy");
}

static int growth_row(const struct hist_row *r, void *arg)
{
	struct growth *g = arg;
	struct hist_counter c;
	struct hist_delta d2, d1;
	int peer = is_peer(r->kind), boot = hist_rebooted(g->s1, g->s2);
	double avg = -1;
	int accel = 0;
	char rate[32], span[32], was[32], name[128], path[512];

	if (!r->has_prev || hist_counter_info(r->kind, r->name, r->cur, &c) < 0 ||
	    !c.error)
		return 0;
	hist_delta(r->prev, r->cur, c.width, boot && !peer,
		   hist_interval(g->s1, g->s2), g->s2->uptime_s, &d2);
	if (!d2.delta || d2.status == HIST_RESET)
		return 0;
	/* a reboot takes the link down (and up) once, and both ends count
	 * it: not growth */
	if (boot && d2.delta <= 1 && link_down_counter(r->name))
		return 0;
	clean(r->name, name, sizeof(name));
	clean(r->path, path, sizeof(path));
	if (strncmp(g->obj, r->obj, sizeof(g->obj) - 1)) {
		growth_flush(g);
		clean(r->obj, g->obj, sizeof(g->obj));
		clean(r->desc, g->desc, sizeof(g->desc));
	}
	if (d2.per_hour >= 0 && g->s0 && r->has_pprev) {
		hist_delta(r->pprev, r->prev, c.width,
			   hist_rebooted(g->s0, g->s1) && !peer,
			   hist_interval(g->s0, g->s1), g->s1->uptime_s, &d1);
		if (!peer && g->s2->uptime_s > 0)
			avg = (double)r->cur * 3600.0 / g->s2->uptime_s;
		accel = d1.per_hour > 0 && d2.per_hour >= ACCEL_FACTOR * d1.per_hour &&
			(avg < 0 || d2.per_hour > avg);
	} else {
		d1.per_hour = -1;
	}
	if (g->n++)
		buf_addstr(&g->sum, "; ");
	hist_fmt_span(span, sizeof(span), d2.seconds > 0 ? d2.seconds :
		      hist_interval(g->s1, g->s2));
	hist_fmt_rate(rate, sizeof(rate), d2.per_hour);
	switch (d2.status) {
	case HIST_SATURATED:
		buf_addf(&g->sum, "%s at its %u-bit maximum %llu: at least +%llu "
			 "%s (saturated, no rate)", name, c.width,
			 (unsigned long long)r->cur,
			 (unsigned long long)d2.delta,
			 boot && !peer ? "since the reboot" : "since the previous "
			 "snapshot");
		break;
	case HIST_REBOOT:
		if (d2.per_hour >= 0)
			buf_addf(&g->sum, "%s +%llu since the reboot %s ago (%s)",
				 name, (unsigned long long)d2.delta, span, rate);
		else
			buf_addf(&g->sum, "%s +%llu since a reboot at an unknown "
				 "time (no rate)", name,
				 (unsigned long long)d2.delta);
		break;
	default:
		if (d2.per_hour >= 0)
			buf_addf(&g->sum, "%s +%llu in %s (%s%s)", name,
				 (unsigned long long)d2.delta, span, rate,
				 d2.status == HIST_WRAP ? ", through a 64-bit wrap" : "");
		else
			buf_addf(&g->sum, "%s +%llu (collection times unknown: "
				 "no rate)", name, (unsigned long long)d2.delta);
		break;
	}
	if (d1.per_hour >= 0) {
		hist_fmt_rate(was, sizeof(was), d1.per_hour);
		buf_addf(&g->sum, ", previous interval %s", was);
		if (avg >= 0) {
			hist_fmt_rate(was, sizeof(was), avg);
			buf_addf(&g->sum, ", since boot %s", was);
		}
		buf_addstr(&g->sum, accel ? ": accelerating" :
			   d2.per_hour > d1.per_hour ? ": rising" :
			   d2.per_hour < d1.per_hour ? ": slowing" : ": steady");
	}
	if (accel)
		g->sev = SEV_CRITICAL;
	buf_addf(&g->ev, "%s\t%s %llu at %s (before: %llu at %s)\n", path,
		 name, (unsigned long long)r->cur, g->s2->collected_at ?
		 g->s2->collected_at : "?", (unsigned long long)r->prev,
		 g->s1->collected_at ? g->s1->collected_at : "?");
	return 0;
}

static int growing_node(struct rctx *rc, const struct hist_node *h)
{
	struct growth g;
	int ret;

	memset(&g, 0, sizeof(g));
	g.rc = rc;
	g.s2 = &h->v[h->n - 1];
	g.s1 = &h->v[h->n - 2];
	g.s0 = h->n >= 3 ? &h->v[h->n - 3] : NULL;
	g.sev = SEV_WARNING;
	buf_init(&g.sum, 0);
	buf_init(&g.ev, 0);
	ret = hist_counters(rc->db, g.s2->bundle_id, g.s1->bundle_id,
			    g.s0 ? g.s0->bundle_id : 0, 1, growth_row, &g);
	growth_flush(&g);
	buf_release(&g.sum);
	buf_release(&g.ev);
	return ret;
}

static int check_growing(struct rctx *rc)
{
	return each_with_past(rc, 3, growing_node);
}

/* --- CONFIG_CHANGED --- */

struct change {
	struct rctx *rc;
	const struct hist_snap *s1, *s2;
};

static int change_one(const struct hist_setting *s, void *arg)
{
	struct change *c = arg;
	char from[200], to[200], comp[128];
	int64_t fid;

	clean(s->from, from, sizeof(from));
	clean(s->to, to, sizeof(to));
	fid = finding_add(c->rc, c->s2->bundle_id, -1,
			  clean(s->component, comp, sizeof(comp)),
			  "%s changed from %s to %s (between %s and %s)", s->name,
			  from, to, c->s1->collected_at ? c->s1->collected_at : "?",
			  c->s2->collected_at ? c->s2->collected_at : "?");
	finding_evidence(c->rc, fid, s->path, "%s %s (before: %s)", s->name,
			 to, from);
	return 0;
}

static int changed_node(struct rctx *rc, const struct hist_node *h)
{
	struct change c = { rc, &h->v[h->n - 2], &h->v[h->n - 1] };

	return hist_settings_changed(rc->db, c.s1->bundle_id, c.s2->bundle_id,
				     change_one, &c);
}

static int check_changed(struct rctx *rc)
{
	return each_with_past(rc, 2, changed_node);
}

/* --- NEW_KERNEL_EVENTS --- */

#define EVENTS_SHOWN 10

struct events {
	struct buf cats;	/* "category\n" per event */
	struct buf ev;		/* the first EVENTS_SHOWN as "text\n" */
	int n;
};

static int event_one(const char *cat, int64_t ts_us, const char *device,
		     const char *text, void *arg)
{
	struct events *e = arg;
	char t[240];

	(void)device;
	buf_addf(&e->cats, "%s\n", cat);
	if (e->n++ < EVENTS_SHOWN)
		buf_addf(&e->ev, "[%5lld.%06lld] %s: %s\n",
			 (long long)(ts_us / 1000000),
			 (long long)(ts_us % 1000000 < 0 ? 0 : ts_us % 1000000),
			 cat, clean(text, t, sizeof(t)));
	return 0;
}

/* "3 link_flap, 1 fw_reset": counts per category, most first */
static void count_categories(sqlite3 *db, const char *cats, struct buf *out)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, "WITH RECURSIVE s(c, rest) AS (SELECT '', "
			       "?1 UNION ALL SELECT substr(rest, 1, instr(rest, "
			       "char(10)) - 1), substr(rest, instr(rest, "
			       "char(10)) + 1) FROM s WHERE rest <> '') SELECT "
			       "c, count(*) FROM s WHERE c <> '' GROUP BY c "
			       "ORDER BY count(*) DESC, c", -1, &st, NULL) !=
	    SQLITE_OK)
		return;
	sqlite3_bind_text(st, 1, cats, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW)
		buf_addf(out, "%s%d %s", out->len ? ", " : "",
			 sqlite3_column_int(st, 1),
			 (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

static int events_node(struct rctx *rc, const struct hist_node *h)
{
	const struct hist_snap *s1 = &h->v[h->n - 2], *s2 = &h->v[h->n - 1];
	struct events e;
	struct buf counts = BUF_INIT;
	const char *p;
	int n;

	memset(&e, 0, sizeof(e));
	buf_init(&e.cats, 0);
	buf_init(&e.ev, 0);
	n = hist_new_klog(rc->db, s2, event_one, &e);
	if (n > 0) {
		int64_t fid;

		count_categories(rc->db, e.cats.buf, &counts);
		fid = finding_add(rc, s2->bundle_id, -1, "klog", "%d RDMA-relevant "
				  "kernel log event%s since the previous snapshot "
				  "(%s%s): %s", n, n == 1 ? "" : "s",
				  s1->collected_at ? s1->collected_at : "?",
				  hist_rebooted(s1, s2) ? ", before a reboot" : "",
				  counts.buf);
		for (p = e.ev.buf; *p;) {
			const char *nl = strchr(p, '\n');

			finding_evidence(rc, fid, "rdma-collect/klog/kmsg.txt",
					 "%.*s", (int)(nl - p), p);
			p = nl + 1;
		}
		if (n > EVENTS_SHOWN)
			finding_evidence(rc, fid, "rdma-collect/klog/kmsg.txt",
					 "... and %d more", n - EVENTS_SHOWN);
	}
	buf_release(&counts);
	buf_release(&e.cats);
	buf_release(&e.ev);
	return n < 0 ? -1 : 0;
}

static int check_events(struct rctx *rc)
{
	return each_with_past(rc, 2, events_node);
}

const struct rule rules_history[] = {
	{ .id = "COUNTER_GROWING", .layer = LAYER_HISTORY, .severity = SEV_WARNING,
	  .title = "an error counter grew since the node's previous bundle; "
		   "critical when accelerating: the newest per-hour rate is at "
		   "least 3x the previous interval's (which grew too) and above "
		   "the since-boot average",
	  .evidence = "counters (pma, hw, hw_dev), netdev_stats (ethtool) and "
		      "the peer switch port's PortCounters (mad_counters) of the "
		      "error names in analyze/history.c, in this bundle and the "
		      "node's two before it; a reboot (new boot_id) counts from "
		      "0 over the uptime, a value that went down in the same "
		      "boot is a reset (no rate), a PMA counter at its maximum "
		      "is saturated (at least, no rate), a 64-bit counter from "
		      "its top to its bottom quarter wrapped; across a reboot, "
		      "one link-down count (link_downed, link_down_events_phy, "
		      "the peer's LinkDownedCounter) is the reboot's own and not "
		      "growth",
	  .remediation = "Errors that keep growing come from a live fault: "
			 "follow the counter's own check (SYMBOL_ERRORS, "
			 "PORT_RCV_ERRORS, DROPS_IN_FLIGHT, RX_BUFFER_DROPS); a "
			 "rate that accelerates is typical of a transceiver or "
			 "cable degrading: reseat or replace it before the link "
			 "fails",
	  .check = check_growing },
	{ .id = "CONFIG_CHANGED", .layer = LAYER_HISTORY, .severity = SEV_INFO,
	  .title = "firmware, driver, kernel or a compared setting changed "
		   "since the node's previous bundle",
	  .evidence = "kernel release; per RDMA device fw_ver and board_id; "
		      "the RDMA stack's modules (loaded, version) and their "
		      "parameters; per port link_layer, rate, active_mtu; per "
		      "netdev mtu and driver version; PFC enabled priorities and "
		      "trust; HCA PCIe link (LnkSta); the collector's memlock "
		      "limit; HugePages_Total; cmdline, IOMMU passthrough, "
		      "peermem; a value absent on either side is not compared",
	  .remediation = "Make sure the change was intended and reached every "
			 "node of the class (fleet checks); a change right "
			 "before a problem started is the first suspect",
	  .check = check_changed },
	{ .id = "NEW_KERNEL_EVENTS", .layer = LAYER_HISTORY, .severity = SEV_WARNING,
	  .title = "RDMA-relevant kernel log events appeared since the node's "
		   "previous bundle",
	  .needs = "klog",
	  .evidence = "klog records with a category other than probe (and not "
		      "the IOMMU default-domain line) that no earlier bundle of "
		      "the node in the same boot holds: the same text at the "
		      "same boot-relative time in the same boot is the same "
		      "record, seen again in the ring buffer's overlap",
	  .remediation = "Read the new lines: each category has its check "
			 "(FW_RESET, CABLE_MODULE_ERROR, LINK_FLAPPING, "
			 "PCIE_LINK_DEGRADED, PEERMEM_MISSING ...) with the fix",
	  .check = check_events },
	{ NULL },
};
