/* rules-sm: layer 3, the subnet manager as an InfiniBand port sees it:
 * a port stuck in INIT, no SM LID, no LID of its own (sysfs); SMInfo of the
 * SM each port names, when the bundle has the mad source (load-fabric.c's
 * mad_sminfo), by the check functions here */
#include <inttypes.h>
#include <string.h>

#include "db.h"
#include "rules.h"

static const char *const sm_states[] = { "NOTACTIVE", "DISCOVERING",
					 "STANDBY", "MASTER" };

/* the port that asked: port 0 is one the input does not name (an import
 * of a lone sminfo, rdma-collect/mad/sminfo.json): the subnet's SM */
#define SM_ASKER "CASE WHEN s.port = 0 THEN 'sm' ELSE s.ibdev || ':' || " \
	"s.port END"

/* SM_ABSENT: a port whose SMInfo query found no SM (no answer, or no SM
 * LID), unless the sysfs query already reported the port */
static int fabric_sm_absent(struct rctx *rc)
{
	sqlite3_stmt *st = db_query(rc->db,
		"SELECT s.bundle_id, " SM_ASKER ", s.sm_lid, s.error, "
		"m.path FROM mad_sminfo s JOIN todo_rule t ON t.bundle_id = "
		"s.bundle_id JOIN mad_ports m ON m.bundle_id = s.bundle_id AND "
		"m.ibdev = s.ibdev AND m.port = s.port WHERE s.state IS NULL AND "
		"s.error IS NOT NULL AND NOT EXISTS (SELECT 1 FROM findings f "
		"WHERE f.bundle_id = s.bundle_id AND f.rule = 'SM_ABSENT' AND "
		"f.component = " SM_ASKER ") "
		"ORDER BY s.bundle_id, s.ibdev, s.port", "");

	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t lid = db_col_int(st, 2), fid;

		if (lid > 0)
			fid = finding_add(rc, sqlite3_column_int64(st, 0), -1,
					  db_col(st, 1),
					  "no subnet manager answers "
					  "%s: SMInfo to SM LID %" PRId64
					  " failed (%s)",
					  db_col(st, 1), lid, db_col(st, 3));
		else if (!strcmp(db_col(st, 1), "sm"))
			fid = finding_add(rc, sqlite3_column_int64(st, 0), -1,
					  "sm",
					  "sminfo found no subnet manager "
					  "(%s)",
					  db_col(st, 3));
		else
			fid = finding_add(rc, sqlite3_column_int64(st, 0), -1,
					  db_col(st, 1),
					  "no subnet manager is "
					  "known to %s (%s)",
					  db_col(st, 1), db_col(st, 3));
		finding_evidence(rc, fid, db_col(st, 4), "errors.sminfo %s",
				 db_col(st, 3));
	}
	db_done(st);
	return 0;
}

/* SM_NOT_MASTER: the SM that answered is not MASTER; one finding per SM
 * (its GUID), naming the ports that asked it */
static int fabric_sm_not_master(struct rctx *rc)
{
	sqlite3_stmt *st = db_query(rc->db,
		"SELECT s.bundle_id, coalesce(s.guid, 'LID ' || s.sm_lid), "
		"min(s.sm_lid), min(s.state), min(s.priority), "
		"group_concat(CASE WHEN s.port = 0 THEN 'this node' ELSE "
		"s.ibdev || ':' || s.port END, ', '), min(m.path) "
		"FROM mad_sminfo s JOIN todo_rule t ON t.bundle_id = s.bundle_id "
		"JOIN mad_ports m ON m.bundle_id = s.bundle_id AND m.ibdev = "
		"s.ibdev AND m.port = s.port WHERE s.state BETWEEN 0 AND 2 "
		"GROUP BY s.bundle_id, 2 ORDER BY s.bundle_id, 2", "");

	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t state = db_col_int(st, 3), fid;

		fid = finding_add(
			rc, sqlite3_column_int64(st, 0), -1, "sm",
			"the subnet manager at LID %" PRId64 " (%s, "
			"priority %" PRId64 ") answers %s in state %s, "
			"not MASTER",
			db_col_int(st, 2), db_col(st, 1), db_col_int(st, 4), db_col(st, 5),
			sm_states[state >= 0 && state <= 3 ? state : 0]);
		finding_evidence(
			rc, fid, db_col(st, 6),
			"sminfo.SmState %" PRId64 " (%s), SmPriority %" PRId64,
			state, sm_states[state >= 0 && state <= 3 ? state : 0],
			db_col_int(st, 4));
	}
	db_done(st);
	return 0;
}

const struct rule rules_sm[] = {
	{
		.id = "SM_ABSENT",
		.layer = LAYER_SM,
		.severity = SEV_CRITICAL,
		.title = "no subnet manager: IB port stuck in INIT or sm_lid 0",
		.needs = "sysfs|mad",
		.imp_needs = IMP_NEEDS(&need_sm_state),
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
		.imp_needs = IMP_NEEDS(&need_sminfo),
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
