-- PFC_DISABLED: a RoCE port's netdev has PFC on no priority
-- (analyze/rules-perf.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- a port known only from ibdev2netdev: its netdev has
-- DCB (so Ethernet: IPoIB has none) and carrier (a RoCE
-- port is ACTIVE when its netdev's link is up)
SELECT p.bundle_id, f.netdev, 'PFC is enabled on no priority of ' || f.netdev
	|| ' (RoCE port ' || p.ibdev || ':' || p.port || ', pfc_cap ' ||
	coalesce(f.pfc_cap, '?') || ', trust ' || coalesce(f.trust, '?') || ')'
	, 'rdma-collect/dcb/' || f.netdev || '.json	pfc_en ' || f.pfc_en ||
	' (prio-pfc all off)', NULL
FROM ports p
JOIN todo_rule t ON t.bundle_id = p.bundle_id
JOIN pfc f ON f.bundle_id = p.bundle_id AND f.netdev = p.netdev
WHERE p.link_layer = 'Ethernet' AND p.state = 4 AND f.status = 'ok' AND
	f.pfc_en = 0
UNION ALL
SELECT n.bundle_id, f.netdev, 'PFC is enabled on no priority of ' || f.netdev
	|| ' (RoCE port ' || n.ibdev || ':' || n.port ||
	' by ibdev2netdev, link up, pfc_cap ' || coalesce(f.pfc_cap, '?') ||
	', trust ' || coalesce(f.trust, '?') || ')', 'rdma-collect/dcb/' ||
	f.netdev || '.json	pfc_en ' || f.pfc_en || ' (prio-pfc all off)'
	|| char(10) || 'rdma-collect/ibdev2netdev.json	' || n.ibdev ||
	' port ' || n.port || ' ==> ' || n.name || ' (Up)', NULL
FROM netdevs n
JOIN todo_rule t ON t.bundle_id = n.bundle_id
JOIN pfc f ON f.bundle_id = n.bundle_id AND f.netdev = n.name
WHERE n.ibdev IS NOT NULL AND n.carrier = 1 AND f.status = 'ok' AND f.pfc_en =
	0 AND NOT EXISTS (SELECT 1
	FROM ports x
	WHERE x.bundle_id = n.bundle_id AND x.ibdev = n.ibdev AND x.port =
		n.port)
ORDER BY 1, 2
