-- LID_UNASSIGNED: an ACTIVE InfiniBand port with LID 0
-- (analyze/rules-sm.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
SELECT p.bundle_id, p.ibdev || ':' || p.port, 'ACTIVE InfiniBand port ' ||
	p.ibdev || ':' || p.port || ' has LID 0', 'sys/class/infiniband/' ||
	p.ibdev || '/ports/' || p.port || '/lid	' || printf('0x%x', p.lid) ||
	char(10) || 'sys/class/infiniband/' || p.ibdev || '/ports/' || p.port
	|| '/state	' || coalesce(p.state_text, ''), NULL
FROM ports p
JOIN todo_rule t ON t.bundle_id = p.bundle_id
WHERE p.link_layer = 'InfiniBand' AND p.state = 4 AND p.lid = 0
ORDER BY p.bundle_id, p.ibdev, p.port
