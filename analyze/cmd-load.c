/* cmd-load: `rdma-analyze load --db FILE BUNDLE|DIR...`, bundles added to a
 * database and diagnosed there; and load_and_diagnose(), the loading that
 * report shares (analyze.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "breader.h"
#include "db.h"
#include "fingerprint.h"
#include "import.h"
#include "load.h"
#include "log.h"
#include "rules.h"
#include "util.h"

static const char usage_text[] =
"usage: rdma-analyze load --db FILE [options] BUNDLE|DIR...\n"
"\n"
"Add bundles (or every *.rdma.tar.zst below a folder) to the database and\n"
"diagnose them; a bundle already there is skipped.  A progress bar on a\n"
"terminal and a summary line, neither with --quiet.\n"
"  --db FILE          the database (made if missing)\n"
"  --thresholds FILE  override thresholds ('name value' lines)\n"
"  --expect-hcas N    each node should have N RDMA devices\n"
"  --keep N           then prune: keep the newest N bundles of each node\n"
"  --keep-days D      then prune: keep those within D days of the node's\n"
"                     newest (with --keep: either keeps a bundle); as\n"
"                     'rdma-analyze prune' does, without its VACUUM\n"
"  -q, --quiet        no progress bar, no summary line\n"
"\n"
"Exit status: 0 loaded; 3 usage error; 4 a bundle or the database could\n"
"not be read (the other bundles are still loaded), or the prune failed\n"
"(nothing pruned).\n";

static const struct option opts[] = {
	{ "db", required_argument, NULL, 'd' },
	{ "thresholds", required_argument, NULL, 't' },
	{ "expect-hcas", required_argument, NULL, 'e' },
	{ "keep", required_argument, NULL, 'k' },
	{ "keep-days", required_argument, NULL, 'D' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

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
static int read_stdin(const struct load_args *a)
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

int load_and_diagnose(sqlite3 *db, const struct load_args *a,
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

int cmd_load(int argc, char **argv)
{
	struct load_args a;
	struct load_stats st;
	struct prune_args p = { 0 };
	struct prune_stats ps;
	sqlite3 *db;
	int c, rc, quiet = 0;

	memset(&a, 0, sizeof(a));
	memset(&st, 0, sizeof(st));
	optind = 1;
	while ((c = cmd_getopt("load", argc, argv, "+:qh", opts)) != -1) {
		switch (c) {
		case 'd': a.db = optarg; break;
		case 't': a.thresholds = optarg; break;
		case 'e': a.expect_hcas = optarg; break;
		case 'k':
			if (prune_arg("load", "--keep", optarg, &p.keep) < 0)
				return EXIT_USAGE;
			break;
		case 'D':
			if (prune_arg("load", "--keep-days", optarg,
				      &p.keep_days) < 0)
				return EXIT_USAGE;
			break;
		case 'q': quiet = 1; break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	a.files = argv + optind;
	a.nfiles = argc - optind;
	if (!a.db)
		return usage_error("load", "--db FILE is required");
	if (!a.nfiles)
		return usage_error("load", "which bundles?");
	db = db_open(a.db);
	if (!db)
		return EXIT_INPUT;
	rc = load_and_diagnose(db, &a, &st, !quiet && isatty(STDERR_FILENO));
	if (!quiet)
		fprintf(stderr, "rdma-analyze: %u loaded, %u already in %s, %u "
			"failed; %lld nodes, %lld bundles in the database\n",
			st.loaded, st.duplicate, a.db, st.failed,
			(long long)db_int(db, "SELECT count(*) FROM nodes", NULL),
			(long long)db_int(db, "SELECT count(*) FROM bundles", NULL));
	rc = rc < 0 || st.failed ? EXIT_INPUT : EXIT_OK;
	/* after the load, as prune does but without VACUUM: a daily load
	 * and prune reuses the pages the prune freed, where VACUUM would
	 * rewrite the whole file every day */
	if (p.keep || p.keep_days) {
		if (prune_db(db, &p, &ps, NULL, NULL) < 0)
			rc = EXIT_INPUT;
		else if (!quiet)
			prune_summary(a.db, &p, &ps);
	}
	load_stats_release(&st);
	db_close(db);
	return rc;
}
