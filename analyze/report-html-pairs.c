/* report-html-pairs: the pair heatmap of the HTML report -- hosts x hosts,
 * each cell the results of that pair of hosts in the last `rdma-analyze
 * pairs` run (pair_* tables, schema/005-pairs.sql), rows and columns
 * ordered by leaf switch, so that a bad host or host cable is a cross and
 * a bad link between leaves a block.  The failing cells a suspect
 * explains link to its finding, and a host suspect's row and column are
 * outlined.
 *
 * Scale: a cell per pair up to HEAT_FINE hosts (ok cells merged into runs
 * along a row, failing ones drawn one by one up to HEAT_FAILS); beyond,
 * one cell per pair of leaves (or of blocks of HEAT_BLOCK hosts when no
 * leaf is known), shaded by the share of failing results.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "log.h"
#include "report-html.h"

#define HEAT_FINE 400
#define HEAT_FAILS 20000
#define HEAT_BLOCK 32
#define HEAT_SIDE 760		/* the matrix, px */
#define HEAT_SUSPECTS 64	/* suspects linked and listed */

enum { C_NONE, C_OK, C_DEG, C_MIXED, C_FAIL };

static const char *const cell_fill[] = {
	[C_NONE] = "#e9ebef", [C_OK] = "#9fd8b5", [C_DEG] = "#f4a21a",
	[C_MIXED] = "#f07167", [C_FAIL] = "#c1121f",
};

struct hhost {
	char *name, *leaf;
	char *node;		/* its name in the report, NULL: not a node */
};

struct hsus {
	char *rule, *comp, *node, *host;
};

struct heat {
	struct html *h;
	struct hhost *host;
	int n;
	struct hsus sus[HEAT_SUSPECTS + 1];	/* by rank, [0] unused */
	int nsus;
};

static void heat_release(struct heat *m)
{
	int i;

	for (i = 0; i < m->n; i++) {
		free(m->host[i].name);
		free(m->host[i].leaf);
		free(m->host[i].node);
	}
	free(m->host);
	for (i = 1; i <= m->nsus; i++) {
		free(m->sus[i].rule);
		free(m->sus[i].comp);
		free(m->sus[i].node);
		free(m->sus[i].host);
	}
	db_run(m->h->db, "DROP TABLE IF EXISTS temp.html_ph");
}

static char *dup_or_null(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? NULL :
	       xstrdup(db_col(s, i));
}

/* the hosts in leaf order, numbered in temp table html_ph */
static int load_hosts(struct heat *m)
{
	sqlite3 *db = m->h->db;
	sqlite3_stmt *s;
	int a = 0;

	if (db_run(db, "DROP TABLE IF EXISTS temp.html_ph; CREATE TEMP TABLE "
		   "html_ph (name TEXT PRIMARY KEY, i INTEGER)") < 0)
		return -1;
	s = db_query(db, "SELECT h.name, coalesce((SELECT desc FROM "
		     "fabric_nodes WHERE bundle_id = (SELECT scan_bundle FROM "
		     "pair_runs) AND guid = h.leaf), (SELECT node_desc FROM "
		     "mad_portinfo WHERE node_guid = h.leaf AND node_desc <> '' "
		     "LIMIT 1), h.leaf), (SELECT b.hostname FROM bundles b JOIN "
		     "report_bundles r ON r.bundle_id = b.id WHERE lower("
		     "b.hostname) = lower(h.name) ORDER BY b.hostname LIMIT 1) "
		     "FROM pair_hosts h WHERE h.name IN (SELECT a FROM "
		     "pair_cells UNION SELECT b FROM pair_cells) ORDER BY h.leaf "
		     "IS NULL, 2, h.name", NULL);
	while (sqlite3_step(s) == SQLITE_ROW) {
		if (m->n == a) {
			a = a ? 2 * a : 64;
			m->host = xrealloc(m->host, (size_t)a * sizeof(*m->host));
		}
		m->host[m->n].name = xstrdup(db_col(s, 0));
		m->host[m->n].leaf = dup_or_null(s, 1);
		m->host[m->n].node = dup_or_null(s, 2);
		db_exec(db, "INSERT OR IGNORE INTO html_ph VALUES (?, ?)", "si",
			m->host[m->n].name, (int64_t)m->n);
		m->n++;
	}
	db_done(s);
	return 0;
}

/* the suspects, with the report node and rule their finding is on */
static void load_suspects(struct heat *m)
{
	sqlite3_stmt *s = db_query(m->h->db, "SELECT s.rank, s.rule, "
		"s.component, (SELECT b.hostname FROM findings f JOIN bundles b "
		"ON b.id = f.bundle_id JOIN report_bundles r ON r.bundle_id = "
		"b.id WHERE f.id = s.finding_id), s.host FROM pair_suspects s "
		"WHERE s.rank BETWEEN 1 AND ? ORDER BY s.rank", "i",
		(int64_t)HEAT_SUSPECTS);

	while (sqlite3_step(s) == SQLITE_ROW) {
		int r = sqlite3_column_int(s, 0);

		if (r != m->nsus + 1)
			break;
		m->sus[r].rule = xstrdup(db_col(s, 1));
		m->sus[r].comp = xstrdup(db_col(s, 2));
		m->sus[r].node = dup_or_null(s, 3);
		m->sus[r].host = dup_or_null(s, 4);
		m->nsus = r;
	}
	db_done(s);
}

static int state_of(int64_t ok, int64_t fail, int64_t deg)
{
	if (fail)
		return ok || deg ? C_MIXED : C_FAIL;
	if (deg)
		return ok ? C_MIXED : C_DEG;
	return ok ? C_OK : C_NONE;
}

/* a link to suspect r's finding, or to the host's node panel; 0 when
 * there is nothing to link to */
static int open_link(struct heat *m, int r, int host)
{
	FILE *out = m->h->out;

	if (r > 0 && r <= m->nsus && m->sus[r].node) {
		html_link(out, m->sus[r].node, m->sus[r].rule);
		return 1;
	}
	if (host >= 0 && m->host[host].node) {
		html_link(out, m->host[host].node, "");
		return 1;
	}
	return 0;
}

/* labels of host i along both axes: each host when the cells are big
 * enough, else each leaf once */
static void labels(struct heat *m, int x0, int y0, int cs)
{
	FILE *out = m->h->out;
	int i, j;

	for (i = 0; i < m->n; i = j) {
		const char *leaf = m->host[i].leaf ? m->host[i].leaf : "";
		double mid;

		for (j = i + 1; j < m->n && !strcmp(leaf, m->host[j].leaf ?
						   m->host[j].leaf : ""); j++)
			;
		if (i)
			fprintf(out, "<path d=\"M%d %dv%dM%d %dh%d\" stroke=\"#1d2330\" "
				"stroke-width=\"1\"/>", x0 + i * cs, y0 - 4,
				m->n * cs + 8, x0 - 4, y0 + i * cs, m->n * cs + 8);
		if (cs >= 8 || !*leaf || (j - i) * cs < 12)
			continue;
		mid = (i + j) * cs / 2.0;
		fputs("<g><title>", out);
		html_esc(out, leaf);
		fprintf(out, ": %d host(s)</title>", j - i);
		html_text(out, x0 - 6, y0 + mid + 4, "end", "#1d2330", leaf);
		fprintf(out, "<g transform=\"rotate(-90 %.1f %d)\">", x0 + mid + 4,
			y0 - 6);
		html_text(out, x0 + mid + 4, y0 - 6, "start", "#1d2330", leaf);
		fputs("</g></g>", out);
	}
	if (cs < 8)
		return;
	for (i = 0; i < m->n; i++) {
		int a = open_link(m, 0, i);
		double c = i * cs + cs / 2.0 + 4;

		fputs("<g><title>", out);
		html_esc(out, m->host[i].name);
		if (m->host[i].leaf) {
			fputs(" on ", out);
			html_esc(out, m->host[i].leaf);
		}
		fputs("</title>", out);
		html_text(out, x0 - 4, y0 + c - 1, "end", "#1d2330",
			  m->host[i].name);
		fprintf(out, "<g transform=\"rotate(-90 %.1f %d)\">", x0 + c - 1,
			y0 - 4);
		html_text(out, x0 + c - 1, y0 - 4, "start", "#1d2330",
			  m->host[i].name);
		fputs(a ? "</g></g></a>" : "</g></g>", out);
	}
}

/* a cell per pair of hosts */
static void fine(struct heat *m)
{
	FILE *out = m->h->out;
	size_t n = (size_t)m->n;
	unsigned char *st = xcalloc(n * n, 1);
	short *sus = xcalloc(n * n, sizeof(*sus));
	int cs = HEAT_SIDE / m->n, lab, x0, y0, i, j, r;
	sqlite3_stmt *s;

	if (cs > 18)
		cs = 18;
	if (cs < 2)
		cs = 2;
	lab = cs >= 8 ? 120 : 150;
	x0 = lab;
	y0 = lab;
	s = db_query(m->h->db, "SELECT x.i, y.i, c.ok, c.fail, c.degraded, "
		     "coalesce(c.suspect, 0) FROM pair_cells c JOIN html_ph x ON "
		     "x.name = c.a JOIN html_ph y ON y.name = c.b", NULL);
	while (sqlite3_step(s) == SQLITE_ROW) {
		int a = sqlite3_column_int(s, 0), b = sqlite3_column_int(s, 1);
		int k = sqlite3_column_int(s, 5);

		if (a < 0 || b < 0 || a >= m->n || b >= m->n)
			continue;
		st[a * n + b] = st[b * n + a] = (unsigned char)state_of(
			sqlite3_column_int64(s, 2), sqlite3_column_int64(s, 3),
			sqlite3_column_int64(s, 4));
		sus[a * n + b] = sus[b * n + a] = (short)(k > 0 &&
							  k <= m->nsus ? k : 0);
	}
	db_done(s);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" role=\"img\" id=\"heatmap\">", x0 + m->n * cs + 10,
		y0 + m->n * cs + 10);
	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"fill=\"%s\"/>", x0, y0, m->n * cs, m->n * cs, cell_fill[C_NONE]);
	/* passing cells: runs along each row */
	fprintf(out, "<g fill=\"%s\">", cell_fill[C_OK]);
	for (i = 0; i < m->n; i++)
		for (j = 0; j < m->n; j++) {
			int k = j;

			if (st[i * n + j] != C_OK)
				continue;
			while (k + 1 < m->n && st[i * n + k + 1] == C_OK)
				k++;
			fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" "
				"height=\"%d\"/>", x0 + j * cs, y0 + i * cs,
				(k - j + 1) * cs, cs);
			j = k;
		}
	fputs("</g>", out);
	fprintf(out, "<g fill=\"#c8cdd6\"><rect x=\"%d\" y=\"%d\" width=\"%d\" "
		"height=\"%d\"/>", x0, y0, cs, cs);
	for (i = 1; i < m->n; i++)
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>",
			x0 + i * cs, y0 + i * cs, cs, cs);
	fputs("</g>", out);
	/* failing cells, grouped by the suspect that explains them: one
	 * link each; those no suspect explains link to their row's node */
	for (r = 0; r <= m->nsus; r++) {
		int open = r > 0 ? open_link(m, r, -1) : 0;

		if (r > 0 && !open)
			fputs("<g>", out);
		for (i = 0; i < m->n; i++)
			for (j = 0; j < m->n; j++) {
				unsigned char c = st[i * n + j];
				int a = 0;

				if (c < C_DEG || sus[i * n + j] != r)
					continue;
				if (!r)
					a = open_link(m, 0, i);
				fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" "
					"height=\"%d\" fill=\"%s\"%s><title>",
					x0 + j * cs, y0 + i * cs, cs, cs,
					cell_fill[c], r && cs >= 6 ?
					" stroke=\"#1d2330\" stroke-width=\"0.6\"" : "");
				html_esc(out, m->host[i].name);
				fputs(" \xc3\x97 ", out);
				html_esc(out, m->host[j].name);
				fputs(c == C_FAIL ? ": failed" : c == C_DEG ?
				      ": degraded" : ": some results failed", out);
				if (r) {
					fputs(" -- ", out);
					html_esc(out, m->sus[r].rule);
					fputc(' ', out);
					html_esc(out, m->sus[r].comp);
				}
				fputs(a ? "</title></rect></a>" : "</title></rect>",
				      out);
			}
		if (r > 0)
			fputs(open ? "</a>" : "</g>", out);
	}
	/* a suspect host's row and column: a cross */
	for (r = 1; r <= m->nsus; r++) {
		int open;

		if (!m->sus[r].host)
			continue;
		for (i = 0; i < m->n && strcmp(m->host[i].name, m->sus[r].host);
		     i++)
			;
		if (i == m->n)
			continue;
		open = open_link(m, r, -1);
		fprintf(out, "<path class=\"suspect\" d=\"M%d %dh%dv%dh%dz"
			"M%d %dh%dv%dh%dz\" fill=\"none\" stroke=\"#1d2330\" "
			"stroke-width=\"2\"><title>", x0, y0 + i * cs, m->n * cs,
			cs, -m->n * cs, x0 + i * cs, y0, cs, m->n * cs, -cs);
		html_esc(out, m->sus[r].rule);
		fputc(' ', out);
		html_esc(out, m->sus[r].comp);
		fputs(open ? "</title></path></a>" : "</title></path>", out);
	}
	labels(m, x0, y0, cs);
	fputs("</svg>", out);
	free(st);
	free(sus);
}

/* a cell per pair of leaves (or blocks of hosts), by share failing */
static void coarse(struct heat *m)
{
	FILE *out = m->h->out;
	int *grp = xcalloc((size_t)m->n + 1, sizeof(*grp));
	int *first = xcalloc((size_t)m->n + 1, sizeof(*first));
	int g = 0, i, j, cs, x0 = 150, y0 = 150, leaves = m->host[0].leaf != NULL;
	int64_t *cnt;
	int *sus;
	sqlite3_stmt *s;

	for (i = 0; i < m->n; i++) {
		if (i && (leaves ? strcmp(m->host[i].leaf ? m->host[i].leaf : "",
					  m->host[i - 1].leaf ?
					  m->host[i - 1].leaf : "") != 0 :
			  i % HEAT_BLOCK == 0))
			first[++g] = i;
		grp[i] = g;
	}
	g++;
	if (g > 256) {
		/* leaves too many (or unknown per host): blocks */
		g = 0;
		for (i = 0; i < m->n; i++) {
			if (i && i % HEAT_BLOCK == 0)
				first[++g] = i;
			grp[i] = g;
		}
		g++;
		leaves = 0;
	}
	first[g] = m->n;
	cnt = xcalloc((size_t)g * g * 3, sizeof(*cnt));
	sus = xcalloc((size_t)g * g, sizeof(*sus));
	s = db_query(m->h->db, "SELECT x.i, y.i, c.ok, c.fail + c.degraded, "
		     "coalesce(c.suspect, 0) FROM pair_cells c JOIN html_ph x ON "
		     "x.name = c.a JOIN html_ph y ON y.name = c.b", NULL);
	while (sqlite3_step(s) == SQLITE_ROW) {
		int a = sqlite3_column_int(s, 0), b = sqlite3_column_int(s, 1);
		int k = sqlite3_column_int(s, 4), ga, gb;

		if (a < 0 || b < 0 || a >= m->n || b >= m->n)
			continue;
		ga = grp[a];
		gb = grp[b];
		cnt[(ga * g + gb) * 3] += sqlite3_column_int64(s, 2);
		cnt[(ga * g + gb) * 3 + 1] += sqlite3_column_int64(s, 3);
		if (ga != gb) {
			cnt[(gb * g + ga) * 3] += sqlite3_column_int64(s, 2);
			cnt[(gb * g + ga) * 3 + 1] += sqlite3_column_int64(s, 3);
		}
		if (k > 0 && k <= m->nsus && !sus[ga * g + gb])
			sus[ga * g + gb] = sus[gb * g + ga] = k;
	}
	db_done(s);
	cs = HEAT_SIDE / g;
	if (cs > 40)
		cs = 40;
	if (cs < 3)
		cs = 3;
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" role=\"img\" id=\"heatmap\">", x0 + g * cs + 10,
		y0 + g * cs + 10);
	for (i = 0; i < g; i++)
		for (j = 0; j < g; j++) {
			int64_t ok = cnt[(i * g + j) * 3];
			int64_t bad = cnt[(i * g + j) * 3 + 1];
			double f = ok + bad ? (double)bad / (double)(ok + bad) : 0;
			const char *fill = !(ok + bad) ? cell_fill[C_NONE] :
					   f < 0.01 ? cell_fill[C_OK] :
					   f >= 0.25 ? cell_fill[C_FAIL] :
					   f >= 0.05 ? cell_fill[C_MIXED] :
					   cell_fill[C_DEG];
			int a = bad ? open_link(m, sus[i * g + j], -1) : 0;

			fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height="
				"\"%d\" fill=\"%s\" stroke=\"#fff\" stroke-width="
				"\"0.5\"><title>", x0 + j * cs, y0 + i * cs, cs,
				cs, fill);
			html_esc(out, leaves && m->host[first[i]].leaf ?
				 m->host[first[i]].leaf : m->host[first[i]].name);
			fputs(" \xc3\x97 ", out);
			html_esc(out, leaves && m->host[first[j]].leaf ?
				 m->host[first[j]].leaf : m->host[first[j]].name);
			fprintf(out, ": %lld of %lld results failing",
				(long long)bad, (long long)(ok + bad));
			fputs(a ? "</title></rect></a>" : "</title></rect>", out);
		}
	for (i = 0; i < g; i++) {
		const char *l = leaves && m->host[first[i]].leaf ?
				m->host[first[i]].leaf : m->host[first[i]].name;
		double c = i * cs + cs / 2.0 + 4;

		if (cs < 10)
			continue;
		html_text(out, x0 - 4, y0 + c - 1, "end", "#1d2330", l);
		fprintf(out, "<g transform=\"rotate(-90 %.1f %d)\">", x0 + c - 1,
			y0 - 4);
		html_text(out, x0 + c - 1, y0 - 4, "start", "#1d2330", l);
		fputs("</g>", out);
	}
	fputs("</svg>", out);
	free(cnt);
	free(sus);
	free(grp);
	free(first);
}

static void suspects_list(struct heat *m)
{
	FILE *out = m->h->out;
	sqlite3_stmt *s;
	int r = 0;

	s = db_query(m->h->db, "SELECT rank, rule, component, failing, "
		     "passing, weak FROM pair_suspects ORDER BY rank LIMIT ?",
		     "i", (int64_t)HEAT_SUSPECTS);
	while (sqlite3_step(s) == SQLITE_ROW) {
		int k = sqlite3_column_int(s, 0), a;

		fputs(r++ ? "" : "<ol class=\"suspects\">", out);
		fputs("<li>", out);
		a = k > 0 && k <= m->nsus ? open_link(m, k, -1) : 0;
		html_esc(out, db_col(s, 1));
		fputs(a ? "</a> " : " ", out);
		html_esc(out, db_col(s, 2));
		fprintf(out, " <span class=\"muted\">(%d failing, %d passing "
			"pairs cross it%s)</span></li>", sqlite3_column_int(s, 3),
			sqlite3_column_int(s, 4), sqlite3_column_int(s, 5) ?
			"; weak evidence" : "");
	}
	db_done(s);
	fputs(r ? "</ol>" : "<p class=\"muted\">No suspect: no failing pair, or "
	      "none the method could explain.</p>", out);
}

int pic_pairs(struct html *h)
{
	struct heat m = { .h = h };
	FILE *out = h->out;
	sqlite3_stmt *s;
	int64_t nfail;

	if (!html_has_table(h->db, "pair_runs") ||
	    !db_int(h->db, "SELECT count(*) FROM pair_runs", NULL))
		return 0;
	if (load_hosts(&m) < 0 || m.n < 2) {
		heat_release(&m);
		return 0;
	}
	load_suspects(&m);
	nfail = 2 * db_int(h->db, "SELECT count(*) FROM pair_cells WHERE fail "
			   "+ degraded > 0", NULL);
	fputs("<figure id=\"pic-pairs\"><h2>Pairs: which hosts can talk</h2>"
	      "<figcaption>", out);
	s = db_query(h->db, "SELECT results, failing, degraded, method, "
		     "topology FROM pair_runs LIMIT 1", NULL);
	if (sqlite3_step(s) == SQLITE_ROW)
		fprintf(out, "The last <code>rdma-analyze pairs</code> run: %lld "
			"results, %lld failing (%lld degraded), %d hosts; method "
			"%s, topology %s. ", (long long)sqlite3_column_int64(s, 0),
			(long long)sqlite3_column_int64(s, 1),
			(long long)sqlite3_column_int64(s, 2), m.n,
			strcmp(db_col(s, 3), "tomography") ? "best" :
			"tomography", !strcmp(db_col(s, 4), "fabric") ?
			"fabric scan" : !strcmp(db_col(s, 4), "mad") ? "mad" :
			"none");
	db_done(s);
	fprintf(out, "%s <span class=\"key c-fail\">failed</span> <span "
		"class=\"key c-mixed\">some failed</span> <span class=\"key "
		"c-deg\">degraded</span> <span class=\"key c-ok\">ok</span> "
		"<span class=\"key c-none\">untested</span>%s</figcaption>\n",
		m.n <= HEAT_FINE && nfail <= HEAT_FAILS ? "Hosts &times; hosts "
		"ordered by leaf switch (a bad host or host cable is a cross, a "
		"bad inter-switch link a block); a suspect's cells are outlined "
		"and link to its finding." : "Leaf &times; leaf (too many hosts "
		"for a cell each), shaded by the share of failing results.",
		m.n <= HEAT_FINE && nfail <= HEAT_FAILS ? "" : " (failed: over "
		"25% of the results; some failed: "
		"5-25%; degraded: 1-5%; ok: under 1%, the noise of a healthy "
		"fabric)");
	if (m.n <= HEAT_FINE && nfail <= HEAT_FAILS)
		fine(&m);
	else
		coarse(&m);
	suspects_list(&m);
	fputs("</figure>\n", out);
	heat_release(&m);
	return 1;
}
