-- NCCL_GID_INDEX_BAD: NCCL_IB_GID_INDEX names an empty, RoCE v1 or non-IPv4 GID on a RoCE port
-- (analyze/rules-verbs.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- -1 (auto, NCCL 2.21+) and non-numbers are not checked; only
-- ACTIVE RoCE ports (NCCL_IB_HCA filtering is not applied)
-- where an environment row came from
SELECT e.bundle_id, 'NCCL_IB_GID_INDEX', 'NCCL_IB_GID_INDEX=' || trim(e.value)
	|| ' (' || e.who || ') names ' || group_concat(p.ibdev || ':' || p.port
		|| ' GID ' || CAST(trim(e.value) AS INTEGER) || ' ' || CASE
		WHEN g.gid IS NULL THEN 'empty' WHEN g.type IS NOT 'RoCE v2'
		THEN coalesce(g.type, 'of unknown type') || ' (not RoCE v2)'
		ELSE 'RoCE v2 without an IPv4 address (' || g.gid || ')' END,
		', '), CASE WHEN e.who = 'self' THEN
	'rdma-collect/environ/self.env' WHEN e.who LIKE 'pid:%' THEN
	'rdma-collect/environ/' || substr(e.who, 5) || '.env' WHEN e.who =
	'nccl.conf' THEN 'etc/nccl.conf' ELSE e.who END || char(9) ||
	'NCCL_IB_GID_INDEX=' || e.value || char(10) || group_concat(
		'sys/class/infiniband/' || p.ibdev || '/ports/' || p.port ||
		'/gids/' || CAST(trim(e.value) AS INTEGER) || char(9) ||
		coalesce(g.gid || ' ' || coalesce(g.type, ''), 'empty'), char(
			10)), NULL
FROM environment e
JOIN todo_rule t ON t.bundle_id = e.bundle_id
JOIN ports p ON p.bundle_id = e.bundle_id AND p.link_layer = 'Ethernet' AND
	p.state = 4
LEFT JOIN gids g ON g.bundle_id = p.bundle_id AND g.ibdev = p.ibdev AND g.port
	= p.port AND g.idx = CAST(trim(e.value) AS INTEGER)
WHERE e.name = 'NCCL_IB_GID_INDEX' AND trim(e.value) <> '' AND trim(e.value)
	NOT GLOB '*[^0-9]*' AND (g.gid IS NULL OR g.type IS NOT 'RoCE v2' OR
		g.ipv4 IS NULL)
GROUP BY e.bundle_id, e.who, e.value
ORDER BY e.bundle_id, e.who
