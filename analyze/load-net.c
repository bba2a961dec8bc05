/* load-net: the Ethernet side of RoCE: DCB/PFC per netdev (the `dcb pfc
 * show` equivalent, with the trust mode), the interface addresses, and the
 * per-second counter rates an imported ethtool_stats.pl gave (netdev_stats
 * source 'ethtool-rate': value is the highest growth per second printed,
 * interval_ms 1000; the counters' own values were never shown) */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "load.h"
#include "log.h"

#define DCB_DIR "rdma-collect/dcb"

/* trust: the MLNX_OFED qos/trust file wins, then what mlnx_qos printed
 * ("trust"); else DSCP APP entries (selector 5, IEEE_8021QAZ_APP_SEL_DSCP)
 * mean dscp, and none pcp; without the APP table (dcb pfc show alone)
 * the trust is not known: NULL */
static const char *trust_of(struct ld *l, const char *ifn, const struct jv *d)
{
	char p[PATH_MAX], line[128];
	const struct jv *apps = jget(d, "apps");
	size_t i;

	snprintf(p, sizeof(p), "sys/class/net/%s/qos/trust", ifn);
	if (br_line(l->b, p, line, sizeof(line))) {
		if (strstr(line, "dscp"))
			return "dscp";
		if (strstr(line, "pcp"))
			return "pcp";
	}
	if (jstr(d, "trust") && (!strcmp(jstr(d, "trust"), "dscp") ||
				 !strcmp(jstr(d, "trust"), "pcp")))
		return jstr(d, "trust");
	if (!apps)
		return NULL;
	for (i = 0; i < jlen(apps); i++)
		if (jint(jat(apps, i), "selector", -1) == 5)
			return "dscp";
	return "pcp";
}

static int pfc_one(struct ld *l, const char *file)
{
	char p[PATH_MAX], ifn[64];
	const struct jv *pfc;
	const char *status;
	struct jv *d;
	size_t n = strlen(file);
	int64_t en;
	int rc = 0, ok;

	if (n <= 5 || n - 5 >= sizeof(ifn) || strcmp(file + n - 5, ".json"))
		return 0;
	snprintf(ifn, sizeof(ifn), "%.*s", (int)(n - 5), file);
	snprintf(p, sizeof(p), DCB_DIR "/%s", file);
	d = br_json(l->b, p);
	if (!d)
		return 0;	/* malformed: skipped */
	status = jstr(d, "status");
	if (!status || (strcmp(status, "ok") && strcmp(status, "absent")))
		status = "error";
	ok = !strcmp(status, "ok");
	pfc = jget(d, "pfc");
	en = pfc ? jint(pfc, "pfc_en", -1) : -1;
	rc = ld_exec(l, "INSERT OR REPLACE INTO temp.s_pfc (bundle_id, netdev, "
		     "status, pfc_cap, pfc_en, delay, mbc, dcbx, trust) VALUES (?, ?, "
		     "?, ?, ?, ?, ?, ?, ?)", "issNNNNNs", l->bid, ifn, status,
		     pfc ? jint(pfc, "pfc_cap", -1) : (int64_t)-1,
		     en >= 0 ? en & 0xff : (int64_t)-1,
		     pfc ? jint(pfc, "delay", -1) : (int64_t)-1,
		     pfc ? jint(pfc, "mbc", -1) : (int64_t)-1,
		     jint(d, "dcbx", -1),
		     ok ? trust_of(l, ifn, d) : NULL);
	jfree(d);
	return rc;
}

static int addresses(struct ld *l)
{
	struct jv *a = br_json(l->b, "rdma-collect/net/addresses.json");
	size_t i;
	int rc = 0;

	for (i = 0; i < jlen(a) && !rc; i++) {
		const struct jv *e = jat(a, i);
		const char *ifn = jstr(e, "ifname"), *addr = jstr(e, "address");

		if (!ifn || !addr)
			continue;
		rc = ld_exec(l, "INSERT INTO "
			     "temp.s_addresses (bundle_id, netdev, "
			     "family, address, prefixlen) VALUES (?, ?, ?, ?, ?)",
			     "isssN", l->bid, ifn, jstr(e, "family"), addr,
			     jint(e, "prefixlen", -1));
	}
	jfree(a);
	return rc;
}

static int rates_one(struct ld *l, const char *file)
{
	char p[PATH_MAX], ifn[64];
	const struct jv *a;
	const char *d;
	struct jv *e;
	size_t n = strlen(file), i, len;
	int rc = 0;

	if (n <= 5 || n - 5 >= sizeof(ifn) || strcmp(file + n - 5, ".json"))
		return 0;
	snprintf(ifn, sizeof(ifn), "%.*s", (int)(n - 5), file);
	snprintf(p, sizeof(p), "rdma-collect/ethtool/%s", file);
	/* only an import of ethtool_stats.pl has them: the collector's
	 * files are not parsed a second time */
	if (!(d = br_data(l->b, p, &len)) || !memmem(d, len, "\"rates\"", 7) ||
	    !(e = br_json(l->b, p)))
		return 0;
	a = jget(e, "rates");
	for (i = 0; i < jlen(a) && !rc; i++) {
		const struct jv *r = jat(a, i);
		int64_t v = jint(jat(r, 1), NULL, -1);

		if (!jstr(jat(r, 0), NULL) || v < 0)
			continue;
		rc = ld_exec(l, "INSERT OR REPLACE INTO "
			     "temp.s_netdev_stats (bundle_id, "
			     "netdev, source, name, value, value2, interval_ms) "
			     "VALUES (?, ?, 'ethtool-rate', ?, ?, NULL, 1000)",
			     "issi", l->bid, ifn, jstr(jat(r, 0), NULL), v);
	}
	jfree(e);
	return rc;
}

int load_net(struct ld *l)
{
	const char **names;
	size_t n, i;
	int rc = 0;

	n = br_list(l->b, DCB_DIR, &names);
	for (i = 0; i < n && !rc; i++)
		rc = pfc_one(l, names[i]);
	free(names);
	n = br_list(l->b, "rdma-collect/ethtool", &names);
	for (i = 0; i < n && !rc; i++)
		rc = rates_one(l, names[i]);
	free(names);
	return rc ? rc : addresses(l);
}
