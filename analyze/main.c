/* rdma-analyze: the command line.  Subcommands are a table whose first
 * row is the default (iproute2's rdma.c): a bare list of bundles means
 * "report". */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "bundle.h"
#include "db.h"
#include "log.h"
#include "term.h"
#include "util.h"
#include "version.h"

static const char usage_text[] =
"usage: rdma-analyze [report] [options] BUNDLE|DIR...\n"
"       rdma-analyze report --db FILE [options]\n"
"       rdma-analyze load --db FILE [options] BUNDLE|DIR...\n"
"       rdma-analyze show [--db FILE] BUNDLE|NODE VIEW [ARGS]\n"
"       rdma-analyze rules [-f text|json|markdown] [--thresholds]\n"
"       rdma-analyze list [-f text|json] BUNDLE...\n"
"       rdma-analyze path --db FILE [-f text|json] SRC DST\n"
"       rdma-analyze diff [--db FILE] [-f text|json] [--all] A B\n"
"       rdma-analyze history --db FILE [-f text|json] [--all] NODE\n"
"       rdma-analyze merge --db OUT DB...\n"
"       rdma-analyze prune --db FILE --keep N | --keep-days D [--dry-run]\n"
"       rdma-analyze pairs --db FILE [--results CSV] [--method M] [-f text|json]\n"
"       rdma-analyze check [--timeout S] [--reason] [--expect FILE] [--save DIR]\n"
"\n"
"report  diagnose bundles (loaded in memory, or from --db: the newest\n"
"        bundle of each node) and write a report, text, json, html or\n"
"        prom (Prometheus metrics); a BUNDLE may also be a sos report, a\n"
"        sysinfo-snapshot, an ibdiagnet folder, a folder of command\n"
"        outputs, one pasted output, or - (standard input: ibstat |\n"
"        rdma-analyze -); the default command\n"
"load    add bundles to a database (a bundle already there is skipped),\n"
"        then diagnose them\n"
"show    print a bundle's evidence as the familiar tool would; VIEW is one\n"
"        of the views listed by 'rdma-analyze show --list'\n"
"rules   the checks, their layer, severity and the evidence they need\n"
"list    read each bundle as the analyzer does (limits, unsafe paths\n"
"        left out) and print its entries, sorted\n"
"path    the route from SRC to DST and back from the newest fabric scan's\n"
"        forwarding tables, as ibtracert prints it, with each hop's counters\n"
"diff    the configuration fingerprints and the error counters of two\n"
"        bundles or nodes, side by side\n"
"history a node's bundles over time: snapshots, what changed, counter\n"
"        deltas and per-hour rates, new kernel log events\n"
"merge   copy every bundle of databases DB (one per rack, loaded apart)\n"
"        into OUT, then diagnose them there\n"
"prune   delete the older bundles of each node (the newest N, or those\n"
"        of the last D days, stay) and reclaim the space\n"
"pairs   which node, cable, link or switch explains the failing pairs of\n"
"        a pair test (CSV), NCCL completion errors and perftest runs\n"
"check   collect this node (rdma-collect, no fabric access) and run the\n"
"        node checks under a deadline: Nagios' output and exit status, a\n"
"        drain reason for Slurm or NHC (--reason)\n"
"\n"
"'rdma-analyze COMMAND --help' gives the options of COMMAND.  Every\n"
"command that prints a result of its own takes -f, --format text|json\n"
"(and --json for -f json); show prints as the tools it follows do.\n"
"\n"
"Exit status: 0 nothing at warning or above; 1 warnings; 2 critical\n"
"findings; 3 usage error; 4 a bundle or the database could not be read\n"
"(the other bundles are still reported); path, diff, history, merge,\n"
"prune and check say theirs in their --help.\n";

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
	{ "check", cmd_check },
	{ "prune", cmd_prune },
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
