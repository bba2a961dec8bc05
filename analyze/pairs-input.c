/* pairs-input: pair results into observations, from three places:
 *
 *   a CSV       "src,dst,result,gbps,error" lines (schema/PAIRS.md)
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

static int64_t icol(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? -1 :
	       sqlite3_column_int64(st, i);
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

/* --- CSV --- */

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

static int csv_line(struct ptopo *t, struct pinputs *in, const char *file,
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
		note(in, "%s:%zu: want src,dst,result[,gbps[,error]]", file,
		     lineno);
		return 0;
	}
	outcome = outcome_of(trim(f[2]));
	if (outcome < 0) {
		if (lineno == 1 && !strcasecmp(trim(f[2]), "result"))
			return 0;	/* the header */
		in->bad_lines++;
		note(in, "%s:%zu: result is not ok, fail or degraded", file,
		     lineno);
		return 0;
	}
	in->rows[PIN_CSV]++;
	add_pair(t, in, PIN_CSV, trim(f[0]), pt_resolve(t, trim(f[0])),
		 trim(f[1]), pt_resolve(t, trim(f[1])), outcome);
	return 0;
}

int pin_csv(struct ptopo *t, struct pinputs *in, const char *file)
{
	char line[MAX_LINE + 2], err[128];
	uint64_t bytes = 0;
	size_t lineno = 0;
	int rc = 0, fd;
	FILE *fp;

	fd = open_named_file(file, MAX_RESULTS, err, sizeof(err));
	if (fd < 0)
		return error("cannot read '%s': %s", file, err);
	fp = fd == STDIN_FILENO ? stdin : fdopen(fd, "r");
	if (!fp)
		die("out of memory");
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
			int c;

			/* a line longer than any pair result: skip it */
			while ((c = getc(fp)) != EOF && c != '\n' &&
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
		csv_line(t, in, file, lineno, line);
	}
	if (ferror(fp))
		rc = error("cannot read '%s': %s", file, strerror(errno));
	if (fp != stdin)
		fclose(fp);
	return rc;
}

/* --- NCCL completion errors --- */

static void nccl_json(struct pinputs *in, struct ptopo *t, sqlite3_stmt *st,
		      int a, int b)
{
	struct json j;
	int64_t status = icol(st, 3), verr = icol(st, 4);
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
	json_int(&j, "line", icol(st, 7));
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
			perftest_peer(text, len, icol(st, 2), peer,
				      sizeof(peer));
		if (icol(st, 5) > 0) {
			outcome = PO_FAIL;
		} else if (icol(st, 3) > 0 &&
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
