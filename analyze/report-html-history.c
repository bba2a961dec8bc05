/* report-html-history: per-node counter timelines in the HTML report --
 * small multiples, one per report node with two snapshots or more: the
 * error counters' and the pause counters' per-hour rates between each
 * snapshot and the one before (history.h: reboots restart the counters,
 * resets and saturated counters have no rate), and the reboots.  The
 * node panel links to its timeline (the script looks for #tl-N).
 *
 * Scale: the worst TL_NODES nodes, their newest TL_SNAPS snapshots (each
 * pair of snapshots is a walk over their counters); the others are named
 * with the command that prints their history.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "history.h"
#include "log.h"
#include "report-html.h"

#define TL_NODES 24
#define TL_SNAPS 16
#define TL_W 300
#define TL_H 80

struct tl_sum {
	const struct hist_snap *prev, *cur;
	double err, pause;
	int err_n, pause_n;	/* counters with a rate */
};

static int tl_row(const struct hist_row *r, void *arg)
{
	struct tl_sum *t = arg;
	struct hist_counter c;
	struct hist_delta d;
	int peer = !strncmp(r->kind, "PortCounters", 12);
	int pause = strcasestr(r->name, "pause") != NULL;

	if (!r->has_prev || hist_counter_info(r->kind, r->name, r->cur, &c) < 0)
		return 0;
	if (!c.error && !pause)
		return 0;
	/* the switch at the far end did not reboot with this node */
	hist_delta(r->prev, r->cur, c.width, hist_rebooted(t->prev, t->cur) &&
		   !peer, hist_interval(t->prev, t->cur), t->cur->uptime_s, &d);
	if (d.per_hour < 0)
		return 0;
	if (c.error) {
		t->err += d.per_hour;
		t->err_n++;
	} else {
		t->pause += d.per_hour;
		t->pause_n++;
	}
	return 0;
}

/* one series as a polyline with a point (and its title) per snapshot */
static void series(FILE *out, const struct hist_node *hn, const double *v,
		   const int *has, double t0, double span, double max,
		   const char *colour, const char *what)
{
	size_t i;
	int first = 1;

	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
		"points=\"", colour);
	for (i = 1; i < hn->n; i++) {
		if (!has[i])
			continue;
		fprintf(out, "%s%.1f,%.1f", first ? "" : " ", 8 + (TL_W - 16) *
			(hn->v[i].t - t0) / span, TL_H - 14 - (TL_H - 28) * v[i] /
			max);
		first = 0;
	}
	fputs("\"/>", out);
	for (i = 1; i < hn->n; i++) {
		char rate[32];

		if (!has[i])
			continue;
		hist_fmt_rate(rate, sizeof(rate), v[i]);
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\">"
			"<title>", 8 + (TL_W - 16) * (hn->v[i].t - t0) / span,
			TL_H - 14 - (TL_H - 28) * v[i] / max, colour);
		html_esc(out, hn->v[i].collected_at);
		fprintf(out, ": %s %s</title></circle>", what, rate);
	}
}

static void timeline(struct html *h, int idx, const char *node,
		     const struct hist_node *hn)
{
	FILE *out = h->out;
	double *err = xcalloc(hn->n, sizeof(double));
	double *pause = xcalloc(hn->n, sizeof(double));
	int *has_e = xcalloc(hn->n, sizeof(int));
	int *has_p = xcalloc(hn->n, sizeof(int));
	double t0 = (double)hn->v[0].t, span, emax = 0, pmax = 0;
	char a[32], b[32];
	size_t i;

	for (i = 1; i < hn->n; i++) {
		struct tl_sum t = { &hn->v[i - 1], &hn->v[i], 0, 0, 0, 0 };

		hist_counters(h->db, hn->v[i].bundle_id, hn->v[i - 1].bundle_id,
			      0, 0, tl_row, &t);
		err[i] = t.err;
		pause[i] = t.pause;
		has_e[i] = t.err_n > 0 && hn->v[i].t_ok && hn->v[i - 1].t_ok;
		has_p[i] = t.pause_n > 0 && hn->v[i].t_ok && hn->v[i - 1].t_ok;
		if (has_e[i] && err[i] > emax)
			emax = err[i];
		if (has_p[i] && pause[i] > pmax)
			pmax = pause[i];
	}
	span = (double)(hn->v[hn->n - 1].t - hn->v[0].t);
	if (span <= 0)
		span = 1;
	fprintf(out, "<div class=\"tl\" id=\"tl-%d\"><div>", idx);
	html_link(out, node, "");
	html_esc(out, node);
	hist_fmt_rate(a, sizeof(a), emax);
	hist_fmt_rate(b, sizeof(b), pmax);
	fprintf(out, "</a> <span class=\"muted\">%zu snapshots; peak: errors "
		"%s, pause %s</span></div>", hn->n, a, b);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" role=\"img\"><rect x=\"0.5\" y=\"0.5\" width=\"%d\" "
		"height=\"%d\" fill=\"#fff\" stroke=\"#dde1e6\"/>", TL_W, TL_H,
		TL_W - 1, TL_H - 1);
	for (i = 1; i < hn->n; i++)
		if (hist_rebooted(&hn->v[i - 1], &hn->v[i]))
			fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"4\" y2=\"%d\" "
				"stroke=\"#6b7280\" stroke-dasharray=\"3 3\"><title>"
				"rebooted before this snapshot</title></line>",
				8 + (TL_W - 16) * (hn->v[i].t - t0) / span,
				8 + (TL_W - 16) * (hn->v[i].t - t0) / span, TL_H - 10);
	series(out, hn, pause, has_p, t0, span, pmax > 0 ? pmax : 1, "#0b5cad",
	       "pause frames");
	series(out, hn, err, has_e, t0, span, emax > 0 ? emax : 1, "#c1121f",
	       "errors");
	fprintf(out, "<text x=\"8\" y=\"%d\" fill=\"#6b7280\">", TL_H - 3);
	html_esc(out, hn->v[0].collected_at);
	fprintf(out, "</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\" "
		"fill=\"#6b7280\">", TL_W - 8, TL_H - 3);
	html_esc(out, hn->v[hn->n - 1].collected_at);
	fputs("</text></svg></div>\n", out);
	free(err);
	free(pause);
	free(has_e);
	free(has_p);
}

/* the nodes with two bundles or more, counted once (bundles has no index
 * on node_id: a count per node would scan it per node) */
#define MULTI "(SELECT node_id FROM bundles GROUP BY node_id HAVING " \
	"count(*) >= 2)"

struct tl_node {
	int idx;
	int64_t node_id;
	char *name;
};

int pic_timelines(struct html *h)
{
	FILE *out = h->out;
	struct tl_node nodes[TL_NODES];
	sqlite3_stmt *s;
	int64_t more;
	int n = 0, i, drawn = 0;

	/* the list first: history.c rebuilds a temp table, which no open
	 * statement may be reading */
	s = db_query(h->db, "SELECT n.id - 1, b.node_id, b.hostname FROM "
		     "html_node n JOIN bundles b ON b.id = n.bundle_id JOIN "
		     MULTI " m ON m.node_id = b.node_id ORDER BY coalesce(("
		     "SELECT max(severity) FROM findings WHERE bundle_id = "
		     "b.id), -1) DESC, n.id "
		     "LIMIT ?", "i", (int64_t)TL_NODES);
	while (n < TL_NODES && sqlite3_step(s) == SQLITE_ROW) {
		nodes[n].idx = sqlite3_column_int(s, 0);
		nodes[n].node_id = sqlite3_column_int64(s, 1);
		nodes[n++].name = xstrdup(db_col(s, 2));
	}
	db_done(s);
	for (i = 0; i < n; i++) {
		struct hist_node hn;

		if (hist_node_load(h->db, nodes[i].node_id, 0, TL_SNAPS, &hn) < 0 ||
		    hn.n < 2) {
			hist_node_release(&hn);
			continue;
		}
		if (!drawn++)
			fputs("<figure id=\"pic-timelines\"><figcaption>Counter "
			      "history per node: the per-hour rate of its error "
			      "counters (red) and pause counters (blue) between "
			      "each snapshot and the one before, each on its own "
			      "scale; dashed: a reboot</figcaption>\n<div class=\""
			      "tls\">", out);
		timeline(h, nodes[i].idx, nodes[i].name, &hn);
		hist_node_release(&hn);
	}
	for (i = 0; i < n; i++)
		free(nodes[i].name);
	if (!drawn)
		return 0;
	fputs("</div>", out);
	more = db_int(h->db, "SELECT count(*) FROM html_node n JOIN bundles b ON "
		      "b.id = n.bundle_id JOIN " MULTI " m ON m.node_id = "
		      "b.node_id", NULL) - drawn;
	if (more > 0)
		fprintf(out, "<p class=\"muted\">%lld more node(s) have a history: "
			"rdma-analyze history --db FILE NODE</p>", (long long)more);
	fputs("</figure>\n", out);
	return 1;
}
