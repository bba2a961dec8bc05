/* pairs-run: `rdma-analyze pairs --db FILE [--results pairs.csv]
 * [--method best|tomography] [-f json]`: pair results from a CSV and from
 * the bundles (NCCL completion errors, perftest runs), localized on the
 * topology the database holds (pairs-topo.c) by the engine (pairs.c), as
 * findings PAIR_SUSPECT_LINK, PAIR_SUSPECT_NODE, PAIR_SUSPECT_SWITCH and
 * PAIR_AMBIGUOUS.  The JSON is documented in schema/PAIRS.md.
 *
 * Its command line is cmd-pairs.c.
 *
 * Exit status, as `report`: 0 nothing at warning or above, 1 warnings
 * (ambiguous), 2 critical findings, 3 usage error, 4 the database or the
 * results file cannot be read.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "buf.h"
#include "db.h"
#include "json.h"
#include "log.h"
#include "pairs.h"
#include "rules.h"
#include "util.h"

#define UNEXPLAINED_TEXT 8	/* unexplained results the text lists */
#define UNEXPLAINED_COMPS 4	/* components of each it names */

static const char *const kind_names[PC_NKINDS] = {
	[PC_CABLE] = "cable", [PC_LINK] = "link", [PC_HALF] = "half",
	[PC_HCA] = "hca", [PC_NODE] = "node", [PC_SWITCH] = "switch",
};

/* one finding made of one suspect */
struct pfinding {
	const char *rule;
	int severity;
	int comp;		/* the component named */
	struct psuspect *s;
	struct buf summary;
	struct buf counters;	/* "where name value (source)" lines */
};

struct pctx {
	struct pmodel pm;
	struct ptopo t;
	struct pinputs in;
	struct pfinding *f;
	int nf;
	enum pm_method method;
	int64_t load_ms, localize_ms;
	size_t degraded;
};

static int same_cable(const struct pcomp *c, const struct pcomp *d)
{
	return (!strcmp(c->guid[0], d->guid[0]) && c->port[0] == d->port[0] &&
		!strcmp(c->guid[1], d->guid[1]) && c->port[1] == d->port[1]) ||
	       (!strcmp(c->guid[0], d->guid[1]) && c->port[0] == d->port[1] &&
		!strcmp(c->guid[1], d->guid[0]) && c->port[1] == d->port[0]);
}

/* may d be told from c by no pair test at all: a host's own parts (its
 * node, HCA ports, cables), or the same inter-switch cable (the link and
 * its directions)? */
static int same_part(const struct pcomp *c, const struct pcomp *d)
{
	if (c->host >= 0 && d->host == c->host &&
	    (d->kind == PC_NODE || d->kind == PC_CABLE || d->kind == PC_HCA))
		return 1;
	return (c->kind == PC_LINK || c->kind == PC_HALF) &&
	       (d->kind == PC_LINK || d->kind == PC_HALF) && same_cable(c, d);
}

/* the candidate a split test should tell the suspect from: its first
 * alternative, else its first equivalent that is another part, else for
 * a weak suspect its rival (pm_rival); -1 */
static int split_target(const struct pctx *x, const struct psuspect *s)
{
	int i;

	if (s->nalt)
		return s->alt[0];
	for (i = 0; i < s->nequiv; i++)
		if (!same_part(&x->pm.comp[s->comp], &x->pm.comp[s->equiv[i]]))
			return s->equiv[i];
	/* a weak one with neither: what else its failures cross */
	return s->weak ? pm_rival(&x->pm, s->comp) : -1;
}

/* are all its equivalents its own parts?  Then it is one suspect */
static int natural_class(const struct pctx *x, const struct psuspect *s)
{
	int i;

	for (i = 0; i < s->nequiv; i++)
		if (!same_part(&x->pm.comp[s->comp], &x->pm.comp[s->equiv[i]]))
			return 0;
	return 1;
}

static void finding_of(struct pctx *x, struct psuspect *s, struct pfinding *f)
{
	const struct pcomp *c;
	int i, node = -1, cable = -1;

	memset(f, 0, sizeof(*f));
	buf_init(&f->summary, 0);
	buf_init(&f->counters, 0);
	f->s = s;
	f->comp = s->comp;
	c = &x->pm.comp[s->comp];
	if (c->kind == PC_NODE)
		node = s->comp;
	else if (c->kind == PC_CABLE || c->kind == PC_HCA)
		cable = s->comp;
	for (i = 0; i < s->nequiv; i++) {
		int k = x->pm.comp[s->equiv[i]].kind;

		if (k == PC_NODE && node < 0)
			node = s->equiv[i];
		if ((k == PC_CABLE || k == PC_HCA) && cable < 0)
			cable = s->equiv[i];
	}
	if (s->weak || s->nalt || !natural_class(x, s)) {
		f->rule = "PAIR_AMBIGUOUS";
		f->severity = SEV_WARNING;
	} else if (node >= 0) {
		/* a node or its only cable: the counters tell */
		struct buf tmp = BUF_INIT;

		if (cable >= 0 && pt_counters(&x->t, cable, &tmp) &&
		    x->pm.comp[cable].kind == PC_CABLE) {
			f->rule = "PAIR_SUSPECT_LINK";
			f->comp = cable;
		} else {
			f->rule = "PAIR_SUSPECT_NODE";
			f->comp = node;
		}
		buf_release(&tmp);
		f->severity = SEV_CRITICAL;
	} else if (c->kind == PC_HCA) {
		f->rule = "PAIR_SUSPECT_NODE";
		f->severity = SEV_CRITICAL;
	} else if (c->kind == PC_SWITCH) {
		f->rule = "PAIR_SUSPECT_SWITCH";
		f->severity = SEV_CRITICAL;
	} else {
		f->rule = "PAIR_SUSPECT_LINK";
		f->severity = SEV_CRITICAL;
	}
	pt_counters(&x->t, f->comp, &f->counters);
	if (f->comp != s->comp)
		pt_counters(&x->t, s->comp, &f->counters);
	buf_addf(&f->summary, "%s%d of %zu failing pairs %s %s; %d of %zu "
		 "passing pairs do", s->weak ? "weak evidence: " : "",
		 s->fail, x->pm.nfail,
		 x->pm.comp[f->comp].kind == PC_NODE ? "involve" : "cross",
		 x->pm.comp[f->comp].name, s->pass, x->pm.npass);
	if (s->nequiv && strcmp(f->rule, "PAIR_AMBIGUOUS"))
		buf_addf(&f->summary, " (%s: on exactly the same pairs)",
			 x->pm.comp[f->comp == s->comp ? s->equiv[0] :
				    s->comp].name);
	if (!strcmp(f->rule, "PAIR_AMBIGUOUS")) {
		int n = s->nalt + s->nequiv;

		buf_addf(&f->summary, "; %d other component%s explain%s them "
			 "as well", n, n == 1 ? "" : "s", n == 1 ? "s" : "");
		if (s->split.a >= 0)
			buf_addf(&f->summary, "; test %s <-> %s next: it "
				 "crosses %s only",
				 x->t.ep[s->split.a].label,
				 x->t.ep[s->split.b].label,
				 x->pm.comp[s->split.crosses].name);
		else
			buf_addf(&f->summary, "; no untested pair tells them "
				 "apart");
	}
}

static int worst(const struct pctx *x)
{
	int i, w = -1;

	for (i = 0; i < x->nf; i++)
		if (x->f[i].severity > w)
			w = x->f[i].severity;
	return w == SEV_CRITICAL ? 2 : w == SEV_WARNING ? 1 : 0;
}

static const char *topo_name(int k)
{
	return k == PT_FABRIC ? "fabric" : k == PT_MAD ? "mad" : "none";
}

/* the failing results no suspect explains: noise, or a fault too weak to
 * name; where each would be, the strongest evidence first */
static void print_unexplained(const struct pctx *x)
{
	int i, k, shown, named, n = x->pm.nunx < UNEXPLAINED_TEXT ?
		x->pm.nunx : UNEXPLAINED_TEXT;

	printf("# %zu failing result%s explained by no component (noise, or "
	       "a fault too weak to name); on %s path%s, the strongest "
	       "evidence first:\n", x->pm.unexplained,
	       x->pm.unexplained == 1 ? "" : "s",
	       x->pm.unexplained == 1 ? "its" : "their",
	       x->pm.unexplained == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		const struct punexpl *u = &x->pm.unx[i];
		const struct pobs *ob = &x->pm.obs[u->obs];

		printf("  %s -> %s:", x->t.ep[ob->a].label,
		       x->t.ep[ob->b].label);
		/* each one suspect once: a host and its only cable are */
		for (k = shown = named = 0; k < u->ncomp; k++) {
			int c = u->comp[k], d;

			for (d = 0; d < k && !pm_alike(&x->pm, u->comp[d], c); d++)
				;
			if (d < k)
				continue;
			if (shown++ == UNEXPLAINED_COMPS)
				continue;
			printf("%s %s %s (%d failing, %d passing)",
			       named++ ? "," : "", kind_names[x->pm.comp[c].kind],
			       x->pm.comp[c].name, x->pm.fail_n[c],
			       x->pm.pass_n[c]);
		}
		if (shown > named)
			printf(" and %d more", shown - named);
		if (u->split.a >= 0)
			printf("; test %s <-> %s next: it crosses %s only",
			       x->t.ep[u->split.a].label,
			       x->t.ep[u->split.b].label,
			       x->pm.comp[u->split.crosses].name);
		printf("\n");
	}
	if (x->pm.unexplained > (size_t)n)
		printf("  and %zu more (--json lists %d)\n",
		       x->pm.unexplained - (size_t)n, x->pm.nunx);
}

/* --- text --- */

static void print_lines(const char *prefix, const char *lines)
{
	const char *p = lines;

	while (*p) {
		const char *nl = strchrnul(p, '\n');

		printf("%s%.*s\n", prefix, (int)(nl - p), p);
		p = *nl ? nl + 1 : nl;
	}
}

static void print_text(struct pctx *x)
{
	const struct pinputs *in = &x->in;
	int i, k;

	printf("# pairs: %zu results (%zu passing, %zu failing of which %zu "
	       "degraded) from csv %zu, nccl %zu, perftest %zu\n",
	       x->pm.nobs, x->pm.npass, x->pm.nfail, x->degraded,
	       in->used[PIN_CSV], in->used[PIN_NCCL], in->used[PIN_PERFTEST]);
	if (x->t.kind == PT_FABRIC)
		printf("# topology: fabric scan of %s (%d nodes): routes from "
		       "the forwarding tables\n", x->t.scan_from,
		       x->t.scan_nodes);
	else if (x->t.kind == PT_MAD)
		printf("# topology: host-switch cables from the mad source (no "
		       "fabric scan)\n");
	else
		printf("# topology: none (nodes and HCAs only)\n");
	if (in->unresolved || in->ambiguous)
		printf("# %zu results name an unknown node, %zu an ambiguous "
		       "one (first: %s)\n", in->unresolved, in->ambiguous,
		       in->first_unresolved);
	if (in->unrouted)
		printf("# %zu results have no route in the forwarding tables\n",
		       in->unrouted);
	if (in->bad_lines)
		printf("# %zu lines of the results were not pair results\n",
		       in->bad_lines);
	if (in->host_only)
		printf("# %zu results placed on a host, not an HCA: the CSV "
		       "names none of the host's HCAs\n", in->host_only);
	printf("# method %s, noise rate %.3g\n", x->method == PM_TOMOGRAPHY ?
	       "tomography" : "best", x->pm.noise);
	if (!x->pm.nfail)
		printf("no failing pairs\n");
	for (i = 0; i < x->nf; i++) {
		const struct pfinding *f = &x->f[i];
		const struct psuspect *s = f->s;

		printf("%-8s %-20s %s\n", severity_name(f->severity), f->rule,
		       x->pm.comp[f->comp].name);
		printf("  %s\n", f->summary.buf);
		for (k = 0; k < s->nalt; k++)
			printf("  or %s %s: %d failing, %d passing pairs\n",
			       kind_names[x->pm.comp[s->alt[k]].kind],
			       x->pm.comp[s->alt[k]].name,
			       x->pm.fail_n[s->alt[k]], x->pm.pass_n[s->alt[k]]);
		for (k = 0; k < s->nequiv; k++)
			if (s->equiv[k] != f->comp)
				printf("  same pairs: %s %s\n",
				       kind_names[x->pm.comp[s->equiv[k]].kind],
				       x->pm.comp[s->equiv[k]].name);
		if (f->comp != s->comp)
			printf("  same pairs: %s %s\n",
			       kind_names[x->pm.comp[s->comp].kind],
			       x->pm.comp[s->comp].name);
		if (f->counters.len)
			print_lines("  counter: ", f->counters.buf);
		else if (x->t.kind != PT_NONE)
			printf("  counter: no error counted on it in the "
			       "bundles\n");
	}
	if (x->pm.nfail && x->pm.unexplained)
		print_unexplained(x);
}

/* --- JSON --- */

static void json_ends(struct json *j, const struct pcomp *p)
{
	int k;

	for (k = 0; k < 2; k++) {
		if (!p->guid[k][0])
			continue;
		json_obj_open(j, NULL);
		json_str(j, "guid", p->guid[k]);
		if (p->port[k] >= 0)
			json_int(j, "port", p->port[k]);
		else
			json_null(j, "port");
		json_obj_close(j);
	}
}

static void json_comp(struct json *j, const struct pctx *x, int c, int counts)
{
	const struct pcomp *p = &x->pm.comp[c];

	json_obj_open(j, NULL);
	json_str(j, "component", p->name);
	json_str(j, "kind", kind_names[p->kind]);
	json_str(j, "key", p->key);
	if (counts) {
		json_int(j, "failing_through", x->pm.fail_n[c]);
		json_int(j, "passing_through", x->pm.pass_n[c]);
	}
	json_arr_open(j, "ends");
	json_ends(j, p);
	json_arr_close(j);
	json_str(j, "host", p->host >= 0 ? x->t.host[p->host].name : NULL);
	json_obj_close(j);
}

static void json_split(struct json *j, const struct pctx *x,
		       const struct psplit *sp)
{
	if (sp->a < 0) {
		json_null(j, "split");
		return;
	}
	json_obj_open(j, "split");
	json_str(j, "src", x->t.ep[sp->a].label);
	json_str(j, "dst", x->t.ep[sp->b].label);
	json_str(j, "crosses", x->pm.comp[sp->crosses].name);
	json_str(j, "crosses_key", x->pm.comp[sp->crosses].key);
	json_obj_close(j);
}

static void json_finding(struct json *j, const struct pctx *x,
			 const struct pfinding *f, int rank)
{
	const struct psuspect *s = f->s;
	const struct pcomp *p = &x->pm.comp[f->comp];
	const char *l;
	char num[32];
	int k;

	json_obj_open(j, NULL);
	json_int(j, "rank", rank);
	json_str(j, "rule", f->rule);
	json_str(j, "severity", severity_name(f->severity));
	json_str(j, "component", p->name);
	json_str(j, "kind", kind_names[p->kind]);
	json_str(j, "key", p->key);
	json_str(j, "summary", f->summary.buf);
	json_int(j, "failing_through", s->fail);
	json_int(j, "failing_total", (int64_t)x->pm.nfail);
	json_int(j, "passing_through", s->pass);
	json_int(j, "passing_total", (int64_t)x->pm.npass);
	json_int(j, "explained", s->explained);
	json_bool(j, "weak", s->weak);
	snprintf(num, sizeof(num), "%.3f", s->score);
	json_raw(j, "score", num);
	json_arr_open(j, "ends");
	json_ends(j, p);
	json_arr_close(j);
	json_str(j, "host", p->host >= 0 ? x->t.host[p->host].name : NULL);
	/* the rest of its class: crossed by exactly the same pairs */
	json_arr_open(j, "equivalent");
	if (f->comp != s->comp)
		json_comp(j, x, s->comp, 1);
	for (k = 0; k < s->nequiv; k++)
		if (s->equiv[k] != f->comp)
			json_comp(j, x, s->equiv[k], 1);
	json_arr_close(j);
	json_arr_open(j, "alternatives");
	for (k = 0; k < s->nalt; k++)
		json_comp(j, x, s->alt[k], 1);
	json_arr_close(j);
	json_split(j, x, &s->split);
	json_arr_open(j, "counters");
	for (l = f->counters.buf; *l;) {
		const char *nl = strchrnul(l, '\n');

		json_strn(j, NULL, l, (size_t)(nl - l));
		l = *nl ? nl + 1 : nl;
	}
	json_arr_close(j);
	json_obj_close(j);
}

static void print_json(struct pctx *x)
{
	static const char *const src[PIN_NSOURCES] = { "csv", "nccl",
						      "perftest" };
	const struct pinputs *in = &x->in;
	struct buf out = BUF_INIT;
	struct json j;
	char num[32];
	int i;

	json_init(&j, &out, 1);
	json_obj_open(&j, NULL);
	json_int(&j, "version", 1);
	json_str(&j, "method", x->method == PM_TOMOGRAPHY ? "tomography" :
		 "best");
	json_obj_open(&j, "topology");
	json_str(&j, "kind", topo_name(x->t.kind));
	json_str(&j, "scan", x->t.kind == PT_FABRIC ? x->t.scan_from : NULL);
	json_int(&j, "hosts", x->t.nhost);
	json_int(&j, "endpoints", x->t.nep);
	json_int(&j, "components", x->pm.ncomp);
	json_obj_close(&j);
	json_obj_open(&j, "inputs");
	for (i = 0; i < PIN_NSOURCES; i++) {
		json_obj_open(&j, src[i]);
		json_uint(&j, "rows", in->rows[i]);
		json_uint(&j, "used", in->used[i]);
		if (i == PIN_CSV)
			json_uint(&j, "host_only", in->host_only);
		json_obj_close(&j);
	}
	json_uint(&j, "unresolved", in->unresolved);
	json_uint(&j, "ambiguous", in->ambiguous);
	json_uint(&j, "unrouted", in->unrouted);
	json_uint(&j, "same_host", in->same_host);
	json_uint(&j, "bad_lines", in->bad_lines);
	json_obj_close(&j);
	json_obj_open(&j, "results");
	json_uint(&j, "total", x->pm.nobs);
	json_uint(&j, "passing", x->pm.npass);
	json_uint(&j, "failing", x->pm.nfail);
	json_uint(&j, "degraded", x->degraded);
	json_uint(&j, "unexplained", x->pm.unexplained);
	json_obj_close(&j);
	snprintf(num, sizeof(num), "%.4g", x->pm.noise);
	json_raw(&j, "noise_rate", num);
	json_obj_open(&j, "timing_ms");
	json_int(&j, "load", x->load_ms);
	json_int(&j, "localize", x->localize_ms);
	json_obj_close(&j);
	json_arr_open(&j, "suspects");
	for (i = 0; i < x->nf; i++)
		json_finding(&j, x, &x->f[i], i + 1);
	json_arr_close(&j);
	json_arr_open(&j, "unexplained");
	for (i = 0; i < x->pm.nunx; i++) {
		const struct punexpl *u = &x->pm.unx[i];
		const struct pobs *ob = &x->pm.obs[u->obs];
		int k;

		json_obj_open(&j, NULL);
		json_str(&j, "src", x->t.ep[ob->a].label);
		json_str(&j, "dst", x->t.ep[ob->b].label);
		snprintf(num, sizeof(num), "%.3f", u->score);
		json_raw(&j, "score", num);
		json_arr_open(&j, "components");
		for (k = 0; k < u->ncomp; k++)
			json_comp(&j, x, u->comp[k], 1);
		json_arr_close(&j);
		json_split(&j, x, &u->split);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_obj_close(&j);
	json_end(&j);
	/* the decoded NCCL errors, spliced in before the closing brace */
	if (in->nccl.len && out.len > 2) {
		out.len -= 2;
		buf_addstr(&out, ",\n  \"nccl_errors\": [");
		buf_add(&out, in->nccl.buf, in->nccl.len - 1);
		buf_addstr(&out, "]\n}\n");
	}
	fwrite(out.buf, 1, out.len, stdout);
	buf_release(&out);
}

/* what could not be read of the inputs, one warning a line */
static void print_notes(const char *p)
{
	while (*p) {
		const char *nl = strchrnul(p, '\n');

		warning("pairs: %.*s", (int)(nl - p), p);
		p = *nl ? nl + 1 : nl;
	}
}

/* --- the run kept in the database, for the report (schema/005-pairs.sql)
 *
 * The findings go to `findings` (layer pairs) on one bundle each, so that
 * every report format lists them: a host's part on the host's newest
 * bundle; a fabric part on the newest bundle of the node that ran the
 * scan (its evidence); else on the first host with a bundle among the
 * failing pairs it explains.  A finding no bundle can hold is only in
 * pair_suspects. */

struct pcell {
	int a, b;		/* hosts, a's name sorting first */
	int outcome, sus;	/* sus: rank of its suspect, 0 none */
};

static int pcell_cmp(const void *x, const void *y)
{
	const struct pcell *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return p->b < q->b ? -1 : p->b > q->b;
}

static int64_t finding_bundle(struct pctx *x, const struct pfinding *f,
			      const int *sus_of)
{
	const struct pcomp *c = &x->pm.comp[f->comp];
	int rank = (int)(f - x->f) + 1;
	size_t o;

	if (c->host >= 0 && x->t.host[c->host].bundle)
		return x->t.host[c->host].bundle;
	if (x->t.kind == PT_FABRIC && x->t.scan)
		return db_int(x->t.db, "SELECT b2.id FROM bundles b JOIN "
			      "bundles b2 ON b2.node_id = b.node_id WHERE b.id "
			      "= ? ORDER BY b2.collected_at DESC, b2.id DESC "
			      "LIMIT 1", "i", x->t.scan);
	for (o = 0; o < x->pm.nobs; o++) {
		const struct pobs *ob = &x->pm.obs[o];
		int64_t b = x->t.host[x->t.ep[ob->a].host].bundle;

		if (sus_of[o] == rank && !b)
			b = x->t.host[x->t.ep[ob->b].host].bundle;
		if (sus_of[o] == rank && b)
			return b;
	}
	return 0;
}

static int64_t store_finding(struct pctx *x, const struct pfinding *f,
			     int64_t bundle, const char *results,
			     const char *run)
{
	const struct rule *r = rule_find(f->rule);
	const struct psuspect *s = f->s;
	const char *l;
	int64_t fid;
	int k;

	if (db_exec(x->t.db, "INSERT INTO findings (bundle_id, rule, layer, "
		    "severity, component, summary, remediation) VALUES (?, ?, "
		    "'pairs', ?, ?, ?, ?)", "isisss", bundle, f->rule,
		    (int64_t)f->severity, x->pm.comp[f->comp].name,
		    f->summary.buf, r ? r->remediation : NULL) < 0)
		return -1;
	fid = sqlite3_last_insert_rowid(x->t.db);
	db_exec(x->t.db, "INSERT INTO finding_evidence VALUES (?, ?, ?)", "iss",
		fid, results ? results : "rdma-analyze pairs", run);
	for (k = 0; k < s->nalt; k++) {
		char v[1100];

		snprintf(v, sizeof(v), "or %s %s: %d failing, %d passing pairs",
			 kind_names[x->pm.comp[s->alt[k]].kind],
			 x->pm.comp[s->alt[k]].name, x->pm.fail_n[s->alt[k]],
			 x->pm.pass_n[s->alt[k]]);
		db_exec(x->t.db, "INSERT INTO finding_evidence VALUES (?, "
			"'alternative', ?)", "is", fid, v);
	}
	for (l = f->counters.buf; *l;) {
		const char *nl = strchrnul(l, '\n');
		char *v = xstrndup(l, (size_t)(nl - l));

		db_exec(x->t.db, "INSERT INTO finding_evidence VALUES (?, "
			"'counters', ?)", "is", fid, v);
		free(v);
		l = *nl ? nl + 1 : nl;
	}
	return fid;
}

static int store_suspects(struct pctx *x, const int *sus_of,
			  const char *results, const char *run)
{
	int i;

	for (i = 0; i < x->nf; i++) {
		const struct pfinding *f = &x->f[i];
		const struct pcomp *c = &x->pm.comp[f->comp];
		int64_t b = finding_bundle(x, f, sus_of), fid = -1;

		if (b && (fid = store_finding(x, f, b, results, run)) < 0)
			return -1;
		if (db_exec(x->t.db, "INSERT INTO pair_suspects VALUES (?, ?, ?, "
			    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", "isisssssNsNiiiN",
			    (int64_t)i + 1, f->rule, (int64_t)f->severity,
			    kind_names[c->kind], c->key, c->name,
			    c->host >= 0 ? x->t.host[c->host].name : NULL,
			    c->guid[0][0] ? c->guid[0] : NULL,
			    (int64_t)(c->guid[0][0] ? c->port[0] : -1),
			    c->guid[1][0] ? c->guid[1] : NULL,
			    (int64_t)(c->guid[1][0] ? c->port[1] : -1),
			    (int64_t)f->s->fail, (int64_t)f->s->pass,
			    (int64_t)f->s->weak, fid) < 0)
			return -1;
	}
	return 0;
}

/* the hosts and the cells of host pairs */
static int store_cells(struct pctx *x, const int *sus_of)
{
	struct pcell *cell = xcalloc(x->pm.nobs + 1, sizeof(*cell));
	size_t o, n = 0, i, j;
	int h, e, rc = 0;

	for (h = 0; h < x->t.nhost && !rc; h++) {
		const char *leaf = NULL;

		for (e = 0; e < x->t.nep && !leaf; e++)
			if (x->t.ep[e].host == h && x->t.ep[e].cable >= 0 &&
			    x->pm.comp[x->t.ep[e].cable].guid[1][0])
				leaf = x->pm.comp[x->t.ep[e].cable].guid[1];
		rc = db_exec(x->t.db, "INSERT OR IGNORE INTO pair_hosts VALUES "
			     "(?, ?, ?)", "ssN", x->t.host[h].name, leaf,
			     x->t.host[h].bundle ? x->t.host[h].bundle : -1);
	}
	for (o = 0; o < x->pm.nobs; o++) {
		const struct pobs *ob = &x->pm.obs[o];
		int a = x->t.ep[ob->a].host, b = x->t.ep[ob->b].host;

		if (a == b)
			continue;
		if (strcmp(x->t.host[a].name, x->t.host[b].name) > 0) {
			int t = a;

			a = b;
			b = t;
		}
		cell[n++] = (struct pcell){ a, b, ob->outcome, sus_of[o] };
	}
	qsort(cell, n, sizeof(*cell), pcell_cmp);
	for (i = 0; i < n && !rc; i = j) {
		int64_t cnt[3] = { 0, 0, 0 }, sus = -1;

		for (j = i; j < n && !pcell_cmp(&cell[i], &cell[j]); j++) {
			cnt[cell[j].outcome]++;
			if (sus < 0 && cell[j].sus)
				sus = cell[j].sus;
		}
		rc = db_exec(x->t.db, "INSERT OR REPLACE INTO pair_cells VALUES "
			     "(?, ?, ?, ?, ?, ?)", "ssiiiN",
			     x->t.host[cell[i].a].name, x->t.host[cell[i].b].name,
			     cnt[PO_OK], cnt[PO_FAIL], cnt[PO_DEGRADED], sus);
	}
	free(cell);
	return rc;
}

/* replace the stored run with this one; a database that cannot be
 * written (read-only, locked) costs a warning, not the answer */
static void store_run(struct pctx *x, const char *results)
{
	sqlite3 *db = x->t.db;
	int *sus_of = xcalloc(x->pm.nobs + 1, sizeof(*sus_of));
	struct buf run = BUF_INIT;
	size_t o;
	int i, rc;

	buf_addf(&run, "%zu pair results, %zu passing, %zu failing (%zu "
		 "degraded) from csv %zu, nccl %zu, perftest %zu; topology %s, "
		 "method %s", x->pm.nobs, x->pm.npass, x->pm.nfail, x->degraded,
		 x->in.used[PIN_CSV], x->in.used[PIN_NCCL],
		 x->in.used[PIN_PERFTEST], topo_name(x->t.kind),
		 x->method == PM_TOMOGRAPHY ? "tomography" : "best");

	/* each failing result to the first suspect crossing it, as the
	 * engine explains them */
	for (o = 0; o < x->pm.nobs; o++)
		for (i = 0; x->pm.obs[o].outcome != PO_OK && i < x->nf; i++)
			if (pm_obs_has(&x->pm, o, x->f[i].s->comp)) {
				sus_of[o] = i + 1;
				break;
			}
	rc = db_run(db, "BEGIN");
	if (!rc)
		rc = db_run(db, "DELETE FROM finding_evidence WHERE finding_id IN "
			    "(SELECT id FROM findings WHERE layer = 'pairs'); "
			    "DELETE FROM findings WHERE layer = 'pairs'; DELETE "
			    "FROM pair_runs; DELETE FROM pair_hosts; DELETE FROM "
			    "pair_cells; DELETE FROM pair_suspects");
	if (!rc)
		rc = db_exec(db, "INSERT INTO pair_runs VALUES (1, ?, ?, ?, ?, ?, "
			     "?, ?)", "ssNiiid", x->method == PM_TOMOGRAPHY ?
			     "tomography" : "best", topo_name(x->t.kind),
			     x->t.kind == PT_FABRIC ? x->t.scan : -1,
			     (int64_t)x->pm.nobs, (int64_t)x->pm.nfail,
			     (int64_t)x->degraded, x->pm.noise);
	if (!rc)
		rc = store_cells(x, sus_of);
	if (!rc)
		rc = store_suspects(x, sus_of, results, run.buf);
	if (rc || db_run(db, "COMMIT") < 0) {
		db_run(db, "ROLLBACK");
		warning("pairs: the run could not be kept in the database (the "
			"report will not show it)");
	}
	buf_release(&run);
	free(sus_of);
}

static void pctx_release(struct pctx *x)
{
	int i;

	for (i = 0; i < x->nf; i++) {
		buf_release(&x->f[i].summary);
		buf_release(&x->f[i].counters);
	}
	free(x->f);
	pin_release(&x->in);
	pt_release(&x->t);
	pm_release(&x->pm);
}

int pairs_run(const char *file, const char *results, enum pm_method method,
	      int json)
{
	struct pctx x;
	sqlite3 *db;
	int rc = 0, i;
	int64_t t0;
	size_t o;

	memset(&x, 0, sizeof(x));
	x.method = method;
	/* db_open would create a missing file */
	if (access(file, R_OK)) {
		error("cannot open database '%s': %s", file, strerror(errno));
		return EXIT_INPUT;
	}
	db = db_open(file);
	if (!db)
		return EXIT_INPUT;
	t0 = mono_ms();
	pm_init(&x.pm);
	pin_init(&x.in);
	pt_load(&x.t, db, &x.pm);
	if (results && pin_csv(&x.t, &x.in, results) < 0)
		rc = EXIT_INPUT;
	if (!rc) {
		pin_nccl(&x.t, &x.in);
		pin_perftest(&x.t, &x.in);
	}
	x.load_ms = mono_ms() - t0;
	if (!rc) {
		t0 = mono_ms();
		pm_localize(&x.pm, x.method);
		for (i = 0; i < x.pm.nsus; i++)
			pm_split(&x.pm, x.pm.sus[i].comp,
				 split_target(&x, &x.pm.sus[i]), x.t.nep,
				 pt_path, &x.t, PM_SPLIT_BUDGET, 0,
				 &x.pm.sus[i].split);
		for (i = 0; i < x.pm.nunx; i++)
			pm_split(&x.pm, x.pm.unx[i].comp[0],
				 pm_unexpl_rival(&x.pm, &x.pm.unx[i]), x.t.nep,
				 pt_path, &x.t,
				 PM_SPLIT_BUDGET / PM_UNEXPLAINED_MAX, 1,
				 &x.pm.unx[i].split);
		x.localize_ms = mono_ms() - t0;
		for (o = 0; o < x.pm.nobs; o++)
			x.degraded += x.pm.obs[o].outcome == PO_DEGRADED;
		x.f = xcalloc((size_t)x.pm.nsus + 1, sizeof(*x.f));
		for (i = 0; i < x.pm.nsus; i++)
			finding_of(&x, &x.pm.sus[i], &x.f[x.nf++]);
		print_notes(x.in.notes.buf);
		store_run(&x, results);
		if (json)
			print_json(&x);
		else
			print_text(&x);
		rc = worst(&x);
	}
	pctx_release(&x);
	db_close(db);
	return rc;
}
