-- CNP_HEAVY: CNP rates high (sustained congestion that DCQCN is fighting)
-- (analyze/rules-perf.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- how: 'rate' for ethtool_stats.pl's rates (a growth per
-- second already), else NULL
-- LIKE ignores ASCII case, as lower() GLOB did, without
-- lower()'s copy of each of a bundle's ~900 names
WITH c AS (SELECT c.bundle_id, c.ibdev || ':' || c.port AS comp,
		'sys/class/infiniband/' || c.ibdev || '/ports/' || c.port ||
		'/hw_counters/' || c.name AS path, c.name, c.value, c.value2,
		c.interval_ms, NULL AS how
	FROM counters c
	JOIN todo_rule t ON t.bundle_id = c.bundle_id
	WHERE c.kind = 'hw' AND c.name IN ('np_cnp_sent', 'rp_cnp_handled')
	UNION ALL
	SELECT c.bundle_id, c.netdev, 'rdma-collect/ethtool/' || c.netdev ||
		'.json', c.name, c.value, c.value2, c.interval_ms, CASE
		c.source WHEN 'ethtool-rate' THEN 'rate' END
	FROM netdev_stats c
	JOIN todo_rule t ON t.bundle_id = c.bundle_id
	WHERE c.source IN ('ethtool', 'ethtool-rate') AND (c.name LIKE
			'rx\_%cnp%' ESCAPE '\' OR c.name LIKE 'tx\_%cnp%'
			ESCAPE '\') AND c.name NOT LIKE '%ignored%'), r AS (
		SELECT c.*, b.uptime_s, CASE WHEN c.how = 'rate' THEN c.value
		WHEN c.value2 IS NOT NULL AND c.interval_ms > 0 AND c.value2 >=
		c.value THEN (c.value2 - c.value) * 1000.0 / c.interval_ms WHEN
		b.uptime_s > 0 THEN c.value / b.uptime_s END AS rate
	FROM c
	JOIN bundles b ON b.id = c.bundle_id)
SELECT r.bundle_id, r.comp, group_concat(r.name || ' ' || printf('%.0f', r.rate
			) || '/s', ', ') || ' on ' || r.comp || ' over ' ||
	CASE WHEN max(r.how) = 'rate' THEN
	'a second at most (ethtool_stats.pl rates)' WHEN max(r.value2) IS NOT
	NULL AND max(r.interval_ms) > 0 THEN 'the ' || printf('%.1f', max(
			r.interval_ms) / 1000.0) || ' s sample' ELSE
	'the uptime' END || ' (threshold ' || printf('%g', th.value) || '/s)',
	group_concat(r.path || char(9) || CASE WHEN r.how = 'rate' THEN
		'rates: ' || r.name || ' ' || r.value ||
		'/s (ethtool_stats.pl)' ELSE r.name || ' ' || r.value ||
		coalesce(' -> ' || r.value2, '') END, char(10)), NULL
FROM r
JOIN thresholds th ON th.name = 'cnp_per_s'
WHERE r.rate > th.value
GROUP BY r.bundle_id, r.comp
ORDER BY r.bundle_id, r.comp
