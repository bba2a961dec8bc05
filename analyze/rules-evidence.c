/* rules-evidence: what could not be checked, and why */
#include "rules.h"

const struct rule rules_evidence[] = {
	{
		.id = "SOURCE_INCOMPLETE",
		.layer = "evidence",
		.severity = SEV_INFO,
		.title = "a source of evidence was denied, absent, timed out or failed",
		.needs = "",
		.evidence = "manifest.json sources[].status and reason",
		.remediation = "Re-run rdma-collect as root; for a timeout, the device named in the reason is wedged (check its firmware: mlxfwreset, or a reboot); install rdma-core for absent libraries.",
		/* absent because off by default or not requested is not a gap;
		 * nor is a source an import could fill only in part (a sos
		 * report has what its plugins ran, which is all there is) */
		.sql = "SELECT s.bundle_id, s.name, 'source ' || s.name || ' ' || "
		       "s.status || CASE WHEN s.reason <> '' THEN ': ' || s.reason "
		       "ELSE '' END, 'manifest.json\tsources[' || s.name || "
		       "'].status = ' || s.status, CASE WHEN s.status IN ('timeout', "
		       "'error') THEN 1 ELSE NULL END FROM sources s JOIN todo_rule "
		       "t ON t.bundle_id = s.bundle_id WHERE s.status IN ('denied', "
		       "'timeout', 'error') OR (s.status = 'partial' AND s.name <> "
		       "'attach' AND s.bundle_id NOT IN (SELECT bundle_id FROM "
		       "imports)) ORDER BY s.bundle_id, s.name",
	},
	{
		.id = "INPUT_UNREAD",
		.layer = "evidence",
		.severity = SEV_WARNING,
		.title = "an input file no reader understood, or that a reader took only in part (info: the command printed only its failure)",
		.needs = "",
		.evidence = "manifest.json import.inputs[] (the import's record of each input file and part)",
		.remediation = "Nothing in that file was checked: give the output of the command its reason names, whole and as the tool printed it (with its prompt line or in a file named after the command: ibstat.txt, 'ethtool -S ens1f0np0.txt'); a cut or filtered output is read only as far as it goes.",
		/* every file (or pasted part) of an import that no reader took
		 * or that a reader left out in part: the file is the component,
		 * the part's line and command said when there is one */
		.sql = "SELECT i.bundle_id, i.file || CASE WHEN i.line > 0 THEN "
		       "':' || i.line ELSE '' END, i.file || CASE WHEN i.line > 0 "
		       "THEN ' line ' || i.line ELSE '' END || coalesce(' ($ ' || "
		       "i.command || ')', '') || ': ' || CASE i.status WHEN 'partial' "
		       "THEN 'read in part' || coalesce(' by the ' || i.reader || "
		       "' reader', '') WHEN 'failed' THEN 'no output' ELSE 'not "
		       "read' END || ': ' || coalesce(i.reason, "
		       "'no reason given'), 'manifest.json\timport.inputs: ' || "
		       "i.file || CASE WHEN i.line > 0 THEN ' line ' || i.line "
		       "ELSE '' END || ' ' || i.status, CASE i.status WHEN 'failed' "
		       "THEN 0 ELSE NULL END FROM import_inputs i "
		       "JOIN todo_rule t ON t.bundle_id = i.bundle_id WHERE "
		       "i.status IN ('unread', 'partial', 'failed') ORDER BY i.bundle_id, i.file, i.line",
	},
	{ 0 },
};
