-- PHY_BER_HIGH: physical-layer errors or BER above threshold (mlxlink)
-- (analyze/rules-hca.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- a port down on purpose is not judged (port_judged: port.sql)
WITH th AS (SELECT (SELECT value
		FROM thresholds
		WHERE name = 'ber_warning') AS bw, (SELECT value
		FROM thresholds
		WHERE name = 'ber_critical') AS bc, (SELECT value
		FROM thresholds
		WHERE name = 'raw_ber') AS br)
SELECT h.bundle_id, coalesce(h.ibdev || ':' || h.port, h.path),
	'physical layer of ' || coalesce(h.ibdev || ':' || h.port, h.path) ||
	': ' || trim(CASE WHEN h.eff_errors > 0 THEN
		'effective physical errors ' || h.eff_errors || CASE WHEN h.fec
		LIKE '%PLR%' THEN ' (FEC ' || h.fec ||
		': PLR retransmits what FEC left)' ELSE '' END || '; ' ELSE ''
		END || CASE WHEN h.eff_ber > th.bw THEN 'effective BER ' ||
		h.eff_ber_text || ' above ' || printf('%g', CASE WHEN h.eff_ber
			> th.bc THEN th.bc ELSE th.bw END) || '; ' ELSE '' END
		|| CASE WHEN h.raw_ber > th.br THEN 'raw BER ' ||
		h.raw_ber_text || ' above ' || printf('%g', th.br) || '; ' ELSE
		'' END, '; '), h.path || char(9) ||
	'Effective Physical Errors ' || coalesce(h.eff_errors, 'N/A') ||
	', Effective Physical BER ' || coalesce(h.eff_ber_text, 'N/A') ||
	', Raw Physical BER ' || coalesce(h.raw_ber_text, 'N/A') || coalesce(
		', Raw Physical Errors Per Lane ' || h.raw_errors, ''), CASE
	WHEN (h.eff_errors > 0 AND coalesce(h.fec, '') NOT LIKE '%PLR%') OR
	h.eff_ber > th.bc OR h.raw_ber > th.br THEN 2 ELSE 1 END
FROM phy h
JOIN todo_rule t ON t.bundle_id = h.bundle_id, th
WHERE NOT coalesce((SELECT j.on_purpose
		FROM port_judged j
		WHERE j.bundle_id = h.bundle_id AND j.ibdev = h.ibdev AND
			j.port = h.port), 0) AND (h.eff_errors > 0 OR h.eff_ber
		> th.bw OR h.raw_ber > th.br)
ORDER BY h.bundle_id, h.path
