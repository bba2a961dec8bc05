/* rules-verbs: layer 4, the ports as verbs see them: state, MTU, GIDs */
#include "rules.h"

const struct rule rules_verbs[] = {
	{
		.id = "PORT_DOWN",
		.layer = "verbs",
		.severity = SEV_CRITICAL,
		.title = "port not ACTIVE or physical state not LinkUp",
		.needs = "sysfs",
		.evidence = "sys/class/infiniband/<dev>/ports/<n>/{state,phys_state}",
		.remediation = "Check the cable and the switch port (ibstat, iblinkinfo); a port Disabled or Polling with no cable is down on purpose; INIT means no subnet manager (see SM_ABSENT).",
		/* down on purpose (Disabled, or Polling: no cable/module) is info */
		.sql = "SELECT p.bundle_id, p.ibdev || ':' || p.port, "
		       "'port ' || p.ibdev || ':' || p.port || ' is ' || "
		       "coalesce(p.state_text, '?') || ', physical state ' || "
		       "coalesce(p.phys_state_text, '?'), "
		       "'sys/class/infiniband/' || p.ibdev || '/ports/' || p.port || "
		       "'/state\t' || coalesce(p.state_text, '') || char(10) || "
		       "'sys/class/infiniband/' || p.ibdev || '/ports/' || p.port || "
		       "'/phys_state\t' || coalesce(p.phys_state_text, ''), "
		       "CASE WHEN p.phys_state IN (2, 3) THEN 0 ELSE NULL END "
		       "FROM ports p JOIN todo_rule t ON t.bundle_id = p.bundle_id "
		       "WHERE p.state <> 4 OR p.phys_state <> 5",
	},
	{
		.id = "MTU_BELOW_MAX",
		.layer = "verbs",
		.severity = SEV_WARNING,
		.title = "active_mtu below max_mtu",
		.needs = "verbs",
		.evidence = "rdma-collect/verbs/<dev>.json ports[].active_mtu, max_mtu",
		.remediation = "The path MTU is smaller than the port can do: on InfiniBand raise the partition MTU in the subnet manager (opensm partitions.conf mtu=5 for 4096); on RoCE raise the netdev MTU (and the switch's) so that 4096 fits (MTU 4200 or 9000).",
		.sql = "SELECT p.bundle_id, p.ibdev || ':' || p.port, "
		       "'active_mtu ' || p.active_mtu || ' below max_mtu ' || "
		       "p.max_mtu || ' on ' || p.ibdev || ':' || p.port, "
		       "'rdma-collect/verbs/' || p.ibdev || '.json\tactive_mtu ' || "
		       "p.active_mtu || ', max_mtu ' || p.max_mtu, NULL "
		       "FROM ports p JOIN todo_rule t ON t.bundle_id = p.bundle_id "
		       "WHERE p.state = 4 AND p.active_mtu > 0 AND "
		       "p.active_mtu < p.max_mtu",
	},
	{ 0 },
};
