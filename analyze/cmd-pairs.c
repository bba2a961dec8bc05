/* cmd-pairs: `rdma-analyze pairs --db FILE [--results CSV]`, the options of
 * pairs; the localization is pairs.c's, its findings pairs-run.c's. */
#include <stdio.h>
#include <string.h>

#include "analyze.h"
#include "pairs.h"

static const char usage_text[] =
"usage: rdma-analyze pairs --db FILE [--results FILE] [--method best|tomography]\n"
"                          [-f text|json]\n"
"\n"
"Which component explains the pairs of nodes that cannot talk: pair results\n"
"from --results (CSV lines src,dst,result[,gbps[,error]], or columns by the\n"
"names of a header, src_hca and dst_hca among them; result ok, fail or\n"
"degraded; src and dst a node name, \"host ibdev\", a LID, a GUID or an\n"
"address), the NCCL completion errors and perftest runs attached to the\n"
"bundles in the database, placed on the newest fabric scan's routes (else\n"
"the host-switch cables the mad source saw, else nodes and HCAs alone).\n"
"\n"
"  --db FILE        the database (rdma-analyze load --db FILE ...)\n"
"  --results FILE   pair results, CSV (\"-\": standard input)\n"
"  --method M       best (default): maximum likelihood, tolerates noise and\n"
"                   flaky faults; tomography: the classic floor (components\n"
"                   on a passing path cleared, greedy cover of the rest)\n"
"  -f, --format F   text (default) or json (schema/PAIRS.md)\n"
"  --json           the same as --format json\n"
"\n"
"Exit status: 0 nothing at warning or above; 1 warnings (ambiguous); 2\n"
"critical findings; 3 usage error; 4 the database or the results cannot be\n"
"read.\n";

static const struct option opts[] = {
	{ "db", required_argument, NULL, 'd' },
	{ "results", required_argument, NULL, 'r' },
	{ "method", required_argument, NULL, 'm' },
	{ "format", required_argument, NULL, 'f' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_pairs(int argc, char **argv)
{
	const char *file = NULL, *results = NULL;
	enum pm_method method = PM_BEST;
	int c, json = 0;

	optind = 1;
	while ((c = cmd_getopt("pairs", argc, argv, "+:f:h", opts)) != -1) {
		switch (c) {
		case 'd': file = optarg; break;
		case 'r': results = optarg; break;
		case 'm':
			if (!strcmp(optarg, "best"))
				method = PM_BEST;
			else if (!strcmp(optarg, "tomography"))
				method = PM_TOMOGRAPHY;
			else
				return usage_error("pairs", "--method: best or "
						   "tomography");
			break;
		case 'f':
			if ((json = format_arg("pairs", optarg,
							 text_json_formats)) < 0)
				return EXIT_USAGE;
			break;
		case 'j': json = FORMAT_JSON; break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	if (!file)
		return usage_error("pairs", "--db FILE is required");
	if (optind != argc)
		return usage_error("pairs", "no arguments besides the options");
	return pairs_run(file, results, method, json);
}
