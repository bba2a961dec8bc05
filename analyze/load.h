/* load: bundles into the database.
 *
 * Readers on all cores read a bundle (breader: read, hash, decompress,
 * index) and run the extractors of the registry (load.c) on it: they
 * turn evidence into rows, which are recorded (struct rowlog), not
 * written.  One writer then, for each bundle in the order given, runs the
 * first extractor ("core": the bundle and node rows, which give the
 * bundle id) and inserts the recorded rows, in one savepoint per bundle.
 * A bundle already in the database (same SHA-256) is skipped, so loading
 * twice changes nothing.
 *
 * Extractors write with ld_exec(), never db_exec(): in a reader it
 * records, with l->bid standing for the bundle id to come (LD_BID).  They
 * must not read the database (only "core" does, and it runs in the
 * writer) and must keep no state outside the struct ld (they run in
 * several threads at once).
 */
#ifndef RDMA_ANALYZE_LOAD_H
#define RDMA_ANALYZE_LOAD_H

#include <sqlite3.h>
#include <stdint.h>

#include "breader.h"

struct rowlog;

/* what an extractor gets */
struct ld {
	sqlite3 *db;		/* NULL in a reader */
	const struct bundle_r *b;
	int64_t bid;		/* bundles.id, or LD_BID in a reader */
	int64_t node_id;
	struct rowlog *log;	/* where a reader's rows go */
};

/* the bundle id a reader's rows stand for: an 'i' argument of exactly this
 * value is replaced with the real id when the writer inserts the row */
#define LD_BID (INT64_MIN + 0x7e57)

/* run sql with bound arguments (db_exec's letters) now, or record it;
 * sql and types are string literals (the record keeps the pointers) */
int ld_exec(struct ld *l, const char *sql, const char *types, ...);

struct extractor {
	const char *name;
	int (*run)(struct ld *l);	/* 0, or -1 (the bundle is rolled back) */
};

extern const struct extractor extractors[];

/* the extractors, one file each (load-<name>.c), run in the table's
 * order (load.c) */
int load_core(struct ld *l);	/* bundles, nodes, sources: first */
int load_rdma(struct ld *l);
int load_pci(struct ld *l);
int load_kernel(struct ld *l);
int load_net(struct ld *l);
int load_host(struct ld *l);
int load_klog(struct ld *l);
int load_phy(struct ld *l);
int load_fabric(struct ld *l);	/* mad and fabric: over MADs */
int load_import(struct ld *l);	/* provenance of imported evidence */

struct load_stats {
	unsigned loaded, duplicate, failed;
	int64_t *new_ids;	/* bundles.id of the bundles loaded now */
	size_t nnew;
	int64_t *all_ids;	/* ... and of those already there */
	size_t nall;
	int diagnose_failed;	/* a call of the diagnose function failed */
};

/* what load_files calls on the bundles it loaded, in batches, committed,
 * while it reads the next ones: 0, or -1 */
typedef int load_diagnose_fn(sqlite3 *db, const int64_t *ids, size_t n);

/* load files (bundles, or folders searched for *.rdma.tar.zst); errors are
 * one line each on stderr and the bundle is skipped.  progress: draw a
 * bar on stderr.  diagnose: NULL, or called on every new bundle once. */
int load_files(sqlite3 *db, char **files, int nfiles, int progress,
	       load_diagnose_fn *diagnose, struct load_stats *st);
void load_stats_release(struct load_stats *st);

/* helpers for extractors */
/* trimmed first line of a bundle file into a static-size buffer; NULL if
 * absent */
const char *ld_line(struct ld *l, const char *path, char *out, size_t n);
int ld_fact(struct ld *l, const char *key, const char *value,
	    const char *path);

#endif
