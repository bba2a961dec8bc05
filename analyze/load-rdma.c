/* load-rdma: RDMA devices, ports, GIDs and counters (sysfs and verbs), and
 * the netdevs behind the ports with their statistics (sysfs, ethtool),
 * each counter with its --sample second read when the bundle has one */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "load.h"
#include "log.h"
#include "util.h"

#define SAMPLE "rdma-collect/sample/"

static int64_t num(const char *s, int64_t dflt)
{
	char *end;
	long long v;

	if (!s || !*s)
		return dflt;
	v = strtoll(s, &end, 0);	/* "4: ACTIVE" -> 4, "0x1a" -> 26 */
	return end == s ? dflt : v;
}

/* a counter: unsigned 64-bit, kept as its two's complement (a value above
 * 2^63 is stored negative, so history sees a 64-bit wrap; strtoll would
 * clamp it to 2^63 - 1) */
/* a counter file's text; past 2^63 (or past 2^64: ERANGE) it is held at
 * INT64_MAX; a sign is no counter's (strtoull would wrap "-1" to 2^64 - 1) */
static int64_t cnum(const char *s)
{
	char *end;
	unsigned long long v;

	while (s && (*s == ' ' || *s == '\t'))
		s++;
	if (!s || !*s || *s == '-')
		return 0;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (end == s)
		return 0;
	return errno == ERANGE ? INT64_MAX : u64_stored(v);
}

static int64_t interval_ms(struct ld *l)
{
	struct jv *s = br_json(l->b, SAMPLE "sample.json");
	int64_t ms = 0;

	if (s) {
		ms = jint(s, "second_ms", 0) - jint(s, "first_ms", 0);
		if (ms <= 0)	/* SOURCE_DATE_EPOCH: the requested interval */
			ms = jint(s, "interval_s", 0) * 1000;
		jfree(s);
	}
	return ms;
}

/* "400 Gb/sec (4X NDR)", "2.5 Gb/sec (1X SDR)" */
static void parse_rate(const char *r, double *gbps, int64_t *width,
		       char *speed, size_t n)
{
	const char *p;

	*gbps = -1;
	*width = 0;
	speed[0] = 0;
	if (!r)
		return;
	*gbps = strtod(r, NULL);
	p = strchr(r, '(');
	if (p && sscanf(p, "(%" SCNd64 "X %15[A-Za-z0-9])", width, speed) < 1)
		*width = 0;
	(void)n;
}

static int64_t mtu_bytes(int64_t e)
{
	return e >= 1 && e <= 5 ? 128 << e : 0;
}

static const char *ipv4_of_gid(const char *gid, char *out, size_t n)
{
	unsigned a, b, c, d;

	/* 0000:0000:0000:0000:0000:ffff:0a00:000a */
	if (strncmp(gid, "0000:0000:0000:0000:0000:ffff:", 30) ||
	    sscanf(gid + 30, "%2x%2x:%2x%2x", &a, &b, &c, &d) != 4)
		return NULL;
	snprintf(out, n, "%u.%u.%u.%u", a, b, c, d);
	return out;
}

static const struct jv *verbs_port(const struct jv *v, int64_t port)
{
	const struct jv *ports = jget(v, "ports");
	size_t i;

	for (i = 0; i < jlen(ports); i++)
		if (jint(jat(ports, i), "port", -1) == port)
			return jat(ports, i);
	return NULL;
}

static int counters(struct ld *l, const char *dev, int64_t port,
		    const char *kind, const char *dir, const char *sdir,
		    int64_t ims)
{
	const char **names;
	size_t n, i;
	char p[PATH_MAX], s[PATH_MAX], line[64];
	int rc = 0;

	n = br_list(l->b, dir, &names);
	for (i = 0; i < n && !rc; i++) {
		const char *v2;

		if (!strcmp(names[i], "lifespan"))
			continue;
		pjoin(p, sizeof(p), dir, "/", names[i], NULL);
		pjoin(s, sizeof(s), sdir, "/", names[i], NULL);
		if (!br_line(l->b, p, line, sizeof(line)) || !*line)
			continue;
		v2 = br_data(l->b, s, NULL);
		rc = ld_exec(l, "INSERT OR REPLACE INTO "
			     "temp.s_counters (bundle_id, "
			     "ibdev, port, kind, name, value, value2, interval_ms, "
			     "path) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", "isissiNNs",
			     l->bid, dev, port, kind, names[i], cnum(line),
			     v2 ? cnum(v2) : (int64_t)-1, v2 ? ims : (int64_t)-1,
			     p);
	}
	free(names);
	return rc;
}

/* rows found by (key, port) in n log n, sorted with their position so
 * that of equal keys the first or the last can be asked for: the joins
 * of two lists of one bundle (a scan of one list for each row of the
 * other was quadratic in a crafted bundle's rows) */
struct krow {
	const char *key;
	int64_t port;
	size_t at;
	const struct jv *e;
};

static int cmp_krow(const void *a, const void *b)
{
	const struct krow *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* the first (or the last) row of (key, port) in v, or NULL */
static const struct jv *krow_find(const struct krow *v, size_t n,
				  const char *key, int64_t port, int last)
{
	struct krow k = { key, port, last ? (size_t)-1 : 0, NULL };
	const struct krow *r;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_krow(&v[mid], &k) < (last ? 1 : 0))
			lo = mid + 1;
		else
			hi = mid;
	}
	r = last ? (lo ? &v[lo - 1] : NULL) : (lo < n ? &v[lo] : NULL);
	return r && !strcmp(r->key, key) && r->port == port ? r->e : NULL;
}

/* ibdev2netdev's rows by netdev and by (ibdev, port); of equal keys the
 * last row wins, as the scans had it */
struct nmap {
	struct krow *by_nd, *by_dev;
	size_t nnd, ndev;
};

static void nmap_build(struct nmap *m, const struct jv *map)
{
	size_t i, n = jlen(map);

	memset(m, 0, sizeof(*m));
	m->by_nd = xcalloc(n + 1, sizeof(*m->by_nd));
	m->by_dev = xcalloc(n + 1, sizeof(*m->by_dev));
	for (i = 0; i < n; i++) {
		const struct jv *e = jat(map, i);

		if (jstr(e, "netdev"))
			m->by_nd[m->nnd++] = (struct krow){ jstr(e, "netdev"),
							    0, i, e };
		if (jstr(e, "ibdev"))
			m->by_dev[m->ndev++] = (struct krow){ jstr(e, "ibdev"),
				jint(e, "port", -1), i, e };
	}
	qsort(m->by_nd, m->nnd, sizeof(*m->by_nd), cmp_krow);
	qsort(m->by_dev, m->ndev, sizeof(*m->by_dev), cmp_krow);
}

static void nmap_free(struct nmap *m)
{
	free(m->by_nd);
	free(m->by_dev);
}

static int port(struct ld *l, const char *dev, const char *pname,
		const struct jv *verbs, const struct nmap *map, int64_t ims)
{
	char base[PATH_MAX], p[PATH_MAX], s[PATH_MAX], st[64], ps[64], ll[32],
	     rate[64], lid[32], smlid[32], lmc[16], smsl[16], cap[32], speed[16];
	const struct jv *vp;
	const char *netdev = NULL, **gids;
	int64_t pn = num(pname, -1), width;
	double gbps;
	size_t i, n;

	if (pn < 0)
		return 0;
	snprintf(p, sizeof(p), "sys/class/infiniband/%s/ports/%s", dev, pname);
	/* the real folder: every file below is then found in one lookup */
	if (!br_resolve(l->b, p, base, sizeof(base)))
		snprintf(base, sizeof(base), "%s", p);
	/* an absent file is "": the buffers are bound as text below */
#define F(name, buf) (buf[0] = 0, pjoin(p, sizeof(p), base, "/" name, NULL), \
		      br_line(l->b, p, buf, sizeof(buf)))
	F("state", st);
	F("phys_state", ps);
	F("link_layer", ll);
	F("rate", rate);
	F("lid", lid);
	F("sm_lid", smlid);
	F("lid_mask_count", lmc);
	F("sm_sl", smsl);
	F("cap_mask", cap);
#undef F
	parse_rate(rate[0] ? rate : NULL, &gbps, &width, speed, sizeof(speed));
	vp = verbs_port(verbs, pn);
	netdev = jstr(krow_find(map->by_dev, map->ndev, dev, pn, 1), "netdev");
	if (ld_exec(l, "INSERT OR REPLACE INTO "
		    "temp.s_ports (bundle_id, ibdev, port, "
		    "state, state_text, phys_state, phys_state_text, link_layer, "
		    "rate, rate_gbps, width, speed, lid, sm_lid, lmc, sm_sl, "
		    "cap_mask, max_mtu, active_mtu, gid_tbl_len, netdev) VALUES (?, "
		    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		    "isiNsNsssDisNNNNsNNNs", l->bid, dev, pn,
		    num(st, vp ? jint(vp, "state", -1) : -1), st[0] ? st : NULL,
		    num(ps, vp ? jint(vp, "phys_state", -1) : -1),
		    ps[0] ? ps : NULL, ll[0] ? ll : NULL, rate[0] ? rate : NULL,
		    gbps, width, speed[0] ? speed : NULL,
		    num(lid, vp ? jint(vp, "lid", -1) : -1),
		    num(smlid, vp ? jint(vp, "sm_lid", -1) : -1),
		    num(lmc, vp ? jint(vp, "lmc", -1) : -1), num(smsl, -1),
		    cap[0] ? cap : NULL,
		    mtu_bytes(vp ? jint(vp, "max_mtu", 0) : 0),
		    mtu_bytes(vp ? jint(vp, "active_mtu", 0) : 0),
		    vp ? jint(vp, "gid_tbl_len", 0) : (int64_t)0, netdev) < 0)
		return -1;
	/* the GID table: non-zero entries */
	snprintf(p, sizeof(p), "%s/gids", base);
	n = br_list(l->b, p, &gids);
	for (i = 0; i < n; i++) {
		char gid[64], type[32], ndev[32], v4[16];
		int64_t idx = num(gids[i], -1);

		snprintf(p, sizeof(p), "%s/gids/%s", base, gids[i]);
		if (idx < 0 || !br_line(l->b, p, gid, sizeof(gid)) ||
		    !strcmp(gid, "0000:0000:0000:0000:0000:0000:0000:0000") ||
		    !strcmp(gid, "fe80:0000:0000:0000:0000:0000:0000:0000"))
			continue;
		snprintf(p, sizeof(p), "%s/gid_attrs/types/%s", base, gids[i]);
		if (!br_line(l->b, p, type, sizeof(type)))
			type[0] = 0;
		snprintf(s, sizeof(s), "%s/gid_attrs/ndevs/%s", base, gids[i]);
		if (!br_line(l->b, s, ndev, sizeof(ndev)))
			ndev[0] = 0;
		if (ld_exec(l, "INSERT OR REPLACE INTO "
			    "temp.s_gids (bundle_id, ibdev, "
			    "port, idx, gid, type, ndev, ipv4) VALUES (?, ?, ?, ?, "
			    "?, ?, ?, ?)", "isiissss", l->bid, dev, pn, idx, gid,
			    type[0] ? type : NULL, ndev[0] ? ndev : NULL,
			    ipv4_of_gid(gid, v4, sizeof(v4))) < 0) {
			free(gids);
			return -1;
		}
	}
	free(gids);
	snprintf(p, sizeof(p), "%s/counters", base);
	snprintf(s, sizeof(s), SAMPLE "sys/class/infiniband/%s/ports/%s/counters",
		 dev, pname);
	if (counters(l, dev, pn, "pma", p, s, ims) < 0)
		return -1;
	snprintf(p, sizeof(p), "%s/hw_counters", base);
	snprintf(s, sizeof(s), SAMPLE
		 "sys/class/infiniband/%s/ports/%s/hw_counters", dev, pname);
	return counters(l, dev, pn, "hw", p, s, ims);
}

static int device(struct ld *l, const char *dev, const struct nmap *map,
		  int64_t ims)
{
	char p[PATH_MAX], s[PATH_MAX];
	char nt[32], guid[32], sguid[32], fw[64], hca[32], board[64], hw[16],
	     desc[128], parent[64];
	const char *pci = NULL, **ports;
	struct jv *verbs;
	size_t i, n;
	int rc = 0;

#define F(name, buf) (pjoin(p, sizeof(p), "sys/class/infiniband/", dev, \
			    "/" name, NULL), \
		      br_line(l->b, p, buf, sizeof(buf)) ? buf : NULL)
	snprintf(p, sizeof(p), "sys/class/infiniband/%s/device", dev);
	pci = br_link_base(l->b, p);
	snprintf(s, sizeof(s), "rdma-collect/verbs/%s.json", dev);
	verbs = br_json(l->b, s);
	rc = ld_exec(l, "INSERT OR REPLACE INTO "
		     "temp.s_devices (bundle_id, ibdev, "
		     "node_type, node_guid, sys_image_guid, fw_ver, hca_type, "
		     "board_id, hw_rev, node_desc, pci_addr, parent, vendor_id, "
		     "vendor_part_id, phys_port_cnt) VALUES (?, ?, ?, ?, ?, ?, ?, "
		     "?, ?, ?, ?, ?, ?, ?, ?)", "isssssssssssNNN", l->bid, dev,
		     F("node_type", nt), F("node_guid", guid),
		     F("sys_image_guid", sguid), F("fw_ver", fw),
		     F("hca_type", hca), F("board_id", board), F("hw_rev", hw),
		     F("node_desc", desc), pci, F("parent", parent),
		     jint(jget(verbs, "device"), "vendor_id", -1),
		     jint(jget(verbs, "device"), "vendor_part_id", -1),
		     jint(jget(verbs, "device"), "phys_port_cnt", -1));
#undef F
	snprintf(p, sizeof(p), "sys/class/infiniband/%s/ports", dev);
	n = br_list(l->b, p, &ports);
	for (i = 0; i < n && !rc; i++)
		rc = port(l, dev, ports[i], verbs, map, ims);
	free(ports);
	if (!rc) {
		snprintf(p, sizeof(p), "sys/class/infiniband/%s/hw_counters", dev);
		snprintf(s, sizeof(s), SAMPLE "sys/class/infiniband/%s/hw_counters",
			 dev);
		rc = counters(l, dev, 0, "hw_dev", p, s, ims);
	}
	jfree(verbs);
	return rc;
}

/* The database keeps the ethtool counters the checks and the fleet
 * comparisons read: totals, pauses and storms, discards and drops, errors,
 * ECN/CNP, buffer and PHY counters.  Per-queue and per-channel counters
 * (rx12_..., ch3_..., tx5_xdp_...) stay in the bundle, where `show ethtool`
 * prints them all: a 400G node has 1,500 of them per netdev, and keeping
 * them would make the database 100 times larger for no check. */
static int stat_wanted(const char *name)
{
	static const char *const totals[] = {
		"rx_packets", "tx_packets", "rx_bytes", "tx_bytes",
	};
#define AT(k) starts_with(q, k)
	const char *p = name, *q;
	size_t i;
	int hit = 0;

	/* rx0_..., tx15_..., ch3_..., rx_queue_0_... */
	if ((!strncmp(p, "rx", 2) || !strncmp(p, "tx", 2) ||
	     !strncmp(p, "ch", 2)) && p[2] >= '0' && p[2] <= '9')
		return 0;
	for (i = 0; i < ARRAY_SIZE(totals); i++)
		if (!strcmp(p, totals[i]))
			return 1;
	/* the kept counters' words, anywhere in the name: one pass, by the
	 * first letter (fifteen strstr() calls a name, on 2,200 names a
	 * bundle, were a reader's costliest call after the parser) */
	for (q = p; *q; q++) {
		switch (*q) {
		case '_':
			if (AT("_queue_"))
				return 0;
			hit |= AT("_phy");
			break;
		case 'c':
			hit |= AT("cnp") || AT("crc") || AT("collision");
			break;
		case 'd':
			hit |= AT("discard") || AT("drop");
			break;
		case 'e':
			hit |= AT("err") || AT("ecn");
			break;
		case 'f':
			hit |= AT("fcs");
			break;
		case 'l':
			hit |= AT("link_down");
			break;
		case 'o':
			hit |= AT("out_of_buffer");
			break;
		case 'p':
			hit |= AT("pause");
			break;
		case 's':
			hit |= AT("storm") || AT("symbol");
			break;
		case 't':
			hit |= AT("timeout");
			break;
		}
	}
#undef AT
	return hit;
}

/* a statistic of the second sample, by name: normally at the same index;
 * else from an index built the first time the two reads are not in the
 * same order, the first of equal names (100,000 statistics in reverse
 * order took 60 s searched in order) */
static const struct jv *stat2_find(const struct jv *stats2, size_t i,
				   const char *name, struct krow **ix,
				   size_t *nix)
{
	const char *n2 = jstr(jat(jat(stats2, i), 0), NULL);
	size_t k;

	if (i < jlen(stats2) && n2 && !strcmp(n2, name))
		return jat(stats2, i);
	if (!*ix) {
		*ix = xcalloc(jlen(stats2) + 1, sizeof(**ix));
		for (k = 0; k < jlen(stats2); k++) {
			n2 = jstr(jat(jat(stats2, k), 0), NULL);
			if (n2)
				(*ix)[(*nix)++] = (struct krow){ n2, 0, k,
							jat(stats2, k) };
		}
		qsort(*ix, *nix, sizeof(**ix), cmp_krow);
	}
	return krow_find(*ix, *nix, name, 0, 0);
}

static int netdev_stats(struct ld *l, const char *nd, const struct jv *e,
			int64_t ims)
{
	char p[PATH_MAX], s[PATH_MAX];
	struct jv *e2;
	const struct jv *stats, *stats2;
	struct krow *ix = NULL;
	size_t i, nix = 0;
	int rc = 0;

	snprintf(s, sizeof(s), SAMPLE "ethtool/%s.json", nd);
	e2 = br_json(l->b, s);
	stats = jget(e, "stats");
	stats2 = jget(e2, "stats");
	for (i = 0; i < jlen(stats) && !rc; i++) {
		const struct jv *kv = jat(stats, i), *kv2;
		const char *name = jstr(jat(kv, 0), NULL);

		if (!name || !stat_wanted(name))
			continue;
		kv2 = stat2_find(stats2, i, name, &ix, &nix);
		rc = ld_exec(l, "INSERT OR REPLACE INTO "
			     "temp.s_netdev_stats (bundle_id, "
			     "netdev, source, name, value, value2, interval_ms) "
			     "VALUES (?, ?, 'ethtool', ?, ?, ?, ?)",
			     "issiNN", l->bid, nd, name,
			     u64_stored(juint(jat(kv, 1), NULL, 0)),
			     kv2 ? u64_stored(juint(jat(kv2, 1), NULL, 0)) :
				   (int64_t)-1, kv2 ? ims : (int64_t)-1);
	}
	if (!rc) {
		const char **names;
		size_t n;

		snprintf(p, sizeof(p), "sys/class/net/%s/statistics", nd);
		n = br_list(l->b, p, &names);
		for (i = 0; i < n && !rc; i++) {
			char f[PATH_MAX], line[64];
			const char *v2;

			pjoin(f, sizeof(f), p, "/", names[i], NULL);
			pjoin(s, sizeof(s), SAMPLE "sys/class/net/", nd,
			      "/statistics/", names[i], NULL);
			if (!br_line(l->b, f, line, sizeof(line)))
				continue;
			v2 = br_data(l->b, s, NULL);
			rc = ld_exec(l, "INSERT OR REPLACE INTO "
				     "temp.s_netdev_stats "
				     "(bundle_id, netdev, source, name, value, value2, "
				     "interval_ms) VALUES (?, ?, 'sysfs', ?, ?, ?, ?)",
				     "issiNN", l->bid, nd, names[i], cnum(line),
				     v2 ? cnum(v2) : (int64_t)-1,
				     v2 ? ims : (int64_t)-1);
		}
		free(names);
	}
	free(ix);
	jfree(e2);
	return rc;
}

static int netdevs(struct ld *l, const struct nmap *map, int64_t ims)
{
	const char **names;
	size_t n, i;
	int rc = 0;

	n = br_list(l->b, "sys/class/net", &names);
	for (i = 0; i < n && !rc; i++) {
		const char *nd = names[i], *ibdev = NULL;
		char p[PATH_MAX], mtu[16], op[16], car[8], spd[16],
		     addr[80], type[8];
		const char *master = NULL;
		const struct jv *m;
		struct jv *e;
		int64_t port = -1;

		m = krow_find(map->by_nd, map->nnd, nd, 0, 1);
		if (m) {
			ibdev = jstr(m, "ibdev");
			port = jint(m, "port", -1);
		}
#define F(name, buf) (pjoin(p, sizeof(p), "sys/class/net/", nd, "/" name, NULL), \
		      br_line(l->b, p, buf, sizeof(buf)) ? buf : NULL)
		snprintf(p, sizeof(p), "sys/class/net/%s/master", nd);
		master = br_link_base(l->b, p);
		snprintf(p, sizeof(p), "rdma-collect/ethtool/%s.json", nd);
		e = br_json(l->b, p);
		rc = ld_exec(l, "INSERT OR REPLACE INTO "
			     "temp.s_netdevs (bundle_id, name, "
			     "ibdev, port, mtu, operstate, carrier, speed, address, "
			     "type, driver, driver_version, fw_version, bus_info, "
			     "master) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			     "issNNsNNsNsssss",
			     l->bid, nd, ibdev, port,
			     num(F("mtu", mtu), 0), F("operstate", op),
			     num(F("carrier", car), -1), num(F("speed", spd), -1),
			     F("address", addr), num(F("type", type), -1),
			     jstr(jget(e, "drvinfo"), "driver"),
			     jstr(jget(e, "drvinfo"), "version"),
			     jstr(jget(e, "drvinfo"), "fw_version"),
			     jstr(jget(e, "drvinfo"), "bus_info"), master);
#undef F
		if (!rc)
			rc = netdev_stats(l, nd, e, ims);
		jfree(e);
	}
	free(names);
	return rc;
}

int load_rdma(struct ld *l)
{
	struct jv *map = br_json(l->b, "rdma-collect/ibdev2netdev.json");
	int64_t ims = interval_ms(l);
	const char **devs;
	struct nmap m;
	size_t n, i;
	int rc = 0;

	nmap_build(&m, map);
	n = br_list(l->b, "sys/class/infiniband", &devs);
	for (i = 0; i < n && !rc; i++)
		rc = device(l, devs[i], &m, ims);
	free(devs);
	if (!rc)
		rc = netdevs(l, &m, ims);
	nmap_free(&m);
	jfree(map);
	return rc;
}
