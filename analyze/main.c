/* rdma-analyze: the command line.  Subcommands are a table whose first
 * row is the default (iproute2's rdma.c): a bare list of bundles means
 * "report". */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "breader.h"
#include "buf.h"
#include "bundle.h"
#include "db.h"
#include "fingerprint.h"
#include "import.h"
#include "jsonp.h"
#include "json.h"
#include "load.h"
#include "log.h"
#include "report.h"
#include "rules.h"
#include "term.h"
#include "util.h"
#include "version.h"
#include "view.h"


static const char usage_text[] =
"usage: rdma-analyze [report] [options] BUNDLE|DIR...\n"
"       rdma-analyze report --db FILE [options]\n"
"       rdma-analyze load --db FILE BUNDLE|DIR...\n"
"       rdma-analyze show BUNDLE|NODE VIEW [ARGS] [--db FILE]\n"
"       rdma-analyze rules [--json]\n"
"       rdma-analyze list BUNDLE...\n"
"       rdma-analyze path --db FILE SRC DST\n"
"       rdma-analyze diff [--db FILE] [--json] [--all] A B\n"
"       rdma-analyze history --db FILE NODE [--json] [--all]\n"
"       rdma-analyze merge --db OUT DB...\n"
"       rdma-analyze pairs --db FILE [--results CSV] [--method M] [--json]\n"
"\n"
"report  diagnose bundles (loaded in memory, or from --db: the newest\n"
"        bundle of each node) and write a report; a BUNDLE may also be a\n"
"        sos report, a sysinfo-snapshot, an ibdiagnet folder or a folder of\n"
"        command outputs, archive or folder, one pasted output or ticket,\n"
"        or - (standard input: ibstat | rdma-analyze -); what no reader\n"
"        understood is named (INPUT_UNREAD), nothing read exits 4\n"
"        (schema/IMPORT.md)\n"
"          --db FILE          use (and add the BUNDLEs to) this database\n"
"          -f, --format F     text (default), json or html\n"
"          -o, --output FILE  write the report to FILE\n"
"          --thresholds FILE  override thresholds ('name value' lines)\n"
"          --expect-hcas N    each node should have N RDMA devices\n"
"          --baseline B       compare the nodes with B, a known-good bundle\n"
"                             (for its class) or a file of 'ATTRIBUTE VALUE'\n"
"                             lines, instead of their class's majority\n"
"          -v, --verbose      evidence and remediation of info findings too\n"
"          -q, --quiet        no progress bar (it is drawn only on a terminal,\n"
"                             and never for --format json)\n"
"load    add bundles to a database (idempotent: a bundle already there is\n"
"        skipped), then diagnose them; a progress bar on a terminal and a\n"
"        summary line, neither with -q, --quiet\n"
"show    print a bundle's evidence as the familiar tool would; VIEW is one\n"
"        of the views listed by 'rdma-analyze show --list'\n"
"rules   the checks, their layer, severity and the evidence they need\n"
"          --json             as JSON\n"
"          --markdown         as the rule reference (schema/RULES.md)\n"
"          --thresholds       the thresholds and their defaults\n"
"list    read each bundle as the analyzer does (limits, unsafe paths\n"
"        left out) and print its entries, sorted\n"
"path    the route from SRC to DST and back (node description, hostname,\n"
"        LID or GUID) from the newest fabric scan's forwarding tables, as\n"
"        ibtracert prints it, with each hop's counters; exit 1: a route\n"
"        stops, 2: it loops (rdma-analyze path --help)\n"
"diff    the configuration fingerprints and the error counters of two\n"
"        bundles or nodes, side by side; exit 0: the same, 1: different\n"
"        (rdma-analyze diff --help)\n"
"history a node's bundles over time: snapshots (time, boot, uptime), what\n"
"        changed, counter deltas and per-hour rates, new kernel log events\n"
"        (rdma-analyze history --help; exit 4: no such node)\n"
"merge   copy every bundle of databases DB (one per rack, loaded apart)\n"
"        into OUT, ids remapped, a bundle already there skipped, then\n"
"        diagnose them there (rdma-analyze merge --help)\n"
"pairs   which node, cable, link or switch explains the failing pairs of\n"
"        a pair test (CSV), NCCL completion errors and perftest runs of\n"
"        the bundles (rdma-analyze pairs --help; schema/PAIRS.md)\n"
"\n"
"Exit status: 0 nothing at warning or above; 1 warnings; 2 critical\n"
"findings; 3 usage error; 4 a bundle or the database could not be read\n"
"(the other bundles are still reported).\n";

static const struct option report_opts[] = {
	{ "db", required_argument, NULL, 'd' },
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "thresholds", required_argument, NULL, 't' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "json", no_argument, NULL, 'j' },
	{ "list", no_argument, NULL, 'l' },
	{ "markdown", no_argument, NULL, 'm' },
	{ "expect-hcas", required_argument, NULL, 'e' },
	{ "baseline", required_argument, NULL, 'b' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct args {
	const char *db, *format, *output, *thresholds, *expect_hcas, *baseline;
	int verbose, json, list, markdown, quiet;
	int nfiles;
	char **files;
};

static int parse(int argc, char **argv, struct args *a)
{
	int c;

	memset(a, 0, sizeof(*a));
	optind = 1;
	while ((c = getopt_long(argc, argv, "+f:o:vqh", report_opts, NULL)) != -1) {
		switch (c) {
		case 'd': a->db = optarg; break;
		case 'f': a->format = optarg; break;
		case 'o': a->output = optarg; break;
		case 't': a->thresholds = optarg; break;
		case 'v': a->verbose = 1; break;
		case 'j': a->json = 1; break;
		case 'l': a->list = 1; break;
		case 'm': a->markdown = 1; break;
		case 'e': a->expect_hcas = optarg; break;
		case 'b': a->baseline = optarg; break;
		case 'q': a->quiet = 1; break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		default:
			return -1;
		}
	}
	a->files = argv + optind;
	a->nfiles = argc - optind;
	return 0;
}

static sqlite3 *open_db(const char *file)
{
	return db_open(file ? file : ":memory:");
}

/* the fleet comparison's per-bundle part, once, when the bundle arrives (a
 * report would otherwise compute it on first use); before the rules:
 * CONFIG_CHANGED compares a node's fingerprints over time */
static int diagnose(sqlite3 *db, const int64_t *ids, size_t n)
{
	if (fingerprint_update(db, ids, n) < 0)
		return -1;
	return rules_run(db, ids, n);
}

/* "-": standard input, read whole once (a paste: `ibstat | rdma-analyze
 * -`), within the limit of one bundle entry; it lives until exit */
static int read_stdin(struct args *a)
{
	static char *data;
	char err[128];
	size_t len;
	int i, want = 0;

	for (i = 0; i < a->nfiles; i++)
		want += !strcmp(a->files[i], "-");
	if (!want || data)
		return 0;
	if (want > 1)
		return error("standard input ('-') given twice");
	if (read_named_file("-", br_default_limits.max_entry, &data, &len, err,
			    sizeof(err)) < 0)
		return error("standard input: %s", err);
	imp_stdin(data, len);
	return 0;
}

static int load_and_diagnose(sqlite3 *db, struct args *a,
			     struct load_stats *st, int progress)
{
	/* the thresholds first: a report still runs, on nothing, after
	 * standard input is refused */
	if (thresholds_load(db, a->thresholds) < 0)
		return -1;
	if (read_stdin(a) < 0)
		return -1;
	if (a->expect_hcas) {
		long long n;

		if (parse_ll(a->expect_hcas, 10, 1, 4096, &n) < 0)
			return error("invalid --expect-hcas '%s'", a->expect_hcas);
		db_exec(db, "INSERT OR REPLACE INTO thresholds VALUES "
			"('expect_hcas', ?)", "d", (double)n);
	}
	load_files(db, a->files, a->nfiles, progress, diagnose, st);
	return st->diagnose_failed ? -1 : 0;
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
static int fleet_pass(sqlite3 *db, const struct args *a)
{
	sqlite3_stmt *s;
	int64_t *ids = NULL;
	size_t n = 0;
	int rc;

	if (a->baseline && load_baseline(db, a->baseline) < 0)
		return -1;
	s = db_query(db, "SELECT bundle_id FROM report_bundles", NULL);
	while (sqlite3_step(s) == SQLITE_ROW) {
		ids = xrealloc(ids, (n + 1) * sizeof(*ids));
		ids[n++] = sqlite3_column_int64(s, 0);
	}
	db_done(s);
	rc = rules_run_fleet(db, ids, n);
	free(ids);
	return rc;
}

int cmd_load(int argc, char **argv)
{
	struct load_stats st;
	struct args a;
	sqlite3 *db;
	int rc;

	if ((rc = parse(argc, argv, &a)))
		return rc < 0 ? usage_error("load", "bad option") : EXIT_OK;
	if (!a.db)
		return usage_error("load", "--db FILE is required");
	if (!a.nfiles)
		return usage_error("load", "which bundles?");
	db = open_db(a.db);
	if (!db)
		return EXIT_INPUT;
	rc = load_and_diagnose(db, &a, &st, !a.quiet && isatty(STDERR_FILENO));
	if (!a.quiet)
		fprintf(stderr, "rdma-analyze: %u loaded, %u already in %s, %u "
			"failed; %lld nodes, %lld bundles in the database\n",
			st.loaded, st.duplicate, a.db, st.failed,
			(long long)db_int(db, "SELECT count(*) FROM nodes", NULL),
			(long long)db_int(db, "SELECT count(*) FROM bundles", NULL));
	rc = rc < 0 || st.failed ? EXIT_INPUT : EXIT_OK;
	load_stats_release(&st);
	db_close(db);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	const struct report_format *f;
	struct report_opts ro = { stdout, 0 };
	struct load_stats st;
	struct args a;
	sqlite3 *db;
	char tmp[4096];
	int rc, failed = 0, overrides;

	if ((rc = parse(argc, argv, &a)))
		return rc < 0 ? usage_error("report", "bad option") : EXIT_OK;
	if (a.expect_hcas) {
		long long n;

		if (parse_ll(a.expect_hcas, 10, 1, 4096, &n) < 0)
			return usage_error("report", "invalid --expect-hcas '%s' (1-4096)",
				     a.expect_hcas);
	}
	if (!a.format)
		a.format = "text";
	for (f = report_formats; f->name && strcmp(f->name, a.format); f++)
		;
	if (!f->name)
		return usage_error("report", "unknown format '%s' (text, json, html)", a.format);
	if (!a.db && !a.nfiles)
		return usage_error("report", "which bundles (or --db FILE)?");
	db = open_db(a.db);
	if (!db)
		return EXIT_INPUT;
	memset(&st, 0, sizeof(st));
	/* a bar while bundles load, on a terminal, for a report read there */
	if (load_and_diagnose(db, &a, &st, !a.quiet && isatty(STDERR_FILENO) &&
			      !(a.format && !strcmp(a.format, "json"))) < 0)
		failed = 1;
	if (st.failed)
		failed = 1;
	/* what was loaded before keeps its findings, unless this run changes
	 * the thresholds: then diagnose it again */
	overrides = a.thresholds || a.expect_hcas;
	if (a.nfiles && overrides && st.duplicate)
		rules_run(db, st.all_ids, st.nall);
	if (report_select(db, a.nfiles ? st.all_ids : NULL, a.nfiles ? st.nall : 0))
		failed = 1;
	if (!a.nfiles && overrides) {
		sqlite3_stmt *s = db_query(db, "SELECT bundle_id FROM report_bundles",
					   NULL);
		int64_t *ids = NULL;
		size_t n = 0;

		while (sqlite3_step(s) == SQLITE_ROW) {
			ids = xrealloc(ids, (n + 1) * sizeof(*ids));
			ids[n++] = sqlite3_column_int64(s, 0);
		}
		db_done(s);
		rules_run(db, ids, n);
		free(ids);
	}
	if (fleet_pass(db, &a) < 0)
		failed = 1;
	ro.verbose = a.verbose;
	if (a.output) {
		if (check_snprintf(tmp, sizeof(tmp), "%s.tmp", a.output) < 0 ||
		    !(ro.out = fopen(tmp, "w"))) {
			error("cannot write '%s': %s", a.output, strerror(errno));
			db_close(db);
			load_stats_release(&st);
			return EXIT_INPUT;
		}
	}
	rc = f->write(db, &ro);
	if (a.output) {
		if (fclose(ro.out) || rc < 0 || rename(tmp, a.output) < 0) {
			error("cannot write '%s': %s", a.output, strerror(errno));
			unlink(tmp);
			failed = 1;
		}
	}
	rc = report_worst(db);
	/* nothing read is never OK */
	if (!db_int(db, "SELECT count(*) FROM report_bundles", NULL)) {
		if (!failed)
			error("no evidence: %s", a.nfiles ? "no bundle or "
			      "readable evidence in the input" :
			      "the database holds no bundle");
		failed = 1;
	}
	db_close(db);
	load_stats_release(&st);
	return failed ? EXIT_INPUT : rc;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} cmds[] = {
	{ "report", cmd_report },	/* the default */
	{ "load", cmd_load },
	{ "show", cmd_show },
	{ "rules", cmd_rules },
	{ "list", cmd_list },
	{ "path", cmd_path },
	{ "diff", cmd_diff },
	{ "history", cmd_history },
	{ "merge", cmd_merge },
	{ "pairs", cmd_pairs },
};

static int version(void)
{
	int n = 0;

	while (db_migrations[n])
		n++;
	printf("rdma-analyze %s (reads bundle format up to %d, database "
	       "schema %d; commit %s, %s)\n", VERSION, BUNDLE_FORMAT_VERSION, n,
	       build_commit, build_linkage);
	return EXIT_OK;
}

/* the command named, else the default one on the whole command line */
static int run(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))
		return version();
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage_text, stdout);
		return EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	if (argv[1][0] != '-' && access(argv[1], F_OK))
		return usage_error(NULL, "'%s' is neither a command nor a file",
				   argv[1]);
	return cmds[0].fn(argc, argv);
}

/* standard output is checked once, after the command (git's run_builtin):
 * output lost to a full disk or a closed pipe is an error, exit 4 */
static int stdout_done(int rc)
{
	if (fflush(stdout)) {
		error("cannot write to standard output: %s", strerror(errno));
		return EXIT_INPUT;
	}
	if (ferror(stdout)) {
		error("cannot write to standard output");
		return EXIT_INPUT;
	}
	if (fclose(stdout)) {
		error("cannot close standard output: %s", strerror(errno));
		return EXIT_INPUT;
	}
	return rc;
}

int main(int argc, char **argv)
{
	log_prog = "rdma-analyze";
	term_guard_stdio();
	return stdout_done(run(argc, argv));
}
