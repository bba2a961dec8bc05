/* sources: the evidence sources of rdma-collect, one table for both
 * programs.
 *
 * The collector's registry (collect/registry.c) is built from it: X(ID,
 * name) runs the descriptor src_<name> (collect/src-<name>.c), whose .name
 * is the string below (tests/unit/test-sources.c holds them together).
 * The order is the order they run and a manifest lists them: identity
 * first (the manifest and redaction read it), sysfs before netdev (the
 * netdevs to collect come from the RDMA ports), sample last (it re-reads
 * the counters the first pass read).  The analyzer names a source by
 * enum source_id (import marks them in the manifest it writes); rules'
 * needs and SQL spell the names, each checked against this table by
 * tests/unit/atest-sources.c and tests/cli/source-names.sh.
 */
#ifndef RDMA_SOURCES_H
#define RDMA_SOURCES_H

#include <string.h>

#define SOURCES(X)							\
	X(IDENTITY, identity)	/* host name, OS, kernel, boot and machine id */ \
	X(PCI, pci)		/* HCA and GPU PCI functions, their bridges */	\
	X(MODULES, modules)	/* loaded kernel modules, their versions */	\
	X(DEVNODES, devnodes)	/* /dev/infiniband's character devices */	\
	X(SYSFS, sysfs)		/* /sys/class/infiniband: ports, GIDs, counters */ \
	X(VERBS, verbs)		/* ibv_devinfo -v through libibverbs */		\
	X(LIBS, libs)		/* which rdma-core MAD libraries load */	\
	X(MAD, mad)		/* the subnet seen from each port over MADs */	\
	X(NETDEV, netdev)	/* the netdevs behind the ports: ethtool, DCB */ \
	X(KLOG, klog)		/* the kernel ring buffer */			\
	X(LIMITS, limits)	/* memlock limits, meminfo, huge pages */	\
	X(IOMMU, iommu)		/* IOMMU units and groups */			\
	X(NCCL, nccl)		/* NCCL settings and environment */		\
	X(ATTACH, attach)	/* the files given with --attach */		\
	X(COMMANDS, commands)	/* allowlisted read-only tools (--commands) */	\
	X(FABRIC, fabric)	/* the whole subnet (--fabric) */		\
	X(SAMPLE, sample)	/* every counter a second time (--sample) */

enum source_id {
#define SOURCE_ENUM(id, name) SOURCE_##id,
	SOURCES(SOURCE_ENUM)
#undef SOURCE_ENUM
	SOURCE_NR
};

/* "identity" for SOURCE_IDENTITY ... */
static inline const char *source_name(enum source_id id)
{
	static const char *const names[SOURCE_NR] = {
#define SOURCE_NAME(id, name) #name,
		SOURCES(SOURCE_NAME)
#undef SOURCE_NAME
	};

	return (unsigned)id < SOURCE_NR ? names[id] : "";
}

/* the source called name, or -1 */
static inline int source_find(const char *name)
{
	int i;

	for (i = 0; i < SOURCE_NR; i++)
		if (!strcmp(source_name((enum source_id)i), name))
			return i;
	return -1;
}

#endif
