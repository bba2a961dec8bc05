-- SOURCE_INCOMPLETE: a source of evidence was denied, absent, timed out or failed
-- (analyze/rules-evidence.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- absent because off by default or not requested is not a gap;
-- nor is a source an import could fill only in part (a sos
-- report has what its plugins ran, which is all there is)
SELECT s.bundle_id, s.name, 'source ' || s.name || ' ' || s.status || CASE WHEN
	s.reason <> '' THEN ': ' || s.reason ELSE '' END,
	'manifest.json	sources[' || s.name || '].status = ' || s.status, CASE
	WHEN s.status IN ('timeout', 'error') THEN 1 ELSE NULL END
FROM sources s
JOIN todo_rule t ON t.bundle_id = s.bundle_id
WHERE s.status IN ('denied', 'timeout', 'error') OR (s.status = 'partial' AND
		s.name <> 'attach' AND s.bundle_id NOT IN (SELECT bundle_id
		FROM imports))
ORDER BY s.bundle_id, s.name
