/* pairs: pairwise localization -- from "these pairs of nodes fail, those
 * work" to the few components (node, HCA port and its cable, inter-switch
 * link or one direction of it, switch) that explain it.
 *
 * The model is topology-free: a component is a name and a kind; an
 * observation is one pair result (ok, fail or degraded) with the list of
 * components its traffic crosses in both directions.  pairs-topo.c fills
 * the lists from whatever topology the database holds; the engine here
 * only counts.  Observations and components are indexed both ways
 * (observation -> components, component -> observations), so a 512-host
 * all-pairs run is a few million integer visits.
 *
 * Methods:
 *   best        greedy maximum likelihood: a faulty component fails the
 *               pairs crossing it with its own rate q (1 for a hard fault,
 *               less for a flaky one; the rates of a set fitted together,
 *               a failure through several members shared out among them),
 *               other pairs fail at the noise rate e; components are added while the log-likelihood ratio of
 *               one pays for its cost (fewest components); a chosen one is
 *               replaced by several finer ones when they explain its
 *               failures better (two bad nodes on one leaf are not "the
 *               leaf"), several parts of one host by the host, a
 *               switch by the subset of its cables when they score
 *               better or a cable's passing results clear it; the
 *               floor's answer is taken instead when it explains every
 *               failure, is no larger and scores nearly as well;
 *               near-ties are reported as alternatives
 *   tomography  the classic floor: every component on a passing path is
 *               cleared, then a greedy set cover of the failing paths by
 *               the components left
 *
 * Ownership: a struct pmodel owns its components, observations and
 * results; pm_release() frees them all.
 */
#ifndef RDMA_ANALYZE_PAIRS_H
#define RDMA_ANALYZE_PAIRS_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/* kinds, in the order a tie between identical components is broken: the
 * cable before the node it is the only cable of, a link before a switch */
enum pc_kind {
	PC_CABLE,	/* an HCA port and the cable to its switch */
	PC_LINK,	/* an inter-switch cable, both directions */
	PC_HALF,	/* one direction of an inter-switch cable */
	PC_HCA,		/* an HCA port where no cable is known */
	PC_NODE,	/* a host: every HCA it has */
	PC_SWITCH,	/* a whole switch */
	PC_NKINDS
};

enum po_outcome { PO_OK, PO_FAIL, PO_DEGRADED };

/* a string -> int map (open addressing); keys are copied */
struct smap {
	char **key;
	int *val;
	size_t n, size;
};

void smap_init(struct smap *m);
void smap_release(struct smap *m);
/* the value of key, or -1 */
int smap_get(const struct smap *m, const char *key);
void smap_put(struct smap *m, const char *key, int val);

struct pcomp {
	int kind;
	char *key;		/* unique: "N:node07", "L:0x..:3-0x..:1" */
	char *name;		/* as printed */
	/* the physical ends, for counters and the JSON: a link's two switch
	 * ports, a cable's CA port and switch port, a switch (port -1) */
	char guid[2][24];
	int port[2];
	int host;		/* PC_NODE / PC_CABLE / PC_HCA: the host's index */
};

struct pobs {
	int a, b;		/* endpoints (the topology's ids) */
	int outcome;
	int source;		/* the input it came from (pairs-input.c) */
	uint32_t off, n;	/* its components: pm->oc[off .. off + n) */
};

/* an untested pair whose path crosses one of two candidates only; a and
 * b are endpoints, -1 when there is none */
struct psplit {
	int a, b;
	int crosses;		/* the component its path crosses */
};

/* one reported component */
struct psuspect {
	int comp;
	int fail, pass;		/* failing / passing observations through it */
	int explained;		/* failing observations assigned to it */
	double score;		/* log-likelihood gain (best) or cover (tomography) */
	int weak;		/* below the cost of a suspect, but the best of
				 * what explains the failures left (best) */
	int *equiv;		/* components crossed by exactly the same pairs */
	int nequiv;
	int *alt;		/* components that explain the data nearly as well */
	int nalt;
	struct psplit split;	/* telling comp from another candidate */
};

/* a failing result no suspect explains: noise, or a fault whose evidence
 * is too weak to name (a flaky cable that failed one ring test); the
 * components on its path are where that fault is */
struct punexpl {
	size_t obs;
	int *comp;		/* its path, the strongest evidence first */
	int ncomp;
	double score;		/* the first one's evidence less its cost */
	struct psplit split;	/* telling the first from the next one */
};

struct pmodel {
	struct pcomp *comp;
	int ncomp, acomp;
	struct smap keys;	/* key -> component index */
	struct pobs *obs;
	size_t nobs, aobs;
	int *oc;		/* observation -> components (sorted, unique) */
	size_t noc, aoc;
	/* built by pm_localize */
	uint32_t *coff;		/* component -> observations */
	int *co;
	int *fail_n, *pass_n;	/* per component */
	double *cost;		/* per component: the a-priori odds against
				 * the parts crossed by exactly its results */
	size_t nfail, npass;
	int *slot;		/* scratch: component -> its place in a set, -1 */
	int *ocnt;		/* scratch: observation -> set members on it, 0 */
	/* results */
	struct psuspect *sus;
	int nsus;
	double noise;		/* the noise rate used */
	size_t unexplained;	/* failing observations no suspect explains */
	struct punexpl *unx;	/* the first PM_UNEXPLAINED_MAX of them, the
				 * strongest evidence first */
	int nunx;
	double pen;		/* what one more suspect must gain */
	uint64_t *tested;	/* the pairs tested, sorted (pm_split) */
};

/* the topology's answer for a pair that was not tested: its components
 * (both directions); returns the count, or -1 when it has no path */
typedef int (*pm_path_fn)(void *ctx, int a, int b, int *out, int max);

enum pm_method { PM_BEST, PM_TOMOGRAPHY };

#define PM_UNEXPLAINED_MAX 32	/* unexplained results listed at most */
#define PM_SPLIT_BUDGET 200000	/* paths a suspect's split test may compute;
				 * the unexplained results share one budget */

void pm_init(struct pmodel *pm);
void pm_release(struct pmodel *pm);
/* the component with this key, created with kind and name if new */
int pm_comp(struct pmodel *pm, int kind, const char *key, const char *name);
/* add an observation; comps need not be sorted or unique */
void pm_obs(struct pmodel *pm, int a, int b, int outcome, int source,
	    const int *comps, int n);
/* localize; 0 or -1 */
int pm_localize(struct pmodel *pm, enum pm_method m);
/* after pm_localize: an untested pair (of nep endpoints, their paths from
 * path) that crosses exactly one of c and d, looked for from the ends of
 * c's failing results first, then unless near from every endpoint,
 * computing budget paths at most */
void pm_split(struct pmodel *pm, int c, int d, int nep, pm_path_fn path,
	      void *ctx, long budget, int near, struct psplit *out);
/* the split target of an unexplained result: the first component of its
 * path after u->comp[0] that is not a part of the same thing; -1 */
int pm_unexpl_rival(const struct pmodel *pm, const struct punexpl *u);
/* after pm_localize: the component sharing the most of c's failing
 * results that is not one of c's own parts and not on exactly its pairs,
 * of those the one on the fewest results (the other end of a failing ring
 * test), a split test's target for a weak suspect; -1 when none */
int pm_rival(const struct pmodel *pm, int c);
/* are c and d parts of one thing (a host's, a cable's) on exactly the
 * same results, one suspect to any test run? */
int pm_alike(const struct pmodel *pm, int c, int d);
/* is component c on observation o's path? */
int pm_obs_has(const struct pmodel *pm, size_t o, int c);

/* --- the topology (pairs-topo.c) --- */

enum pt_kind { PT_NONE, PT_MAD, PT_FABRIC };

/* an endpoint: one HCA port of a host, or a host whose HCA is unknown */
struct pep {
	int host;
	int ca;			/* PT_FABRIC: fabric node index; -1 */
	int port;		/* -1: the whole host */
	char ibdev[64];
	char *label;		/* "node07 mlx5_0 port 1", "node07" */
	int cable;		/* its PC_CABLE / PC_HCA component, -1 */
	int leaf;		/* PT_MAD: its switch's component, -1 */
};

struct phost {
	char *name;
	int64_t bundle;		/* its newest bundle, 0 if none */
	int ep;			/* the endpoint naming the host, -1 until known */
	int node;		/* its PC_NODE component */
};

struct fnode;

struct ptopo {
	int kind;
	sqlite3 *db;
	struct pmodel *pm;
	struct phost *host;
	int nhost, ahost;
	struct smap hostmap;	/* lower-case name -> host */
	struct pep *ep;
	int nep, aep;
	struct smap names;	/* lower-case name, GUID, address -> endpoint
				 * (-2: more than one) */
	int *lid_ep;		/* LID -> endpoint, -1 */
	int nlid;
	/* PT_FABRIC */
	struct fnode *fn;
	int nfn;
	struct smap guids;	/* node GUID -> fabric node */
	int64_t scan;		/* the scan's bundle */
	char scan_from[128];	/* "node003, 2025-11-29T21:04:05Z" */
	int scan_nodes;
	int create_hosts;	/* unknown names become hosts (no topology) */
};

/* the newest fabric scan, else the mad peers, else nothing; 0 or -1 */
int pt_load(struct ptopo *t, sqlite3 *db, struct pmodel *pm);
void pt_release(struct ptopo *t);
/* an endpoint for a name, host name, "host ibdev", GUID, LID or address
 * (an NCCL "10.0.0.2<4321>" too): >= 0, -1 unknown, -2 ambiguous */
int pt_resolve(struct ptopo *t, const char *name);
/* the endpoint of a bundle's HCA (ibdev may be "" or NULL: the host) */
int pt_local(struct ptopo *t, int64_t bundle, const char *ibdev);
/* the components between two endpoints, both directions; -1 when the
 * forwarding tables have no route (out still gets the ends); 0 when
 * both ends are on one host (no test between hosts) */
int pt_path(void *t, int a, int b, int *out, int max);

/* corroborating counters of a component, "where name value (source)"
 * lines appended to out; returns how many */
int pt_counters(struct ptopo *t, int comp, struct buf *out);

/* --- the inputs (pairs-input.c) --- */

enum pin_source { PIN_CSV, PIN_NCCL, PIN_PERFTEST, PIN_NSOURCES };

struct pinputs {
	size_t rows[PIN_NSOURCES];	/* read */
	size_t used[PIN_NSOURCES];	/* became observations */
	size_t unresolved, ambiguous, unrouted, same_host, bad_lines;
	size_t host_only;		/* CSV results on a host of several
					 * HCAs, its HCA not named */
	char first_unresolved[128];
	struct buf notes;		/* "pairs.csv:3: ..." lines */
	size_t nnotes;
	struct buf nccl;		/* JSON array members of decoded errors */
};

void pin_init(struct pinputs *in);
void pin_release(struct pinputs *in);
/* each reads its input into t->pm; 0, or -1 when it cannot be read */
int pin_csv(struct ptopo *t, struct pinputs *in, const char *file);
int pin_nccl(struct ptopo *t, struct pinputs *in);
int pin_perftest(struct ptopo *t, struct pinputs *in);

/* pairs-run.c: localize the pair results of --results (RESULTS, or NULL)
 * and of the bundles in database FILE, keep the run there for the report,
 * print it as text or JSON; the exit status of report: EXIT_OK,
 * EXIT_WARNING, EXIT_CRITICAL or EXIT_INPUT (analyze.h) */
int pairs_run(const char *file, const char *results, enum pm_method method,
	      int json);

#endif
