-- HCA_MISSING: fewer RDMA devices or Mellanox/NVIDIA network PCI functions than expected
-- (analyze/rules-pci.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- a ConnectX without RDMA device on a node whose RDMA devices
-- are all of another driver (bnxt_re, efa ...) is an Ethernet
-- NIC there, not a missing HCA: info
-- no PCI functions read (a pasted dmesg and ibstatus):
-- the kernel log's probe lines name the ConnectX
-- functions; with no RDMA device at all, none of them
-- has one (with some, which is whose is not known)
-- the node of pci_functions f has RDMA devices and none is an mlx5 one
-- the bundle file a klog row k came from
SELECT f.bundle_id, f.addr, 'PCI function ' || f.addr || ' (' || printf(
		'%04x:%04x', f.vendor, f.device) || ', driver ' || coalesce(
		f.driver, 'none') || ') has no RDMA device' || CASE WHEN (
		EXISTS (SELECT 1
		FROM devices d
		WHERE d.bundle_id = f.bundle_id) AND NOT EXISTS (SELECT 1
		FROM devices d
		WHERE d.bundle_id = f.bundle_id AND (d.ibdev LIKE 'mlx5!_%'
				ESCAPE '!' OR d.hca_type GLOB 'MT4[0-9]*' OR
				d.pci_addr IN (SELECT g.addr
				FROM pci_functions g
				WHERE g.bundle_id = f.bundle_id AND g.vendor =
					0x15b3)))) THEN
	'; the RDMA devices of this node are of another driver (' || (SELECT
		group_concat(d.ibdev, ' ')
	FROM devices d
	WHERE d.bundle_id = f.bundle_id) || '): an Ethernet NIC here' ELSE ''
	END, 'sys/bus/pci/devices/' || f.addr || char(9) || printf(
		'vendor 0x%04x device 0x%04x class 0x%06x', f.vendor, f.device,
		f.class) || char(10) || 'sys/class/infiniband' || char(9) ||
	coalesce((SELECT group_concat(d.ibdev, ' ')
		FROM devices d
		WHERE d.bundle_id = f.bundle_id), 'empty'), CASE WHEN (EXISTS (
			SELECT 1
		FROM devices d
		WHERE d.bundle_id = f.bundle_id) AND NOT EXISTS (SELECT 1
		FROM devices d
		WHERE d.bundle_id = f.bundle_id AND (d.ibdev LIKE 'mlx5!_%'
				ESCAPE '!' OR d.hca_type GLOB 'MT4[0-9]*' OR
				d.pci_addr IN (SELECT g.addr
				FROM pci_functions g
				WHERE g.bundle_id = f.bundle_id AND g.vendor =
					0x15b3)))) THEN 0 END
FROM pci_functions f
JOIN todo_rule t ON t.bundle_id = f.bundle_id
WHERE f.kind = 'hca' AND f.ibdev IS NULL AND (f.class >> 8) IN (0x0200, 0x0207
		)
UNION ALL
SELECT k.bundle_id, k.device, 'ConnectX function ' || k.device ||
	' was probed (the kernel log) but the node has no RDMA device', CASE
	WHEN k.seq IS NULL THEN 'rdma-collect/klog/syslog.txt' ELSE
	'rdma-collect/klog/kmsg.txt' END || char(9) || k.text || char(10) ||
	'sys/class/infiniband' || char(9) || 'empty', NULL
FROM klog k
JOIN todo_rule t ON t.bundle_id = k.bundle_id
WHERE k.device IS NOT NULL AND (k.text LIKE 'mlx5!_core %' ESCAPE '!' OR k.text
		LIKE 'mlx4!_core %' ESCAPE '!' OR k.text LIKE 'mlx4!_en %'
		ESCAPE '!') AND k.rowid = (SELECT min(x.rowid)
	FROM klog x
	WHERE x.bundle_id = k.bundle_id AND x.device = k.device) AND NOT EXISTS
	(SELECT 1
	FROM pci_functions h
	WHERE h.bundle_id = k.bundle_id AND h.kind = 'hca') AND NOT EXISTS (
		SELECT 1
	FROM devices d
	WHERE d.bundle_id = k.bundle_id)
UNION ALL
SELECT t.bundle_id, 'node', (SELECT count(*)
	FROM devices d
	WHERE d.bundle_id = t.bundle_id AND d.pci_addr IS NOT NULL) ||
	' RDMA device(s), ' || (SELECT CAST(value AS INTEGER)
	FROM thresholds
	WHERE name = 'expect_hcas') || ' expected (--expect-hcas)',
	'sys/class/infiniband' || char(9) || coalesce((SELECT group_concat(
				d.ibdev, ' ')
		FROM devices d
		WHERE d.bundle_id = t.bundle_id), 'empty'), NULL
FROM todo_rule t
WHERE (SELECT value
	FROM thresholds
	WHERE name = 'expect_hcas') > 0 AND (SELECT count(*)
	FROM devices d
	WHERE d.bundle_id = t.bundle_id AND d.pci_addr IS NOT NULL) < (SELECT
		value
	FROM thresholds
	WHERE name = 'expect_hcas')
