/* rules-pci: PCIe links of the HCAs (and the bridges up to their root
 * ports), ACS between GPUs and HCAs, IOMMU translation */
#include "rules.h"

const struct rule rules_pci[] = {
	{
		.id = "PCIE_LINK_DEGRADED",
		.layer = LAYER_HCA,
		.severity = SEV_CRITICAL,
		.title = "PCIe link of an HCA (or a bridge on its path) below its capability",
		.needs = "pci|klog|commands",
		.imp_needs = IMP_NEEDS(&need_pcie_link),
		.mlx5_only = "the HCAs' PCI functions, which the pci source collects for NVIDIA/Mellanox adapters only",
		.evidence = "sys/devices/.../<bdf>/config (LnkCap, LnkSta), current_link_{speed,width}, max_link_{speed,width}; kernel log 'PCIe bandwidth ... limited by' of an HCA function (not 'limited by Unknown x0': no link registers to read, as on s390 or in some VMs); the HCA's own view, mlxlink -d <dev> --port_type PCIE (rdma-collect/commands/mlxlink-<dev>/stdout, a pasted one named by its mst device or PCI address, which mst status maps to the PCI function): Link Speed Active (Enabled) or Link Width Active (Enabled) of the host's link (depth 0) below the enabled value, where neither the function's link registers nor its kernel line already judge it (NVIDIA/Mellanox HCAs only: skipped on a node without one)",
		.remediation = "The HCA trained below its PCIe speed or width: reseat the card (or move it to a slot wired for the full width and generation), check riser cables and retimers, set the slot's link speed in the BIOS to Auto/Gen5 and update the BIOS and HCA firmware; `lspci -vvv -s <bdf>` shows LnkCap and LnkSta, the mlx5_core probe line 'available PCIe bandwidth, limited by ... at <bdf>' names the narrowest link, and `mlxlink -d <dev> --port_type PCIE -e` shows the HCA's own Link Speed and Width Active (Enabled) and each lane's eye.",
		.sql = 1,
	},
	{
		.id = "ACS_ENABLED",
		.layer = LAYER_APP,
		.severity = SEV_CRITICAL,
		.title = "ACS redirect or source validation on a PCIe bridge between a GPU and an HCA",
		.needs = "pci",
		.imp_needs = IMP_NEEDS(&need_acs),
		.mlx5_only = "the HCAs' PCI functions, which the pci source collects for NVIDIA/Mellanox adapters only",
		.evidence = "sys/devices/.../<bdf>/config ACS extended capability (ACSCtl) of the bridges between each HCA and GPU below a common bridge; an import's ACSCtl lines without their functions (lspci -vvv | grep ACSCtl, rdma-collect/import/acsctl.txt): a warning when some redirect, where is not known (NVIDIA/Mellanox HCAs only: skipped on a node without one)",
		.remediation = "ACS P2P redirect sends GPUDirect RDMA traffic up to the root complex (and through the IOMMU) instead of across the switch: disable ACS in the BIOS (often 'ACS Control' / 'PCIe ACS' under the chipset or PCIe settings), or clear ACSCtl on the switch ports at boot (`setpci -s <bdf> ECAP_ACS+0x6.w=0000`, as NVIDIA's GPUDirect guides do); on a bare-metal node with no VMs the IOMMU groups then merge, which is expected.",
		.sql = 1,
	},
	{
		.id = "IOMMU_TRANSLATING",
		.layer = LAYER_APP,
		.severity = SEV_WARNING,
		.title = "the IOMMU translates DMA on a node with HCAs",
		.needs = "pci|klog",
		.imp_needs = IMP_NEEDS(&need_iommu),
		.mlx5_only = "the HCAs' PCI functions, which the pci source collects for NVIDIA/Mellanox adapters only",
		.evidence = "sys/kernel/iommu_groups/<N>/type of the HCAs' groups; else sys/class/iommu and proc/cmdline (iommu=pt, iommu.passthrough=, last wins); else the kernel log: the last 'iommu: Default domain type: Translated' with an HCA function's 'Adding to iommu group' line (NVIDIA/Mellanox HCAs only: skipped on a node without one)",
		.remediation = "Boot with the IOMMU in passthrough for host DMA: add `iommu=pt` (x86) or `iommu.passthrough=1` to the kernel command line (GRUB_CMDLINE_LINUX, then update-grub and reboot), keeping intel_iommu=on if VFIO is needed; translated DMA costs IOTLB misses and can break GPUDirect RDMA peer mappings.",
		.sql = 1,
	},
	{
		.id = "HCA_MISSING",
		.layer = LAYER_HCA,
		.severity = SEV_CRITICAL,
		.title = "fewer RDMA devices or Mellanox/NVIDIA network PCI functions than expected",
		.needs = "pci|klog,sysfs",
		/* fleet_min_nodes: its fleet part (rules-fleet.c) */
		.thresholds = "expect_hcas fleet_min_nodes",
		.evidence = "sys/bus/pci/devices/* (vendor 0x15b3) against sys/class/infiniband/*; without the PCI functions, the kernel log's mlx5_core/mlx4_core/mlx4_en lines of a function on a node with no RDMA device at all; --expect-hcas N. A ConnectX without an RDMA device on a node whose RDMA devices are all another driver's (bnxt_re, efa ...) is an Ethernet NIC there: info",
		.remediation = "A function on the bus without an RDMA device: its driver did not bind or probe failed (dmesg mlx5_core lines, lsmod mlx5_ib); fewer functions than expected: the card is not detected (BIOS slot settings, reseat, check the slot's power and the riser), or firmware is in recovery (flint/mstflint query).",
		/* the fleet's majority for the same node class comes with the
		 * fleet checks; here: the bus against the RDMA devices, and
		 * the count the user expects */
		.sql = 1,
	},
	{ 0 },
};
