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
		.sql = 1,
	},
	{
		.id = "INPUT_UNREAD",
		.layer = LAYER_EVIDENCE,
		.severity = SEV_WARNING,
		.title = "an input file no reader understood, or that a reader took only in part (info: the command printed only its failure)",
		.needs = "",
		.evidence = "manifest.json import.inputs[] (the import's record of each input file and part)",
		.remediation = "Nothing in that file was checked: give the output of the command its reason names, whole and as the tool printed it (with its prompt line or in a file named after the command: ibstat.txt, 'ethtool -S ens1f0np0.txt'); a cut or filtered output is read only as far as it goes.",
		.sql = 1,
	},
	{
		.id = "DEVICE_VANISHED",
		.layer = LAYER_EVIDENCE,
		.severity = SEV_CRITICAL,
		.title = "a device disappeared while it was being listed",
		.needs = "",
		.evidence = "rdma-collect/import/vanished/<dev> (an import: ibstat's \"ibpanic: ... stat of IB device '<dev>' failed\", the line kept there)",
		.remediation = "The device was listed and gone a moment later: it was removed or reset under the tool (an SR-IOV VF taken away, as Azure does when it services the host's accelerated networking; a PCI hot-remove or surprise link-down; a driver reload; a firmware reset). The kernel log at that time says which (mlx5_core remove, health or reset lines); run the tool again, and if the device stays away check its PCIe link and firmware. What the tool would have printed after it is missing, not healthy.",
		.sql = 1,
	},
	{ 0 },
};
