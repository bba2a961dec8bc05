/* report-html-fabric: the fabric picture of the HTML report -- the newest
 * fabric scan (the one the last pairs run routed on, else the newest) as
 * layers: the switches furthest from the hosts on top (spines), the
 * switches the hosts are cabled to (leaves), the hosts under their leaf.
 * A layer is a switch's hop distance from the hosts, from the cables the
 * scan found (fabric_ports), so a 3-level tree draws as three rows.
 *
 * Links are coloured by what is wrong with them: not Active (red,
 * dashed), error counters (orange), running below the width or speed both
 * ends support (amber); a pairs suspect is drawn thick in red over a halo;
 * a link a finding names links to it.  Parallel cables between two
 * switches are one line (the worst of them; the title lists each).
 * Beyond FAB_FULL hosts, or FAB_PER_LEAF on a leaf, each host is a small
 * square under its leaf, coloured by its cable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "log.h"
#include "pairs.h"
#include "report-html.h"

#define FAB_NODES 6000		/* nodes and links drawn at most */
#define FAB_LINKS 24000
#define FAB_FULL 48		/* hosts drawn as labelled boxes up to */
#define FAB_PER_LEAF 8
#define SQ 10			/* an aggregated host's square, px */
#define SQ_ROW 8		/* squares a row under a leaf */

enum { L_OK, L_SLOW, L_ERR, L_DOWN };

static const char *const link_colour[] = {
	[L_OK] = "#9aa3ae", [L_SLOW] = "#d4a300", [L_ERR] = "#f4772e",
	[L_DOWN] = "#c1121f",
};
static const char *const link_what[] = {
	[L_OK] = "ok", [L_SLOW] = "below the width or speed both ends support",
	[L_ERR] = "error counters", [L_DOWN] = "not Active",
};

struct fnode_h {
	char guid[24];
	char *desc, *host;	/* host: a CA's first word, lower case */
	int ca, level, leaf;	/* leaf: a CA's switch (node index), -1 */
	int col;		/* a leaf's column, a host's slot */
	double x, y;
	int status;		/* a host: its cable's */
	int sus;		/* pairs suspect rank, 0 */
	int nhosts;		/* a leaf's */
};

struct flink {
	int a, b, pa, pb;	/* node indexes, ports */
	int status, sus;
	char *errs;		/* "SymbolErrorCounter 7 ..." */
	char *fnode, *frule;	/* the finding naming it (report node, rule) */
};

struct fab {
	struct html *h;
	int64_t scan;
	struct fnode_h *n;
	int nn;
	struct flink *l;
	int nl;
	char **snode, **srule;	/* suspect rank -> its finding, NULL */
	char **scomp;
	int nsus;
};

static int node_cmp(const void *x, const void *y)
{
	return strcmp(((const struct fnode_h *)x)->guid,
		      ((const struct fnode_h *)y)->guid);
}

static int node_find(const struct fab *f, const char *guid)
{
	struct fnode_h key, *p;

	snprintf(key.guid, sizeof(key.guid), "%s", guid ? guid : "");
	p = bsearch(&key, f->n, (size_t)f->nn, sizeof(*f->n), node_cmp);
	return p ? (int)(p - f->n) : -1;
}

/* "MF0;leaf1:MQM9700/U1" -> "leaf1", "node001 mlx5_0" -> "node001", cut
 * to n - 1 bytes on a character boundary */
static void short_name(char *out, size_t n, const char *desc)
{
	const char *p = desc, *semi = strchr(desc, ';');
	size_t k;

	if (semi && strchr(semi, ':'))
		p = semi + 1;
	k = strcspn(p, semi && p != desc ? ":" : " ");
	if (k >= n)
		for (k = n - 1; k && ((unsigned char)p[k] & 0xc0) == 0x80; k--)
			;
	memcpy(out, p, k);
	out[k] = '\0';
}

static int load_nodes(struct fab *f)
{
	sqlite3_stmt *s = db_query(f->h->db, "SELECT guid, type, coalesce(desc, "
				   "'') FROM fabric_nodes WHERE bundle_id = ? AND "
				   "type IN (1, 2) ORDER BY guid LIMIT ?", "ii",
				   f->scan, (int64_t)FAB_NODES);

	f->n = xcalloc(FAB_NODES, sizeof(*f->n));
	while (sqlite3_step(s) == SQLITE_ROW) {
		struct fnode_h *p = &f->n[f->nn++];
		char host[256];

		snprintf(p->guid, sizeof(p->guid), "%s", db_col(s, 0));
		p->desc = xstrdup(db_col(s, 2));
		p->ca = sqlite3_column_int(s, 1) == 1;
		p->leaf = -1;
		if (p->ca) {
			size_t k;

			snprintf(host, sizeof(host), "%.*s",
				 (int)strcspn(p->desc, " "), p->desc);
			for (k = 0; host[k]; k++)
				if (host[k] >= 'A' && host[k] <= 'Z')
					host[k] = (char)(host[k] - 'A' + 'a');
			p->host = xstrdup(host);
		}
	}
	db_done(s);
	return f->nn;
}

/* highest set bit's value, 0 for none */
static int top_bit(int64_t m)
{
	int b = 0;

	while (m > 1 && b < 62) {
		m >>= 1;
		b++;
	}
	return m == 1 ? 1 << b : 0;
}

/* the error counters of one end of a link, by the primary key (an OR of
 * both ends would scan the table for every link) */
#define ERRS(guid, port) "SELECT name, value FROM fabric_counters WHERE " \
	"bundle_id = a.bundle_id AND guid = " guid " AND port = " port " AND " \
	"grp = 'PortCounters' AND value > 0 AND name IN ('SymbolErrorCounter', " \
	"'LinkErrorRecoveryCounter', 'LinkDownedCounter', 'PortRcvErrors', " \
	"'PortRcvRemotePhysicalErrors', 'PortXmitDiscards', " \
	"'LocalLinkIntegrityErrors', 'ExcessiveBufferOverrunErrors')"

static void load_links(struct fab *f)
{
	sqlite3_stmt *s = db_query(f->h->db,
		"SELECT a.guid, a.port, a.remote_guid, a.remote_port, a.state, "
		"coalesce(z.state, a.state), a.width_active, a.width_supported & "
		"coalesce(z.width_supported, a.width_supported), "
		"a.speed_ext_active, a.speed_ext_supported & coalesce("
		"z.speed_ext_supported, a.speed_ext_supported), a.speed_active, "
		"a.speed_supported & coalesce(z.speed_supported, "
		"a.speed_supported), (SELECT group_concat(n || ' ' || v, ', ') "
		"FROM (SELECT name AS n, sum(value) AS v FROM (" ERRS("a.guid",
		"a.port") " UNION ALL " ERRS("a.remote_guid", "a.remote_port")
		") GROUP BY name)) FROM fabric_ports a LEFT JOIN fabric_ports z "
		"ON z.bundle_id = a.bundle_id AND z.guid = a.remote_guid AND "
		"z.port = a.remote_port WHERE a.bundle_id = ? AND a.remote_guid "
		"IS NOT NULL AND a.port > 0 AND (a.guid < a.remote_guid OR "
		"(a.guid = a.remote_guid AND a.port < a.remote_port)) ORDER BY "
		"a.guid, a.port LIMIT ?", "ii", f->scan, (int64_t)FAB_LINKS);

	f->l = xcalloc(FAB_LINKS, sizeof(*f->l));
	while (sqlite3_step(s) == SQLITE_ROW) {
		int a = node_find(f, db_col(s, 0)),
		    b = node_find(f, db_col(s, 2));
		struct flink *l;

		if (a < 0 || b < 0 || a == b)
			continue;
		l = &f->l[f->nl++];
		l->a = a;
		l->b = b;
		l->pa = sqlite3_column_int(s, 1);
		l->pb = sqlite3_column_int(s, 3);
		if (sqlite3_column_int(s, 4) != 4 || sqlite3_column_int(s, 5) != 4)
			l->status = L_DOWN;
		else if (sqlite3_column_type(s, 12) != SQLITE_NULL)
			l->status = L_ERR;
		else if (top_bit(sqlite3_column_int64(s, 6)) <
			 top_bit(sqlite3_column_int64(s, 7)) ||
			 (sqlite3_column_int64(s, 8) ?
			  top_bit(sqlite3_column_int64(s, 8)) <
			  top_bit(sqlite3_column_int64(s, 9)) :
			  !sqlite3_column_int64(s, 9) &&
			  top_bit(sqlite3_column_int64(s, 10)) <
			  top_bit(sqlite3_column_int64(s, 11))))
			l->status = L_SLOW;
		if (sqlite3_column_type(s, 12) != SQLITE_NULL)
			l->errs = xstrdup(db_col(s, 12));
		if (f->n[a].ca && !f->n[b].ca && f->n[a].leaf < 0)
			f->n[a].leaf = b;
		if (f->n[b].ca && !f->n[a].ca && f->n[b].leaf < 0)
			f->n[b].leaf = a;
		if (f->n[a].ca && f->n[a].leaf == b && l->status > f->n[a].status)
			f->n[a].status = l->status;
		if (f->n[b].ca && f->n[b].leaf == a && l->status > f->n[b].status)
			f->n[b].status = l->status;
	}
	db_done(s);
}

/* a switch's layer: 1 when a host is cabled to it, else one more than
 * its nearest neighbour's (breadth first); returns the top layer */
static int levels(struct fab *f)
{
	int changed = 1, top = 1, i, k;

	for (i = 0; i < f->nn; i++)
		f->n[i].level = f->n[i].ca ? 0 : -1;
	for (k = 0; k < f->nl; k++) {
		struct flink *l = &f->l[k];

		if (f->n[l->a].ca && !f->n[l->b].ca)
			f->n[l->b].level = 1;
		if (f->n[l->b].ca && !f->n[l->a].ca)
			f->n[l->a].level = 1;
	}
	while (changed) {
		changed = 0;
		for (k = 0; k < f->nl; k++) {
			struct fnode_h *a = &f->n[f->l[k].a], *b = &f->n[f->l[k].b];

			if (a->ca || b->ca)
				continue;
			if (a->level > 0 && (b->level < 0 || b->level > a->level + 1)) {
				b->level = a->level + 1;
				changed = 1;
			}
			if (b->level > 0 && (a->level < 0 || a->level > b->level + 1)) {
				a->level = b->level + 1;
				changed = 1;
			}
		}
	}
	for (i = 0; i < f->nn; i++) {
		if (!f->n[i].ca && f->n[i].level < 0)
			f->n[i].level = 1;
		if (f->n[i].level > top)
			top = f->n[i].level;
	}
	return top;
}

/* the findings that name a link of the scan by its ports ("desc port N",
 * either end, as the fabric rules write components) */
static void findings_on_links(struct fab *f)
{
	struct smap names;
	sqlite3_stmt *s;
	char name[400];
	int k, e;

	smap_init(&names);
	for (k = 0; k < f->nl; k++)
		for (e = 0; e < 2; e++) {
			const struct fnode_h *n = &f->n[e ? f->l[k].b : f->l[k].a];

			snprintf(name, sizeof(name), "%s port %d",
				 *n->desc ? n->desc : n->guid,
				 e ? f->l[k].pb : f->l[k].pa);
			smap_put(&names, name, k);
		}
	s = db_query(f->h->db, "SELECT b.hostname, f.rule, f.component FROM "
		     "findings f JOIN report_bundles r ON r.bundle_id = "
		     "f.bundle_id JOIN bundles b ON b.id = f.bundle_id WHERE "
		     "f.layer <> 'pairs' AND f.severity >= 1 AND f.component LIKE "
		     "'% port %' ORDER BY f.severity DESC, f.id", NULL);
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *c = db_col(s, 2), *sep;

		for (e = 0; e < 2 && *c; e++) {
			sep = strstr(c, " <-> ");
			snprintf(name, sizeof(name), "%.*s", (int)(sep ?
				 (size_t)(sep - c) : strcspn(c, "(")), c);
			if (!sep && strchr(c, '(') && strlen(name))
				name[strlen(name) - 1] = '\0';
			k = smap_get(&names, name);
			if (k >= 0 && !f->l[k].frule) {
				f->l[k].fnode = xstrdup(db_col(s, 0));
				f->l[k].frule = xstrdup(db_col(s, 1));
			}
			c = sep ? sep + 5 : "";
		}
	}
	db_done(s);
	smap_release(&names);
}

/* the pairs suspects onto links, hosts and switches */
static void suspects(struct fab *f)
{
	sqlite3_stmt *s;
	int i, k;

	if (!html_has_table(f->h->db, "pair_suspects"))
		return;
	f->nsus = (int)db_int(f->h->db, "SELECT count(*) FROM pair_suspects "
			      "WHERE rank BETWEEN 1 AND 64", NULL);
	f->snode = xcalloc((size_t)f->nsus + 1, sizeof(char *));
	f->srule = xcalloc((size_t)f->nsus + 1, sizeof(char *));
	f->scomp = xcalloc((size_t)f->nsus + 1, sizeof(char *));
	s = db_query(f->h->db, "SELECT s.rank, s.kind, s.host, s.guid0, s.port0, "
		     "s.guid1, s.port1, s.rule, s.component, (SELECT b.hostname "
		     "FROM findings x JOIN bundles b ON b.id = x.bundle_id JOIN "
		     "report_bundles r ON r.bundle_id = b.id WHERE x.id = "
		     "s.finding_id) FROM pair_suspects s WHERE s.rank BETWEEN 1 "
		     "AND ? ORDER BY s.rank", "i", (int64_t)f->nsus);
	while (sqlite3_step(s) == SQLITE_ROW) {
		int r = sqlite3_column_int(s, 0);
		const char *kind = db_col(s, 1);
		int g0 = node_find(f, db_col(s, 3)),
		    g1 = node_find(f, db_col(s, 5));
		int p0 = sqlite3_column_int(s, 4), p1 = sqlite3_column_int(s, 6);

		if (r < 1 || r > f->nsus || f->srule[r])
			continue;
		f->srule[r] = xstrdup(db_col(s, 7));
		f->scomp[r] = xstrdup(db_col(s, 8));
		if (sqlite3_column_type(s, 9) != SQLITE_NULL)
			f->snode[r] = xstrdup(db_col(s, 9));
		if (!strcmp(kind, "node") || !strcmp(kind, "hca")) {
			for (i = 0; i < f->nn; i++)
				if (f->n[i].ca && !f->n[i].sus &&
				    !strcasecmp(f->n[i].host, db_col(s, 2)))
					f->n[i].sus = r;
		} else if (!strcmp(kind, "switch") && g0 >= 0) {
			if (!f->n[g0].sus)
				f->n[g0].sus = r;
		} else {
			for (k = 0; k < f->nl; k++) {
				struct flink *l = &f->l[k];

				if (!l->sus && ((l->a == g0 && l->pa == p0 &&
						 l->b == g1 && l->pb == p1) ||
						(l->a == g1 && l->pa == p1 &&
						 l->b == g0 && l->pb == p0)))
					l->sus = r;
			}
		}
	}
	db_done(s);
	/* a host's cable suspect marks the host too, a host its cable */
	for (k = 0; k < f->nl; k++) {
		struct flink *l = &f->l[k];

		if (!l->sus && f->n[l->a].ca && f->n[l->a].sus)
			l->sus = f->n[l->a].sus;
		if (!l->sus && f->n[l->b].ca && f->n[l->b].sus)
			l->sus = f->n[l->b].sus;

		if (l->sus && f->n[l->a].ca && !f->n[l->a].sus)
			f->n[l->a].sus = l->sus;
		if (l->sus && f->n[l->b].ca && !f->n[l->b].sus)
			f->n[l->b].sus = l->sus;
	}
}

/* columns: leaves in the order of their descriptions, hosts under them */
static int layout(struct fab *f, int top, int *full)
{
	int *order = xcalloc((size_t)f->nn + 1, sizeof(*order));
	int i, j, n = 0, hosts = 0, most = 0, width, x;

	for (i = 0; i < f->nn; i++)
		if (f->n[i].ca && f->n[i].leaf >= 0) {
			f->n[i].col = f->n[f->n[i].leaf].nhosts++;
			hosts++;
		}
	for (i = 0; i < f->nn; i++)
		if (!f->n[i].ca && f->n[i].nhosts > most)
			most = f->n[i].nhosts;
	*full = hosts <= FAB_FULL && most <= FAB_PER_LEAF;
	/* leaves by description (insertion sort: a few hundred at most) */
	for (i = 0; i < f->nn; i++) {
		if (f->n[i].ca || f->n[i].level != 1)
			continue;
		for (j = n; j > 0 && strcmp(f->n[order[j - 1]].desc,
					    f->n[i].desc) > 0; j--)
			order[j] = order[j - 1];
		order[j] = i;
		n++;
	}
	x = 20;
	for (i = 0; i < n; i++) {
		struct fnode_h *l = &f->n[order[i]];
		int w = *full ? (l->nhosts > 1 ? l->nhosts : 1) * 74 :
			(l->nhosts < SQ_ROW ? (l->nhosts > 4 ? l->nhosts : 4) :
			 SQ_ROW) * (SQ + 2);

		if (w < 84)
			w = 84;
		l->x = x + w / 2.0;
		l->y = 40 + (top - 1) * 110;
		l->col = i;
		x += w + 12;
	}
	width = x + 8;
	if (width < 600)
		width = 600;
	/* the layers above: spread over the width */
	for (j = 2; j <= top; j++) {
		int m = 0, k = 0;

		for (i = 0; i < f->nn; i++)
			m += !f->n[i].ca && f->n[i].level == j;
		for (i = 0; i < f->nn; i++) {
			struct fnode_h *s = &f->n[i];

			if (s->ca || s->level != j)
				continue;
			s->x = (k++ + 0.5) * width / m;
			s->y = 40 + (top - j) * 110;
		}
	}
	/* hosts: a row of boxes, or rows of squares */
	for (i = 0; i < f->nn; i++) {
		struct fnode_h *c = &f->n[i], *l;

		if (!c->ca || c->leaf < 0)
			continue;
		l = &f->n[c->leaf];
		if (*full) {
			c->x = l->x + (c->col - (l->nhosts - 1) / 2.0) * 74;
			c->y = l->y + 90;
		} else {
			int per = l->nhosts < SQ_ROW ? l->nhosts : SQ_ROW;

			c->x = l->x + (c->col % SQ_ROW - (per - 1) / 2.0) * (SQ + 2);
			c->y = l->y + 50 + (c->col / SQ_ROW) * (SQ + 2);
		}
	}
	free(order);
	return width;
}

/* the report's node names, lower case -> as the page spells them */
static void report_nodes(struct fab *f, struct smap *m, char ***names)
{
	sqlite3_stmt *s = db_query(f->h->db, "SELECT DISTINCT b.hostname FROM "
				   "bundles b JOIN report_bundles r ON "
				   "r.bundle_id = b.id ORDER BY 1", NULL);
	int n = 0;

	smap_init(m);
	*names = NULL;
	while (sqlite3_step(s) == SQLITE_ROW) {
		char *low = xstrdup(db_col(s, 0)), *p;

		for (p = low; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p = (char)(*p - 'A' + 'a');
		*names = xrealloc(*names, (size_t)(n + 1) * sizeof(char *));
		(*names)[n] = xstrdup(db_col(s, 0));
		if (smap_get(m, low) < 0)
			smap_put(m, low, n);
		n++;
		free(low);
	}
	db_done(s);
}

/* <a> to suspect r's finding, else to a report node; 0: no link */
static int open_a(struct fab *f, int r, const char *node)
{
	if (r > 0 && r <= f->nsus && f->snode[r]) {
		html_link(f->h->out, f->snode[r], f->srule[r]);
		return 1;
	}
	if (node) {
		html_link(f->h->out, node, "");
		return 1;
	}
	return 0;
}

static void port_label(struct buf *b, const struct fab *f, int n, int port)
{
	buf_addf(b, "%s port %d", *f->n[n].desc ? f->n[n].desc : f->n[n].guid,
		 port);
}

/* one line for the parallel cables of two switches (or one host cable) */
static void draw_link(struct fab *f, const int *idx, int n, int pass)
{
	FILE *out = f->h->out;
	const struct flink *l0 = &f->l[idx[0]];
	const struct fnode_h *a = &f->n[l0->a], *b = &f->n[l0->b];
	struct buf t = BUF_INIT;
	int status = L_OK, sus = 0, i, open = 0;
	const struct flink *fl = NULL;
	double ya, yb;

	for (i = 0; i < n; i++) {
		const struct flink *l = &f->l[idx[i]];

		if (l->status > status)
			status = l->status;
		if (l->sus && (!sus || l->sus < sus))
			sus = l->sus;
		if (l->frule && !fl)
			fl = l;
	}
	/* quiet links first, the others over them */
	if (pass != (status != L_OK || sus || fl))
		return;
	for (i = 0; i < n && i < 8; i++) {
		const struct flink *l = &f->l[idx[i]];

		if (i)
			buf_addstr(&t, "\n");
		port_label(&t, f, l->a, l->pa);
		buf_addstr(&t, " <-> ");
		port_label(&t, f, l->b, l->pb);
		buf_addf(&t, ": %s", link_what[l->status]);
		if (l->errs)
			buf_addf(&t, " (%s)", l->errs);
		if (l->sus && l->sus <= f->nsus)
			buf_addf(&t, "; pairs suspect %d, %s", l->sus,
				 f->srule[l->sus]);
		if (l->frule)
			buf_addf(&t, "; %s", l->frule);
	}
	if (n > 8)
		buf_addf(&t, "\n... %d more cables", n - 8);
	ya = a->y + (a->y < b->y ? 12 : -12);
	yb = b->y + (b->y < a->y ? 12 : -12);
	if (sus)
		open = open_a(f, sus, NULL);
	else if (fl) {
		html_link(out, fl->fnode, fl->frule);
		open = 1;
	}
	fputs("<g class=\"link\"><title>", out);
	html_esc(out, t.buf);
	fputs("</title>", out);
	if (sus)
		fprintf(out, "<line class=\"suspect\" x1=\"%.1f\" y1=\"%.1f\" x2="
			"\"%.1f\" y2=\"%.1f\" stroke=\"#c1121f\" stroke-opacity="
			"\"0.3\" stroke-width=\"12\"/>", a->x, ya, b->x, yb);
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"%s\" stroke-width=\"%s\"%s/>", a->x, ya, b->x, yb,
		sus ? "#c1121f" : link_colour[status], sus ? "4" : status ? "3" :
		n > 1 ? "2" : "1.2", status == L_DOWN ?
		" stroke-dasharray=\"6 4\"" : "");
	if (n > 1)
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#6b7280\">"
			"&times;%d</text>", (a->x + b->x) / 2 + 3,
			(ya + yb) / 2, n);
	fputs(open ? "</g></a>" : "</g>", out);
	buf_release(&t);
}

static int link_cmp(const void *x, const void *y, void *ctx)
{
	const struct flink *l = ctx;
	const struct flink *p = &l[*(const int *)x], *q = &l[*(const int *)y];
	int pa = p->a < p->b ? p->a : p->b, pb = p->a < p->b ? p->b : p->a;
	int qa = q->a < q->b ? q->a : q->b, qb = q->a < q->b ? q->b : q->a;

	if (pa != qa)
		return pa < qa ? -1 : 1;
	return pb < qb ? -1 : pb > qb;
}

static void draw_links(struct fab *f, int full)
{
	int *idx = xcalloc((size_t)f->nl + 1, sizeof(*idx));
	int n = 0, i, j, pass;

	for (i = 0; i < f->nl; i++) {
		const struct flink *l = &f->l[i];

		/* aggregated hosts are squares: their cable is their colour */
		if (!full && (f->n[l->a].ca || f->n[l->b].ca))
			continue;
		if (f->n[l->a].ca && f->n[l->b].ca)
			continue;
		idx[n++] = i;
	}
	qsort_r(idx, (size_t)n, sizeof(*idx), link_cmp, f->l);
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < n; i = j) {
			for (j = i + 1; j < n && !link_cmp(&idx[i], &idx[j], f->l);
			     j++)
				;
			draw_link(f, idx + i, j - i, pass);
		}
	free(idx);
}

static void draw_nodes(struct fab *f, int full)
{
	static const char *const host_fill[] = {
		[L_OK] = "#cdebd9", [L_SLOW] = "#f2d16b", [L_ERR] = "#f4772e",
		[L_DOWN] = "#c1121f",
	};
	FILE *out = f->h->out;
	char **names, label[32];
	struct smap rep;
	int i, open, k;

	report_nodes(f, &rep, &names);
	for (i = 0; i < f->nn; i++) {
		const struct fnode_h *n = &f->n[i];

		if (n->ca && n->leaf < 0)
			continue;
		k = n->ca ? smap_get(&rep, n->host) : -1;
		open = open_a(f, n->sus, k >= 0 ? names[k] : NULL);
		fprintf(out, "<g class=\"%s%s\"><title>", n->ca ? "host" : "switch",
			n->sus ? " suspect" : "");
		html_esc(out, *n->desc ? n->desc : n->guid);
		fprintf(out, " (%s)", n->guid);
		if (n->ca && n->status)
			fprintf(out, ": cable %s", link_what[n->status]);
		if (n->sus && n->sus <= f->nsus) {
			fprintf(out, "; pairs suspect %d: ", n->sus);
			html_esc(out, f->srule[n->sus]);
			fputc(' ', out);
			html_esc(out, f->scomp[n->sus]);
		}
		fputs("</title>", out);
		short_name(label, n->ca ? 11 : 13, *n->desc ? n->desc : n->guid);
		if (!n->ca || full) {
			int w = n->ca ? 66 : 84;

			fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" "
				"height=\"24\" rx=\"3\" fill=\"%s\" stroke=\"%s\" "
				"stroke-width=\"%s\"/>", n->x - w / 2.0, n->y - 12,
				w, n->sus ? "#fbe3e4" : n->ca ?
				host_fill[n->status] : "#fff", n->sus ?
				"#c1121f" : "#6b7280", n->sus ? "3" : "1");
			html_text(out, n->x, n->y + 4, "middle", "#1d2330", label);
		} else {
			fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" "
				"height=\"%d\" fill=\"%s\"%s/>", n->x - SQ / 2.0,
				n->y - SQ / 2.0, SQ, SQ, n->sus ? "#c1121f" :
				host_fill[n->status], n->sus ?
				" stroke=\"#1d2330\" stroke-width=\"2\"" : "");
		}
		fputs(open ? "</g></a>" : "</g>", out);
		if (!n->ca && !full && n->nhosts) {
			snprintf(label, sizeof(label), "%d host%s", n->nhosts,
				 n->nhosts == 1 ? "" : "s");
			html_text(out, n->x, n->y + 30, "middle", "#6b7280", label);
		}
	}
	for (k = 0; names && k < (int)rep.n; k++)
		free(names[k]);
	free(names);
	smap_release(&rep);
}

static void fab_release(struct fab *f)
{
	int i;

	for (i = 0; i < f->nn; i++) {
		free(f->n[i].desc);
		free(f->n[i].host);
	}
	for (i = 0; i < f->nl; i++) {
		free(f->l[i].errs);
		free(f->l[i].fnode);
		free(f->l[i].frule);
	}
	for (i = 0; i <= f->nsus && f->srule; i++) {
		free(f->snode[i]);
		free(f->srule[i]);
		free(f->scomp[i]);
	}
	free(f->snode);
	free(f->srule);
	free(f->scomp);
	free(f->n);
	free(f->l);
}

int pic_fabric(struct html *h)
{
	struct fab f = { .h = h };
	FILE *out = h->out;
	sqlite3_stmt *s;
	int top, full, width, height = 0, i, bad = 0, hosts = 0, sw = 0;

	f.scan = db_int(h->db, "SELECT coalesce((SELECT scan_bundle FROM "
			"pair_runs WHERE scan_bundle IN (SELECT bundle_id FROM "
			"fabric_scans)), (SELECT s.bundle_id FROM fabric_scans s "
			"JOIN bundles b ON b.id = s.bundle_id ORDER BY "
			"b.collected_at DESC, b.id DESC LIMIT 1), 0)", NULL);
	if (!f.scan || load_nodes(&f) < 2) {
		fab_release(&f);
		return 0;
	}
	load_links(&f);
	top = levels(&f);
	findings_on_links(&f);
	suspects(&f);
	width = layout(&f, top, &full);
	for (i = 0; i < f.nn; i++) {
		if (f.n[i].y + 30 > height)
			height = (int)f.n[i].y + 30;
		hosts += f.n[i].ca;
		sw += !f.n[i].ca;
	}
	for (i = 0; i < f.nl; i++)
		bad += f.l[i].status != L_OK;
	fputs("<figure id=\"pic-fabric\"><h2>Fabric</h2><figcaption>The "
	      "fabric scan in the bundle of ", out);
	s = db_query(h->db, "SELECT hostname, collected_at FROM bundles WHERE "
		     "id = ?", "i", f.scan);
	if (sqlite3_step(s) == SQLITE_ROW) {
		html_esc(out, db_col(s, 0));
		fputs(", ", out);
		html_esc(out, db_col(s, 1));
	}
	db_done(s);
	fprintf(out, ": %d switches in %d layer%s, %d host ports, "
		"%d cables, %d of them not right. <span class=\"key c-fail\">not "
		"Active</span> <span class=\"key c-err\">error counters</span> "
		"<span class=\"key c-slow\">below the width or speed both ends "
		"support</span> <span class=\"key c-ok\">ok</span>; a pairs "
		"suspect is red and thick, and links to its finding%s.</figcaption>\n",
		sw, top, top == 1 ? "" : "s", hosts, f.nl, bad, full ? "" :
		"; hosts are squares under their leaf, coloured by their cable");
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" role=\"img\" id=\"fabric\">", width, height);
	draw_links(&f, full);
	draw_nodes(&f, full);
	fputs("</svg></figure>\n", out);
	fab_release(&f);
	return 1;
}
