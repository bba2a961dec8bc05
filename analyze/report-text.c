/* report-text: per node, bottom-up by layer like the guides, worst first */
#include <stdio.h>
#include <string.h>

#include "db.h"
#include "report.h"
#include "rules.h"

static const char *col(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? s : "";
}

static void summary(sqlite3 *db, FILE *out)
{
	fprintf(out, "rdma-analyze: %lld node(s), %lld bundle(s); findings: "
		"%lld critical, %lld warning, %lld info; %lld check(s) skipped\n",
		(long long)db_int(db, "SELECT count(DISTINCT b.node_id) FROM bundles b "
				  "JOIN report_bundles r ON r.bundle_id = b.id", NULL),
		(long long)db_int(db, "SELECT count(*) FROM report_bundles", NULL),
		(long long)db_int(db, "SELECT count(*) FROM findings WHERE severity = 2 "
				  "AND bundle_id IN (SELECT bundle_id FROM "
				  "report_bundles)", NULL),
		(long long)db_int(db, "SELECT count(*) FROM findings WHERE severity = 1 "
				  "AND bundle_id IN (SELECT bundle_id FROM "
				  "report_bundles)", NULL),
		(long long)db_int(db, "SELECT count(*) FROM findings WHERE severity = 0 "
				  "AND bundle_id IN (SELECT bundle_id FROM "
				  "report_bundles)", NULL),
		(long long)db_int(db, "SELECT count(*) FROM skipped WHERE bundle_id IN "
				  "(SELECT bundle_id FROM report_bundles)", NULL));
}

int report_text(sqlite3 *db, const struct report_opts *o)
{
	sqlite3_stmt *b, *f, *e, *s;
	FILE *out = o->out;

	summary(db, out);
	b = db_query(db, "SELECT b.id, b.hostname, b.file, b.collected_at, "
		     "coalesce((SELECT max(severity) FROM findings WHERE bundle_id "
		     "= b.id), -1) AS worst FROM bundles b JOIN report_bundles r ON "
		     "r.bundle_id = b.id ORDER BY worst DESC, b.hostname", NULL);
	while (sqlite3_step(b) == SQLITE_ROW) {
		int64_t bid = sqlite3_column_int64(b, 0);
		int worst = sqlite3_column_int(b, 4);

		fprintf(out, "\n== %s: %s  (%s, collected %s)\n", col(b, 1),
			worst < 0 ? "no findings" : severity_name(worst), col(b, 2),
			col(b, 3));
		f = db_query(db, "SELECT id, rule, layer, severity, component, "
			     "summary, remediation FROM findings WHERE bundle_id = ? "
			     "ORDER BY " LAYER_ORDER ", severity DESC, rule, "
			     "component", "i", bid);
		while (sqlite3_step(f) == SQLITE_ROW) {
			int sev = sqlite3_column_int(f, 3);

			fprintf(out, "  %-8s %-6s %-22s %s\n", severity_name(sev),
				col(f, 2), col(f, 1), col(f, 5));
			if (sev == SEV_INFO && !o->verbose)
				continue;
			e = db_query(db, "SELECT path, value FROM finding_evidence "
				     "WHERE finding_id = ? ORDER BY rowid", "i",
				     (int64_t)sqlite3_column_int64(f, 0));
			while (sqlite3_step(e) == SQLITE_ROW)
				fprintf(out, "%39s %s: %s\n", "", col(e, 0), col(e, 1));
			db_done(e);
			if (*col(f, 6))
				fprintf(out, "%39s fix: %s\n", "", col(f, 6));
		}
		db_done(f);
		s = db_query(db, "SELECT group_concat(rule, ', '), reason FROM "
			     "(SELECT rule, reason FROM skipped WHERE bundle_id = ? "
			     "ORDER BY rule) GROUP BY reason ORDER BY reason", "i", bid);
		while (sqlite3_step(s) == SQLITE_ROW)
			fprintf(out, "  skipped  %s: %s\n", col(s, 0), col(s, 1));
		db_done(s);
	}
	db_done(b);
	return ferror(out) ? -1 : 0;
}
