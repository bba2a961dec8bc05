/* cmd-diff: `rdma-analyze diff [--db FILE] A B`, the options of diff; the
 * comparison is diff.c's. */
#include <stdio.h>

#include "analyze.h"
#include "diff.h"

static const char usage_text[] =
"usage: rdma-analyze diff [--db FILE] [-f text|json] [--all] A B\n"
"\n"
"A and B are bundles, or node names in --db (their newest bundle).\n"
"Prints the configuration fingerprint attributes that differ (class,\n"
"firmware, driver, settings, counts; schema/DATABASE.md) and the error,\n"
"discard and pause counters that differ, with their rate per hour of\n"
"uptime.\n"
"  --db FILE        the database to read nodes from (bundles are added to\n"
"                   it)\n"
"  -f, --format F   text (default) or json\n"
"  --json           the same as --format json\n"
"  --all            also the attributes that must differ between nodes\n"
"                   (GUIDs, addresses) and every counter\n"
"\n"
"Exit status: 0 no difference, 1 differences, 3 usage error, 4 a bundle\n"
"or the database could not be read.\n";

static const struct option opts[] = {
	{ "db", required_argument, NULL, 'd' },
	{ "format", required_argument, NULL, 'f' },
	{ "json", no_argument, NULL, 'j' },
	{ "all", no_argument, NULL, 'a' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_diff(int argc, char **argv)
{
	const char *dbfile = NULL;
	int c, json = 0, all = 0;

	optind = 1;
	while ((c = cmd_getopt("diff", argc, argv, "+:f:h", opts)) != -1) {
		switch (c) {
		case 'd': dbfile = optarg; break;
		case 'f':
			if ((json = format_arg("diff", optarg,
							 text_json_formats)) < 0)
				return EXIT_USAGE;
			break;
		case 'j': json = FORMAT_JSON; break;
		case 'a': all = 1; break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 2)
		return usage_error("diff", "two bundles or nodes, A and B");
	return diff_two(dbfile, argv[optind], argv[optind + 1], json, all);
}
