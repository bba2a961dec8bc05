-- HUGEPAGES_NONE: no huge pages configured
-- (analyze/rules-app.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
SELECT m.bundle_id, 'hugepages',
	'no huge pages configured (HugePages_Total 0, every nr_hugepages 0)',
	'proc/meminfo' || char(9) || 'HugePages_Total: ' || m.value || coalesce
	(char(10) || (SELECT group_concat(f.path || char(9) || f.value, char(10
					))
		FROM facts f
		WHERE f.bundle_id = m.bundle_id AND f.key LIKE
			'hugepages/%/nr_hugepages'), ''), NULL
FROM meminfo m
JOIN todo_rule t ON t.bundle_id = m.bundle_id
WHERE m.name = 'HugePages_Total' AND m.value = 0 AND NOT EXISTS (SELECT 1
	FROM facts f
	WHERE f.bundle_id = m.bundle_id AND f.key LIKE
		'hugepages/%/nr_hugepages' AND CAST(f.value AS INTEGER) > 0)
