-- PAUSE_STORM: pause storm warning or error events
-- (analyze/rules-perf.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- older drivers (MOFED 4.3-4.6) name the warning counter with a
-- trailing space
SELECT c.bundle_id, c.netdev, 'pause storm on ' || c.netdev || ': ' ||
	group_concat(rtrim(c.name) || ' ' || CASE c.source WHEN 'ethtool-rate'
		THEN 'growing at up to ' || c.value || '/s' ELSE coalesce(
			c.value2, c.value) END, ', '), group_concat(
		'rdma-collect/ethtool/' || c.netdev || '.json' || char(9) ||
		CASE c.source WHEN 'ethtool-rate' THEN 'rates: ' || c.name ||
		' ' || c.value || '/s (ethtool_stats.pl)' ELSE c.name || ' ' ||
		coalesce(c.value2, c.value) END, char(10)), NULL
FROM netdev_stats c
JOIN todo_rule t ON t.bundle_id = c.bundle_id
WHERE c.source IN ('ethtool', 'ethtool-rate') AND c.name IN (
		'tx_pause_storm_warning_events',
		'tx_pause_storm_warning_events ', 'tx_pause_storm_error_events'
		) AND coalesce(c.value2, c.value) > 0
GROUP BY c.bundle_id, c.netdev
ORDER BY c.bundle_id, c.netdev
