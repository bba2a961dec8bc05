/* report: findings of the selected bundles, as text, JSON or HTML.  The
 * formats are a table (report.c), one file each. */
#ifndef RDMA_ANALYZE_REPORT_H
#define RDMA_ANALYZE_REPORT_H

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

/* the bundles a report covers: temp table report_bundles(bundle_id) */
struct report_opts {
	FILE *out;
	int verbose;		/* text: evidence and remediation of info too */
};

struct report_format {
	const char *name;
	int (*write)(sqlite3 *db, const struct report_opts *o);
};

extern const struct report_format report_formats[];

/* fill report_bundles with ids, or (ids NULL) the newest bundle of each
 * node */
int report_select(sqlite3 *db, const int64_t *ids, size_t n);
/* 0 nothing at warning or above, 1 warnings, 2 critical */
int report_worst(sqlite3 *db);

int report_text(sqlite3 *db, const struct report_opts *o);
int report_json(sqlite3 *db, const struct report_opts *o);
int report_html(sqlite3 *db, const struct report_opts *o);
int report_prom(sqlite3 *db, const struct report_opts *o);

/* Prometheus metrics (text format 0.0.4, schema/REPORT.md) of the bundles
 * ids (of those with the same node label, the newest only) to out; -1 on a
 * write error.  report_prom_file writes them to path with
 * report_write_file, for node_exporter's textfile collector */
int report_prom_write(sqlite3 *db, const int64_t *ids, size_t n, FILE *out);
int report_prom_file(sqlite3 *db, const int64_t *ids, size_t n,
		     const char *path);

/* path replaced whole or not at all: fn(arg, out) into a temp file in
 * path's folder (mode 0666 less the umask), flushed to disk, renamed over
 * path; -1 (nothing left behind) with one message when any step fails.
 * A path that is not a regular file (/dev/stdout, a FIFO) is written in
 * place */
int report_write_file(const char *path, int (*fn)(void *arg, FILE *out),
		      void *arg);

/* layer order of the guides, bottom-up, as an SQL expression over `layer` */
#define LAYER_ORDER "CASE layer WHEN 'hca' THEN 1 WHEN 'kernel' THEN 2 " \
	"WHEN 'sm' THEN 3 WHEN 'verbs' THEN 4 WHEN 'perf' THEN 5 WHEN 'app' " \
	"THEN 6 WHEN 'fleet' THEN 7 WHEN 'history' THEN 8 WHEN 'pairs' THEN 9 " \
	"ELSE 10 END"

/* the imports' input files of the report's bundles: how many, how many
 * read (some part), how many not understood (some part unread or read in
 * part); and the summary line that says it (nothing without imports) */
void report_inputs_counts(sqlite3 *db, int64_t *files, int64_t *read,
			  int64_t *unread);
void report_inputs_line(sqlite3 *db, FILE *out);

#endif
