/* registry: every evidence source, in the order they run.
 *
 * The order matters: identity first (the manifest and redaction read it),
 * sysfs before netdev (the netdevs to collect come from the RDMA ports),
 * sample last (it re-reads the counters the first pass read).
 */
#include "src.h"
#include "util.h"

extern const struct source src_identity;
extern const struct source src_pci;
extern const struct source src_modules;
extern const struct source src_devnodes;
extern const struct source src_sysfs;
extern const struct source src_verbs;
extern const struct source src_libs;
extern const struct source src_mad;
extern const struct source src_netdev;
extern const struct source src_klog;
extern const struct source src_limits;
extern const struct source src_iommu;
extern const struct source src_nccl;
extern const struct source src_attach;
extern const struct source src_commands;
extern const struct source src_fabric;
extern const struct source src_sample;

const struct source *const sources[] = {
	&src_identity,
	&src_pci,
	&src_modules,
	&src_devnodes,
	&src_sysfs,
	&src_verbs,
	&src_libs,
	&src_mad,
	&src_netdev,
	&src_klog,
	&src_limits,
	&src_iommu,
	&src_nccl,
	&src_attach,
	&src_commands,
	&src_fabric,
	&src_sample,
};

const size_t nsources = ARRAY_SIZE(sources);
