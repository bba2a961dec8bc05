/* rules-import: the checks an import cannot run for want of evidence.
 *
 * A rule's needs are sources, and an import marks a source "ok" as soon as
 * one of its inputs fed it: ibstat alone makes "sysfs" ok, yet no port
 * counter came with it.  On a bundle an empty table is a fact (the
 * collector read every counter and found none); on an import it is only
 * what nobody pasted.  So for an import, a rule whose evidence tables hold
 * nothing for it is skipped, naming what would carry that evidence,
 * instead of passing in silence.
 *
 * Each need is defined once here and named in rules.h; a rule's row
 * lists the needs it has (.imp_needs), in the order they are tried: the
 * first unmet one names the reason. */
#include "db.h"
#include "import.h"
#include "rules.h"

struct imp_need {
	const char *skip;	/* SQL: the skipped rows (?1 rule, ?2, ?3) */
	const char *drop;	/* SQL: out of todo_rule */
	const char *what;	/* ?2: "no <what> in this sos report" */
	const char *from;	/* ?3: the inputs that would carry it */
};

/* the statements whole at compile time, the kind's text from the import
 * kinds' table (import.h).  have: SQL giving the bundle ids that hold the
 * evidence */
#define NEED(have, what, from) {					\
	"INSERT OR IGNORE INTO skipped (bundle_id, rule, reason) SELECT "	\
	"t.bundle_id, ?1, 'no ' || ?2 || ' in this ' || "			\
	IMP_KIND_TEXT_SQL("i.kind") " || ' (' || ?3 || ')' FROM todo_rule "	\
	"t JOIN imports i ON "							\
	"i.bundle_id = t.bundle_id WHERE t.bundle_id NOT IN (" have ")",	\
	"DELETE FROM todo_rule WHERE bundle_id IN (SELECT bundle_id FROM "	\
	"imports) AND bundle_id NOT IN (" have ")", what, from }

#define PORT_COUNTERS "SELECT bundle_id FROM counters WHERE kind = 'pma' " \
	"UNION SELECT bundle_id FROM mad_counters WHERE side = 'peer' "    \
	"UNION SELECT bundle_id FROM fabric_counters"

const struct imp_need need_port_counters = NEED(
	PORT_COUNTERS, "port counters",
	"perfquery, ibdiagnet's PM_INFO or copies of "
	"sys/class/infiniband/*/ports/*/counters carry them");

const struct imp_need need_own_counters = NEED(
	"SELECT bundle_id FROM counters WHERE kind = 'pma'",
	"port counters of the node's own ports",
	"copies of sys/class/infiniband/*/ports/*/counters carry them");

const struct imp_need need_flap_evidence = NEED(
	PORT_COUNTERS " UNION SELECT bundle_id FROM klog",
	"kernel log and no port counters", "dmesg, perfquery");

const struct imp_need need_hw_counters = NEED(
	"SELECT bundle_id FROM counters WHERE kind = 'hw' UNION SELECT "
	"bundle_id FROM netdev_stats WHERE lower(name) GLOB '[rt]x_*cnp*'",
	"RDMA hw_counters", "copies of sys/class/infiniband/*/ports/*/"
	"hw_counters carry them");

/* ethtool_stats.pl's rates are measured already */
const struct imp_need need_uptime = NEED(
	"SELECT id FROM bundles WHERE uptime_s > 0 OR sample_s > 0 "
	"UNION SELECT bundle_id FROM netdev_stats WHERE source = "
	"'ethtool-rate'",
	"uptime to measure the counters against", "uptime, /proc/uptime");

/* counters do not say which priorities have PFC: an ethtool -S
 * without rx_prio<N>_pause lines may be a grep that hid them */
const struct imp_need need_pfc = NEED(
	"SELECT bundle_id FROM pfc",
	"PFC configuration", "dcb pfc show dev IFACE, mlnx_qos -i IFACE");

const struct imp_need need_iommu = NEED(
	"SELECT bundle_id FROM iommu_groups UNION SELECT bundle_id FROM "
	"facts WHERE key = 'iommu_units' UNION SELECT bundle_id FROM "
	"klog WHERE text LIKE 'iommu: Default domain type: %'",
	"IOMMU state", "copies of sys/class/iommu and "
	"sys/kernel/iommu_groups/*/type, or dmesg from boot ('iommu: "
	"Default domain type', 'Adding to iommu group') carry it");

/* lspci -v shows no Lnk* line, lspci -vv without root no register:
 * the link state is the registers, the sysfs link files, mlx5's
 * own probe line or the HCA's own view (mlxlink --port_type PCIE) */
const struct imp_need need_pcie_link = NEED(
	"SELECT bundle_id FROM pci_functions WHERE lnksta_width > 0 OR "
	"cur_link_width > 0 UNION SELECT bundle_id FROM klog WHERE text "
	"LIKE '%available PCIe bandwidth%' UNION SELECT bundle_id FROM "
	"phy_pcie WHERE depth = 0 AND (gen_enabled > 0 OR "
	"width_enabled > 0)", "PCIe link state",
	"lspci -vv as root, copies of sys/bus/pci/devices/*/"
	"current_link_*, mlx5_core's 'available PCIe bandwidth' "
	"line of dmesg, or mlxlink -d DEV --port_type PCIE carry it");

/* lspci -vv as root prints every ACS capability's ACSCtl: with
 * link registers read and no ACS row, the functions have none */
const struct imp_need need_acs = NEED(
	"SELECT bundle_id FROM pci_acs UNION SELECT bundle_id FROM "
	"pci_functions WHERE lnkcap_width > 0 UNION SELECT bundle_id "
	"FROM facts WHERE key = 'acsctl_unplaced'", "ACS state",
	"lspci -vvv as root (its ACSCtl lines) carries it");

const struct imp_need need_sminfo = NEED(
	"SELECT bundle_id FROM mad_sminfo", "SMInfo",
	"sminfo");

/* a perfquery feeds the mad source too, yet says nothing of the SM */
const struct imp_need need_sm_state = NEED(
	"SELECT bundle_id FROM ports UNION SELECT bundle_id "
	"FROM mad_sminfo", "port state and no SMInfo", "ibstat, sminfo");

const struct imp_need need_nccl_env = NEED(
	"SELECT bundle_id FROM environment", "NCCL settings",
	"nccl.conf");

/* a GID table is show_gids' or sysfs' own, with the types: ibstat
 * and ibstatus print none (a port GUID is not a table) */
const struct imp_need need_gid_table = NEED(
	"SELECT bundle_id FROM gids WHERE type IS NOT NULL",
	"GID table", "show_gids, or copies of sys/class/infiniband/*/"
	"ports/*/gids and gid_attrs carry it");

/* a filtered lsmod (no header) lists only what the filter kept; the
 * Used-by of an RDMA module it kept is complete all the same
 * (MODULE_MISSING judges what that proves, rules-kernel.c) */
const struct imp_need need_module_list = NEED(
	"SELECT bundle_id FROM sources WHERE name = 'modules' AND status "
	"= 'ok' UNION SELECT bundle_id FROM modules WHERE name IN "
	"('ib_core', 'ib_cm', 'rdma_cm', 'mlx5_core')",
	"complete module list",
	"lsmod unfiltered, with its header line, or /proc/modules");

/* nvidia_peermem missing: a whole module list says so, a filtered
 * one only when it shows the module or printed nothing for both
 * peer-memory modules; the kernel log when it fails */
const struct imp_need need_peermem = NEED(
	"SELECT bundle_id FROM sources WHERE name = 'modules' AND status "
	"= 'ok' UNION SELECT bundle_id FROM facts WHERE key = "
	"'peermem_loaded' AND value = '1' UNION SELECT bundle_id FROM "
	"klog WHERE category = 'peermem' UNION SELECT bundle_id FROM "
	"facts WHERE key = 'module_absent/nvidia_peermem' AND bundle_id "
	"IN (SELECT bundle_id FROM facts WHERE key = "
	"'module_absent/nv_peer_mem')", "complete module list",
	"lsmod unfiltered, with its header line, /proc/modules, lsmod | "
	"grep nvidia_peermem and | grep nv_peer_mem, or the kernel log's "
	"nvidia_peermem lines");

/* NCCL's fallback to sockets is a fault only while ports are up */
const struct imp_need need_port_state = NEED(
	"SELECT bundle_id FROM ports WHERE state IS NOT "
	"NULL", "port state", "ibstat, ibv_devinfo, ibstatus or rdma "
	"link show carry it");

/* GPUDirect disabled matters only on a node with GPUs */
const struct imp_need need_gpus = NEED(
	"SELECT bundle_id FROM pci_functions UNION "
	"SELECT bundle_id FROM nccl_events WHERE kind = 'gpu'",
	"GPU inventory", "lspci, or the NCCL log (its 'cudaDev N "
	"... busId' lines, else the cudaDev of its lines' "
	"'host:pid:tid [N]' prefix) carries it");

/* a ulimit or a limits file alone makes the limits source ok */
const struct imp_need need_hugepages = NEED(
	"SELECT bundle_id FROM meminfo WHERE name = "
	"'HugePages_Total' UNION SELECT bundle_id FROM facts WHERE key "
	"GLOB 'hugepages/*/nr_hugepages'", "huge page count",
	"/proc/meminfo, or grep Huge /proc/meminfo, carries it");

const struct imp_need need_memlock = NEED(
	"SELECT bundle_id FROM limits WHERE item = "
	"'memlock'", "locked-memory limit", "ulimit -a, /proc/PID/limits "
	"or limits.conf's memlock lines carry it");

/* only the collector knows where it ran */
const struct imp_need need_container = NEED(
	"SELECT bundle_id FROM imports WHERE 0",
	"container facts", "rdma-collect records them");

int rules_import_skip(sqlite3 *db, const struct rule *r)
{
	const struct imp_need *const *need;
	int imports = -1;

	for (need = r->imp_needs; need && *need; need++) {
		/* the statements scan whole evidence tables for what an
		 * import has: only when an import is among the bundles (on a
		 * load of bundles they were a third of the rules' time) */
		if (imports < 0)
			imports = (int)db_int(db, "SELECT EXISTS (SELECT 1 FROM "
					      "todo_rule t JOIN imports i ON "
					      "i.bundle_id = t.bundle_id)", NULL);
		if (!imports)
			return 0;
		if (db_exec(db, (*need)->skip, "sss", r->id, (*need)->what,
			    (*need)->from) < 0 ||
		    db_exec(db, (*need)->drop, "") < 0)
			return -1;
	}
	return 0;
}
