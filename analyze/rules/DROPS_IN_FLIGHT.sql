-- DROPS_IN_FLIGHT: packets lost in flight (sequence errors, timeouts)
-- (analyze/rules-perf.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- growth of a counter row c over its interval; NULL when read once
SELECT c.bundle_id, c.ibdev || ':' || c.port, 'packets lost in flight on ' ||
	c.ibdev || ':' || c.port || ' (' || coalesce(p.link_layer, '?') ||
	'): ' || group_concat(c.name || ' ' || c.value || CASE WHEN (c.value2
			IS NOT NULL AND c.value2 > c.value) THEN ' (+' || (
			c.value2 - c.value) || ' in ' || printf('%.1f',
			c.interval_ms / 1000.0) || ' s)' ELSE '' END, ', ') ||
	CASE WHEN p.link_layer = 'Ethernet' THEN
	'; on RoCE: PFC misconfigured or buffers overflowing on the path' ELSE
	'; on InfiniBand: a bad link' END || CASE WHEN min((c.value2 IS NOT
			NULL AND c.value2 = c.value)) = 1 THEN
	' (since boot; not growing during the sample)' ELSE '' END,
	group_concat('sys/class/infiniband/' || c.ibdev || '/ports/' || c.port
		|| '/hw_counters/' || c.name || char(9) || c.value || coalesce(
			' -> ' || c.value2, ''), char(10)), CASE WHEN min((
			c.value2 IS NOT NULL AND c.value2 = c.value)) = 1 THEN
	0 ELSE NULL END
FROM counters c
JOIN todo_rule t ON t.bundle_id = c.bundle_id
LEFT JOIN ports p ON p.bundle_id = c.bundle_id AND p.ibdev = c.ibdev AND p.port
	= c.port
WHERE c.kind = 'hw' AND c.name IN ('out_of_sequence', 'duplicate_request',
		'packet_seq_err', 'implied_nak_seq_err',
		'local_ack_timeout_err') AND (c.value > 0 OR c.value2 > 0)
GROUP BY c.bundle_id, c.ibdev, c.port
ORDER BY c.bundle_id, c.ibdev, c.port
