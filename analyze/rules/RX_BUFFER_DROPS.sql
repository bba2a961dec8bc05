-- RX_BUFFER_DROPS: receive buffer or port discards
-- (analyze/rules-perf.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- ethtool -S (once, or twice with --sample) and the rates of
-- an imported ethtool_stats.pl: growing while it watched
-- growth of a counter row c over its interval; NULL when read once
WITH c AS (SELECT c.bundle_id, c.netdev, c.name || ' ' || c.value || CASE WHEN
		(c.value2 IS NOT NULL AND c.value2 > c.value) THEN ' (+' || (
			c.value2 - c.value) || ' in ' || printf('%.1f',
			c.interval_ms / 1000.0) || ' s)' ELSE '' END AS t,
		'rdma-collect/ethtool/' || c.netdev || '.json' || char(9) ||
		c.name || ' ' || c.value || coalesce(' -> ' || c.value2, '') AS
		ev, (c.value2 IS NOT NULL AND c.value2 = c.value) AS st
	FROM netdev_stats c
	JOIN todo_rule t ON t.bundle_id = c.bundle_id
	WHERE c.source = 'ethtool' AND c.name IN ('rx_out_of_buffer',
			'rx_discards_phy', 'tx_discards_phy') AND (c.value > 0
			OR c.value2 > 0)
	UNION ALL
	SELECT c.bundle_id, c.netdev, c.name || ' growing at up to ' || c.value
		|| '/s', 'rdma-collect/ethtool/' || c.netdev || '.json' || char
		(9) || 'rates: ' || c.name || ' ' || c.value ||
		'/s (ethtool_stats.pl)', 0
	FROM netdev_stats c
	JOIN todo_rule t ON t.bundle_id = c.bundle_id
	WHERE c.source = 'ethtool-rate' AND c.name IN ('rx_out_of_buffer',
			'rx_discards_phy', 'tx_discards_phy') AND c.value > 0)
SELECT bundle_id, netdev, 'drops on ' || netdev || ': ' || group_concat(t, ', '
		) || CASE WHEN min(st) = 1 THEN
	' (since boot; not growing during the sample)' ELSE '' END,
	group_concat(ev, char(10)), CASE WHEN min(st) = 1 THEN 0 ELSE NULL END
FROM c
GROUP BY bundle_id, netdev
ORDER BY bundle_id, netdev
