/* report-html: one self-contained page (no external requests: it opens on
 * an air-gapped laptop); every string from a bundle is escaped */
#include <stdio.h>
#include <string.h>

#include "db.h"
#include "report.h"
#include "rules.h"

static void esc(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*s, out);
		}
	}
}

static const char *col(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? s : "";
}

static const char style[] =
	"body{font:14px system-ui,sans-serif;margin:2em;color:#222}"
	"h2{margin-top:2em;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;width:100%}"
	"td,th{border:1px solid #ddd;padding:4px 6px;vertical-align:top;text-align:left}"
	".critical{background:#fdd}.warning{background:#ffe9b3}.info{background:#eef}"
	"code{font-size:12px}small{color:#666}";

int report_html(sqlite3 *db, const struct report_opts *o)
{
	sqlite3_stmt *b, *f, *e;
	FILE *out = o->out;

	fprintf(out, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
		"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
		"'none'; style-src 'unsafe-inline'\">\n<title>rdma-analyze report"
		"</title><style>%s</style></head><body>\n<h1>rdma-analyze report</h1>\n",
		style);
	fprintf(out, "<p>%lld bundle(s): %lld critical, %lld warning, %lld info "
		"finding(s).</p>\n",
		(long long)db_int(db, "SELECT count(*) FROM report_bundles", NULL),
		(long long)db_int(db, "SELECT count(*) FROM findings WHERE severity = 2 "
				  "AND bundle_id IN (SELECT bundle_id FROM report_bundles)", NULL),
		(long long)db_int(db, "SELECT count(*) FROM findings WHERE severity = 1 "
				  "AND bundle_id IN (SELECT bundle_id FROM report_bundles)", NULL),
		(long long)db_int(db, "SELECT count(*) FROM findings WHERE severity = 0 "
				  "AND bundle_id IN (SELECT bundle_id FROM report_bundles)", NULL));
	b = db_query(db, "SELECT b.id, b.hostname, b.file, b.collected_at FROM "
		     "bundles b JOIN report_bundles r ON r.bundle_id = b.id ORDER BY "
		     "(SELECT max(severity) FROM findings WHERE bundle_id = b.id) "
		     "DESC, b.hostname", NULL);
	while (sqlite3_step(b) == SQLITE_ROW) {
		fputs("<h2>", out);
		esc(out, col(b, 1));
		fputs(" <small>", out);
		esc(out, col(b, 2));
		fputs(", collected ", out);
		esc(out, col(b, 3));
		fputs("</small></h2>\n<table><tr><th>severity</th><th>layer</th>"
		      "<th>rule</th><th>component</th><th>finding</th><th>evidence"
		      "</th><th>remediation</th></tr>\n", out);
		f = db_query(db, "SELECT id, rule, layer, severity, component, summary, "
			     "remediation FROM findings WHERE bundle_id = ? ORDER BY "
			     LAYER_ORDER ", severity DESC, rule", "i",
			     (int64_t)sqlite3_column_int64(b, 0));
		while (sqlite3_step(f) == SQLITE_ROW) {
			const char *sev = severity_name(sqlite3_column_int(f, 3));
			int k;

			fprintf(out, "<tr class=\"%s\"><td>%s</td>", sev, sev);
			for (k = 2; k >= 1; k--) {
				fputs("<td>", out);
				esc(out, col(f, k));
				fputs("</td>", out);
			}
			fputs("<td>", out);
			esc(out, col(f, 4));
			fputs("</td><td>", out);
			esc(out, col(f, 5));
			fputs("</td><td>", out);
			e = db_query(db, "SELECT path, value FROM finding_evidence WHERE "
				     "finding_id = ? ORDER BY rowid", "i",
				     (int64_t)sqlite3_column_int64(f, 0));
			while (sqlite3_step(e) == SQLITE_ROW) {
				fputs("<code>", out);
				esc(out, col(e, 0));
				fputs("</code>: ", out);
				esc(out, col(e, 1));
				fputs("<br>", out);
			}
			db_done(e);
			fputs("</td><td>", out);
			esc(out, col(f, 6));
			fputs("</td></tr>\n", out);
		}
		db_done(f);
		fputs("</table>\n", out);
	}
	db_done(b);
	fputs("</body></html>\n", out);
	return ferror(out) ? -1 : 0;
}
