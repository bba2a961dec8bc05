/* imp-fabric-text: what the fabric tools' text proves about the subnet,
 * as rdma-collect/fabric/fabric.json (schema/BUNDLE.md) -- the document a
 * --fabric scan writes, here holding only the nodes and ports the pasted
 * outputs name.  Several readers add to it (iblinkinfo, perfquery of a
 * remote LID, ibnetdiscover, ibswitches), in any order, so each merges
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
#include "import.h"
#include "json.h"
#include "jsonp.h"
#include "log.h"
#include "util.h"

#define FABRIC_JSON "rdma-collect/fabric/fabric.json"
#define MAX_LIDS 256		/* a node's LIDs looked at for a match */

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
	if (lid > 0 && lid <= 0xffff && id->nlids < MAX_LIDS)
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
	const struct jv *same[16];
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
	const struct jv *sub[16];
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
		const struct jv *v[16];
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
