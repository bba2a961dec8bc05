/* pairs: the localization engine (see pairs.h); no SQL, no output */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "pairs.h"
#include "util.h"

#define NOISE_START 0.01	/* the noise rate of the first round */
#define NOISE_MIN 0.001
#define NOISE_MAX 0.2
#define NOISE_PRIOR 50.0	/* results the a-priori rate weighs */
#define NOISE_HOSTS 4		/* hosts needed to estimate the noise */
#define NOISE_HOST_RESULTS 8	/* results a host needs to count */
#define MAX_PICKS 64		/* suspects at most: more is no diagnosis */
#define MAX_WEAK 3		/* weak suspects at most */
#define ALT_MARGIN 2.0		/* log-likelihood: "nearly as well" */
#define ALT_CANDIDATES 32
#define ALT_PARTS 64		/* a coarse suspect's parts among them at most */
#define NOISE_ROUNDS 6		/* noise re-estimates at most */
#define NOISE_SETTLED 0.05	/* |log| change of the rate that ends them */
#define EM_ROUNDS 200		/* rounds of the joint rates at most */
#define EM_SETTLED 1e-6		/* the largest change of a rate that ends them */

/* --- string map --- */

void smap_init(struct smap *m)
{
	memset(m, 0, sizeof(*m));
}

void smap_release(struct smap *m)
{
	size_t i;

	for (i = 0; i < m->size; i++)
		free(m->key[i]);
	free(m->key);
	free(m->val);
	smap_init(m);
}

static size_t smap_slot(const struct smap *m, const char *key)
{
	size_t i = (size_t)fnv1a_str(FNV1A_INIT, key) & (m->size - 1);

	while (m->key[i] && strcmp(m->key[i], key))
		i = (i + 1) & (m->size - 1);
	return i;
}

int smap_get(const struct smap *m, const char *key)
{
	size_t i;

	if (!m->size)
		return -1;
	i = smap_slot(m, key);
	return m->key[i] ? m->val[i] : -1;
}

static void smap_grow(struct smap *m)
{
	struct smap n;
	size_t i, j;

	n.size = m->size ? m->size * 2 : 64;
	n.n = m->n;
	n.key = xcalloc(n.size, sizeof(*n.key));
	n.val = xcalloc(n.size, sizeof(*n.val));
	for (i = 0; i < m->size; i++) {
		if (!m->key[i])
			continue;
		j = smap_slot(&n, m->key[i]);
		n.key[j] = m->key[i];
		n.val[j] = m->val[i];
	}
	free(m->key);
	free(m->val);
	*m = n;
}

void smap_put(struct smap *m, const char *key, int val)
{
	size_t i;

	if ((m->n + 1) * 2 > m->size)
		smap_grow(m);
	i = smap_slot(m, key);
	if (!m->key[i]) {
		m->key[i] = xstrdup(key);
		m->n++;
	}
	m->val[i] = val;
}

/* --- the model --- */

void pm_init(struct pmodel *pm)
{
	memset(pm, 0, sizeof(*pm));
	smap_init(&pm->keys);
}

static void suspects_free(struct pmodel *pm)
{
	int i;

	for (i = 0; i < pm->nsus; i++) {
		free(pm->sus[i].equiv);
		free(pm->sus[i].alt);
	}
	free(pm->sus);
	pm->sus = NULL;
	pm->nsus = 0;
	for (i = 0; i < pm->nunx; i++)
		free(pm->unx[i].comp);
	free(pm->unx);
	pm->unx = NULL;
	pm->nunx = 0;
}

void pm_release(struct pmodel *pm)
{
	int i;

	if (!pm)
		return;
	for (i = 0; i < pm->ncomp; i++) {
		free(pm->comp[i].key);
		free(pm->comp[i].name);
	}
	free(pm->comp);
	smap_release(&pm->keys);
	free(pm->obs);
	free(pm->oc);
	free(pm->coff);
	free(pm->co);
	free(pm->fail_n);
	free(pm->pass_n);
	free(pm->cost);
	free(pm->slot);
	free(pm->ocnt);
	free(pm->tested);
	suspects_free(pm);
	pm_init(pm);
}

int pm_comp(struct pmodel *pm, int kind, const char *key, const char *name)
{
	int c = smap_get(&pm->keys, key);
	struct pcomp *p;

	if (c >= 0)
		return c;
	if (pm->ncomp == pm->acomp) {
		pm->acomp = pm->acomp ? pm->acomp * 2 : 256;
		pm->comp = xrealloc(pm->comp, (size_t)pm->acomp * sizeof(*pm->comp));
	}
	c = pm->ncomp++;
	p = &pm->comp[c];
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->key = xstrdup(key);
	p->name = xstrdup(name);
	p->port[0] = p->port[1] = -1;
	p->host = -1;
	smap_put(&pm->keys, key, c);
	return c;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

void pm_obs(struct pmodel *pm, int a, int b, int outcome, int source,
	    const int *comps, int n)
{
	struct pobs *o;
	int *dst, i, k = 0;

	if (pm->nobs == pm->aobs) {
		pm->aobs = pm->aobs ? pm->aobs * 2 : 1024;
		pm->obs = xrealloc(pm->obs, pm->aobs * sizeof(*pm->obs));
	}
	while (pm->noc + (size_t)n > pm->aoc) {
		pm->aoc = pm->aoc ? pm->aoc * 2 : 8192;
		pm->oc = xrealloc(pm->oc, pm->aoc * sizeof(*pm->oc));
	}
	dst = pm->oc + pm->noc;
	memcpy(dst, comps, (size_t)n * sizeof(*dst));
	qsort(dst, (size_t)n, sizeof(*dst), cmp_int);
	for (i = 0; i < n; i++)
		if (!k || dst[k - 1] != dst[i])
			dst[k++] = dst[i];
	o = &pm->obs[pm->nobs++];
	o->a = a;
	o->b = b;
	o->outcome = outcome;
	o->source = source;
	o->off = (uint32_t)pm->noc;
	o->n = (uint32_t)k;
	pm->noc += (size_t)k;
}

int pm_obs_has(const struct pmodel *pm, size_t o, int c)
{
	const int *v = pm->oc + pm->obs[o].off;
	size_t lo = 0, hi = pm->obs[o].n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (v[mid] == c)
			return 1;
		if (v[mid] < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static int failing(const struct pobs *o)
{
	return o->outcome != PO_OK;
}

/* the a-priori odds against a kind, as a log: host-side parts (the HCA,
 * its cable, the host) fail far more often than an inter-switch cable or
 * a whole switch, and one direction of a cable is one transmitter among
 * the many of a fabric (a fat tree has four switch transmitters a host,
 * the four parts of a host's side one each).  Without it a flaky host
 * loses to the spine port carrying most of its pairs (a subset of its
 * results, so by chance often the worse one).  A whole switch failing
 * some of its traffic is rarer still than two or three of its cables
 * failing: at 1.5 a spine took its two failing links on a ring, where
 * one suspect is cheaper than two */
static double kind_cost(int kind)
{
	static const double cost[PC_NKINDS] = {
		[PC_CABLE] = 0, [PC_LINK] = 0.5, [PC_HALF] = 1.0,
		[PC_HCA] = 0, [PC_NODE] = 0, [PC_SWITCH] = 3.0,
	};

	return cost[kind];
}

static uint64_t obs_hash(const struct pmodel *pm, int c)
{
	uint64_t h = FNV1A_INIT;
	uint32_t i;

	for (i = pm->coff[c]; i < pm->coff[c + 1]; i++)
		h = fnv1a_word(h, (uint32_t)pm->co[i]);
	return h;
}

static const struct pmodel *sort_pm;
static const uint64_t *sort_hash;

static int cmp_class(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	uint32_t nx = sort_pm->coff[x + 1] - sort_pm->coff[x];
	uint32_t ny = sort_pm->coff[y + 1] - sort_pm->coff[y];

	if (sort_hash[x] != sort_hash[y])
		return sort_hash[x] < sort_hash[y] ? -1 : 1;
	if (nx != ny)
		return nx < ny ? -1 : 1;
	return (x > y) - (x < y);
}

static int same_obs(const struct pmodel *pm, int x, int y)
{
	uint32_t n = pm->coff[x + 1] - pm->coff[x];

	return n == pm->coff[y + 1] - pm->coff[y] &&
	       !memcmp(pm->co + pm->coff[x], pm->co + pm->coff[y],
		       n * sizeof(*pm->co));
}

static int same_cable(const struct pcomp *c, const struct pcomp *d)
{
	int k;

	for (k = 0; k < 2; k++)
		if (!strcmp(c->guid[0], d->guid[k]) && c->port[0] == d->port[k] &&
		    !strcmp(c->guid[1], d->guid[!k]) && c->port[1] == d->port[!k])
			return 1;
	return 0;
}

/* is d a part of the same thing as c, one no pair test of any coverage
 * could tell from it: a host's node, HCA ports and cables, or an
 * inter-switch cable and its two directions? */
static int same_part(const struct pcomp *c, const struct pcomp *d)
{
	if (c->host >= 0)
		return d->host == c->host;
	return (c->kind == PC_LINK || c->kind == PC_HALF) &&
	       (d->kind == PC_LINK || d->kind == PC_HALF) && same_cable(c, d);
}

/* the cost of naming c is the odds against it and the parts of the same
 * thing its results cannot tell from it: with one rail a host, its HCA
 * port and its cable are one suspect as likely as the three together.
 * Other members of its class (four directions of four cables crossed by
 * one ring test) do not add to its odds: naming c is right only when c
 * is the fault, and the class is no likelier to be c for being large */
static void class_costs(struct pmodel *pm)
{
	uint64_t *h = xmalloc(((size_t)pm->ncomp + 1) * sizeof(*h));
	int *ord = xmalloc(((size_t)pm->ncomp + 1) * sizeof(*ord));
	int i, j, k, m;

	free(pm->cost);
	pm->cost = xmalloc(((size_t)pm->ncomp + 1) * sizeof(*pm->cost));
	for (i = 0; i < pm->ncomp; i++) {
		h[i] = obs_hash(pm, i);
		ord[i] = i;
	}
	sort_pm = pm;
	sort_hash = h;
	qsort(ord, (size_t)pm->ncomp, sizeof(*ord), cmp_class);
	for (i = 0; i < pm->ncomp; i = j) {
		/* a hash collision only splits a class: members are compared;
		 * a class shares its results, so it is no larger than the
		 * components of one result's path */
		for (j = i; j < pm->ncomp && h[ord[j]] == h[ord[i]] &&
			    same_obs(pm, ord[i], ord[j]); j++)
			;
		for (k = i; k < j; k++) {
			const struct pcomp *c = &pm->comp[ord[k]];
			double odds = 0;

			if (pm->coff[ord[k] + 1] == pm->coff[ord[k]]) {
				pm->cost[ord[k]] = kind_cost(c->kind);
				continue;
			}
			for (m = i; m < j; m++)
				if (m == k || same_part(c, &pm->comp[ord[m]]))
					odds += exp(-kind_cost(pm->comp[ord[m]].kind));
			pm->cost[ord[k]] = -log(odds);
		}
	}
	free(h);
	free(ord);
}

static double prior_cost(const struct pmodel *pm, int c)
{
	return pm->cost[c];
}

/* component -> observations, and the counts through each component */
static void build_index(struct pmodel *pm)
{
	size_t o, i, nc = (size_t)pm->ncomp;
	uint32_t *fill;

	free(pm->coff);
	free(pm->co);
	free(pm->fail_n);
	free(pm->pass_n);
	free(pm->slot);
	free(pm->ocnt);
	pm->slot = xmalloc((nc + 1) * sizeof(*pm->slot));
	for (i = 0; i <= nc; i++)
		pm->slot[i] = -1;
	pm->ocnt = xcalloc(pm->nobs + 1, sizeof(*pm->ocnt));
	pm->coff = xcalloc(nc + 1, sizeof(*pm->coff));
	pm->fail_n = xcalloc(nc + 1, sizeof(*pm->fail_n));
	pm->pass_n = xcalloc(nc + 1, sizeof(*pm->pass_n));
	pm->nfail = pm->npass = 0;
	for (o = 0; o < pm->nobs; o++) {
		const struct pobs *ob = &pm->obs[o];

		if (failing(ob))
			pm->nfail++;
		else
			pm->npass++;
		for (i = 0; i < ob->n; i++) {
			int c = pm->oc[ob->off + i];

			pm->coff[c + 1]++;
			if (failing(ob))
				pm->fail_n[c]++;
			else
				pm->pass_n[c]++;
		}
	}
	pm->pen = 1;
	for (i = 0; i < nc; i++)
		if (pm->fail_n[i])
			pm->pen++;
	pm->pen = log(pm->pen) + 1;
	for (i = 0; i < nc; i++)
		pm->coff[i + 1] += pm->coff[i];
	pm->co = xmalloc((pm->coff[nc] + 1) * sizeof(*pm->co));
	fill = xmalloc((nc + 1) * sizeof(*fill));
	memcpy(fill, pm->coff, (nc + 1) * sizeof(*fill));
	for (o = 0; o < pm->nobs; o++)
		for (i = 0; i < pm->obs[o].n; i++)
			pm->co[fill[pm->oc[pm->obs[o].off + i]]++] = (int)o;
	free(fill);
	class_costs(pm);
}

/* --- likelihoods --- */

/* the failure rate of a suspect, kept off 0 and 1 so that one flipped
 * outcome costs a finite amount */
static double rate(int f, int s)
{
	return (f + 0.5) / (f + s + 1.0);
}

/* log-likelihood ratio of "c fails its pairs at its own rate" against
 * "they fail at the noise rate e" */
static double llr(int f, int s, double e)
{
	double q = rate(f, s);

	if (f <= 0 || q <= e)
		return 0;
	return f * log(q / e) + s * log((1 - q) / (1 - e));
}

/* what one more suspect costs: the evidence must beat picking any of the
 * components on a failing path by chance */
static double penalty(const struct pmodel *pm)
{
	return pm->pen;
}

/* the log-likelihood of one result given the set (the components with
 * slot >= 0, failing at q[slot]): it passes when every suspect on its
 * path lets it through, and its outcome is flipped at the noise rate e
 * either way: a pass through two suspects that fail nearly everything is
 * one flipped outcome, not two unlikely passes (a hard link and the host
 * whose pairs its one direction carries) */
static double obs_ll(const struct pmodel *pm, size_t o, const int *slot,
		     const double *q, double e)
{
	const struct pobs *ob = &pm->obs[o];
	double ok = 1;
	uint32_t i;

	for (i = 0; i < ob->n; i++) {
		int k = slot[pm->oc[ob->off + i]];

		if (k >= 0)
			ok *= 1 - q[k];
	}
	ok = e + (1 - 2 * e) * ok;
	if (ok < 1e-12)
		ok = 1e-12;
	if (ok > 1 - 1e-12)
		ok = 1 - 1e-12;
	return failing(ob) ? log(1 - ok) : log(ok);
}

/* the failure rates of the set's members fitted together: a failing
 * result crossing several of them is shared out among them by their
 * rates, as expectation-maximisation of "it fails when one of them drops
 * it" would (each failing result is still a member's, as each member's
 * own failure ratio has it), rates smoothed as rate() smooths them.  Each
 * member's own ratio counts the failures of the others it shares results
 * with: a link and its own direction, both faulty, predicted that
 * direction's failures at both full rates, and the second never paid;
 * named with the host whose pairs its other direction carries, the link
 * lost to its one direction.  A member sharing no failing result keeps
 * its own ratio; in q[slot], at most EM_ROUNDS rounds */
static void joint_rates(const struct pmodel *pm, const int *set, int n,
			const int *slot, const size_t *multi, size_t nmulti,
			double *q)
{
	double *r = xmalloc(((size_t)n + 1) * sizeof(*r));
	int *alone = xcalloc((size_t)n + 1, sizeof(*alone));
	int *mem = xmalloc(((size_t)nmulti * 4 + 1) * sizeof(*mem));
	size_t *moff = xmalloc((nmulti + 1) * sizeof(*moff)), m, am = nmulti * 4;
	int i, round;

	/* each shared failing result's members, once */
	for (m = moff[0] = 0; m < nmulti; m++) {
		const struct pobs *ob = &pm->obs[multi[m]];
		size_t t = moff[m];
		uint32_t j;

		for (j = 0; j < ob->n; j++) {
			int k = slot[pm->oc[ob->off + j]];

			if (k < 0)
				continue;
			if (t == am) {
				am *= 2;
				mem = xrealloc(mem, am * sizeof(*mem));
			}
			mem[t++] = k;
			alone[k]--;
		}
		moff[m + 1] = t;
	}
	for (i = 0; i < n; i++) {
		alone[i] += pm->fail_n[set[i]];
		q[i] = rate(pm->fail_n[set[i]], pm->pass_n[set[i]]);
	}
	for (round = 0; nmulti && round < EM_ROUNDS; round++) {
		double moved = 0;

		for (i = 0; i < n; i++)
			r[i] = alone[i];
		for (m = 0; m < nmulti; m++) {
			double pass = 1, f;
			size_t t;

			for (t = moff[m]; t < moff[m + 1]; t++)
				pass *= 1 - q[mem[t]];
			f = 1 - pass;
			if (f < 1e-12)
				f = 1e-12;
			for (t = moff[m]; t < moff[m + 1]; t++)
				r[mem[t]] += q[mem[t]] / f;
		}
		for (i = 0; i < n; i++) {
			int c = set[i];
			double v = (r[i] + 0.5) / (pm->fail_n[c] + pm->pass_n[c] + 1.0);

			moved = fmax(moved, fabs(v - q[i]));
			q[i] = v;
		}
		if (moved < EM_SETTLED)
			break;
	}
	free(r);
	free(alone);
	free(mem);
	free(moff);
}

/* the log-likelihood of the set at rates fitted jointly, less what its
 * size and its members' priors cost.  A result no member crosses has the
 * likelihood of the empty set, so only the members' results are visited:
 * the empty set's sum is the counts' */
static double set_score(struct pmodel *pm, const int *set, int n, double e)
{
	double ll = pm->nfail * log(e) + pm->npass * log(1 - e), *q;
	size_t *touched, *multi, nt = 0, nmulti = 0, all = 0, t;
	int i;
	uint32_t j;

	ll -= penalty(pm) * n;
	for (i = 0; i < n; i++) {
		ll -= prior_cost(pm, set[i]);
		all += pm->coff[set[i] + 1] - pm->coff[set[i]];
	}
	if (!n)
		return ll;
	touched = xmalloc((all + 1) * sizeof(*touched));
	multi = xmalloc((all + 1) * sizeof(*multi));
	q = xmalloc(((size_t)n + 1) * sizeof(*q));
	for (i = 0; i < n; i++)
		pm->slot[set[i]] = i;
	for (i = 0; i < n; i++) {
		int c = set[i];

		if (pm->slot[c] != i)
			continue;	/* named twice */
		for (j = pm->coff[c]; j < pm->coff[c + 1]; j++) {
			size_t o = (size_t)pm->co[j];

			if (!pm->ocnt[o]++)
				touched[nt++] = o;
			else if (pm->ocnt[o] == 2 && failing(&pm->obs[o]))
				multi[nmulti++] = o;
		}
	}
	joint_rates(pm, set, n, pm->slot, multi, nmulti, q);
	for (t = 0; t < nt; t++) {
		size_t o = touched[t];

		ll += obs_ll(pm, o, pm->slot, q, e) -
		      (failing(&pm->obs[o]) ? log(e) : log(1 - e));
		pm->ocnt[o] = 0;
	}
	for (i = 0; i < n; i++)
		pm->slot[set[i]] = -1;
	free(touched);
	free(multi);
	free(q);
	return ll;
}

/* the score change of swapping c for d in the set, whose score is base */
static double swap_delta(struct pmodel *pm, const int *set, int n, int c,
			 int d, double e, double base)
{
	int *tmp = xmalloc(((size_t)n + 1) * sizeof(*tmp)), i;
	double s;

	for (i = 0; i < n; i++)
		tmp[i] = set[i] == c ? d : set[i];
	s = set_score(pm, tmp, n, e);
	free(tmp);
	return s - base;
}

/* --- greedy maximum likelihood --- */

struct gstate {
	int *cf;		/* open failing observations through each comp */
	char *open;		/* per observation: failing and not yet explained */
};

/* pick components for the open failing observations while one pays for
 * itself; skip is a component not to use (-1 none); a component a
 * passing result crosses needs cleared_min open failures through it
 * (1: any component, INT_MAX: only those no passing result crosses);
 * returns the count */
static int greedy(struct pmodel *pm, struct gstate *g, int skip, double e,
		  double pen, int cleared_min, int *pick, int max)
{
	int n = 0, c;

	while (n < max) {
		double best = 0, most = 0;
		int bc = -1;
		uint32_t i, j;

		/* the kind's prior chooses among the candidates; the evidence
		 * alone must pay for one more suspect */
		for (c = 0; c < pm->ncomp; c++) {
			double s;

			if (c == skip || !g->cf[c] ||
			    (pm->pass_n[c] && g->cf[c] < cleared_min))
				continue;
			s = llr(g->cf[c], pm->pass_n[c], e);
			if (s > most)
				most = s;
			s -= prior_cost(pm, c);
			if (bc < 0 || s > best + 1e-9 ||
			    (s > best - 1e-9 &&
			     pm->comp[c].kind < pm->comp[bc].kind)) {
				best = s;
				bc = c;
			}
		}
		if (bc < 0 || most < pen)
			break;
		pick[n++] = bc;
		for (i = pm->coff[bc]; i < pm->coff[bc + 1]; i++) {
			size_t o = (size_t)pm->co[i];

			if (!g->open[o])
				continue;
			g->open[o] = 0;
			for (j = 0; j < pm->obs[o].n; j++)
				g->cf[pm->oc[pm->obs[o].off + j]]--;
		}
	}
	return n;
}

/* open the failing observations (all, or those crossing comp only) */
static void gstate_open(const struct pmodel *pm, struct gstate *g, int comp)
{
	size_t o, lo = 0, hi = pm->nobs;
	uint32_t j;

	memset(g->cf, 0, (size_t)pm->ncomp * sizeof(*g->cf));
	memset(g->open, 0, pm->nobs);
	if (comp >= 0) {
		lo = pm->coff[comp];
		hi = pm->coff[comp + 1];
	}
	for (; lo < hi; lo++) {
		o = comp >= 0 ? (size_t)pm->co[lo] : lo;
		if (!failing(&pm->obs[o]))
			continue;
		g->open[o] = 1;
		for (j = 0; j < pm->obs[o].n; j++)
			g->cf[pm->oc[pm->obs[o].off + j]]++;
	}
}

static int set_add(int *set, int n, int c)
{
	int i;

	for (i = 0; i < n; i++)
		if (set[i] == c)
			return n;
	set[n] = c;
	return n + 1;
}

static void set_mask(char *in, int ncomp, const int *set, int n)
{
	int i;

	memset(in, 0, (size_t)ncomp + 1);
	for (i = 0; i < n; i++)
		in[set[i]] = 1;
}

/* the set with c replaced by what explains c's failures without it,
 * into tmp (2 * MAX_PICKS); its score, or -HUGE_VAL when nothing does */
static double finer(struct pmodel *pm, struct gstate *g, const int *set,
		    int n, int c, double e, int cleared_min, int *tmp,
		    int *ntmp)
{
	int alt[MAX_PICKS], na, nn, j;

	gstate_open(pm, g, c);
	na = greedy(pm, g, c, e, penalty(pm), cleared_min, alt, MAX_PICKS);
	for (j = nn = 0; j < n; j++)
		if (set[j] != c)
			tmp[nn++] = set[j];
	for (j = 0; j < na; j++)
		nn = set_add(tmp, nn, alt[j]);
	*ntmp = nn;
	if (!na || nn > MAX_PICKS)
		return -HUGE_VAL;
	return set_score(pm, tmp, nn, e);
}

/* two or more picks that are parts of one host (its two cables, or the
 * host and one of its cables) replaced by the host when the whole set
 * scores better so: greedy and the finer sets reach a flaky host's rails
 * one at a time, each already half explained by the host's other faults'
 * results; returns the count */
static int merge_hosts(struct pmodel *pm, double e, int *set, int n,
		       int *tmp)
{
	int i, j, nn, node, parts;
	double base;

	for (i = 0; i < n; i++) {
		int h = pm->comp[set[i]].host;

		if (h < 0)
			continue;
		for (node = 0; node < pm->ncomp; node++)
			if (pm->comp[node].kind == PC_NODE &&
			    pm->comp[node].host == h)
				break;
		if (node == pm->ncomp)
			continue;
		for (j = nn = parts = 0; j < n; j++)
			if (pm->comp[set[j]].host == h)
				parts++;
			else
				tmp[nn++] = set[j];
		if (parts < 2)
			continue;
		base = set_score(pm, set, n, e);
		tmp[nn++] = node;
		if (set_score(pm, tmp, nn, e) > base + 1e-9) {
			memcpy(set, tmp, (size_t)nn * sizeof(*set));
			n = nn;
			i = -1;
		}
	}
	return n;
}

/* the components outside the set (in) crossed by c's failing results,
 * how many each (ov, zeroed by the caller), most shared first, at most
 * ALT_CANDIDATES; returns the count */
static int sharing(const struct pmodel *pm, int c, const char *in, int *ov,
		   int *cand)
{
	int ncand = 0, i, d;
	uint32_t k, j;

	for (k = pm->coff[c]; k < pm->coff[c + 1]; k++) {
		const struct pobs *ob = &pm->obs[pm->co[k]];

		if (!failing(ob))
			continue;
		for (j = 0; j < ob->n; j++) {
			d = pm->oc[ob->off + j];
			if (d != c && !in[d] && !ov[d]++)
				cand[ncand++] = d;
		}
	}
	/* most shared first; a stable order for equal counts */
	for (i = 1; i < ncand; i++) {
		int x = cand[i], y = i;

		while (y > 0 && (ov[cand[y - 1]] < ov[x] ||
				 (ov[cand[y - 1]] == ov[x] && cand[y - 1] > x))) {
			cand[y] = cand[y - 1];
			y--;
		}
		cand[y] = x;
	}
	return ncand < ALT_CANDIDATES ? ncand : ALT_CANDIDATES;
}

/* each pick swapped for the component sharing half its failures or more
 * that scores best in its place, while one does better: greedy takes the
 * link that carries a flaky host's pairs and a few of others', and the
 * finer set of that link is the others', not the host */
static void swap_better(struct pmodel *pm, double e, char *in, int *set,
			int n)
{
	int *ov = xcalloc((size_t)pm->ncomp + 1, sizeof(*ov));
	int *cand = xmalloc(((size_t)pm->ncomp + 1) * sizeof(*cand));
	int i, k, nc, bd, steps = 0;

	for (i = 0; i < n && steps < 4 * MAX_PICKS; i++) {
		int c = set[i];
		double best = 1e-9, d, base = set_score(pm, set, n, e);

		set_mask(in, pm->ncomp, set, n);
		nc = sharing(pm, c, in, ov, cand);
		for (k = 0, bd = -1; k < nc && 2 * ov[cand[k]] >= pm->fail_n[c];
		     k++) {
			d = swap_delta(pm, set, n, c, cand[k], e, base);
			if (d > best) {
				best = d;
				bd = cand[k];
			}
		}
		for (k = 0; k < pm->ncomp; k++)
			ov[k] = 0;
		if (bd >= 0) {
			set[i] = bd;
			i = -1;
			steps++;
		}
	}
	free(ov);
	free(cand);
}

/* a component sharing failing results with a pick added beside it, the
 * best of the ALT_CANDIDATES most shared of each pick, while one makes
 * the set score better: greedy explains a failing result once, so a
 * link's own direction, faulty too, never comes up once the link is
 * chosen, nor a flaky host most of whose pairs the link carries (the
 * host's results left open are its few others); at rates fitted jointly
 * the pair pays when the second fails its results more than the first
 * explains.  Returns the count */
static int add_beside(struct pmodel *pm, double e, char *in, int *set, int n)
{
	int *ov = xcalloc((size_t)pm->ncomp + 1, sizeof(*ov));
	int *cand = xmalloc(((size_t)pm->ncomp + 1) * sizeof(*cand));
	int i, k, nc, bd;

	while (n < MAX_PICKS) {
		double base = set_score(pm, set, n, e), best = base + 1e-9, d;

		set_mask(in, pm->ncomp, set, n);
		for (i = 0, bd = -1; i < n; i++) {
			nc = sharing(pm, set[i], in, ov, cand);
			for (k = 0; k < nc; k++) {
				int x = cand[k];

				set[n] = x;
				d = set_score(pm, set, n + 1, e);
				if (d > best) {
					best = d;
					bd = x;
				}
			}
			for (k = 0; k < pm->ncomp; k++)
				ov[k] = 0;
		}
		if (bd < 0)
			break;
		set[n++] = bd;
	}
	free(ov);
	free(cand);
	return n;
}

/* is d one of the parts of the coarse component c: a cable, link or
 * direction at a port of switch c, a cable or HCA port of host c? */
static int part_of(const struct pmodel *pm, int d, int c)
{
	const struct pcomp *x = &pm->comp[c], *y = &pm->comp[d];

	if (d == c)
		return 0;
	if (x->kind == PC_NODE)
		return y->host == x->host && y->kind != PC_NODE;
	if (x->kind != PC_SWITCH ||
	    (y->kind != PC_CABLE && y->kind != PC_LINK && y->kind != PC_HALF))
		return 0;
	return !strcmp(y->guid[0], x->guid[0]) || !strcmp(y->guid[1], x->guid[0]);
}

/* are c and d one part: one host's, one cable or its directions? */
static int one_part(const struct pcomp *c, const struct pcomp *d)
{
	if (same_part(c, d) || same_part(d, c))
		return 1;
	return (c->kind == PC_CABLE || c->kind == PC_LINK || c->kind == PC_HALF) &&
	       (d->kind == PC_CABLE || d->kind == PC_LINK || d->kind == PC_HALF) &&
	       same_cable(c, d);
}

/* the parts of c crossed by a failing result, into cand; the count */
static int failing_parts(const struct pmodel *pm, int c, int *cand, int max)
{
	int d, n = 0;

	for (d = 0; d < pm->ncomp && n < max; d++)
		if (pm->fail_n[d] && part_of(pm, d, c))
			cand[n++] = d;
	return n;
}

/* does a part of c clear it: results through the part that, at c's own
 * rate q, argue against c as strongly as the evidence a suspect needs
 * (the penalty) argues for one?  A spine with two failing links and its
 * other ports passing is not a spine fault */
static int part_clears(const struct pmodel *pm, int c, double e)
{
	double q = rate(pm->fail_n[c], pm->pass_n[c]), l;
	int d;

	if (q <= e)
		return 1;
	for (d = 0; d < pm->ncomp; d++) {
		if (!pm->pass_n[d] || !part_of(pm, d, c))
			continue;
		l = pm->fail_n[d] * log(q / e) +
		    pm->pass_n[d] * log((1 - q) / (1 - e));
		if (l < -penalty(pm))
			return 1;
	}
	return 0;
}

/* the set with coarse pick c (a switch, a host) replaced by the subset of
 * its parts that scores best in its place, into tmp: parts added one at
 * a time, the best each time, while the set scores better; its score, or
 * -HUGE_VAL when no part fails */
static double best_parts(struct pmodel *pm, const int *set, int n, int c,
			 double e, int *tmp, int *ntmp)
{
	int cand[4 * MAX_PICKS], nc, nn, i, k, bd, best_n = 0;
	double cur = -HUGE_VAL, best = -HUGE_VAL, s;

	nc = failing_parts(pm, c, cand, (int)ARRAY_SIZE(cand));
	for (i = nn = 0; i < n; i++)
		if (set[i] != c)
			tmp[nn++] = set[i];
	while (nc && nn < MAX_PICKS) {
		for (k = 0, bd = -1; k < nc; k++) {
			for (i = 0; i < nn; i++)
				if (one_part(&pm->comp[cand[k]],
					     &pm->comp[tmp[i]]))
					break;
			if (i < nn)
				continue;	/* one host, one cable: one part */
			tmp[nn] = cand[k];
			s = set_score(pm, tmp, nn + 1, e);
			if (bd < 0 || s > best + 1e-9) {
				best = s;
				bd = k;
			}
		}
		if (bd < 0 || best <= cur + 1e-9)
			break;
		cur = best;
		tmp[nn++] = cand[bd];
		best_n = nn;
		cand[bd] = cand[--nc];
	}
	*ntmp = best_n;
	return best_n ? cur : -HUGE_VAL;
}

/* does the set hold a part of c besides c? */
static int own_part_in(const struct pmodel *pm, const int *set, int n, int c)
{
	int i;

	for (i = 0; i < n; i++)
		if (part_of(pm, set[i], c))
			return 1;
	return 0;
}

/* a coarse pick (a switch, a host) stays only when it scores better than
 * the best subset of its own parts in its place (the same costs: each
 * part one more suspect), and no part's passing results clear it; greedy
 * reaches it first when two or three of its links fail, one suspect
 * cheaper than two.  Returns the count */
static int split_coarse(struct pmodel *pm, double e, int *set, int n,
			int *tmp)
{
	int i, nn, c;
	double base, ps;

	for (i = 0; i < n; i++) {
		c = set[i];
		if (pm->comp[c].kind != PC_SWITCH && pm->comp[c].kind != PC_NODE)
			continue;
		if (pm->comp[c].kind == PC_NODE && own_part_in(pm, set, n, c))
			continue;	/* a host and a cable of it, both faulty */
		base = set_score(pm, set, n, e);
		ps = best_parts(pm, set, n, c, e, tmp, &nn);
		if (ps == -HUGE_VAL ||
		    (ps <= base + 1e-9 && !part_clears(pm, c, e)))
			continue;
		memcpy(set, tmp, (size_t)nn * sizeof(*set));
		n = nn;
		i = -1;
	}
	return n;
}

/* one round at noise rate e: greedy, then each pick replaced by finer
 * components, or dropped, when the whole set scores better so */
static int best_round(struct pmodel *pm, double e, int *set)
{
	struct gstate g;
	char *in = xcalloc((size_t)pm->ncomp + 1, 1);
	int *tmp = xmalloc(4 * MAX_PICKS * sizeof(*tmp));
	int n, i, j, nn, nu, steps = 0;

	g.cf = xcalloc((size_t)pm->ncomp + 1, sizeof(*g.cf));
	g.open = xcalloc(pm->nobs + 1, 1);
	gstate_open(pm, &g, -1);
	n = greedy(pm, &g, -1, e, penalty(pm), 1, set, MAX_PICKS);
	for (i = 0; i < n && steps < 4 * MAX_PICKS; i++, steps++) {
		int c = set[i], *u = tmp + 2 * MAX_PICKS;
		double base, fs, us;

		base = set_score(pm, set, n, e);
		/* finer: what explains c's failures without c, the best of
		 * any components and of those no passing result crosses (a
		 * switch on the failing rings' paths, flaky at one half,
		 * against two cables that failed every time: greedy takes the
		 * switch again, or another as coarse) */
		fs = finer(pm, &g, set, n, c, e, 1, tmp, &nn);
		us = finer(pm, &g, set, n, c, e, INT_MAX, u, &nu);
		if (us > fs) {
			memcpy(tmp, u, (size_t)nu * sizeof(*tmp));
			nn = nu;
			fs = us;
		}
		if (fs > base + 1e-9) {
			memcpy(set, tmp, (size_t)nn * sizeof(*set));
			n = nn;
			i--;
			continue;
		}
		/* or nothing at all in its place: on the evidence alone, as
		 * greedy() adds one (the prior chooses among candidates, it
		 * does not tell whether there is a fault) */
		for (j = nn = 0; j < n; j++)
			if (set[j] != c)
				tmp[nn++] = set[j];
		if (set_score(pm, tmp, nn, e) >= base + prior_cost(pm, c)) {
			memcpy(set, tmp, (size_t)nn * sizeof(*set));
			n = nn;
			i--;
		}
	}
	swap_better(pm, e, in, set, n);
	n = add_beside(pm, e, in, set, n);
	n = merge_hosts(pm, e, set, n, tmp);
	n = split_coarse(pm, e, set, n, tmp);
	free(tmp);
	free(in);
	free(g.cf);
	free(g.open);
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* the noise rate: the lower quartile of the hosts' failure rates (faults
 * raise some hosts' rates, noise all of them); too few hosts with enough
 * results to tell (a ring: two results a host), the a-priori rate, and 0
 * in *told */
static double noise_estimate(const struct pmodel *pm, int *told)
{
	double *r = xmalloc(((size_t)pm->ncomp + 1) * sizeof(*r)), e;
	int c, n = 0;

	for (c = 0; c < pm->ncomp; c++) {
		int all = pm->fail_n[c] + pm->pass_n[c];

		if (pm->comp[c].kind == PC_NODE && all >= NOISE_HOST_RESULTS)
			r[n++] = (double)pm->fail_n[c] / all;
	}
	*told = n >= NOISE_HOSTS;
	if (!*told) {
		free(r);
		return NOISE_START;
	}
	qsort(r, (size_t)n, sizeof(*r), cmp_double);
	e = r[n / 4];
	free(r);
	return e;
}

/* failing results the suspects leave unexplained but too few to pay for
 * a suspect (a ring test crosses each cable twice): the best few of what
 * explains them with half the evidence, reported as weak */
static int weak_picks(struct pmodel *pm, double e, int *set, int n)
{
	struct gstate g;
	size_t o;
	uint32_t j;
	int i, k, w;

	if (n >= MAX_PICKS)
		return 0;
	g.cf = xcalloc((size_t)pm->ncomp + 1, sizeof(*g.cf));
	g.open = xcalloc(pm->nobs + 1, 1);
	gstate_open(pm, &g, -1);
	for (i = 0; i < n; i++) {
		int c = set[i];

		for (j = pm->coff[c]; j < pm->coff[c + 1]; j++) {
			o = (size_t)pm->co[j];
			if (!g.open[o])
				continue;
			g.open[o] = 0;
			for (k = 0; k < (int)pm->obs[o].n; k++)
				g.cf[pm->oc[pm->obs[o].off + k]]--;
		}
	}
	/* each on its evidence against the noise rate, however many
	 * failures are left (a count of them as the noise floor named
	 * nothing for a flaky fault at 20% of the pairs with noise, where
	 * the Bayes rule names it).  Beside suspects, a
	 * cleared part needs two of the failures: with one it is a coin
	 * flip (a ring test fails, the hosts' other tests pass: either
	 * host), a worse guess than any suspect, which it would follow in
	 * a list cut at the number of faults; alone it is the best lead */
	for (o = k = 0; o < pm->nobs; o++)
		k += g.open[o];
	w = greedy(pm, &g, -1, e, penalty(pm) / 2, n ? 2 : 1, set + n,
		   n + MAX_WEAK <= MAX_PICKS ? MAX_WEAK : MAX_PICKS - n);
	/* failures and nothing named: the best of the components no passing
	 * result clears, as the floor would (none when all are cleared) */
	if (!n && !w && k)
		w = greedy(pm, &g, -1, e, 1e-9, INT_MAX, set, 1);
	free(g.cf);
	free(g.open);
	return w;
}

/* the failure rate of the results no suspect crosses, drawn towards the
 * a-priori rate when they are few */
static double residual_noise(const struct pmodel *pm, const int *set, int n)
{
	size_t o, f = 0, all = 0;
	int i;

	for (o = 0; o < pm->nobs; o++) {
		for (i = 0; i < n; i++)
			if (pm_obs_has(pm, o, set[i]))
				break;
		if (i < n)
			continue;
		all++;
		f += failing(&pm->obs[o]);
	}
	return (f + NOISE_START * NOISE_PRIOR) / (all + NOISE_PRIOR);
}

static double clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* the search from noise rate e0, then at the rate of what the suspects
 * leave unexplained, until it settles; returns the rate of the last
 * round, the set in set, its size in *n */
static double noise_rounds(struct pmodel *pm, double e0, int *set, int *n)
{
	double e = clamp(e0, NOISE_MIN, NOISE_MAX);
	int round;

	*n = best_round(pm, e, set);
	for (round = 0; round < NOISE_ROUNDS; round++) {
		double e2 = clamp(residual_noise(pm, set, *n), NOISE_MIN,
				  NOISE_MAX);

		if (fabs(log(e2 / e)) < NOISE_SETTLED)
			break;
		e = e2;
		*n = best_round(pm, e, set);
	}
	return e;
}

/* --- tomography: cleared by a passing path, then greedy set cover --- */

static int tomography(struct pmodel *pm, int *set)
{
	int *cnt = xcalloc((size_t)pm->ncomp + 1, sizeof(*cnt));
	char *open = xcalloc(pm->nobs + 1, 1);
	size_t o;
	uint32_t i, j;
	int n = 0, c;

	for (o = 0; o < pm->nobs; o++) {
		const struct pobs *ob = &pm->obs[o];

		if (!failing(ob))
			continue;
		for (j = 0; j < ob->n; j++)
			if (!pm->pass_n[pm->oc[ob->off + j]])
				break;
		if (j == ob->n)
			continue;	/* every component cleared: noise */
		open[o] = 1;
		for (j = 0; j < ob->n; j++)
			cnt[pm->oc[ob->off + j]]++;
	}
	while (n < MAX_PICKS) {
		int bc = -1;

		for (c = 0; c < pm->ncomp; c++) {
			if (pm->pass_n[c] || !cnt[c])
				continue;
			if (bc < 0 || cnt[c] > cnt[bc] ||
			    (cnt[c] == cnt[bc] &&
			     pm->comp[c].kind < pm->comp[bc].kind))
				bc = c;
		}
		if (bc < 0)
			break;
		set[n++] = bc;
		for (i = pm->coff[bc]; i < pm->coff[bc + 1]; i++) {
			o = (size_t)pm->co[i];
			if (!open[o])
				continue;
			open[o] = 0;
			for (j = 0; j < pm->obs[o].n; j++)
				cnt[pm->oc[pm->obs[o].off + j]]--;
		}
	}
	free(cnt);
	free(open);
	return n;
}

/* the floor's answer instead, when it explains every failing result
 * (cleared by no passing one, all of them on its paths), names no more
 * components and scores nearly as well: of equally good explanations
 * the one no result contradicts (one ring test crossing a host and a
 * cable that failed twice: the cable, not a host whose other test
 * passed).  Its picks too weak to be chosen alone stay weak; returns the
 * count, *strong the strong ones, set ordered strong first */
static int prefer_floor(struct pmodel *pm, double e, char *in, int *set,
			int n, int *strong)
{
	int *fl = xmalloc(MAX_PICKS * sizeof(*fl)), nf, i, k, w;
	size_t o, covered = 0;
	double mine;

	nf = tomography(pm, fl);
	if (!nf || nf > n)
		goto out;
	set_mask(in, pm->ncomp, fl, nf);
	for (o = 0; o < pm->nobs; o++) {
		const struct pobs *ob = &pm->obs[o];

		for (k = 0; failing(ob) && k < (int)ob->n; k++)
			if (in[pm->oc[ob->off + k]]) {
				covered++;
				break;
			}
	}
	if (covered < pm->nfail)
		goto out;
	mine = set_score(pm, set, n, e);
	if (set_score(pm, fl, nf, e) < mine - ALT_MARGIN)
		goto out;
	for (i = k = w = 0; i < nf; i++)
		if (llr(pm->fail_n[fl[i]], 0, e) >= penalty(pm))
			set[k++] = fl[i];
		else
			fl[w++] = fl[i];
	*strong = k;
	memcpy(set + k, fl, (size_t)w * sizeof(*set));
	n = nf;
out:
	free(fl);
	return n;
}

/* --- what is reported of each pick --- */

/* for a coarse suspect (a switch, a host), its parts a failing result
 * crosses, most failures first, but those in the set (in) or already
 * among its equivalents and alternatives: the set of its parts explains
 * its failures as the whole does (two links of a spine failing on a
 * ring, where one suspect is cheaper than two), so when the best subset
 * of its parts in its place scores nearly as well as the set (base, the
 * same costs), each failing part is a candidate beside it: the subset's
 * and those too weak to join it.  At most ALT_PARTS; the count, into
 * alt */
static int coarse_parts(struct pmodel *pm, const struct psuspect *s,
			const char *in, const int *set, int nset, double e,
			double base, int *alt)
{
	int part[ALT_PARTS], n, i, k, w = 0, x, *tmp;
	double ps;

	if (pm->comp[s->comp].kind != PC_SWITCH &&
	    pm->comp[s->comp].kind != PC_NODE)
		return 0;
	tmp = xmalloc((MAX_PICKS + 1) * sizeof(*tmp));
	ps = best_parts(pm, set, nset, s->comp, e, tmp, &n);
	free(tmp);
	if (ps == -HUGE_VAL || ps < base - ALT_MARGIN)
		return 0;
	n = failing_parts(pm, s->comp, part, ALT_PARTS);
	for (i = 0; i < n; i++) {
		if (in[part[i]])
			continue;
		for (k = 0; k < s->nequiv && s->equiv[k] != part[i]; k++)
			;
		if (k < s->nequiv)
			continue;
		for (k = 0; k < s->nalt && s->alt[k] != part[i]; k++)
			;
		if (k < s->nalt)
			continue;
		/* most failures first; stable for equal counts */
		for (x = w++; x > 0 &&
		     pm->fail_n[alt[x - 1]] < pm->fail_n[part[i]]; x--)
			alt[x] = alt[x - 1];
		alt[x] = part[i];
	}
	return w;
}

/* alternatives and equivalents of suspect s among the components sharing
 * its failing observations; in is the set's mask, base its score */
static void find_alternatives(struct pmodel *pm, struct psuspect *s,
			      char *in, const int *set, int n,
			      enum pm_method m, double e, double base)
{
	int c = s->comp, *ov = xcalloc((size_t)pm->ncomp + 1, sizeof(*ov));
	int *cand = xmalloc(((size_t)pm->ncomp + 1) * sizeof(*cand));
	int ncand, i, d;
	uint32_t k;

	ncand = sharing(pm, c, in, ov, cand);
	s->equiv = xmalloc(((size_t)ncand + 1) * sizeof(int));
	s->alt = xmalloc(((size_t)ncand + ALT_PARTS + 1) * sizeof(int));
	for (i = 0; i < ncand; i++) {
		int same;

		d = cand[i];
		if (2 * ov[d] < pm->fail_n[c])
			break;
		same = ov[d] == pm->fail_n[c] && pm->fail_n[d] == pm->fail_n[c] &&
		       pm->pass_n[d] == pm->pass_n[c];
		for (k = pm->coff[c]; same && k < pm->coff[c + 1]; k++)
			same = pm_obs_has(pm, (size_t)pm->co[k], d);
		if (same) {
			s->equiv[s->nequiv++] = d;
			continue;
		}
		if (m == PM_TOMOGRAPHY) {
			if (!pm->pass_n[d] && ov[d] >= s->explained)
				s->alt[s->nalt++] = d;
		} else if (swap_delta(pm, set, n, c, d, e, base) >= -ALT_MARGIN) {
			s->alt[s->nalt++] = d;
		}
	}
	if (m == PM_BEST)
		s->nalt += coarse_parts(pm, s, in, set, n, e, base,
					s->alt + s->nalt);
	free(ov);
	free(cand);
}

int pm_rival(const struct pmodel *pm, int c)
{
	int *ov = xcalloc((size_t)pm->ncomp + 1, sizeof(*ov));
	int *cand = xmalloc(((size_t)pm->ncomp + 1) * sizeof(*cand));
	char *none = xcalloc((size_t)pm->ncomp + 1, 1);
	int nc, k, d, best = -1;
	uint32_t size, bsize = 0;

	nc = sharing(pm, c, none, ov, cand);
	for (k = 0; k < nc; k++) {
		d = cand[k];
		if (best >= 0 && ov[d] < ov[best])
			break;
		if (one_part(&pm->comp[c], &pm->comp[d]) || same_obs(pm, c, d))
			continue;
		size = pm->coff[d + 1] - pm->coff[d];
		if (best < 0 || size < bsize) {
			best = d;
			bsize = size;
		}
	}
	free(ov);
	free(cand);
	free(none);
	return best;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static uint64_t pair_key(int a, int b)
{
	uint64_t x = (uint32_t)(a < b ? a : b), y = (uint32_t)(a < b ? b : a);

	return x << 32 | y;
}

/* an untested pair whose path crosses exactly one of c and d: first from
 * the endpoints of c's failing pairs (the nearest place to look), then,
 * unless near, from every endpoint */
void pm_split(struct pmodel *pm, int c, int d, int nep, pm_path_fn path,
	      void *ctx, long budget, int near, struct psplit *out)
{
	int buf[512], *from, nfrom = 0, i, a, b, k, n;
	uint32_t j;

	out->a = out->b = out->crosses = -1;
	if (!pm->tested || d < 0 || d == c)
		return;
	from = xmalloc(((size_t)nep + 65) * sizeof(*from));
	for (j = pm->coff[c]; j < pm->coff[c + 1]; j++) {
		const struct pobs *ob = &pm->obs[pm->co[j]];

		for (k = 0; failing(ob) && k < 2; k++) {
			int e = k ? ob->b : ob->a;

			for (i = 0; i < nfrom && from[i] != e; i++)
				;
			if (i == nfrom && nfrom < 64)
				from[nfrom++] = e;
		}
	}
	for (a = 0; a < nep && !near; a++)
		from[nfrom++] = a;
	for (i = 0; i < nfrom && budget > 0; i++) {
		a = from[i];
		for (b = 0; b < nep && budget > 0; b++) {
			uint64_t key = pair_key(a, b);
			int hc = 0, hd = 0;

			if (b == a || bsearch(&key, pm->tested, pm->nobs,
					      sizeof(*pm->tested), cmp_u64))
				continue;
			budget--;
			n = path(ctx, a, b, buf, (int)ARRAY_SIZE(buf));
			for (k = 0; k < n; k++) {
				hc |= buf[k] == c;
				hd |= buf[k] == d;
			}
			if (n > 0 && hc != hd) {
				out->a = a;
				out->b = b;
				out->crosses = hc ? c : d;
				free(from);
				return;
			}
		}
	}
	free(from);
}

/* the evidence against c alone, as a suspect's score */
static double evidence(const struct pmodel *pm, int c, double e)
{
	return llr(pm->fail_n[c], pm->pass_n[c], e) - prior_cost(pm, c);
}

struct evidence_ctx {
	const struct pmodel *pm;
	double e;
};

static int cmp_evidence(const void *a, const void *b, void *arg)
{
	const struct evidence_ctx *ctx = arg;
	const struct pmodel *pm = ctx->pm;
	int x = *(const int *)a, y = *(const int *)b;
	double ex = evidence(pm, x, ctx->e), ey = evidence(pm, y, ctx->e);

	if (ex != ey)
		return (ex < ey) - (ex > ey);
	if (pm->pass_n[x] != pm->pass_n[y])
		return pm->pass_n[x] - pm->pass_n[y];
	if (pm->comp[x].kind != pm->comp[y].kind)
		return pm->comp[x].kind - pm->comp[y].kind;
	return x - y;
}

static int cmp_unexpl(const void *a, const void *b)
{
	const struct punexpl *x = a, *y = b;

	if (x->score != y->score)
		return (x->score < y->score) - (x->score > y->score);
	return (x->obs > y->obs) - (x->obs < y->obs);
}

/* the failing results done[] leaves unexplained, the strongest evidence
 * against a component of the path first, PM_UNEXPLAINED_MAX of them at
 * most, each with its path's components in order of that evidence.  Most
 * are noise; on a ring a flaky fault often fails one test only, too
 * little to name it, and these are where it is */
static void list_unexplained(struct pmodel *pm, const char *done, double e)
{
	struct evidence_ctx ctx = { pm, e };
	struct punexpl *u;
	size_t o, n = 0;
	uint32_t k;
	int i;

	u = xcalloc(pm->unexplained + 1, sizeof(*u));
	for (o = 0; o < pm->nobs; o++) {
		const struct pobs *ob = &pm->obs[o];

		if (!failing(ob) || done[o] || !ob->n)
			continue;
		u[n].obs = o;
		u[n].score = -HUGE_VAL;
		for (k = 0; k < ob->n; k++) {
			double v = evidence(pm, pm->oc[ob->off + k], e);

			if (v > u[n].score)
				u[n].score = v;
		}
		n++;
	}
	qsort(u, n, sizeof(*u), cmp_unexpl);
	if (n > PM_UNEXPLAINED_MAX)
		n = PM_UNEXPLAINED_MAX;
	for (i = 0; i < (int)n; i++) {
		const struct pobs *ob = &pm->obs[u[i].obs];

		u[i].ncomp = (int)ob->n;
		u[i].comp = xmalloc(ob->n * sizeof(*u[i].comp));
		memcpy(u[i].comp, pm->oc + ob->off, ob->n * sizeof(*u[i].comp));
		qsort_r(u[i].comp, ob->n, sizeof(*u[i].comp), cmp_evidence, &ctx);
		u[i].split.a = u[i].split.b = u[i].split.crosses = -1;
	}
	pm->unx = u;
	pm->nunx = (int)n;
}

int pm_alike(const struct pmodel *pm, int c, int d)
{
	return same_part(&pm->comp[c], &pm->comp[d]) && same_obs(pm, c, d);
}

int pm_unexpl_rival(const struct pmodel *pm, const struct punexpl *u)
{
	int i;

	for (i = 1; i < u->ncomp; i++)
		if (!same_part(&pm->comp[u->comp[0]], &pm->comp[u->comp[i]]))
			return u->comp[i];
	return -1;
}

static int cmp_suspect(const void *a, const void *b)
{
	const struct psuspect *x = a, *y = b;

	if (x->weak != y->weak)
		return x->weak - y->weak;
	if (x->score != y->score)
		return (x->score < y->score) - (x->score > y->score);
	if (x->explained != y->explained)
		return y->explained - x->explained;
	return x->comp - y->comp;
}

int pm_localize(struct pmodel *pm, enum pm_method m)
{
	int *set = xmalloc(MAX_PICKS * sizeof(*set)), n, i, strong;
	char *in, *done;
	double e = NOISE_START, base;
	uint64_t *tested;
	size_t o;
	uint32_t k;

	suspects_free(pm);
	free(pm->tested);
	pm->tested = NULL;
	build_index(pm);
	if (m == PM_TOMOGRAPHY) {
		n = tomography(pm, set);
	} else {
		int told;
		double e0 = noise_estimate(pm, &told);

		/* from the hosts' rates; when their lower quartile is at
		 * the floor it tells nothing (20% of the pairs: 12 results a
		 * host, most with no failure at 5% noise), and at the floor
		 * every failure pays for a suspect: a leaf switch is chosen,
		 * takes its results' noise with it, and the rate left
		 * settles low enough to keep it.  Then the search starts
		 * again from the rate of all results, and the set scoring
		 * better at its own rate stays.  So too when the hosts have
		 * too few results to tell (a ring at 5% noise: the a-priori
		 * 1% lets a leaf switch take a cable's two failures and two
		 * flipped outcomes) */
		e = noise_rounds(pm, e0, set, &n);
		if (e0 <= NOISE_MIN || !told) {
			int *hi = xmalloc(MAX_PICKS * sizeof(*hi)), nh;
			double eh;

			eh = noise_rounds(pm, (double)pm->nfail / pm->nobs,
					  hi, &nh);
			if (set_score(pm, hi, nh, eh) >
			    set_score(pm, set, n, e) + 1e-9) {
				memcpy(set, hi, (size_t)nh * sizeof(*set));
				n = nh;
				e = eh;
			}
			free(hi);
		}
	}
	in = xcalloc((size_t)pm->ncomp + 1, 1);
	strong = n;
	if (m == PM_BEST) {
		n += weak_picks(pm, e, set, n);
		n = prefer_floor(pm, e, in, set, n, &strong);
	}
	pm->noise = e;
	set_mask(in, pm->ncomp, set, n);
	pm->sus = xcalloc((size_t)n + 1, sizeof(*pm->sus));
	pm->nsus = n;
	/* each failing observation is explained by the first pick crossing it */
	done = xcalloc(pm->nobs + 1, 1);
	for (i = 0; i < n; i++) {
		struct psuspect *s = &pm->sus[i];
		int c = set[i];

		s->comp = c;
		s->weak = i >= strong;
		s->fail = pm->fail_n[c];
		s->pass = pm->pass_n[c];
		s->split.a = s->split.b = s->split.crosses = -1;
		for (k = pm->coff[c]; k < pm->coff[c + 1]; k++) {
			o = (size_t)pm->co[k];
			if (failing(&pm->obs[o]) && !done[o]) {
				done[o] = 1;
				s->explained++;
			}
		}
		s->score = m == PM_TOMOGRAPHY ? s->explained :
			   llr(s->fail, s->pass, e) - prior_cost(pm, c);
	}
	pm->unexplained = 0;
	for (o = 0; o < pm->nobs; o++)
		if (failing(&pm->obs[o]) && !done[o])
			pm->unexplained++;
	list_unexplained(pm, done, e);
	free(done);
	qsort(pm->sus, (size_t)n, sizeof(*pm->sus), cmp_suspect);
	tested = xmalloc((pm->nobs + 1) * sizeof(*tested));
	for (o = 0; o < pm->nobs; o++)
		tested[o] = pair_key(pm->obs[o].a, pm->obs[o].b);
	qsort(tested, pm->nobs, sizeof(*tested), cmp_u64);
	pm->tested = tested;
	base = m == PM_BEST ? set_score(pm, set, n, e) : 0;
	for (i = 0; i < n; i++)
		find_alternatives(pm, &pm->sus[i], in, set, n, m, e, base);
	free(in);
	free(set);
	return 0;
}
