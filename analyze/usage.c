/* usage: how a command of rdma-analyze refuses its command line (analyze.h):
 * one line that names the command and what is wrong. */
#include <stdarg.h>
#include <stdio.h>

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
