/* view-ethtool: `ethtool -S IFACE` as ethtool's do_gstats() prints it:
 * "NIC statistics:" and "     %.*s: %llu" per stat (names up to
 * ETH_GSTRING_LEN, 32 bytes, trailing spaces kept); `ethtool -a IFACE` as
 * dump_pause() does ("Autonegotiate:\t%s", "RX:\t\t%s", "TX:\t\t%s"; the
 * negotiated lines are not kept), from the stored
 * rdma-collect/ethtool/<if>.json */
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "view.h"

static int pause_show(const struct jv *e, const char *ifn, FILE *out)
{
	const struct jv *pa = jget(e, "pause");

	if (!pa || jint(pa, "autoneg", -1) < 0 || jint(pa, "rx_pause", -1) < 0 ||
	    jint(pa, "tx_pause", -1) < 0)
		return error("no pause parameters available");
	fprintf(out, "Pause parameters for %s:\n", ifn);
	fprintf(out, "Autonegotiate:\t%s\n", jint(pa, "autoneg", 0) ? "on" : "off");
	fprintf(out, "RX:\t\t%s\n", jint(pa, "rx_pause", 0) ? "on" : "off");
	fprintf(out, "TX:\t\t%s\n", jint(pa, "tx_pause", 0) ? "on" : "off");
	return 0;
}

static int show(const struct bundle_r *b, int argc, char **argv, FILE *out)
{
	char p[512];
	const struct jv *stats;
	struct jv *e;
	size_t i;
	int rc = 0, pause;

	if (argc != 2)
		return error("ethtool: usage: ethtool -S|-a IFACE");
	pause = !strcmp(argv[0], "-a") || !strcmp(argv[0], "--show-pause");
	if (!pause && strcmp(argv[0], "-S") && strcmp(argv[0], "--statistics"))
		return error("ethtool: usage: ethtool -S|-a IFACE");
	if (strchr(argv[1], '/'))
		return error("ethtool: bad interface name '%s'", argv[1]);
	snprintf(p, sizeof(p), "rdma-collect/ethtool/%s.json", argv[1]);
	e = br_json(b, p);
	if (!e)
		return error("%s: no ethtool evidence for '%s' (%s)", b->file,
			     argv[1], p);
	if (pause) {
		rc = pause_show(e, argv[1], out);
		goto out;
	}
	stats = jget(e, "stats");
	if (!jstr(e, "status") || strcmp(jstr(e, "status"), "ok") || !jlen(stats)) {
		rc = error("no stats available");
		goto out;
	}
	fprintf(out, "NIC statistics:\n");
	for (i = 0; i < jlen(stats); i++) {
		const struct jv *kv = jat(stats, i);
		const char *name = jstr(jat(kv, 0), NULL);

		if (!name)
			continue;
		fprintf(out, "     %.*s: %llu\n", 32, name,
			(unsigned long long)juint(jat(kv, 1), NULL, 0));
	}
out:
	jfree(e);
	return rc;
}

const struct view view_ethtool = {
	.name = "ethtool",
	.usage = "-S|-a IFACE",
	.help = "netdev statistics as ethtool -S, pause settings as ethtool -a",
	.show = show,
};
