-- PCIE_LINK_DEGRADED: PCIe link of an HCA (or a bridge on its path) below its capability
-- (analyze/rules-pci.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- a link is judged at its upstream-facing end (endpoint,
-- switch upstream port), as lspci's "(downgraded)": a root
-- or downstream port may rightly run below its own LnkCap
-- when the device below is slower.  Without a decoded
-- config space (non-root: 64 bytes) the HCA's sysfs link
-- files are used.
-- the mlx5 probe line, for HCAs not already named
-- "limited by Unknown x0": no link registers to read
-- (s390's zPCI, some VMs), not a slow link
-- mlxlink --port_type PCIE: the HCA's own view of its
-- host link, active below enabled; only where no link
-- register or sysfs file of that function (the first
-- part judges those) and no kernel line of it speaks
-- the functions on each HCA's path to its root port: the HCA (depth 0)
-- and its bridges, from parent_addr (at most 32 levels: hostile data may
-- loop)
-- the bundle file a klog row k came from
-- the HCA functions of bundle B: the pci source's, those the kernel
-- log's mlx5_core/mlx4_core lines name, and those the PCI core's
-- enumeration line shows a Mellanox network function ("pci 0000:01:00.0:
-- [15b3:1007] type 00 class 0x020000": load-pci.c's kind 'hca')
-- lspci's link_speed() text of a GT/s value
-- a bundle with some function whose link runs below what it can, by its
-- config space or its sysfs files: only there is a path worth walking
-- (most nodes have none, and the walk was most of the check's time)
WITH RECURSIVE path(bundle_id, hca, addr, depth) AS (SELECT f.bundle_id, f.addr
		, f.addr, 0
	FROM pci_functions f
	JOIN todo_rule t ON t.bundle_id = f.bundle_id
	WHERE f.kind = 'hca' AND EXISTS (SELECT 1
		FROM pci_functions g
		WHERE g.bundle_id = f.bundle_id AND (g.lnksta_speed <
				g.lnkcap_speed OR g.lnksta_width <
				g.lnkcap_width OR CAST(g.cur_link_speed AS REAL
					) < CAST(g.max_link_speed AS REAL) OR
				g.cur_link_width < g.max_link_width))
	UNION
	SELECT p.bundle_id, p.hca, f.parent_addr, p.depth + 1
	FROM path p
	JOIN pci_functions f ON f.bundle_id = p.bundle_id AND f.addr = p.addr
	WHERE f.parent_addr IS NOT NULL AND p.depth < 32), link AS (SELECT f.*,
		p.hca, p.depth, f.lnkcap_width IS NOT NULL AS cfg, CASE WHEN
		f.lnkcap_width IS NOT NULL THEN f.lnkcap_speed ELSE CAST(
			f.max_link_speed AS REAL) END AS cs, CASE WHEN
		f.lnkcap_width IS NOT NULL THEN f.lnkcap_width ELSE
		f.max_link_width END AS cw, CASE WHEN f.lnkcap_width IS NOT
		NULL THEN f.lnksta_speed ELSE CAST(f.cur_link_speed AS REAL)
		END AS ss, CASE WHEN f.lnkcap_width IS NOT NULL THEN
		f.lnksta_width ELSE f.cur_link_width END AS sw
	FROM path p
	JOIN pci_functions f ON f.bundle_id = p.bundle_id AND f.addr = p.addr
	WHERE (f.lnkcap_width IS NOT NULL AND coalesce(f.pcie_port_type, '')
			NOT IN ('Root Port', 'Downstream Port',
				'PCI/PCI-X to PCI-Express Bridge')) OR (
			f.lnkcap_width IS NULL AND p.depth = 0)), bad AS (
		SELECT *
	FROM link
	WHERE (ss > 0 AND cs > 0 AND ss < cs) OR (sw > 0 AND cw > 0 AND sw < cw
			))
SELECT b.bundle_id, b.addr, 'PCIe link of ' || CASE WHEN b.depth = 0 THEN
	'HCA ' ELSE coalesce(b.pcie_port_type, 'bridge') || ' ' END || b.addr
	|| coalesce(' (' || b.ibdev || ')', '') || CASE WHEN b.depth > 0 THEN
	' above HCA ' || (SELECT group_concat(h.addr || coalesce(' (' ||
				h.ibdev || ')', ''), ', ')
	FROM pci_functions h
	JOIN path q ON q.bundle_id = h.bundle_id AND q.hca = h.addr
	WHERE q.bundle_id = b.bundle_id AND q.addr = b.addr) ELSE '' END ||
	' runs at ' || (CASE WHEN b.ss > 0 THEN printf('%g', b.ss) || 'GT/s'
		ELSE 'unknown' END) || ' x' || b.sw || ', capable of ' || (CASE
		WHEN b.cs > 0 THEN printf('%g', b.cs) || 'GT/s' ELSE 'unknown'
		END) || ' x' || b.cw, CASE WHEN b.cfg THEN b.path || '/config'
	|| char(9) || 'LnkCap: Speed ' || (CASE WHEN b.cs > 0 THEN printf('%g',
			b.cs) || 'GT/s' ELSE 'unknown' END) || ', Width x' ||
	b.cw || '; LnkSta: Speed ' || (CASE WHEN b.ss > 0 THEN printf('%g',
			b.ss) || 'GT/s' ELSE 'unknown' END) || ', Width x' ||
	b.sw || char(10) ELSE '' END || b.path || '/current_link_speed' || char
	(9) || coalesce(b.cur_link_speed, '(absent)') || char(10) || b.path ||
	'/current_link_width' || char(9) || coalesce(b.cur_link_width,
		'(absent)') || char(10) || b.path || '/max_link_speed' || char(
		9) || coalesce(b.max_link_speed, '(absent)') || char(10) ||
	b.path || '/max_link_width' || char(9) || coalesce(b.max_link_width,
		'(absent)'), NULL
FROM bad b
GROUP BY b.bundle_id, b.addr
UNION ALL
SELECT k.bundle_id, k.device, 'kernel log: ' || k.text, CASE WHEN k.seq IS NULL
	THEN 'rdma-collect/klog/syslog.txt' ELSE 'rdma-collect/klog/kmsg.txt'
	END || char(9) || k.text, NULL
FROM klog k
JOIN todo_rule t ON t.bundle_id = k.bundle_id
WHERE k.category = 'pcie_bw' AND k.text LIKE '%PCIe bandwidth, limited by%' AND
	k.device IS NOT NULL AND k.text NOT LIKE '%limited by Unknown%' AND
	k.device IN (SELECT k.device
	FROM klog k
	WHERE k.bundle_id = k.bundle_id AND k.device IS NOT NULL AND (k.text
			LIKE 'mlx5!_core %' ESCAPE '!' OR k.text LIKE
			'mlx4!_core %' ESCAPE '!' OR k.text LIKE
			'pci %: [15b3:%] type 00 class 0x02%')
	UNION
	SELECT h.addr
	FROM pci_functions h
	WHERE h.bundle_id = k.bundle_id AND h.kind = 'hca') AND k.rowid = (
		SELECT max(k2.rowid)
	FROM klog k2
	WHERE k2.bundle_id = k.bundle_id AND k2.device = k.device AND
		k2.category = 'pcie_bw' AND k2.text LIKE
		'%PCIe bandwidth, limited by%') AND NOT EXISTS (
	WITH RECURSIVE path(bundle_id, hca, addr, depth) AS (SELECT f.bundle_id
			, f.addr, f.addr, 0
		FROM pci_functions f
		JOIN todo_rule t ON t.bundle_id = f.bundle_id
		WHERE f.kind = 'hca' AND EXISTS (SELECT 1
			FROM pci_functions g
			WHERE g.bundle_id = f.bundle_id AND (g.lnksta_speed <
					g.lnkcap_speed OR g.lnksta_width <
					g.lnkcap_width OR CAST(g.cur_link_speed
						AS REAL) < CAST(
						g.max_link_speed AS REAL) OR
					g.cur_link_width < g.max_link_width))
		UNION
		SELECT p.bundle_id, p.hca, f.parent_addr, p.depth + 1
		FROM path p
		JOIN pci_functions f ON f.bundle_id = p.bundle_id AND f.addr =
			p.addr
		WHERE f.parent_addr IS NOT NULL AND p.depth < 32), link AS (
			SELECT 1)
	SELECT 1
	FROM path p
	JOIN pci_functions f ON f.bundle_id = p.bundle_id AND f.addr = p.addr
	WHERE p.bundle_id = k.bundle_id AND p.hca = k.device AND ((
				f.lnksta_speed < f.lnkcap_speed) OR (
				f.lnksta_width < f.lnkcap_width)) AND coalesce(
			f.pcie_port_type, '') NOT IN ('Root Port',
			'Downstream Port', 'PCI/PCI-X to PCI-Express Bridge'))
UNION ALL
SELECT m.bundle_id, m.dev, 'PCIe link of HCA ' || m.dev || coalesce(' (' ||
		m.ibdev || ')', '') || ' runs at ' || coalesce(m.speed,
		'unknown speed') || ' x' || coalesce(m.width, '?') ||
	', enabled for ' || coalesce(m.speed_enabled, 'unknown speed') || ' x'
	|| coalesce(m.width_enabled, '?') || ' (mlxlink --port_type PCIE)',
	m.path || char(9) || 'Link Speed Active (Enabled): ' || coalesce(
		m.speed, 'N/A') || ' (' || coalesce(m.speed_enabled, 'N/A') ||
	')' || char(10) || m.path || char(9) || 'Link Width Active (Enabled): '
	|| coalesce(m.width || 'X', 'N/A') || ' (' || coalesce(m.width_enabled
		|| 'X', 'N/A') || ')', NULL
FROM phy_pcie m
JOIN todo_rule t ON t.bundle_id = m.bundle_id
WHERE m.depth = 0 AND ((m.gen > 0 AND m.gen_enabled > 0 AND m.gen <
			m.gen_enabled) OR (m.width > 0 AND m.width_enabled > 0
			AND m.width < m.width_enabled)) AND NOT EXISTS (SELECT
		1
	FROM pci_functions f
	WHERE f.bundle_id = m.bundle_id AND f.addr = m.pci_addr AND (
			f.lnksta_width > 0 OR f.cur_link_width > 0)) AND NOT
	EXISTS (SELECT 1
	FROM klog k
	WHERE k.bundle_id = m.bundle_id AND k.device = m.pci_addr AND
		k.category = 'pcie_bw' AND k.text LIKE
		'%PCIe bandwidth, limited by%' AND k.text NOT LIKE
		'%limited by Unknown%')
