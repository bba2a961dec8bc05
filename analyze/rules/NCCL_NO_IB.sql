-- NCCL_NO_IB: NCCL found no IB device or fell back to sockets while RDMA ports are ACTIVE
-- (analyze/rules-app.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
SELECT a.bundle_id, 'nccl', 'NCCL ' || CASE WHEN a.nodev THEN
	'found no IB device' ELSE 'fell back to sockets' END || ' (' || substr(
		a.attachment, 21) || ') while ' || (SELECT count(*)
	FROM ports p
	WHERE p.bundle_id = a.bundle_id AND p.state = 4) ||
	' RDMA port(s) are ACTIVE', a.attachment || char(9) || 'line ' ||
	a.line || ': ' || (SELECT x.text
	FROM nccl_events x
	WHERE x.bundle_id = a.bundle_id AND x.attachment = a.attachment AND
		x.line = a.line
	LIMIT 1) || char(10) || 'sys/class/infiniband' || char(9) || 'ACTIVE: '
	|| (SELECT group_concat(p.ibdev || ':' || p.port, ' ')
	FROM ports p
	WHERE p.bundle_id = a.bundle_id AND p.state = 4), NULL
FROM (SELECT e.bundle_id, e.attachment, min(e.line) AS line, max(e.kind =
			'ib_nodev') AS nodev
	FROM nccl_events e
	JOIN todo_rule t ON t.bundle_id = e.bundle_id
	WHERE e.kind = 'ib_nodev' OR (e.kind = 'net_using' AND e.net = 'Socket'
			) OR (e.kind = 'socket_using' AND NOT EXISTS (SELECT 1
			FROM nccl_events i
			WHERE i.bundle_id = e.bundle_id AND i.attachment =
				e.attachment AND (i.kind = 'ib_using' OR (
						i.kind = 'net_using' AND i.net
						LIKE 'IB%'))))
	GROUP BY e.bundle_id, e.attachment) a
WHERE EXISTS (SELECT 1
	FROM ports p
	WHERE p.bundle_id = a.bundle_id AND p.state = 4)
