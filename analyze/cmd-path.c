/* cmd-path: `rdma-analyze path --db FILE SRC DST`, the options of path;
 * the route is path.c's. */
#include <stdio.h>

#include "analyze.h"
#include "path.h"

static const char usage_text[] =
"usage: rdma-analyze path --db FILE [-f text|json] SRC DST\n"
"\n"
"The route from SRC to DST and back, from the forwarding tables of the\n"
"newest fabric scan in the database (a bundle made with rdma-collect\n"
"--fabric), printed hop by hop as ibtracert prints it, with each hop's\n"
"port counters.  SRC and DST: a node description (\"node07 mlx5_0\"), its\n"
"first word (a hostname: \"node07\"), a LID (12 or 0xc), or a node or port\n"
"GUID (0x7cfe900300c00002).\n"
"  --db FILE        the database\n"
"  -f, --format F   text (default), as ibtracert, or json: the scan, and\n"
"                   each route's ends, hops (out_port, next, the out and in\n"
"                   ports' counters), result (arrived, stopped, loop) and\n"
"                   reason\n"
"  --json           the same as --format json\n"
"\n"
"Exit status: 0 both routes arrive; 1 a route stops (no route, a dead\n"
"link); 2 a route loops; 3 usage error or an unknown or ambiguous node;\n"
"4 the database cannot be read or holds no fabric scan.\n";

static const struct option opts[] = {
	{ "db", required_argument, NULL, 'd' },
	{ "format", required_argument, NULL, 'f' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_path(int argc, char **argv)
{
	const char *file = NULL;
	int c, json = FORMAT_TEXT;

	optind = 1;
	while ((c = cmd_getopt("path", argc, argv, "+:f:h", opts)) != -1) {
		switch (c) {
		case 'd': file = optarg; break;
		case 'f':
			if ((json = format_arg("path", optarg,
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
		return usage_error("path", "--db FILE is required");
	if (argc - optind != 2)
		return usage_error("path", "give SRC and DST");
	return path_trace(file, argv[optind], argv[optind + 1], json);
}
