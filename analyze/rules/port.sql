-- port: whether a port that is not ACTIVE is down on purpose or should be
-- up, as two temporary views over ports that the rules runner creates
-- before the rules (rules.c); PORT_DOWN reads port_facts, the
-- physical-layer rules that never judge a port down on purpose read
-- port_judged.on_purpose.  The conventions (schema/REPORT.md):
--
--   down on purpose   Disabled on InfiniBand (administratively down), or
--                     no cable or module: the last "Port module event:
--                     module N, ..." line of the port's PCI function says
--                     "Cable unplugged" (at boot, a cage without a module
--                     logs it and no plug follows)
--   RoCE Disabled     the RoCE drivers (mlx4, mlx5, bnxt_re, irdma,
--                     ocrdma, qedr, mana: their query_port) report
--                     DOWN/Disabled whenever the netdev is not running
--                     with carrier: set down and unplugged alike, so
--                     Disabled on Ethernet proves nothing.  It should be up
--                     after a module error event, while most of the node's
--                     other ports of the same HCA type are Active (identical
--                     rails), or while the class's majority has it Active;
--                     else, as Polling with nothing saying, info
--   should be up      Polling (enabled, no link partner) with a cable
--                     plugged (the last module line says so), after a
--                     module error event (cable_module), while the other
--                     ports of the node with the same link layer are
--                     Active, or while the same port is Active on the
--                     majority of the other nodes of its class (same
--                     device name and port, HCA type and link layer; at
--                     least fleet_min_nodes nodes, among the bundles in
--                     the database)
--   nothing says      Polling and none of the above: info, as if on
--                     purpose (a port nobody cabled)
--
-- Each column is computed only where a query reads it (the views are
-- flattened into the queries that use them).
CREATE TEMP VIEW IF NOT EXISTS port_facts AS
SELECT p.bundle_id, p.ibdev, p.port, p.state, p.phys_state,
	-- the PCI function of the port's device (NULL for rxe, siw)
	(SELECT x.pci_addr
		FROM devices x
		WHERE x.bundle_id = p.bundle_id AND x.ibdev = p.ibdev AND x.pci_addr IS
			NOT NULL
		UNION ALL
		SELECT y.pci_addr
		FROM ibdev_pci y
		WHERE y.bundle_id = p.bundle_id AND y.ibdev = p.ibdev
		LIMIT 1) AS pci,
	-- 'plugged' or 'unplugged': the last module plug line of the port's
	-- function; NULL when the log has none
	(SELECT CASE WHEN k.text LIKE '%Cable unplugged%' THEN 'unplugged' ELSE
			'plugged' END
		FROM klog k
		WHERE k.bundle_id = p.bundle_id AND k.category IN ('probe', 'link_flap'
				) AND k.device = (SELECT x.pci_addr
			FROM devices x
			WHERE x.bundle_id = p.bundle_id AND x.ibdev = p.ibdev AND
				x.pci_addr IS NOT NULL
			UNION ALL
			SELECT y.pci_addr
			FROM ibdev_pci y
			WHERE y.bundle_id = p.bundle_id AND y.ibdev = p.ibdev
			LIMIT 1) AND k.text LIKE '%Port module event%' AND (k.text LIKE
				'%Cable plugged%' OR k.text LIKE '%Cable unplugged%')
		ORDER BY k.rowid DESC
		LIMIT 1) AS module,
	-- a module error event (CABLE_MODULE_ERROR's lines) on the function
	EXISTS (SELECT 1
		FROM klog k
		WHERE k.bundle_id = p.bundle_id AND k.category = 'cable_module' AND
			k.device = (SELECT x.pci_addr
			FROM devices x
			WHERE x.bundle_id = p.bundle_id AND x.ibdev = p.ibdev AND
				x.pci_addr IS NOT NULL
			UNION ALL
			SELECT y.pci_addr
			FROM ibdev_pci y
			WHERE y.bundle_id = p.bundle_id AND y.ibdev = p.ibdev
			LIMIT 1)) AS moderr,
	-- how many other ports of the node with the same link layer are Active
	(SELECT count(*)
		FROM ports s
		WHERE s.bundle_id = p.bundle_id AND NOT (s.ibdev = p.ibdev AND s.port =
				p.port) AND s.state = 4 AND s.link_layer IS
			p.link_layer) AS sib,
	-- "active/others": the node's other ports of the same HCA type and
	-- link layer, when more than half of them are Active, else NULL
	(SELECT CASE WHEN 2 * sum(s.state = 4) > count(*) THEN sum(s.state = 4) || '/'
			|| count(*) END
		FROM ports s
		LEFT JOIN devices sd ON sd.bundle_id = s.bundle_id AND sd.ibdev =
			s.ibdev
		WHERE s.bundle_id = p.bundle_id AND NOT (s.ibdev = p.ibdev AND s.port =
				p.port) AND s.link_layer IS p.link_layer AND
			sd.hca_type IS (SELECT hca_type
			FROM devices
			WHERE bundle_id = p.bundle_id AND ibdev = p.ibdev)) AS cls,
	-- Disabled on an Ethernet (RoCE) port: the netdev down or without
	-- carrier, not a port disabled on purpose
	(p.phys_state = 3 AND p.link_layer IS 'Ethernet') AS rdis,
	-- "active/nodes" of the same port on the other nodes of its class when
	-- their majority has it Active, else NULL
	(SELECT CASE WHEN count(DISTINCT b2.node_id) >= coalesce((SELECT value
				FROM thresholds
				WHERE name = 'fleet_min_nodes'), 3) AND 2 * count(
				DISTINCT CASE WHEN o.state = 4 THEN b2.node_id END) >
			count(DISTINCT b2.node_id) THEN count(DISTINCT CASE WHEN
				o.state = 4 THEN b2.node_id END) || '/' || count(
				DISTINCT b2.node_id) END
		FROM ports o
		JOIN bundles b2 ON b2.id = o.bundle_id
		JOIN devices od ON od.bundle_id = o.bundle_id AND od.ibdev = o.ibdev
		WHERE o.ibdev = p.ibdev AND o.port = p.port AND o.link_layer IS
			p.link_layer AND od.hca_type IS (SELECT hca_type
			FROM devices
			WHERE bundle_id = p.bundle_id AND ibdev = p.ibdev) AND
			b2.node_id <> (SELECT node_id
			FROM bundles
			WHERE id = p.bundle_id)) AS fleet,
	-- an SR-IOV virtual function's port (Mellanox VF device ids, or the HCA
	-- types of VFs: MT + the device id in decimal)
	(EXISTS (SELECT 1
			FROM pci_functions f
			WHERE f.bundle_id = p.bundle_id AND f.addr = (SELECT x.pci_addr
				FROM devices x
				WHERE x.bundle_id = p.bundle_id AND x.ibdev = p.ibdev
					AND x.pci_addr IS NOT NULL
				UNION ALL
				SELECT y.pci_addr
				FROM ibdev_pci y
				WHERE y.bundle_id = p.bundle_id AND y.ibdev = p.ibdev
				LIMIT 1) AND f.vendor = 0x15b3 AND f.device IN (0x1012,
					0x1014, 0x1016, 0x1018, 0x101a, 0x101c, 0x101e)
				) OR EXISTS (SELECT 1
			FROM devices v
			WHERE v.bundle_id = p.bundle_id AND v.ibdev = p.ibdev AND
				v.hca_type IN ('MT4114', 'MT4116', 'MT4118', 'MT4120',
					'MT4122', 'MT4124', 'MT4126'))) AS vf
FROM ports p;

-- the port is down on purpose (or nothing says it should be up): 1; an
-- ACTIVE port, a port in INIT, one that should be up: 0
CREATE TEMP VIEW IF NOT EXISTS port_judged AS
SELECT f.*, CASE
	WHEN (f.state = 4 AND f.phys_state = 5) OR f.state = 2 THEN 0
	WHEN f.phys_state = 3 AND NOT f.rdis THEN 1
	WHEN f.module IS 'unplugged' THEN 1
	WHEN f.rdis THEN CASE WHEN f.moderr OR f.cls IS NOT NULL OR
		f.fleet IS NOT NULL THEN 0 ELSE 1 END
	WHEN f.phys_state = 2 AND f.state = 1 THEN CASE WHEN
		f.module IS 'plugged' OR f.moderr OR f.sib > 0 OR
		f.fleet IS NOT NULL THEN 0 ELSE 1 END
	ELSE 0 END AS on_purpose
FROM port_facts f;

-- pma_hits: the HCA-side PortCounters (kind 'pma') of a port that read above
-- zero on either read, a port down on purpose left out (port_judged), with
-- what SYMBOL_ERRORS, PORT_RCV_ERRORS and XMIT_DISCARDS print of each:
-- said ("name value[ -> value2 in N ms]"), line (the evidence line), grew
-- (the second read above the first) and peer (the bundle holds the peer
-- switch port's counters)
CREATE TEMP VIEW IF NOT EXISTS pma_hits AS
SELECT c.bundle_id, c.ibdev, c.port, c.name, c.name || ' ' || c.value ||
	CASE WHEN c.value2 > c.value THEN ' -> ' || c.value2 || ' in ' ||
		c.interval_ms || ' ms' ELSE '' END AS said, c.path || char(9) ||
	c.value || CASE WHEN c.value2 IS NOT NULL THEN ' (second read ' ||
		c.value2 || ' after ' || c.interval_ms || ' ms)' ELSE '' END AS
	line, c.value2 > c.value AS grew, EXISTS (SELECT 1
		FROM mad_counters x
		WHERE x.bundle_id = c.bundle_id AND x.ibdev = c.ibdev AND x.port =
			c.port AND x.side = 'peer') AS peer
FROM counters c
WHERE c.kind = 'pma' AND max(c.value, coalesce(c.value2, 0)) > 0 AND NOT
	coalesce((SELECT j.on_purpose
		FROM port_judged j
		WHERE j.bundle_id = c.bundle_id AND j.ibdev = c.ibdev AND
			j.port = c.port), 0);
