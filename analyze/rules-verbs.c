/* rules-verbs: layer 4, the ports as verbs see them: state, MTU, GIDs */
#include "rules.h"
#include "rules-port.h"

/* The RDMA MTU a RoCE netdev MTU allows: the kernel's iboe_get_mtu()
 * (include/rdma/ib_addr.h) takes off the largest RoCE v2 headers, GRH 40 +
 * UDP 8 + BTH 12 + XRC ext 4 + AtomicETH 28 + ICRC 4 = 96 bytes (88 on
 * kernels before RoCE v2 added the UDP header), and rounds down to an IB
 * MTU; mlx5 reports min(max_mtu, that) as active_mtu. */
#define ROCE_ALLOWED(m) \
	"CASE WHEN " m " IS NULL OR " m " <= 0 THEN NULL " \
	"WHEN " m " - 96 >= 4096 THEN 4096 WHEN " m " - 96 >= 2048 THEN 2048 " \
	"WHEN " m " - 96 >= 1024 THEN 1024 WHEN " m " - 96 >= 512 THEN 512 " \
	"WHEN " m " - 96 >= 256 THEN 256 ELSE 0 END"

#define PORT_PATH "'sys/class/infiniband/' || p.ibdev || '/ports/' || p.port"
#define PORT_PATH_E "'sys/class/infiniband/' || e.ibdev || '/ports/' || e.port"

/* where an environment row came from */
#define ENV_PATH "CASE WHEN e.who = 'self' THEN 'rdma-collect/environ/self.env' " \
	"WHEN e.who LIKE 'pid:%' THEN 'rdma-collect/environ/' || substr(e.who, 5) " \
	"|| '.env' WHEN e.who = 'nccl.conf' THEN 'etc/nccl.conf' ELSE e.who END"

const struct rule rules_verbs[] = {
	{
		.id = "PORT_DOWN",
		.layer = LAYER_VERBS,
		.severity = SEV_CRITICAL,
		.title = "port not ACTIVE or physical state not LinkUp",
		.needs = "sysfs",
		.evidence = "sys/class/infiniband/<dev>/ports/<n>/{state,phys_state}; the kernel log's last \"Port module event: module N, Cable plugged|unplugged\" and module error events of the port's PCI function; the node's other ports; the same port on the other nodes of its class (device, port, HCA type, link layer) in the database; the PCI device id of an SR-IOV VF (pci_functions, hca_type). Down on purpose (Disabled on InfiniBand; no cable or module: Cable unplugged and never plugged again) is info; Disabled on a RoCE port is only the netdev down or without carrier (the RoCE drivers' query_port says Disabled for both): a warning after a module error, while most of the node's other ports of the same HCA type and link layer are Active, or while the class's majority has it Active, else info; Polling with a cable plugged is critical; Polling after a module error, or while the node's other ports or the class's majority (fleet_min_nodes) have it Active, a warning; Polling with nothing saying it should be up info; INIT and other states critical. An SR-IOV VF's port follows its PF: info when a PF port on its bus is down too, else at most a warning",
		.remediation = "Check the cable and the switch port (ibstat, iblinkinfo, mlxlink -d <dev> -m for the module and the peer's state); an InfiniBand port Disabled or a port with no cable or module is down on purpose; a RoCE port Disabled is its netdev down or without carrier (ip link show <netdev>: UP with NO-CARRIER is the cable or the peer, no UP is set down) (leave it, or disable it in the firmware: mlxconfig LINK_TYPE / port disable); Polling with a cable in means no link partner: the peer switch port is down or disabled, the cable or transceiver is bad, or the two ends do not agree on speed; INIT means no subnet manager (see SM_ABSENT). A VF's port follows its PF's: fix the PF's link first (ip link show <pf> for the VF's link state).",
		/* the judgement of rules-port.h per port, then the VF's: it
		 * follows its PF (a non-VF port on the same bus) */
		.sql = "WITH d AS (SELECT p.*, " PORT_MODULE("p") " AS module, "
		       PORT_MODULE_ERROR("p") " AS moderr, " PORT_SIBLINGS_UP("p")
		       " AS sib, " PORT_FLEET_UP("p") " AS fleet, " PORT_IS_VF("p")
		       " AS vf, " PORT_PCI("p") " AS pci, " PORT_ROCE_DISABLED("p")
		       " AS rdis, " PORT_CLASS_UP("p") " AS cls, (SELECT x.hca_type "
		       "FROM devices x WHERE x.bundle_id = p.bundle_id AND x.ibdev = "
		       "p.ibdev) AS hca "
		       "FROM ports p JOIN todo_rule t ON t.bundle_id = p.bundle_id "
		       "WHERE p.state <> 4 OR p.phys_state <> 5), "
		       "e AS (SELECT d.*, CASE WHEN d.state = 2 THEN 2 WHEN "
		       "d.phys_state = 3 AND NOT d.rdis THEN 0 WHEN d.module IS "
		       "'unplugged' THEN 0 WHEN d.rdis THEN CASE WHEN d.moderr OR "
		       "d.cls IS NOT NULL OR d.fleet IS NOT NULL THEN 1 ELSE 0 END "
		       "WHEN d.phys_state = 2 AND d.state = 1 THEN CASE WHEN "
		       "d.module IS 'plugged' THEN 2 WHEN d.moderr OR d.sib > 0 OR "
		       "d.fleet IS NOT NULL THEN 1 ELSE 0 END ELSE 2 END AS base, "
		       "CASE WHEN d.vf THEN (SELECT group_concat(q.ibdev || ':' || "
		       "q.port || CASE WHEN q.state = 4 AND q.phys_state = 5 THEN "
		       "' up' ELSE ' down' END, ', ') FROM ports q WHERE q.bundle_id "
		       "= d.bundle_id AND q.ibdev <> d.ibdev AND substr(" PORT_PCI("q")
		       ", 1, 7) = substr(d.pci, 1, 7) AND NOT " PORT_IS_VF("q")
		       ") END AS pf FROM d) "
		       "SELECT e.bundle_id, e.ibdev || ':' || e.port, "
		       "'port ' || e.ibdev || ':' || e.port || ' is ' || "
		       "coalesce(e.state_text, '?') || ', physical state ' || "
		       "coalesce(e.phys_state_text, '?') || CASE WHEN e.state = 2 "
		       "THEN ' (link up but not configured: no subnet manager?)' "
		       "WHEN e.phys_state = 3 AND NOT e.rdis THEN ' (disabled: down "
		       "on purpose)' "
		       "WHEN e.module IS 'unplugged' THEN ' (no cable or module: the "
		       "kernel log says Cable unplugged and no plug since: down on "
		       "purpose)' "
		       "WHEN e.rdis THEN ' (disabled: what a RoCE port reports when "
		       "its netdev is down or has no carrier' || CASE WHEN e.moderr "
		       "THEN '; after a module error event (CABLE_MODULE_ERROR): it "
		       "should be up' WHEN e.cls IS NOT NULL THEN '; ' || e.cls || "
		       "' of the node''s other ' || coalesce(e.hca || ' ', '') || "
		       "'Ethernet ports Active: it should be up' WHEN e.fleet IS NOT "
		       "NULL THEN '; the same port is Active on ' || e.fleet || "
		       "' other nodes of its class: it should be up' ELSE '; nothing "
		       "says it should be up: set down, or no cable or peer' END || "
		       "')' "
		       "WHEN e.phys_state = 2 AND e.state = 1 THEN ' (polling: no "
		       "link partner' || CASE WHEN e.module IS 'plugged' THEN '; a "
		       "cable is plugged (kernel log): the cable, the peer port or "
		       "the switch' WHEN e.moderr THEN '; after a module error "
		       "event (CABLE_MODULE_ERROR): it should be up' WHEN e.sib > 0 "
		       "THEN '; ' || e.sib || ' other port' || CASE WHEN e.sib > 1 "
		       "THEN 's' ELSE '' END || ' of the node Active: it should be "
		       "up' WHEN e.fleet IS NOT NULL THEN '; the same port is Active "
		       "on ' || e.fleet || ' other nodes of its class: it should be "
		       "up' ELSE '; nothing says it should be up: no cable, or the "
		       "peer port is down' END || ')' ELSE '' END || CASE WHEN e.vf "
		       "THEN '; an SR-IOV VF: its port follows its PF''s' || "
		       "coalesce(' (' || e.pf || ')', ' (PF not in the bundle)') "
		       "ELSE '' END, "
		       PORT_PATH_E " || '/state\t' || coalesce(e.state_text, '') || "
		       "char(10) || " PORT_PATH_E " || '/phys_state\t' || "
		       "coalesce(e.phys_state_text, '') || CASE WHEN e.module IS NOT "
		       "NULL THEN char(10) || CASE WHEN EXISTS (SELECT 1 FROM klog k "
		       "WHERE k.bundle_id = e.bundle_id AND k.seq IS NOT NULL) THEN "
		       "'rdma-collect/klog/kmsg.txt' ELSE 'rdma-collect/klog/"
		       "syslog.txt' END || char(9) || 'last module event of ' || "
		       "e.pci || ': Cable ' || e.module ELSE '' END, "
		       "CASE WHEN e.vf AND e.pf LIKE '% down%' THEN 0 WHEN e.vf THEN "
		       "min(e.base, 1) ELSE e.base END "
		       "FROM e ORDER BY e.bundle_id, e.ibdev, e.port",
	},
	{
		.id = "MTU_BELOW_MAX",
		.layer = LAYER_VERBS,
		.severity = SEV_WARNING,
		.title = "active_mtu below max_mtu",
		.needs = "verbs",
		.evidence = "rdma-collect/verbs/<dev>.json ports[].active_mtu, max_mtu; RoCE: sys/class/net/<if>/mtu. InfiniBand: a warning. RoCE: the active MTU is the largest IB MTU that fits the netdev MTU less the RoCE v2 headers (96 bytes), so the Ethernet default 1500 gives 1024: at a netdev MTU of 1500 or more that limits it, info (the configuration, not a fault); a warning when the netdev would allow more than active_mtu, or its MTU is below 1500",
		.remediation = "The path MTU is smaller than the port can do: on InfiniBand raise the partition MTU in the subnet manager (opensm partitions.conf mtu=5 for 4096); on RoCE raise the netdev MTU (and the switch's, end to end) so that 4096 fits (MTU 4200 or 9000); at the Ethernet default 1500 RoCE runs 1024-byte packets by design, which is fine where the fabric is meant to run at 1500.",
		.sql = "WITH q AS (SELECT p.*, n.mtu AS nmtu, "
		       ROCE_ALLOWED("n.mtu") " AS allowed FROM ports p JOIN "
		       "todo_rule t ON t.bundle_id = p.bundle_id LEFT JOIN netdevs n "
		       "ON n.bundle_id = p.bundle_id AND n.name = p.netdev "
		       "WHERE p.state = 4 AND p.active_mtu > 0 AND "
		       "p.active_mtu < p.max_mtu) "
		       "SELECT bundle_id, ibdev || ':' || port, "
		       "CASE WHEN link_layer = 'Ethernet' AND allowed IS NOT NULL "
		       "AND active_mtu >= allowed THEN 'netdev ' || netdev || ' MTU ' "
		       "|| nmtu || ' limits the RDMA MTU of ' || ibdev || ':' || port "
		       "|| ' to ' || active_mtu || ' (max_mtu ' || max_mtu || '): "
		       "RoCE moves the largest IB MTU that fits the netdev MTU less "
		       "its 96 bytes of headers' || CASE WHEN nmtu < 1500 THEN '; "
		       "the netdev MTU is below the Ethernet default 1500' ELSE "
		       "', as configured' END || '; jumbo frames (netdev and switch "
		       "MTU >= 4192, e.g. 9000) allow 4096' "
		       "WHEN link_layer = 'Ethernet' AND allowed IS NOT NULL THEN "
		       "'active_mtu ' || active_mtu || ' on ' || ibdev || ':' || port "
		       "|| ' is below the ' || allowed || ' that netdev ' || netdev || "
		       "' MTU ' || nmtu || ' allows (max_mtu ' || max_mtu || ')' "
		       "ELSE 'active_mtu ' || active_mtu || ' below max_mtu ' || "
		       "max_mtu || ' on ' || ibdev || ':' || port END, "
		       "'rdma-collect/verbs/' || ibdev || '.json\tactive_mtu ' || "
		       "active_mtu || ', max_mtu ' || max_mtu || CASE WHEN nmtu IS "
		       "NOT NULL AND link_layer = 'Ethernet' THEN char(10) || "
		       "'sys/class/net/' || netdev || '/mtu\t' || nmtu ELSE '' END, "
		       /* RoCE at a netdev MTU the port follows: info.  The
			* kernel's active_mtu of a RoCE port is iboe_get_mtu()
			* of the netdev MTU, so 1024 at the Ethernet default
			* 1500 is the netdev's setting working as designed (a
			* choice: many RoCE fabrics run at 1500), not a fault;
			* the finding still says what jumbo frames would give.
			* A warning stays where something is off: the netdev
			* would allow more than active_mtu (the port did not
			* follow it), a netdev MTU below the Ethernet default,
			* an unknown netdev MTU, and InfiniBand (the SM's
			* partition MTU) */
		       "CASE WHEN link_layer = 'Ethernet' AND allowed IS NOT NULL "
		       "AND active_mtu >= allowed AND nmtu >= 1500 THEN 0 END "
		       "FROM q ORDER BY bundle_id, ibdev, port",
	},
	{
		.id = "ROCE_NO_V2_IPV4_GID",
		.layer = LAYER_VERBS,
		.severity = SEV_CRITICAL,
		.title = "a RoCE port has no RoCE v2 GID carrying an IPv4 address",
		.needs = "sysfs",
		.evidence = "sys/class/infiniband/<dev>/ports/<n>/gids/*, gid_attrs/types/*; an ACTIVE port, or (a warning) one whose state the evidence does not give (show_gids alone)",
		.remediation = "Give the port's netdev an IPv4 address (ip addr add ... dev <netdev>) and bring it up: the kernel then adds the ::ffff:a.b.c.d GIDs; RoCE v2 GIDs need the rdma_cm/ib_core default (cma_roce_mode) not forced to v1. NCCL/UCX need a RoCE v2 IPv4 GID to route across subnets.",
		.sql = "SELECT p.bundle_id, p.ibdev || ':' || p.port, "
		       "'RoCE port ' || p.ibdev || ':' || p.port || coalesce(' (' || "
		       "p.netdev || ')', '') || ' has no RoCE v2 GID with an IPv4 "
		       "address' || CASE WHEN p.state IS NULL THEN ' (its state "
		       "is not in the evidence: critical if it is ACTIVE)' ELSE "
		       "'' END || ' (' || (SELECT count(*) FROM gids g WHERE g.bundle_id = "
		       "p.bundle_id AND g.ibdev = p.ibdev AND g.port = p.port) || "
		       "' GIDs: ' || coalesce((SELECT group_concat(g.idx || ' ' || "
		       "coalesce(g.type, '?') || coalesce(' ' || g.ipv4, ''), ', ') "
		       "FROM gids g WHERE g.bundle_id = p.bundle_id AND g.ibdev = "
		       "p.ibdev AND g.port = p.port), 'none') || ')', "
		       PORT_PATH " || '/gids\t' || coalesce((SELECT group_concat("
		       "g.idx || '=' || g.gid || ' ' || coalesce(g.type, '?'), '; ') "
		       "FROM gids g WHERE g.bundle_id = p.bundle_id AND g.ibdev = "
		       "p.ibdev AND g.port = p.port), 'no non-zero GID'), CASE WHEN "
		       "p.state IS NULL THEN 1 END "
		       "FROM ports p JOIN todo_rule t ON t.bundle_id = p.bundle_id "
		       "WHERE p.link_layer = 'Ethernet' AND (p.state = 4 OR "
		       "p.state IS NULL) AND NOT EXISTS "
		       "(SELECT 1 FROM gids g WHERE g.bundle_id = p.bundle_id AND "
		       "g.ibdev = p.ibdev AND g.port = p.port AND g.type = 'RoCE v2' "
		       "AND g.ipv4 IS NOT NULL) ORDER BY p.bundle_id, p.ibdev, p.port",
	},
	{
		.id = "ROCE_V1_ONLY",
		.layer = LAYER_VERBS,
		.severity = SEV_WARNING,
		.title = "a RoCE port has only RoCE v1 GIDs",
		.needs = "sysfs",
		.evidence = "sys/class/infiniband/<dev>/ports/<n>/gid_attrs/types/*",
		.remediation = "RoCE v1 is not routable (layer 2 only); use RoCE v2: check that nothing forces v1 (rdma_cm default_roce_mode in configfs, mlx5 roce_version or an old firmware/driver) and that the netdev has IP addresses.",
		.sql = "SELECT p.bundle_id, p.ibdev || ':' || p.port, "
		       "'RoCE port ' || p.ibdev || ':' || p.port || ' has only RoCE "
		       "v1 GIDs (' || count(g.idx) || ')', " PORT_PATH " || "
		       "'/gid_attrs/types\t' || group_concat(g.idx || '=' || "
		       "coalesce(g.type, '?'), '; '), NULL "
		       "FROM ports p JOIN todo_rule t ON t.bundle_id = p.bundle_id "
		       "JOIN gids g ON g.bundle_id = p.bundle_id AND g.ibdev = "
		       "p.ibdev AND g.port = p.port WHERE p.link_layer = 'Ethernet' "
		       "GROUP BY p.bundle_id, p.ibdev, p.port HAVING count(g.idx) > 0 "
		       "AND sum(g.type = 'RoCE v2') = 0 AND sum(g.type = 'IB/RoCE v1') "
		       "> 0 ORDER BY p.bundle_id, p.ibdev, p.port",
	},
	{
		.id = "NCCL_GID_INDEX_BAD",
		.layer = LAYER_VERBS,
		.severity = SEV_CRITICAL,
		.title = "NCCL_IB_GID_INDEX names an empty, RoCE v1 or non-IPv4 GID on a RoCE port",
		.needs = "sysfs",
		.evidence = "NCCL_IB_GID_INDEX in rdma-collect/environ/*.env or etc/nccl.conf; sys/class/infiniband/<dev>/ports/<n>/gids/<idx>, gid_attrs/types/<idx>",
		.remediation = "Unset NCCL_IB_GID_INDEX (NCCL 2.21+ picks the RoCE v2 IPv4 GID itself: -1) or set it to the index that show_gids lists as v2 with an IPv4 address, the same on every node.",
		/* -1 (auto, NCCL 2.21+) and non-numbers are not checked; only
		 * ACTIVE RoCE ports (NCCL_IB_HCA filtering is not applied) */
		.sql = "SELECT e.bundle_id, 'NCCL_IB_GID_INDEX', "
		       "'NCCL_IB_GID_INDEX=' || trim(e.value) || ' (' || e.who || ') "
		       "names ' || group_concat(p.ibdev || ':' || p.port || ' GID ' || "
		       "CAST(trim(e.value) AS INTEGER) || ' ' || CASE WHEN g.gid IS "
		       "NULL THEN 'empty' WHEN g.type IS NOT 'RoCE v2' THEN "
		       "coalesce(g.type, 'of unknown type') || ' (not RoCE v2)' ELSE "
		       "'RoCE v2 without an IPv4 address (' || g.gid || ')' END, ', '), "
		       ENV_PATH " || char(9) || 'NCCL_IB_GID_INDEX=' || e.value || "
		       "char(10) || group_concat('sys/class/infiniband/' || p.ibdev || "
		       "'/ports/' || p.port || '/gids/' || CAST(trim(e.value) AS "
		       "INTEGER) || char(9) || coalesce(g.gid || ' ' || "
		       "coalesce(g.type, ''), 'empty'), char(10)), NULL "
		       "FROM environment e JOIN todo_rule t ON t.bundle_id = "
		       "e.bundle_id JOIN ports p ON p.bundle_id = e.bundle_id AND "
		       "p.link_layer = 'Ethernet' AND p.state = 4 LEFT JOIN gids g ON "
		       "g.bundle_id = p.bundle_id AND g.ibdev = p.ibdev AND g.port = "
		       "p.port AND g.idx = CAST(trim(e.value) AS INTEGER) "
		       "WHERE e.name = 'NCCL_IB_GID_INDEX' AND trim(e.value) <> '' AND "
		       "trim(e.value) NOT GLOB '*[^0-9]*' AND (g.gid IS NULL OR g.type "
		       "IS NOT 'RoCE v2' OR g.ipv4 IS NULL) "
		       "GROUP BY e.bundle_id, e.who, e.value ORDER BY e.bundle_id, e.who",
	},
	{ 0 },
};
