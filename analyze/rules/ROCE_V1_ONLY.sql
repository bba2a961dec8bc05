-- ROCE_V1_ONLY: a RoCE port has only RoCE v1 GIDs
-- (analyze/rules-verbs.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
SELECT p.bundle_id, p.ibdev || ':' || p.port, 'RoCE port ' || p.ibdev || ':' ||
	p.port || ' has only RoCE v1 GIDs (' || count(g.idx) || ')',
	'sys/class/infiniband/' || p.ibdev || '/ports/' || p.port ||
	'/gid_attrs/types	' || group_concat(g.idx || '=' || coalesce(
			g.type, '?'), '; '), NULL
FROM ports p
JOIN todo_rule t ON t.bundle_id = p.bundle_id
JOIN gids g ON g.bundle_id = p.bundle_id AND g.ibdev = p.ibdev AND g.port =
	p.port
WHERE p.link_layer = 'Ethernet'
GROUP BY p.bundle_id, p.ibdev, p.port
HAVING count(g.idx) > 0 AND sum(g.type = 'RoCE v2') = 0 AND sum(g.type =
		'IB/RoCE v1') > 0
ORDER BY p.bundle_id, p.ibdev, p.port
