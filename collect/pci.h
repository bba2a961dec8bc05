/* pci: which PCI functions rdma-collect cares about (shared by the pci and
 * iommu sources) */
#ifndef RDMA_COLLECT_PCI_H
#define RDMA_COLLECT_PCI_H

#include "src.h"

#define PCI_VENDOR_MELLANOX 0x15b3
#define PCI_VENDOR_NVIDIA 0x10de

/* the PCI addresses ("0000:b1:00.0") of every Mellanox/NVIDIA network
 * function and NVIDIA GPU, plus (with_bridges) every bridge on the path
 * from each to its root port; sorted, unique.  Returns the count or
 * -errno; free with ctx_names_free(). */
int pci_functions(struct ctx *c, int with_bridges, char ***bdfs);

#endif
