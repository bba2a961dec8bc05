-- XMIT_WAIT_HIGH: PortXmitWait high relative to PortXmitData
-- (analyze/rules-hca.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- a port down on purpose is not judged (port_judged: port.sql)
WITH x AS (SELECT w.bundle_id, w.ibdev, w.port, w.value AS w1, w.value2 AS w2,
		d.value AS d1, d.value2 AS d2, w.interval_ms AS ms, w.path AS
		wp, d.path AS dp, (SELECT value
		FROM thresholds
		WHERE name = 'xmit_wait_ratio') AS thr
	FROM counters w
	JOIN todo_rule t ON t.bundle_id = w.bundle_id
	JOIN counters d ON d.bundle_id = w.bundle_id AND d.ibdev = w.ibdev AND
		d.port = w.port AND d.kind = 'pma' AND d.name =
		'port_xmit_data'
	WHERE w.kind = 'pma' AND w.name = 'port_xmit_wait' AND NOT coalesce((
				SELECT j.on_purpose
			FROM port_judged j
			WHERE j.bundle_id = w.bundle_id AND j.ibdev = w.ibdev
				AND j.port = w.port), 0)), y AS (SELECT *, w2
		IS NOT NULL AND d2 IS NOT NULL AND w2 >= w1 AND d2 >= d1 AS
		sampled
	FROM x), z AS (SELECT *, CASE WHEN sampled THEN CASE WHEN d2 > d1 THEN
		CAST(w2 - w1 AS REAL) / (d2 - d1) WHEN w2 > w1 THEN 1e308 ELSE
		0 END WHEN d1 > 0 THEN CAST(w1 AS REAL) / d1 ELSE 0 END AS
		ratio
	FROM y)
SELECT bundle_id, ibdev || ':' || port, 'PortXmitWait on ' || ibdev || ':' ||
	port || ' is ' || CASE WHEN ratio >= 1e308 THEN
	'growing while no data was sent' ELSE printf('%.1f%%', 100 * ratio) ||
	' of PortXmitData' END || CASE WHEN sampled THEN ' over the ' || ms ||
	' ms sample' ELSE ' since the counters began' END || ' (threshold ' ||
	printf('%g%%', 100 * thr) ||
	'): sustained congestion or missing credits', wp || char(9) || w1 ||
	coalesce(' (second read ' || w2 || ')', '') || char(10) || dp || char(9
		) || d1 || coalesce(' (second read ' || d2 || ')', ''), NULL
FROM z
WHERE ratio > thr
ORDER BY bundle_id, ibdev, port
