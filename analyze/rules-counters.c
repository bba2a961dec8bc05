/* rules-counters: counters that can no longer count.  A PortCounters
 * error counter saturates at its field's maximum instead of wrapping (IBA
 * 16.1.3.5: 8 bits LinkDowned and LinkErrorRecovery, 16 bits SymbolError,
 * PortRcvErrors ..., 4 bits LocalLinkIntegrity and ExcessiveBufferOverrun,
 * 32 bits PortXmitWait); at the maximum its growth is invisible, so every
 * check that reads it (SYMBOL_ERRORS, LINK_FLAPPING, XMIT_WAIT_HIGH,
 * COUNTER_GROWING) sees "at least" and no rate.  The widths are the
 * history's (history.c: hist_counter_info), one table for both. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "history.h"
#include "rules.h"

static int check_saturated(struct rctx *rc)
{
	sqlite3_stmt *st = db_query(rc->db, "SELECT c.bundle_id, c.ibdev, "
		"c.port, c.kind, c.name, c.value, c.path FROM counters c JOIN "
		"todo_rule t ON t.bundle_id = c.bundle_id WHERE c.kind = 'pma' "
		"AND c.value > 0 ORDER BY c.bundle_id, c.ibdev, c.port, c.name",
		NULL);

	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *kind = (const char *)sqlite3_column_text(st, 3);
		const char *name = (const char *)sqlite3_column_text(st, 4);
		const char *path = (const char *)sqlite3_column_text(st, 6);
		uint64_t v = (uint64_t)sqlite3_column_int64(st, 5);
		struct hist_counter c;
		char comp[96];
		int beyond;
		int64_t fid;

		/* at its field's maximum; or held at INT64_MAX (util.h
		 * u64_stored: 2^63 or more, which no reading reaches): a
		 * saturated 64-bit value (2^64 - 1) or garbage, whatever the
		 * width.  A value past a 32-bit maximum is not one: sysfs
		 * gives port_xmit_wait from the 64-bit extended counters */
		if (hist_counter_info(kind, name, v, &c) < 0)
			continue;
		beyond = v >= (uint64_t)INT64_MAX;
		if ((!beyond && (c.width >= 64 || v != hist_max(c.width))) ||
		    (!c.error && strcmp(name, "port_xmit_wait")))
			continue;
		snprintf(comp, sizeof(comp), "%s:%d",
			 (const char *)sqlite3_column_text(st, 1),
			 sqlite3_column_int(st, 2));
		fid = finding_add(rc, sqlite3_column_int64(st, 0), -1, comp,
				  "%s on %s is at its %u-bit maximum%s %llu: it "
				  "counts no more, so its growth cannot be seen",
				  name, comp, c.width, beyond ? " (or beyond)" :
				  "", (unsigned long long)v);
		finding_evidence(rc, fid, path ? path : "", "%s %llu", name,
				 (unsigned long long)v);
	}
	db_done(st);
	return 0;
}

const struct rule rules_counters[] = {
	{
		.id = "COUNTER_SATURATED",
		.layer = LAYER_EVIDENCE,
		.severity = SEV_WARNING,
		.title = "an error counter (or PortXmitWait) sits at its maximum: its growth can no longer be seen",
		.needs = "sysfs",
		.imp_needs = IMP_NEEDS(&need_own_counters),
		.evidence = "sys/class/infiniband/<dev>/ports/<n>/counters/* (the PortCounters field widths)",
		.remediation = "Save the counters (perfquery -x, or this bundle), then clear them so they count again (perfquery -R -x LID PORT, or the subnet manager's counter reset); read the checks of that counter as 'at least' until then. A counter that saturates again soon points at the port its checks name.",
		.check = check_saturated,
	},
	{ 0 },
};
