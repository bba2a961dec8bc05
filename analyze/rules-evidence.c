/* rules-evidence: what could not be checked, and why */
#include "rules.h"

const struct rule rules_evidence[] = {
	{
		.id = "SOURCE_INCOMPLETE",
		.layer = LAYER_EVIDENCE,
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
		.layer = LAYER_EVIDENCE,
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
	{
		.id = "DEVICE_VANISHED",
		.layer = LAYER_EVIDENCE,
		.severity = SEV_CRITICAL,
		.title = "a device disappeared while it was being listed",
		.needs = "",
		.evidence = "rdma-collect/import/vanished/<dev> (an import: ibstat's \"ibpanic: ... stat of IB device '<dev>' failed\", the line kept there)",
		.remediation = "The device was listed and gone a moment later: it was removed or reset under the tool (an SR-IOV VF taken away, as Azure does when it services the host's accelerated networking; a PCI hot-remove or surprise link-down; a driver reload; a firmware reset). The kernel log at that time says which (mlx5_core remove, health or reset lines); run the tool again, and if the device stays away check its PCIe link and firmware. What the tool would have printed after it is missing, not healthy.",
		/* what an import recorded (imp-ib.c): the device is the last
		 * part of the path, the input file its origin */
		.sql = "SELECT o.bundle_id, substr(o.path, 30), substr(o.path, "
		       "30) || ' disappeared while ' || o.origin || ' listed "
		       "it: listed, then it could not be read; the devices "
		       "after it were never printed', o.path || char(9) || "
		       "'stat of IB device ''' || substr(o.path, 30) || "
		       "''' failed (' || o.origin || ')', NULL FROM "
		       "import_origins o JOIN todo_rule t ON t.bundle_id = "
		       "o.bundle_id WHERE o.path > 'rdma-collect/import/"
		       "vanished/' AND o.path < 'rdma-collect/import/vanished0' "
		       "ORDER BY o.bundle_id, o.path",
	},
	{ 0 },
};
