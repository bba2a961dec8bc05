/* view-ethtool: `ethtool -S IFACE` as ethtool's do_gstats() prints it:
 * "NIC statistics:" and "     %.*s: %llu" per stat (names up to
 * ETH_GSTRING_LEN, 32 bytes, trailing spaces kept), from the stored
 * rdma-collect/ethtool/<if>.json */
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "view.h"

int view_ethtool(const struct bundle_r *b, int argc, char **argv, FILE *out);

int view_ethtool(const struct bundle_r *b, int argc, char **argv, FILE *out)
{
	char p[512];
	const struct jv *stats;
	struct jv *e;
	size_t i;
	int rc = 0;

	if (argc != 2 || (strcmp(argv[0], "-S") && strcmp(argv[0], "--statistics")))
		return error("ethtool: usage: ethtool -S IFACE");
	if (strchr(argv[1], '/'))
		return error("ethtool: bad interface name '%s'", argv[1]);
	snprintf(p, sizeof(p), "rdma-collect/ethtool/%s.json", argv[1]);
	e = br_json(b, p);
	if (!e)
		return error("%s: no ethtool evidence for '%s' (%s)", b->file,
			     argv[1], p);
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
