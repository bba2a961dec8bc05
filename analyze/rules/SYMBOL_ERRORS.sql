-- SYMBOL_ERRORS: SymbolErrorCounter or LinkErrorRecoveryCounter > 0
-- (analyze/rules-hca.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- one finding per port over the named pma counters read above zero
-- (pma_hits: port.sql, which leaves out a port down on purpose);
-- critical when one grew between the reads
SELECT c.bundle_id, c.ibdev || ':' || c.port, group_concat(c.said, ', ') ||
	' on ' || c.ibdev || ':' || c.port ||
	' (physical bit errors or link retraining; HCA side' ||
	CASE WHEN max(c.peer) THEN ')' ELSE
	': the switch port counters are not in the bundle)' END, group_concat(
		c.line, char(10)), CASE WHEN max(c.grew) THEN 2 END
FROM pma_hits c
JOIN todo_rule t ON t.bundle_id = c.bundle_id
WHERE c.name IN ('symbol_error', 'link_error_recovery')
GROUP BY c.bundle_id, c.ibdev, c.port
ORDER BY c.bundle_id, c.ibdev, c.port
