/* load-fabric: InfiniBand evidence gathered over MADs.  The mad source's
 * per-port documents (rdma-collect/mad/<ibdev>.<port>.json: the port and
 * the peer at the far end of its cable, SMInfo, PMA counters of both ends;
 * an import's mad/sminfo.json, the SMInfo of a port it does not name, as
 * ibdev '' port 0) into mad_*; the --fabric scan (rdma-collect/fabric/fabric.json: every
 * node, port, counter and forwarding table) into fabric_*; an imported
 * ibdiagnet console log (rdma-collect/fabric/ibdiagnet.json: its stages,
 * warnings, errors and firmware check) into fabric_diag_*.
 *
 * Both are hostile input: any member may be missing, of the wrong type or
 * out of range (then the column is NULL), and the number of documents,
 * nodes, ports and LFT entries is capped so a forged scan cannot fill the
 * disk; what went over a cap is counted in fabric_scans.dropped.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "db.h"
#include "load.h"

#define MAD_DIR "rdma-collect/mad"
#define FABRIC_JSON "rdma-collect/fabric/fabric.json"
#define DIAG_JSON "rdma-collect/fabric/ibdiagnet.json"
#define MAX_DIAG_ROWS 20000		/* messages or firmware rows of one log */

#define MAX_MAD_DOCS 256		/* local IB ports of one node */
#define MAX_NODES 65536			/* a subnet has at most 48K unicast LIDs */
#define MAX_PORTS_TOTAL 1000000
#define MAX_LFT_TOTAL 4000000
#define MAX_LID 0xbfff			/* the last unicast LID */
#define MAX_COUNTERS 128		/* names in one PMA group */
#define MAX_ERROR_TEXT 4096

/* a member as a number within [lo, hi], or -1 (binds NULL with 'N') */
static int64_t num(const struct jv *o, const char *key, int64_t lo, int64_t hi)
{
	int64_t v = jint(o, key, -1);

	return v >= lo && v <= hi ? v : -1;
}

/* the first of two spellings that is present: the bundle format's example
 * and libibmad's own field names differ for a few NodeInfo and PortInfo
 * members (NodeGuid / Guid, DeviceID / DevId, CapabilityMask / CapMask) */
static const struct jv *either(const struct jv *o, const char *a,
			       const char *b)
{
	const struct jv *v = jget(o, a);

	return v ? v : jget(o, b);
}

static int64_t num2(const struct jv *o, const char *a, const char *b,
		    int64_t lo, int64_t hi)
{
	return num(either(o, a, b), NULL, lo, hi);
}

/* a GUID (string "0x..." or a number) as "0x" + 16 lower-case hex digits
 * in out; NULL when absent, malformed or zero (no node has GUID 0) */
static const char *guid(const struct jv *v, char out[19])
{
	unsigned long long g;
	char *end;

	if (!v || (v->t != J_STR && v->t != J_NUM) || !v->s || !*v->s ||
	    v->s[0] == '-' || v->n > 24)
		return NULL;
	errno = 0;
	g = strtoull(v->s, &end, v->t == J_STR ? 16 : 10);
	if (errno || *end || !g)
		return NULL;
	snprintf(out, 19, "0x%016llx", g);
	return out;
}

/* a counter value: a whole unsigned number, clamped to what SQLite's
 * INTEGER holds (a 64-bit counter past 2^63 is not a real reading); -1 for
 * anything else */
static int64_t counter(const struct jv *v)
{
	unsigned long long u;
	char *end;

	if (!v || v->t != J_NUM || !v->s || v->s[0] == '-')
		return -1;
	errno = 0;
	u = strtoull(v->s, &end, 10);
	if (*end || end == v->s)
		return -1;
	return errno || u > INT64_MAX ? INT64_MAX : (int64_t)u;
}

/* a string member, NULL unless it is a string; capped for the database */
static const char *text(const struct jv *o, const char *key, char *out,
			size_t n)
{
	const char *s = jstr(o, key);

	if (!s || jget(o, key)->t != J_STR)
		return NULL;
	snprintf(out, n, "%s", s);
	return out;
}

/* --- the mad source --- */

/* a port's "pma" object, as both the mad and the fabric sources store
 * it: {"PortCounters": {name: value, ...}, "PortCountersExtended": ...};
 * fn gets each readable counter (a name of 1 to 64 bytes, a whole
 * value), stopping at its first error */
struct pma_row {
	const char *grp, *name;
	int64_t value;
};

static int pma_each(const struct jv *pma,
		    int (*fn)(struct ld *l, const struct pma_row *r,
			      const void *arg),
		    struct ld *l, const void *arg)
{
	static const char *const grps[] = { "PortCounters",
					    "PortCountersExtended" };
	size_t g, i;

	for (g = 0; g < 2; g++) {
		const struct jv *c = jget(pma, grps[g]);

		if (!c || c->t != J_OBJ)
			continue;
		for (i = 0; i < c->n && i < MAX_COUNTERS; i++) {
			struct pma_row r = { grps[g], c->k[i],
					     counter(&c->v[i]) };

			if (r.value < 0 || !r.name[0] || strlen(r.name) > 64)
				continue;
			if (fn(l, &r, arg) < 0)
				return -1;
		}
	}
	return 0;
}

/* the end whose counters go into mad_counters */
struct mad_end_key {
	const char *ibdev, *side;
	int64_t port;
};

static int mad_counter(struct ld *l, const struct pma_row *r,
		       const void *arg)
{
	const struct mad_end_key *k = arg;

	return ld_exec(l, "INSERT OR REPLACE INTO mad_counters (bundle_id, "
		       "ibdev, port, side, grp, name, value) VALUES (?, ?, ?, "
		       "?, ?, ?, ?)", "isisssi", l->bid, k->ibdev, k->port,
		       k->side, r->grp, r->name, r->value);
}

/* the PMA groups of one end into mad_counters */
static int mad_counters(struct ld *l, const char *ibdev, int64_t port,
			const char *side, const struct jv *pma)
{
	struct mad_end_key k = { ibdev, side, port };

	return pma_each(pma, mad_counter, l, &k);
}

/* NodeInfo + PortInfo of one end (end: the "local" or "peer" object) */
static int mad_end(struct ld *l, const char *ibdev, int64_t port,
		   const char *side, const struct jv *end)
{
	const struct jv *pi = jget(end, "portinfo"), *ni = jget(end, "nodeinfo");
	char ng[19], pg[19], sg[19], desc[256], dr[256];
	/* the peer's LID is given apart: a switch's is its port 0's, and
	 * PortInfo of its other ports carries none */
	int64_t lid = jget(end, "lid") ? num(end, "lid", 0, 0xffff) :
		      num(pi, "Lid", 0, 0xffff);

	if (!end || end->t != J_OBJ)
		return 0;
	if (ld_exec(l, "INSERT OR REPLACE INTO mad_portinfo (bundle_id, "
		    "ibdev, port, side, node_guid, port_guid, system_guid, "
		    "node_type, num_ports, node_desc, vendor_id, device_id, "
		    "dr_path, port_num, lid, sm_lid, lmc, state, phys_state, "
		    "width_enabled, width_supported, width_active, speed_enabled, "
		    "speed_supported, speed_active, speed_ext_enabled, "
		    "speed_ext_supported, speed_ext_active, mtu_cap, neighbor_mtu, "
		    "cap_mask) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
		    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		    "isissssNNsNNsNNNNNNNNNNNNNNNNNN", l->bid, ibdev, port, side,
		    guid(either(ni, "NodeGuid", "Guid"), ng),
		    guid(jget(ni, "PortGuid"), pg),
		    guid(jget(ni, "SystemGuid"), sg),
		    num(ni, "NodeType", 0, 255), num(ni, "NumPorts", 0, 255),
		    text(end, "node_desc", desc, sizeof(desc)),
		    num2(ni, "VendorID", "VendorId", 0, 0xffffff),
		    num2(ni, "DeviceID", "DevId", 0, 0xffff),
		    text(end, "dr_path", dr, sizeof(dr)),
		    num(ni, "LocalPort", 0, 255), lid,
		    num(pi, "SMLid", 0, 0xffff), num(pi, "LMC", 0, 7),
		    num(pi, "LinkState", 0, 15), num(pi, "PhysLinkState", 0, 15),
		    num(pi, "LinkWidthEnabled", 0, 255),
		    num(pi, "LinkWidthSupported", 0, 255),
		    num(pi, "LinkWidthActive", 0, 255),
		    num(pi, "LinkSpeedEnabled", 0, 31),
		    num(pi, "LinkSpeedSupported", 0, 31),
		    num(pi, "LinkSpeedActive", 0, 31),
		    num(pi, "LinkSpeedExtEnabled", 0, 31),
		    num(pi, "LinkSpeedExtSupported", 0, 31),
		    num(pi, "LinkSpeedExtActive", 0, 31),
		    num(pi, "MtuCap", 0, 15), num(pi, "NeighborMTU", 0, 15),
		    num2(pi, "CapabilityMask", "CapMask", 0, UINT32_MAX)) < 0)
		return -1;
	return mad_counters(l, ibdev, port, side, jget(end, "pma"));
}

/* errors {"sminfo": "timeout", ...} as "sminfo: timeout; ..." */
static void join_errors(const struct jv *e, struct buf *b)
{
	size_t i;

	for (i = 0; e && e->t == J_OBJ && i < e->n && b->len < 1024; i++)
		buf_addf(b, "%s%.64s: %.200s", i ? "; " : "", e->k[i],
			 e->v[i].t == J_STR ? e->v[i].s : "?");
}

static int mad_doc(struct ld *l, const char *name)
{
	char path[PATH_MAX], ibdev[64], g[19], st[16];
	const struct jv *sm, *err;
	struct buf eb = BUF_INIT;
	const char *dot;
	struct jv *d;
	int64_t port;
	int rc = -1;

	snprintf(path, sizeof(path), MAD_DIR "/%s", name);
	d = br_json(l->b, path);
	if (!d || d->t != J_OBJ) {
		jfree(d);
		return 0;	/* unreadable: the source's status says why */
	}
	/* ibdev and port from the document, else from "<ibdev>.<port>.json" */
	dot = strrchr(name, '.');
	while (dot > name && dot[-1] != '.')
		dot--;
	if (!text(d, "ibdev", ibdev, sizeof(ibdev)))
		snprintf(ibdev, sizeof(ibdev), "%.*s",
			 dot > name ? (int)(dot - name - 1) : 0, name);
	port = num(d, "port", 0, 255);
	if (port < 0 && dot > name)
		port = strtol(dot, NULL, 10);
	/* the SMInfo of a port the input does not name (an import of a lone
	 * sminfo): ibdev '' and port 0, the subnet's SM all the same */
	if (!strcmp(name, "sminfo.json") && !jget(d, "ibdev") &&
	    !jget(d, "port") && !jget(d, "local") && !jget(d, "peer")) {
		ibdev[0] = 0;
		port = 0;
	} else if (!ibdev[0] || port <= 0 || port > 255) {
		rc = 0;
		goto out;
	}
	err = jget(d, "errors");
	join_errors(err, &eb);
	if (ld_exec(l, "INSERT OR REPLACE INTO mad_ports (bundle_id, ibdev, "
		    "port, status, errors, path) VALUES (?, ?, ?, ?, ?, ?)",
		    "isisss", l->bid, ibdev, port, text(d, "status", st,
							sizeof(st)),
		    eb.len ? eb.buf : NULL, path) < 0 ||
	    mad_end(l, ibdev, port, "local", jget(d, "local")) < 0 ||
	    mad_end(l, ibdev, port, "peer", jget(d, "peer")) < 0)
		goto out;
	sm = jget(d, "sminfo");
	/* neither an answer nor a failure: nobody asked (an import of
	 * perfquery or iblinkinfo without sminfo), which says nothing of
	 * the SM; a member of the wrong type is a failed answer */
	if (!sm && !jstr(err, "sminfo")) {
		rc = 0;
		goto out;
	}
	if (sm && sm->t != J_OBJ)
		sm = NULL;
	if (ld_exec(l, "INSERT OR REPLACE INTO mad_sminfo (bundle_id, ibdev, "
		    "port, sm_lid, guid, activity, priority, state, error) VALUES "
		    "(?, ?, ?, ?, ?, ?, ?, ?, ?)", "isiNsNNNs", l->bid, ibdev, port,
		    sm ? num(sm, "lid", 0, 0xffff) : num(jget(jget(d, "local"),
				"portinfo"), "SMLid", 0, 0xffff),
		    guid(jget(sm, "SmInfoGuid"), g),
		    num(sm, "SmActivity", 0, UINT32_MAX),
		    num(sm, "SmPriority", 0, 15), num(sm, "SmState", 0, 3),
		    jstr(err, "sminfo") ? jstr(err, "sminfo") :
		    sm ? NULL : "no SMInfo in the bundle") < 0)
		goto out;
	rc = 0;
out:
	buf_release(&eb);
	jfree(d);
	return rc;
}

static int load_mad(struct ld *l)
{
	const char **names;
	size_t n, i, done = 0;
	int rc = 0;

	n = br_list(l->b, MAD_DIR, &names);
	for (i = 0; i < n && !rc && done < MAX_MAD_DOCS; i++) {
		size_t len = strlen(names[i]);

		if (len <= 5 || strcmp(names[i] + len - 5, ".json"))
			continue;
		rc = mad_doc(l, names[i]);
		done++;
	}
	free(names);
	return rc;
}

/* --- the fabric scan --- */

struct scan {
	int64_t nodes, switches, ports, links, lft, dropped;
};

/* the scanned port whose counters go into fabric_counters */
struct fabric_port_key {
	const char *guid;
	int64_t port;
};

static int fabric_counter(struct ld *l, const struct pma_row *r,
			  const void *arg)
{
	const struct fabric_port_key *k = arg;

	return ld_exec(l, "INSERT OR REPLACE INTO fabric_counters (bundle_id, "
		       "guid, port, grp, name, value) VALUES (?, ?, ?, ?, ?, "
		       "?)", "isissi", l->bid, k->guid, k->port, r->grp,
		       r->name, r->value);
}

static int fabric_counters(struct ld *l, const char *ng, int64_t port,
			   const struct jv *pma)
{
	struct fabric_port_key k = { ng, port };

	return pma_each(pma, fabric_counter, l, &k);
}

static int fabric_port(struct ld *l, struct scan *s, const char *ng,
		       const struct jv *p)
{
	const struct jv *rem = jget(p, "remote");
	char pg[19], rg[19];
	const char *rguid = guid(jget(rem, "guid"), rg);
	int64_t pn = num(p, "port", 0, 254);

	/* the far end an import knows only by its LID (keyed as its node) */
	if (!rguid && rem && !jget(rem, "guid") && num(rem, "lid", 1, MAX_LID) > 0) {
		snprintf(rg, sizeof(rg), "LID %" PRId64, num(rem, "lid", 1, MAX_LID));
		rguid = rg;
	}

	/* port 255: a switch's ports summed (the PMA's AllPortSelect, an
	 * ibqueryerrors 'port ALL' line): counters, but no port of its own */
	if (pn < 0 && num(p, "port", 255, 255) == 255)
		return fabric_counters(l, ng, 255, jget(p, "pma"));
	if (pn < 0)
		return 0;
	if (s->ports >= MAX_PORTS_TOTAL) {
		s->dropped++;
		return 0;
	}
	if (ld_exec(l, "INSERT OR REPLACE INTO fabric_ports (bundle_id, "
		    "guid, port, port_guid, lid, lmc, state, phys_state, "
		    "width_enabled, width_supported, width_active, speed_enabled, "
		    "speed_supported, speed_active, speed_ext_enabled, "
		    "speed_ext_supported, speed_ext_active, remote_guid, "
		    "remote_port) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
		    "?, ?, ?, ?, ?, ?)", "isisNNNNNNNNNNNNNsN", l->bid, ng, pn,
		    guid(jget(p, "guid"), pg), num(p, "lid", 0, 0xffff),
		    num(p, "lmc", 0, 7), num(p, "state", 0, 15),
		    num(p, "phys_state", 0, 15), num(p, "width_enabled", 0, 255),
		    num(p, "width_supported", 0, 255),
		    num(p, "width_active", 0, 255),
		    num(p, "speed_enabled", 0, 31),
		    num(p, "speed_supported", 0, 31),
		    num(p, "speed_active", 0, 31),
		    num(p, "speed_ext_enabled", 0, 31),
		    num(p, "speed_ext_supported", 0, 31),
		    num(p, "speed_ext_active", 0, 31), rguid,
		    rguid ? num(rem, "port", 0, 254) : -1) < 0)
		return -1;
	s->ports++;
	/* each cable is seen from both ends: count it from the lower end */
	if (rguid && (strcmp(ng, rguid) < 0 || (!strcmp(ng, rguid) &&
	    pn < num(rem, "port", 0, 254))))
		s->links++;
	return fabric_counters(l, ng, pn, jget(p, "pma"));
}

/* the routed entries of a switch's LFT */
static int fabric_lft(struct ld *l, struct scan *s, const char *ng,
		      const struct jv *lft)
{
	size_t i;

	for (i = 0; i < jlen(lft) && lft->t == J_ARR; i++) {
		int64_t port = num(jat(lft, i), NULL, 0, 255);

		if (i > MAX_LID || s->lft >= MAX_LFT_TOTAL) {
			s->dropped += (int64_t)(jlen(lft) - i);
			break;
		}
		if (port < 0 || port == 255)
			continue;
		if (ld_exec(l, "INSERT OR REPLACE INTO fabric_lft (bundle_id, "
			    "guid, lid, port) VALUES (?, ?, ?, ?)", "isii",
			    l->bid, ng, (int64_t)i, port) < 0)
			return -1;
		s->lft++;
	}
	return 0;
}

static int fabric_node(struct ld *l, struct scan *s, const struct jv *nd)
{
	const struct jv *ports = jget(nd, "ports"), *lft = jget(nd, "lft");
	char ng[19], sg[19], desc[256], dr[256];
	int64_t type = num(nd, "type", 0, 255);
	size_t i;

	/* a node an import knows only by a LID (a perfquery of a remote
	 * port, a redacted GUID) has no guid: keyed "LID <n>" */
	if (!jget(nd, "guid") && num(nd, "lid", 1, MAX_LID) > 0)
		snprintf(ng, sizeof(ng), "LID %" PRId64, num(nd, "lid", 1, MAX_LID));
	else if (!guid(jget(nd, "guid"), ng))
		return 0;
	if (ld_exec(l, "INSERT OR REPLACE INTO fabric_nodes (bundle_id, guid, "
		    "type, desc, num_ports, lid, system_guid, vendor_id, "
		    "device_id, dr_path, lft_top) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
		    "?, ?, ?)", "isNsNNsNNsN", l->bid, ng, type,
		    text(nd, "desc", desc, sizeof(desc)),
		    num(nd, "num_ports", 0, 255), num(nd, "lid", 0, 0xffff),
		    guid(jget(nd, "system_guid"), sg),
		    num(nd, "vendor_id", 0, 0xffffff),
		    num(nd, "device_id", 0, 0xffff),
		    text(nd, "dr_path", dr, sizeof(dr)),
		    lft && lft->t == J_ARR ? (int64_t)jlen(lft) : -1) < 0)
		return -1;
	s->nodes++;
	s->switches += type == 2;
	for (i = 0; ports && ports->t == J_ARR && i < ports->n; i++) {
		if (i > 255) {	/* a node has at most 255 ports */
			s->dropped += (int64_t)(ports->n - i);
			break;
		}
		if (fabric_port(l, s, ng, &ports->v[i]) < 0)
			return -1;
	}
	if (type == 2 && fabric_lft(l, s, ng, lft) < 0)
		return -1;
	return 0;
}

static int load_scan(struct ld *l)
{
	const struct jv *from, *nodes, *errs;
	struct scan s = { 0 };
	struct buf eb = BUF_INIT;
	char st[16], reason[512], ibdev[64];
	size_t i;
	int rc = -1;
	struct jv *f = br_json(l->b, FABRIC_JSON);

	if (!f || f->t != J_OBJ) {
		jfree(f);
		return 0;
	}
	nodes = jget(f, "nodes");
	for (i = 0; nodes && nodes->t == J_ARR && i < nodes->n; i++) {
		if (s.nodes >= MAX_NODES) {
			s.dropped += (int64_t)(nodes->n - i);
			break;
		}
		if (fabric_node(l, &s, &nodes->v[i]) < 0)
			goto out;
	}
	errs = jget(f, "errors");
	for (i = 0; errs && errs->t == J_ARR && i < errs->n; i++)
		if (errs->v[i].t == J_STR && eb.len < MAX_ERROR_TEXT)
			buf_addf(&eb, "%s%.300s", eb.len ? "\n" : "",
				 errs->v[i].s);
	from = jget(f, "from");
	if (ld_exec(l, "INSERT OR REPLACE INTO fabric_scans (bundle_id, "
		    "status, reason, from_ibdev, from_port, duration_ms, nodes, "
		    "switches, ports, links, lft_entries, errors, error_text, "
		    "dropped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		    "isssNNiiiiiisi", l->bid, text(f, "status", st, sizeof(st)),
		    text(f, "reason", reason, sizeof(reason)),
		    text(from, "ibdev", ibdev, sizeof(ibdev)),
		    num(from, "port", 0, 255),
		    num(f, "duration_ms", 0, INT64_MAX), s.nodes, s.switches,
		    s.ports, s.links, s.lft,
		    (int64_t)(errs && errs->t == J_ARR ? errs->n : 0),
		    eb.len ? eb.buf : NULL, s.dropped) < 0)
		goto out;
	rc = 0;
out:
	buf_release(&eb);
	jfree(f);
	return rc;
}

/* --- ibdiagnet's console log --- */

static int diag_stages(struct ld *l, const struct jv *a)
{
	char st[64];
	size_t i;

	for (i = 0; i < jlen(a) && i < 256; i++) {
		const struct jv *o = jat(a, i);

		if (!text(o, "stage", st, sizeof(st)))
			continue;
		if (ld_exec(l, "INSERT OR REPLACE INTO fabric_diag_stages "
			    "(bundle_id, stage, warnings, errors, "
			    "listed_warnings, listed_errors) VALUES (?, ?, ?, ?, "
			    "?, ?)", "isNNNN", l->bid, st,
			    num(o, "warnings", 0, INT32_MAX),
			    num(o, "errors", 0, INT32_MAX),
			    num(o, "listed_warnings", 0, INT32_MAX),
			    num(o, "listed_errors", 0, INT32_MAX)) < 0)
			return -1;
	}
	return 0;
}

static int diag_messages(struct ld *l, const struct jv *a)
{
	char st[64], lv[16], obj[128], g[19], t[512];
	size_t i;

	for (i = 0; i < jlen(a) && i < MAX_DIAG_ROWS; i++) {
		const struct jv *o = jat(a, i);

		if (!text(o, "text", t, sizeof(t)))
			continue;
		if (ld_exec(l, "INSERT OR REPLACE INTO fabric_diag_messages "
			    "(bundle_id, seq, stage, level, object, guid, text) "
			    "VALUES (?, ?, ?, ?, ?, ?, ?)", "iisssss", l->bid,
			    (int64_t)i, text(o, "stage", st, sizeof(st)),
			    text(o, "level", lv, sizeof(lv)),
			    text(o, "object", obj, sizeof(obj)),
			    guid(jget(o, "guid"), g), t) < 0)
			return -1;
	}
	return 0;
}

static int diag_fw(struct ld *l, const struct jv *a)
{
	char obj[128], g[19], psid[32], fw[32], latest[32];
	size_t i;

	for (i = 0; i < jlen(a) && i < MAX_DIAG_ROWS; i++) {
		const struct jv *o = jat(a, i);

		if (!text(o, "object", obj, sizeof(obj)) ||
		    !text(o, "fw", fw, sizeof(fw)) ||
		    !text(o, "latest", latest, sizeof(latest)))
			continue;
		if (ld_exec(l, "INSERT OR REPLACE INTO fabric_diag_fw (bundle_id, "
			    "object, guid, device_id, psid, fw, latest) VALUES (?, "
			    "?, ?, ?, ?, ?, ?)", "issNsss", l->bid, obj,
			    guid(jget(o, "guid"), g), num(o, "device_id", 0, 0xffff),
			    text(o, "psid", psid, sizeof(psid)), fw, latest) < 0)
			return -1;
	}
	return 0;
}

static int load_diag(struct ld *l)
{
	struct jv *f = br_json(l->b, DIAG_JSON);
	int rc = 0;

	if (f && f->t == J_OBJ &&
	    (diag_stages(l, jget(f, "stages")) < 0 ||
	     diag_messages(l, jget(f, "messages")) < 0 ||
	     diag_fw(l, jget(f, "fw")) < 0))
		rc = -1;
	jfree(f);
	return rc;
}

int load_fabric(struct ld *l)
{
	if (load_mad(l) < 0 || load_scan(l) < 0 || load_diag(l) < 0)
		return -1;
	return 0;
}
