/* pairs-topo: where a pair's traffic goes, from as much topology as the
 * database holds, and the names pairs are given by.
 *
 *   PT_FABRIC  the newest fabric scan (rdma-collect --fabric): its LFTs
 *              give the exact route both ways, hop by hop as `rdma-analyze
 *              path` walks it; held in memory here because a 512-host
 *              all-pairs run walks half a million routes, where path.c's
 *              query per hop would take minutes
 *   PT_MAD     no scan: each bundle's mad documents name the switch port
 *              at the far end of each HCA port, so host-leaf cables and
 *              leaves are known, the way between leaves is not
 *   PT_NONE    nodes and HCA ports only
 *
 * Names: a host name (a fabric NodeDescription's first word, a bundle's
 * hostname), "host ibdev", a full NodeDescription, a node or port GUID, a
 * LID, or an address a bundle holds (interface addresses, GIDs and their
 * IPv4 form).  Everything from the database is hostile: ports, LIDs and
 * hop counts are bounded, strings are cleaned before they are printed.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "db.h"
#include "log.h"
#include "pairs.h"
#include "util.h"

#define MAX_PORTS 255
#define MAX_LID 0xc000		/* unicast LIDs */
#define MAX_HOPS 64

struct fport {
	int rnode, rport;	/* the far end; -1: no link */
	int lid, lmc, state;
	int half, link, cable;	/* components, -1 until a route uses them */
	int ep;			/* a CA port's endpoint, -1 */
};

struct fnode {
	char guid[24];
	char *desc;
	int type;		/* 1 CA, 2 switch */
	int nports;
	struct fport *p;	/* [0 .. nports] */
	unsigned char *lft;	/* exit port per LID; 255: none */
	int nlft;
	int sw;			/* its PC_SWITCH component, -1 */
};

/* newest bundle of each node */
#define NEWEST "SELECT b.id FROM bundles b WHERE b.id = (SELECT b2.id FROM " \
	"bundles b2 WHERE b2.node_id = b.node_id ORDER BY b2.collected_at " \
	"DESC, b2.id DESC LIMIT 1)"

/* a copy fit to print: control bytes become '?' */
static char *clean(const char *s, size_t max)
{
	size_t n = strnlen(s, max), i;
	char *c = xstrndup(s, n);

	for (i = 0; i < n; i++)
		if ((unsigned char)c[i] < 0x20 || c[i] == 0x7f)
			c[i] = '?';
	return c;
}

static void lower(char *dst, const char *src, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n && src[i]; i++)
		dst[i] = (char)tolower((unsigned char)src[i]);
	dst[i] = 0;
}

/* "0x" + 16 hex digits, from "0x7cfe..." or sysfs "7cfe:9003:00c0:0002" */
static int norm_guid(const char *s, char *out, size_t n)
{
	char hex[17];
	unsigned long long g;
	int k = 0;

	if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2))
		s += 2;
	for (; *s && k < 16; s++) {
		if (*s == ':')
			continue;
		if (!isxdigit((unsigned char)*s))
			return -1;
		hex[k++] = *s;
	}
	if (*s || k < 1)
		return -1;
	hex[k] = 0;
	if (parse_ull(hex, 16, ~0ULL, &g) < 0)
		return -1;
	return check_snprintf(out, n, "0x%016llx", g);
}

/* an address in one canonical form ("10.0.0.2", "fe80::1"); the NCCL
 * "<port>" and "%ifname" suffixes are dropped; an IPv4-mapped IPv6
 * address becomes its IPv4 form */
static int norm_addr(const char *s, char *out, size_t n)
{
	char tmp[128], *p;
	unsigned char a[16];

	if (check_snprintf(tmp, sizeof(tmp), "%s", s) < 0)
		return -1;
	if ((p = strchr(tmp, '<')))
		*p = 0;
	if ((p = strchr(tmp, '%')))
		*p = 0;
	if ((p = strchr(tmp, '/')))
		*p = 0;
	if (inet_pton(AF_INET, tmp, a) == 1)
		return inet_ntop(AF_INET, a, out, (socklen_t)n) ? 0 : -1;
	if (inet_pton(AF_INET6, tmp, a) != 1)
		return -1;
	if (!memcmp(a, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12))
		return inet_ntop(AF_INET, a + 12, out, (socklen_t)n) ? 0 : -1;
	return inet_ntop(AF_INET6, a, out, (socklen_t)n) ? 0 : -1;
}

static int is_unusable_addr(const char *a)
{
	static const unsigned char zero[16];
	unsigned char b[16];

	if (!strncmp(a, "127.", 4) || !strcmp(a, "::1") ||
	    !strcmp(a, "0.0.0.0"))
		return 1;
	return inet_pton(AF_INET6, a, b) == 1 && !memcmp(b, zero, 16);
}

/* --- hosts, endpoints, names --- */

static int host_find(struct ptopo *t, const char *name)
{
	char key[256];

	lower(key, name, sizeof(key));
	return smap_get(&t->hostmap, key);
}

static int host_get(struct ptopo *t, const char *name)
{
	char key[256], ck[300];
	struct phost *h;
	int i = host_find(t, name);

	if (i >= 0)
		return i;
	lower(key, name, sizeof(key));
	if (t->nhost == t->ahost) {
		t->ahost = t->ahost ? t->ahost * 2 : 64;
		t->host = xrealloc(t->host, (size_t)t->ahost * sizeof(*t->host));
	}
	i = t->nhost++;
	h = &t->host[i];
	h->name = clean(name, 255);
	h->bundle = 0;
	h->ep = -1;
	snprintf(ck, sizeof(ck), "N:%s", key);
	h->node = pm_comp(t->pm, PC_NODE, ck, h->name);
	t->pm->comp[h->node].host = i;
	smap_put(&t->hostmap, key, i);
	return i;
}

static int ep_add(struct ptopo *t, int host, int ca, int port,
		  const char *ibdev, const char *label)
{
	struct pep *e;

	if (t->nep == t->aep) {
		t->aep = t->aep ? t->aep * 2 : 64;
		t->ep = xrealloc(t->ep, (size_t)t->aep * sizeof(*t->ep));
	}
	e = &t->ep[t->nep];
	memset(e, 0, sizeof(*e));
	e->host = host;
	e->ca = ca;
	e->port = port;
	snprintf(e->ibdev, sizeof(e->ibdev), "%s", ibdev ? ibdev : "");
	e->label = clean(label, 300);
	e->cable = e->leaf = -1;
	return t->nep++;
}

/* a name for an endpoint; a name two endpoints claim names neither */
static void name_put(struct ptopo *t, const char *name, int ep)
{
	char key[320];
	int old;

	if (!*name || ep < 0)
		return;
	lower(key, name, sizeof(key));
	old = smap_get(&t->names, key);
	if (old == -2)
		return;		/* already claimed by two */
	if (old == -1 || old == ep)
		smap_put(&t->names, key, ep);
	else if (t->ep[old].host == t->ep[ep].host)
		smap_put(&t->names, key, t->host[t->ep[ep].host].ep >= 0 ?
			 t->host[t->ep[ep].host].ep : old);
	else
		smap_put(&t->names, key, -2);
}

static void lid_put(struct ptopo *t, int64_t lid, int lmc, int ep)
{
	int64_t l;

	if (lid <= 0 || lid >= MAX_LID || lmc < 0 || lmc > 7)
		return;
	if (!t->lid_ep) {
		t->lid_ep = xmalloc(MAX_LID * sizeof(*t->lid_ep));
		for (l = 0; l < MAX_LID; l++)
			t->lid_ep[l] = -1;
		t->nlid = MAX_LID;
	}
	for (l = lid; l < lid + (1 << lmc) && l < MAX_LID; l++)
		t->lid_ep[l] = t->lid_ep[l] == -1 || t->lid_ep[l] == ep ? ep : -2;
}

/* --- the fabric scan --- */

static int fnode_find(struct ptopo *t, const char *guid)
{
	return smap_get(&t->guids, guid);
}

static struct fport *fport_get(struct fnode *n, int64_t port)
{
	int i;

	if (port < 0 || port > MAX_PORTS)
		return NULL;
	if (port > n->nports) {
		n->p = xrealloc(n->p, ((size_t)port + 1) * sizeof(*n->p));
		for (i = n->nports + 1; i <= port; i++) {
			memset(&n->p[i], 0, sizeof(n->p[i]));
			n->p[i].rnode = n->p[i].rport = -1;
			n->p[i].half = n->p[i].link = n->p[i].cable = -1;
			n->p[i].ep = -1;
			n->p[i].state = -1;
		}
		n->nports = (int)port;
	}
	return &n->p[port];
}

static void fabric_nodes(struct ptopo *t)
{
	sqlite3_stmt *st = db_query(t->db, "SELECT guid, coalesce(type, 0), "
				    "coalesce(desc, '') FROM fabric_nodes WHERE "
				    "bundle_id = ? ORDER BY guid", "i", t->scan);
	int a = 0;

	while (sqlite3_step(st) == SQLITE_ROW) {
		struct fnode *n;

		if (t->nfn == a) {
			a = a ? a * 2 : 256;
			t->fn = xrealloc(t->fn, (size_t)a * sizeof(*t->fn));
		}
		n = &t->fn[t->nfn];
		memset(n, 0, sizeof(*n));
		snprintf(n->guid, sizeof(n->guid), "%s", db_col(st, 0));
		n->type = (int)db_col_int(st, 1);
		n->desc = clean(*db_col(st, 2) ? db_col(st, 2) : n->guid, 255);
		n->nports = -1;
		n->sw = -1;
		smap_put(&t->guids, n->guid, t->nfn++);
	}
	db_done(st);
}

static void fabric_ports(struct ptopo *t)
{
	sqlite3_stmt *st = db_query(t->db, "SELECT guid, port, coalesce(lid, 0), "
				    "coalesce(lmc, 0), coalesce(state, -1), "
				    "remote_guid, coalesce(remote_port, -1) "
				    "FROM fabric_ports WHERE bundle_id = ?", "i", t->scan);

	while (sqlite3_step(st) == SQLITE_ROW) {
		int n = fnode_find(t, db_col(st, 0)), r;
		struct fport *p;

		if (n < 0 || !(p = fport_get(&t->fn[n], db_col_int(st, 1))))
			continue;
		p->lid = (int)(db_col_int(st, 2) & 0xffff);
		p->lmc = (int)(db_col_int(st, 3) & 7);
		p->state = (int)db_col_int(st, 4);
		r = fnode_find(t, db_col(st, 5));
		if (r >= 0 && db_col_int(st, 6) >= 0 &&
		    db_col_int(st, 6) <= MAX_PORTS) {
			p->rnode = r;
			p->rport = (int)db_col_int(st, 6);
		}
	}
	db_done(st);
}

static void fabric_lft(struct ptopo *t)
{
	sqlite3_stmt *st = db_query(t->db, "SELECT guid, lid, port FROM "
				    "fabric_lft WHERE bundle_id = ? AND lid > 0 "
				    "AND lid < ? ORDER BY guid, lid", "ii",
				    t->scan, (int64_t)MAX_LID);

	while (sqlite3_step(st) == SQLITE_ROW) {
		int n = fnode_find(t, db_col(st, 0));
		int64_t lid = db_col_int(st, 1), port = db_col_int(st, 2);
		struct fnode *f;

		if (n < 0 || port < 0 || port > MAX_PORTS)
			continue;
		f = &t->fn[n];
		if (lid >= f->nlft) {
			int k = (int)lid + 1;

			f->lft = xrealloc(f->lft, (size_t)k);
			memset(f->lft + f->nlft, 255, (size_t)(k - f->nlft));
			f->nlft = k;
		}
		f->lft[lid] = (unsigned char)port;
	}
	db_done(st);
}

/* the CA ports with a link and a LID become endpoints; the host is the
 * NodeDescription's first word, the HCA its second */
static void fabric_endpoints(struct ptopo *t)
{
	sqlite3_stmt *st;
	int i, k;

	for (i = 0; i < t->nfn; i++) {
		struct fnode *n = &t->fn[i];
		char host[256], *sp, label[320];
		const char *dev;
		int h;

		if (n->type == 2)
			continue;
		snprintf(host, sizeof(host), "%s", n->desc);
		sp = strchr(host, ' ');
		if (sp)
			*sp = 0;
		dev = sp ? n->desc + (sp - host) + 1 : "";
		h = host_get(t, host);
		for (k = 1; k <= n->nports; k++) {
			struct fport *p = &n->p[k];
			int e;

			if (p->rnode < 0 || p->lid <= 0)
				continue;
			snprintf(label, sizeof(label), "%s port %d", n->desc, k);
			e = ep_add(t, h, i, k, dev, label);
			p->ep = e;
			lid_put(t, p->lid, p->lmc, e);
			name_put(t, n->desc, e);
			name_put(t, n->guid, e);
			name_put(t, label, e);
		}
	}
	/* port GUIDs name their port */
	st = db_query(t->db, "SELECT guid, port, port_guid FROM fabric_ports "
		      "WHERE bundle_id = ? AND port_guid IS NOT NULL", "i",
		      t->scan);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int n = fnode_find(t, db_col(st, 0));
		char g[24];
		int64_t port = db_col_int(st, 1);

		if (n < 0 || port < 1 || port > t->fn[n].nports ||
		    t->fn[n].p[port].ep < 0 ||
		    norm_guid(db_col(st, 2), g, sizeof(g)) < 0)
			continue;
		name_put(t, g, t->fn[n].p[port].ep);
	}
	db_done(st);
}

static int load_fabric(struct ptopo *t)
{
	sqlite3_stmt *st = db_query(t->db, "SELECT s.bundle_id, coalesce("
				    "b.hostname, '?'), coalesce(b.collected_at, "
				    "'?'), coalesce(s.nodes, 0) FROM fabric_scans "
				    "s JOIN bundles b ON b.id = s.bundle_id ORDER "
				    "BY b.collected_at DESC, b.id DESC LIMIT 1",
				    "");
	int i;

	if (sqlite3_step(st) != SQLITE_ROW) {
		db_done(st);
		return 0;
	}
	t->scan = sqlite3_column_int64(st, 0);
	snprintf(t->scan_from, sizeof(t->scan_from), "%s, %s", db_col(st, 1),
		 db_col(st, 2));
	t->scan_nodes = (int)db_col_int(st, 3);
	db_done(st);
	fabric_nodes(t);
	for (i = 0; i < t->nfn; i++)
		fport_get(&t->fn[i], 0);
	fabric_ports(t);
	fabric_lft(t);
	fabric_endpoints(t);
	t->kind = PT_FABRIC;
	return 1;
}

/* --- components of the fabric --- */

static int fab_switch(struct ptopo *t, int n)
{
	struct fnode *f = &t->fn[n];
	char key[40];

	if (f->sw < 0) {
		snprintf(key, sizeof(key), "S:%s", f->guid);
		f->sw = pm_comp(t->pm, PC_SWITCH, key, f->desc);
		snprintf(t->pm->comp[f->sw].guid[0], 24, "%s", f->guid);
	}
	return f->sw;
}

static void comp_ends(struct ptopo *t, int c, int n1, int p1, int n2, int p2)
{
	struct pcomp *pc = &t->pm->comp[c];

	snprintf(pc->guid[0], sizeof(pc->guid[0]), "%s", t->fn[n1].guid);
	pc->port[0] = p1;
	snprintf(pc->guid[1], sizeof(pc->guid[1]), "%s", t->fn[n2].guid);
	pc->port[1] = p2;
}

/* the cable of a CA port */
static int fab_cable(struct ptopo *t, int n, int port)
{
	struct fport *p = &t->fn[n].p[port];
	char key[64], name[640];

	if (p->cable >= 0)
		return p->cable;
	snprintf(key, sizeof(key), "C:%s:%d", t->fn[n].guid, port);
	snprintf(name, sizeof(name), "%s port %d <-> %s port %d",
		 t->fn[n].desc, port, t->fn[p->rnode].desc, p->rport);
	p->cable = pm_comp(t->pm, PC_CABLE, key, name);
	comp_ends(t, p->cable, n, port, p->rnode, p->rport);
	if (p->ep >= 0) {
		t->pm->comp[p->cable].host = t->ep[p->ep].host;
		t->ep[p->ep].cable = p->cable;
	}
	return p->cable;
}

/* an inter-switch cable leaving switch n by port: the link and the
 * direction */
static void fab_isl(struct ptopo *t, int n, int port, int *link, int *half)
{
	struct fport *p = &t->fn[n].p[port];
	int r = p->rnode, rp = p->rport, lo;
	char key[96], name[640];

	if (p->link < 0) {
		lo = strcmp(t->fn[n].guid, t->fn[r].guid) < 0 ||
		     (!strcmp(t->fn[n].guid, t->fn[r].guid) && port < rp);
		snprintf(key, sizeof(key), "L:%s:%d-%s:%d",
			 t->fn[lo ? n : r].guid, lo ? port : rp,
			 t->fn[lo ? r : n].guid, lo ? rp : port);
		snprintf(name, sizeof(name), "%s port %d <-> %s port %d",
			 t->fn[lo ? n : r].desc, lo ? port : rp,
			 t->fn[lo ? r : n].desc, lo ? rp : port);
		p->link = pm_comp(t->pm, PC_LINK, key, name);
		if (lo)
			comp_ends(t, p->link, n, port, r, rp);
		else
			comp_ends(t, p->link, r, rp, n, port);
		if (rp <= t->fn[r].nports)
			t->fn[r].p[rp].link = p->link;
	}
	if (p->half < 0) {
		snprintf(key, sizeof(key), "H:%s:%d>%s:%d", t->fn[n].guid, port,
			 t->fn[r].guid, rp);
		snprintf(name, sizeof(name), "%s port %d -> %s port %d",
			 t->fn[n].desc, port, t->fn[r].desc, rp);
		p->half = pm_comp(t->pm, PC_HALF, key, name);
		comp_ends(t, p->half, n, port, r, rp);
	}
	*link = p->link;
	*half = p->half;
}

/* the route from endpoint a to b as the LFTs send it: its components into
 * out[*k]; 0 arrived, -1 stopped (no entry, a dead port, a wrong CA, a
 * loop) */
static int fab_route(struct ptopo *t, const struct pep *a, const struct pep *b,
		     int *out, int *k, int max)
{
	const struct fport *dp = &t->fn[b->ca].p[b->port];
	int lid = dp->lid, n = a->ca, port = a->port, hops;

	if (lid <= 0 || lid >= MAX_LID)
		return -1;
	if (*k < max)
		out[(*k)++] = fab_cable(t, n, port);
	for (hops = 0; hops < MAX_HOPS; hops++) {
		const struct fport *p = &t->fn[n].p[port];
		int r = p->rnode, rp = p->rport, out_port, link, half;
		struct fnode *s;

		if (r < 0 || (p->state >= 0 && p->state != 4))
			return -1;
		s = &t->fn[r];
		if (s->type != 2)
			return r == b->ca && rp == b->port ? 0 : -1;
		if (*k < max)
			out[(*k)++] = fab_switch(t, r);
		if (lid >= s->nlft || s->lft[lid] == 255 || !s->lft[lid] ||
		    s->lft[lid] > s->nports)
			return -1;
		out_port = s->lft[lid];
		if (s->p[out_port].rnode < 0)
			return -1;
		if (t->fn[s->p[out_port].rnode].type == 2) {
			fab_isl(t, r, out_port, &link, &half);
			if (*k + 1 < max) {
				out[(*k)++] = link;
				out[(*k)++] = half;
			}
		} else if (s->p[out_port].rnode == b->ca &&
			   s->p[out_port].rport == b->port && *k < max) {
			out[(*k)++] = fab_cable(t, b->ca, b->port);
		}
		n = r;
		port = out_port;
	}
	return -1;
}

int pt_path(void *ctx, int a, int b, int *out, int max)
{
	struct ptopo *t = ctx;
	const struct pep *ea, *eb;
	int k = 0, rc = 0;

	if (a < 0 || b < 0 || a >= t->nep || b >= t->nep || max < 8)
		return -1;
	ea = &t->ep[a];
	eb = &t->ep[b];
	/* two ends on one host test nothing of the fabric between hosts:
	 * the readers drop such results, and no split test may name one */
	if (ea->host == eb->host)
		return 0;
	out[k++] = t->host[ea->host].node;
	out[k++] = t->host[eb->host].node;
	if (t->kind == PT_FABRIC && ea->ca >= 0 && eb->ca >= 0) {
		if (fab_route(t, ea, eb, out, &k, max) < 0)
			rc = -1;
		if (fab_route(t, eb, ea, out, &k, max) < 0)
			rc = -1;
		return rc < 0 ? -1 : k;
	}
	if (ea->cable >= 0)
		out[k++] = ea->cable;
	if (eb->cable >= 0)
		out[k++] = eb->cable;
	if (ea->leaf >= 0)
		out[k++] = ea->leaf;
	if (eb->leaf >= 0)
		out[k++] = eb->leaf;
	return k;
}

/* --- no scan: the mad source's peers --- */

static int load_mad(struct ptopo *t)
{
	sqlite3_stmt *st = db_query(t->db, "SELECT b.id, coalesce(b.hostname, "
				    "''), p.ibdev, p.port, coalesce(p.node_guid, "
				    "''), coalesce(p.port_num, -1), coalesce("
				    "p.node_desc, ''), coalesce(p.node_type, 0) "
				    "FROM mad_portinfo p JOIN bundles b ON b.id = "
				    "p.bundle_id WHERE p.side = 'peer' AND b.id IN "
				    "(" NEWEST ") ORDER BY b.hostname, p.ibdev, "
				    "p.port", "");
	int any = 0;

	while (sqlite3_step(st) == SQLITE_ROW) {
		char label[320], key[400], name[900], g[24];
		const char *host = db_col(st, 1), *dev = db_col(st, 2);
		int64_t port = db_col_int(st, 3), pport = db_col_int(st, 5);
		int h, e, c;

		if (!*host || port < 0 || port > MAX_PORTS)
			continue;
		h = host_get(t, host);
		t->host[h].bundle = sqlite3_column_int64(st, 0);
		snprintf(label, sizeof(label), "%s %s port %" PRId64,
			 t->host[h].name, dev, port);
		e = ep_add(t, h, -1, (int)port, dev, label);
		snprintf(name, sizeof(name), "%s %s", t->host[h].name, dev);
		name_put(t, name, e);
		name_put(t, label, e);
		if (norm_guid(db_col(st, 4), g, sizeof(g)) < 0)
			snprintf(g, sizeof(g), "?");
		snprintf(key, sizeof(key), "C:%s:%s:%" PRId64, t->host[h].name,
			 dev, port);
		snprintf(name, sizeof(name), "%s <-> %s port %" PRId64, label,
			 *db_col(st, 6) ? db_col(st, 6) : g, pport);
		{
			char *cn = clean(name, sizeof(name));

			c = pm_comp(t->pm, PC_CABLE, key, cn);
			free(cn);
		}
		t->pm->comp[c].host = h;
		snprintf(t->pm->comp[c].guid[1], 24, "%s", g);
		t->pm->comp[c].port[1] = (int)pport;
		t->ep[e].cable = c;
		if (db_col_int(st, 7) == 2 && g[0] == '0') {
			char *sn =
				clean(*db_col(st, 6) ? db_col(st, 6) : g, 255);

			snprintf(key, sizeof(key), "S:%s", g);
			t->ep[e].leaf = pm_comp(t->pm, PC_SWITCH, key, sn);
			snprintf(t->pm->comp[t->ep[e].leaf].guid[0], 24, "%s", g);
			free(sn);
		}
		any = 1;
	}
	db_done(st);
	if (any)
		t->kind = PT_MAD;
	return any;
}

/* --- the bundles: hosts, their HCAs and addresses --- */

static void bundle_hosts(struct ptopo *t)
{
	sqlite3_stmt *st = db_query(t->db, "SELECT b.id, coalesce(b.hostname, "
				    "n.name) FROM bundles b JOIN nodes n ON n.id "
				    "= b.node_id WHERE b.id IN (" NEWEST ") "
				    "ORDER BY b.id", "");

	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t bid = sqlite3_column_int64(st, 0);
		const char *name = db_col(st, 1);
		int h = host_find(t, name);

		if (h < 0 && t->kind == PT_FABRIC) {
			/* a host named otherwise in the scan: by HCA GUID */
			sqlite3_stmt *d = db_query(t->db, "SELECT node_guid FROM "
						   "devices WHERE bundle_id = ?",
						   "i", bid);

			while (h < 0 && sqlite3_step(d) == SQLITE_ROW) {
				char g[24];
				int n;

				if (norm_guid(db_col(d, 0), g, sizeof(g)) < 0)
					continue;
				n = fnode_find(t, g);
				if (n >= 0 && t->fn[n].type != 2) {
					int k;

					for (k = 0; k < t->nep; k++)
						if (t->ep[k].ca == n)
							h = t->ep[k].host;
				}
			}
			db_done(d);
			if (h >= 0) {
				char key[256];

				lower(key, name, sizeof(key));
				smap_put(&t->hostmap, key, h);
			}
		}
		if (h < 0 && !*name)
			continue;
		if (h < 0)
			h = host_get(t, name);
		if (!t->host[h].bundle)
			t->host[h].bundle = bid;
	}
	db_done(st);
}

/* PT_NONE: each HCA port a bundle lists is an endpoint */
static void bundle_hcas(struct ptopo *t)
{
	int h;

	for (h = 0; h < t->nhost; h++) {
		sqlite3_stmt *st;

		if (!t->host[h].bundle)
			continue;
		st = db_query(t->db, "SELECT ibdev, port FROM ports WHERE "
			      "bundle_id = ? ORDER BY ibdev, port", "i",
			      t->host[h].bundle);
		while (sqlite3_step(st) == SQLITE_ROW) {
			char label[320], key[400];
			int e;

			snprintf(label, sizeof(label), "%s %s port %" PRId64,
				 t->host[h].name, db_col(st, 0),
				 db_col_int(st, 1));
			e = ep_add(t, h, -1, (int)db_col_int(st, 1),
				   db_col(st, 0), label);
			snprintf(key, sizeof(key), "A:%s:%s:%" PRId64,
				 t->host[h].name, db_col(st, 0),
				 db_col_int(st, 1));
			t->ep[e].cable = pm_comp(t->pm, PC_HCA, key, t->ep[e].label);
			t->pm->comp[t->ep[e].cable].host = h;
			snprintf(key, sizeof(key), "%s %s", t->host[h].name,
				 db_col(st, 0));
			name_put(t, key, e);
			name_put(t, label, e);
		}
		db_done(st);
	}
}

/* each host is named by its only endpoint, or by one of its own */
static void host_endpoints(struct ptopo *t)
{
	int *count = xcalloc((size_t)t->nhost + 1, sizeof(*count));
	int *last = xcalloc((size_t)t->nhost + 1, sizeof(*last));
	int h, e;

	for (e = 0; e < t->nep; e++) {
		count[t->ep[e].host]++;
		last[t->ep[e].host] = e;
	}
	for (h = 0; h < t->nhost; h++) {
		t->host[h].ep = count[h] == 1 ? last[h] :
				ep_add(t, h, -1, -1, "", t->host[h].name);
	}
	for (h = 0; h < t->nhost; h++)
		name_put(t, t->host[h].name, t->host[h].ep);
	for (h = 0; h < (int)t->hostmap.size; h++)
		if (t->hostmap.key[h])
			name_put(t, t->hostmap.key[h],
				 t->host[t->hostmap.val[h]].ep);
	free(count);
	free(last);
}

static int host_of_bundle(struct ptopo *t, int64_t bundle)
{
	int h;

	for (h = 0; h < t->nhost; h++)
		if (t->host[h].bundle == bundle)
			return h;
	return -1;
}

int pt_local(struct ptopo *t, int64_t bundle, const char *ibdev)
{
	char name[400];
	int h = host_of_bundle(t, bundle), e;

	if (h < 0)
		return -1;
	if (ibdev && *ibdev) {
		snprintf(name, sizeof(name), "%s %s", t->host[h].name, ibdev);
		e = pt_resolve(t, name);
		if (e >= 0 && t->ep[e].host == h)
			return e;
	}
	return t->host[h].ep;
}

/* addresses, GIDs and (without a scan) the ports' LIDs name endpoints */
static void bundle_names(struct ptopo *t)
{
	sqlite3_stmt *st;
	char a[64];

	st = db_query(t->db, "SELECT a.bundle_id, a.address, n.ibdev FROM "
		      "addresses a LEFT JOIN netdevs n ON n.bundle_id = "
		      "a.bundle_id AND n.name = a.netdev WHERE a.bundle_id IN "
		      "(" NEWEST ")", "");
	while (sqlite3_step(st) == SQLITE_ROW)
		if (!norm_addr(db_col(st, 1), a, sizeof(a)) &&
		    !is_unusable_addr(a))
			name_put(t, a,
				 pt_local(t, sqlite3_column_int64(st, 0),
					  db_col(st, 2)));
	db_done(st);
	st = db_query(t->db, "SELECT bundle_id, ibdev, gid, ipv4 FROM gids "
		      "WHERE bundle_id IN (" NEWEST ")", "");
	while (sqlite3_step(st) == SQLITE_ROW) {
		int e = pt_local(t, sqlite3_column_int64(st, 0), db_col(st, 1));

		if (!norm_addr(db_col(st, 2), a, sizeof(a)) &&
		    !is_unusable_addr(a))
			name_put(t, a, e);
		if (!norm_addr(db_col(st, 3), a, sizeof(a)) &&
		    !is_unusable_addr(a))
			name_put(t, a, e);
	}
	db_done(st);
	if (t->kind == PT_FABRIC)
		return;
	st = db_query(t->db, "SELECT bundle_id, ibdev, lid, coalesce(lmc, 0) "
		      "FROM ports WHERE lid > 0 AND bundle_id IN (" NEWEST ")",
		      "");
	while (sqlite3_step(st) == SQLITE_ROW)
		lid_put(t, db_col_int(st, 2), (int)db_col_int(st, 3),
			pt_local(t, sqlite3_column_int64(st, 0),
				 db_col(st, 1)));
	db_done(st);
}

int pt_load(struct ptopo *t, sqlite3 *db, struct pmodel *pm)
{
	memset(t, 0, sizeof(*t));
	t->db = db;
	t->pm = pm;
	smap_init(&t->hostmap);
	smap_init(&t->names);
	smap_init(&t->guids);
	t->kind = PT_NONE;
	if (!load_fabric(t))
		load_mad(t);
	bundle_hosts(t);
	if (t->kind == PT_NONE)
		bundle_hcas(t);
	host_endpoints(t);
	bundle_names(t);
	t->create_hosts = t->kind != PT_FABRIC;
	return 0;
}

void pt_release(struct ptopo *t)
{
	int i;

	if (!t)
		return;
	for (i = 0; i < t->nhost; i++)
		free(t->host[i].name);
	free(t->host);
	for (i = 0; i < t->nep; i++)
		free(t->ep[i].label);
	free(t->ep);
	for (i = 0; i < t->nfn; i++) {
		free(t->fn[i].desc);
		free(t->fn[i].p);
		free(t->fn[i].lft);
	}
	free(t->fn);
	free(t->lid_ep);
	smap_release(&t->hostmap);
	smap_release(&t->names);
	smap_release(&t->guids);
	memset(t, 0, sizeof(*t));
}

int pt_resolve(struct ptopo *t, const char *name)
{
	char buf[320], key[320];
	long long lid;
	int e, h;

	while (*name == ' ' || *name == '\t')
		name++;
	if (check_snprintf(buf, sizeof(buf), "%s", name) < 0 || !buf[0])
		return -1;
	while (buf[0] && isspace((unsigned char)buf[strlen(buf) - 1]))
		buf[strlen(buf) - 1] = 0;
	/* a GUID has more digits than any LID */
	if ((!strncmp(buf, "0x", 2) || !strncmp(buf, "0X", 2)) &&
	    strlen(buf) > 6 && !norm_guid(buf, key, sizeof(key)))
		return smap_get(&t->names, key);
	if (!parse_ll(buf, 0, 1, MAX_LID - 1, &lid))
		return t->lid_ep ? t->lid_ep[lid] : -1;
	if (!norm_addr(buf, key, sizeof(key)))
		return smap_get(&t->names, key);
	lower(key, buf, sizeof(key));
	e = smap_get(&t->names, key);
	if (e != -1 || !t->create_hosts || strchr(key, ' '))
		return e;
	/* no topology: a name no bundle knows is a host of its own */
	h = host_get(t, buf);
	t->host[h].ep = ep_add(t, h, -1, -1, "", t->host[h].name);
	name_put(t, t->host[h].name, t->host[h].ep);
	return t->host[h].ep;
}

/* --- corroborating counters --- */

static const char *const pma_errors[] = {
	"SymbolErrorCounter", "LinkErrorRecoveryCounter", "LinkDownedCounter",
	"PortRcvErrors", "PortRcvRemotePhysicalErrors", "PortXmitDiscards",
	"LocalLinkIntegrityErrors", "ExcessiveBufferOverrunErrors",
};

static const char *const sysfs_errors[] = {
	"symbol_error", "link_error_recovery", "link_downed", "port_rcv_errors",
	"port_rcv_remote_physical_errors", "port_xmit_discards",
	"local_link_integrity_errors", "excessive_buffer_overrun_errors",
};

static int is_error_counter(const char *name, const char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(name, v[i]))
			return 1;
	return 0;
}

/* one switch or CA port's error counters: the scan's, and those the
 * bundles' mad documents read from either end */
static int port_counters(struct ptopo *t, const char *guid, int port,
			 const char *where, struct buf *out)
{
	sqlite3_stmt *st;
	int n = 0;

	if (!guid[0] || guid[0] == '?')
		return 0;
	if (t->scan) {
		st = db_query(t->db, "SELECT name, value FROM fabric_counters "
			      "WHERE bundle_id = ? AND guid = ? AND port = ? AND "
			      "grp = 'PortCounters' AND value > 0 ORDER BY name",
			      "isi", t->scan, guid, (int64_t)port);
		while (sqlite3_step(st) == SQLITE_ROW) {
			if (!is_error_counter(db_col(st, 0), pma_errors,
					      ARRAY_SIZE(pma_errors)))
				continue;
			buf_addf(out, "%s %s %" PRId64 " (fabric scan)\n",
				 where, db_col(st, 0), db_col_int(st, 1));
			n++;
		}
		db_done(st);
	}
	st = db_query(t->db, "SELECT c.name, c.value, coalesce(b.hostname, '?') "
		      "FROM mad_portinfo p JOIN mad_counters c ON c.bundle_id = "
		      "p.bundle_id AND c.ibdev = p.ibdev AND c.port = p.port AND "
		      "c.side = p.side JOIN bundles b ON b.id = p.bundle_id WHERE "
		      "p.node_guid = ? AND p.port_num = ? AND c.grp = "
		      "'PortCounters' AND c.value > 0 AND b.id IN (" NEWEST ") "
		      "ORDER BY c.name", "si", guid, (int64_t)port);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (!is_error_counter(db_col(st, 0), pma_errors,
				      ARRAY_SIZE(pma_errors)))
			continue;
		buf_addf(out, "%s %s %" PRId64 " (mad, bundle of %s)\n", where,
			 db_col(st, 0), db_col_int(st, 1), db_col(st, 2));
		n++;
	}
	db_done(st);
	return n;
}

/* a host's own HCA ports (sysfs) and its kernel log */
static int host_counters(struct ptopo *t, int h, const char *ibdev,
			 struct buf *out)
{
	sqlite3_stmt *st;
	int n = 0;

	if (h < 0 || !t->host[h].bundle)
		return 0;
	st = db_query(t->db, "SELECT ibdev, port, name, value FROM counters "
		      "WHERE bundle_id = ? AND kind = 'pma' AND value > 0 AND "
		      "(?2 = '' OR ibdev = ?2) ORDER BY ibdev, port, name", "is",
		      t->host[h].bundle, ibdev ? ibdev : "");
	while (sqlite3_step(st) == SQLITE_ROW) {
		char *dev;

		if (!is_error_counter(db_col(st, 2), sysfs_errors,
				      ARRAY_SIZE(sysfs_errors)))
			continue;
		dev = clean(db_col(st, 0), 64);
		buf_addf(out, "%s %s:%" PRId64 " %s %" PRId64 " (sysfs)\n",
			 t->host[h].name, dev, db_col_int(st, 1), db_col(st, 2),
			 db_col_int(st, 3));
		free(dev);
		n++;
	}
	db_done(st);
	if (ibdev && *ibdev)
		return n;
	st = db_query(t->db, "SELECT category, count(*) FROM klog WHERE "
		      "bundle_id = ? AND category IN ('fw_reset', 'link_flap', "
		      "'cqe_error', 'cable_module', 'fw_mem_alloc', "
		      "'probe_fail') GROUP BY category ORDER BY category", "i",
		      t->host[h].bundle);
	while (sqlite3_step(st) == SQLITE_ROW) {
		buf_addf(out, "%s kernel log: %" PRId64 " %s line%s\n",
			 t->host[h].name, db_col_int(st, 1), db_col(st, 0),
			 db_col_int(st, 1) == 1 ? "" : "s");
		n++;
	}
	db_done(st);
	return n;
}

static const char *fdesc(struct ptopo *t, const char *guid)
{
	int n = t->nfn ? fnode_find(t, guid) : -1;

	return n >= 0 ? t->fn[n].desc : guid;
}

int pt_counters(struct ptopo *t, int comp, struct buf *out)
{
	const struct pcomp *c = &t->pm->comp[comp];
	char where[400];
	int n = 0, k, e;

	switch (c->kind) {
	case PC_NODE:
		return host_counters(t, c->host, NULL, out);
	case PC_HCA:
		for (e = 0; e < t->nep; e++)
			if (t->ep[e].cable == comp)
				n += host_counters(t, c->host, t->ep[e].ibdev, out);
		return n;
	case PC_SWITCH:
		if (!t->scan)
			return port_counters(t, c->guid[0], -1, c->name, out);
		for (k = 0; k <= MAX_PORTS; k++) {
			snprintf(where, sizeof(where), "%s port %d", c->name, k);
			n += port_counters(t, c->guid[0], k, where, out);
			if (n > 16)
				break;
		}
		return n;
	default:
		break;
	}
	for (k = 0; k < 2; k++) {
		if (c->port[k] < 0)
			continue;
		snprintf(where, sizeof(where), "%s port %d",
			 k || t->kind == PT_FABRIC ? fdesc(t, c->guid[k]) :
			 c->name, c->port[k]);
		n += port_counters(t, c->guid[k], c->port[k], where, out);
	}
	if (c->kind == PC_CABLE)
		for (e = 0; e < t->nep; e++)
			if (t->ep[e].cable == comp && t->ep[e].ibdev[0])
				n += host_counters(t, c->host, t->ep[e].ibdev,
						   out);
	return n;
}
