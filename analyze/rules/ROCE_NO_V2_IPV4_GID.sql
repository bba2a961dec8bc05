-- ROCE_NO_V2_IPV4_GID: a RoCE port has no RoCE v2 GID carrying an IPv4 address
-- (analyze/rules-verbs.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
SELECT p.bundle_id, p.ibdev || ':' || p.port, 'RoCE port ' || p.ibdev || ':' ||
	p.port || coalesce(' (' || p.netdev || ')', '') ||
	' has no RoCE v2 GID with an IPv4 address' || CASE WHEN p.state IS NULL
	THEN ' (its state is not in the evidence: critical if it is ACTIVE)'
	ELSE '' END || ' (' || (SELECT count(*)
	FROM gids g
	WHERE g.bundle_id = p.bundle_id AND g.ibdev = p.ibdev AND g.port =
		p.port) || ' GIDs: ' || coalesce((SELECT group_concat(g.idx ||
				' ' || coalesce(g.type, '?') || coalesce(' ' ||
					g.ipv4, ''), ', ')
		FROM gids g
		WHERE g.bundle_id = p.bundle_id AND g.ibdev = p.ibdev AND
			g.port = p.port), 'none') || ')',
	'sys/class/infiniband/' || p.ibdev || '/ports/' || p.port ||
	'/gids	' || coalesce((SELECT group_concat(g.idx || '=' || g.gid || ' '
				|| coalesce(g.type, '?'), '; ')
		FROM gids g
		WHERE g.bundle_id = p.bundle_id AND g.ibdev = p.ibdev AND
			g.port = p.port), 'no non-zero GID'), CASE WHEN p.state
	IS NULL THEN 1 END
FROM ports p
JOIN todo_rule t ON t.bundle_id = p.bundle_id
WHERE p.link_layer = 'Ethernet' AND (p.state = 4 OR p.state IS NULL) AND NOT
	EXISTS (SELECT 1
	FROM gids g
	WHERE g.bundle_id = p.bundle_id AND g.ibdev = p.ibdev AND g.port =
		p.port AND g.type = 'RoCE v2' AND g.ipv4 IS NOT NULL)
ORDER BY p.bundle_id, p.ibdev, p.port
