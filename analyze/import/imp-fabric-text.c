/* imp-fabric-text: what the fabric tools' text proves about the subnet,
 * as rdma-collect/fabric/fabric.json (schema/BUNDLE.md) -- the document a
 * --fabric scan writes, here holding only the nodes and ports the pasted
 * outputs name.  Several readers add to it (iblinkinfo, perfquery of a
 * remote LID, ibnetdiscover, ibswitches, ibqueryerrors), in any order, so each merges
 * what it read into what is stored instead of replacing it:
 *
 *  - one node is one node whatever told of it: the same node GUID, or,
 *    when one of the two has none (a perfquery knows only a LID, a
 *    redacted GUID is no GUID), a LID in common;
 *  - members of the newer text win, ports are merged port by port and
 *    objects ("pma") member by member, so a switch port's counters from
 *    perfquery and its link from iblinkinfo end up in one port;
 *  - a node known only by its LID has no "guid" (the loader keys it
 *    "LID <n>").
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "imp.h"
#include "json.h"
#include "jsonp.h"
#include "log.h"
#include "util.h"

#define FABRIC_JSON "rdma-collect/fabric/fabric.json"
/* a node's distinct LIDs looked at for a match: a switch has one (every
 * port of a scan repeats it), a CA one a port */
#define MAX_LIDS 16
/* texts of one node merged in one write: each reader gives a node once */
#define MAX_SAME 16

/* what identifies a node: its GUID (0: none) and the LIDs it carries */
struct ident {
	uint64_t guid;
	unsigned lids[MAX_LIDS];
	size_t nlids;
};

static uint64_t node_guid(const struct jv *o)
{
	const char *s = jstr(o, "guid");
	unsigned long long g;

	if (!s || strncmp(s, "0x", 2) || strlen(s) > 18 ||
	    parse_ull(s, 16, UINT64_MAX, &g))
		return 0;
	return g;
}

static void add_lid(struct ident *id, int64_t lid)
{
	size_t i;

	if (lid <= 0 || lid > 0xffff)
		return;
	for (i = 0; i < id->nlids; i++)
		if (id->lids[i] == lid)
			return;
	if (id->nlids < MAX_LIDS)
		id->lids[id->nlids++] = (unsigned)lid;
}

static void ident_of(const struct jv *o, struct ident *id)
{
	const struct jv *ports = jget(o, "ports");
	size_t k;

	id->guid = node_guid(o);
	id->nlids = 0;
	add_lid(id, jint(o, "lid", 0));
	for (k = 0; k < jlen(ports); k++)
		add_lid(id, jint(jat(ports, k), "lid", 0));
}

static int same_node(const struct ident *a, const struct ident *b)
{
	size_t i, k;

	if (a->guid && b->guid)
		return a->guid == b->guid;
	for (i = 0; i < a->nlids; i++)
		for (k = 0; k < b->nlids; k++)
			if (a->lids[i] == b->lids[k])
				return 1;
	return 0;
}

static void merge_n(struct json *j, const char *key, const struct jv **v,
		    size_t n);

/* ports of several texts of one node, port number by port number */
static void ports_n(struct json *j, const struct jv **v, size_t n)
{
	const struct jv *same[MAX_SAME];
	size_t i, k, x, m;
	int64_t num;

	json_arr_open(j, "ports");
	for (i = 0; i < n; i++)
		for (k = 0; k < jlen(v[i]); k++) {
			const struct jv *p = jat(v[i], k);
			int seen = 0;

			num = jint(p, "port", -1);
			/* written with the first text that has it */
			for (x = 0; x < i && !seen; x++)
				for (m = 0; m < jlen(v[x]) && !seen; m++)
					seen = jint(jat(v[x], m), "port", -2) == num;
			for (m = 0; m < k && !seen; m++)
				seen = jint(jat(v[i], m), "port", -2) == num;
			if (seen)
				continue;
			same[0] = p;
			m = 1;
			for (x = i + 1; x < n && m < ARRAY_SIZE(same); x++) {
				size_t y;

				for (y = 0; y < jlen(v[x]); y++)
					if (jint(jat(v[x], y), "port", -2) == num) {
						same[m++] = jat(v[x], y);
						break;
					}
			}
			merge_n(j, NULL, same, m);
		}
	json_arr_close(j);
}

/* objects member by member, the later text winning; "ports" port by
 * port; anything else: the last one */
static void merge_n(struct json *j, const char *key, const struct jv **v,
		    size_t n)
{
	const struct jv *sub[MAX_SAME];
	size_t i, k, x, m;

	for (i = 0; i < n; i++)
		if (v[i]->t != J_OBJ)
			break;
	if (i < n || n == 1) {
		json_jv(j, key, v[n - 1]);
		return;
	}
	json_obj_open(j, key);
	for (i = 0; i < n; i++)
		for (k = 0; k < v[i]->n; k++) {
			const char *name = v[i]->k[k];
			int seen = 0;

			for (x = 0; x < i && !seen; x++)
				seen = jget(v[x], name) != NULL;
			if (seen)
				continue;
			for (m = 0, x = i; x < n && m < ARRAY_SIZE(sub); x++)
				if (jget(v[x], name))
					sub[m++] = jget(v[x], name);
			if (!strcmp(name, "ports")) {
				for (x = 0; x < m && sub[x]->t == J_ARR; x++)
					;
				if (x == m) {
					ports_n(j, sub, m);
					continue;
				}
			}
			merge_n(j, name, sub, m);
		}
	json_obj_close(j);
}

int imp_fabric_merge(struct imp *im, const char *origin, const struct jv *nodes)
{
	const char *prev;
	struct jv *old = NULL;
	const struct jv *on;
	struct ident *oid = NULL, nid;
	size_t plen, no, nn = jlen(nodes), i, k, *match = NULL;
	struct buf out = BUF_INIT;
	struct json j;
	int rc;

	prev = imp_get(im, FABRIC_JSON, &plen);
	if (prev)
		old = jparse(prev, plen, NULL, 0);
	on = jget(old, "nodes");
	no = jlen(on);
	oid = xcalloc(no ? no : 1, sizeof(*oid));
	match = xcalloc(nn ? nn : 1, sizeof(*match));
	for (i = 0; i < no; i++)
		ident_of(jat(on, i), &oid[i]);
	for (k = 0; k < nn; k++) {
		ident_of(jat(nodes, k), &nid);
		match[k] = no;
		for (i = 0; i < no && match[k] == no; i++)
			if (same_node(&oid[i], &nid))
				match[k] = i;
	}
	json_init(&j, &out, 0);
	json_obj_open(&j, NULL);
	if (old && old->t == J_OBJ) {
		for (i = 0; i < old->n; i++)
			if (strcmp(old->k[i], "nodes"))
				json_jv(&j, old->k[i], &old->v[i]);
	} else {
		json_str(&j, "status", "ok");
		json_null(&j, "reason");
		json_arr_open(&j, "errors");
		json_arr_close(&j);
	}
	json_arr_open(&j, "nodes");
	for (i = 0; i < no; i++) {
		const struct jv *v[MAX_SAME];
		size_t m = 1;

		v[0] = jat(on, i);
		for (k = 0; k < nn && m < ARRAY_SIZE(v); k++)
			if (match[k] == i)
				v[m++] = jat(nodes, k);
		merge_n(&j, NULL, v, m);
	}
	for (k = 0; k < nn; k++)
		if (match[k] == no)
			json_jv(&j, NULL, jat(nodes, k));
	json_arr_close(&j);
	json_obj_close(&j);
	json_end(&j);
	rc = imp_put(im, FABRIC_JSON, out.buf, out.len, origin, IMP_DERIVED);
	buf_release(&out);
	free(oid);
	free(match);
	jfree(old);
	return rc;
}

/* --- ibnetdiscover --- */

/* A node and its ports as ibnetdiscover prints them, in the topology
 * format (infiniband-diags ibnetdiscover.c out_switch / out_ca: a node
 * line, then one line per linked port) or the ports report (-p: one line
 * per port, both ends of a link on it).  A CA's node GUID is printed in
 * the topology; the ports report gives only port GUIDs, which then stand
 * in for the node's, as iblinkinfo's do. */
struct nd_port {
	unsigned num, lid, width, speed, espeed;
	uint64_t guid, rguid;
	unsigned rport;
	int linked;		/* a far end printed: the link is up */
};

struct nd_node {
	uint64_t guid;
	int type;		/* 1 CA, 2 switch, 3 router */
	unsigned lid, nports, lines;
	char desc[65];
	struct nd_port *p;
	size_t np;
};

struct nd {
	struct nd_node *n;
	size_t nn;
};

#define ND_MAX_NODES 65536

static struct nd_node *nd_node(struct nd *d, uint64_t guid, int type)
{
	struct nd_node *n;
	size_t i;

	for (i = 0; i < d->nn; i++)
		if (d->n[i].guid == guid)
			return &d->n[i];
	if (d->nn >= ND_MAX_NODES)
		return NULL;
	d->n = xrealloc(d->n, (d->nn + 1) * sizeof(*d->n));
	n = &d->n[d->nn++];
	memset(n, 0, sizeof(*n));
	n->guid = guid;
	n->type = type;
	return n;
}

static struct nd_port *nd_port(struct nd_node *n, unsigned num)
{
	struct nd_port *p;
	size_t i;

	for (i = 0; i < n->np; i++)
		if (n->p[i].num == num)
			return &n->p[i];
	if (n->np >= 255)
		return NULL;
	n->p = xrealloc(n->p, (n->np + 1) * sizeof(*n->p));
	p = &n->p[n->np++];
	memset(p, 0, sizeof(*p));
	p->num = num;
	if (num > n->nports)
		n->nports = num;
	return p;
}

static void nd_free(struct nd *d)
{
	size_t i;

	for (i = 0; i < d->nn; i++)
		free(d->n[i].p);
	free(d->n);
}

static int nd_type(const char *s)
{
	if (!strcmp(s, "CA") || !strcmp(s, "Ca") || !strcmp(s, "H"))
		return 1;
	if (!strcmp(s, "SW") || !strcmp(s, "Switch") || !strcmp(s, "S"))
		return 2;
	if (!strcmp(s, "RT") || !strcmp(s, "Rt") || !strcmp(s, "R"))
		return 3;
	return 0;
}

/* "4x" and "EDR" (dump_linkwidth_compat, dump_linkspeed(ext)_compat) */
static int nd_width(const char *s, unsigned *w)
{
	static const struct { const char *s; unsigned v; } t[] = {
		{ "1x", 1 }, { "4x", 2 }, { "8x", 4 }, { "12x", 8 }, { "2x", 16 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		if (!strcmp(s, t[i].s)) {
			*w = t[i].v;
			return 0;
		}
	return -1;
}

static int nd_speed(const char *s, unsigned *sp, unsigned *es)
{
	static const struct { const char *s; unsigned sp, es; } t[] = {
		{ "SDR", 1, 0 }, { "DDR", 2, 0 }, { "QDR", 4, 0 },
		{ "FDR10", 4, 0 }, { "FDR", 0, 1 }, { "EDR", 0, 2 },
		{ "HDR", 0, 4 }, { "NDR", 0, 8 }, { "XDR", 0, 16 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		if (!strcmp(s, t[i].s)) {
			*sp = t[i].sp;
			*es = t[i].es;
			return 0;
		}
	return -1;
}

static int nd_hex(const char *s, uint64_t *g)
{
	unsigned long long v;

	if (!strncmp(s, "0x", 2))
		s += 2;
	if (!*s || strlen(s) > 16 || parse_ull(s, 16, UINT64_MAX, &v) || !v)
		return -1;
	*g = v;
	return 0;
}

/* a quoted text at s ('...' or "..."): its end, the text in out */
static const char *nd_quoted(const char *s, char q, char *out, size_t n)
{
	const char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != q || !(e = strchr(s + 1, q)))
		return NULL;
	snprintf(out, n, "%.*s", (int)(e - s - 1), s + 1);
	return e + 1;
}

/* -p: "CA   134  1 0x7cfe9003003b4bde 4x EDR - SW  1719 10
 * 0x7cfe9003009ce5b0 ( 'o0001 HCA-1' - 'ib-i1l1s01' )", or a port with
 * no link: "SW  2052 37 0x506b4b03005c2740 4x ???   'ib-i4l1s01'" */
static int nd_report_line(struct nd *d, const char *s)
{
	char t[8], rt[8], g[24], rg[24], w[8], sp[8], desc[65], rdesc[65];
	unsigned lid, port, rlid, rport, width = 0, speed = 0, es = 0;
	uint64_t guid, rguid;
	struct nd_node *n, *rn;
	struct nd_port *p, *rp;
	const char *q;
	int k = 0;

	if (sscanf(s, "%7s %u %u %23s %7s %7s %n", t, &lid, &port, g, w, sp,
		   &k) != 6 || !k || !nd_type(t) || nd_hex(g, &guid) ||
	    lid > 0xffff || port > 255)
		return -1;
	s += k;
	if (!strncmp(s, "- ", 2)) {
		k = 0;
		if (sscanf(s + 2, "%7s %u %u %23s %n", rt, &rlid, &rport, rg,
			   &k) != 4 || !k || !nd_type(rt) || nd_hex(rg, &rguid) ||
		    rlid > 0xffff || rport > 255)
			return -1;
		q = s + 2 + k;
		if (*q != '(' || !(q = nd_quoted(q + 1, '\'', desc, sizeof(desc))) ||
		    strncmp(q, " - ", 3) ||
		    !nd_quoted(q + 3, '\'', rdesc, sizeof(rdesc)))
			return -1;
	} else {
		if (!nd_quoted(s, '\'', desc, sizeof(desc)))
			return -1;
		rt[0] = 0;
	}
	/* a port with no link prints a stale width and "???" */
	if (rt[0] && (nd_width(w, &width) || nd_speed(sp, &speed, &es)))
		width = speed = es = 0;
	if (!(n = nd_node(d, guid, nd_type(t))) || !(p = nd_port(n, port)))
		return -1;
	n->lines++;
	if (!n->desc[0])
		snprintf(n->desc, sizeof(n->desc), "%s", desc);
	if (n->type == 2)
		n->lid = lid;
	p->lid = lid;
	p->guid = guid;
	if (!rt[0])
		return 0;
	p->linked = 1;
	p->width = width;
	p->speed = speed;
	p->espeed = es;
	p->rguid = rguid;
	p->rport = rport;
	/* the far end, as this line proves it (its own line may be cut) */
	if (!(rn = nd_node(d, rguid, nd_type(rt))) || !(rp = nd_port(rn, rport)))
		return -1;
	if (!rn->desc[0])
		snprintf(rn->desc, sizeof(rn->desc), "%s", rdesc);
	if (rn->type == 2)
		rn->lid = rlid;
	if (!rp->linked) {
		rp->lid = rlid;
		rp->guid = rguid;
		rp->linked = 1;
		rp->width = width;
		rp->speed = speed;
		rp->espeed = es;
		rp->rguid = guid;
		rp->rport = port;
	}
	return 0;
}

/* topology: 'Switch\t36 "S-0010e0406d5aa0a0"\t\t# "desc" enhanced port 0
 * lid 15 lmc 0', 'Ca\t2 "H-0002c90300aa0001"\t\t# "desc"' */
static int nd_topo_node(struct nd *d, const char *s, struct nd_node **cur)
{
	char t[8], x[2], g[20], desc[65];
	unsigned np, lid;
	uint64_t guid;
	const char *h, *q;
	struct nd_node *n;
	int k = 0;

	if (sscanf(s, "%7s %u \"%1[SHR]-%16[0-9a-fA-F]\"%n", t, &np, x, g, &k) != 4 ||
	    !k || nd_type(t) != nd_type(x) || !nd_type(t) || np > 255 ||
	    nd_hex(g, &guid))
		return -1;
	if (!(h = strchr(s + k, '#')) || !(q = nd_quoted(h + 1, '"', desc,
						     sizeof(desc))))
		return -1;
	if (!(n = nd_node(d, guid, nd_type(t))))
		return -1;
	n->nports = np > n->nports ? np : n->nports;
	snprintf(n->desc, sizeof(n->desc), "%s", desc);
	if (n->type == 2 && (h = strstr(q, " lid ")) && sscanf(h, " lid %u", &lid) == 1 &&
	    lid <= 0xffff)
		n->lid = lid;
	*cur = n;
	return 0;
}

/* '[1]\t"H-0010e0000128a5c1"[1](10e0000128a5c2) \t\t# "desc" lid 3 4xQDR'
 * under a switch; '[1](2c90300aa0002) \t"S-..."[17]\t\t# lid 4 lmc 0
 * "desc" lid 15 4xQDR' under a CA */
static int nd_topo_port(struct nd_node *n, const char *s)
{
	unsigned long long num, rnum;
	char x[2], g[20], buf[24], rdesc[65];
	unsigned lid = 0, rlid, width, speed, es;
	uint64_t pguid = 0, rguid;
	struct nd_port *p;
	const char *h, *q;
	int k = 0;

	if (sscanf(s, "[%llu]%n", &num, &k) != 1 || !k || !num || num > 255)
		return -1;
	s += k;
	if (*s == '[')	/* an external port number */
		s = strchr(s, ']') ? strchr(s, ']') + 1 : s;
	/* "(5c25730300e6706e)", the port GUID; ibdiagnet's writer puts the
	 * port's label first: "[1](1/1/1)" (a Quantum-2 cage), "[1](1)
	 * (b0cf...)", "[1](B134D0F0/0/0/1)(5c25...)" (an HCA's PCI address):
	 * a group of 9 or more hex digits is the GUID, any other a label */
	while (*s == '(') {
		if (!(q = strchr(s, ')')) || q - s > 40)
			return -1;
		k = (int)(q - s - 1);
		if (k >= 9 && (int)strspn(s + 1, "0123456789abcdefABCDEF") == k) {
			snprintf(g, sizeof(g), "%.*s", k, s + 1);
			if (nd_hex(g, &pguid))
				return -1;
		} else if (!k || (int)strcspn(s + 1, " \t\"") < k) {
			return -1;
		}
		s = q + 1;
	}
	k = 0;
	if (sscanf(s, " \"%1[SHR]-%16[0-9a-fA-F]\"[%llu]%n", x, g, &rnum, &k) != 3 ||
	    !k || nd_hex(g, &rguid) || rnum > 255)
		return -1;
	if (!(h = strchr(s + k, '#')))
		return -1;
	h++;
	if (sscanf(h, " lid %u", &lid) == 1) {
		if (!(h = strchr(h, '"')))
			return -1;
		h--;
	}
	if (!(q = nd_quoted(h, '"', rdesc, sizeof(rdesc))) ||
	    sscanf(q, " lid %u %23s", &rlid, buf) != 2 || rlid > 0xffff)
		return -1;
	/* "4xQDR" */
	for (k = 0; buf[k] && buf[k] != 'x'; k++)
		;
	if (buf[k] != 'x')
		return -1;
	{
		char w[8], sp[12];

		snprintf(w, sizeof(w), "%.*sx", k < 4 ? k : 4, buf);
		snprintf(sp, sizeof(sp), "%s", buf + k + 1);
		if (nd_width(w, &width) || nd_speed(sp, &speed, &es))
			width = speed = es = 0;
	}
	if (!(p = nd_port(n, (unsigned)num)))
		return -1;
	n->lines++;
	p->guid = pguid ? pguid : n->type == 2 ? n->guid : 0;
	p->lid = n->type == 2 ? n->lid : lid;
	p->linked = 1;
	p->width = width;
	p->speed = speed;
	p->espeed = es;
	p->rguid = rguid;
	p->rport = (unsigned)rnum;
	(void)rlid;
	return 0;
}

static void nd_json(struct json *j, const struct nd *d)
{
	char g[24];
	size_t i, k;

	json_arr_open(j, NULL);
	for (i = 0; i < d->nn; i++) {
		const struct nd_node *n = &d->n[i];

		json_obj_open(j, NULL);
		snprintf(g, sizeof(g), "0x%016" PRIx64, n->guid);
		json_str(j, "guid", g);
		json_uint(j, "type", (unsigned)n->type);
		json_str(j, "desc", n->desc);
		json_uint(j, "num_ports", n->nports);
		if (n->type == 2 && n->lid)
			json_uint(j, "lid", n->lid);
		json_arr_open(j, "ports");
		for (k = 0; k < n->np; k++) {
			const struct nd_port *p = &n->p[k];

			json_obj_open(j, NULL);
			json_uint(j, "port", p->num);
			if (p->guid) {
				snprintf(g, sizeof(g), "0x%016" PRIx64, p->guid);
				json_str(j, "guid", g);
			}
			if (p->lid)
				json_uint(j, "lid", p->lid);
			/* a link printed is up (discovery crossed it); whether
			 * Active, and what either end supports, it does not say */
			if (p->linked) {
				json_uint(j, "phys_state", 5);
				if (p->width) {
					json_uint(j, "width_active", p->width);
					if (p->speed)
						json_uint(j, "speed_active", p->speed);
					json_uint(j, "speed_ext_active", p->espeed);
				}
				json_obj_open(j, "remote");
				snprintf(g, sizeof(g), "0x%016" PRIx64, p->rguid);
				json_str(j, "guid", g);
				json_uint(j, "port", p->rport);
				json_obj_close(j);
			} else {
				json_null(j, "remote");
			}
			json_obj_close(j);
		}
		json_arr_close(j);
		json_obj_close(j);
	}
	json_arr_close(j);
	json_end(j);
}

int fab_ibnetdiscover(struct imp *im, const char *text, size_t len,
		      const char *origin, const char *arg)
{
	const char *p = text, *end = text + len, *e;
	struct nd d = { NULL, 0 };
	struct nd_node *cur = NULL;
	unsigned bad = 0, bare = 0, read = 0;
	char line[1024], *s;
	struct buf f = BUF_INIT;
	struct json j;
	struct jv *nodes;
	size_t i, l;
	int rc = 1;

	(void)arg;
	for (; p < end; p = e + 1) {
		e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		l = (size_t)(e - p);
		snprintf(line, sizeof(line), "%.*s", (int)(l < sizeof(line) ? l :
							   sizeof(line) - 1), p);
		s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		l = strlen(s);
		while (l && (s[l - 1] == '\r' || s[l - 1] == ' '))
			s[--l] = 0;
		if (!*s || *s == '#' || (strchr("vdsc", *s) && strchr(s, '=') &&
		    !strchr(s, ' '))) {
			/* comments; vendid=, devid=, sysimgguid=, switchguid=, caguid= */
			if (!*s)
				cur = NULL;
			continue;
		}
		if (!nd_topo_node(&d, s, &cur)) {
			read++;
			continue;
		}
		if (*s == '[') {
			if (!cur)
				bare++;
			else if (nd_topo_port(cur, s))
				bad++;
			else
				read++;
			continue;
		}
		if (!nd_report_line(&d, s)) {
			read++;
			continue;
		}
		bad++;
	}
	if (!read)
		goto out;
	for (i = 0; i < d.nn; i++)
		if (!d.n[i].lines && d.n[i].nports && !d.n[i].np)
			bare++;	/* a node line without its ports: filtered */
	if (bad)
		imp_dropped(im, "%s: %u ibnetdiscover line(s) not understood: not "
			    "kept", origin, bad);
	/* filtered: read as far as it goes (a note, as iblinkinfo's) */
	if (bare)
		imp_note(im, "%s: %u node(s) or port line(s) without the rest "
			    "of their entry (a filtered or cut ibnetdiscover): "
			    "what is not printed is not known", origin, bare);
	json_init(&j, &f, 0);
	nd_json(&j, &d);
	nodes = jparse(f.buf, f.len, NULL, 0);
	buf_release(&f);
	if (!nodes) {
		rc = error("imp-fabric-text: ibnetdiscover: bad fragment");
		goto out;
	}
	rc = imp_fabric_merge(im, origin, nodes);
	jfree(nodes);
out:
	nd_free(&d);
	return rc;
}

/* --- ibswitches, ibhosts --- */

/* 'Switch : 0xfc6a1c0300xxxxxx ports 65 "Quantum-2 Mellanox Technologies"
 * base port 0 lid 6 lmc 0', 'Ca : 0x0002c9020025874a ports 2 "node01
 * HCA-1"' (ibnetdiscover -S / -H, as the two scripts run it).  A redacted
 * GUID is no GUID: a switch is then known by its LID, a CA (ibhosts
 * prints no LID) not at all.  A line may be quoted ("> Switch\t: ..."):
 * a README quotes the output under its bare command line. */
/* not the tool's lines, and no loss: the command line itself
 * ("ibswitches", "ibhosts -C mlx5_0") and a label alone above the output
 * ("Returns:", "Output:") */
static int isw_frame(const char *s)
{
	size_t n = strcspn(s, " \t");

	if (n && s[n - 1] == ':' && !s[n])
		return 1;
	if (!strncmp(s, "sudo ", 5)) {
		s += 5;
		n = strcspn(s, " \t");
	}
	return (n == 10 && !strncmp(s, "ibswitches", 10)) ||
	       (n == 7 && !strncmp(s, "ibhosts", 7));
}

int fab_ibswitches(struct imp *im, const char *text, size_t len,
		   const char *origin, const char *arg)
{
	const char *p = text, *end = text + len, *e, *q, *h, *s;
	char line[1024], t[8], g[24], desc[65];
	unsigned np, lid, unkeyed = 0, bad = 0;
	struct buf f = BUF_INIT;
	struct json j;
	struct jv *nodes;
	uint64_t guid;
	int rc, k, n = 0;
	size_t l;

	(void)arg;
	json_init(&j, &f, 0);
	json_arr_open(&j, NULL);
	for (; p < end; p = e + 1) {
		e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		l = (size_t)(e - p);
		snprintf(line, sizeof(line), "%.*s", (int)(l < sizeof(line) ? l :
							   sizeof(line) - 1), p);
		s = imp_unquoted(line);
		if (!*s || isw_frame(s))
			continue;
		k = 0;
		if (sscanf(s, "%7s : %23s ports %u %n", t, g, &np, &k) != 3 || !k ||
		    !nd_type(t) || strncmp(g, "0x", 2) || np > 255 ||
		    !(q = nd_quoted(s + k, '"', desc, sizeof(desc)))) {
			bad++;
			continue;
		}
		lid = 0;
		if ((h = strstr(q, " lid ")) && (sscanf(h, " lid %u", &lid) != 1 ||
						 lid > 0xffff))
			lid = 0;
		if (nd_hex(g, &guid))
			guid = 0;	/* redacted: "0xfc6a1c0300xxxxxx" */
		if (!guid && !lid) {
			unkeyed++;
			continue;
		}
		json_obj_open(&j, NULL);
		if (guid) {
			snprintf(g, sizeof(g), "0x%016" PRIx64, guid);
			json_str(&j, "guid", g);
		}
		json_uint(&j, "type", (unsigned)nd_type(t));
		json_str(&j, "desc", desc);
		json_uint(&j, "num_ports", np);
		if (lid)
			json_uint(&j, "lid", lid);
		json_arr_open(&j, "ports");
		json_arr_close(&j);
		json_obj_close(&j);
		n++;
	}
	json_arr_close(&j);
	json_end(&j);
	if (!n) {
		buf_release(&f);
		return 1;
	}
	if (bad)
		imp_dropped(im, "%s: %u line(s) not understood: not kept", origin,
			    bad);
	if (unkeyed)
		imp_dropped(im, "%s: %u node(s) with a redacted GUID and no LID: "
			    "nothing to know them by, not kept", origin, unkeyed);
	nodes = jparse(f.buf, f.len, NULL, 0);
	buf_release(&f);
	if (!nodes)
		return error("imp-fabric-text: ibswitches: bad fragment");
	rc = imp_fabric_merge(im, origin, nodes);
	jfree(nodes);
	return rc;
}

/* --- ibqueryerrors --- */

/* What ibqueryerrors prints (infiniband-diags' ibqueryerrors.c,
 * print_results()): a node with a counter over its threshold under
 * 'Errors for 0x<guid> "<name>"' (a switch) or 'Errors for "<name>"' (a
 * CA), then one line a port, '   GUID 0x<node guid> port <n>: [Name ==
 * value] [Name == value (1.2K)] ...', the counters by libibmad's names;
 * port 0 is a switch's management port (enhanced switch port 0).  When
 * the switch's PMA can select all ports, its ports summed come first in
 * one line, 'port ALL' (then each port over its thresholds): kept as port
 * 255, the PortSelect that asks for the sum (AllPortSelect), which the
 * loader keeps apart from the switch's ports and the rules name "all
 * ports summed"; '## Summary: ...', '## Thresholds: ...', '## Suppressed: ...'.  A
 * counter it does not print is below its threshold (0 by default): not
 * in the document.  The error counters and PortXmitWait are kept as
 * PortCounters, --data's data and packet counters as PortCountersExtended;
 * --details' error details (PortLocalPhysicalErrors ...) are no
 * PortCounters field and are named as not kept.  `ibqueryerrors | grep`
 * keeps port lines under no header: the node's type and name are then
 * not in the text. */

static const char *const qe_pc[] = {
	"SymbolErrorCounter", "LinkErrorRecoveryCounter", "LinkDownedCounter",
	"PortRcvErrors", "PortRcvRemotePhysicalErrors",
	"PortRcvSwitchRelayErrors", "PortXmitDiscards",
	"PortXmitConstraintErrors", "PortRcvConstraintErrors",
	"LocalLinkIntegrityErrors", "ExcessiveBufferOverrunErrors",
	"VL15Dropped", "PortXmitWait", "QP1Dropped",
};

static const char *const qe_pcx[] = {
	"PortXmitData", "PortRcvData", "PortXmitPkts", "PortRcvPkts",
	"PortUnicastXmitPkts", "PortUnicastRcvPkts", "PortMulticastXmitPkts",
	"PortMulticastRcvPkts",
};

#define QE_N (ARRAY_SIZE(qe_pc) + ARRAY_SIZE(qe_pcx))
/* nodes over their thresholds in one output (a node is looked up by a
 * linear search: a hostile text cannot make that quadratic past this) */
#define QE_MAX_NODES 8192

struct qe_port {
	unsigned num;
	unsigned long long v[QE_N];
	unsigned char has[QE_N];
};

struct qe_node {
	uint64_t guid;
	int type;		/* 1 CA, 2 switch, 0 not said */
	char desc[65];
	struct qe_port *p;
	size_t np;
};

struct qe {
	struct qe_node *n;
	size_t nn;
	unsigned details, bad, over;
};

/* the PortSelect of a switch's ports summed (PortCounters AllPortSelect) */
#define QE_ALL_PORTS 255

/* the node and type the last header named */
struct qe_head {
	int type;
	uint64_t guid;		/* a switch's header has it */
	char desc[65];
};

static struct qe_node *qe_node(struct qe *q, uint64_t guid)
{
	size_t i;

	/* a node's port lines follow one another */
	if (q->nn && q->n[q->nn - 1].guid == guid)
		return &q->n[q->nn - 1];
	for (i = 0; i < q->nn; i++)
		if (q->n[i].guid == guid)
			return &q->n[i];
	if (q->nn >= QE_MAX_NODES)
		return NULL;
	q->n = xrealloc(q->n, (q->nn + 1) * sizeof(*q->n));
	memset(&q->n[q->nn], 0, sizeof(*q->n));
	q->n[q->nn].guid = guid;
	return &q->n[q->nn++];
}

static struct qe_port *qe_port(struct qe_node *n, unsigned num)
{
	size_t i;

	for (i = 0; i < n->np; i++)
		if (n->p[i].num == num)
			return &n->p[i];
	if (n->np >= 255)
		return NULL;
	n->p = xrealloc(n->p, (n->np + 1) * sizeof(*n->p));
	memset(&n->p[n->np], 0, sizeof(*n->p));
	n->p[n->np].num = num;
	return &n->p[n->np++];
}

static int qe_index(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(qe_pc); i++)
		if (!strcmp(qe_pc[i], name))
			return (int)i;
	for (i = 0; i < ARRAY_SIZE(qe_pcx); i++)
		if (!strcmp(qe_pcx[i], name))
			return (int)(ARRAY_SIZE(qe_pc) + i);
	return -1;
}

/* 'Errors for 0x0002c903004a8a60 "leaf1"' or 'Errors for "node1 HCA-1"' */
static int qe_header(const char *s, struct qe_head *h)
{
	char g[24];

	if (strncmp(s, "Errors for ", 11))
		return 0;
	s += 11;
	memset(h, 0, sizeof(*h));
	h->type = 1;
	if (!strncmp(s, "0x", 2) && sscanf(s, "%23s", g) == 1 &&
	    !nd_hex(g, &h->guid)) {
		h->type = 2;
		s += strlen(g);
	}
	if (!nd_quoted(s, '"', h->desc, sizeof(h->desc)))
		h->desc[0] = 0;
	return 1;
}

/* '   GUID 0x... port 3: [SymbolErrorCounter == 19817 (19.353K)] ...' */
static int qe_line(struct qe *q, const char *s, const struct qe_head *h)
{
	char g[24], pn[8], name[64];
	unsigned long long v, port;
	struct qe_node *n;
	struct qe_port *p;
	uint64_t guid;
	const char *c;
	int i, any = 0;

	if (sscanf(s, "GUID %23s port %7[0-9A-Z]:", g, pn) != 2 ||
	    nd_hex(g, &guid) || !(c = strchr(s, ':')))
		return -1;
	if (!strcmp(pn, "ALL"))
		port = QE_ALL_PORTS;
	else if (parse_ull(pn, 10, 254, &port))
		return -1;
	if (!(n = qe_node(q, guid)) || !(p = qe_port(n, (unsigned)port))) {
		q->over++;
		return 0;
	}
	if (h && (!h->guid || h->guid == guid)) {
		n->type = h->type;
		snprintf(n->desc, sizeof(n->desc), "%s", h->desc);
	}
	/* only a switch has a port 0 or sums its ports */
	if (!n->type && (port == 0 || port == QE_ALL_PORTS))
		n->type = 2;
	for (c = strchr(c, '['); c; c = strchr(c + 1, '[')) {
		if (sscanf(c, "[%63[A-Za-z0-9_] == %llu", name, &v) != 2)
			continue;
		any = 1;
		if ((i = qe_index(name)) < 0) {
			q->details++;
			continue;
		}
		p->v[i] = v;
		p->has[i] = 1;
	}
	return any ? 0 : -1;
}

static void qe_group(struct json *j, const char *key, const struct qe_port *p,
		     size_t from, size_t to)
{
	size_t i;
	int any = 0;

	for (i = from; i < to; i++) {
		if (!p->has[i])
			continue;
		if (!any++)
			json_obj_open(j, key);
		json_uint(j, i < ARRAY_SIZE(qe_pc) ? qe_pc[i] :
			  qe_pcx[i - ARRAY_SIZE(qe_pc)], p->v[i]);
	}
	if (any)
		json_obj_close(j);
}

static void qe_json(struct json *j, const struct qe *q)
{
	char g[24];
	size_t i, k;

	json_arr_open(j, NULL);
	for (i = 0; i < q->nn; i++) {
		const struct qe_node *n = &q->n[i];

		json_obj_open(j, NULL);
		snprintf(g, sizeof(g), "0x%016" PRIx64, n->guid);
		json_str(j, "guid", g);
		if (n->type)
			json_uint(j, "type", (unsigned)n->type);
		if (n->desc[0])
			json_str(j, "desc", n->desc);
		json_arr_open(j, "ports");
		for (k = 0; k < n->np; k++) {
			json_obj_open(j, NULL);
			json_uint(j, "port", n->p[k].num);
			json_obj_open(j, "pma");
			qe_group(j, "PortCounters", &n->p[k], 0, ARRAY_SIZE(qe_pc));
			qe_group(j, "PortCountersExtended", &n->p[k],
				 ARRAY_SIZE(qe_pc), QE_N);
			json_obj_close(j);
			json_obj_close(j);
		}
		json_arr_close(j);
		json_obj_close(j);
	}
	json_arr_close(j);
	json_end(j);
}

static void qe_notes(struct imp *im, const struct qe *q, const char *origin)
{
	if (q->details)
		imp_dropped(im, "%s: %u error detail counter(s) (--details: no "
			    "PortCounters field): not kept", origin, q->details);
	if (q->bad)
		imp_dropped(im, "%s: %u line(s) not understood: not kept", origin,
			    q->bad);
	if (q->over)
		imp_dropped(im, "%s: %u port line(s) over the reader's caps: not "
			    "kept", origin, q->over);
}

int fab_ibqueryerrors(struct imp *im, const char *text, size_t len,
		      const char *origin, const char *arg)
{
	const char *p = text, *end = text + len, *e;
	struct qe q = { NULL, 0, 0, 0, 0 };
	struct qe_head h;
	struct buf f = BUF_INIT;
	struct json j;
	struct jv *nodes;
	char line[4096], *s;
	int have_head = 0, rc = 1;
	size_t i, l;

	(void)arg;
	for (; p < end; p = e + 1) {
		e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		l = (size_t)(e - p);
		snprintf(line, sizeof(line), "%.*s", (int)(l < sizeof(line) ? l :
							   sizeof(line) - 1), p);
		s = line + strspn(line, " \t");
		s[strcspn(s, "\r")] = 0;
		if (!*s || !strncmp(s, "##", 2))
			continue;
		if (qe_header(s, &h)) {
			have_head = 1;
			continue;
		}
		if (qe_line(&q, s, have_head ? &h : NULL) < 0)
			q.bad++;
	}
	if (!q.nn)
		goto out;
	qe_notes(im, &q, origin);
	json_init(&j, &f, 0);
	qe_json(&j, &q);
	nodes = jparse(f.buf, f.len, NULL, 0);
	if (!nodes) {
		rc = error("imp-fabric-text: ibqueryerrors: bad fragment");
		goto out;
	}
	rc = imp_fabric_merge(im, origin, nodes);
	jfree(nodes);
out:
	for (i = 0; i < q.nn; i++)
		free(q.n[i].p);
	free(q.n);
	buf_release(&f);
	return rc;
}
