/* cmd-merge: `rdma-analyze merge --db OUT DB...`, the options of merge; the
 * copying is merge.c's. */
#include <stdio.h>

#include "analyze.h"
#include "merge.h"

static const char usage_text[] =
"usage: rdma-analyze merge --db OUT DB...\n"
"\n"
"Copy every bundle of the databases DB into OUT (made if missing): nodes\n"
"matched by hostname and machine-id, bundles by SHA-256 (one already in\n"
"OUT is skipped: merging twice changes nothing), every evidence table's\n"
"rows with the ids remapped.  The merged bundles are then diagnosed in\n"
"OUT, so fleet and history checks see all of them.  Each DB must have\n"
"this rdma-analyze's schema version.\n"
"  --db OUT    the database merged into\n"
"\n"
"Exit status: 0 merged; 3 usage error; 4 a database could not be read or\n"
"written (the others are still merged).\n";

static const struct option opts[] = {
	{ "db", required_argument, NULL, 'd' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_merge(int argc, char **argv)
{
	const char *out = NULL;
	int c;

	optind = 1;
	while ((c = cmd_getopt("merge", argc, argv, "+:h", opts)) != -1) {
		switch (c) {
		case 'd': out = optarg; break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	if (!out || optind >= argc)
		return usage_error("merge", "--db OUT and at least one database "
				   "are needed");
	return merge_dbs(out, argv + optind, argc - optind);
}
