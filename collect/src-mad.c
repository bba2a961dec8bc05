/* src-mad: what the fabric says about each local InfiniBand port, asked
 * with MADs: the port's own PortInfo, NodeInfo and NodeDescription, SMInfo
 * of the subnet manager, the neighbour at the far end of the cable
 * (directed route "0,<port>") and the PMA counters of both ends of that
 * cable, with each PMA's ClassPortInfo (which counters it implements).
 * The sysfs and verbs sources see only this side of the link; the far
 * switch port's errors and the SM are only reachable this way.
 *
 * libibumad and libibmad are opened with dlopen (never linked: rdma-core
 * may be missing or broken on the node we are asked about); their headers
 * give only types.  Only Get() methods are sent, so nothing on the fabric
 * changes, and PMA counters are read, never cleared.  Every MAD has a
 * timeout and libibmad's bounded retries; a destination that did not
 * answer once is not asked again, so a dead fabric costs one timeout per
 * destination, not one per MAD.  See schema/BUNDLE.md, section "mad".
 */
#include <errno.h>
#include <stdarg.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "json.h"
#include "log.h"
#include "rdmalib.h"
#include "src.h"
#include "util.h"

#define UMAD_LIB "libibumad.so.3"
#define MAD_LIB "libibmad.so.5"
/* test hooks: other file names (or paths) to dlopen instead */
#define UMAD_LIB_ENV "RDMA_COLLECT_LIBIBUMAD"
#define MAD_LIB_ENV "RDMA_COLLECT_LIBIBMAD"

#define MAD_TIMEOUT_MS 300
/* libibmad's count of sends: each MAD goes out at most twice */
#define MAD_RETRIES 2
#define MAD_MAX_CAS 32
#define MAD_MAX_ERRORS 24
#define MAD_MSG_MAX 1000

/* PortInfo.LinkState */
#define LINK_INIT 2
#define LINK_ACTIVE 4
#define NODE_SWITCH 2

struct madlib {
	void *umad, *mad;
	int (*umad_init)(void);
	int (*get_cas_names)(char cas[][UMAD_CA_NAME_LEN], int max);
	int (*get_ca)(const char *name, umad_ca_t *ca);
	int (*release_ca)(umad_ca_t *ca);
	struct ibmad_port *(*open_port)(char *dev, int port, int *classes,
					int nclasses);
	void (*close_port)(struct ibmad_port *p);
	void (*set_timeout)(struct ibmad_port *p, int ms);
	void (*set_retries)(struct ibmad_port *p, int n);
	uint8_t *(*smp_query)(void *buf, ib_portid_t *id, unsigned attr,
			      unsigned mod, unsigned timeout, int *rstatus,
			      const struct ibmad_port *p);
	uint8_t *(*pma_query)(void *buf, ib_portid_t *dest, int port,
			      unsigned timeout, unsigned id,
			      const struct ibmad_port *p);
	uint32_t (*get_field)(void *buf, int off, enum MAD_FIELDS f);
	uint64_t (*get_field64)(void *buf, int off, enum MAD_FIELDS f);
	const char *(*field_name)(enum MAD_FIELDS f);
	struct ctx_quiet quiet;	/* libibmad's warnings */
};

/* who a MAD goes to; one that timed out is not asked again */
enum dest { D_LOCAL, D_SM, D_PEER, D_LOCAL_PMA, D_PEER_PMA, D_MAX };

struct reply {
	int ok;
	uint8_t data[IB_MAD_SIZE];
};

/* everything learnt about one port, written out once all MADs are done
 * (status and errors come first in the document) */
struct port_ev {
	const char *ibdev;
	int port;
	int unreadable;		/* the port could not be opened or asked */
	int dead[D_MAX];
	struct reply pi, ni, nd, sminfo, pc, pcx, cpi;
	struct reply peer_ni, peer_nd, peer_pi, peer_pi0, peer_pc, peer_pcx,
		     peer_cpi;
	unsigned lid, sm_lid, state, peer_lid, peer_port;
	int nerr;
	struct {
		char what[40];
		char why[96];
	} err[MAD_MAX_ERRORS];
};

static void ev_error(struct port_ev *e, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void ev_error(struct port_ev *e, const char *what, const char *fmt, ...)
{
	va_list ap;

	if (e->nerr >= MAD_MAX_ERRORS)
		return;
	xsnprintf(e->err[e->nerr].what, sizeof(e->err[e->nerr].what), "%s",
		  what);
	va_start(ap, fmt);
	vsnprintf(e->err[e->nerr].why, sizeof(e->err[e->nerr].why), fmt, ap);
	va_end(ap);
	e->nerr++;
}

/* --- loading --- */

static void *lib_open(struct ctx *c, const char *env, const char *file,
		      const char *note)
{
	const char *name = getenv(env);
	void *h;

	if (!name || !*name)
		name = file;
	h = rdmalib_open(name);
	if (!h) {
		const char *e = rdmalib_error();

		ctx_note(c, note, "absent: %s", e);
		ctx_reason(c, "%s cannot be loaded (%s)", note, e);
		return NULL;
	}
	ctx_note(c, note, "ok");
	return h;
}

static void *sym(void *h, const char *name, int *missing)
{
	void *p = rdmalib_sym(h, name);

	if (!p)
		(*missing)++;
	return p;
}

/* 0, or SRC_ABSENT / SRC_ERROR with the reason set */
static int madlib_load(struct ctx *c, struct madlib *m)
{
	int missing = 0;

	m->umad = lib_open(c, UMAD_LIB_ENV, UMAD_LIB, "libibumad");
	if (!m->umad)
		return SRC_ABSENT;
	m->mad = lib_open(c, MAD_LIB_ENV, MAD_LIB, "libibmad");
	if (!m->mad)
		return SRC_ABSENT;
	/* POSIX lets a void * from dlsym become a function pointer */
	m->umad_init = (int (*)(void))sym(m->umad, "umad_init", &missing);
	m->get_cas_names = (int (*)(char (*)[UMAD_CA_NAME_LEN], int))
		sym(m->umad, "umad_get_cas_names", &missing);
	m->get_ca = (int (*)(const char *, umad_ca_t *))
		sym(m->umad, "umad_get_ca", &missing);
	m->release_ca = (int (*)(umad_ca_t *))
		sym(m->umad, "umad_release_ca", &missing);
	m->open_port = (struct ibmad_port *(*)(char *, int, int *, int))
		sym(m->mad, "mad_rpc_open_port", &missing);
	m->close_port = (void (*)(struct ibmad_port *))
		sym(m->mad, "mad_rpc_close_port", &missing);
	m->set_timeout = (void (*)(struct ibmad_port *, int))
		sym(m->mad, "mad_rpc_set_timeout", &missing);
	m->set_retries = (void (*)(struct ibmad_port *, int))
		sym(m->mad, "mad_rpc_set_retries", &missing);
	m->smp_query = (uint8_t *(*)(void *, ib_portid_t *, unsigned,
				     unsigned, unsigned, int *,
				     const struct ibmad_port *))
		sym(m->mad, "smp_query_status_via", &missing);
	m->pma_query = (uint8_t *(*)(void *, ib_portid_t *, int, unsigned,
				     unsigned, const struct ibmad_port *))
		sym(m->mad, "pma_query_via", &missing);
	m->get_field = (uint32_t (*)(void *, int, enum MAD_FIELDS))
		sym(m->mad, "mad_get_field", &missing);
	m->get_field64 = (uint64_t (*)(void *, int, enum MAD_FIELDS))
		sym(m->mad, "mad_get_field64", &missing);
	m->field_name = (const char *(*)(enum MAD_FIELDS))
		sym(m->mad, "mad_field_name", &missing);
	if (missing) {
		ctx_reason(c, "libibumad or libibmad lacks %d of the functions "
			   "needed", missing);
		return SRC_ERROR;
	}
	return 0;
}

/* --- asking --- */

static void portid_dr(ib_portid_t *id, int out_port)
{
	memset(id, 0, sizeof(*id));
	id->drpath.drslid = 0xffff;
	id->drpath.drdlid = 0xffff;
	if (out_port) {
		id->drpath.cnt = 1;
		id->drpath.p[1] = (uint8_t)out_port;
	}
}

static void portid_lid(ib_portid_t *id, unsigned lid)
{
	memset(id, 0, sizeof(*id));
	id->lid = (int)lid;
}

/* one failed MAD: a reply with an error status leaves the destination
 * usable, no reply at all marks it dead */
static void mad_failed(struct port_ev *e, enum dest d, const char *what,
		       int err, int rstatus)
{
	if (rstatus) {
		ev_error(e, what, "MAD status 0x%04x", (unsigned)rstatus);
		return;
	}
	e->dead[d] = 1;
	if (err == ETIMEDOUT)
		ev_error(e, what, "timeout");
	else if (err)
		ev_error(e, what, "%s", errno_name(err));
	else
		ev_error(e, what, "error status in the reply");
}

static int smp_get(struct madlib *m, struct ibmad_port *p, struct port_ev *e,
		   enum dest d, const char *what, struct reply *r,
		   ib_portid_t *id, unsigned attr, unsigned mod)
{
	int rstatus = 0;

	if (e->dead[d]) {
		ev_error(e, what, "not sent: no answer to an earlier MAD");
		return -1;
	}
	memset(r, 0, sizeof(*r));
	errno = 0;
	if (m->smp_query(r->data, id, attr, mod, 0, &rstatus, p)) {
		r->ok = 1;
		return 0;
	}
	mad_failed(e, d, what, errno, rstatus);
	return -1;
}

static int pma_get(struct madlib *m, struct ibmad_port *p, struct port_ev *e,
		   enum dest d, const char *what, struct reply *r,
		   unsigned lid, unsigned port, unsigned attr)
{
	ib_portid_t id;

	if (e->dead[d]) {
		ev_error(e, what, "not sent: no answer to an earlier MAD");
		return -1;
	}
	memset(r, 0, sizeof(*r));
	portid_lid(&id, lid);
	errno = 0;
	if (m->pma_query(r->data, &id, (int)port, 0, attr, p)) {
		r->ok = 1;
		return 0;
	}
	mad_failed(e, d, what, errno, 0);
	return -1;
}

/* the port's own PortInfo, NodeInfo, NodeDescription; -1 when even its
 * own SMA does not answer */
static int ask_local(struct madlib *m, struct ibmad_port *p,
		     struct port_ev *e)
{
	ib_portid_t id;

	portid_dr(&id, 0);
	if (smp_get(m, p, e, D_LOCAL, "local.portinfo", &e->pi, &id,
		    IB_ATTR_PORT_INFO, (unsigned)e->port) < 0)
		return -1;
	e->lid = m->get_field(e->pi.data, 0, IB_PORT_LID_F);
	e->sm_lid = m->get_field(e->pi.data, 0, IB_PORT_SMLID_F);
	e->state = m->get_field(e->pi.data, 0, IB_PORT_STATE_F);
	smp_get(m, p, e, D_LOCAL, "local.nodeinfo", &e->ni, &id,
		IB_ATTR_NODE_INFO, 0);
	smp_get(m, p, e, D_LOCAL, "local.node_desc", &e->nd, &id,
		IB_ATTR_NODE_DESC, 0);
	return 0;
}

static void ask_sminfo(struct madlib *m, struct ibmad_port *p,
		       struct port_ev *e)
{
	ib_portid_t id;

	if (!e->sm_lid) {
		ev_error(e, "sminfo", "no SM LID");
		return;
	}
	if (e->state < LINK_INIT) {
		ev_error(e, "sminfo", "not sent: link down (LinkState %u)",
			 e->state);
		return;
	}
	portid_lid(&id, e->sm_lid);
	smp_get(m, p, e, D_SM, "sminfo", &e->sminfo, &id, IB_ATTR_SMINFO, 0);
}

/* the node at the far end of the cable, by directed route: a switch's
 * LID is its port 0's, a CA's is that of the port the cable enters */
static void ask_peer(struct madlib *m, struct ibmad_port *p,
		     struct port_ev *e)
{
	ib_portid_t id;
	unsigned type;

	if (e->state < LINK_INIT) {
		ev_error(e, "peer", "link down (LinkState %u, PhysLinkState %u)",
			 e->state,
			 m->get_field(e->pi.data, 0, IB_PORT_PHYS_STATE_F));
		return;
	}
	portid_dr(&id, e->port);
	if (smp_get(m, p, e, D_PEER, "peer.nodeinfo", &e->peer_ni, &id,
		    IB_ATTR_NODE_INFO, 0) < 0)
		return;
	e->peer_port = m->get_field(e->peer_ni.data, 0, IB_NODE_LOCAL_PORT_F);
	type = m->get_field(e->peer_ni.data, 0, IB_NODE_TYPE_F);
	smp_get(m, p, e, D_PEER, "peer.node_desc", &e->peer_nd, &id,
		IB_ATTR_NODE_DESC, 0);
	if (!smp_get(m, p, e, D_PEER, "peer.portinfo", &e->peer_pi, &id,
		     IB_ATTR_PORT_INFO, e->peer_port) && type != NODE_SWITCH)
		e->peer_lid = m->get_field(e->peer_pi.data, 0, IB_PORT_LID_F);
	if (type == NODE_SWITCH &&
	    !smp_get(m, p, e, D_PEER, "peer.lid", &e->peer_pi0, &id,
		     IB_ATTR_PORT_INFO, 0))
		e->peer_lid = m->get_field(e->peer_pi0.data, 0, IB_PORT_LID_F);
}

/* PortCounters, PortCountersExtended and the PMA's ClassPortInfo,
 * LID-routed: GMPs need an Active link and a LID.  The counters go first:
 * they are the evidence, and a PMA that does not answer is then named by
 * them; ClassPortInfo says which of them the PMA implements (perfquery's
 * "CapMask") */
static void ask_pma(struct madlib *m, struct ibmad_port *p,
		    struct port_ev *e, int peer)
{
	const char *side = peer ? "peer" : "local";
	unsigned lid = peer ? e->peer_lid : e->lid;
	unsigned port = peer ? e->peer_port : (unsigned)e->port;
	enum dest d = peer ? D_PEER_PMA : D_LOCAL_PMA;
	char what[40];

	xsnprintf(what, sizeof(what), "%s.pma", side);
	if (e->state != LINK_ACTIVE) {
		ev_error(e, what, "not sent: link not Active (LinkState %u)",
			 e->state);
		return;
	}
	if (!lid) {
		ev_error(e, what, "not sent: no LID");
		return;
	}
	xsnprintf(what, sizeof(what), "%s.pma.PortCounters", side);
	pma_get(m, p, e, d, what, peer ? &e->peer_pc : &e->pc, lid, port,
		IB_GSI_PORT_COUNTERS);
	xsnprintf(what, sizeof(what), "%s.pma.PortCountersExtended", side);
	pma_get(m, p, e, d, what, peer ? &e->peer_pcx : &e->pcx, lid, port,
		IB_GSI_PORT_COUNTERS_EXT);
	xsnprintf(what, sizeof(what), "%s.pma.ClassPortInfo", side);
	pma_get(m, p, e, d, what, peer ? &e->peer_cpi : &e->cpi, lid, port,
		CLASS_PORT_INFO);
}

static void ask_port(struct madlib *m, struct port_ev *e, int timeout_ms)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS,
			  IB_PERFORMANCE_CLASS };
	struct ibmad_port *p;

	errno = 0;
	p = m->open_port((char *)e->ibdev, e->port, classes,
			 (int)ARRAY_SIZE(classes));
	if (!p) {
		ev_error(e, "open", "mad_rpc_open_port failed: %s",
			 errno_name(errno ? errno : ENODEV));
		e->unreadable = 1;
		return;
	}
	m->set_timeout(p, timeout_ms);
	m->set_retries(p, MAD_RETRIES);
	if (ask_local(m, p, e) < 0) {
		e->unreadable = 1;
		goto out;
	}
	ask_sminfo(m, p, e);
	ask_peer(m, p, e);
	ask_pma(m, p, e, 0);
	if (e->peer_ni.ok)
		ask_pma(m, p, e, 1);
out:
	m->close_port(p);
}

/* --- writing --- */

enum fkind { F_NUM, F_NUM64, F_GUID };

static enum fkind field_kind(enum MAD_FIELDS f)
{
	switch (f) {
	case IB_PORT_GID_PREFIX_F:
	case IB_NODE_SYSTEM_GUID_F:
	case IB_NODE_GUID_F:
	case IB_NODE_PORT_GUID_F:
	case IB_SMINFO_GUID_F:
		return F_GUID;
	default:
		break;
	}
	if (f > IB_PC_EXT_COUNTER_SELECT_F && f < IB_PC_EXT_LAST_F)
		return F_NUM64;
	return F_NUM;
}

static void field_json(struct madlib *m, struct json *j,
		       const struct reply *r, enum MAD_FIELDS f)
{
	const char *name = m->field_name(f);
	void *data = (void *)r->data;
	char g[24];

	if (!name || !*name)
		return;
	switch (field_kind(f)) {
	case F_GUID:
		xsnprintf(g, sizeof(g), "0x%016llx", (unsigned long long)
			  m->get_field64(data, 0, f));
		json_str(j, name, g);
		break;
	case F_NUM64:
		json_uint(j, name, m->get_field64(data, 0, f));
		break;
	default:
		json_uint(j, name, m->get_field(data, 0, f));
		break;
	}
}

/* the fields first..last-1 of a reply, skipping the secrets (M_Key,
 * SM_Key): a bundle goes into tickets */
static void range_json(struct madlib *m, struct json *j, const struct reply *r,
		       enum MAD_FIELDS first, enum MAD_FIELDS last)
{
	int f;

	for (f = first; f < (int)last; f++)
		if (f != IB_PORT_MKEY_F && f != IB_SMINFO_KEY_F)
			field_json(m, j, r, (enum MAD_FIELDS)f);
}

static void portinfo_json(struct madlib *m, struct json *j, const char *key,
			  const struct reply *r)
{
	json_obj_open(j, key);
	range_json(m, j, r, IB_PORT_FIRST_F, IB_PORT_LAST_F);
	range_json(m, j, r, IB_PORT_CAPMASK2_F, IB_PORT_LINK_SPEED_EXT_LAST_F);
	json_obj_close(j);
}

static void nodeinfo_json(struct madlib *m, struct json *j,
			  const struct reply *r)
{
	json_obj_open(j, "nodeinfo");
	range_json(m, j, r, IB_NODE_FIRST_F, IB_NODE_LAST_F);
	json_obj_close(j);
}

static void node_desc_json(struct json *j, const struct reply *r)
{
	const char *d = (const char *)r->data;

	json_strn(j, "node_desc", d, strnlen(d, IB_SMP_DATA_SIZE));
}

static void pma_json(struct madlib *m, struct json *j, const struct reply *pc,
		     const struct reply *pcx, const struct reply *cpi)
{
	if (!pc->ok && !pcx->ok && !cpi->ok)
		return;
	json_obj_open(j, "pma");
	if (pc->ok) {
		json_obj_open(j, "PortCounters");
		range_json(m, j, pc, IB_PC_FIRST_F, IB_PC_LAST_F);
		field_json(m, j, pc, IB_PC_QP1_DROP_F);
		json_obj_close(j);
	}
	if (pcx->ok) {
		json_obj_open(j, "PortCountersExtended");
		range_json(m, j, pcx, IB_PC_EXT_FIRST_F, IB_PC_EXT_LAST_F);
		json_obj_close(j);
	}
	if (cpi->ok) {
		/* the numbers only: the redirect and trap GIDs are arrays */
		json_obj_open(j, "ClassPortInfo");
		range_json(m, j, cpi, IB_CPI_BASEVER_F, IB_CPI_REDIRECT_GID_F);
		json_obj_close(j);
	}
	json_obj_close(j);
}

static void peer_json(struct madlib *m, struct json *j,
		      const struct port_ev *e)
{
	char dr[16];

	if (!e->peer_ni.ok)
		return;
	json_obj_open(j, "peer");
	xsnprintf(dr, sizeof(dr), "0,%d", e->port);
	json_str(j, "dr_path", dr);
	nodeinfo_json(m, j, &e->peer_ni);
	if (e->peer_nd.ok)
		node_desc_json(j, &e->peer_nd);
	if (e->peer_lid)
		json_uint(j, "lid", e->peer_lid);
	if (e->peer_pi.ok)
		portinfo_json(m, j, "portinfo", &e->peer_pi);
	pma_json(m, j, &e->peer_pc, &e->peer_pcx, &e->peer_cpi);
	json_obj_close(j);
}

static const char *ev_status(const struct port_ev *e)
{
	if (e->unreadable)
		return "error";
	return e->nerr ? "partial" : "ok";
}

static void port_json(struct madlib *m, const struct port_ev *e,
		      struct buf *out)
{
	struct json j;
	int i;

	json_init(&j, out, 1);
	json_obj_open(&j, NULL);
	json_str(&j, "ibdev", e->ibdev);
	json_int(&j, "port", e->port);
	json_str(&j, "status", ev_status(e));
	json_obj_open(&j, "errors");
	for (i = 0; i < e->nerr; i++)
		json_str(&j, e->err[i].what, e->err[i].why);
	json_obj_close(&j);
	if (e->pi.ok) {
		json_obj_open(&j, "local");
		portinfo_json(m, &j, "portinfo", &e->pi);
		if (e->ni.ok)
			nodeinfo_json(m, &j, &e->ni);
		if (e->nd.ok)
			node_desc_json(&j, &e->nd);
		pma_json(m, &j, &e->pc, &e->pcx, &e->cpi);
		json_obj_close(&j);
	}
	if (e->sminfo.ok) {
		json_obj_open(&j, "sminfo");
		json_uint(&j, "lid", e->sm_lid);
		range_json(m, &j, &e->sminfo, IB_SMINFO_GUID_F,
			   IB_SMINFO_STATE_F + 1);
		json_obj_close(&j);
	}
	peer_json(m, &j, e);
	json_obj_close(&j);
	json_end(&j);
}

/* --- the source --- */

static int link_layer_ib(const umad_port_t *p)
{
	/* libibumad says "IB" when the kernel has no link_layer file */
	return !strcmp(p->link_layer, "InfiniBand") ||
	       !strcmp(p->link_layer, "IB");
}

static int name_ok(const char *s)
{
	size_t n = strnlen(s, UMAD_CA_NAME_LEN);

	return n && n < UMAD_CA_NAME_LEN && !strchr(s, '/') &&
	       strcmp(s, ".") && strcmp(s, "..");
}

struct tally {
	int ports, ok, partial, unreadable, held;
	struct buf why;		/* "ibdev.port: what, what; ..." */
};

static void tally_port(struct tally *t, const struct port_ev *e)
{
	int i;

	t->ports++;
	if (e->unreadable)
		t->unreadable++;
	else if (e->nerr)
		t->partial++;
	else
		t->ok++;
	if (!e->nerr)
		return;
	buf_addf(&t->why, "%s%s.%d: ", t->why.len ? "; " : "", e->ibdev,
		 e->port);
	for (i = 0; i < e->nerr; i++)
		buf_addf(&t->why, "%s%s (%s)", i ? ", " : "", e->err[i].what,
			 e->err[i].why);
}

static void collect_port(struct ctx *c, struct madlib *m, const char *ibdev,
			 int port, struct tally *t)
{
	struct port_ev *e;
	struct buf doc = BUF_INIT;
	char p[96];
	int timeout_ms = c->opts->mad_timeout_ms ? c->opts->mad_timeout_ms :
			 MAD_TIMEOUT_MS;

	e = xcalloc(1, sizeof(*e));
	e->ibdev = ibdev;
	e->port = port;
	xsnprintf(p, sizeof(p), "MADs of %s port %d (PortInfo, NodeInfo, "
		  "SMInfo, peer, PMA)", ibdev, port);
	ctx_progress(c, ibdev, p);
	ask_port(m, e, timeout_ms);
	port_json(m, e, &doc);
	xsnprintf(p, sizeof(p), "mad/%s.%d.json", ibdev, port);
	ctx_emit_buf(c, p, &doc);
	tally_port(t, e);
	buf_release(&doc);
	free(e);
}

static void collect_ca(struct ctx *c, struct madlib *m, const char *name,
		       struct tally *t)
{
	umad_ca_t ca;
	int i;

	if (ctx_quarantined(c, name)) {
		t->held++;
		return;
	}
	ctx_progress(c, name, "umad_get_ca");
	memset(&ca, 0, sizeof(ca));
	if (m->get_ca(name, &ca) < 0)
		return;
	for (i = 1; i < UMAD_CA_MAX_PORTS; i++)
		if (ca.ports[i] && link_layer_ib(ca.ports[i]))
			collect_port(c, m, name, i, t);
	m->release_ca(&ca);
}

static int result(struct ctx *c, struct tally *t)
{
	char held[64] = "";

	ctx_note(c, "ports", "%d", t->ports);
	if (!t->ports && !t->held) {
		ctx_reason(c, "no InfiniBand port");
		return SRC_ABSENT;
	}
	if (t->held)
		xsnprintf(held, sizeof(held), ", %d devices left alone "
			  "(quarantined)", t->held);
	if (t->ports && t->unreadable == t->ports && !t->held) {
		ctx_reason(c, "no port could be read: %.400s", t->why.buf);
		return SRC_ERROR;
	}
	if (t->partial || t->unreadable || t->held) {
		ctx_reason(c, "%d of %d ports complete%s%s%.400s", t->ok,
			   t->ports, held, t->why.len ? ": " : "", t->why.buf);
		return SRC_PARTIAL;
	}
	return SRC_OK;
}

/* InfiniBand ports of a --root tree, by their sysfs link_layer */
static int root_ib_ports(struct ctx *c)
{
	struct buf b = BUF_INIT;
	char **devs = NULL, **ports = NULL, p[512];
	int nd, np, i, k, n = 0;

	nd = ctx_names(c, "/sys/class/infiniband", &devs);
	for (i = 0; i < nd; i++) {
		if (check_snprintf(p, sizeof(p), "/sys/class/infiniband/%s/ports",
				   devs[i]) < 0)
			continue;
		np = ctx_names(c, p, &ports);
		for (k = 0; k < np; k++) {
			if (check_snprintf(p, sizeof(p), "/sys/class/infiniband/"
					   "%s/ports/%s/link_layer", devs[i],
					   ports[k]) < 0 || ctx_read(c, p, &b) < 0)
				continue;
			if (starts_with(b.buf, "InfiniBand"))
				n++;
		}
		if (np > 0)
			ctx_names_free(ports, np);
	}
	if (nd > 0)
		ctx_names_free(devs, nd);
	buf_release(&b);
	return n;
}

/* under --root: the stored documents, never the libraries; a port the node
 * could not read fully keeps the source partial */
static int collect_stored(struct ctx *c)
{
	struct buf b = BUF_INIT;
	char **names = NULL, p[512];
	int rc, n, i, bad = 0;

	rc = ctx_stored(c, "mad");
	if (rc == -ENOENT) {
		n = root_ib_ports(c);
		if (n)
			ctx_reason(c, "no stored mad evidence under the root "
				   "(%d InfiniBand ports)", n);
		else
			ctx_reason(c, "no InfiniBand port");
		return SRC_ABSENT;
	}
	if (rc < 0) {
		ctx_reason(c, "cannot copy the stored mad evidence: %s",
			   strerror(-rc));
		return SRC_ERROR;
	}
	n = ctx_names(c, "/rdma-collect/mad", &names);
	for (i = 0; i < n; i++) {
		if (check_snprintf(p, sizeof(p), "/rdma-collect/mad/%s",
				   names[i]) < 0 || ctx_read(c, p, &b) < 0)
			continue;
		if (!strstr(b.buf, "\"status\": \"ok\""))
			bad++;
	}
	if (n > 0)
		ctx_names_free(names, n);
	buf_release(&b);
	ctx_note(c, "ports", "%d", n > 0 ? n : 0);
	if (bad) {
		ctx_reason(c, "%d of %d stored ports not complete", bad, n);
		return SRC_PARTIAL;
	}
	return SRC_OK;
}

static int collect(struct ctx *c)
{
	char (*cas)[UMAD_CA_NAME_LEN] = NULL;
	struct tally t = { .why = BUF_INIT };
	struct madlib m;
	int n, i, res;

	if (ctx_is_root(c))
		return collect_stored(c);
	memset(&m, 0, sizeof(m));
	m.quiet.fd = m.quiet.saved = -1;
	ctx_progress(c, "", "dlopen " UMAD_LIB ", " MAD_LIB);
	res = madlib_load(c, &m);
	if (res)
		goto out;
	ctx_quiet_begin(&m.quiet, "libibmad-stderr");
	ctx_progress(c, "", "umad_get_cas_names");
	cas = xcalloc(MAD_MAX_CAS, sizeof(*cas));
	n = m.umad_init() < 0 ? -1 : m.get_cas_names(cas, MAD_MAX_CAS);
	for (i = 0; i < n && i < MAD_MAX_CAS; i++) {
		cas[i][UMAD_CA_NAME_LEN - 1] = 0;
		if (name_ok(cas[i]))
			collect_ca(c, &m, cas[i], &t);
	}
	ctx_quiet_note(c, &m.quiet, "libibmad.messages", MAD_MSG_MAX);
	res = result(c, &t);
out:
	free(cas);
	buf_release(&t.why);
	/* not dlclose'd: like libibverbs, the libraries may keep state */
	return res;
}

const struct source src_mad = {
	.name = "mad",
	.help = "the fabric seen from each InfiniBand port over MADs: SMInfo, "
		"PortInfo, the peer switch port, PMA counters of both ends",
	.flags = SRC_F_STORED,
	.timeout_ms = 20000,
	.max_bytes = 4u << 20,
	.collect = collect,
};
