-- IOMMU_TRANSLATING: the IOMMU translates DMA on a node with HCAs
-- (analyze/rules-pci.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- the groups' default domain is what the kernel does; the
-- command line is only read when no HCA group was seen
-- the kernel's own word (iommu_subsys_init), printed
-- with or without IOMMU hardware: translation only
-- with an HCA function put in an IOMMU group
-- the bundle file a klog row k came from
-- the HCA functions of bundle B: the pci source's, those the kernel
-- log's mlx5_core/mlx4_core lines name, and those the PCI core's
-- enumeration line shows a Mellanox network function ("pci 0000:01:00.0:
-- [15b3:1007] type 00 class 0x020000": load-pci.c's kind 'hca')
SELECT h.bundle_id, 'iommu', 'the IOMMU translates DMA of ' || count(*) ||
	' HCA function(s): domain type ' || group_concat(DISTINCT g.type) ||
	' (not identity)', group_concat(g.path || char(9) || g.type || ' (' ||
		h.addr || ')', char(10)), NULL
FROM pci_functions h
JOIN todo_rule t ON t.bundle_id = h.bundle_id
JOIN iommu_groups g ON g.bundle_id = h.bundle_id AND g.grp = h.iommu_group
WHERE h.kind = 'hca' AND g.type IN ('DMA', 'DMA-FQ')
GROUP BY h.bundle_id
UNION ALL
SELECT u.bundle_id, 'iommu', 'IOMMU units are active (' || u.value ||
	') and the kernel command line does not set passthrough' || coalesce(
		' (' || pp.value || ')', ''), 'sys/class/iommu' || char(9) ||
	u.value || char(10) || 'proc/cmdline' || char(9) || coalesce(pp.value,
		'no iommu=pt or iommu.passthrough=1'), NULL
FROM facts u
JOIN todo_rule t ON t.bundle_id = u.bundle_id
LEFT JOIN facts p ON p.bundle_id = u.bundle_id AND p.key = 'iommu_passthrough'
LEFT JOIN facts pp ON pp.bundle_id = u.bundle_id AND pp.key =
	'iommu_passthrough_param'
WHERE u.key = 'iommu_units' AND u.value <> '' AND p.value IS NOT '1' AND EXISTS
	(SELECT 1
	FROM pci_functions h
	WHERE h.bundle_id = u.bundle_id AND h.kind = 'hca') AND NOT EXISTS (
		SELECT 1
	FROM pci_functions h
	JOIN iommu_groups g ON g.bundle_id = h.bundle_id AND g.grp =
		h.iommu_group
	WHERE h.bundle_id = u.bundle_id AND h.kind = 'hca' AND g.type IS NOT
		NULL)
UNION ALL
SELECT d.bundle_id, 'iommu', 'the kernel log says DMA is translated (' ||
	d.text || ') and puts HCA function(s) ' || replace(group_concat(
			DISTINCT a.device), ',', ', ') || ' in IOMMU groups',
	CASE WHEN d.seq IS NULL THEN 'rdma-collect/klog/syslog.txt' ELSE
	'rdma-collect/klog/kmsg.txt' END || char(9) || d.text || char(10) ||
	group_concat(CASE WHEN a.seq IS NULL THEN
		'rdma-collect/klog/syslog.txt' ELSE
		'rdma-collect/klog/kmsg.txt' END || char(9) || a.text, char(10)
		), NULL
FROM klog d
JOIN todo_rule t ON t.bundle_id = d.bundle_id
JOIN klog a ON a.bundle_id = d.bundle_id AND (a.text LIKE
		'%: Adding to iommu group %' OR a.text LIKE
		'iommu: Adding device % to group %') AND a.device IN (SELECT
		k.device
	FROM klog k
	WHERE k.bundle_id = d.bundle_id AND k.device IS NOT NULL AND (k.text
			LIKE 'mlx5!_core %' ESCAPE '!' OR k.text LIKE
			'mlx4!_core %' ESCAPE '!' OR k.text LIKE
			'pci %: [15b3:%] type 00 class 0x02%')
	UNION
	SELECT h.addr
	FROM pci_functions h
	WHERE h.bundle_id = d.bundle_id AND h.kind = 'hca')
WHERE d.text LIKE 'iommu: Default domain type: Translated%' AND d.rowid = (
		SELECT max(x.rowid)
	FROM klog x
	WHERE x.bundle_id = d.bundle_id AND x.text LIKE
		'iommu: Default domain type: %') AND NOT EXISTS (SELECT 1
	FROM facts u
	WHERE u.bundle_id = d.bundle_id AND u.key = 'iommu_units') AND NOT
	EXISTS (SELECT 1
	FROM pci_functions h
	JOIN iommu_groups g ON g.bundle_id = h.bundle_id AND g.grp =
		h.iommu_group
	WHERE h.bundle_id = d.bundle_id AND h.kind = 'hca' AND g.type IS NOT
		NULL)
GROUP BY d.bundle_id
