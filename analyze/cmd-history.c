/* cmd-history: `rdma-analyze history --db FILE NODE`, the options of
 * history; the timeline is history-timeline.c's. */
#include <stdio.h>

#include "analyze.h"
#include "history.h"

static const char usage_text[] =
"usage: rdma-analyze history --db FILE NODE [-f text|json] [--all]\n"
"\n"
"The timeline of a node's bundles in the database (NODE: its hostname as\n"
"collected; nodes of the same name with different machine ids are shown\n"
"one after the other): each snapshot's time, boot id, uptime and the time\n"
"since the one before; the settings that changed (firmware, driver,\n"
"kernel, MTU, PFC ...); the error counters that moved, with the delta and\n"
"the per-hour rate (a new boot id counts from zero over the uptime; a value\n"
"that went down in the same boot is a reset, without a rate; an IB PMA\n"
"counter at its maximum is saturated: at least, without a rate; a 64-bit\n"
"counter may wrap once); the since-boot rate of every non-zero error\n"
"counter of the first snapshot; the rates measured by --sample inside a\n"
"bundle; the RDMA-relevant kernel log events that are new.\n"
"\n"
"  --db FILE        the database (rdma-analyze load --db FILE ...)\n"
"  -f, --format F   text (default) or json: every counter that moved, not\n"
"                   only error counters\n"
"  --json           the same as --format json\n"
"  --all            text: every counter that moved, not only error counters\n"
"\n"
"Exit status: 0 the timeline was written; 3 usage error; 4 the database\n"
"cannot be read or has no node NODE.\n";

static const struct option opts[] = {
	{ "db", required_argument, NULL, 'd' },
	{ "format", required_argument, NULL, 'f' },
	{ "json", no_argument, NULL, 'j' },
	{ "all", no_argument, NULL, 'a' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_history(int argc, char **argv)
{
	const char *file = NULL;
	int c, json = 0, all = 0;

	optind = 1;
	/* options may follow NODE */
	while ((c = cmd_getopt("history", argc, argv, ":f:h", opts)) != -1) {
		switch (c) {
		case 'd': file = optarg; break;
		case 'f':
			if ((json = format_arg("history", optarg,
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
	if (!file)
		return usage_error("history", "--db FILE is required");
	if (argc - optind != 1)
		return usage_error("history", "give one NODE");
	return history_print(file, argv[optind], json, all);
}
