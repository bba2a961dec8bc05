/* report-text: per node, bottom-up by layer like the guides, worst first.
 *
 * For a terminal: the first line is the verdict, every line fits
 * TEXT_WIDTH columns (long summaries, evidence and remediation wrap under
 * their column; a bundle path longer than the line is cut where it must
 * be), and severities are coloured only when the output is a terminal and
 * NO_COLOR is unset or empty (no-color.org). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "import.h"
#include "report.h"
#include "rules.h"
#include "term.h"

#define TEXT_WIDTH 100
#define FIX_INDENT 41		/* under the summary column */

static int use_color(FILE *out)
{
	const char *nc = getenv("NO_COLOR");

	return isatty(term_fd(out)) && !(nc && *nc);
}

static const char *sev_color(int color, int sev)
{
	static const char *const c[] = { "\033[36m", "\033[33m", "\033[1;31m" };

	return color && sev >= 0 && sev <= 2 ? c[sev] : "";
}

static const char *reset(int color)
{
	return color ? "\033[0m" : "";
}

/* columns of a UTF-8 string (continuation bytes take none) */
static size_t width(const char *s, size_t n)
{
	size_t i, w = 0;

	for (i = 0; i < n; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

/* bytes of s that fit in cols columns, not splitting a character */
static size_t fit(const char *s, size_t n, size_t cols)
{
	size_t i, w = 0;

	for (i = 0; i < n; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80 && w++ == cols)
			break;
	}
	return i;
}

/* n bytes of s, each control character as '?': the strings come from
 * bundles, and an escape sequence in a hostname or a kernel log line
 * must not reach the reader's terminal */
static void put(FILE *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fputc((unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i],
		      out);
}

/* print text from column `at` to TEXT_WIDTH, wrapping at spaces onto new
 * lines indented by `indent`; a word longer than a line is broken */
static void wrap(FILE *out, size_t at, size_t indent, const char *text)
{
	const char *p = text;
	size_t room = TEXT_WIDTH > at ? TEXT_WIDTH - at : 1;

	while (*p) {
		size_t n = strlen(p), cut;

		if (width(p, n) <= room) {
			put(out, p, n);
			break;
		}
		cut = fit(p, n, room);
		/* back to the last space, if there is one on this line */
		while (cut > 0 && p[cut] != ' ')
			cut--;
		if (!cut)
			cut = fit(p, n, room);
		put(out, p, cut);
		p += cut;
		while (*p == ' ')
			p++;
		fprintf(out, "\n%*s", (int)indent, "");
		room = TEXT_WIDTH - indent;
	}
	fputc('\n', out);
}

/* the first line: how bad, on how many nodes */
static void verdict(sqlite3 *db, FILE *out, int color)
{
	static const char q[] = "SELECT count(*) FROM report_bundles r WHERE "
		"coalesce((SELECT max(severity) FROM findings WHERE bundle_id = "
		"r.bundle_id), -1) = ?";
	int64_t nodes = db_int(db, "SELECT count(*) FROM report_bundles", NULL);
	int64_t crit = db_int(db, q, "i", (int64_t)SEV_CRITICAL);
	int64_t warn = db_int(db, q, "i", (int64_t)SEV_WARNING);

	if (!nodes) {
		term_own(out, sev_color(color, 2));
		fputs("NO EVIDENCE", out);
		term_own(out, reset(color));
		fputs(": nothing was read, so nothing was checked\n", out);
	} else if (crit || warn) {
		term_own(out, sev_color(color, crit ? 2 : 1));
		fputs(crit ? "CRITICAL" : "WARNING", out);
		term_own(out, reset(color));
		fprintf(out, ": %lld of %lld node(s) critical, %lld warning, "
			"%lld without either\n", (long long)crit,
			(long long)nodes, (long long)warn,
			(long long)(nodes - crit - warn));
	} else
		fprintf(out, "OK: no warning or critical finding on %lld node(s)\n",
			(long long)nodes);
}

static void summary(sqlite3 *db, FILE *out)
{
	fprintf(out, "rdma-analyze: %lld node(s), %lld bundle(s); %lld critical, "
		"%lld warning, %lld info; %lld check(s) skipped\n",
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
	report_inputs_line(db, out);
}

int report_text(sqlite3 *db, const struct report_opts *o)
{
	sqlite3_stmt *b, *f, *e, *s;
	FILE *out = o->out;
	int color = use_color(out);
	char line[TEXT_WIDTH * 4];

	verdict(db, out, color);
	summary(db, out);
	b = db_query(db, "SELECT b.id, b.hostname, b.file, b.collected_at, "
		     "coalesce((SELECT max(severity) FROM findings WHERE bundle_id "
		     "= b.id), -1) AS worst FROM bundles b JOIN report_bundles r ON "
		     "r.bundle_id = b.id ORDER BY worst DESC, b.hostname", NULL);
	while (sqlite3_step(b) == SQLITE_ROW) {
		int64_t bid = sqlite3_column_int64(b, 0);
		int worst = sqlite3_column_int(b, 4);

		fputc('\n', out);
		term_own(out, color ? "\033[1m" : "");
		fputs("== ", out);
		put(out, db_col(b, 1), strlen(db_col(b, 1)));
		term_own(out, reset(color));
		fputs(": ", out);
		term_own(out, sev_color(color, worst));
		fputs(worst < 0 ? "no findings" : severity_name(worst), out);
		term_own(out, reset(color));
		fputs("  ", out);
		snprintf(line, sizeof(line), "(%s, collected %s)", db_col(b, 2),
			 db_col(b, 3));
		wrap(out,
		     width(db_col(b, 1), strlen(db_col(b, 1))) + 5 +
			     strlen(worst < 0 ? "no findings"
					      : severity_name(worst)) +
			     2,
		     6, line);
		f = db_query(db, "SELECT id, rule, layer, severity, component, "
			     "summary, remediation FROM findings WHERE bundle_id = ? "
			     "ORDER BY " LAYER_ORDER ", severity DESC, rule, "
			     "component", "i", bid);
		while (sqlite3_step(f) == SQLITE_ROW) {
			int sev = sqlite3_column_int(f, 3);

			fputs("  ", out);
			term_own(out, sev_color(color, sev));
			fprintf(out, "%-8s", severity_name(sev));
			term_own(out, reset(color));
			fprintf(out, " %-6s %-22s ", db_col(f, 2),
				db_col(f, 1));
			/* a layer or rule id wider than its column pushes the
			 * summary right */
			wrap(out,
			     2 + 9 +
				     (strlen(db_col(f, 2)) > 6
					      ? strlen(db_col(f, 2))
					      : 6) +
				     1 +
				     (strlen(db_col(f, 1)) > 22
					      ? strlen(db_col(f, 1))
					      : 22) +
				     1,
			     FIX_INDENT, db_col(f, 5));
			if (sev == SEV_INFO && !o->verbose)
				continue;
			/* an imported node's evidence names its input file
			 * when that is not the bundle path itself */
			e = db_query(db, "SELECT e.path, e.value, " IMP_ORIGIN_SQL(
				     "?", "e.path") " FROM finding_evidence e WHERE "
				     "e.finding_id = ? ORDER BY e.rowid", "ii", bid,
				     (int64_t)sqlite3_column_int64(f, 0));
			while (sqlite3_step(e) == SQLITE_ROW) {
				const char *org = db_col(e, 2);

				snprintf(line, sizeof(line), "%s%s%s%s: %s",
					 db_col(e, 0),
					 *org && strcmp(org, db_col(e, 0))
						 ? " (from "
						 : "",
					 *org && strcmp(org, db_col(e, 0)) ? org
									   : "",
					 *org && strcmp(org, db_col(e, 0)) ? ")"
									   : "",
					 db_col(e, 1));
				fprintf(out, "%*s", FIX_INDENT - 1, "");
				wrap(out, FIX_INDENT - 1, FIX_INDENT + 1, line);
			}
			db_done(e);
			if (*db_col(f, 6)) {
				fprintf(out, "%*sfix: ", FIX_INDENT - 1, "");
				wrap(out, FIX_INDENT + 4, FIX_INDENT + 4,
				     db_col(f, 6));
			}
		}
		db_done(f);
		s = db_query(db, "SELECT group_concat(rule, ', '), reason FROM "
			     "(SELECT rule, reason FROM skipped WHERE bundle_id = ? "
			     "ORDER BY rule) GROUP BY reason ORDER BY reason", "i", bid);
		while (sqlite3_step(s) == SQLITE_ROW) {
			fputs("  skipped  ", out);
			snprintf(line, sizeof(line), "%s: %s", db_col(s, 0),
				 db_col(s, 1));
			wrap(out, 11, 11, line);
		}
		db_done(s);
	}
	db_done(b);
	return ferror(out) ? -1 : 0;
}
