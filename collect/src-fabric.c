/* src-fabric: the opt-in --fabric scan of the whole InfiniBand subnet,
 * what ibnetdiscover, ibroute and perfquery of every port would show, in
 * one document (schema/BUNDLE.md, section "fabric").
 *
 * libibnetdisc walks the subnet with directed-route SMPs from one local
 * port.  Then, while the time budget lasts, every switch's linear
 * forwarding table is read block by block (SMP Get over the route the
 * walk found), the PMA's ClassPortInfo of every node with a link (which
 * counters it implements), and PortCounters and PortCountersExtended of
 * every port with a link (PMA Get by LID: never a Set, so counters are
 * never cleared).  The libraries are opened with dlopen like libibverbs in
 * src-verbs.c; their headers give only the types.
 *
 * Bounded: the walk runs in a thread that is no longer waited for when
 * the budget runs out; every later MAD has a timeout and is sent only
 * while budget is left; the document has a size cap.  What was found is
 * always written, with "status": "partial" and the reason.
 */
#include <errno.h>
#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "json.h"
#include "rdmalib.h"
#include "src.h"
#include "util.h"

#define FABRIC_MAD_TIMEOUT_MS	500	/* each MAD, then FABRIC_MAD_RETRIES */
#define FABRIC_MAD_RETRIES	2
#define FABRIC_MAX_SMPS		2	/* in flight during the walk */
#define FABRIC_MAX_BYTES	(96u << 20)
#define FABRIC_MAX_ERRORS	500
#define FABRIC_MSG_MAX		(256u << 10)
#define FABRIC_LFT_BLOCK	64	/* entries per LinearForwardingTable */
#define FABRIC_MAX_UCAST_LID	0xbfff
#define FABRIC_MAD_BUF		256	/* a whole MAD: libibmad copies less */
#define PORT_STATE_INIT		2	/* PortInfo LinkState: Init, Armed, Active */

/* the functions of libibumad, libibmad and libibnetdisc we call */
struct fablib {
	void *umad, *mad, *nd;
	int (*get_port)(const char *ca, int port, umad_port_t *p);
	int (*release_port)(umad_port_t *p);
	struct ibmad_port *(*open_port)(char *ca, int port, int *classes,
					int nclasses);
	void (*close_port)(struct ibmad_port *p);
	void (*set_timeout)(struct ibmad_port *p, int ms);
	void (*set_retries)(struct ibmad_port *p, int n);
	uint32_t (*get_field)(void *buf, int off, enum MAD_FIELDS f);
	uint64_t (*get_field64)(void *buf, int off, enum MAD_FIELDS f);
	const char *(*field_name)(enum MAD_FIELDS f);
	uint8_t *(*smp_query)(void *buf, ib_portid_t *id, unsigned attr,
			      unsigned mod, unsigned timeout,
			      const struct ibmad_port *p);
	uint8_t *(*pma_query)(void *buf, ib_portid_t *id, int port,
			      unsigned timeout, unsigned attr,
			      const struct ibmad_port *p);
	ibnd_fabric_t *(*discover)(char *ca, int port, ib_portid_t *from,
				   struct ibnd_config *cfg);
	void (*destroy)(ibnd_fabric_t *f);
};

/* what the scan learnt of one port beyond libibnetdisc's PortInfo */
struct fport {
	ibnd_port_t *p;
	unsigned char pc[FABRIC_MAD_BUF], pcx[FABRIC_MAD_BUF];
	unsigned char have_pc, have_pcx;
};

struct fnode {
	ibnd_node_t *n;
	unsigned char cpi[FABRIC_MAD_BUF];	/* the PMA's ClassPortInfo */
	int have_cpi;
	struct fport *ports;	/* index = port number, .p NULL: none */
	int *lft;		/* -1: its block could not be read */
	unsigned nlft;
};

struct fabric_scan {
	struct ctx *c;
	struct fablib l;
	struct ibmad_port *port;
	struct fnode *nodes;
	size_t nnodes;
	int64_t start_us, until_us;
	int budget_out;
	char why_budget[96];
	struct buf errors;	/* JSON strings, comma-separated */
	unsigned nerrors, errors_dropped;
	struct ctx_quiet quiet;	/* the libraries' messages (lost SMPs) */
};

static void fab_error(struct fabric_scan *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fab_error(struct fabric_scan *f, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (f->nerrors >= FABRIC_MAX_ERRORS) {
		f->errors_dropped++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (f->errors.len)
		buf_addch(&f->errors, ',');
	json_quote(&f->errors, msg, strlen(msg));
	f->nerrors++;
}

/* the last line when errors were left out */
static void fab_error_more(struct fabric_scan *f)
{
	char msg[64];

	xsnprintf(msg, sizeof(msg), "... and %u more", f->errors_dropped);
	buf_addch(&f->errors, ',');
	json_quote(&f->errors, msg, strlen(msg));
}

/* --- loading --- */

static void *fsym(void *h, const char *name, int *missing)
{
	void *p = rdmalib_sym(h, name);

	if (!p)
		(*missing)++;
	return p;
}

/* 0, or -1 with the reason set */
static int fablib_load(struct ctx *c, struct fablib *l)
{
	static const char *const names[] = {
		"libibumad.so.3", "libibmad.so.5", "libibnetdisc.so.5",
	};
	void **h[] = { &l->umad, &l->mad, &l->nd };
	int missing = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		*h[i] = rdmalib_open(names[i]);
		if (*h[i])
			continue;
		ctx_reason(c, "%s cannot be loaded (%s)", names[i],
			   rdmalib_error());
		return -1;
	}
	/* POSIX lets a void * from dlsym become a function pointer */
	l->get_port = (int (*)(const char *, int, umad_port_t *))
		fsym(l->umad, "umad_get_port", &missing);
	l->release_port = (int (*)(umad_port_t *))
		fsym(l->umad, "umad_release_port", &missing);
	l->open_port = (struct ibmad_port *(*)(char *, int, int *, int))
		fsym(l->mad, "mad_rpc_open_port", &missing);
	l->close_port = (void (*)(struct ibmad_port *))
		fsym(l->mad, "mad_rpc_close_port", &missing);
	l->set_timeout = (void (*)(struct ibmad_port *, int))
		fsym(l->mad, "mad_rpc_set_timeout", &missing);
	l->set_retries = (void (*)(struct ibmad_port *, int))
		fsym(l->mad, "mad_rpc_set_retries", &missing);
	l->get_field = (uint32_t (*)(void *, int, enum MAD_FIELDS))
		fsym(l->mad, "mad_get_field", &missing);
	l->get_field64 = (uint64_t (*)(void *, int, enum MAD_FIELDS))
		fsym(l->mad, "mad_get_field64", &missing);
	l->field_name = (const char *(*)(enum MAD_FIELDS))
		fsym(l->mad, "mad_field_name", &missing);
	l->smp_query = (uint8_t *(*)(void *, ib_portid_t *, unsigned,
				     unsigned, unsigned,
				     const struct ibmad_port *))
		fsym(l->mad, "smp_query_via", &missing);
	l->pma_query = (uint8_t *(*)(void *, ib_portid_t *, int, unsigned,
				     unsigned, const struct ibmad_port *))
		fsym(l->mad, "pma_query_via", &missing);
	l->discover = (ibnd_fabric_t *(*)(char *, int, ib_portid_t *,
					  struct ibnd_config *))
		fsym(l->nd, "ibnd_discover_fabric", &missing);
	l->destroy = (void (*)(ibnd_fabric_t *))
		fsym(l->nd, "ibnd_destroy_fabric", &missing);
	if (missing) {
		ctx_reason(c, "the MAD libraries lack %d of the functions "
			   "needed", missing);
		return -1;
	}
	return 0;
}

/* --- the budget --- */

/* 1 while there is time for another MAD; the first "no" is remembered */
static int budget_left(struct fabric_scan *f)
{
	if (f->budget_out)
		return 0;
	if (mono_us() + FABRIC_MAD_TIMEOUT_MS * 1000 < f->until_us)
		return 1;
	f->budget_out = 1;
	return 0;
}

static void budget_init(struct fabric_scan *f)
{
	const struct collect_opts *o = f->c->opts;
	int64_t global;

	f->start_us = mono_us();
	f->until_us = f->start_us + (int64_t)o->fabric_timeout_ms * 1000;
	xsnprintf(f->why_budget, sizeof(f->why_budget),
		  "time budget of %g s ran out", o->fabric_timeout_ms / 1000.0);
	/* the runner's global deadline, as it computes it; the slack beyond
	 * it is the time to write the document */
	global = f->c->start_us + (int64_t)o->deadline_ms * 1000 +
		 (int64_t)o->sample_s * 1000000 +
		 ((int64_t)o->fabric_timeout_ms + SRC_FABRIC_SLACK_MS) * 1000;
	if (global - SRC_FABRIC_SLACK_MS * 1000 < f->until_us) {
		f->until_us = global - SRC_FABRIC_SLACK_MS * 1000;
		xsnprintf(f->why_budget, sizeof(f->why_budget),
			  "the global deadline (--deadline) came first");
	}
}

/* --- the walk --- */

struct walk {
	const struct fablib *l;
	char ca[UMAD_CA_NAME_LEN];
	int port;
	struct ibnd_config cfg;
	ibnd_fabric_t *fabric;
	int done;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

static void *walk_thread(void *arg)
{
	struct walk *w = arg;
	ibnd_fabric_t *fab = w->l->discover(w->ca, w->port, NULL, &w->cfg);

	pthread_mutex_lock(&w->lock);
	w->fabric = fab;
	w->done = 1;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/* run ibnd_discover_fabric until f->until_us: 0 (w->fabric may be NULL),
 * or -ETIMEDOUT, and then the thread is left running with w (so w is
 * never freed: the source's process ends soon after) */
static int walk(struct fabric_scan *f, struct walk *w)
{
	pthread_condattr_t attr;
	struct timespec ts;
	pthread_t t;
	int done, rc;

	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cond, &attr);
	pthread_condattr_destroy(&attr);
	rc = pthread_create(&t, NULL, walk_thread, w);
	if (rc) {
		/* no thread: the walk itself is bounded by its MAD timeouts */
		walk_thread(w);
		return 0;
	}
	ts.tv_sec = (time_t)(f->until_us / 1000000);
	ts.tv_nsec = (long)(f->until_us % 1000000) * 1000;
	pthread_mutex_lock(&w->lock);
	rc = 0;
	while (!w->done && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&w->cond, &w->lock, &ts);
	done = w->done;
	pthread_mutex_unlock(&w->lock);
	if (!done) {
		pthread_detach(t);
		return -ETIMEDOUT;
	}
	pthread_join(t, NULL);
	return 0;
}

/* the walk's own error lines: a lost SMP is "... bad status ..." */
static unsigned walk_errors(struct fabric_scan *f, const struct buf *msg)
{
	const char *p = msg->buf, *e;
	unsigned lost = 0;

	for (; *p; p = *e ? e + 1 : e) {
		e = strchrnul(p, '\n');
		if (!memmem(p, (size_t)(e - p), "bad status", 10))
			continue;
		lost++;
		fab_error(f, "discovery: %.*s", (int)(e - p), p);
	}
	return lost;
}

/* --- after the walk: forwarding tables and counters --- */

static int guid_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct fnode *)a)->n->guid;
	uint64_t y = ((const struct fnode *)b)->n->guid;

	return x < y ? -1 : x > y;
}

/* every node, sorted by GUID (the walk's order depends on timing) */
static int nodes_init(struct fabric_scan *f, ibnd_fabric_t *fab)
{
	ibnd_node_t *n;
	size_t i = 0;

	for (n = fab->nodes; n; n = n->next)
		f->nnodes++;
	f->nodes = calloc(f->nnodes ? f->nnodes : 1, sizeof(*f->nodes));
	if (!f->nodes)
		return -ENOMEM;
	for (n = fab->nodes; n; n = n->next) {
		struct fnode *fn = &f->nodes[i++];
		int p;

		fn->n = n;
		if (n->numports < 0 || n->numports > 255 || !n->ports)
			continue;
		fn->ports = calloc((size_t)n->numports + 1, sizeof(*fn->ports));
		if (!fn->ports)
			return -ENOMEM;
		for (p = 0; p <= n->numports; p++)
			fn->ports[p].p = n->ports[p];
	}
	qsort(f->nodes, f->nnodes, sizeof(*f->nodes), guid_cmp);
	return 0;
}

static const char *mad_errstr(int err)
{
	switch (err) {
	case ETIMEDOUT: return "timeout";
	case EIO: return "error status in the answer";
	case 0: return "failed";
	default: return strerror(err);
	}
}

/* LinearFDBTop from the SwitchInfo the walk read, then every block */
static void read_lft(struct fabric_scan *f, struct fnode *fn)
{
	const struct fablib *l = &f->l;
	ibnd_node_t *n = fn->n;
	unsigned top, b, i;

	top = l->get_field(n->switchinfo, 0, IB_SW_LINEAR_FDB_TOP_F);
	if (!top)
		return;		/* no SM has programmed it */
	if (top > FABRIC_MAX_UCAST_LID)
		top = FABRIC_MAX_UCAST_LID;
	fn->lft = malloc(((size_t)top + 1) * sizeof(*fn->lft));
	if (!fn->lft) {
		fab_error(f, "node 0x%016" PRIx64 ": LinearForwardingTable: "
			  "out of memory", n->guid);
		return;
	}
	fn->nlft = top + 1;
	for (i = 0; i < fn->nlft; i++)
		fn->lft[i] = -1;
	for (b = 0; b * FABRIC_LFT_BLOCK <= top; b++) {
		unsigned char blk[FABRIC_MAD_BUF];
		ib_portid_t id = n->path_portid;

		if (!budget_left(f))
			return;
		memset(blk, 0, sizeof(blk));
		errno = 0;
		if (!l->smp_query(blk, &id, IB_ATTR_LINEARFORWTBL, b, 0,
				  f->port)) {
			fab_error(f, "node 0x%016" PRIx64 ": LinearForwardingTable "
				  "block %u: %s", n->guid, b, mad_errstr(errno));
			continue;
		}
		for (i = 0; i < FABRIC_LFT_BLOCK &&
			    b * FABRIC_LFT_BLOCK + i < fn->nlft; i++)
			fn->lft[b * FABRIC_LFT_BLOCK + i] = blk[i];
	}
}

static int port_state(const struct fablib *l, ibnd_port_t *p)
{
	return (int)l->get_field(p->info, 0, IB_PORT_STATE_F);
}

/* the LID a port's PMA answers at: a switch's is its port 0's */
static unsigned pma_lid(ibnd_node_t *n, ibnd_port_t *p)
{
	return n->type == IB_NODE_SWITCH ? n->smalid : p->base_lid;
}

/* the PMA's ClassPortInfo, once per node, at the LID and port its
 * counters are read at first: a switch has one PMA, and a CA's ports
 * share their node's implementation */
static void read_cpi(struct fabric_scan *f, struct fnode *fn, int pn)
{
	const struct fablib *l = &f->l;
	ibnd_node_t *n = fn->n;
	unsigned lid = pma_lid(n, fn->ports[pn].p);
	ib_portid_t id;

	if (!lid || lid > FABRIC_MAX_UCAST_LID || !budget_left(f))
		return;		/* read_pma() says why */
	memset(&id, 0, sizeof(id));
	ib_portid_set(&id, (int)lid, 0, 0);
	errno = 0;
	if (l->pma_query(fn->cpi, &id, pn, 0, CLASS_PORT_INFO, f->port))
		fn->have_cpi = 1;
	else
		fab_error(f, "node 0x%016" PRIx64 ": ClassPortInfo (PMA) port "
			  "%d: %s", n->guid, pn, mad_errstr(errno));
}

static void read_pma(struct fabric_scan *f, struct fnode *fn, int pn)
{
	const struct fablib *l = &f->l;
	struct fport *fp = &fn->ports[pn];
	ibnd_node_t *n = fn->n;
	unsigned lid = pma_lid(n, fp->p);
	ib_portid_t id;

	if (!lid || lid > FABRIC_MAX_UCAST_LID) {
		fab_error(f, "node 0x%016" PRIx64 ": port %d: no LID for the "
			  "PMA (has an SM run?)", n->guid, pn);
		return;
	}
	if (!budget_left(f))
		return;
	memset(&id, 0, sizeof(id));
	ib_portid_set(&id, (int)lid, 0, 0);
	errno = 0;
	if (l->pma_query(fp->pc, &id, pn, 0, IB_GSI_PORT_COUNTERS, f->port))
		fp->have_pc = 1;
	else
		fab_error(f, "node 0x%016" PRIx64 ": PortCounters port %d: %s",
			  n->guid, pn, mad_errstr(errno));
	if (!budget_left(f))
		return;
	memset(&id, 0, sizeof(id));
	ib_portid_set(&id, (int)lid, 0, 0);
	errno = 0;
	if (l->pma_query(fp->pcx, &id, pn, 0, IB_GSI_PORT_COUNTERS_EXT,
			 f->port))
		fp->have_pcx = 1;
	else
		fab_error(f, "node 0x%016" PRIx64 ": PortCountersExtended "
			  "port %d: %s", n->guid, pn, mad_errstr(errno));
}

static void query_all(struct fabric_scan *f)
{
	size_t i;
	int p;

	/* forwarding tables first: a few MADs per switch, while counters
	 * take two per port and one per node */
	for (i = 0; i < f->nnodes && budget_left(f); i++)
		if (f->nodes[i].n->type == IB_NODE_SWITCH)
			read_lft(f, &f->nodes[i]);
	for (i = 0; i < f->nnodes && budget_left(f); i++) {
		struct fnode *fn = &f->nodes[i];
		int asked = 0;

		if (!fn->ports)
			continue;
		for (p = 1; p <= fn->n->numports && budget_left(f); p++) {
			if (!fn->ports[p].p ||
			    port_state(&f->l, fn->ports[p].p) < PORT_STATE_INIT)
				continue;
			if (!asked++)
				read_cpi(f, fn, p);
			read_pma(f, fn, p);
		}
	}
}

/* --- the document --- */

static void json_guid(struct json *j, const char *key, uint64_t g)
{
	char s[24];

	xsnprintf(s, sizeof(s), "0x%016" PRIx64, g);
	json_str(j, key, s);
}

/* the fields of one PMA attribute, by libibmad's field names */
static void json_counters(struct fabric_scan *f, struct json *j,
			  const char *key, unsigned char *buf,
			  enum MAD_FIELDS first, enum MAD_FIELDS last,
			  enum MAD_FIELDS first64)
{
	enum MAD_FIELDS fld;

	json_obj_open(j, key);
	for (fld = first; fld < last; fld++) {
		const char *name = f->l.field_name(fld);

		if (!name)
			continue;
		if (fld == IB_PC_VL15_DROPPED_F)	/* where perfquery has it */
			json_uint(j, f->l.field_name(IB_PC_QP1_DROP_F),
				  f->l.get_field(buf, 0, IB_PC_QP1_DROP_F));
		if (fld >= first64)
			json_uint(j, name, f->l.get_field64(buf, 0, fld));
		else
			json_uint(j, name, f->l.get_field(buf, 0, fld));
	}
	json_obj_close(j);
}

static int portinfo_empty(const ibnd_port_t *p)
{
	size_t i;

	for (i = 0; i < sizeof(p->info); i++)
		if (p->info[i])
			return 0;
	return 1;
}

/* the PortInfo with the CapabilityMask: port 0's on a switch */
static void *cap_info(struct fport *fp)
{
	ibnd_node_t *n = fp->p->node;

	if (n && n->type == IB_NODE_SWITCH && n->ports && n->ports[0])
		return n->ports[0]->info;
	return fp->p->info;
}

static void json_port(struct fabric_scan *f, struct json *j,
		      struct fport *fp)
{
	static const struct {
		const char *key;
		enum MAD_FIELDS fld;
	} pi[] = {
		{ "state", IB_PORT_STATE_F },
		{ "phys_state", IB_PORT_PHYS_STATE_F },
		{ "width_enabled", IB_PORT_LINK_WIDTH_ENABLED_F },
		{ "width_supported", IB_PORT_LINK_WIDTH_SUPPORTED_F },
		{ "width_active", IB_PORT_LINK_WIDTH_ACTIVE_F },
		{ "speed_enabled", IB_PORT_LINK_SPEED_ENABLED_F },
		{ "speed_supported", IB_PORT_LINK_SPEED_SUPPORTED_F },
		{ "speed_active", IB_PORT_LINK_SPEED_ACTIVE_F },
		{ "speed_ext_enabled", IB_PORT_LINK_SPEED_EXT_ENABLED_F },
		{ "speed_ext_supported", IB_PORT_LINK_SPEED_EXT_SUPPORTED_F },
		{ "speed_ext_active", IB_PORT_LINK_SPEED_EXT_ACTIVE_F },
	};
	ibnd_port_t *p = fp->p;
	size_t i;

	json_obj_open(j, NULL);
	json_int(j, "port", p->portnum);
	json_guid(j, "guid", p->guid);
	json_uint(j, "lid", p->base_lid);
	json_uint(j, "lmc", p->lmc);
	/* a switch's ports share port 0's; it says which speed fields
	 * are valid (IsExtendedSpeedsSupported) */
	json_uint(j, "cap_mask", f->l.get_field(cap_info(fp), 0,
						IB_PORT_CAPMASK_F));
	for (i = 0; i < ARRAY_SIZE(pi); i++)
		json_uint(j, pi[i].key, f->l.get_field(p->info, 0, pi[i].fld));
	if (p->remoteport && p->remoteport->node) {
		json_obj_open(j, "remote");
		json_guid(j, "guid", p->remoteport->node->guid);
		json_int(j, "port", p->remoteport->portnum);
		json_obj_close(j);
	} else {
		json_null(j, "remote");
	}
	if (fp->have_pc || fp->have_pcx) {
		json_obj_open(j, "pma");
		if (fp->have_pc)
			json_counters(f, j, "PortCounters", fp->pc,
				      IB_PC_FIRST_F, IB_PC_LAST_F, IB_PC_LAST_F);
		if (fp->have_pcx)
			json_counters(f, j, "PortCountersExtended", fp->pcx,
				      IB_PC_EXT_FIRST_F, IB_PC_EXT_LAST_F,
				      IB_PC_EXT_XMT_BYTES_F);
		json_obj_close(j);
	}
	json_obj_close(j);
}

/* "0,1,5": the directed route from the scanning port */
static void json_drpath(struct json *j, const ib_portid_t *id)
{
	char s[IB_SUBNET_PATH_HOPS_MAX * 4 + 4];
	size_t n = 0;
	int i, cnt = id->drpath.cnt;

	if (cnt < 0 || cnt >= IB_SUBNET_PATH_HOPS_MAX)
		cnt = 0;
	for (i = 0; i <= cnt; i++)
		n += (size_t)snprintf(s + n, sizeof(s) - n, "%s%u",
				      i ? "," : "", id->drpath.p[i]);
	json_str(j, "dr_path", s);
}

/* a CA has no port 0: its node LID is that of its first port found */
static unsigned node_lid(const struct fnode *fn)
{
	int p;

	if (fn->n->type == IB_NODE_SWITCH)
		return fn->n->smalid;
	for (p = 1; fn->ports && p <= fn->n->numports; p++)
		if (fn->ports[p].p && !portinfo_empty(fn->ports[p].p))
			return fn->ports[p].p->base_lid;
	return 0;
}

static void json_node(struct fabric_scan *f, struct buf *out,
		      struct fnode *fn)
{
	const struct fablib *l = &f->l;
	ibnd_node_t *n = fn->n;
	struct json j;
	unsigned i;
	int p;

	json_init(&j, out, 0);
	json_obj_open(&j, NULL);
	json_guid(&j, "guid", n->guid);
	json_int(&j, "type", n->type);
	json_strn(&j, "desc", n->nodedesc,
		  strnlen(n->nodedesc, IB_SMP_DATA_SIZE));
	json_int(&j, "num_ports", n->numports);
	json_uint(&j, "lid", node_lid(fn));
	json_guid(&j, "system_guid",
		  l->get_field64(n->info, 0, IB_NODE_SYSTEM_GUID_F));
	json_uint(&j, "vendor_id", l->get_field(n->info, 0,
						IB_NODE_VENDORID_F));
	json_uint(&j, "device_id", l->get_field(n->info, 0, IB_NODE_DEVID_F));
	json_drpath(&j, &n->path_portid);
	if (fn->have_cpi) {
		/* the numbers only: the redirect and trap GIDs are arrays */
		json_obj_open(&j, "pma");
		json_counters(f, &j, "ClassPortInfo", fn->cpi, IB_CPI_BASEVER_F,
			      IB_CPI_REDIRECT_GID_F, IB_CPI_REDIRECT_GID_F);
		json_obj_close(&j);
	}
	json_arr_open(&j, "ports");
	for (p = 0; fn->ports && p <= n->numports; p++) {
		struct fport *fp = &fn->ports[p];

		if (!fp->p)
			continue;
		if (portinfo_empty(fp->p)) {
			fab_error(f, "node 0x%016" PRIx64 ": port %d: no "
				  "PortInfo", n->guid, p);
			continue;
		}
		json_port(f, &j, fp);
	}
	json_arr_close(&j);
	if (n->type == IB_NODE_SWITCH) {
		json_arr_open(&j, "lft");
		for (i = 0; i < fn->nlft; i++) {
			if (fn->lft[i] < 0)
				json_null(&j, NULL);
			else
				json_int(&j, NULL, fn->lft[i]);
		}
		json_arr_close(&j);
	}
	json_obj_close(&j);
}

/* nodes one a line (compact: a large fabric runs to megabytes), up to
 * the size cap; returns the count written */
static size_t json_nodes(struct fabric_scan *f, struct buf *out,
			 size_t cap)
{
	size_t i;

	buf_addch(out, '[');
	for (i = 0; i < f->nnodes; i++) {
		size_t before = out->len;

		buf_addstr(out, i ? ",\n" : "\n");
		json_node(f, out, &f->nodes[i]);
		if (out->len > cap) {
			buf_setlen(out, before);
			break;
		}
	}
	buf_addstr(out, "\n]");
	return i;
}

static void write_doc(struct fabric_scan *f, const char *ca, int port,
		      const char *status, const char *reason,
		      const struct buf *nodes)
{
	struct buf b = BUF_INIT, e = BUF_INIT;
	struct json j;

	if (f->errors_dropped)
		fab_error_more(f);
	buf_addch(&e, '[');
	buf_add(&e, f->errors.buf, f->errors.len);
	buf_addch(&e, ']');
	json_init(&j, &b, 1);
	json_obj_open(&j, NULL);
	json_str(&j, "status", status);
	json_str(&j, "reason", reason);
	json_obj_open(&j, "from");
	json_str(&j, "ibdev", ca);
	json_int(&j, "port", port);
	json_obj_close(&j);
	json_int(&j, "duration_ms", (mono_us() - f->start_us) / 1000);
	json_raw(&j, "errors", e.buf);
	json_raw(&j, "nodes", nodes->len ? nodes->buf : "[]");
	json_obj_close(&j);
	json_end(&j);
	ctx_emit_buf(f->c, "fabric/fabric.json", &b);
	buf_release(&e);
	buf_release(&b);
}

/* --- the source --- */

/* under --root: the stored scan, with the status it had */
static int collect_stored(struct ctx *c)
{
	struct buf b = BUF_INIT;
	int rc;

	rc = ctx_stored(c, "fabric");
	if (rc == -ENOENT) {
		ctx_reason(c, "%sno stored fabric scan under the root",
			   c->opts->fabric ? "" : "not requested, and ");
		return SRC_ABSENT;
	}
	if (rc < 0) {
		ctx_reason(c, "cannot copy the stored fabric scan: %s",
			   strerror(-rc));
		return SRC_ERROR;
	}
	rc = SRC_OK;
	if (!ctx_read(c, "/rdma-collect/fabric/fabric.json", &b) &&
	    (strstr(b.buf, "\"status\": \"partial\"") ||
	     strstr(b.buf, "\"status\":\"partial\""))) {
		ctx_reason(c, "the stored fabric scan is partial");
		rc = SRC_PARTIAL;
	}
	buf_release(&b);
	return rc;
}

/* the local port to scan from, as libibumad resolves it: the named one,
 * or the first active InfiniBand port; 0 or -1 with the reason set */
static int pick_port(struct fabric_scan *f, char *ca, size_t n, int *port)
{
	const struct collect_opts *o = f->c->opts;
	umad_port_t up;
	int rc;

	memset(&up, 0, sizeof(up));
	ctx_progress(f->c, "", "umad_get_port");
	rc = f->l.get_port(o->fabric_ca[0] ? o->fabric_ca : NULL,
			   o->fabric_port, &up);
	if (rc < 0) {
		if (o->fabric_ca[0])
			ctx_reason(f->c, "no InfiniBand port %s:%d to scan from "
				   "(%s)", o->fabric_ca, o->fabric_port,
				   strerror(-rc));
		else
			ctx_reason(f->c, "no active InfiniBand port to scan "
				   "from");
		return -1;
	}
	xsnprintf(ca, n, "%.*s", (int)strnlen(up.ca_name, sizeof(up.ca_name)),
		  up.ca_name);
	*port = up.portnum;
	f->l.release_port(&up);
	return 0;
}

static int scan(struct fabric_scan *f, const char *ca, int port)
{
	const struct collect_opts *o = f->c->opts;
	struct buf nodes = BUF_INIT, msg = BUF_INIT;
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS,
			  IB_PERFORMANCE_CLASS };
	char reason[256] = "";
	size_t cap, written = 0;
	unsigned lost = 0;
	struct walk *w;
	int res = SRC_OK;

	w = calloc(1, sizeof(*w));
	if (!w) {
		ctx_reason(f->c, "out of memory");
		return SRC_ERROR;
	}
	w->l = &f->l;
	xsnprintf(w->ca, sizeof(w->ca), "%s", ca);
	w->port = port;
	w->cfg.max_smps = FABRIC_MAX_SMPS;
	w->cfg.timeout_ms = FABRIC_MAD_TIMEOUT_MS;
	w->cfg.retries = FABRIC_MAD_RETRIES;
	ctx_progress(f->c, "", "ibnd_discover_fabric");
	if (walk(f, w) < 0) {
		/* w stays with the thread that still uses it */
		f->budget_out = 1;
		xsnprintf(reason, sizeof(reason), "%s during discovery",
			  f->why_budget);
		ctx_quiet_read(&f->quiet, &msg, FABRIC_MSG_MAX);
		walk_errors(f, &msg);
		write_doc(f, ca, port, "partial", reason, &nodes);
		buf_release(&msg);
		ctx_reason(f->c, "%s", reason);
		return SRC_PARTIAL;
	}
	ctx_quiet_read(&f->quiet, &msg, FABRIC_MSG_MAX);
	lost = walk_errors(f, &msg);
	if (!w->fabric) {
		const char *m = msg.buf, *e;

		/* the library's first line says why */
		while (*m == '\n')
			m++;
		e = strchrnul(m, '\n');
		xsnprintf(reason, sizeof(reason), "discovery failed: %.*s",
			  (int)(e - m > 200 ? 200 : e - m),
			  *m ? m : "no fabric");
		write_doc(f, ca, port, "partial", reason, &nodes);
		ctx_reason(f->c, "%s", reason);
		res = SRC_ERROR;
		goto out;
	}
	if (nodes_init(f, w->fabric) < 0) {
		ctx_reason(f->c, "out of memory");
		res = SRC_ERROR;
		goto out;
	}
	f->port = f->l.open_port(w->ca, port, classes, ARRAY_SIZE(classes));
	if (f->port) {
		f->l.set_timeout(f->port, FABRIC_MAD_TIMEOUT_MS);
		f->l.set_retries(f->port, FABRIC_MAD_RETRIES);
		ctx_progress(f->c, "", "LinearForwardingTable and PMA queries");
		query_all(f);
		f->l.close_port(f->port);
	} else {
		fab_error(f, "cannot open the MAD port %s:%d for the "
			  "forwarding tables and counters", ca, port);
	}
	cap = FABRIC_MAX_BYTES < o->max_bundle ? FABRIC_MAX_BYTES :
		o->max_bundle;
	written = json_nodes(f, &nodes, cap);
	if (written < f->nnodes)
		xsnprintf(reason, sizeof(reason), "size cap of %zu bytes: %zu "
			  "of %zu nodes written", cap, written, f->nnodes);
	else if (f->budget_out)
		xsnprintf(reason, sizeof(reason), "%s", f->why_budget);
	else if (lost)
		xsnprintf(reason, sizeof(reason), "discovery lost %u SMPs: "
			  "nodes or ports behind them may be missing", lost);
	else if (!f->port)
		xsnprintf(reason, sizeof(reason), "no forwarding tables or "
			  "counters: the MAD port could not be opened");
	ctx_note(f->c, "nodes", "%zu", f->nnodes);
	ctx_note(f->c, "from", "%s:%d", ca, port);
	ctx_note(f->c, "errors", "%u", f->nerrors + f->errors_dropped);
	write_doc(f, ca, port, reason[0] ? "partial" : "ok",
		  reason[0] ? reason : NULL, &nodes);
	if (reason[0]) {
		ctx_reason(f->c, "%s", reason);
		res = SRC_PARTIAL;
	}
out:
	if (w->fabric)
		f->l.destroy(w->fabric);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
	buf_release(&nodes);
	buf_release(&msg);
	return res;
}

static void scan_release(struct fabric_scan *f)
{
	size_t i;

	for (i = 0; i < f->nnodes; i++) {
		free(f->nodes[i].ports);
		free(f->nodes[i].lft);
	}
	free(f->nodes);
	buf_release(&f->errors);
}

static int collect(struct ctx *c)
{
	struct fabric_scan f;
	char ca[UMAD_CA_NAME_LEN + 1];
	int port = 0, res;

	if (ctx_is_root(c))
		return collect_stored(c);
	memset(&f, 0, sizeof(f));
	f.c = c;
	buf_init(&f.errors, 0);
	budget_init(&f);
	ctx_quiet_begin(&f.quiet, "fabric-stderr");
	ctx_progress(c, "", "dlopen libibnetdisc");
	if (fablib_load(c, &f.l) < 0) {
		res = SRC_ABSENT;
		goto out;
	}
	if (pick_port(&f, ca, sizeof(ca), &port) < 0) {
		res = SRC_ABSENT;
		goto out;
	}
	res = scan(&f, ca, port);
out:
	ctx_quiet_end(&f.quiet);
	scan_release(&f);
	/* the libraries stay loaded: a walk thread may still run */
	return res;
}

const struct source src_fabric = {
	.name = "fabric",
	.help = "opt-in (--fabric): the whole subnet (nodes, links, LFTs, "
		"port counters) by libibnetdisc and libibmad",
	.flags = SRC_F_OPTIN | SRC_F_FABRIC | SRC_F_STORED,
	/* the runner gives it --fabric-timeout plus SRC_FABRIC_SLACK_MS */
	.timeout_ms = 120000 + SRC_FABRIC_SLACK_MS,
	.max_bytes = FABRIC_MAX_BYTES + (1u << 20),
	.collect = collect,
};
