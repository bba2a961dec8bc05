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
	{ 0 },
};
