/* usage: how a command of rdma-analyze reads and refuses its command line
 * (analyze.h): one line that names the command and what is wrong. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analyze.h"

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "rdma-analyze: ");
	if (cmd)
		fprintf(stderr, "%s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "; see 'rdma-analyze %s%s--help'\n", cmd ? cmd : "",
		cmd ? " " : "");
	return EXIT_USAGE;
}

/* the option getopt_long could not take, as the user spelled it */
static int refuse(const char *cmd, int c, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	int n = (int)strcspn(arg, "=");

	if (strncmp(arg, "--", 2)) {
		if (c == ':')
			return usage_error(cmd, "option '-%c' needs an argument",
					   optopt);
		return usage_error(cmd, "unknown option '-%c'", optopt);
	}
	if (c == ':')
		return usage_error(cmd, "option '%.*s' needs an argument", n, arg);
	if (optopt)
		return usage_error(cmd, "option '%.*s' takes no argument", n, arg);
	return usage_error(cmd, "unknown option '%.*s'", n, arg);
}

int cmd_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
	       const struct option *longopts)
{
	int c;

	opterr = 0;
	c = getopt_long(argc, argv, shortopts, longopts, NULL);
	if (c == '?' || c == ':') {
		refuse(cmd, c, argv);
		return '?';
	}
	return c;
}

const char *const text_json_formats[] = { "text", "json", NULL };

int format_arg(const char *cmd, const char *arg, const char *const *names)
{
	char list[128] = "";
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(arg, names[i]))
			return i;
	for (i = 0; names[i]; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			 i ? ", " : "", names[i]);
	usage_error(cmd, "unknown format '%s' (%s)", arg, list);
	return -1;
}
