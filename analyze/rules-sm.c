/* rules-sm: layer 3, the subnet manager as an InfiniBand port sees it:
 * a port stuck in INIT, no SM LID, no LID of its own (sysfs); SMInfo of the
 * SM each port names, when the bundle has the mad source (rules-fabric.c) */
#include "rules.h"
#include "rules-fabric.h"

const struct rule rules_sm[] = {
	{
		.id = "SM_ABSENT",
		.layer = LAYER_SM,
		.severity = SEV_CRITICAL,
		.title = "no subnet manager: IB port stuck in INIT or sm_lid 0",
		.needs = "sysfs|mad",
		.evidence = "sys/class/infiniband/<dev>/ports/<n>/{state,phys_state,sm_lid,link_layer}; with the mad source, SMInfo sent to the port's SM LID (rdma-collect/mad/<dev>.<n>.json sminfo, errors.sminfo): no answer or no SM LID; an import's lone sminfo that failed (rdma-collect/mad/sminfo.json, component sm)",
		.remediation = "Start a subnet manager on the fabric (opensm on a node, or the switch's/UFM's SM) and check that it sees this port (sminfo, ibdiagnet); a port in INIT with LinkUp is waiting for the SM to configure it.",
		.sql = 1,
		.check = fabric_sm_absent,
	},
	{
		.id = "SM_NOT_MASTER",
		.layer = LAYER_SM,
		.severity = SEV_WARNING,
		.title = "the SM that answers is not in MASTER state",
		.needs = "mad",
		.evidence = "SMInfo sent to each IB port's SM LID (rdma-collect/mad/<dev>.<n>.json sminfo: lid, SmInfoGuid, SmPriority, SmState 3 = MASTER), or an import's sminfo of a port it does not name (rdma-collect/mad/sminfo.json); one finding per SM, naming the ports that asked it",
		.remediation = "Check the subnet managers (sminfo, and the SM logs): exactly one must be MASTER; a STANDBY or DISCOVERING SM answering means the master is gone or flapping.",
		.check = fabric_sm_not_master,
	},
	{
		.id = "LID_UNASSIGNED",
		.layer = LAYER_SM,
		.severity = SEV_CRITICAL,
		.title = "an ACTIVE InfiniBand port with LID 0",
		.needs = "sysfs",
		.evidence = "sys/class/infiniband/<dev>/ports/<n>/{state,lid}",
		.remediation = "The subnet manager did not assign a LID: check the SM (sminfo, its log for errors on this port GUID) and re-sweep (opensm -> heavy sweep, or restart it).",
		.sql = 1,
	},
	{ 0 },
};
