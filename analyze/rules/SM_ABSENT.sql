-- SM_ABSENT: no subnet manager: IB port stuck in INIT or sm_lid 0
-- (analyze/rules-sm.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
SELECT p.bundle_id, p.ibdev || ':' || p.port, CASE WHEN p.state = 2 THEN
	'InfiniBand port ' || p.ibdev || ':' || p.port ||
	' is stuck in INIT (physical state ' || coalesce(p.phys_state_text, '?'
		) || '): no subnet manager has configured it' ELSE
	'InfiniBand port ' || p.ibdev || ':' || p.port || ' is ' || coalesce(
		p.state_text, '?') ||
	' with SM LID 0: no subnet manager is known' END,
	'sys/class/infiniband/' || p.ibdev || '/ports/' || p.port ||
	'/state	' || coalesce(p.state_text, '') || char(10) ||
	'sys/class/infiniband/' || p.ibdev || '/ports/' || p.port ||
	'/sm_lid	' || printf('0x%x', p.sm_lid), NULL
FROM ports p
JOIN todo_rule t ON t.bundle_id = p.bundle_id
WHERE p.link_layer = 'InfiniBand' AND (p.state = 2 OR (p.state = 4 AND p.sm_lid
			= 0))
ORDER BY p.bundle_id, p.ibdev, p.port
