/* src-iommu: is DMA translated?  The IOMMU units, and the groups (with
 * their default domain type) of the HCAs, GPUs and bridges; the kernel
 * cmdline (iommu=pt ...) is in identity. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "pci.h"
#include "src.h"
#include "util.h"

static int skip_unit(const char *name, const char *rel, int isdir)
{
	(void)rel;
	(void)isdir;
	/* devices/ links every device behind the unit: not needed */
	return !strcmp(name, "devices") || !strcmp(name, "power") ||
	       !strcmp(name, "uevent") || !strcmp(name, "subsystem");
}

static int collect(struct ctx *c)
{
	const struct tree_opts unit = { .max_depth = 3, .skip = skip_unit };
	const struct tree_opts group = { .max_depth = 2 };
	char **names, **bdfs, p[512], real[4096];
	int n, i, nb, groups = 0;

	n = ctx_names(c, "/sys/class/iommu", &names);
	for (i = 0; i < n; i++) {
		xsnprintf(p, sizeof(p), "/sys/class/iommu/%s", names[i]);
		ctx_tree(c, p, &unit);
	}
	if (n > 0)
		ctx_names_free(names, n);
	ctx_note(c, "units", "%d", n > 0 ? n : 0);
	nb = pci_functions(c, 1, &bdfs);
	for (i = 0; i < nb; i++) {
		struct stat st;

		xsnprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/iommu_group",
			  bdfs[i]);
		if (ctx_resolve(c, p, real, sizeof(real)) < 0)
			continue;
		xsnprintf(p, sizeof(p), "%s/type", real);
		if (ctx_lstat(c, real, &st) < 0)
			continue;
		/* several functions can share a group: the store keeps one */
		ctx_tree(c, real, &group);
		groups++;
	}
	if (nb > 0)
		ctx_names_free(bdfs, nb);
	ctx_note(c, "groups", "%d", groups);
	if (n <= 0 && !groups) {
		ctx_reason(c, "no IOMMU unit in /sys/class/iommu and no IOMMU "
			   "group for the collected devices (IOMMU off or "
			   "absent)");
		return SRC_ABSENT;
	}
	return SRC_OK;
}

const struct source src_iommu = {
	.name = "iommu",
	.help = "IOMMU units and the groups (default domain type) of HCAs, GPUs and bridges",
	.timeout_ms = 3000,
	.max_bytes = 1u << 20,
	.collect = collect,
};
