-- INPUT_UNREAD: an input file no reader understood, or that a reader took only in part (info: the command printed only its failure)
-- (analyze/rules-evidence.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- every file (or pasted part) of an import that no reader took
-- or that a reader left out in part: the file is the component,
-- the part's line and command said when there is one
SELECT i.bundle_id, i.file || CASE WHEN i.line > 0 THEN ':' || i.line ELSE ''
	END, i.file || CASE WHEN i.line > 0 THEN ' line ' || i.line ELSE '' END
	|| coalesce(' ($ ' || i.command || ')', '') || ': ' || CASE i.status
	WHEN 'partial' THEN 'read in part' || coalesce(' by the ' || i.reader
		|| ' reader', '') WHEN 'failed' THEN 'no output' ELSE
	'not read' END || ': ' || coalesce(i.reason, 'no reason given'),
	'manifest.json	import.inputs: ' || i.file || CASE WHEN i.line > 0 THEN
	' line ' || i.line ELSE '' END || ' ' || i.status, CASE i.status WHEN
	'failed' THEN 0 ELSE NULL END
FROM import_inputs i
JOIN todo_rule t ON t.bundle_id = i.bundle_id
WHERE i.status IN ('unread', 'partial', 'failed')
ORDER BY i.bundle_id, i.file, i.line
