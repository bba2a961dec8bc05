/* manifest: manifest.json from what the runner gathered */
#ifndef RDMA_COLLECT_MANIFEST_H
#define RDMA_COLLECT_MANIFEST_H

#include <time.h>

#include "buf.h"
#include "runner.h"

struct manifest_info {
	int argc;
	char **argv;
	time_t collected_at;
	int reproducible;	/* SOURCE_DATE_EPOCH: no durations */
	const char *redact_key_id;	/* NULL: not redacted */
	const char *hostname;		/* as written (pseudonym if redacted) */
};

void manifest_build(struct run *r, const struct manifest_info *mi,
		    struct buf *out);
/* the first line of a collected file, trimmed; NULL if absent */
char *manifest_file_line(struct run *r, const char *path);

#endif
