/* collect: one run of the collector, from options to a written bundle */
#ifndef RDMA_COLLECT_COLLECT_H
#define RDMA_COLLECT_COLLECT_H

#include "spool.h"
#include "src.h"

#define COLLECT_EXIT_OK		0
#define COLLECT_EXIT_USAGE	2
#define COLLECT_EXIT_WRITE	3
#define COLLECT_EXIT_SIGNAL	4
#define COLLECT_EXIT_BUSY	5	/* another collector holds the spool */

#define COLLECT_COMMAND_PATH \
	"/usr/sbin:/usr/bin:/sbin:/bin:/opt/mellanox/bin:/usr/local/bin"

struct collect_args {
	const char *output;
	int redact;
	const char *redact_key;
	int list;
	int quiet;
	struct spool_keep keep;	/* --keep: retention in the output folder */
	int argc;
	char **argv;
};

int collect_main(struct collect_opts *o, const struct collect_args *a);
/* flush and check stdout at exit; returns the exit code */
int collect_close_stdout(void);

#endif
