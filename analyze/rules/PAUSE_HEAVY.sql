-- PAUSE_HEAVY: received pause time high relative to the interval or uptime
-- (analyze/rules-perf.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- the pause time in microseconds: the per-priority durations,
-- else the global pause duration; without either, the pause
-- frame count at the largest quanta (65535 x 512 bit times)
-- is an upper bound
-- ethtool_stats.pl: microseconds of pause per second, a
-- 1 s sample from 0
WITH d AS (SELECT c.bundle_id, c.netdev, 'prio' AS how, sum(c.value) AS v, sum(
			c.value2) AS v2, max(c.interval_ms) AS ims,
		group_concat(c.name || ' ' || c.value || coalesce(' -> ' ||
				c.value2, ''), ', ') AS names
	FROM netdev_stats c
	JOIN todo_rule t ON t.bundle_id = c.bundle_id
	WHERE c.source = 'ethtool' AND c.name GLOB
		'rx_prio[0-7]_pause_duration'
	GROUP BY c.bundle_id, c.netdev
	UNION ALL
	SELECT c.bundle_id, c.netdev, 'global', c.value, c.value2,
		c.interval_ms, c.name || ' ' || c.value || coalesce(' -> ' ||
			c.value2, '')
	FROM netdev_stats c
	JOIN todo_rule t ON t.bundle_id = c.bundle_id
	WHERE c.source = 'ethtool' AND c.name = 'rx_global_pause_duration' AND
		NOT EXISTS (SELECT 1
		FROM netdev_stats x
		WHERE x.bundle_id = c.bundle_id AND x.netdev = c.netdev AND
			x.source = 'ethtool' AND x.name GLOB
			'rx_prio[0-7]_pause_duration')
	UNION ALL
	SELECT c.bundle_id, c.netdev, 'frames', CAST(c.value * 65535.0 * 512 /
			(n.speed * 1.0) AS INTEGER), CAST(c.value2 * 65535.0 *
			512 / (n.speed * 1.0) AS INTEGER), c.interval_ms,
		c.name || ' ' || c.value || coalesce(' -> ' || c.value2, '') ||
		' at ' || n.speed || ' Mb/s'
	FROM netdev_stats c
	JOIN todo_rule t ON t.bundle_id = c.bundle_id
	JOIN netdevs n ON n.bundle_id = c.bundle_id AND n.name = c.netdev AND
		n.speed > 0
	WHERE c.source = 'ethtool' AND c.name = 'rx_pause_ctrl_phy' AND c.value
		> 0 AND NOT EXISTS (SELECT 1
		FROM netdev_stats x
		WHERE x.bundle_id = c.bundle_id AND x.netdev = c.netdev AND
			x.source = 'ethtool' AND x.name GLOB
			'rx_prio[0-7]_pause_duration') AND NOT EXISTS (SELECT 1
		FROM netdev_stats x
		WHERE x.bundle_id = c.bundle_id AND x.netdev = c.netdev AND
			x.source = 'ethtool' AND x.name =
			'rx_global_pause_duration')
	UNION ALL
	SELECT c.bundle_id, c.netdev, 'rate', 0, sum(c.value), 1000,
		group_concat(c.name || ' ' || c.value || '/s', ', ')
	FROM netdev_stats c
	JOIN todo_rule t ON t.bundle_id = c.bundle_id
	WHERE c.source = 'ethtool-rate' AND (c.name GLOB
			'rx_prio[0-7]_pause_duration' OR c.name =
			'rx_global_pause_duration')
	GROUP BY c.bundle_id, c.netdev), r AS (SELECT d.*, b.uptime_s, CASE
		WHEN d.v2 IS NOT NULL AND d.ims > 0 AND d.v2 >= d.v THEN (d.v2
			- d.v) / (d.ims * 1000.0) WHEN b.uptime_s > 0 THEN d.v
		/ (b.uptime_s * 1e6) END AS ratio
	FROM d
	JOIN bundles b ON b.id = d.bundle_id)
SELECT r.bundle_id, r.netdev, 'received pause on ' || r.netdev || ' for ' ||
	printf('%.1f', r.ratio * 100) || '% of ' || CASE WHEN r.how = 'rate'
	THEN 'a second at most (ethtool_stats.pl rates)' WHEN r.v2 IS NOT NULL
	AND r.ims > 0 AND r.v2 >= r.v THEN 'the ' || printf('%.1f', r.ims /
		1000.0) || ' s sample' ELSE 'the uptime (' || printf('%.0f',
		r.uptime_s) || ' s)' END || CASE WHEN r.how = 'frames' THEN
	' at most (estimated from the pause frame count at the largest quanta)'
	ELSE '' END || ' (threshold ' || printf('%g', th.value * 100) || '%)',
	'rdma-collect/ethtool/' || r.netdev || '.json' || char(9) || r.names ||
	CASE WHEN r.how = 'rate' THEN '' ELSE char(10) || 'manifest.json' ||
	char(9) || 'uptime_s ' || coalesce(r.uptime_s, '?') END, NULL
FROM r
JOIN thresholds th ON th.name = 'pause_ratio'
WHERE r.ratio > th.value
ORDER BY r.bundle_id, r.netdev
