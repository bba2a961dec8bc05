/* load: bundles into the database.
 *
 * Readers on all cores (breader: read, hash, decompress, index), one
 * writer: for each bundle, in the order given, every extractor of the
 * registry (load.c) turns evidence into rows, in one transaction per
 * bundle.  A bundle already in the database (same SHA-256) is skipped, so
 * loading twice changes nothing.
 */
#ifndef RDMA_ANALYZE_LOAD_H
#define RDMA_ANALYZE_LOAD_H

#include <sqlite3.h>
#include <stdint.h>

#include "breader.h"

/* what an extractor gets */
struct ld {
	sqlite3 *db;
	const struct bundle_r *b;
	int64_t bid;		/* bundles.id */
	int64_t node_id;
};

struct extractor {
	const char *name;
	int (*run)(struct ld *l);	/* 0, or -1 (the bundle is rolled back) */
};

extern const struct extractor extractors[];

struct load_stats {
	unsigned loaded, duplicate, failed;
	int64_t *new_ids;	/* bundles.id of the bundles loaded now */
	size_t nnew;
	int64_t *all_ids;	/* ... and of those already there */
	size_t nall;
};

/* load files (bundles, or folders searched for *.rdma.tar.zst); errors are
 * one line each on stderr and the bundle is skipped.  progress: draw a
 * bar on stderr. */
int load_files(sqlite3 *db, char **files, int nfiles, int progress,
	       struct load_stats *st);
void load_stats_release(struct load_stats *st);

/* helpers for extractors */
/* trimmed first line of a bundle file into a static-size buffer; NULL if
 * absent */
const char *ld_line(struct ld *l, const char *path, char *out, size_t n);
int ld_fact(struct ld *l, const char *key, const char *value,
	    const char *path);

#endif
