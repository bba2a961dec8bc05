/* report-html: one self-contained page for people -- the verdict, the fleet
 * grid (nodes x layers), the findings with filters, search, sorting and
 * deep links, each node's command-equivalent views, and pictures drawn here
 * as inline SVG.
 *
 * Everything is inside the file: it opens offline on an air-gapped laptop,
 * and its Content-Security-Policy forbids every request (default-src
 * 'none').  The script and the style sheet (report/report.js and
 * report.css, embedded by the Makefile) are allowed by their SHA-256
 * hashes rather than by 'unsafe-inline': markup that slipped past escaping
 * could neither run script nor restyle the page.  No element carries a
 * style attribute (that would need 'unsafe-inline'); SVG uses presentation
 * attributes, which CSP does not govern.
 *
 * Escaping, by context:
 *   HTML text and quoted attributes  html_esc()       & < > " ' as entities
 *   URL fragments (#node/rule)       html_frag()  percent-encoded, then html_esc()
 *   SVG text and attributes          html_esc()       (inline SVG is parsed as HTML)
 *   JSON inside <script>             json_out()  < > & as \u003c \u003e \u0026,
 *                                    so "</script" and "<!--" cannot appear
 * The script reads that JSON and only ever sets textContent and attributes,
 * never markup.
 *
 * Scale: the data are deduplicated (remediations and skip reasons are
 * tables, findings point into them) and the views of a node are embedded
 * while they fit VIEWS_BUDGET and VIEWS_NODES, worst first: a 2,000-node report
 * stays well under 20 MiB; the script draws at most a page of findings at
 * a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "breader.h"
#include "import.h"
#include "buf.h"
#include "jsonp.h"
#include "db.h"
#include "json.h"
#include "log.h"
#include "report.h"
#include "report-html.h"
#include "rules.h"
#include "sha256.h"
#include "util.h"
#include "view.h"

/* command-equivalent views embedded in one page: bytes and nodes (each
 * node costs reading its bundle again, ~10 ms); past either a node panel
 * says which `rdma-analyze show` command prints them */
#define VIEWS_BUDGET (6u << 20)
#define VIEWS_NODES 200
/* one view of one node; a runaway view is cut there (and says so) */
#define VIEW_MAX (64u << 10)
/* PCIe picture: every HCA up to this many, else the degraded ones */
#define PCIE_ROWS 48

/* ---------------------------------------------------------- escaping */

/* HTML text or a double-quoted attribute value (also inside SVG).  C0
 * controls other than tab and newline become U+FFFD: they are not
 * characters a page can show; so does each byte of invalid UTF-8 (the
 * page is declared UTF-8, and a bundle's strings may be anything). */
void html_esc(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) {
				fputs("&#xfffd;", out);
			} else if (c < 0x80) {
				fputc(c, out);
			} else {
				size_t l = json_utf8_len((const unsigned char *)s,
							 strnlen(s, 4));

				if (l)
					fwrite(s, 1, l, out);
				else
					fputs("&#xfffd;", out);
				s += l ? l - 1 : 0;
			}
		}
	}
}

/* a URL fragment part (node or rule of #node/rule): everything but the
 * unreserved characters percent-encoded, as encodeURIComponent() does, so
 * the script's decodeURIComponent() gives the name back */
void html_frag(FILE *out, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("-_.!~*()", c))
			fputc(c, out);
		else
			fprintf(out, "%%%c%c", hex[c >> 4], hex[c & 15]);
	}
}

/* a JSON text inside <script type="application/json">: '<', '>' and '&'
 * only occur inside strings, where \uXXXX means the same character */
static void json_out(FILE *out, const struct buf *b)
{
	const char *p = b->buf, *end = b->buf + b->len;

	while (p < end) {
		size_t n = strcspn(p, "<>&");

		if (p + n > end)
			n = (size_t)(end - p);
		fwrite(p, 1, n, out);
		p += n;
		if (p >= end)
			break;
		fputs(*p == '<' ? "\\u003c" : *p == '>' ? "\\u003e" : "\\u0026",
		      out);
		p++;
	}
}

static void base64(const unsigned char *in, size_t n, char *out)
{
	static const char t[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		*out++ = t[in[i] >> 2];
		*out++ = t[(in[i] & 3) << 4 | in[i + 1] >> 4];
		*out++ = t[(in[i + 1] & 15) << 2 | in[i + 2] >> 6];
		*out++ = t[in[i + 2] & 63];
	}
	if (i < n) {
		*out++ = t[in[i] >> 2];
		if (i + 1 < n) {
			*out++ = t[(in[i] & 3) << 4 | in[i + 1] >> 4];
			*out++ = t[(in[i + 1] & 15) << 2];
		} else {
			*out++ = t[(in[i] & 3) << 4];
			*out++ = '=';
		}
		*out++ = '=';
	}
	*out = '\0';
}

/* 'sha256-...' of an inline element's text, for the CSP */
static void csp_hash(const char *text, char out[64])
{
	unsigned char d[32];

	sha256(text, strlen(text), d);
	base64(d, sizeof(d), out);
}

/* ---------------------------------------------------------- data */

/* the JSON the script reads: layers, rules, nodes, findings, skipped */
static void data_json(struct html *h, struct buf *out)
{
	const struct rule *const *r;
	sqlite3_stmt *s, *e, *sk;
	struct json j;
	int64_t ev_fid = -1, nsk[LAYER_COUNT];
	int li, have_ev;

	/* remediations and skip reasons repeat on every node: tables */
	db_run(h->db, "DROP TABLE IF EXISTS temp.html_rem; DROP TABLE IF EXISTS "
	       "temp.html_reason; DROP TABLE IF EXISTS temp.html_node;"
	       "CREATE TEMP TABLE html_rem (id INTEGER PRIMARY KEY, text TEXT "
	       "UNIQUE); CREATE TEMP TABLE html_reason (id INTEGER PRIMARY KEY, "
	       "text TEXT UNIQUE); CREATE TEMP TABLE html_node (id INTEGER "
	       "PRIMARY KEY, bundle_id INTEGER UNIQUE);"
	       "INSERT OR IGNORE INTO html_rem (text) SELECT remediation FROM "
	       "findings WHERE bundle_id IN (SELECT bundle_id FROM report_bundles)"
	       " AND remediation <> '' ORDER BY id;"
	       "INSERT OR IGNORE INTO html_reason (text) SELECT reason FROM "
	       "skipped WHERE bundle_id IN (SELECT bundle_id FROM report_bundles) "
	       "ORDER BY reason;"
	       "INSERT INTO html_node (bundle_id) SELECT b.id FROM bundles b JOIN "
	       "report_bundles r ON r.bundle_id = b.id ORDER BY b.hostname, b.id");

	json_init(&j, out, 0);
	json_obj_open(&j, NULL);
	json_arr_open(&j, "layers");
	for (li = 0; li < LAYER_COUNT; li++)
		json_str(&j, NULL, layer_name(li));
	json_arr_close(&j);
	/* how many checks each layer has: a layer whose every check was
	 * skipped on a node is "not checked" there, not "fine" */
	json_obj_open(&j, "lrules");
	for (li = 0; li < LAYER_COUNT; li++) {
		int n = 0;

		for (r = rules_all(); *r; r++)
			n += (int)(*r)->layer == li;
		json_int(&j, layer_name(li), n);
	}
	json_obj_close(&j);
	/* rules: [title, layer, has findings here] */
	json_obj_open(&j, "rules");
	for (r = rules_all(); *r; r++) {
		json_arr_open(&j, (*r)->id);
		json_str(&j, NULL, (*r)->title);
		json_str(&j, NULL, layer_name((*r)->layer));
		json_int(&j, NULL, db_int(h->db, "SELECT EXISTS (SELECT 1 FROM "
					  "findings WHERE rule = ? AND bundle_id "
					  "IN (SELECT bundle_id FROM report_bundles))",
					  "s", (*r)->id));
		json_arr_close(&j);
	}
	json_obj_close(&j);
	json_arr_open(&j, "rem");
	s = db_query(h->db, "SELECT text FROM html_rem ORDER BY id", NULL);
	while (sqlite3_step(s) == SQLITE_ROW)
		json_str(&j, NULL, db_col(s, 0));
	db_done(s);
	json_arr_close(&j);
	json_arr_open(&j, "reasons");
	s = db_query(h->db, "SELECT text FROM html_reason ORDER BY id", NULL);
	while (sqlite3_step(s) == SQLITE_ROW)
		json_str(&j, NULL, db_col(s, 0));
	db_done(s);
	json_arr_close(&j);

	/* nodes: [name, bundle file, collected_at, worst (-1 none), skipped
	 * checks per layer] */
	json_arr_open(&j, "nodes");
	s = db_query(h->db, "SELECT n.bundle_id, b.hostname, b.file, "
		     "b.collected_at, coalesce((SELECT max(severity) FROM findings "
		     "WHERE bundle_id = b.id), -1) FROM html_node n JOIN bundles b "
		     "ON b.id = n.bundle_id ORDER BY n.id", NULL);
	while (sqlite3_step(s) == SQLITE_ROW) {
		int64_t bid = sqlite3_column_int64(s, 0);

		json_arr_open(&j, NULL);
		json_str(&j, NULL, db_col(s, 1));
		json_str(&j, NULL, db_col(s, 2));
		json_str(&j, NULL, db_col(s, 3));
		json_int(&j, NULL, sqlite3_column_int(s, 4));
		sk = db_query(h->db, "SELECT rule FROM skipped WHERE bundle_id = ?",
			      "i", bid);
		memset(nsk, 0, sizeof(nsk));
		while (sqlite3_step(sk) == SQLITE_ROW) {
			const struct rule *r1 = rule_find(db_col(sk, 0));

			if (r1)
				nsk[r1->layer]++;
		}
		db_done(sk);
		json_arr_open(&j, NULL);
		for (li = 0; li < LAYER_COUNT; li++)
			json_int(&j, NULL, nsk[li]);
		json_arr_close(&j);
		json_arr_close(&j);
		h->nodes++;
	}
	db_done(s);
	json_arr_close(&j);

	/* findings, each with its evidence: two queries walked side by side
	 * in finding id order */
	json_arr_open(&j, "f");
	s = db_query(h->db, "SELECT f.id, n.id - 1, f.severity, f.layer, f.rule, "
		     "f.component, f.summary, coalesce((SELECT id - 1 FROM html_rem "
		     "WHERE text = f.remediation), -1) FROM findings f JOIN "
		     "html_node n ON n.bundle_id = f.bundle_id ORDER BY f.id", NULL);
	e = db_query(h->db, "SELECT e.finding_id, e.path, e.value FROM "
		     "finding_evidence e JOIN findings f ON f.id = e.finding_id "
		     "WHERE f.bundle_id IN (SELECT bundle_id FROM report_bundles) "
		     "ORDER BY e.finding_id, e.rowid", NULL);
	have_ev = sqlite3_step(e) == SQLITE_ROW;
	if (have_ev)
		ev_fid = sqlite3_column_int64(e, 0);
	while (sqlite3_step(s) == SQLITE_ROW) {
		int64_t fid = sqlite3_column_int64(s, 0);
		int layer = layer_find(db_col(s, 3));

		json_arr_open(&j, NULL);
		json_int(&j, NULL, sqlite3_column_int(s, 1));
		json_int(&j, NULL, sqlite3_column_int(s, 2));
		json_int(&j, NULL, layer < 0 ? 0 : layer);
		json_str(&j, NULL, db_col(s, 4));
		json_str(&j, NULL, db_col(s, 5));
		json_str(&j, NULL, db_col(s, 6));
		json_arr_open(&j, NULL);
		while (have_ev && ev_fid < fid) {
			have_ev = sqlite3_step(e) == SQLITE_ROW;
			ev_fid = have_ev ? sqlite3_column_int64(e, 0) : -1;
		}
		while (have_ev && ev_fid == fid) {
			json_arr_open(&j, NULL);
			json_str(&j, NULL, db_col(e, 1));
			json_str(&j, NULL, db_col(e, 2));
			json_arr_close(&j);
			have_ev = sqlite3_step(e) == SQLITE_ROW;
			ev_fid = have_ev ? sqlite3_column_int64(e, 0) : -1;
		}
		json_arr_close(&j);
		json_int(&j, NULL, sqlite3_column_int(s, 7));
		json_arr_close(&j);
	}
	db_done(e);
	db_done(s);
	json_arr_close(&j);

	/* skipped: [node, rule, reason] */
	json_arr_open(&j, "sk");
	s = db_query(h->db, "SELECT n.id - 1, k.rule, r.id - 1 FROM skipped k "
		     "JOIN html_node n ON n.bundle_id = k.bundle_id JOIN html_reason "
		     "r ON r.text = k.reason ORDER BY n.id, k.rule", NULL);
	while (sqlite3_step(s) == SQLITE_ROW) {
		json_arr_open(&j, NULL);
		json_int(&j, NULL, sqlite3_column_int(s, 0));
		json_str(&j, NULL, db_col(s, 1));
		json_int(&j, NULL, sqlite3_column_int(s, 2));
		json_arr_close(&j);
	}
	db_done(s);
	json_arr_close(&j);
	json_obj_close(&j);
	json_end(&j);
}

/* ---------------------------------------------------------- views */

/* one view into memory; NULL when it printed nothing or failed */
static char *view_text(const struct bundle_r *b, const char *name, int argc,
		       char **argv, size_t *len)
{
	const struct view *v = view_find(name);
	char *text = NULL;
	size_t n = 0;
	FILE *m;
	int rc;

	if (!v || !(m = open_memstream(&text, &n)))
		return NULL;
	rc = v->show(b, argc, argv, m);
	if (fclose(m) || rc < 0 || !n) {
		free(text);
		return NULL;
	}
	if (n > VIEW_MAX) {
		static const char cut[] = "\n[... cut: view larger than 64 KiB; "
					  "rdma-analyze show prints it whole]\n";

		memcpy(text + VIEW_MAX - sizeof(cut), cut, sizeof(cut));
		n = VIEW_MAX - 1;
	}
	*len = n;
	return text;
}

/* lspci -vvv, only the lines that matter for links: each function's
 * first line, LnkCap, LnkSta and the ACS control line */
static void lspci_links(struct buf *out, const char *text)
{
	const char *p = text, *nl;

	for (; *p; p = nl + 1) {
		size_t n;

		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		n = (size_t)(nl - p);
		if ((n && p[0] != '\t' && p[0] != ' ') ||
		    memmem(p, n, "LnkCap:", 7) || memmem(p, n, "LnkSta:", 7) ||
		    memmem(p, n, "ACSCtl:", 7)) {
			buf_add(out, p, n);
			buf_addch(out, '\n');
		}
		if (!*nl)
			break;
	}
}

/* the counters an engineer looks for first: errors, drops, discards,
 * pause and congestion; only the non-zero ones */
static int counter_interesting(const char *name, size_t n)
{
	static const char *const words[] = {
		"err", "drop", "discard", "pause", "cnp", "ecn", "out_of_buffer",
		"timeout", "storm", "crc", "symbol", "retr", "bad", NULL
	};
	int i;

	for (i = 0; words[i]; i++)
		if (memmem(name, n, words[i], strlen(words[i])))
			return 1;
	return 0;
}

static void ethtool_filtered(struct buf *out, const char *iface,
			     const char *text)
{
	const char *p = text, *nl;
	size_t before = out->len;

	buf_addf(out, "# ethtool -S %s (non-zero error, drop, pause and "
		 "congestion counters)\n", iface);
	for (; *p; p = nl + 1) {
		const char *colon, *v;
		size_t n;

		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		n = (size_t)(nl - p);
		colon = memchr(p, ':', n);
		if (colon) {
			for (v = colon + 1; v < nl && *v == ' '; v++)
				;
			if (!(nl - v == 1 && *v == '0') && v < nl &&
			    counter_interesting(p, (size_t)(colon - p))) {
				buf_add(out, p, n);
				buf_addch(out, '\n');
			}
		}
		if (!*nl)
			break;
	}
	if (out->len - before < 80)
		buf_addstr(out, "     (all zero)\n");
}

static void view_member(struct json *j, const char *title, const char *text,
			size_t len)
{
	json_arr_open(j, NULL);
	json_str(j, NULL, title);
	json_strn(j, NULL, text, len);
	json_arr_close(j);
}

/* a file, or a folder with something in it */
static int has(const struct bundle_r *b, const char *path)
{
	const char **names = NULL;
	size_t n;

	if (br_get(b, path))
		return 1;
	n = br_list(b, path, &names);
	free(names);
	return n > 0;
}

/* the views of one bundle as [[title, text], ...] */
static void node_views(struct html *h, struct json *j, int64_t bid,
		       const struct bundle_r *b)
{
	static const struct {
		const char *title, *view, *probe;
		int argc;
		char *argv[2];
	} plain[] = {
		{ "ibstat", "ibstat", "sys/class/infiniband", 0, { NULL, NULL } },
		{ "ibv_devinfo", "ibv_devinfo", "rdma-collect/verbs/devices.json",
		  0, { NULL, NULL } },
		{ "ibdev2netdev", "ibdev2netdev", "sys/class/infiniband", 0,
		  { NULL, NULL } },
	};
	struct buf tmp = BUF_INIT;
	sqlite3_stmt *s;
	char *text;
	size_t i, len;

	json_arr_open(j, NULL);
	for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		/* probe first: a view without its evidence prints an error */
		if (!has(b, plain[i].probe))
			continue;
		text = view_text(b, plain[i].view, plain[i].argc,
				 (char **)plain[i].argv, &len);
		if (text)
			view_member(j, plain[i].title, text, len);
		free(text);
	}
	if (has(b, "sys/bus/pci/devices") &&
	    (text = view_text(b, "lspci", 0, NULL, &len))) {
		lspci_links(&tmp, text);
		view_member(j, "lspci -vvv (link lines)", tmp.buf, tmp.len);
		buf_reset(&tmp);
		free(text);
	}
	s = db_query(h->db, "SELECT name FROM netdevs WHERE bundle_id = ? AND "
		     "ibdev IS NOT NULL ORDER BY name", "i", bid);
	while (sqlite3_step(s) == SQLITE_ROW) {
		char path[512], *argv[2] = { "-S", NULL };
		struct jv *doc;
		int ok;

		argv[1] = (char *)db_col(s, 0);
		if (strchr(argv[1], '/'))
			continue;
		snprintf(path, sizeof(path), "rdma-collect/ethtool/%s.json", argv[1]);
		doc = br_json(b, path);
		ok = doc && jstr(doc, "status") && !strcmp(jstr(doc, "status"), "ok");
		jfree(doc);
		if (!ok || !(text = view_text(b, "ethtool", 2, argv, &len)))
			continue;
		ethtool_filtered(&tmp, argv[1], text);
		free(text);
	}
	db_done(s);
	if (tmp.len)
		view_member(j, "ethtool -S (filtered)", tmp.buf, tmp.len);
	buf_release(&tmp);
	json_arr_close(j);
}

/* every node's views, in node order; worst nodes claim the budget first.
 * A node without views gets a string saying why. */
static void views_json(struct html *h, struct buf *out)
{
	sqlite3_stmt *s;
	size_t used = 0;
	int opened = 0;
	int64_t i, n = h->nodes;
	struct buf *each = xcalloc(n ? (size_t)n : 1, sizeof(*each));

	s = db_query(h->db, "SELECT n.id - 1, b.id, b.file FROM html_node n JOIN "
		     "bundles b ON b.id = n.bundle_id ORDER BY coalesce((SELECT "
		     "max(severity) FROM findings WHERE bundle_id = b.id), -1) "
		     "DESC, n.id", NULL);
	while (sqlite3_step(s) == SQLITE_ROW) {
		int64_t k = sqlite3_column_int64(s, 0);
		const char *file = db_col(s, 2);
		struct bundle_r *b = NULL;
		struct json one;
		char err[256];

		if (k < 0 || k >= n)
			continue;
		buf_init(&each[k], 0);
		json_init(&one, &each[k], 0);
		if (used >= VIEWS_BUDGET || opened >= VIEWS_NODES) {
			json_str(&one, NULL, "views not embedded (the page keeps "
				 "under its size budget): rdma-analyze show BUNDLE "
				 "ibstat | ibv_devinfo | lspci | ethtool -S IFACE");
		} else if (!*file || imp_or_br_open(file, NULL, &b, err, sizeof(err)) < 0) {
			json_str(&one, NULL, *file ? "views not available: the "
				 "bundle file cannot be read any more" :
				 "views not available: no bundle file");
		} else {
			node_views(h, &one, sqlite3_column_int64(s, 1), b);
			br_free(b);
			opened++;
		}
		used += each[k].len;
	}
	db_done(s);
	buf_addch(out, '[');
	for (i = 0; i < n; i++) {
		if (i)
			buf_addch(out, ',');
		if (each[i].len)
			buf_add(out, each[i].buf, each[i].len);
		else
			buf_addstr(out, "null");
		buf_release(&each[i]);
	}
	buf_addstr(out, "]\n");
	free(each);
}

/* ---------------------------------------------------------- static parts */

static int64_t count_sev(sqlite3 *db, int sev)
{
	return db_int(db, "SELECT count(*) FROM findings WHERE severity = ? AND "
		      "bundle_id IN (SELECT bundle_id FROM report_bundles)", "i",
		      (int64_t)sev);
}

static int64_t nodes_worst(sqlite3 *db, int sev)
{
	return db_int(db, "SELECT count(*) FROM report_bundles r WHERE "
		      "coalesce((SELECT max(severity) FROM findings WHERE "
		      "bundle_id = r.bundle_id), -1) = ?", "i", (int64_t)sev);
}

/* the title bar: how many nodes, and their names when they fit a line */
static void header(struct html *h)
{
	int64_t nodes = db_int(h->db, "SELECT count(DISTINCT b.node_id) FROM "
			       "bundles b JOIN report_bundles r ON r.bundle_id = "
			       "b.id", NULL);
	sqlite3_stmt *s;
	int i = 0;

	fprintf(h->out, "<header><h1>rdma-analyze report</h1><p>%lld node(s), "
		"%lld bundle(s)", (long long)nodes,
		(long long)db_int(h->db, "SELECT count(*) FROM report_bundles",
				  NULL));
	if (nodes <= 12) {
		s = db_query(h->db, "SELECT b.hostname FROM bundles b JOIN "
			     "report_bundles r ON r.bundle_id = b.id ORDER BY "
			     "b.hostname", NULL);
		while (sqlite3_step(s) == SQLITE_ROW) {
			fputs(i++ ? ", " : ": ", h->out);
			html_esc(h->out, db_col(s, 0));
		}
		db_done(s);
	}
	fputs("</p></header>\n<main>\n", h->out);
}

/* the first screen: how bad, how many, and what is wrong where */
static void verdict(struct html *h)
{
	FILE *out = h->out;
	int64_t nodes = db_int(h->db, "SELECT count(*) FROM report_bundles", NULL);
	int64_t crit = nodes_worst(h->db, SEV_CRITICAL);
	int64_t warn = nodes_worst(h->db, SEV_WARNING);

	fprintf(out, "<p class=\"verdict %s\">", crit || !nodes ? "critical" :
		warn ? "warning" : "ok");
	if (!nodes)
		fputs("No evidence: nothing was read, so nothing was checked", out);
	else if (crit || warn)
		fprintf(out, "%s: %lld of %lld node(s) critical, %lld warning, "
			"%lld without either", crit ? "Critical" : "Warning",
			(long long)crit, (long long)nodes, (long long)warn,
			(long long)(nodes - crit - warn));
	else
		fprintf(out, "OK: no warning or critical finding on %lld node(s)",
			(long long)nodes);
	fputs("</p>\n<div class=\"counts\">", out);
	fprintf(out, "<span class=\"sev-2\">%lld critical</span><span "
		"class=\"sev-1\">%lld warning</span><span class=\"sev-0\">%lld "
		"info</span><span class=\"sev-na\">%lld check(s) could not run"
		"</span></div>\n", (long long)count_sev(h->db, 2),
		(long long)count_sev(h->db, 1), (long long)count_sev(h->db, 0),
		(long long)db_int(h->db, "SELECT count(*) FROM skipped WHERE "
				  "bundle_id IN (SELECT bundle_id FROM "
				  "report_bundles)", NULL));
}

/* each problem once, worst first, with the nodes it is on */
static void top_problems(struct html *h)
{
	FILE *out = h->out;
	sqlite3_stmt *s;
	int rows = 0;

	s = db_query(h->db, "SELECT f.rule, max(f.severity) AS sev, f.layer, "
		     "count(DISTINCT f.bundle_id), group_concat(DISTINCT b.hostname) "
		     "FROM findings f JOIN bundles b ON b.id = f.bundle_id WHERE "
		     "f.severity >= 1 AND f.bundle_id IN (SELECT bundle_id FROM "
		     "report_bundles) GROUP BY f.rule ORDER BY sev DESC, "
		     "count(DISTINCT f.bundle_id) DESC, f.rule", NULL);
	while (sqlite3_step(s) == SQLITE_ROW) {
		const struct rule *r = rule_find(db_col(s, 0));
		int sev = sqlite3_column_int(s, 1), shown = 0;
		char *names = xstrdup(db_col(s, 4)), *p, *save = NULL;

		if (!rows++)
			fputs("<div><h2>What is wrong</h2>\n<div class=\"topwrap\">"
			      "<table class=\"top\" id=\"top\">"
			      "<tr><th>severity</th><th>problem</th><th>nodes</th>"
			      "</tr>\n", out);
		fprintf(out, "<tr><td class=\"b-%d\">%s</td><td><a href=\"#/", sev,
			severity_name(sev));
		html_frag(out, db_col(s, 0));
		fputs("\">", out);
		html_esc(out, db_col(s, 0));
		fputs("</a> ", out);
		html_esc(out, r ? r->title : "");
		fprintf(out, " <span class=\"muted\">(%s)</span></td><td>%lld: ",
			db_col(s, 2), (long long)sqlite3_column_int64(s, 3));
		/* hostnames holding commas would split here: only the link
		 * text is affected, and both halves stay escaped */
		for (p = strtok_r(names, ",", &save); p && shown < 12;
		     p = strtok_r(NULL, ",", &save), shown++) {
			fputs(shown ? ", <a href=\"#" : "<a href=\"#", out);
			html_frag(out, p);
			fputc('/', out);
			html_frag(out, db_col(s, 0));
			fputs("\">", out);
			html_esc(out, p);
			fputs("</a>", out);
		}
		if (sqlite3_column_int64(s, 3) > shown)
			fputs(", ...", out);
		fputs("</td></tr>\n", out);
		free(names);
	}
	db_done(s);
	if (rows)
		fputs("</table></div></div>\n", out);
}

/* what could not be checked, grouped by why */
static void not_checked(struct html *h)
{
	FILE *out = h->out;
	sqlite3_stmt *s;
	int rows = 0;

	s = db_query(h->db, "SELECT reason, group_concat(DISTINCT rule), "
		     "count(DISTINCT bundle_id) FROM (SELECT reason, rule, "
		     "bundle_id FROM skipped WHERE bundle_id IN (SELECT bundle_id "
		     "FROM report_bundles) ORDER BY rule) GROUP BY reason ORDER BY "
		     "count(DISTINCT bundle_id) DESC, reason", NULL);
	while (sqlite3_step(s) == SQLITE_ROW) {
		if (!rows++)
			fputs("<h2 id=\"not-checked\">What could not be checked, "
			      "and why</h2>\n<table class=\"top\"><tr><th>nodes"
			      "</th><th>why</th><th>checks</th></tr>\n", out);
		fprintf(out, "<tr><td>%lld of %d</td><td>",
			(long long)sqlite3_column_int64(s, 2), h->nodes);
		html_esc(out, db_col(s, 0));
		fputs("</td><td>", out);
		html_esc(out, db_col(s, 1));
		fputs("</td></tr>\n", out);
	}
	db_done(s);
	if (rows)
		fputs("</table>\n", out);
	else
		fputs("<p class=\"muted\">Every check could run on every node.</p>\n",
		      out);
}

/* ---------------------------------------------------------- pictures
 *
 * A picture is a function that writes one <figure> of inline SVG and
 * returns 1, or returns 0 when the report has nothing for it (its tables
 * absent or empty): the tables `first_pictures` (pairs and fabric, the
 * "where" of a bad link, right after the first screen) and `pictures` (at
 * the end) draw them in order.  Their rules are in report-html.h.
 */

void html_link(FILE *out, const char *node, const char *rule)
{
	fputs("<a href=\"#", out);
	html_frag(out, node);
	fputc('/', out);
	html_frag(out, rule);
	fputs("\">", out);
}

int html_has_table(sqlite3 *db, const char *name)
{
	return db_int(db, "SELECT count(*) FROM sqlite_master WHERE type = "
		      "'table' AND name = ?", "s", name) > 0;
}

/* a label of at most SVG_LABEL bytes (cut on a character boundary, the
 * whole string is in the element's <title>): labels are right-aligned
 * against the bars and would run off the left edge */
#define SVG_LABEL 56

void html_text(FILE *out, double x, double y, const char *anchor,
	       const char *fill, const char *s)
{
	char cut[SVG_LABEL + 4];
	size_t n = strlen(s);

	if (n > SVG_LABEL) {
		n = SVG_LABEL - 3;
		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
		memcpy(cut, s, n);
		memcpy(cut + n, "...", 4);
		s = cut;
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"%s\">",
		x, y, anchor, fill);
	html_esc(out, s);
	fputs("</text>", out);
}

/* PCIe: each HCA's link (GT/s x lanes) against what it is capable of.
 * A bar's outline is the capability, its fill the trained link. */
static int pic_pcie(struct html *h)
{
	static const char q[] =
		"SELECT b.hostname, p.addr, coalesce((SELECT ibdev FROM devices d "
		"WHERE d.bundle_id = p.bundle_id AND d.pci_addr = p.addr), ''), "
		"p.lnkcap_speed, p.lnkcap_width, p.lnksta_speed, p.lnksta_width, "
		"(p.lnksta_speed * p.lnksta_width < p.lnkcap_speed * p.lnkcap_width) "
		"AS low FROM pci_functions p JOIN report_bundles r ON r.bundle_id "
		"= p.bundle_id JOIN bundles b ON b.id = p.bundle_id WHERE p.kind = "
		"'hca' AND p.lnkcap_width > 0 AND p.lnkcap_speed > 0 AND low >= ? "
		"ORDER BY low DESC, b.hostname, p.addr LIMIT ?";
	FILE *out = h->out;
	int64_t all, low;
	sqlite3_stmt *s;
	double maxbw;
	int rows, y, lw = 300, bw = 360;

	all = db_int(h->db, "SELECT count(*) FROM pci_functions p JOIN "
		     "report_bundles r ON r.bundle_id = p.bundle_id WHERE p.kind = "
		     "'hca' AND p.lnkcap_width > 0 AND p.lnkcap_speed > 0", NULL);
	if (!all)
		return 0;
	low = db_int(h->db, "SELECT count(*) FROM pci_functions p JOIN "
		     "report_bundles r ON r.bundle_id = p.bundle_id WHERE p.kind = "
		     "'hca' AND p.lnkcap_width > 0 AND p.lnksta_speed * "
		     "p.lnksta_width < p.lnkcap_speed * p.lnkcap_width", NULL);
	maxbw = (double)db_int(h->db, "SELECT max(lnkcap_speed * lnkcap_width) "
			       "FROM pci_functions p JOIN report_bundles r ON "
			       "r.bundle_id = p.bundle_id WHERE p.kind = 'hca'", NULL);
	if (maxbw <= 0)
		maxbw = 1;
	rows = (int)(all > PCIE_ROWS ? (low < PCIE_ROWS ? low : PCIE_ROWS) : all);
	fprintf(out, "<figure id=\"pic-pcie\"><figcaption>PCIe links of the HCAs: "
		"trained (fill) against capable (outline); %lld of %lld below "
		"capability%s</figcaption>\n", (long long)low, (long long)all,
		all > PCIE_ROWS ? " (only those are drawn)" : "");
	if (!rows) {
		fputs("</figure>\n", out);
		return 1;
	}
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" role=\"img\">", lw + bw + 200, rows * 18 + 6);
	s = db_query(h->db, q, "ii", (int64_t)(all > PCIE_ROWS),
		     (int64_t)PCIE_ROWS);
	for (y = 0; sqlite3_step(s) == SQLITE_ROW; y += 18) {
		double cap = sqlite3_column_double(s, 3) * sqlite3_column_int(s, 4);
		double sta = sqlite3_column_double(s, 5) * sqlite3_column_int(s, 6);
		int isl = sqlite3_column_int(s, 7);
		char label[600], what[128];

		snprintf(label, sizeof(label), "%s %s%s%s", db_col(s, 0), db_col(s, 1),
			 *db_col(s, 2) ? " " : "", db_col(s, 2));
		snprintf(what, sizeof(what), "%gGT/s x%d of %gGT/s x%d",
			 sqlite3_column_double(s, 5), sqlite3_column_int(s, 6),
			 sqlite3_column_double(s, 3), sqlite3_column_int(s, 4));
		fputs("<a href=\"#", out);
		html_frag(out, db_col(s, 0));
		fputs(isl ? "/PCIE_LINK_DEGRADED\">" : "/\">", out);
		fputs("<title>", out);
		html_esc(out, label);
		fprintf(out, ": %s</title>", what);
		html_text(out, lw - 6, y + 13, "end", "#1d2330", label);
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"12\" "
			"fill=\"%s\"/><rect x=\"%d\" y=\"%d\" width=\"%.1f\" "
			"height=\"12\" fill=\"none\" stroke=\"#6b7280\"/>", lw, y + 3,
			sta > 0 ? bw * sta / maxbw : 0, isl ? "#c1121f" : "#2a9d8f",
			lw, y + 3, bw * cap / maxbw);
		html_text(out, lw + bw + 6, y + 13, "start", isl ? "#c1121f" :
			 "#1d2330", what);
		fputs("</a>", out);
	}
	db_done(s);
	fputs("</svg></figure>\n", out);
	return 1;
}

/* one horizontal bar chart of "label: count" rows, the most common value
 * of each group in the calm colour and the others in amber: a firmware or
 * driver that only a few nodes run is the one to look at */
static int bar_chart(struct html *h, const char *id, const char *caption,
		     const char *sql)
{
	FILE *out = h->out;
	sqlite3_stmt *s;
	char *prev = NULL;
	int64_t max = 1;
	int rows = 0, y = 0, lw = 420, bw = 300;

	s = db_query(h->db, sql, NULL);
	while (sqlite3_step(s) == SQLITE_ROW) {
		if (sqlite3_column_int64(s, 2) > max)
			max = sqlite3_column_int64(s, 2);
		rows++;
	}
	db_done(s);
	if (!rows)
		return 0;
	fprintf(out, "<figure id=\"%s\"><figcaption>", id);
	html_esc(out, caption);
	fprintf(out, "</figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%d\" role=\"img\">", lw + bw + 120,
		rows * 18 + 6);
	/* rows: group, value, count, nodes; ordered by group, count desc */
	s = db_query(h->db, sql, NULL);
	while (sqlite3_step(s) == SQLITE_ROW) {
		int first = !prev || strcmp(prev, db_col(s, 0));
		int64_t n = sqlite3_column_int64(s, 2);
		char label[600], num[96];

		free(prev);
		prev = xstrdup(db_col(s, 0));
		snprintf(label, sizeof(label), "%s  %s", db_col(s, 0), db_col(s, 1));
		snprintf(num, sizeof(num), "%lld (%lld node%s)", (long long)n,
			 (long long)sqlite3_column_int64(s, 3),
			 sqlite3_column_int64(s, 3) == 1 ? "" : "s");
		fputs("<g><title>", out);
		html_esc(out, label);
		fprintf(out, ": %s</title>", num);
		html_text(out, lw - 6, y + 13, "end", "#1d2330", label);
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"12\" "
			"fill=\"%s\"/>", lw, y + 3, n > 0 ? 1 + (bw - 1.0) * n / max
			: 0, first ? "#5b8db8" : "#f4a21a");
		html_text(out, lw + (n > 0 ? 1 + (bw - 1.0) * n / max : 0) + 6,
			 y + 13, "start", "#1d2330", num);
		fputs("</g>", out);
		y += 18;
	}
	db_done(s);
	free(prev);
	fputs("</svg></figure>\n", out);
	return 1;
}

static int pic_firmware(struct html *h)
{
	return bar_chart(h, "pic-fw", "Firmware across the fleet, per HCA type "
			 "(HCAs; amber: not the most common version of its type)",
			 "SELECT coalesce(nullif(d.hca_type, ''), d.ibdev), 'fw ' || "
			 "coalesce(nullif(d.fw_ver, ''), 'none'), count(*), count(DISTINCT d.bundle_id) FROM devices d "
			 "JOIN report_bundles r ON r.bundle_id = d.bundle_id GROUP BY "
			 "1, 2 ORDER BY 1, 3 DESC, 2 LIMIT 60");
}

static int pic_driver(struct html *h)
{
	return bar_chart(h, "pic-driver", "Kernel and RDMA driver across the fleet "
			 "(nodes; amber: not the most common)",
			 "SELECT coalesce(b.kernel_release, '?'), coalesce((SELECT "
			 "group_concat(m.name || ' ' || coalesce(nullif(m.version, ''), "
			 "m.srcversion, '?'), ', ') FROM modules m WHERE m.bundle_id = "
			 "b.id AND m.name IN ('mlx5_core', 'mlx5_ib', 'rdma_rxe', "
			 "'ib_core')), 'no RDMA driver'), count(*), count(*) FROM bundles "
			 "b JOIN report_bundles r ON r.bundle_id = b.id GROUP BY 1, 2 "
			 "ORDER BY 1, 3 DESC, 2 LIMIT 60");
}

static const struct {
	const char *name;
	int (*draw)(struct html *h);
} first_pictures[] = {
	{ "pairs", pic_pairs },
	{ "fabric", pic_fabric },
}, pictures[] = {
	{ "timelines", pic_timelines },
	{ "pcie", pic_pcie },
	{ "firmware", pic_firmware },
	{ "driver", pic_driver },
};

/* ---------------------------------------------------------- the page */

int report_html(sqlite3 *db, const struct report_opts *o)
{
	struct html h = { db, o->out, 0 };
	struct buf data = BUF_INIT, vdata = BUF_INIT;
	char script_hash[64], style_hash[64];
	FILE *out = o->out;
	size_t i;
	int drawn = 0;

	data_json(&h, &data);
	views_json(&h, &vdata);
	csp_hash(report_js, script_hash);
	csp_hash(report_css, style_hash);
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
		"'none'; script-src 'sha256-%s'; style-src 'sha256-%s'; img-src "
		"'none'; base-uri 'none'; form-action 'none'\">\n"
		"<meta name=\"viewport\" content=\"width=device-width\">\n"
		"<title>rdma-analyze report</title>\n<style>%s</style></head><body>\n",
		script_hash, style_hash, report_css);
	header(&h);
	verdict(&h);
	/* the grid and the list of problems side by side: together they are
	 * the first screen, "what is wrong and where" */
	fputs("<div class=\"first\"><div><h2>Fleet: nodes &times; layers</h2>"
	      "<div class=\"muted\">worst finding per cell and how many; click a "
	      "cell for its findings; &ndash; not checked</div>\n<div class=\""
	      "gridwrap\"><table id=\"grid\"></table></div></div>\n", out);
	top_problems(&h);
	fputs("</div>\n", out);
	for (i = 0; i < ARRAY_SIZE(first_pictures); i++)
		first_pictures[i].draw(&h);
	fputs("<h2>Findings</h2>\n<div class=\"filters\">"
	      "<select id=\"f-sev\" aria-label=\"severity\"></select>"
	      "<select id=\"f-layer\" aria-label=\"layer\"></select>"
	      "<select id=\"f-node\" aria-label=\"node\"></select>"
	      "<select id=\"f-rule\" aria-label=\"rule\"></select>"
	      "<input id=\"f-q\" type=\"search\" placeholder=\"search findings, "
	      "components, evidence\" size=\"36\">"
	      "<button id=\"f-clear\" type=\"button\">clear</button>"
	      "<span id=\"shown\" class=\"muted\"></span></div>\n"
	      "<section id=\"node\" hidden></section>\n"
	      "<table id=\"findings\"><thead><tr><th data-k=\"sev\">severity</th>"
	      "<th data-k=\"node\">node</th><th data-k=\"layer\">layer</th>"
	      "<th data-k=\"rule\">rule</th><th data-k=\"component\">component"
	      "</th><th data-k=\"summary\">finding, evidence (bundle path: "
	      "value), remediation</th></tr></thead><tbody></tbody></table>\n"
	      "<p><button id=\"more\" type=\"button\" hidden>show more</button>"
	      "</p>\n", out);
	not_checked(&h);
	fputs("<h2>Pictures</h2>\n", out);
	for (i = 0; i < ARRAY_SIZE(pictures); i++)
		drawn += pictures[i].draw(&h);
	if (!drawn)
		fputs("<p class=\"muted\">No PCIe or device evidence to draw.</p>\n",
		      out);
	fputs("</main>\n<script type=\"application/json\" id=\"data\">", out);
	json_out(out, &data);
	fputs("</script>\n<script type=\"application/json\" id=\"views\">", out);
	json_out(out, &vdata);
	fprintf(out, "</script>\n<script>%s</script>\n</body></html>\n",
		report_js);
	buf_release(&data);
	buf_release(&vdata);
	db_run(db, "DROP TABLE IF EXISTS temp.html_rem; DROP TABLE IF EXISTS "
	       "temp.html_reason; DROP TABLE IF EXISTS temp.html_node");
	return ferror(out) ? -1 : 0;
}
