/* view-lib: not a view but what the InfiniBand fabric views (sminfo,
 * perfquery, iblinkinfo, ibnetdiscover, ibroute) share: libibmad's value
 * strings for PortInfo fields, node descriptions cleaned as
 * infiniband-diags cleans them, and the stored MAD documents and fabric
 * scan read into one struct ib_fabric indexed by GUID and LID (view-lib.h
 * says what each function returns and who frees what) */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "view-lib.h"

static void index_lids(struct ib_fabric *f);

const char *ib_width_str(unsigned v, char *buf, size_t n)
{
	switch (v) {
	case 1: snprintf(buf, n, "1X"); break;
	case 2: snprintf(buf, n, "4X"); break;
	case 4: snprintf(buf, n, "8X"); break;
	case 8: snprintf(buf, n, "12X"); break;
	case 16: snprintf(buf, n, "2X"); break;
	default: snprintf(buf, n, "undefined (%u)", v); break;
	}
	return buf;
}

const char *ib_speed_str(unsigned v, char *buf, size_t n)
{
	switch (v) {
	case 0: snprintf(buf, n, "Extended speed"); break;
	case 1: snprintf(buf, n, "2.5 Gbps"); break;
	case 2: snprintf(buf, n, "5.0 Gbps"); break;
	case 4: snprintf(buf, n, "10.0 Gbps"); break;
	default: snprintf(buf, n, "undefined (%u)", v); break;
	}
	return buf;
}

/* libibmad 44 knows no XDR (32): it prints "undefined (32)" */
const char *ib_speedext_str(unsigned v, char *buf, size_t n)
{
	switch (v) {
	case 0: snprintf(buf, n, "No Extended Speed"); break;
	case 1: snprintf(buf, n, "14.0625 Gbps"); break;
	case 2: snprintf(buf, n, "25.78125 Gbps"); break;
	case 4: snprintf(buf, n, "53.125 Gbps"); break;
	case 8: snprintf(buf, n, "106.25 Gbps"); break;
	default: snprintf(buf, n, "undefined (%u)", v); break;
	}
	return buf;
}

const char *ib_state_str(unsigned v, char *buf, size_t n)
{
	static const char *const s[] = {
		"NoChange", "Down", "Initialize", "Armed", "Active"
	};

	if (v < 5)
		snprintf(buf, n, "%s", s[v]);
	else
		snprintf(buf, n, "?(%u)", v);
	return buf;
}

const char *ib_physstate_str(unsigned v, char *buf, size_t n)
{
	static const char *const s[] = {
		"NoChange", "Sleep", "Polling", "Disabled",
		"PortConfigurationTraining", "LinkUp", "LinkErrorRecovery",
		"PhyTest"
	};

	if (v < 8)
		snprintf(buf, n, "%s", s[v]);
	else
		snprintf(buf, n, "?(%u)", v);
	return buf;
}

const char *ib_clean(const char *in, char *out, size_t n)
{
	size_t i;

	for (i = 0; in && in[i] && i + 1 < n; i++)
		out[i] = isprint((unsigned char)in[i]) ? in[i] : ' ';
	if (n)
		out[i] = 0;
	return out;
}

void ib_desc(const char *in, char out[IB_DESC_MAX + 1])
{
	ib_clean(in, out, IB_DESC_MAX + 1);
}

uint64_t ib_guid(const struct jv *obj, const char *key)
{
	const char *s = jstr(obj, key);
	uint64_t v = 0;
	size_t i;

	if (!s || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return 0;
	for (i = 2; s[i] && i < 18; i++) {
		int c = tolower((unsigned char)s[i]);

		if (!isxdigit(c))
			return 0;
		v = v << 4 | (uint64_t)(isdigit(c) ? c - '0' : c - 'a' + 10);
	}
	return s[i] || i == 2 ? 0 : v;
}

uint64_t ib_field(const struct jv *obj, const char *key, unsigned bits,
		  uint64_t dflt)
{
	const struct jv *v = key ? jget(obj, key) : obj;
	uint64_t x;

	if (!v || v->t != J_NUM)
		return dflt;
	x = juint(v, NULL, 0);
	if (!x && jint(v, NULL, 0) < 0)	/* negative: as the bits would be */
		x = (uint64_t)jint(v, NULL, 0);
	return bits >= 64 ? x : x & ((UINT64_C(1) << bits) - 1);
}

static void port_fill(struct ib_port *p, const struct jv *o)
{
	const struct jv *r = jget(o, "remote");

	p->guid = ib_guid(o, "guid");
	p->lid = (unsigned)ib_field(o, "lid", 16, 0);
	p->lmc = (unsigned)ib_field(o, "lmc", 3, 0);
	p->state = (unsigned)ib_field(o, "state", 4, 0);
	p->phys_state = (unsigned)ib_field(o, "phys_state", 4, 0);
	p->width_enabled = (unsigned)ib_field(o, "width_enabled", 8, 0);
	p->width_supported = (unsigned)ib_field(o, "width_supported", 8, 0);
	p->width_active = (unsigned)ib_field(o, "width_active", 8, 0);
	p->speed_enabled = (unsigned)ib_field(o, "speed_enabled", 4, 0);
	p->speed_supported = (unsigned)ib_field(o, "speed_supported", 4, 0);
	p->speed_active = (unsigned)ib_field(o, "speed_active", 4, 0);
	p->speed_ext_enabled = (unsigned)ib_field(o, "speed_ext_enabled", 5, 0);
	p->speed_ext_supported = (unsigned)ib_field(o, "speed_ext_supported", 4, 0);
	p->speed_ext_active = (unsigned)ib_field(o, "speed_ext_active", 4, 0);
	p->cap_mask = jget(o, "cap_mask") ?
		(long)ib_field(o, "cap_mask", 32, 0) : -1;
	if (r && r->t == J_OBJ) {
		p->remote_guid = ib_guid(r, "guid");
		p->remote_num = (unsigned)ib_field(r, "port", 8, 0);
		p->has_remote = p->remote_guid != 0;
	}
	p->pma = jget(o, "pma");
	if (p->pma && p->pma->t != J_OBJ)
		p->pma = NULL;
}

static void node_fill(struct ib_node *n, const struct jv *o)
{
	const struct jv *ports = jget(o, "ports"), *lft = jget(o, "lft");
	size_t i;

	n->guid = ib_guid(o, "guid");
	n->sys_guid = ib_guid(o, "system_guid");
	n->type = (unsigned)ib_field(o, "type", 8, 0);
	n->num_ports = (unsigned)ib_field(o, "num_ports", 8, 0);
	n->lid = (unsigned)ib_field(o, "lid", 16, 0);
	n->vendor_id = (unsigned)ib_field(o, "vendor_id", 24, 0);
	n->device_id = (unsigned)ib_field(o, "device_id", 16, 0);
	ib_desc(jstr(o, "desc"), n->desc);
	n->dr_path = jstr(o, "dr_path");
	n->lft = lft && lft->t == J_ARR ? lft : NULL;
	n->pma = jget(o, "pma");
	if (n->pma && n->pma->t != J_OBJ)
		n->pma = NULL;
	n->port = xcalloc(n->num_ports + 1, sizeof(*n->port));
	for (i = 0; i < jlen(ports); i++) {
		const struct jv *po = jat(ports, i);
		struct ib_port *p;
		uint64_t num = ib_field(po, "port", 64, 256);

		if (!po || po->t != J_OBJ || num > n->num_ports || n->port[num])
			continue;
		p = xcalloc(1, sizeof(*p));
		p->node = n;
		p->num = (unsigned)num;
		port_fill(p, po);
		n->port[num] = p;
	}
	/* libibnetdisc: a switch's LID and LMC are its port 0's */
	if (n->type == IB_NODE_SWITCH && n->port[0]) {
		if (!jget(o, "lid"))
			n->lid = n->port[0]->lid;
		n->lmc = n->port[0]->lmc;
	}
}

/* by GUID, then in the stored order (the first of a GUID stored twice wins) */
static int guid_cmp(const void *a, const void *b)
{
	const struct ib_node *x = *(struct ib_node *const *)a;
	const struct ib_node *y = *(struct ib_node *const *)b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x < y ? -1 : x > y;
}

struct ib_node *ib_fabric_node(const struct ib_fabric *f, uint64_t guid)
{
	size_t lo = 0, hi = f->n_guid;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->by_guid[mid]->guid == guid)
			return f->by_guid[mid];
		if (f->by_guid[mid]->guid < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* the far end of every link: by node GUID (as libibnetdisc stores it) or,
 * failing that, by port GUID */
static void link_ports(struct ib_fabric *f)
{
	size_t i, k;
	unsigned j;

	for (i = 0; i < f->n; i++) {
		struct ib_node *n = &f->node[i];

		for (j = 0; !n->dup && j <= n->num_ports; j++) {
			struct ib_port *p = n->port[j];
			struct ib_node *r;

			if (!p || !p->has_remote)
				continue;
			r = ib_fabric_node(f, p->remote_guid);
			if (r && p->remote_num <= r->num_ports)
				p->remote = r->port[p->remote_num];
			for (k = 0; !p->remote && k < f->n; k++) {
				r = &f->node[k];
				if (!r->dup && p->remote_num <= r->num_ports &&
				    r->port[p->remote_num] &&
				    r->port[p->remote_num]->guid == p->remote_guid)
					p->remote = r->port[p->remote_num];
			}
		}
	}
}

/* a directed route "0,1,3" as its hop count and ports, for ordering */
static size_t dr_parse(const char *s, unsigned long hop[64])
{
	size_t n = 0;
	char *end;

	if (!s)
		return 65;	/* unknown: after every real route */
	while (*s && n < 64) {
		hop[n++] = strtoul(s, &end, 10);
		if (end == s || (*end && *end != ','))
			return 65;
		s = *end ? end + 1 : end;
	}
	return *s ? 65 : n;
}

/* libibnetdisc creates nodes breadth-first along directed routes and lists
 * them newest first (create_node() prepends): iblinkinfo and ibnetdiscover
 * print in that list's order.  The scan stores nodes sorted by GUID, so the
 * order is rebuilt from the routes: longer routes first, then the higher
 * ports first; nodes without a route (an import of iblinkinfo) keep the
 * stored order among themselves. */
static int dr_cmp(const void *a, const void *b)
{
	const struct jv *x = *(const struct jv *const *)a;
	const struct jv *y = *(const struct jv *const *)b;
	unsigned long hx[64], hy[64];
	size_t nx = dr_parse(jstr(x, "dr_path"), hx);
	size_t ny = dr_parse(jstr(y, "dr_path"), hy), i;

	if (nx != ny)
		return nx > ny ? -1 : 1;
	/* two unknown routes (65) filled no hops: the stored order, which
	 * for an import of iblinkinfo is the printed one */
	for (i = 0; nx <= 64 && i < nx; i++)
		if (hx[i] != hy[i])
			return hx[i] > hy[i] ? -1 : 1;
	/* members of one array: their order in the document */
	return x < y ? -1 : x > y;
}

int ib_fabric_load(const struct bundle_r *b, struct ib_fabric *f)
{
	const struct jv **order;
	const struct jv *nodes, *from;
	size_t i, k;

	memset(f, 0, sizeof(*f));
	if (!br_get(b, IB_FABRIC_JSON))
		return error("%s: no fabric scan (%s: rdma-collect --fabric)",
			     b->file, IB_FABRIC_JSON);
	f->doc = br_json(b, IB_FABRIC_JSON);
	nodes = jget(f->doc, "nodes");
	if (!f->doc || !nodes || nodes->t != J_ARR) {
		jfree(f->doc);
		f->doc = NULL;
		return error("%s: %s: not a fabric scan", b->file,
			     IB_FABRIC_JSON);
	}
	f->status = jstr(f->doc, "status");
	f->reason = jstr(f->doc, "reason");
	from = jget(f->doc, "from");
	f->from_ibdev = jstr(from, "ibdev");
	f->from_port = (unsigned)ib_field(from, "port", 8, 0);
	f->node = xcalloc(jlen(nodes) + 1, sizeof(*f->node));
	f->by_guid = xcalloc(jlen(nodes) + 1, sizeof(*f->by_guid));
	order = xcalloc(jlen(nodes) + 1, sizeof(*order));
	for (i = 0; i < jlen(nodes); i++)
		order[i] = jat(nodes, i);
	qsort(order, jlen(nodes), sizeof(*order), dr_cmp);
	for (i = 0; i < jlen(nodes); i++) {
		const struct jv *o = order[i];
		struct ib_node *n = &f->node[f->n];

		if (!o || o->t != J_OBJ || !ib_guid(o, "guid"))
			continue;
		node_fill(n, o);
		f->by_guid[f->n++] = n;
	}
	free(order);
	qsort(f->by_guid, f->n, sizeof(*f->by_guid), guid_cmp);
	/* a GUID stored twice: the first one stored stands, the others are
	 * marked and skipped by every view */
	for (i = 0, k = 0; i < f->n; i++) {
		if (k && f->by_guid[i]->guid == f->by_guid[k - 1]->guid)
			f->by_guid[i]->dup = 1;
		else
			f->by_guid[k++] = f->by_guid[i];
	}
	f->n_guid = k;
	link_ports(f);
	index_lids(f);
	return 0;
}

void ib_fabric_release(struct ib_fabric *f)
{
	size_t i;
	unsigned j;

	if (!f)
		return;
	for (i = 0; i < f->n; i++) {
		for (j = 0; f->node[i].port && j <= f->node[i].num_ports; j++)
			free(f->node[i].port[j]);
		free(f->node[i].port);
	}
	free(f->node);
	free(f->by_guid);
	free(f->by_lid);
	jfree(f->doc);
	for (i = 0; i < f->nmads; i++)
		jfree(f->mads[i]);
	free(f->mads);
	memset(f, 0, sizeof(*f));
}

struct ib_node *ib_fabric_lid(const struct ib_fabric *f, unsigned lid,
			      struct ib_port **port)
{
	*port = NULL;
	if (!f->by_lid || !lid || lid > 0xffff)
		return NULL;
	*port = f->by_lid[lid].port;
	return f->by_lid[lid].node;
}

static void lid_range(struct ib_fabric *f, struct ib_node *n,
		      struct ib_port *p, unsigned base, unsigned lmc)
{
	unsigned l;

	for (l = base; base && l < base + (1u << lmc) && l <= 0xffff; l++)
		if (!f->by_lid[l].node) {
			f->by_lid[l].node = n;
			f->by_lid[l].port = p;
		}
}

/* every LID a node answers to: a switch's LMC range (port 0), a CA
 * port's; the first node stored wins a LID claimed twice */
static void index_lids(struct ib_fabric *f)
{
	size_t i;
	unsigned j;

	f->by_lid = xcalloc(0x10000, sizeof(*f->by_lid));
	for (i = 0; i < f->n; i++) {
		struct ib_node *n = &f->node[i];

		if (n->dup)
			continue;
		if (n->type == IB_NODE_SWITCH) {
			lid_range(f, n, n->port[0], n->lid, n->lmc);
			continue;
		}
		for (j = 1; j <= n->num_ports; j++)
			if (n->port[j])
				lid_range(f, n, n->port[j], n->port[j]->lid,
					  n->port[j]->lmc);
	}
}

uint64_t ib_switch_port_guid(const struct ib_node *n)
{
	if (n->port[0] && n->port[0]->guid)
		return n->port[0]->guid;
	return n->port_guid ? n->port_guid : n->guid;
}

long ib_port_cap_mask(const struct ib_port *p)
{
	if (p->node->type == IB_NODE_SWITCH)
		return p->node->port[0] ? p->node->port[0]->cap_mask : -1;
	return p->cap_mask;
}

unsigned ib_port_espeed(const struct ib_port *p)
{
	long cap = ib_port_cap_mask(p);

	if (cap < 0)
		return p->speed_ext_active;
	return cap & 0x4000 ? p->speed_ext_active : 0;
}

size_t ib_mad_docs(const struct bundle_r *b, const char ***names)
{
	const char **all;
	size_t n = br_list(b, IB_MAD_DIR, &all), i, k = 0;

	for (i = 0; i < n; i++) {
		size_t l = strlen(all[i]);

		if (l > 5 && !strcmp(all[i] + l - 5, ".json"))
			all[k++] = all[i];
	}
	*names = all;
	return k;
}

struct jv *ib_mad_load(const struct bundle_r *b, const char *ca,
		       unsigned port, const char *tool)
{
	const char **names;
	char path[512];
	struct jv *doc = NULL;
	size_t n = ib_mad_docs(b, &names), i;

	for (i = 0; i < n && !doc; i++) {
		doc = NULL;
		snprintf(path, sizeof(path), "%s/%s", IB_MAD_DIR, names[i]);
		doc = br_json(b, path);
		if (!doc)
			continue;
		if ((ca && (!jstr(doc, "ibdev") || strcmp(jstr(doc, "ibdev"), ca))) ||
		    (port && ib_field(doc, "port", 64, 0) != port)) {
			jfree(doc);
			doc = NULL;
		}
	}
	free(names);
	if (!doc && !n)
		error("%s: no MAD evidence in %s (no InfiniBand port, or the mad "
		      "source did not run)", tool, b->file);
	else if (!doc)
		error("%s: no MAD evidence for %s port %u in %s", tool,
		      ca ? ca : "any CA", port, b->file);
	return doc;
}

/* a PortInfo stored by the mad source (libibmad's field names) */
static void port_from_mad(struct ib_port *p, const struct jv *pi)
{
	p->lid = (unsigned)ib_field(pi, "Lid", 16, 0);
	p->lmc = (unsigned)ib_field(pi, "LMC", 3, 0);
	p->state = (unsigned)ib_field(pi, "LinkState", 4, 0);
	p->phys_state = (unsigned)ib_field(pi, "PhysLinkState", 4, 0);
	p->width_enabled = (unsigned)ib_field(pi, "LinkWidthEnabled", 8, 0);
	p->width_supported = (unsigned)ib_field(pi, "LinkWidthSupported", 8, 0);
	p->width_active = (unsigned)ib_field(pi, "LinkWidthActive", 8, 0);
	p->speed_enabled = (unsigned)ib_field(pi, "LinkSpeedEnabled", 4, 0);
	p->speed_supported = (unsigned)ib_field(pi, "LinkSpeedSupported", 4, 0);
	p->speed_active = (unsigned)ib_field(pi, "LinkSpeedActive", 4, 0);
	p->speed_ext_enabled = (unsigned)ib_field(pi, "LinkSpeedExtEnabled", 5, 0);
	p->speed_ext_supported = (unsigned)ib_field(pi, "LinkSpeedExtSupported", 4, 0);
	p->speed_ext_active = (unsigned)ib_field(pi, "LinkSpeedExtActive", 4, 0);
	p->cap_mask = jget(pi, "CapMask") ? (long)ib_field(pi, "CapMask", 32, 0) : -1;
}

/* the node of a NodeInfo, found again by GUID or added */
static struct ib_node *mad_node(struct ib_fabric *f, const struct jv *ni,
				const char *desc)
{
	uint64_t guid = ib_guid(ni, "Guid");
	struct ib_node *n;
	size_t i;

	if (!guid)
		return NULL;
	for (i = 0; i < f->n; i++)
		if (f->node[i].guid == guid)
			return &f->node[i];
	n = &f->node[f->n++];
	n->guid = guid;
	n->sys_guid = ib_guid(ni, "SystemGuid");
	n->port_guid = ib_guid(ni, "PortGuid");
	n->type = (unsigned)ib_field(ni, "NodeType", 8, 0);
	n->num_ports = (unsigned)ib_field(ni, "NumPorts", 8, 0);
	n->vendor_id = (unsigned)ib_field(ni, "VendorId", 24, 0);
	n->device_id = (unsigned)ib_field(ni, "DevId", 16, 0);
	ib_desc(desc, n->desc);
	n->port = xcalloc(n->num_ports + 1, sizeof(*n->port));
	return n;
}

static struct ib_port *mad_port(struct ib_node *n, unsigned num,
				const struct jv *pi, const struct jv *pma)
{
	struct ib_port *p;

	if (!n || num > n->num_ports || n->port[num])
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->node = n;
	p->num = num;
	p->guid = n->port_guid;
	port_from_mad(p, pi);
	p->pma = pma && pma->t == J_OBJ ? pma : NULL;
	n->port[num] = p;
	return p;
}

int ib_fabric_from_mad(const struct bundle_r *b, struct ib_fabric *f)
{
	const char **names;
	char path[512];
	size_t n = ib_mad_docs(b, &names), i;
	memset(f, 0, sizeof(*f));
	if (!n) {
		free(names);
		return error("%s: no fabric scan and no MAD evidence (no "
			     "InfiniBand port, or neither the mad source nor "
			     "--fabric ran)", b->file);
	}
	/* the documents live as long as the fabric, which frees them */
	f->mads = xcalloc(n, sizeof(*f->mads));
	f->node = xcalloc(2 * n, sizeof(*f->node));
	for (i = 0; i < n; i++) {
		const struct jv *loc, *peer;
		struct ib_node *ln, *pn;
		struct ib_port *lp, *pp;
		struct jv *d;

		snprintf(path, sizeof(path), "%s/%s", IB_MAD_DIR, names[i]);
		d = br_json(b, path);
		if (!d)
			continue;
		f->mads[f->nmads++] = d;
		loc = jget(d, "local");
		peer = jget(d, "peer");
		ln = mad_node(f, jget(loc, "nodeinfo"), jstr(loc, "node_desc"));
		lp = mad_port(ln, (unsigned)ib_field(d, "port", 8, 0),
			      jget(loc, "portinfo"), jget(loc, "pma"));
		pn = mad_node(f, jget(peer, "nodeinfo"), jstr(peer, "node_desc"));
		if (pn && pn->type == IB_NODE_SWITCH)
			pn->lid = (unsigned)ib_field(peer, "lid", 16, 0);
		pp = mad_port(pn, (unsigned)ib_field(jget(peer, "nodeinfo"),
						     "LocalPort", 8, 0),
			      jget(peer, "portinfo"), jget(peer, "pma"));
		if (lp && pp) {
			lp->remote = pp;
			pp->remote = lp;
			lp->has_remote = pp->has_remote = 1;
			lp->remote_guid = pn->guid;
			pp->remote_guid = ln->guid;
			lp->remote_num = pp->num;
			pp->remote_num = lp->num;
		}
	}
	free(names);
	f->by_guid = xcalloc(f->n + 1, sizeof(*f->by_guid));
	for (i = 0; i < f->n; i++)
		f->by_guid[i] = &f->node[i];
	qsort(f->by_guid, f->n, sizeof(*f->by_guid), guid_cmp);
	f->n_guid = f->n;
	f->status = "mad";
	index_lids(f);
	return 0;
}
