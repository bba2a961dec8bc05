/* imp-ibdiag: an ibdiagnet output folder as the fabric scan rdma-collect
 * --fabric writes (rdma-collect/fabric/fabric.json, schema/BUNDLE.md), so
 * load-fabric.c and the far-side checks of rules-hca.c read it unchanged.
 *
 * ibdiagnet2.db_csv is sections "START_<NAME>" ... "END_<NAME>", each a
 * header row and CSV rows (strings in double quotes).  Columns are found
 * by header name, never by position (they move between versions).  What
 * is read, and where the names were checked:
 *
 *   NODES    NodeDesc,NumPorts,NodeType,ClassVersion,BaseVersion,
 *            SystemImageGUID,NodeGUID,PortGUID,DeviceID,PartitionCap,
 *            revision,VendorID,LocalPortNum
 *   LINKS    NodeGuid1,PortNum1,NodeGuid2,PortNum2
 *   PORTS    NodeGuid,PortGuid,PortNum,MKey,GIDPrfx,MSMLID,LID,CapMsk,
 *            M_KeyLeasePeriod,DiagCode,LinkWidthActv,LinkWidthSup,
 *            LinkWidthEn,LocalPortNum,LinkSpeedEn,LinkSpeedActv,LMC,
 *            MKeyProtBits,LinkDownDefState,PortPhyState,PortState,
 *            LinkSpeedSup,... (54 columns)
 *     -- the column lists of a public db_csv loader written against real
 *        ibdiagnet output (the Rust NodeRecord/LinkRecord/PortRecord
 *        structs found with find_string "NodeGuid1,PortNum1,NodeGuid2");
 *        the section names are ibutils2's ibdiag.h SECTION_* defines.
 *   PM_INFO  NodeGUID,PortGUID,PortNumber, then one column per counter
 *            named as perfquery names it (LinkDownedCounter,
 *            SymbolErrorCounter, PortXmitDiscards, PortXmitWait, ...), the
 *            64-bit ones with "Extended" appended (PortXmitDataExtended,
 *            PortXmitPktsExtended), then vendor columns (...Ext,
 *            PortFECUncorrectableBlockCounter, max_retransmission_rate)
 *     -- from public ibdiagnet-parsing scripts (check_ib_link_status:
 *        df_pm["NodeGUID"], ["PortNumber"], "PortXmitDataExtended"; an
 *        awk report keyed on col["NodeGUID"], col["PortNumber"]); they
 *        also show unsupported counters written as -1, N/A or
 *        0xfffffffffffffffe, which are skipped here.
 *
 * Widths are the PortInfo bit masks.  Speeds are ibutils2's IBLinkSpeed
 * (ibdm Fabric.h): 1 SDR, 2 DDR, 4 QDR in the first byte, FDR 1 << 8,
 * EDR 2 << 8, HDR 4 << 8, NDR 8 << 8 in the second (PortInfo's
 * LinkSpeedExt bits shifted by 8), FDR10 1 << 16, XDR 1 << 24; they are
 * split back into speed_* and speed_ext_*.  When an extended speed is
 * active the base LinkSpeedActive is not in the file and is left out.
 *
 *   SM_INFO  NodeGUID,PortGUID,PortNumber,GUID,Sm_Key,ActCount,SmState,
 *            Priority (a real ibdiagnet 2.10 db_csv): the MASTER's (else
 *            the first SM's) SMInfo into rdma-collect/mad/sminfo.json, as
 *            an import's lone sminfo, its LID from its port in PORTS.
 *
 * ibdiagnet2.fdbs, when present, gives the LFTs: "osm_ucast_mgr_dump_
 * ucast_routes: Switch 0x<guid>", then "0x<lid> : <port> : <hops> :
 * <optimal>" or "0x<lid> : UNREACHABLE" (format from a public parser of
 * the file, the ib_parser of an InfiniBand topology importer).
 *
 * Not in the files, so not in the document: the scanning port ("from" is
 * null), directed routes, the PMA's ClassPortInfo.  Hostile input: lines,
 * columns, nodes, ports, counters and LFT entries are capped; a value out
 * of range is left out; an unterminated section keeps its rows and makes
 * the scan "partial" with the reason.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "imp.h"
#include "json.h"
#include "util.h"

#define FABRIC_JSON "rdma-collect/fabric/fabric.json"
#define SMINFO_JSON "rdma-collect/mad/sminfo.json"

#define MAX_LINE 65536
#define MAX_COLS 512
#define MAX_NODES 65536
#define MAX_PORTS (1 << 20)
#define MAX_COUNTERS (1 << 22)
#define MAX_LFT 4000000
#define MAX_LID 0xbfff

struct dnode {
	uint64_t guid, sys;
	int64_t type, nports, vendor, device;
	char *desc;
};

struct dport {
	uint64_t node, guid, rguid;
	int num, rport;
	int64_t lid, lmc, cap, state, phys, w_en, w_sup, w_act, s_en, s_sup,
		s_act;
};

struct dcnt {
	uint64_t node;
	int port, grp, name;	/* grp 0 PortCounters, 1 ...Extended */
	uint64_t v;
};

struct dlft {
	uint64_t sw;
	int lid, port;
};

struct dlink {
	uint64_t g1, g2;
	int p1, p2;
};

/* an SM_INFO row: the SMInfo of one subnet manager ibdiagnet found */
struct dsm {
	uint64_t node;
	int port;
	int64_t act, state, prio;
	uint64_t guid;
};

#define MAX_SM 64

struct diag {
	struct dnode *n;
	struct dport *p;
	struct dcnt *c;
	struct dlft *l;
	struct dlink *k;
	struct dsm sm[MAX_SM];
	size_t nsm;
	size_t nn, np, nc, nl, nk, an, ap, ac, al, ak;
	size_t dropped, long_lines;
	int have_links;
	struct buf why;		/* what makes the scan partial */
};

/* the counters fabric.json carries, by libibmad's names */
static const char *const pc_names[] = {
	"SymbolErrorCounter", "LinkErrorRecoveryCounter", "LinkDownedCounter",
	"PortRcvErrors", "PortRcvRemotePhysicalErrors",
	"PortRcvSwitchRelayErrors", "PortXmitDiscards",
	"PortXmitConstraintErrors", "PortRcvConstraintErrors",
	"LocalLinkIntegrityErrors", "ExcessiveBufferOverrunErrors",
	"VL15Dropped", "PortXmitData", "PortRcvData", "PortXmitPkts",
	"PortRcvPkts", "PortXmitWait", "QP1Dropped",
};

/* PortCountersExtended: the db_csv column, then libibmad's name */
static const char *const pcx_names[][2] = {
	{ "PortXmitDataExtended", "PortXmitData" },
	{ "PortRcvDataExtended", "PortRcvData" },
	{ "PortXmitPktsExtended", "PortXmitPkts" },
	{ "PortRcvPktsExtended", "PortRcvPkts" },
	{ "PortUnicastXmitPkts", "PortUnicastXmitPkts" },
	{ "PortUnicastRcvPkts", "PortUnicastRcvPkts" },
	{ "PortMulticastXmitPkts", "PortMulticastXmitPkts" },
	{ "PortMulticastRcvPkts", "PortMulticastRcvPkts" },
};

static void *grow(void *v, size_t *alloc, size_t n, size_t size)
{
	void *nv;

	if (n < *alloc)
		return v;
	*alloc = *alloc ? *alloc * 2 : 64;
	nv = realloc(v, *alloc * size);
	if (!nv)
		return NULL;
	return nv;
}

/* --- values --- */

/* a whole number, decimal or 0x hex, within [lo, hi]; -1 otherwise */
static int64_t num(const char *s, int64_t lo, int64_t hi)
{
	unsigned long long u;

	if (!s || !*s || parse_ull(s, strncasecmp(s, "0x", 2) ? 10 : 16,
				   (unsigned long long)INT64_MAX, &u) < 0 ||
	    (int64_t)u < lo || (int64_t)u > hi)
		return -1;
	return (int64_t)u;
}

/* a GUID, "0x" + hex (or bare hex); 0 when malformed (no node has 0) */
static uint64_t guid(const char *s)
{
	unsigned long long u;

	if (!s)
		return 0;
	if (!strncasecmp(s, "0x", 2))
		s += 2;
	if (!*s || strlen(s) > 16 || parse_ull(s, 16, UINT64_MAX, &u) < 0)
		return 0;
	return u;
}

/* --- CSV --- */

/* split a line (modified in place) into at most max fields; quoted
 * fields lose their quotes ("" is one quote), others their blanks */
static int split(char *s, char **f, int max)
{
	int n = 0;

	for (;;) {
		char *w = s, *start = s;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '"') {
			start = w = ++s;
			while (*s && !(*s == '"' && s[1] != '"')) {
				if (*s == '"')
					s++;
				*w++ = *s++;
			}
			if (*s == '"')
				s++;
			while (*s && *s != ',')
				s++;
		} else {
			start = s;
			while (*s && *s != ',')
				s++;
			w = s;
			while (w > start && (w[-1] == ' ' || w[-1] == '\t' ||
					     w[-1] == '\r'))
				w--;
		}
		if (n == max)
			return -1;
		f[n++] = start;
		if (!*s) {
			*w = '\0';
			return n;
		}
		s++;
		*w = '\0';
	}
}

struct hdr {
	char **f;
	int n;
};

static int col(const struct hdr *h, const char *name)
{
	int i;

	for (i = 0; i < h->n; i++)
		if (!strcasecmp(h->f[i], name))
			return i;
	return -1;
}

static const char *at(char **f, int n, int i)
{
	return i >= 0 && i < n ? f[i] : NULL;
}

/* --- sections --- */

enum sec { S_OTHER, S_NODES, S_PORTS, S_LINKS, S_PM, S_SM };

static enum sec sec_kind(const char *name)
{
	if (!strcmp(name, "NODES"))
		return S_NODES;
	if (!strcmp(name, "PORTS"))
		return S_PORTS;
	if (!strcmp(name, "LINKS"))
		return S_LINKS;
	if (!strcmp(name, "PM_INFO"))
		return S_PM;
	if (!strcmp(name, "SM_INFO"))
		return S_SM;
	return S_OTHER;
}

static int row_node(struct diag *d, const struct hdr *h, char **f, int n)
{
	struct dnode *x;
	const char *desc = at(f, n, col(h, "NodeDesc"));
	uint64_t g = guid(at(f, n, col(h, "NodeGUID")));

	if (!g)
		return 0;
	if (d->nn >= MAX_NODES) {
		d->dropped++;
		return 0;
	}
	if (!(x = grow(d->n, &d->an, d->nn, sizeof(*d->n))))
		return -1;
	d->n = x;
	x = &d->n[d->nn];
	x->guid = g;
	x->sys = guid(at(f, n, col(h, "SystemImageGUID")));
	x->type = num(at(f, n, col(h, "NodeType")), 1, 3);
	x->nports = num(at(f, n, col(h, "NumPorts")), 0, 255);
	x->vendor = num(at(f, n, col(h, "VendorID")), 0, 0xffffff);
	x->device = num(at(f, n, col(h, "DeviceID")), 0, 0xffff);
	x->desc = desc ? strndup(desc, 255) : NULL;
	if (desc && !x->desc)
		return -1;
	d->nn++;
	return 0;
}

static int row_port(struct diag *d, const struct hdr *h, char **f, int n)
{
	struct dport *x;
	uint64_t g = guid(at(f, n, col(h, "NodeGuid")));
	int64_t pn = num(at(f, n, col(h, "PortNum")), 0, 254);

	if (!g || pn < 0)
		return 0;
	if (d->np >= MAX_PORTS) {
		d->dropped++;
		return 0;
	}
	if (!(x = grow(d->p, &d->ap, d->np, sizeof(*d->p))))
		return -1;
	d->p = x;
	x = &d->p[d->np++];
	memset(x, 0, sizeof(*x));
	x->node = g;
	x->num = (int)pn;
	x->guid = guid(at(f, n, col(h, "PortGuid")));
	x->lid = num(at(f, n, col(h, "LID")), 0, 0xffff);
	x->lmc = num(at(f, n, col(h, "LMC")), 0, 7);
	x->cap = num(at(f, n, col(h, "CapMsk")), 0, UINT32_MAX);
	x->state = num(at(f, n, col(h, "PortState")), 0, 15);
	x->phys = num(at(f, n, col(h, "PortPhyState")), 0, 15);
	x->w_en = num(at(f, n, col(h, "LinkWidthEn")), 0, 255);
	x->w_sup = num(at(f, n, col(h, "LinkWidthSup")), 0, 255);
	x->w_act = num(at(f, n, col(h, "LinkWidthActv")), 0, 255);
	x->s_en = num(at(f, n, col(h, "LinkSpeedEn")), 0, UINT32_MAX);
	x->s_sup = num(at(f, n, col(h, "LinkSpeedSup")), 0, UINT32_MAX);
	x->s_act = num(at(f, n, col(h, "LinkSpeedActv")), 0, UINT32_MAX);
	return 0;
}

static int row_link(struct diag *d, const struct hdr *h, char **f, int n)
{
	struct dlink *x;
	uint64_t g1 = guid(at(f, n, col(h, "NodeGuid1")));
	uint64_t g2 = guid(at(f, n, col(h, "NodeGuid2")));
	int64_t p1 = num(at(f, n, col(h, "PortNum1")), 0, 254);
	int64_t p2 = num(at(f, n, col(h, "PortNum2")), 0, 254);

	if (!g1 || !g2 || p1 < 0 || p2 < 0)
		return 0;
	if (d->nk >= MAX_PORTS) {
		d->dropped++;
		return 0;
	}
	if (!(x = grow(d->k, &d->ak, d->nk, sizeof(*d->k))))
		return -1;
	d->k = x;
	d->k[d->nk++] = (struct dlink){ g1, g2, (int)p1, (int)p2 };
	return 0;
}

/* which counter a PM_INFO column is: grp 0/1 and the name's index, or -1 */
static int pm_column(const char *name, int *grp)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pc_names); i++)
		if (!strcasecmp(name, pc_names[i])) {
			*grp = 0;
			return (int)i;
		}
	for (i = 0; i < ARRAY_SIZE(pcx_names); i++)
		/* without case: "PortUniCastXmitPkts" matches too */
		if (!strcasecmp(name, pcx_names[i][0])) {
			*grp = 1;
			return (int)i;
		}
	return -1;
}

static int row_pm(struct diag *d, const struct hdr *h, char **f, int n)
{
	uint64_t g = guid(at(f, n, col(h, "NodeGUID")));
	int64_t pn = num(at(f, n, col(h, "PortNumber")), 0, 254);
	int i;

	if (pn < 0)
		pn = num(at(f, n, col(h, "PortNum")), 0, 254);
	if (!g || pn < 0)
		return 0;
	for (i = 0; i < n && i < h->n; i++) {
		int grp, k = pm_column(h->f[i], &grp);
		int64_t v = num(f[i], 0, INT64_MAX);
		struct dcnt *x;

		if (k < 0 || v < 0)
			continue;
		if (d->nc >= MAX_COUNTERS) {
			d->dropped++;
			return 0;
		}
		if (!(x = grow(d->c, &d->ac, d->nc, sizeof(*d->c))))
			return -1;
		d->c = x;
		d->c[d->nc++] = (struct dcnt){ g, (int)pn, grp, k, (uint64_t)v };
	}
	return 0;
}

/* a reason the scan is partial, after the others */
/* SM_INFO: NodeGUID,PortGUID,PortNumber,GUID,Sm_Key,ActCount,SmState,
 * Priority (the SMInfo attribute, one row a subnet manager found) */
static int row_sm(struct diag *d, const struct hdr *h, char **f, int n)
{
	struct dsm *x;

	if (d->nsm == MAX_SM) {
		d->dropped++;
		return 0;
	}
	x = &d->sm[d->nsm];
	x->node = guid(at(f, n, col(h, "NodeGUID")));
	x->port = (int)num(at(f, n, col(h, "PortNumber")), 0, 254);
	x->guid = guid(at(f, n, col(h, "GUID")));
	x->act = num(at(f, n, col(h, "ActCount")), 0, UINT32_MAX);
	x->state = num(at(f, n, col(h, "SmState")), 0, 3);
	x->prio = num(at(f, n, col(h, "Priority")), 0, 15);
	if (!x->node || x->port < 0 || x->state < 0)
		d->dropped++;
	else
		d->nsm++;
	return 0;
}

static void why(struct diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void why(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	if (d->why.len > 400)
		return;
	if (d->why.len)
		buf_addstr(&d->why, "; ");
	va_start(ap, fmt);
	buf_vaddf(&d->why, fmt, ap);
	va_end(ap);
}

/* the whole db_csv; returns 1 when there is no NODES section */
static int read_dbcsv(struct diag *d, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	char *line = malloc(MAX_LINE + 1), **f = malloc(MAX_COLS * sizeof(*f));
	char *hline = malloc(MAX_LINE + 1), *hf[MAX_COLS];
	char name[64] = "";
	struct hdr h = { hf, -1 };
	enum sec kind = S_OTHER;
	int open = 0, seen_nodes = 0, rc = -1;

	if (!line || !f || !hline)
		goto out;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		int nf;

		if (n > MAX_LINE) {
			d->long_lines++;
			p = nl ? nl + 1 : end;
			continue;
		}
		memcpy(line, p, n);
		line[n] = '\0';
		p = nl ? nl + 1 : end;
		while (n && (line[n - 1] == '\r' || line[n - 1] == ' '))
			line[--n] = '\0';
		if (!strncmp(line, "START_", 6)) {
			if (open)
				why(d, "section %s not terminated", name);
			snprintf(name, sizeof(name), "%.40s", line + 6);
			kind = sec_kind(name);
			seen_nodes |= kind == S_NODES;
			d->have_links |= kind == S_LINKS;
			open = 1;
			h.n = -1;
			continue;
		}
		if (!strncmp(line, "END_", 4)) {
			open = 0;
			kind = S_OTHER;
			continue;
		}
		if (!open || kind == S_OTHER || !n)
			continue;
		if (h.n < 0) {
			memcpy(hline, line, n + 1);
			h.n = split(hline, hf, MAX_COLS);
			if (h.n < 0) {
				why(d, "section %s: too many columns", name);
				kind = S_OTHER;
			}
			continue;
		}
		nf = split(line, f, MAX_COLS);
		if (nf < 0)
			continue;
		if ((kind == S_NODES && row_node(d, &h, f, nf) < 0) ||
		    (kind == S_PORTS && row_port(d, &h, f, nf) < 0) ||
		    (kind == S_LINKS && row_link(d, &h, f, nf) < 0) ||
		    (kind == S_PM && row_pm(d, &h, f, nf) < 0) ||
		    (kind == S_SM && row_sm(d, &h, f, nf) < 0))
			goto out;
	}
	if (open)
		why(d, "section %s not terminated", name);
	rc = seen_nodes ? 0 : 1;
out:
	free(line);
	free(hline);
	free(f);
	return rc;
}

/* the first word of s (blanks, ':' and CR end it), NUL-terminated in place */
static char *word(char *s)
{
	s += strspn(s, " \t");
	s[strcspn(s, " \t:\r")] = '\0';
	return s;
}

/* "osm_ucast_mgr_dump_ucast_routes: Switch 0x..." then "0x0001 : 003 ..." */
static int read_fdbs(struct diag *d, const char *text, size_t len)
{
	static const char sw_line[] = "osm_ucast_mgr_dump_ucast_routes: Switch ";
	const char *p = text, *end = text + len;
	uint64_t sw = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		char line[160], *c;
		int64_t lid, port;
		struct dlft *x;

		snprintf(line, sizeof(line), "%.*s", (int)(n < 159 ? n : 159),
			 p);
		p = nl ? nl + 1 : end;
		if (starts_with(line, sw_line)) {
			sw = guid(word(line + sizeof(sw_line) - 1));
			continue;
		}
		if (!sw || !starts_with(line, "0x") || !(c = strchr(line, ':')))
			continue;
		*c++ = '\0';
		lid = num(word(line), 0, MAX_LID);
		c += strspn(c, " ");
		port = starts_with(c, "UNREACHABLE") ? 255 : num(word(c), 0, 254);
		if (lid < 0 || port < 0)
			continue;
		if (d->nl >= MAX_LFT) {
			d->dropped++;
			continue;
		}
		if (!(x = grow(d->l, &d->al, d->nl, sizeof(*d->l))))
			return -1;
		d->l = x;
		d->l[d->nl++] = (struct dlft){ sw, (int)lid, (int)port };
	}
	return 0;
}

/* --- the document --- */

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_int(int a, int b)
{
	return a < b ? -1 : a > b;
}

static int cmp_node(const void *a, const void *b)
{
	return cmp_u64(((const struct dnode *)a)->guid,
		       ((const struct dnode *)b)->guid);
}

static int cmp_port(const void *a, const void *b)
{
	const struct dport *x = a, *y = b;
	int c = cmp_u64(x->node, y->node);

	return c ? c : cmp_int(x->num, y->num);
}

static int cmp_cnt(const void *a, const void *b)
{
	const struct dcnt *x = a, *y = b;
	int c = cmp_u64(x->node, y->node);

	if (!c)
		c = cmp_int(x->port, y->port);
	if (!c)
		c = cmp_int(x->grp, y->grp);
	return c ? c : cmp_int(x->name, y->name);
}

static int cmp_lft(const void *a, const void *b)
{
	const struct dlft *x = a, *y = b;
	int c = cmp_u64(x->sw, y->sw);

	return c ? c : cmp_int(x->lid, y->lid);
}

/* qsort and bsearch want an array even when there is nothing to sort */
static void sort(void *v, size_t n, size_t size,
		 int (*cmp)(const void *, const void *))
{
	if (n)
		qsort(v, n, size, cmp);
}

static struct dport *find_port(struct diag *d, uint64_t node, int num)
{
	struct dport key = { .node = node, .num = num };

	return d->np ? bsearch(&key, d->p, d->np, sizeof(*d->p), cmp_port) :
		       NULL;
}

static void put_guid(struct json *j, const char *key, uint64_t g)
{
	char s[19];

	if (!g) {
		json_null(j, key);
		return;
	}
	snprintf(s, sizeof(s), "0x%016llx", (unsigned long long)g);
	json_str(j, key, s);
}

static void put_num(struct json *j, const char *key, int64_t v)
{
	if (v >= 0)
		json_int(j, key, v);
}

/* IBLinkSpeed split into PortInfo's LinkSpeed and LinkSpeedExt masks */
static int64_t speed_base(int64_t v)
{
	return v < 0 ? -1 : v & 7;
}

static int64_t speed_ext(int64_t v)
{
	return v < 0 ? -1 : ((v >> 8) & 0xf) | ((v >> 24) & 1) << 4;
}

static void put_counters(struct json *j, const struct dcnt *c, size_t n)
{
	static const char *const grps[] = { "PortCounters",
					    "PortCountersExtended" };
	size_t i;
	int g;

	if (!n)
		return;
	json_obj_open(j, "pma");
	for (g = 0; g < 2; g++) {
		int open = 0;

		for (i = 0; i < n; i++) {
			if (c[i].grp != g ||
			    (i && c[i - 1].grp == g && c[i - 1].name == c[i].name))
				continue;
			if (!open++)
				json_obj_open(j, grps[g]);
			json_uint(j, g ? pcx_names[c[i].name][1] :
				  pc_names[c[i].name], c[i].v);
		}
		if (open)
			json_obj_close(j);
	}
	json_obj_close(j);
}

/* lid, cap: what applies to the port (a switch's ports carry port 0's
 * LID and CapabilityMask, as the --fabric walk records them) */
static void put_port(struct json *j, struct diag *d, const struct dport *p,
		     int64_t lid, int64_t cap, size_t *ci)
{
	size_t c0;

	json_obj_open(j, NULL);
	json_int(j, "port", p->num);
	put_guid(j, "guid", p->guid);
	put_num(j, "lid", lid);
	put_num(j, "lmc", p->lmc);
	put_num(j, "cap_mask", cap);
	put_num(j, "state", p->state);
	put_num(j, "phys_state", p->phys);
	put_num(j, "width_enabled", p->w_en);
	put_num(j, "width_supported", p->w_sup);
	put_num(j, "width_active", p->w_act);
	put_num(j, "speed_enabled", speed_base(p->s_en));
	put_num(j, "speed_supported", speed_base(p->s_sup));
	if (speed_ext(p->s_act) <= 0)
		put_num(j, "speed_active", speed_base(p->s_act));
	put_num(j, "speed_ext_enabled", speed_ext(p->s_en));
	put_num(j, "speed_ext_supported", speed_ext(p->s_sup));
	put_num(j, "speed_ext_active", speed_ext(p->s_act));
	if (p->rguid) {
		json_obj_open(j, "remote");
		put_guid(j, "guid", p->rguid);
		json_int(j, "port", p->rport);
		json_obj_close(j);
	} else {
		json_null(j, "remote");
	}
	while (*ci < d->nc && cmp_u64(d->c[*ci].node, p->node) < 0)
		(*ci)++;
	while (*ci < d->nc && d->c[*ci].node == p->node &&
	       d->c[*ci].port < p->num)
		(*ci)++;
	c0 = *ci;
	while (*ci < d->nc && d->c[*ci].node == p->node &&
	       d->c[*ci].port == p->num)
		(*ci)++;
	put_counters(j, d->c + c0, *ci - c0);
	json_obj_close(j);
}

/* a switch's LFT: index LID, value port, 255 where no route is known */
static void put_lft(struct json *j, struct diag *d, uint64_t sw, size_t *li)
{
	size_t a, b;
	int lid;

	while (*li < d->nl && cmp_u64(d->l[*li].sw, sw) < 0)
		(*li)++;
	a = b = *li;
	while (b < d->nl && d->l[b].sw == sw)
		b++;
	*li = b;
	json_arr_open(j, "lft");
	for (lid = 0; a < b && lid <= d->l[b - 1].lid; lid++) {
		while (a < b && d->l[a].lid < lid)
			a++;
		json_int(j, NULL, a < b && d->l[a].lid == lid ?
			 d->l[a].port : 255);
	}
	json_arr_close(j);
}

static void put_node(struct json *j, struct diag *d, const struct dnode *x,
		     size_t *pi, size_t *ci, size_t *li)
{
	size_t p0, i;
	int64_t lid = -1, cap = -1;

	while (*pi < d->np && cmp_u64(d->p[*pi].node, x->guid) < 0)
		(*pi)++;
	p0 = *pi;
	while (*pi < d->np && d->p[*pi].node == x->guid)
		(*pi)++;
	/* a switch's LID is port 0's, a CA's its lowest port's */
	for (i = p0; i < *pi && lid < 0; i++)
		if (x->type != 2 || d->p[i].num == 0) {
			lid = d->p[i].lid;
			cap = d->p[i].cap;
		}
	json_obj_open(j, NULL);
	put_guid(j, "guid", x->guid);
	put_num(j, "type", x->type);
	json_str(j, "desc", x->desc ? x->desc : "");
	put_num(j, "num_ports", x->nports);
	put_num(j, "lid", lid);
	put_guid(j, "system_guid", x->sys);
	put_num(j, "vendor_id", x->vendor);
	put_num(j, "device_id", x->device);
	json_arr_open(j, "ports");
	for (i = p0; i < *pi; i++)
		if (i == p0 || d->p[i].num != d->p[i - 1].num)
			put_port(j, d, &d->p[i], x->type == 2 ? lid : d->p[i].lid,
				 x->type == 2 ? cap : d->p[i].cap, ci);
	json_arr_close(j);
	if (x->type == 2)
		put_lft(j, d, x->guid, li);
	json_obj_close(j);
}

static void link_ends(struct diag *d)
{
	size_t i;

	for (i = 0; i < d->nk; i++) {
		struct dport *a = find_port(d, d->k[i].g1, d->k[i].p1);
		struct dport *b = find_port(d, d->k[i].g2, d->k[i].p2);

		if (a) {
			a->rguid = d->k[i].g2;
			a->rport = d->k[i].p2;
		}
		if (b) {
			b->rguid = d->k[i].g1;
			b->rport = d->k[i].p1;
		}
	}
}

static void document(struct diag *d, struct buf *out)
{
	struct json j;
	size_t i, pi = 0, ci = 0, li = 0;

	sort(d->n, d->nn, sizeof(*d->n), cmp_node);
	sort(d->p, d->np, sizeof(*d->p), cmp_port);
	sort(d->c, d->nc, sizeof(*d->c), cmp_cnt);
	sort(d->l, d->nl, sizeof(*d->l), cmp_lft);
	link_ends(d);
	if (!d->have_links)
		why(d, "no LINKS section: links unknown");
	if (d->long_lines)
		why(d, "%zu lines over 64 KiB skipped", d->long_lines);
	if (d->dropped)
		why(d, "%zu rows over the caps dropped", d->dropped);
	json_init(&j, out, 0);
	json_obj_open(&j, NULL);
	json_str(&j, "status", d->why.len ? "partial" : "ok");
	json_str(&j, "reason", d->why.len ? d->why.buf : NULL);
	json_null(&j, "from");
	json_arr_open(&j, "errors");
	json_arr_close(&j);
	json_arr_open(&j, "nodes");
	for (i = 0; i < d->nn; i++)
		if (!i || d->n[i].guid != d->n[i - 1].guid)
			put_node(&j, d, &d->n[i], &pi, &ci, &li);
	json_arr_close(&j);
	json_obj_close(&j);
	json_end(&j);
}

static void diag_release(struct diag *d)
{
	size_t i;

	for (i = 0; i < d->nn; i++)
		free(d->n[i].desc);
	free(d->n);
	free(d->p);
	free(d->c);
	free(d->l);
	free(d->k);
	buf_release(&d->why);
}

/* SM_INFO into the SMInfo an import keeps of the subnet's SM
 * (rdma-collect/mad/sminfo.json, as a lone sminfo's): the MASTER, else
 * (no SM is master) the first one found; its LID is its port's */
static int put_sm(struct imp *im, struct diag *d, const char *origin)
{
	const struct dsm *x = &d->sm[0];
	const struct dport *p;
	struct buf out = BUF_INIT;
	struct json j;
	size_t i;
	int rc;

	if (!d->nsm)
		return 0;
	for (i = 0; i < d->nsm; i++)
		if (d->sm[i].state == 3) {
			x = &d->sm[i];
			break;
		}
	p = find_port(d, x->node, x->port);
	json_init(&j, &out, 0);
	json_obj_open(&j, NULL);
	json_str(&j, "status", "ok");
	json_obj_open(&j, "sminfo");
	if (p && p->lid > 0)
		json_int(&j, "lid", p->lid);
	put_guid(&j, "SmInfoGuid", x->guid);
	put_num(&j, "SmActivity", x->act);
	put_num(&j, "SmPriority", x->prio);
	json_int(&j, "SmState", x->state);
	json_obj_close(&j);
	json_obj_close(&j);
	json_end(&j);
	rc = imp_put(im, SMINFO_JSON, out.buf, out.len, origin, IMP_DERIVED);
	if (!rc)
		imp_source(im, SOURCE_MAD,
			   "partial", "ibdiagnet's SM_INFO: the "
			   "subnet manager's SMInfo, no port of this node");
	buf_release(&out);
	return rc;
}

/* db_csv (and fdbs, or NULL) into the fabric document; 1 when the text
 * is no db_csv */
static int build(struct imp *im, const char *csv, size_t len,
		 const char *fdbs, size_t flen, const char *origin)
{
	struct diag d = { .why = BUF_INIT };
	struct buf out = BUF_INIT;
	int rc = read_dbcsv(&d, csv, len);

	if (!rc && fdbs)
		rc = read_fdbs(&d, fdbs, flen);
	if (rc)
		goto out;
	document(&d, &out);
	rc = imp_put(im, FABRIC_JSON, out.buf, out.len, origin, IMP_DERIVED);
	if (!rc)
		rc = put_sm(im, &d, origin);
	if (!rc) {
		imp_source(im, SOURCE_FABRIC, d.why.len ? "partial" : "ok",
			   d.why.len ? d.why.buf : "from ibdiagnet");
		imp_note(im, "ibdiagnet: %zu nodes, %zu ports, %zu LFT entries; "
			 "the scanning port is not recorded", d.nn, d.np, d.nl);
	}
out:
	buf_release(&out);
	diag_release(&d);
	return rc;
}

int ibdiag_dbcsv(struct imp *im, const char *text, size_t len,
		       const char *origin, const char *arg)
{
	(void)arg;
	return build(im, text, len, NULL, 0, origin);
}

static const char *base(const char *name)
{
	const char *s = strrchr(name, '/');

	return s ? s + 1 : name;
}

static int ends(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

int imp_kind_ibdiag(struct imp *im, const struct imp_in *v, size_t n)
{
	const struct imp_in *csv = NULL, *fdbs = NULL, *log = NULL;
	size_t i;
	int rc;

	/* ibdiagnet2.db_csv first; a renamed one (*.db_csv) otherwise */
	for (i = 0; i < n; i++) {
		const char *b = base(v[i].name);

		if (ends(b, ".db_csv") && (!csv || !strcmp(b,
						"ibdiagnet2.db_csv")))
			csv = &v[i];
		else if (ends(b, ".fdbs") && !ends(b, ".mcfdbs"))
			fdbs = &v[i];
		else if (!strcmp(b, "ibdiagnet2.log"))
			log = &v[i];
	}
	/* the console log first: the db_csv's fabric source wins */
	if (log) {
		imp_reading(im, log->name, "ibdiagnet log");
		rc = ibdiag_log(im, log->data, log->len, log->name, NULL);
		imp_read_done(im, rc, "not in the format of ibdiagnet's "
			      "console log: no stage and no warning or error line");
		if (rc < 0)
			return -1;
	}
	if (!csv) {
		imp_note(im, "ibdiagnet: no db_csv, no fabric");
		return 0;
	}
	imp_reading(im, csv->name, "ibdiagnet");
	rc = build(im, csv->data, csv->len, fdbs ? fdbs->data : NULL,
		   fdbs ? fdbs->len : 0, csv->name);
	imp_read_done(im, rc, "no NODES section: no fabric in it");
	if (rc > 0) {
		imp_note(im, "ibdiagnet: %s: no NODES section", csv->name);
		return 0;
	}
	return rc;
}
