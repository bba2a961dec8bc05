/* pairs-input: pair results into observations, from three places:
 *
 *   a CSV       "src,dst,result,gbps,error" lines, or columns by the
 *               names of its header (schema/PAIRS.md)
 *   NCCL logs   completion errors in the bundles' attachments
 *               (nccl_events): the local HCA and the peer's address (or
 *               remote GID) name the pair, both ends fail together
 *   perftest    attached outputs (perftest_results): a failed run fails
 *               its pair, a bandwidth run below bw_ratio of the port's
 *               line rate degrades it; the peer is the "remote address"
 *               LID or GID the run printed, read again from the bundle
 *               file because the database keeps only the results
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "breader.h"
#include "import.h"
#include "buf.h"
#include "db.h"
#include "json.h"
#include "log.h"
#include "nccl.h"
#include "pairs.h"
#include "rules.h"
#include "util.h"

#define MAX_LINE 4096
/* pair results: 16 million pairs of 60 bytes (all pairs of 4000 nodes) */
#define MAX_RESULTS (1 << 30)
#define MAX_NOTES 20
#define MAX_PATH_COMPS 512
#define MAX_OBS 20000000	/* far beyond all pairs of 4096 hosts */
#define MAX_NCCL_SHOWN 100

#define NEWEST "SELECT b.id FROM bundles b WHERE b.id = (SELECT b2.id FROM " \
	"bundles b2 WHERE b2.node_id = b.node_id ORDER BY b2.collected_at " \
	"DESC, b2.id DESC LIMIT 1)"

void pin_init(struct pinputs *in)
{
	memset(in, 0, sizeof(*in));
	buf_init(&in->notes, 64 * 1024);
	buf_init(&in->nccl, 0);
}

void pin_release(struct pinputs *in)
{
	if (!in)
		return;
	buf_release(&in->notes);
	buf_release(&in->nccl);
}

static void note(struct pinputs *in, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct pinputs *in, const char *fmt, ...)
{
	va_list ap;

	if (in->nnotes++ >= MAX_NOTES)
		return;
	va_start(ap, fmt);
	buf_vaddf(&in->notes, fmt, ap);
	va_end(ap);
	buf_addch(&in->notes, '\n');
}

/* one pair result: resolved, routed, added; 0 added, -1 not */
static int add_pair(struct ptopo *t, struct pinputs *in, int source,
		    const char *src, int a, const char *dst, int b,
		    int outcome)
{
	int comps[MAX_PATH_COMPS], n;

	if (a < 0 || b < 0) {
		const char *what = a < 0 ? src : dst;
		int r = a < 0 ? a : b;

		if (r == -2)
			in->ambiguous++;
		else
			in->unresolved++;
		if (!in->first_unresolved[0])
			snprintf(in->first_unresolved,
				 sizeof(in->first_unresolved), "%s%s", what,
				 r == -2 ? " (ambiguous)" : "");
		return -1;
	}
	if (t->ep[a].host == t->ep[b].host) {
		in->same_host++;
		return -1;
	}
	if (t->pm->nobs >= MAX_OBS)
		return -1;
	n = pt_path(t, a, b, comps, MAX_PATH_COMPS);
	if (n < 0) {
		/* no route in the tables: what is known of the ends only */
		in->unrouted++;
		n = 2;
		comps[0] = t->host[t->ep[a].host].node;
		comps[1] = t->host[t->ep[b].host].node;
		if (t->ep[a].cable >= 0)
			comps[n++] = t->ep[a].cable;
		if (t->ep[b].cable >= 0)
			comps[n++] = t->ep[b].cable;
	}
	pm_obs(t->pm, a, b, outcome, source, comps, n);
	in->used[source]++;
	return 0;
}

/* --- CSV ---
 *
 * Two layouts.  With a header (the first line neither blank nor a comment
 * that names a known column and holds no result word) the columns are
 * taken by name in any order, with RFC 4180 quoting: src, dst and result
 * are needed; src_hca/dst_hca (hca: both ends) and src_port/dst_port put
 * an end on one HCA port of its host; unknown ones are ignored with a
 * note.  Without one: "src,dst,result[,gbps[,error]]" by position, the
 * error taking the rest of the line, as it always was.
 */

enum csv_col {
	CC_SRC, CC_DST, CC_RESULT, CC_SRC_HCA, CC_DST_HCA, CC_HCA,
	CC_SRC_PORT, CC_DST_PORT, CC_PORT, CC_GBPS, CC_ERROR, CC_NCOLS
};

static const char *const col_name[CC_NCOLS] = {
	"src", "dst", "result", "src_hca", "dst_hca", "hca", "src_port",
	"dst_port", "port", "gbps", "error",
};

/* the names a header may give a column, compared in lower case with
 * spaces and '-' read as '_' (schema/PAIRS.md: which tools write them) */
static const struct {
	const char *name;
	enum csv_col col;
} col_alias[] = {
	{ "src", CC_SRC }, { "source", CC_SRC }, { "client", CC_SRC },
	{ "from", CC_SRC }, { "host_a", CC_SRC }, { "src_host", CC_SRC },
	{ "src_node", CC_SRC }, { "source_host", CC_SRC },
	{ "client_host", CC_SRC },
	{ "dst", CC_DST }, { "destination", CC_DST }, { "dest", CC_DST },
	{ "server", CC_DST }, { "to", CC_DST }, { "peer", CC_DST },
	{ "host_b", CC_DST }, { "dst_host", CC_DST }, { "dst_node", CC_DST },
	{ "destination_host", CC_DST }, { "server_host", CC_DST },
	{ "result", CC_RESULT }, { "status", CC_RESULT },
	{ "outcome", CC_RESULT },
	{ "src_hca", CC_SRC_HCA }, { "src_dev", CC_SRC_HCA },
	{ "src_device", CC_SRC_HCA }, { "src_ibdev", CC_SRC_HCA },
	{ "client_hca", CC_SRC_HCA }, { "client_dev", CC_SRC_HCA },
	{ "client_device", CC_SRC_HCA },
	{ "dst_hca", CC_DST_HCA }, { "dst_dev", CC_DST_HCA },
	{ "dst_device", CC_DST_HCA }, { "dst_ibdev", CC_DST_HCA },
	{ "server_hca", CC_DST_HCA }, { "server_dev", CC_DST_HCA },
	{ "server_device", CC_DST_HCA }, { "peer_hca", CC_DST_HCA },
	{ "hca", CC_HCA }, { "dev", CC_HCA }, { "device", CC_HCA },
	{ "ibdev", CC_HCA },
	{ "src_port", CC_SRC_PORT }, { "client_port", CC_SRC_PORT },
	{ "dst_port", CC_DST_PORT }, { "server_port", CC_DST_PORT },
	{ "peer_port", CC_DST_PORT }, { "port", CC_PORT },
	{ "gbps", CC_GBPS }, { "bw", CC_GBPS }, { "bandwidth", CC_GBPS },
	{ "bw_gbps", CC_GBPS }, { "bandwidth_gbps", CC_GBPS },
	{ "busbw", CC_GBPS }, { "avg_gbps", CC_GBPS },
	{ "error", CC_ERROR }, { "msg", CC_ERROR }, { "message", CC_ERROR },
	{ "err", CC_ERROR }, { "error_message", CC_ERROR },
};

#define MAX_COLS 64

/* one CSV file being read */
struct csvin {
	const char *file;
	int decided;		/* the first line was looked at */
	int named;		/* columns by the header's names */
	int col[CC_NCOLS];	/* each column's field, -1 */
	int nfields;		/* fields a row needs */
	int *nhca;		/* HCA endpoints of each host, before the file */
	int nhost;
	int noted_hca;		/* an HCA not found was noted */
};

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	if (*s == '"' && e > s + 1 && e[-1] == '"') {
		e[-1] = 0;
		s++;
	}
	return s;
}

static int outcome_of(const char *r)
{
	static const struct {
		const char *word;
		int outcome;
	} words[] = {
		{ "ok", PO_OK }, { "pass", PO_OK }, { "passed", PO_OK },
		{ "success", PO_OK }, { "fail", PO_FAIL }, { "failed", PO_FAIL },
		{ "error", PO_FAIL }, { "degraded", PO_DEGRADED },
		{ "slow", PO_DEGRADED },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (!strcasecmp(r, words[i].word))
			return words[i].outcome;
	return -1;
}

/* split at the first two commas, then the third: the error (last
 * column) may hold commas of its own */
static int csv_fields(char *line, char **f, int max)
{
	int n = 0;

	while (n < max - 1) {
		char *c = strchr(line, ',');

		f[n++] = line;
		if (!c)
			return n;
		*c = 0;
		line = c + 1;
	}
	f[n++] = line;
	return n;
}

/* RFC 4180 fields of one line, in place: `"a,b",x""y` is `a,b` and
 * `x""y`, `"say ""no"""` is `say "no"`; white space around a field is
 * dropped; a quote never closed takes the rest of the line.  The first
 * max fields go to f; returns how many the line has. */
static int rfc_fields(char *s, char **f, int max)
{
	int n = 0, more;

	do {
		char *w, *start;

		while (*s == ' ' || *s == '\t')
			s++;
		w = start = s;
		if (*s == '"') {
			for (s++; *s; *w++ = *s++)
				if (*s == '"' && *++s != '"')
					break;
		}
		while (*s && *s != ',')
			*w++ = *s++;
		more = *s == ',';
		s += more;
		while (w > start && isspace((unsigned char)w[-1]))
			w--;
		*w = 0;
		if (n < max)
			f[n] = start;
		n++;
	} while (more);
	return n;
}

/* "Src Host" -> "src_host" */
static void col_key(const char *s, char *out, size_t n)
{
	size_t k = 0;

	for (; *s && k + 1 < n; s++)
		out[k++] = *s == ' ' || *s == '-' ? '_' :
			   (char)tolower((unsigned char)*s);
	out[k] = 0;
}

static int col_of(const char *name)
{
	char key[64];
	size_t i;

	col_key(name, key, sizeof(key));
	for (i = 0; i < ARRAY_SIZE(col_alias); i++)
		if (!strcmp(key, col_alias[i].name))
			return col_alias[i].col;
	return -1;
}

/* the first line that is neither blank nor a comment: 1 a header (its
 * columns in c), 0 a result line, -1 a header refused (said) */
static int csv_header(struct pinputs *in, struct csvin *c, size_t lineno,
		      const char *line)
{
	char copy[MAX_LINE + 2], *f[MAX_COLS], *old[5];
	struct buf found = BUF_INIT, ignored = BUF_INIT, missing = BUF_INIT;
	int n, i, known = 0, other = 0, rc = 1;

	snprintf(copy, sizeof(copy), "%s", line);
	n = rfc_fields(copy, f, MAX_COLS);
	for (i = 0; i < n && i < MAX_COLS; i++) {
		known += col_of(f[i]) >= 0;
		other += col_of(f[i]) < 0 && *f[i];
	}
	if (!known)
		return 0;
	/* unless every field is a column's name, a result as the
	 * positional form reads it is one ("a,b,error" fails a-b) */
	if (other) {
		char pos[MAX_LINE + 2];

		snprintf(pos, sizeof(pos), "%s", line);
		if (csv_fields(pos, old, 5) >= 3 &&
		    outcome_of(trim(old[2])) >= 0)
			return 0;
	}
	for (i = 0; i < CC_NCOLS; i++)
		c->col[i] = -1;
	for (i = 0; i < n && i < MAX_COLS; i++) {
		int k = col_of(f[i]);

		buf_addf(&found, "%s%s", i ? ", " : "", f[i]);
		if (k < 0) {
			if (*f[i])	/* not a trailing comma */
				buf_addf(&ignored, "%s%s",
					 ignored.len ? ", " : "", f[i]);
		} else if (c->col[k] >= 0) {
			rc = error("'%s' line %zu: two columns are %s: '%s' and "
				   "'%s'", c->file, lineno, col_name[k],
				   f[c->col[k]], f[i]);
			goto out;
		} else {
			c->col[k] = i;
			if (i + 1 > c->nfields && k <= CC_RESULT)
				c->nfields = i + 1;
		}
	}
	if (c->col[CC_SRC] < 0 || c->col[CC_DST] < 0 ||
	    c->col[CC_RESULT] < 0) {
		/* a header as it was before columns had names (`result`
		 * third): by position */
		char pos[MAX_LINE + 2];

		snprintf(pos, sizeof(pos), "%s", line);
		if (csv_fields(pos, old, 5) >= 3 &&
		    !strcasecmp(trim(old[2]), "result")) {
			rc = 0;
			c->decided = 2;
			goto out;
		}
		for (i = 0; i <= CC_RESULT; i++)
			if (c->col[i] < 0)
				buf_addf(&missing, "%s%s", missing.len ? " or " :
					 "", col_name[i]);
		rc = error("'%s' line %zu: the header has no %s column: want "
			   "src, dst and result (or a name of theirs in "
			   "schema/PAIRS.md), found: %s", c->file, lineno,
			   missing.buf, found.buf);
		goto out;
	}
	c->named = 1;
	if (ignored.len)
		note(in, "%s:%zu: ignored columns: %s", c->file, lineno,
		     ignored.buf);
out:
	buf_release(&found);
	buf_release(&ignored);
	buf_release(&missing);
	return rc;
}

/* is endpoint e a whole host of several HCAs (its results on no route)? */
static int whole_host(const struct ptopo *t, const struct csvin *c, int e)
{
	int h;

	if (e < 0 || t->ep[e].port >= 0)
		return 0;
	h = t->ep[e].host;
	return h < c->nhost && c->nhca[h] > 1;
}

/* one end of a result: the host (or whatever) name, then the HCA and port
 * its columns give, "host ibdev port N" as pt_resolve takes it; the host
 * when they name none of its HCAs */
static int csv_end(struct ptopo *t, struct pinputs *in, struct csvin *c,
		   size_t lineno, const char *name, const char *hca,
		   const char *port)
{
	char full[600];
	int e = pt_resolve(t, name), k, alone;
	const char *host;

	if (e < 0 || !hca || !*hca || !whole_host(t, c, e))
		return e;
	host = t->host[t->ep[e].host].name;
	/* a GUID, LID or "host ibdev" in the HCA column names it alone; a
	 * word alone would be a host of its own without a topology */
	alone = strchr(hca, ' ') || !strncasecmp(hca, "0x", 2) ||
		strspn(hca, "0123456789") == strlen(hca);
	for (k = port && *port ? 0 : 1; k < 2 + alone; k++) {
		int x;

		if (k == 0)
			snprintf(full, sizeof(full), "%s %s port %s", host, hca,
				 port);
		else if (k == 1)
			snprintf(full, sizeof(full), "%s %s", host, hca);
		x = pt_resolve(t, k < 2 ? full : hca);
		if (x >= 0 && t->ep[x].host == t->ep[e].host &&
		    t->ep[x].port >= 0)
			return x;
	}
	if (!c->noted_hca++)
		note(in, "%s:%zu: %s is not an HCA of %s: its results are "
		     "placed on the host", c->file, lineno, hca, host);
	return e;
}

static void csv_pair(struct ptopo *t, struct pinputs *in, struct csvin *c,
		     int a, const char *src, int b, const char *dst,
		     int outcome)
{
	in->rows[PIN_CSV]++;
	if (!add_pair(t, in, PIN_CSV, src, a, dst, b, outcome) &&
	    (whole_host(t, c, a) || whole_host(t, c, b)))
		in->host_only++;
}

static int csv_line(struct ptopo *t, struct pinputs *in, struct csvin *c,
		    size_t lineno, char *line)
{
	char *f[5];
	int n, outcome;

	n = csv_fields(line, f, 5);
	if (n == 1 && !*trim(f[0]))
		return 0;
	if (*trim(f[0]) == '#')
		return 0;
	if (n < 3) {
		in->bad_lines++;
		note(in, "%s:%zu: want src,dst,result[,gbps[,error]]", c->file,
		     lineno);
		return 0;
	}
	outcome = outcome_of(trim(f[2]));
	if (outcome < 0) {
		if (lineno == 1 && !strcasecmp(trim(f[2]), "result"))
			return 0;	/* the header */
		in->bad_lines++;
		note(in, "%s:%zu: result is not ok, fail or degraded", c->file,
		     lineno);
		return 0;
	}
	csv_pair(t, in, c, pt_resolve(t, trim(f[0])), trim(f[0]),
		 pt_resolve(t, trim(f[1])), trim(f[1]), outcome);
	return 0;
}

/* a field of a row by column, NULL when the header has no such column */
static const char *fcol(const struct csvin *c, char **f, int n, int col)
{
	int i = c->col[col];

	return i >= 0 && i < n && i < MAX_COLS ? f[i] : NULL;
}

static void csv_row(struct ptopo *t, struct pinputs *in, struct csvin *c,
		    size_t lineno, char *line)
{
	char *f[MAX_COLS];
	const char *s, *d, *hs, *hd, *ps, *pd;
	int n, outcome, a, b;

	n = rfc_fields(line, f, MAX_COLS);
	if (n < c->nfields) {
		in->bad_lines++;
		note(in, "%s:%zu: fewer fields than the header's", c->file,
		     lineno);
		return;
	}
	outcome = outcome_of(fcol(c, f, n, CC_RESULT));
	if (outcome < 0) {
		in->bad_lines++;
		note(in, "%s:%zu: result is not ok, fail or degraded", c->file,
		     lineno);
		return;
	}
	s = fcol(c, f, n, CC_SRC);
	d = fcol(c, f, n, CC_DST);
	hs = c->col[CC_SRC_HCA] >= 0 ? fcol(c, f, n, CC_SRC_HCA) :
	     fcol(c, f, n, CC_HCA);
	hd = c->col[CC_DST_HCA] >= 0 ? fcol(c, f, n, CC_DST_HCA) :
	     fcol(c, f, n, CC_HCA);
	ps = c->col[CC_SRC_PORT] >= 0 ? fcol(c, f, n, CC_SRC_PORT) :
	     fcol(c, f, n, CC_PORT);
	pd = c->col[CC_DST_PORT] >= 0 ? fcol(c, f, n, CC_DST_PORT) :
	     fcol(c, f, n, CC_PORT);
	a = csv_end(t, in, c, lineno, s, hs, ps);
	b = csv_end(t, in, c, lineno, d, hd, pd);
	csv_pair(t, in, c, a, s, b, d, outcome);
}

/* a line that is blank or a comment, as csv_line skips them */
static int csv_skip(const char *line)
{
	char copy[MAX_LINE + 2], *f[5];
	int n;

	snprintf(copy, sizeof(copy), "%s", line);
	n = csv_fields(copy, f, 5);
	return (n == 1 && !*trim(f[0])) || *trim(f[0]) == '#';
}

static int csv_read(struct ptopo *t, struct pinputs *in, struct csvin *c,
		    size_t lineno, char *line)
{
	if (!c->decided) {
		int r;

		if (lineno == 1 && !strncmp(line, "\xef\xbb\xbf", 3))
			memmove(line, line + 3, strlen(line + 3) + 1);
		if (csv_skip(line))
			return 0;
		c->decided = 1;
		r = csv_header(in, c, lineno, line);
		if (r < 0)
			return -1;
		if (r > 0 || c->decided == 2)
			return 0;
	}
	if (c->named) {
		if (csv_skip(line))
			return 0;
		csv_row(t, in, c, lineno, line);
		return 0;
	}
	return csv_line(t, in, c, lineno, line);
}

int pin_csv(struct ptopo *t, struct pinputs *in, const char *file)
{
	char line[MAX_LINE + 2], err[128];
	uint64_t bytes = 0;
	size_t lineno = 0;
	int rc = 0, fd, e;
	struct csvin c;
	FILE *fp;

	fd = open_named_file(file, MAX_RESULTS, err, sizeof(err));
	if (fd < 0)
		return error("cannot read '%s': %s", file, err);
	fp = fd == STDIN_FILENO ? stdin : fdopen(fd, "r");
	if (!fp)
		die("out of memory");
	memset(&c, 0, sizeof(c));
	c.file = file;
	c.nhost = t->nhost;
	c.nhca = xcalloc((size_t)t->nhost + 1, sizeof(*c.nhca));
	for (e = 0; e < t->nep; e++)
		if (t->ep[e].port >= 0)
			c.nhca[t->ep[e].host]++;
	while (fgets(line, sizeof(line), fp)) {
		size_t l = strlen(line);

		lineno++;
		/* standard input has no size to check first */
		if ((bytes += l) > MAX_RESULTS) {
			rc = error("cannot read '%s': larger than %d MiB", file,
				   MAX_RESULTS >> 20);
			break;
		}
		if (l && line[l - 1] == '\n') {
			line[--l] = 0;
		} else if (!feof(fp)) {
			int ch;

			/* a line longer than any pair result: skip it */
			while ((ch = getc(fp)) != EOF && ch != '\n' &&
			       ++bytes <= MAX_RESULTS)
				;
			in->bad_lines++;
			note(in, "%s:%zu: line longer than %d bytes", file,
			     lineno, MAX_LINE);
			continue;
		}
		if (memchr(line, 0, l) != NULL && strlen(line) != l) {
			in->bad_lines++;
			continue;
		}
		if (csv_read(t, in, &c, lineno, line) < 0) {
			rc = -1;
			break;
		}
	}
	if (!rc && ferror(fp))
		rc = error("cannot read '%s': %s", file, strerror(errno));
	if (fp != stdin)
		fclose(fp);
	free(c.nhca);
	return rc;
}

/* --- NCCL completion errors --- */

static void nccl_json(struct pinputs *in, struct ptopo *t, sqlite3_stmt *st,
		      int a, int b)
{
	struct json j;
	int64_t status = db_col_int(st, 3), verr = db_col_int(st, 4);
	char hx[32];

	if (in->used[PIN_NCCL] > MAX_NCCL_SHOWN)
		return;
	json_init(&j, &in->nccl, 0);
	json_obj_open(&j, NULL);
	json_str(&j, "node", a >= 0 ? t->host[t->ep[a].host].name : NULL);
	json_str(&j, "hca", db_col(st, 1));
	json_str(&j, "peer", db_col(st, 2));
	json_str(&j, "peer_node", b >= 0 ? t->host[t->ep[b].host].name : NULL);
	json_int(&j, "status", status);
	json_str(&j, "status_name", ibv_wc_status_name((int)status));
	json_str(&j, "status_text", ibv_wc_status_text((int)status));
	json_int(&j, "vendor_err", verr);
	snprintf(hx, sizeof(hx), "0x%" PRIx64, verr < 0 ? 0 : verr);
	json_str(&j, "vendor_err_hex", verr < 0 ? NULL : hx);
	json_str(&j, "attachment", db_col(st, 6));
	json_int(&j, "line", db_col_int(st, 7));
	json_obj_close(&j);
	buf_addch(&in->nccl, ',');
}

int pin_nccl(struct ptopo *t, struct pinputs *in)
{
	sqlite3_stmt *st = db_query(t->db, "SELECT bundle_id, coalesce(hca, ''), "
				    "coalesce(peer, ''), status, vendor_err, "
				    "coalesce(remote_gid, ''), attachment, line "
				    "FROM nccl_events WHERE kind = 'completion' "
				    "AND bundle_id IN (" NEWEST ") ORDER BY "
				    "bundle_id, attachment, line", "");
	uint64_t *seen = NULL;
	size_t nseen = 0, i;

	while (sqlite3_step(st) == SQLITE_ROW) {
		int a = pt_local(t, sqlite3_column_int64(st, 0), db_col(st, 1));
		int b = -1;
		uint64_t key;

		in->rows[PIN_NCCL]++;
		/* the remote GID is the HCA port itself; the peer address is
		 * NCCL's socket, maybe on another network */
		if (*db_col(st, 5))
			b = pt_resolve(t, db_col(st, 5));
		if (b < 0 && *db_col(st, 2))
			b = pt_resolve(t, db_col(st, 2));
		if (a >= 0 && b >= 0) {
			/* one failing pair, however many lines say so */
			key = (uint64_t)(uint32_t)a << 32 | (uint32_t)b;
			for (i = 0; i < nseen && seen[i] != key; i++)
				;
			if (i < nseen)
				continue;
			seen = xrealloc(seen, (nseen + 1) * sizeof(*seen));
			seen[nseen++] = key;
		}
		if (!add_pair(t, in, PIN_NCCL, "(this node)", a,
			      *db_col(st, 2) ? db_col(st, 2)
					     : "(no peer printed)",
			      b, PO_FAIL))
			nccl_json(in, t, st, a, b);
	}
	db_done(st);
	free(seen);
	return 0;
}

/* --- perftest --- */

/* perftest.c's banner rule: "RDMA_Write BW Test", "Send Latency Test" */
static int is_banner(const char *s)
{
	size_t l;

	while (*s == ' ' || *s == '\t')
		s++;
	l = strlen(s);
	return l >= 8 && !strcmp(s + l - 5, " Test") &&
	       (strstr(s, " BW ") || strstr(s, " Latency ")) &&
	       !strchr(s, ':') && !strchr(s, '[');
}

/* "GID: 00:00:...:255:255:10:00:33:03" (16 decimal bytes) as an address */
static int gid_line(const char *s, char *out, size_t n)
{
	unsigned char g[16];
	char *end;
	int k;

	s = strstr(s, "GID:");
	if (!s)
		return -1;
	s += 4;
	for (k = 0; k < 16; k++) {
		unsigned long v;

		while (*s == ' ')
			s++;
		v = strtoul(s, &end, 10);
		if (end == s || v > 255)
			return -1;
		g[k] = (unsigned char)v;
		s = end;
		if (k < 15 && *s++ != ':')
			return -1;
	}
	return check_snprintf(out, n, "%x:%x:%x:%x:%x:%x:%x:%x",
			      g[0] << 8 | g[1], g[2] << 8 | g[3],
			      g[4] << 8 | g[5], g[6] << 8 | g[7],
			      g[8] << 8 | g[9], g[10] << 8 | g[11],
			      g[12] << 8 | g[13], g[14] << 8 | g[15]);
}

/* the peer of run `run` in a perftest text: its remote LID (IB), else its
 * remote GID; "" when the run printed neither */
static void perftest_peer(const char *text, size_t len, int64_t run,
			  char *out, size_t n)
{
	char line[512];
	size_t off = 0;
	int64_t cur = -1;
	int remote = 0;

	out[0] = 0;
	while (off < len) {
		size_t e = off, k = 0;
		const char *p;

		while (e < len && text[e] != '\n')
			e++;
		while (off < e && k + 1 < sizeof(line)) {
			char c = text[off++];

			line[k++] = c ? c : ' ';
		}
		line[k] = 0;
		off = e + 1;
		if (is_banner(line)) {
			if (++cur > run)
				return;
			continue;
		}
		if (cur != run)
			continue;
		if ((p = strstr(line, "remote address:"))) {
			unsigned long lid;

			remote = 1;
			p = strstr(p, "LID ");
			lid = p ? strtoul(p + 4, NULL, 16) : 0;
			if (lid > 0 && lid < 0xc000)
				snprintf(out, n, "%lu", lid);
		} else if (remote && !out[0] && strstr(line, "GID:")) {
			gid_line(line, out, n);
			remote = 0;
		} else {
			remote = 0;
		}
	}
}

static double line_rate(sqlite3 *db, int64_t bundle, const char *dev)
{
	sqlite3_stmt *st = db_query(db, "SELECT max(rate_gbps) FROM ports WHERE "
				    "bundle_id = ? AND ibdev = ?", "is", bundle,
				    dev);
	double r = -1;

	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL)
		r = sqlite3_column_double(st, 0);
	db_done(st);
	return r;
}

static double bw_ratio(void)
{
	const struct threshold *th;

	for (th = thresholds; th->name; th++)
		if (!strcmp(th->name, "bw_ratio"))
			return th->value;
	return 0.85;
}

int pin_perftest(struct ptopo *t, struct pinputs *in)
{
	sqlite3_stmt *st = db_query(t->db, "SELECT p.bundle_id, p.attachment, "
				    "p.run, coalesce(p.bw, 0), coalesce(p.device, "
				    "''), coalesce(p.failed, 0), p.avg_gbps, "
				    "coalesce(b.file, '') FROM perftest_results p "
				    "JOIN bundles b ON b.id = p.bundle_id WHERE "
				    "p.bundle_id IN (" NEWEST ") ORDER BY "
				    "p.bundle_id, p.attachment, p.run", "");
	struct bundle_r *br = NULL;
	int64_t open_id = -1;
	double ratio = bw_ratio();

	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t bid = sqlite3_column_int64(st, 0);
		const char *dev = db_col(st, 4), *text;
		char peer[128] = "", err[256];
		int a, b, outcome = PO_OK;
		size_t len;

		in->rows[PIN_PERFTEST]++;
		if (bid != open_id) {
			br_free(br);
			br = NULL;
			open_id = bid;
			if (imp_or_br_open(db_col(st, 7), NULL, &br, err,
					   sizeof(err)) < 0) {
				note(in,
				     "perftest: cannot read bundle '%s' "
				     "again for the peer: %s",
				     db_col(st, 7), err);
				br = NULL;
			}
		}
		text = br ? br_data(br, db_col(st, 1), &len) : NULL;
		if (text)
			perftest_peer(text, len, db_col_int(st, 2), peer,
				      sizeof(peer));
		if (db_col_int(st, 5) > 0) {
			outcome = PO_FAIL;
		} else if (db_col_int(st, 3) > 0 &&
			   sqlite3_column_type(st, 6) != SQLITE_NULL) {
			double rate = line_rate(t->db, bid, dev);

			if (rate > 0 && sqlite3_column_double(st, 6) <
			    ratio * rate)
				outcome = PO_DEGRADED;
		}
		a = pt_local(t, bid, dev);
		b = peer[0] ? pt_resolve(t, peer) : -1;
		add_pair(t, in, PIN_PERFTEST, dev, a,
			 peer[0] ? peer : "(no remote address printed)", b,
			 outcome);
	}
	db_done(st);
	br_free(br);
	return 0;
}
