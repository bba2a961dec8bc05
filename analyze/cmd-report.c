/* cmd-report: `rdma-analyze [report] [options] BUNDLE|DIR...`, the default
 * command: bundles (or the newest bundle of each node of --db) diagnosed,
 * compared as a fleet, and written as a report in one of the formats of
 * report.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "breader.h"
#include "db.h"
#include "import.h"
#include "load.h"
#include "log.h"
#include "report.h"
#include "rules.h"
#include "util.h"

static const char usage_text[] =
"usage: rdma-analyze [report] [options] BUNDLE|DIR...\n"
"       rdma-analyze report --db FILE [options]\n"
"\n"
"Diagnose bundles (loaded in memory, or from --db: the newest bundle of\n"
"each node) and write a report; a BUNDLE may also be a sos report, a\n"
"sysinfo-snapshot, an ibdiagnet folder or a folder of command outputs,\n"
"archive or folder, one pasted output or ticket, or - (standard input:\n"
"ibstat | rdma-analyze -); what no reader understood is named\n"
"(INPUT_UNREAD), nothing read exits 4 (schema/IMPORT.md).\n"
"  --db FILE          use (and add the BUNDLEs to) this database\n"
"  -f, --format F     text (default), json, html or prom (Prometheus\n"
"                     metrics for node_exporter's textfile collector)\n"
"  --json             the same as --format json\n"
"  -o, --output FILE  write the report to FILE\n"
"  --thresholds FILE  override thresholds ('name value' lines)\n"
"  --expect-hcas N    each node should have N RDMA devices\n"
"  --baseline B       compare the nodes with B, a known-good bundle (for its\n"
"                     class) or a file of 'ATTRIBUTE VALUE' lines, instead\n"
"                     of their class's majority\n"
"  -v, --verbose      evidence and remediation of info findings too\n"
"  -q, --quiet        no progress bar (it is drawn only on a terminal, and\n"
"                     never for --format json)\n"
"\n"
"Exit status: 0 nothing at warning or above; 1 warnings; 2 critical\n"
"findings; 3 usage error; 4 a bundle or the database could not be read\n"
"(the other bundles are still reported).\n";

static const struct option opts[] = {
	{ "db", required_argument, NULL, 'd' },
	{ "format", required_argument, NULL, 'f' },
	{ "json", no_argument, NULL, 'j' },
	{ "output", required_argument, NULL, 'o' },
	{ "thresholds", required_argument, NULL, 't' },
	{ "expect-hcas", required_argument, NULL, 'e' },
	{ "baseline", required_argument, NULL, 'b' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct report_args {
	struct load_args l;
	const struct report_format *f;
	const char *output, *baseline;
	int verbose, quiet;
};

/* 0, 1 after --help, or an exit status of a usage error (< 0) */
static int parse(int argc, char **argv, struct report_args *a)
{
	const char *format = "text";
	long long n;
	int c;

	memset(a, 0, sizeof(*a));
	optind = 1;
	while ((c = cmd_getopt("report", argc, argv, "+:f:o:vqh", opts)) != -1) {
		switch (c) {
		case 'd': a->l.db = optarg; break;
		case 'f': format = optarg; break;
		case 'j': format = "json"; break;
		case 'o': a->output = optarg; break;
		case 't': a->l.thresholds = optarg; break;
		case 'e': a->l.expect_hcas = optarg; break;
		case 'b': a->baseline = optarg; break;
		case 'v': a->verbose = 1; break;
		case 'q': a->quiet = 1; break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		default:
			return -EXIT_USAGE;
		}
	}
	a->l.files = argv + optind;
	a->l.nfiles = argc - optind;
	if (a->l.expect_hcas &&
	    parse_ll(a->l.expect_hcas, 10, 1, 4096, &n) < 0)
		return -usage_error("report", "invalid --expect-hcas '%s' "
				    "(1-4096)", a->l.expect_hcas);
	for (a->f = report_formats; a->f->name && strcmp(a->f->name, format);
	     a->f++)
		;
	if (!a->f->name)
		return -usage_error("report", "unknown format '%s' (text, json, "
				    "html, prom)", format);
	if (!a->l.db && !a->l.nfiles)
		return -usage_error("report", "which bundles (or --db FILE)?");
	return 0;
}

/* the bundles of the report (report_select) */
static size_t report_ids(sqlite3 *db, int64_t **ids)
{
	sqlite3_stmt *s = db_query(db, "SELECT bundle_id FROM report_bundles",
				   NULL);
	size_t n = 0;

	*ids = NULL;
	while (sqlite3_step(s) == SQLITE_ROW) {
		*ids = xrealloc(*ids, (n + 1) * sizeof(**ids));
		(*ids)[n++] = sqlite3_column_int64(s, 0);
	}
	db_done(s);
	return n;
}

/* the baseline: a bundle (loaded like the others, not reported unless
 * given) or a file of expected values */
static int load_baseline(sqlite3 *db, const char *path)
{
	struct load_stats st;
	char *files[1] = { (char *)path };
	struct bundle_r *b = NULL;
	char err[512];
	int rc;

	if (imp_or_br_open(path, NULL, &b, err, sizeof(err)) < 0)
		return fleet_baseline_file(db, path);
	br_free(b);
	memset(&st, 0, sizeof(st));
	load_files(db, files, 1, 0, NULL, &st);
	rc = st.nall == 1 ? fleet_baseline_bundle(db, st.all_ids[0]) :
			    error("baseline '%s' could not be loaded", path);
	load_stats_release(&st);
	return rc;
}

/* the fleet checks over the report's bundles */
static int fleet_pass(sqlite3 *db, const struct report_args *a)
{
	int64_t *ids;
	size_t n;
	int rc;

	if (a->baseline && load_baseline(db, a->baseline) < 0)
		return -1;
	n = report_ids(db, &ids);
	rc = rules_run_fleet(db, ids, n);
	free(ids);
	return rc;
}

/* what was loaded before keeps its findings, unless this run changes the
 * thresholds: then it is diagnosed again; the bundles given, before they
 * are selected, else the report's, after */
static void rediagnose(sqlite3 *db, const struct report_args *a,
		       const struct load_stats *st, int selected)
{
	int64_t *ids;
	size_t n;

	if (!a->l.thresholds && !a->l.expect_hcas)
		return;
	if (a->l.nfiles) {
		if (!selected && st->duplicate)
			rules_run(db, st->all_ids, st->nall);
		return;
	}
	if (!selected)
		return;
	n = report_ids(db, &ids);
	rules_run(db, ids, n);
	free(ids);
}

struct write_args {
	sqlite3 *db;
	const struct report_args *a;
};

static int write_to(void *arg, FILE *out)
{
	struct write_args *w = arg;
	struct report_opts ro = { out, w->a->verbose };

	return w->a->f->write(w->db, &ro);
}

/* to standard output, or to --output whole or not at all
 * (report_write_file); -1 when the file could not be written */
static int write_report(sqlite3 *db, const struct report_args *a)
{
	struct write_args w = { db, a };

	if (!a->output) {
		write_to(&w, stdout);
		return 0;
	}
	return report_write_file(a->output, write_to, &w);
}

int cmd_report(int argc, char **argv)
{
	struct report_args a;
	struct load_stats st;
	sqlite3 *db;
	int rc, failed = 0;

	if ((rc = parse(argc, argv, &a)))
		return rc > 0 ? EXIT_OK : -rc;
	db = db_open(a.l.db ? a.l.db : ":memory:");
	if (!db)
		return EXIT_INPUT;
	memset(&st, 0, sizeof(st));
	/* a bar while bundles load, on a terminal, for a report read there */
	if (load_and_diagnose(db, &a.l, &st, !a.quiet && isatty(STDERR_FILENO) &&
			      strcmp(a.f->name, "json")) < 0 || st.failed)
		failed = 1;
	rediagnose(db, &a, &st, 0);
	if (report_select(db, a.l.nfiles ? st.all_ids : NULL,
			  a.l.nfiles ? st.nall : 0))
		failed = 1;
	rediagnose(db, &a, &st, 1);
	if (fleet_pass(db, &a) < 0)
		failed = 1;
	if (write_report(db, &a) < 0)
		failed = 1;
	rc = report_worst(db);
	/* nothing read is never OK */
	if (!db_int(db, "SELECT count(*) FROM report_bundles", NULL)) {
		if (!failed)
			error("no evidence: %s", a.l.nfiles ? "no bundle or "
			      "readable evidence in the input" :
			      "the database holds no bundle");
		failed = 1;
	}
	db_close(db);
	load_stats_release(&st);
	return failed ? EXIT_INPUT : rc;
}
