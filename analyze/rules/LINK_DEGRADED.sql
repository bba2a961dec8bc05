-- LINK_DEGRADED: active link width or speed below what both ends support and enable
-- (analyze/rules-hca.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- speeds in order; the HCA types' best InfiniBand speed (hca_type is MT +
-- the PCI device id in decimal: hca_type_show() of the kernel's
-- drivers/infiniband/hw/mlx5/main.c); Ethernet-only parts are absent.
-- CROSS JOIN: the 14 HCA types after the ports, not around them (the
-- planner put the small table outside and read every bundle's ports 14
-- times).  A port a fabric scan shows with both ends is left to
-- fabric_link_degraded() (rules-hca.c).
WITH hca(hca_type, name, best) AS (VALUES ('MT4113', 'Connect-IB', 'FDR'), (
			'MT4115', 'ConnectX-4', 'EDR'), ('MT4116',
			'ConnectX-4 VF', 'EDR'), ('MT4119', 'ConnectX-5', 'EDR'
			), ('MT4120', 'ConnectX-5 VF', 'EDR'), ('MT4121',
			'ConnectX-5 Ex', 'EDR'), ('MT4122', 'ConnectX-5 Ex VF',
			'EDR'), ('MT4123', 'ConnectX-6', 'HDR'), ('MT4124',
			'ConnectX-6 VF', 'HDR'), ('MT4129', 'ConnectX-7', 'NDR'
			), ('MT4131', 'ConnectX-8', 'XDR'), ('MT41682',
			'BlueField', 'EDR'), ('MT41692', 'BlueField-3', 'NDR'),
		('MT41695', 'BlueField-4', 'XDR')), q AS (SELECT p.bundle_id,
		p.ibdev, p.port, p.rate, h.name, h.best, coalesce(nullif(
				p.width, 0), CASE a.active_width WHEN 1 THEN 1
			WHEN 2 THEN 4 WHEN 4 THEN 8 WHEN 8 THEN 12 WHEN 16 THEN
			2 END) AS w, coalesce(p.speed, CASE a.active_speed_ex
			WHEN 256 THEN 'XDR' ELSE CASE a.active_speed WHEN 1
			THEN 'SDR' WHEN 2 THEN 'DDR' WHEN 4 THEN 'QDR' WHEN 8
			THEN 'FDR10' WHEN 16 THEN 'FDR' WHEN 32 THEN 'EDR' WHEN
			64 THEN 'HDR' WHEN 128 THEN 'NDR' END END) AS s, (
			SELECT ',' || replace(replace(replace(x.enabled_speeds,
						'(', ','), ')', ','), ' ', '')
			|| ','
		FROM phy x
		WHERE x.bundle_id = p.bundle_id AND x.ibdev = p.ibdev AND
			x.port = p.port
		LIMIT 1) AS en, (SELECT ',' || replace(replace(replace(
						x.cable_speeds, '(', ','), ')',
					','), ' ', '') || ','
		FROM phy x
		WHERE x.bundle_id = p.bundle_id AND x.ibdev = p.ibdev AND
			x.port = p.port
		LIMIT 1) AS cab, (SELECT x.path || char(9) ||
			'Enabled Link Speed ' || coalesce(x.enabled_speeds,
				'N/A') || '; Supported Cable Speed ' ||
			coalesce(x.cable_speeds, 'N/A')
		FROM phy x
		WHERE x.bundle_id = p.bundle_id AND x.ibdev = p.ibdev AND
			x.port = p.port
		LIMIT 1) AS mlx, a.active_width AS aw, a.active_speed AS asp
	FROM ports p
	JOIN todo_rule t ON t.bundle_id = p.bundle_id
	JOIN devices d ON d.bundle_id = p.bundle_id AND d.ibdev = p.ibdev
	CROSS JOIN hca h ON h.hca_type = d.hca_type
	LEFT JOIN link_active a ON a.bundle_id = p.bundle_id AND a.ibdev =
		p.ibdev AND a.port = p.port
	WHERE p.link_layer = 'InfiniBand' AND p.state = 4 AND NOT EXISTS (
			SELECT 1
		FROM mad_portinfo m
		WHERE m.bundle_id = p.bundle_id AND m.ibdev = p.ibdev AND
			m.port = p.port AND m.side = 'peer' AND
			m.width_supported IS NOT NULL) AND NOT EXISTS (SELECT 1
		FROM fabric_ports f
		JOIN fabric_ports z ON z.bundle_id = f.bundle_id AND z.guid =
			f.remote_guid AND z.port = f.remote_port
		WHERE f.bundle_id = p.bundle_id AND f.guid = '0x' || replace(
				d.node_guid, ':', '') AND f.port = p.port AND
			f.width_supported IS NOT NULL AND z.width_supported IS
			NOT NULL AND f.width_enabled IS NOT NULL AND
			z.width_enabled IS NOT NULL))
SELECT bundle_id, ibdev || ':' || port, 'link of ' || ibdev || ':' || port ||
	' runs ' || w || 'X ' || s || ' but the ' || name || ' does 4X ' ||
	best || CASE WHEN w >= 4 AND NOT (instr(en, ',' || best || ',') AND
		instr(cab, ',' || best || ',')) THEN
	' (whether the switch port and the cable support and enable ' || best
	|| ' is not in the bundle: needs MAD PortInfo or mlxlink)' ELSE '' END,
	'sys/class/infiniband/' || ibdev || '/ports/' || port || '/rate' ||
	char(9) || coalesce(rate, '') || char(10) || 'rdma-collect/verbs/' ||
	ibdev || '.json' || char(9) || 'active_width ' || coalesce(aw, '?') ||
	', active_speed ' || coalesce(asp, '?') || coalesce(char(10) || mlx, ''
		), CASE WHEN w < 4 THEN 2 WHEN instr(en, ',' || best || ',')
	AND instr(cab, ',' || best || ',') THEN 2 ELSE 1 END
FROM q
WHERE w < 4 OR CASE s WHEN 'SDR' THEN 1 WHEN 'DDR' THEN 2 WHEN 'QDR' THEN 3
	WHEN 'FDR10' THEN 4 WHEN 'FDR' THEN 5 WHEN 'EDR' THEN 6 WHEN 'HDR' THEN
	7 WHEN 'NDR' THEN 8 WHEN 'XDR' THEN 9 END < CASE best WHEN 'SDR' THEN 1
	WHEN 'DDR' THEN 2 WHEN 'QDR' THEN 3 WHEN 'FDR10' THEN 4 WHEN 'FDR' THEN
	5 WHEN 'EDR' THEN 6 WHEN 'HDR' THEN 7 WHEN 'NDR' THEN 8 WHEN 'XDR' THEN
	9 END
ORDER BY bundle_id, ibdev, port
