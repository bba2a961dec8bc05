/* src-modules: which RDMA kernel modules are loaded, their versions and
 * parameters (lsmod and modinfo -p, from /proc and /sys/module) */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <string.h>

#include "src.h"
#include "util.h"

static const char *const modules[] = {
	"mlx5_core", "mlx5_ib", "ib_core", "ib_uverbs", "ib_umad", "rdma_ucm",
	"rdma_cm", "ib_cm", "ib_ipoib", "iw_cm", "nvidia_peermem",
	"nv_peer_mem", "nvidia", "rdma_rxe", "mlx_compat", "bonding",
	"mlx5_fwctl", "mlx5_dpll",
};

static const char *const attrs[] = {
	"version", "srcversion", "refcnt", "initstate", "taint", "coresize",
};

static int collect(struct ctx *c)
{
	const struct tree_opts links = { .max_depth = 1 };
	char p[256];
	size_t i, j;
	struct stat st;
	int rc;

	rc = ctx_file(c, "/proc/modules");
	if (rc == -ENOENT) {
		ctx_reason(c, "/proc/modules is absent (kernel without "
			   "module support?)");
		return SRC_ABSENT;
	}
	for (i = 0; i < ARRAY_SIZE(modules); i++) {
		xsnprintf(p, sizeof(p), "/sys/module/%s", modules[i]);
		if (ctx_lstat(c, p, &st) < 0)
			continue;
		for (j = 0; j < ARRAY_SIZE(attrs); j++) {
			xsnprintf(p, sizeof(p), "/sys/module/%s/%s",
				  modules[i], attrs[j]);
			ctx_file(c, p);
		}
		xsnprintf(p, sizeof(p), "/sys/module/%s/holders", modules[i]);
		ctx_tree(c, p, &links);
		xsnprintf(p, sizeof(p), "/sys/module/%s/parameters",
			  modules[i]);
		ctx_tree(c, p, &links);
	}
	if (rc < 0) {
		ctx_reason(c, "cannot read /proc/modules: %s", strerror(-rc));
		return SRC_PARTIAL;
	}
	return SRC_OK;
}

const struct source src_modules = {
	.name = "modules",
	.help = "loaded modules (/proc/modules), versions and parameters of the RDMA stack",
	.timeout_ms = 5000,
	.max_bytes = 1u << 20,
	.collect = collect,
};
