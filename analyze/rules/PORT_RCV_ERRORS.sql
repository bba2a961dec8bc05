-- PORT_RCV_ERRORS: PortRcvErrors, remote physical, local link integrity or buffer overrun errors > 0
-- (analyze/rules-hca.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- one finding per port over the named pma counters with a value > 0 on
-- either read; severity column: critical when one grew between the reads
-- (SYMBOL_ERRORS), else the rule's; a port down on purpose is not judged
-- (port_judged: port.sql)
SELECT c.bundle_id, c.ibdev || ':' || c.port, group_concat(c.name || ' ' ||
		c.value || CASE WHEN c.value2 > c.value THEN ' -> ' || c.value2
		|| ' in ' || c.interval_ms || ' ms' ELSE '' END, ', ') ||
	' on ' || c.ibdev || ':' || c.port ||
	' (received packets discarded as bad; HCA side' || CASE WHEN EXISTS (
		SELECT 1
	FROM mad_counters x
	WHERE x.bundle_id = c.bundle_id AND x.ibdev = c.ibdev AND x.port =
		c.port AND x.side = 'peer') THEN ')' ELSE
	': the switch port counters are not in the bundle)' END, group_concat(
		c.path || char(9) || c.value || CASE WHEN c.value2 IS NOT NULL
		THEN ' (second read ' || c.value2 || ' after ' || c.interval_ms
		|| ' ms)' ELSE '' END, char(10)), CASE WHEN 0 AND max(c.value2
		> c.value) THEN 2 ELSE NULL END
FROM counters c
JOIN todo_rule t ON t.bundle_id = c.bundle_id
WHERE c.kind = 'pma' AND c.name IN ('port_rcv_errors',
		'port_rcv_remote_physical_errors',
		'local_link_integrity_errors',
		'excessive_buffer_overrun_errors') AND max(c.value, coalesce(
			c.value2, 0)) > 0 AND NOT coalesce((SELECT j.on_purpose
		FROM port_judged j
		WHERE j.bundle_id = c.bundle_id AND j.ibdev = c.ibdev AND
			j.port = c.port), 0)
GROUP BY c.bundle_id, c.ibdev, c.port
ORDER BY c.bundle_id, c.ibdev, c.port
