/* rules-pci: PCIe links of the HCAs (and the bridges up to their root
 * ports), ACS between GPUs and HCAs, IOMMU translation */
#include "rules.h"

/* a bundle with some function whose link runs below what it can, by its
 * config space or its sysfs files: only there is a path worth walking
 * (most nodes have none, and the walk was most of the check's time) */
#define ANY_SLOWER(B) "EXISTS (SELECT 1 FROM pci_functions g WHERE " \
	"g.bundle_id = " B " AND (g.lnksta_speed < g.lnkcap_speed OR " \
	"g.lnksta_width < g.lnkcap_width OR CAST(g.cur_link_speed AS REAL) < " \
	"CAST(g.max_link_speed AS REAL) OR g.cur_link_width < " \
	"g.max_link_width))"

/* the functions on each HCA's path to its root port: the HCA (depth 0)
 * and its bridges, from parent_addr (at most 32 levels: hostile data may
 * loop) */
#define HCA_PATH							\
	"WITH RECURSIVE path (bundle_id, hca, addr, depth) AS ("	\
	"SELECT f.bundle_id, f.addr, f.addr, 0 FROM pci_functions f "	\
	"JOIN todo_rule t ON t.bundle_id = f.bundle_id WHERE f.kind = 'hca' " \
	"AND " ANY_SLOWER("f.bundle_id") " UNION SELECT p.bundle_id, p.hca, " \
	"f.parent_addr, p.depth + 1 "					\
	"FROM path p JOIN pci_functions f ON f.bundle_id = p.bundle_id AND " \
	"f.addr = p.addr WHERE f.parent_addr IS NOT NULL AND p.depth < 32) "

/* the node of pci_functions f has RDMA devices and none is an mlx5 one */
#define OTHER_RDMA_ONLY "(EXISTS (SELECT 1 FROM devices d WHERE " \
	"d.bundle_id = f.bundle_id) AND NOT EXISTS (SELECT 1 FROM devices d " \
	"WHERE d.bundle_id = f.bundle_id AND (d.ibdev LIKE 'mlx5!_%' ESCAPE " \
	"'!' OR d.hca_type GLOB 'MT4[0-9]*' OR d.pci_addr IN (SELECT g.addr " \
	"FROM pci_functions g WHERE g.bundle_id = f.bundle_id AND g.vendor = " \
	"0x15b3))))"

/* the bundle file a klog row k came from */
#define KLOG_PATH(k) "CASE WHEN " k ".seq IS NULL THEN " \
	"'rdma-collect/klog/syslog.txt' ELSE 'rdma-collect/klog/kmsg.txt' END"

/* the HCA functions of bundle B: the pci source's, those the kernel
 * log's mlx5_core/mlx4_core lines name, and those the PCI core's
 * enumeration line shows a Mellanox network function ("pci 0000:01:00.0:
 * [15b3:1007] type 00 class 0x020000": load-pci.c's kind 'hca') */
#define HCA_ADDRS(B) "SELECT k.device FROM klog k WHERE k.bundle_id = " B \
	" AND k.device IS NOT NULL AND (k.text LIKE 'mlx5!_core %' ESCAPE " \
	"'!' OR k.text LIKE 'mlx4!_core %' ESCAPE '!' OR k.text LIKE 'pci " \
	"%: [15b3:%] type 00 class 0x02%') UNION SELECT h.addr FROM " \
	"pci_functions h WHERE h.bundle_id = " B " AND h.kind = 'hca'"

/* lspci's link_speed() text of a GT/s value */
#define GTS(x) "(CASE WHEN " x " > 0 THEN printf('%g', " x ") || 'GT/s' " \
	"ELSE 'unknown' END)"

/* the ACSCtl line as lspci -vvv prints it, from pci_acs x */
#define ACSCTL								\
	"'ACSCtl:' || char(9) || 'SrcValid' || CASE WHEN x.ctrl & 1 THEN '+' " \
	"ELSE '-' END || ' TransBlk' || CASE WHEN x.ctrl & 2 THEN '+' ELSE " \
	"'-' END || ' ReqRedir' || CASE WHEN x.ctrl & 4 THEN '+' ELSE '-' END " \
	"|| ' CmpltRedir' || CASE WHEN x.ctrl & 8 THEN '+' ELSE '-' END || " \
	"' UpstreamFwd' || CASE WHEN x.ctrl & 16 THEN '+' ELSE '-' END || " \
	"' EgressCtrl' || CASE WHEN x.ctrl & 32 THEN '+' ELSE '-' END || " \
	"' DirectTrans' || CASE WHEN x.ctrl & 64 THEN '+' ELSE '-' END"

const struct rule rules_pci[] = {
	{
		.id = "PCIE_LINK_DEGRADED",
		.layer = LAYER_HCA,
		.severity = SEV_CRITICAL,
		.title = "PCIe link of an HCA (or a bridge on its path) below its capability",
		.needs = "pci|klog|commands",
		.mlx5_only = "the HCAs' PCI functions, which the pci source collects for NVIDIA/Mellanox adapters only",
		.evidence = "sys/devices/.../<bdf>/config (LnkCap, LnkSta), current_link_{speed,width}, max_link_{speed,width}; kernel log 'PCIe bandwidth ... limited by' of an HCA function (not 'limited by Unknown x0': no link registers to read, as on s390 or in some VMs); the HCA's own view, mlxlink -d <dev> --port_type PCIE (rdma-collect/commands/mlxlink-<dev>/stdout, a pasted one named by its mst device or PCI address, which mst status maps to the PCI function): Link Speed Active (Enabled) or Link Width Active (Enabled) of the host's link (depth 0) below the enabled value, where neither the function's link registers nor its kernel line already judge it (NVIDIA/Mellanox HCAs only: skipped on a node without one)",
		.remediation = "The HCA trained below its PCIe speed or width: reseat the card (or move it to a slot wired for the full width and generation), check riser cables and retimers, set the slot's link speed in the BIOS to Auto/Gen5 and update the BIOS and HCA firmware; `lspci -vvv -s <bdf>` shows LnkCap and LnkSta, the mlx5_core probe line 'available PCIe bandwidth, limited by ... at <bdf>' names the narrowest link, and `mlxlink -d <dev> --port_type PCIE -e` shows the HCA's own Link Speed and Width Active (Enabled) and each lane's eye.",
		/* a link is judged at its upstream-facing end (endpoint,
		 * switch upstream port), as lspci's "(downgraded)": a root
		 * or downstream port may rightly run below its own LnkCap
		 * when the device below is slower.  Without a decoded
		 * config space (non-root: 64 bytes) the HCA's sysfs link
		 * files are used. */
		.sql = HCA_PATH ", "
		       "link AS (SELECT f.*, p.hca, p.depth, "
		       "f.lnkcap_width IS NOT NULL AS cfg, "
		       "CASE WHEN f.lnkcap_width IS NOT NULL THEN f.lnkcap_speed "
		       "ELSE CAST(f.max_link_speed AS REAL) END AS cs, "
		       "CASE WHEN f.lnkcap_width IS NOT NULL THEN f.lnkcap_width "
		       "ELSE f.max_link_width END AS cw, "
		       "CASE WHEN f.lnkcap_width IS NOT NULL THEN f.lnksta_speed "
		       "ELSE CAST(f.cur_link_speed AS REAL) END AS ss, "
		       "CASE WHEN f.lnkcap_width IS NOT NULL THEN f.lnksta_width "
		       "ELSE f.cur_link_width END AS sw "
		       "FROM path p JOIN pci_functions f ON f.bundle_id = "
		       "p.bundle_id AND f.addr = p.addr WHERE (f.lnkcap_width IS "
		       "NOT NULL AND coalesce(f.pcie_port_type, '') NOT IN ('Root "
		       "Port', 'Downstream Port', 'PCI/PCI-X to PCI-Express "
		       "Bridge')) OR (f.lnkcap_width IS NULL AND p.depth = 0)), "
		       "bad AS (SELECT * FROM link WHERE (ss > 0 AND cs > 0 AND "
		       "ss < cs) OR (sw > 0 AND cw > 0 AND sw < cw)) "
		       "SELECT b.bundle_id, b.addr, "
		       "'PCIe link of ' || CASE WHEN b.depth = 0 THEN 'HCA ' ELSE "
		       "coalesce(b.pcie_port_type, 'bridge') || ' ' END || b.addr || "
		       "coalesce(' (' || b.ibdev || ')', '') || CASE WHEN b.depth > 0 "
		       "THEN ' above HCA ' || (SELECT group_concat(h.addr || "
		       "coalesce(' (' || h.ibdev || ')', ''), ', ') FROM "
		       "pci_functions h JOIN path q ON q.bundle_id = h.bundle_id AND "
		       "q.hca = h.addr WHERE q.bundle_id = b.bundle_id AND q.addr = "
		       "b.addr) ELSE '' END || ' runs at ' || "
		       GTS("b.ss") " || ' x' || b.sw || ', capable of ' || "
		       GTS("b.cs") " || ' x' || b.cw, "
		       "CASE WHEN b.cfg THEN b.path || '/config' || char(9) || "
		       "'LnkCap: Speed ' || " GTS("b.cs") " || ', Width x' || b.cw "
		       "|| '; LnkSta: Speed ' || " GTS("b.ss") " || ', Width x' || "
		       "b.sw || char(10) ELSE '' END || "
		       "b.path || '/current_link_speed' || char(9) || "
		       "coalesce(b.cur_link_speed, '(absent)') || char(10) || "
		       "b.path || '/current_link_width' || char(9) || "
		       "coalesce(b.cur_link_width, '(absent)') || char(10) || "
		       "b.path || '/max_link_speed' || char(9) || "
		       "coalesce(b.max_link_speed, '(absent)') || char(10) || "
		       "b.path || '/max_link_width' || char(9) || "
		       "coalesce(b.max_link_width, '(absent)'), NULL "
		       "FROM bad b GROUP BY b.bundle_id, b.addr "
		       /* the mlx5 probe line, for HCAs not already named */
		       "UNION ALL SELECT k.bundle_id, k.device, "
		       "'kernel log: ' || k.text, "
		       KLOG_PATH("k") " || char(9) || k.text, "
		       "NULL "
		       "FROM klog k JOIN todo_rule t ON t.bundle_id = k.bundle_id "
		       "WHERE k.category = 'pcie_bw' AND k.text LIKE "
		       "'%PCIe bandwidth, limited by%' AND k.device IS NOT NULL "
		       /* "limited by Unknown x0": no link registers to read
		        * (s390's zPCI, some VMs), not a slow link */
		       "AND k.text NOT LIKE '%limited by Unknown%' AND k.device "
		       "IN (" HCA_ADDRS("k.bundle_id") ") "
		       "AND k.rowid = (SELECT max(k2.rowid) FROM klog k2 WHERE "
		       "k2.bundle_id = k.bundle_id AND k2.device = k.device AND "
		       "k2.category = 'pcie_bw' AND k2.text LIKE "
		       "'%PCIe bandwidth, limited by%') AND NOT EXISTS (" HCA_PATH
		       ", link AS (SELECT 1) SELECT 1 FROM path p JOIN pci_functions "
		       "f ON f.bundle_id = p.bundle_id AND f.addr = p.addr WHERE "
		       "p.bundle_id = k.bundle_id AND p.hca = k.device AND "
		       "((f.lnksta_speed < f.lnkcap_speed) OR (f.lnksta_width < "
		       "f.lnkcap_width)) AND coalesce(f.pcie_port_type, '') NOT IN "
		       "('Root Port', 'Downstream Port', 'PCI/PCI-X to PCI-Express "
		       "Bridge')) "
		       /* mlxlink --port_type PCIE: the HCA's own view of its
		        * host link, active below enabled; only where no link
		        * register or sysfs file of that function (the first
		        * part judges those) and no kernel line of it speaks */
		       "UNION ALL SELECT m.bundle_id, m.dev, 'PCIe link of HCA ' "
		       "|| m.dev || coalesce(' (' || m.ibdev || ')', '') || "
		       "' runs at ' || coalesce(m.speed, 'unknown speed') || ' x' "
		       "|| coalesce(m.width, '?') || ', enabled for ' || "
		       "coalesce(m.speed_enabled, 'unknown speed') || ' x' || "
		       "coalesce(m.width_enabled, '?') || ' (mlxlink --port_type "
		       "PCIE)', m.path || char(9) || 'Link Speed Active (Enabled): ' "
		       "|| coalesce(m.speed, 'N/A') || ' (' || coalesce("
		       "m.speed_enabled, 'N/A') || ')' || char(10) || m.path || "
		       "char(9) || 'Link Width Active (Enabled): ' || coalesce("
		       "m.width || 'X', 'N/A') || ' (' || coalesce(m.width_enabled "
		       "|| 'X', 'N/A') || ')', NULL "
		       "FROM phy_pcie m JOIN todo_rule t ON t.bundle_id = "
		       "m.bundle_id WHERE m.depth = 0 AND ((m.gen > 0 AND "
		       "m.gen_enabled > 0 AND m.gen < m.gen_enabled) OR (m.width > "
		       "0 AND m.width_enabled > 0 AND m.width < m.width_enabled)) "
		       "AND NOT EXISTS (SELECT 1 FROM pci_functions f WHERE "
		       "f.bundle_id = m.bundle_id AND f.addr = m.pci_addr AND "
		       "(f.lnksta_width > 0 OR f.cur_link_width > 0)) AND NOT "
		       "EXISTS (SELECT 1 FROM klog k WHERE k.bundle_id = "
		       "m.bundle_id AND k.device = m.pci_addr AND k.category = "
		       "'pcie_bw' AND k.text LIKE '%PCIe bandwidth, limited by%' "
		       "AND k.text NOT LIKE '%limited by Unknown%')",
	},
	{
		.id = "ACS_ENABLED",
		.layer = LAYER_APP,
		.severity = SEV_CRITICAL,
		.title = "ACS redirect or source validation on a PCIe bridge between a GPU and an HCA",
		.needs = "pci",
		.mlx5_only = "the HCAs' PCI functions, which the pci source collects for NVIDIA/Mellanox adapters only",
		.evidence = "sys/devices/.../<bdf>/config ACS extended capability (ACSCtl) of the bridges between each HCA and GPU below a common bridge; an import's ACSCtl lines without their functions (lspci -vvv | grep ACSCtl, rdma-collect/import/acsctl.txt): a warning when some redirect, where is not known (NVIDIA/Mellanox HCAs only: skipped on a node without one)",
		.remediation = "ACS P2P redirect sends GPUDirect RDMA traffic up to the root complex (and through the IOMMU) instead of across the switch: disable ACS in the BIOS (often 'ACS Control' / 'PCIe ACS' under the chipset or PCIe settings), or clear ACSCtl on the switch ports at boot (`setpci -s <bdf> ECAP_ACS+0x6.w=0000`, as NVIDIA's GPUDirect guides do); on a bare-metal node with no VMs the IOMMU groups then merge, which is expected.",
		/* the ancestors of every HCA and GPU; for each pair below a
		 * common bridge, the bridges strictly below that bridge on
		 * both sides are the ones P2P traffic crosses.  Only in
		 * bundles where some function redirects at all: the walk
		 * is most of the rule's time, and most nodes have ACS off */
		.sql = "WITH RECURSIVE anc (bundle_id, dev, kind, addr, depth) AS ("
		       "SELECT f.bundle_id, f.addr, f.kind, f.parent_addr, 1 FROM "
		       "pci_functions f JOIN todo_rule t ON t.bundle_id = "
		       "f.bundle_id WHERE f.kind IN ('hca', 'gpu') AND "
		       "f.parent_addr IS NOT NULL AND EXISTS (SELECT 1 FROM "
		       "pci_acs x WHERE x.bundle_id = f.bundle_id AND x.ctrl & 13 "
		       "<> 0) UNION SELECT a.bundle_id, a.dev, "
		       "a.kind, f.parent_addr, a.depth + 1 FROM anc a JOIN "
		       "pci_functions f ON f.bundle_id = a.bundle_id AND f.addr = "
		       "a.addr WHERE f.parent_addr IS NOT NULL AND a.depth < 32), "
		       "pair AS (SELECT h.bundle_id, h.dev AS hca, g.dev AS gpu, "
		       "min(h.depth) AS hd, min(g.depth) AS gd FROM anc h JOIN anc g "
		       "ON g.bundle_id = h.bundle_id AND g.addr = h.addr AND "
		       "g.kind = 'gpu' WHERE h.kind = 'hca' GROUP BY h.bundle_id, "
		       "h.dev, g.dev), "
		       "btw AS (SELECT DISTINCT p.bundle_id, a.addr, p.hca, p.gpu "
		       "FROM pair p JOIN anc a ON a.bundle_id = p.bundle_id AND "
		       "((a.dev = p.hca AND a.depth < p.hd) OR (a.dev = p.gpu AND "
		       "a.depth < p.gd))) "
		       "SELECT b.bundle_id, b.addr, 'ACS ' || trim("
		       "CASE WHEN x.ctrl & 4 THEN 'ReqRedir+ ' ELSE '' END || "
		       "CASE WHEN x.ctrl & 8 THEN 'CmpltRedir+ ' ELSE '' END || "
		       "CASE WHEN x.ctrl & 1 THEN 'SrcValid+' ELSE '' END) || "
		       "' on PCIe ' || coalesce(f.pcie_port_type, 'bridge') || ' ' || "
		       "b.addr || ' between HCA ' || group_concat(DISTINCT b.hca || "
		       "coalesce(' (' || (SELECT h.ibdev FROM pci_functions h WHERE "
		       "h.bundle_id = b.bundle_id AND h.addr = b.hca) || ')', '')) || "
		       "' and GPU ' || group_concat(DISTINCT b.gpu) || "
		       "': peer-to-peer (GPUDirect RDMA) traffic is redirected "
		       "through the root complex', "
		       "f.path || '/config' || char(9) || printf('[%03x] ', x.offset) "
		       "|| " ACSCTL ", NULL "
		       "FROM btw b JOIN pci_acs x ON x.bundle_id = b.bundle_id AND "
		       "x.addr = b.addr JOIN pci_functions f ON f.bundle_id = "
		       "b.bundle_id AND f.addr = b.addr WHERE x.ctrl & 13 <> 0 "
		       "GROUP BY b.bundle_id, b.addr "
		       /* an import's ACSCtl lines without their functions
		        * (lspci -vvv | grep ACSCtl): redirect is on
		        * somewhere, where is not known: a warning */
		       "UNION ALL SELECT o.bundle_id, 'pci', o.value || ' of ' || "
		       "n.value || ' ACSCtl lines redirect or validate "
		       "(SrcValid+, ReqRedir+ or CmpltRedir+), but lspci was "
		       "filtered to those lines: which bridges they are, and "
		       "whether one lies between a GPU and an HCA, is not known', "
		       "o.path || char(9) || o.value || ' of ' || n.value || "
		       "' ACSCtl lines with SrcValid+, ReqRedir+ or CmpltRedir+', 1 "
		       "FROM facts o JOIN todo_rule t ON t.bundle_id = o.bundle_id "
		       "JOIN facts n ON n.bundle_id = o.bundle_id AND n.key = "
		       "'acsctl_unplaced' WHERE o.key = 'acsctl_unplaced_on' AND "
		       "CAST(o.value AS INTEGER) > 0",
	},
	{
		.id = "IOMMU_TRANSLATING",
		.layer = LAYER_APP,
		.severity = SEV_WARNING,
		.title = "the IOMMU translates DMA on a node with HCAs",
		.needs = "pci|klog",
		.mlx5_only = "the HCAs' PCI functions, which the pci source collects for NVIDIA/Mellanox adapters only",
		.evidence = "sys/kernel/iommu_groups/<N>/type of the HCAs' groups; else sys/class/iommu and proc/cmdline (iommu=pt, iommu.passthrough=, last wins); else the kernel log: the last 'iommu: Default domain type: Translated' with an HCA function's 'Adding to iommu group' line (NVIDIA/Mellanox HCAs only: skipped on a node without one)",
		.remediation = "Boot with the IOMMU in passthrough for host DMA: add `iommu=pt` (x86) or `iommu.passthrough=1` to the kernel command line (GRUB_CMDLINE_LINUX, then update-grub and reboot), keeping intel_iommu=on if VFIO is needed; translated DMA costs IOTLB misses and can break GPUDirect RDMA peer mappings.",
		/* the groups' default domain is what the kernel does; the
		 * command line is only read when no HCA group was seen */
		.sql = "SELECT h.bundle_id, 'iommu', 'the IOMMU translates DMA "
		       "of ' || count(*) || ' HCA function(s): domain type ' || "
		       "group_concat(DISTINCT g.type) || ' (not identity)', "
		       "group_concat(g.path || char(9) || g.type || ' (' || h.addr || "
		       "')', char(10)), NULL FROM pci_functions h JOIN todo_rule t "
		       "ON t.bundle_id = h.bundle_id JOIN iommu_groups g ON "
		       "g.bundle_id = h.bundle_id AND g.grp = h.iommu_group WHERE "
		       "h.kind = 'hca' AND g.type IN ('DMA', 'DMA-FQ') GROUP BY "
		       "h.bundle_id "
		       "UNION ALL SELECT u.bundle_id, 'iommu', 'IOMMU units are "
		       "active (' || u.value || ') and the kernel command line "
		       "does not set passthrough' || coalesce(' (' || "
		       "pp.value || ')', ''), 'sys/class/iommu' || char(9) || "
		       "u.value || char(10) || 'proc/cmdline' || char(9) || "
		       "coalesce(pp.value, 'no iommu=pt or iommu.passthrough=1'), "
		       "NULL FROM facts u JOIN todo_rule t ON t.bundle_id = "
		       "u.bundle_id LEFT JOIN facts p ON p.bundle_id = u.bundle_id "
		       "AND p.key = 'iommu_passthrough' LEFT JOIN facts pp ON "
		       "pp.bundle_id = u.bundle_id AND pp.key = "
		       "'iommu_passthrough_param' WHERE u.key = 'iommu_units' AND "
		       "u.value <> '' AND p.value IS NOT '1' AND EXISTS (SELECT 1 "
		       "FROM pci_functions h WHERE h.bundle_id = u.bundle_id AND "
		       "h.kind = 'hca') AND NOT EXISTS (SELECT 1 FROM "
		       "pci_functions h JOIN iommu_groups g ON g.bundle_id = "
		       "h.bundle_id AND g.grp = h.iommu_group WHERE h.bundle_id = "
		       "u.bundle_id AND h.kind = 'hca' AND g.type IS NOT NULL) "
		       /* the kernel's own word (iommu_subsys_init), printed
		        * with or without IOMMU hardware: translation only
		        * with an HCA function put in an IOMMU group */
		       "UNION ALL SELECT d.bundle_id, 'iommu', 'the kernel log "
		       "says DMA is translated (' || d.text || ') and puts HCA "
		       "function(s) ' || replace(group_concat(DISTINCT a.device), ',', "
		       "', ') || ' in "
		       "IOMMU groups', " KLOG_PATH("d") " || char(9) || d.text || "
		       "char(10) || group_concat(" KLOG_PATH("a") " || char(9) || "
		       "a.text, char(10)), NULL FROM klog d JOIN todo_rule t ON "
		       "t.bundle_id = d.bundle_id JOIN klog a ON a.bundle_id = "
		       "d.bundle_id AND (a.text LIKE '%: Adding to iommu group %' "
		       "OR a.text LIKE 'iommu: Adding device % to group %') AND "
		       "a.device IN (" HCA_ADDRS("d.bundle_id") ") WHERE "
		       "d.text LIKE 'iommu: Default domain type: Translated%' AND "
		       "d.rowid = (SELECT max(x.rowid) FROM klog x WHERE "
		       "x.bundle_id = d.bundle_id AND x.text LIKE 'iommu: Default "
		       "domain type: %') AND NOT EXISTS (SELECT 1 FROM facts u "
		       "WHERE u.bundle_id = d.bundle_id AND u.key = "
		       "'iommu_units') AND NOT EXISTS (SELECT 1 FROM "
		       "pci_functions h JOIN iommu_groups g ON g.bundle_id = "
		       "h.bundle_id AND g.grp = h.iommu_group WHERE h.bundle_id = "
		       "d.bundle_id AND h.kind = 'hca' AND g.type IS NOT NULL) "
		       "GROUP BY d.bundle_id",
	},
	{
		.id = "HCA_MISSING",
		.layer = LAYER_HCA,
		.severity = SEV_CRITICAL,
		.title = "fewer RDMA devices or Mellanox/NVIDIA network PCI functions than expected",
		.needs = "pci|klog,sysfs",
		.evidence = "sys/bus/pci/devices/* (vendor 0x15b3) against sys/class/infiniband/*; without the PCI functions, the kernel log's mlx5_core/mlx4_core/mlx4_en lines of a function on a node with no RDMA device at all; --expect-hcas N. A ConnectX without an RDMA device on a node whose RDMA devices are all another driver's (bnxt_re, efa ...) is an Ethernet NIC there: info",
		.remediation = "A function on the bus without an RDMA device: its driver did not bind or probe failed (dmesg mlx5_core lines, lsmod mlx5_ib); fewer functions than expected: the card is not detected (BIOS slot settings, reseat, check the slot's power and the riser), or firmware is in recovery (flint/mstflint query).",
		/* the fleet's majority for the same node class comes with the
		 * fleet checks; here: the bus against the RDMA devices, and
		 * the count the user expects */
		/* a ConnectX without RDMA device on a node whose RDMA devices
		 * are all of another driver (bnxt_re, efa ...) is an Ethernet
		 * NIC there, not a missing HCA: info */
		.sql = "SELECT f.bundle_id, f.addr, 'PCI function ' || f.addr || "
		       "' (' || printf('%04x:%04x', f.vendor, f.device) || ', driver ' || "
		       "coalesce(f.driver, 'none') || ') has no RDMA device' || CASE "
		       "WHEN " OTHER_RDMA_ONLY " THEN '; the RDMA devices of this "
		       "node are of another driver (' || (SELECT group_concat(d.ibdev, "
		       "' ') FROM devices d WHERE d.bundle_id = f.bundle_id) || "
		       "'): an Ethernet NIC here' ELSE '' END, "
		       "'sys/bus/pci/devices/' || f.addr || char(9) || "
		       "printf('vendor 0x%04x device 0x%04x class 0x%06x', f.vendor, "
		       "f.device, f.class) || char(10) || 'sys/class/infiniband' || "
		       "char(9) || coalesce((SELECT group_concat(d.ibdev, ' ') FROM "
		       "devices d WHERE d.bundle_id = f.bundle_id), 'empty'), "
		       "CASE WHEN " OTHER_RDMA_ONLY " THEN 0 END "
		       "FROM pci_functions f JOIN todo_rule t ON t.bundle_id = "
		       "f.bundle_id WHERE f.kind = 'hca' AND f.ibdev IS NULL AND "
		       "(f.class >> 8) IN (0x0200, 0x0207) "
		       /* no PCI functions read (a pasted dmesg and ibstatus):
		        * the kernel log's probe lines name the ConnectX
		        * functions; with no RDMA device at all, none of them
		        * has one (with some, which is whose is not known) */
		       "UNION ALL SELECT k.bundle_id, k.device, 'ConnectX function "
		       "' || k.device || ' was probed (the kernel log) but the node "
		       "has no RDMA device', " KLOG_PATH("k") " || char(9) || "
		       "k.text || char(10) || 'sys/class/infiniband' || char(9) || "
		       "'empty', NULL FROM klog k JOIN todo_rule t ON t.bundle_id = "
		       "k.bundle_id WHERE k.device IS NOT NULL AND (k.text LIKE "
		       "'mlx5!_core %' ESCAPE '!' OR k.text LIKE 'mlx4!_core %' "
		       "ESCAPE '!' OR k.text LIKE 'mlx4!_en %' ESCAPE '!') AND "
		       "k.rowid = (SELECT min(x.rowid) FROM klog x WHERE x.bundle_id "
		       "= k.bundle_id AND x.device = k.device) AND NOT EXISTS "
		       "(SELECT 1 FROM pci_functions h WHERE h.bundle_id = "
		       "k.bundle_id AND h.kind = 'hca') AND NOT EXISTS (SELECT 1 "
		       "FROM devices d WHERE d.bundle_id = k.bundle_id) "
		       "UNION ALL SELECT t.bundle_id, 'node', (SELECT count(*) FROM "
		       "devices d WHERE d.bundle_id = t.bundle_id AND d.pci_addr IS "
		       "NOT NULL) || ' RDMA device(s), ' || (SELECT CAST(value AS "
		       "INTEGER) FROM thresholds WHERE name = 'expect_hcas') || "
		       "' expected (--expect-hcas)', 'sys/class/infiniband' || "
		       "char(9) || coalesce((SELECT group_concat(d.ibdev, ' ') FROM "
		       "devices d WHERE d.bundle_id = t.bundle_id), 'empty'), NULL "
		       "FROM todo_rule t WHERE (SELECT value FROM thresholds WHERE "
		       "name = 'expect_hcas') > 0 AND (SELECT count(*) FROM devices "
		       "d WHERE d.bundle_id = t.bundle_id AND d.pci_addr IS NOT NULL) "
		       "< (SELECT value FROM thresholds WHERE name = 'expect_hcas')",
	},
	{ 0 },
};
