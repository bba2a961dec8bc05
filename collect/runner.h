/* runner: runs every source of the registry in a child process of its own,
 * under its own deadline and the global one, and gathers the evidence. */
#ifndef RDMA_COLLECT_RUNNER_H
#define RDMA_COLLECT_RUNNER_H

#include <stdint.h>

#include "buf.h"
#include "src.h"
#include "store.h"

struct note {
	char *key;
	char *val;
};

struct src_run {
	const struct source *src;
	int status;		/* BST_* */
	char reason[1024];
	int64_t start_us;
	int64_t dur_ms;
	unsigned long files, bytes, denied, missing, errors, dropped, capped;
	int attempts;
	int ran;
	struct buf errlist;	/* "path\terrno-name\n", first few */
	struct note *notes;
	size_t nnotes;
};

struct run {
	const struct collect_opts *opts;
	struct store store;
	struct src_run *runs;	/* nsources */
	char **quarantine;
	size_t nquarantine;
	int64_t start_us;
	int64_t deadline_us;
	int64_t counters_us;
	int interrupted;
	int lock_fd;		/* the spool's lock (--keep), -1: none */
};

void run_init(struct run *r, const struct collect_opts *opts);
void run_release(struct run *r);
/* run all sources; returns 0, or -1 if interrupted by a signal */
int run_sources(struct run *r);
const char *run_note(const struct src_run *sr, const char *key);

#endif
