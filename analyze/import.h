/* import: evidence rdma-collect did not write -- a sos report, a
 * sysinfo-snapshot, an ibdiagnet output folder, a folder of pasted command
 * outputs -- turned, in memory, into the bundle layout of schema/BUNDLE.md.
 * Every extractor, rule and view then reads it unchanged; what an import
 * cannot supply is simply absent, and the checks that needed it are
 * skipped with the reason the synthesized manifest gives.
 *
 * This header is what the rest of the analyzer uses: the kinds, opening
 * an input as a bundle, the provenance of its paths.  The import itself
 * is the folder analyze/import/, its internals in analyze/import/imp.h.
 */
#ifndef RDMA_ANALYZE_IMPORT_H
#define RDMA_ANALYZE_IMPORT_H

#include <stddef.h>

#include "breader.h"

/* --- the kinds (import.c) --- */

/* The kinds of input import reads, in the order detection tries them.
 * X(ID, name, text): name is what is stored (the manifest's import.kind,
 * the imports table's kind: schema/004-import.sql), text how a message
 * names one ("not in this sos report").  A new kind is a row here and
 * its detector (and feeder, if any) in import.c's kinds[]. */
#define IMP_KINDS(X)							\
	X(SOS, "sos", "sos report")					\
	X(SYSINFO, "sysinfo-snapshot", "sysinfo-snapshot")		\
	X(IBDIAG, "ibdiagnet", "ibdiagnet output")			\
	X(OUTPUTS, "outputs", "folder of command outputs")

enum imp_kind_id {
#define IMP_KIND_ENUM(id, name, text) IMP_KIND_##id,
	IMP_KINDS(IMP_KIND_ENUM)
#undef IMP_KIND_ENUM
	IMP_KIND_NR
};

/* "sos" and "sos report" for IMP_KIND_SOS ("" past the table) */
const char *imp_kind_name(enum imp_kind_id k);
const char *imp_kind_text(enum imp_kind_id k);

/* An SQL expression: the text of the kind the SQL expression e (a string
 * literal of C) holds, e itself for a kind the table does not have:
 * "'no port counters in this ' || " IMP_KIND_TEXT_SQL("i.kind").  A
 * literal, so a statement using it is still whole at compile time. */
#define IMP_KIND_WHEN_SQL(id, name, text) " WHEN '" name "' THEN '" text "'"
#define IMP_KIND_TEXT_SQL(e)						\
	"(CASE " e IMP_KINDS(IMP_KIND_WHEN_SQL) " ELSE " e " END)"

/* --- the entry point (import.c) --- */

/* Is path something import can read (a folder or archive of a known kind,
 * not an rdma-collect bundle)?  Returns the kind name ("sos",
 * "sysinfo-snapshot", "ibdiagnet", "outputs") or NULL. */
const char *imp_detect(const char *path);
/* The same, with why the import reader refused path (a file over the size
 * limit): NULL with *err set then, NULL with err "" when path is simply
 * no import. */
const char *imp_detect_err(const char *path, char *err, size_t errlen);
/* Read path and build a bundle_r from it (br_free releases it); same
 * contract as br_open: 0, or -1 with a one-line reason in err. */
int imp_open(const char *path, const struct br_limits *lim,
	     struct bundle_r **out, char *err, size_t errlen);

/* An input with an rdma-collect bundle's dispatch: br_open for a bundle,
 * imp_open for what imp_detect knows.  Every command that opens a bundle
 * file given by the user (or recorded in the database) goes through it. */
int imp_or_br_open(const char *path, const struct br_limits *lim,
		   struct bundle_r **out, char *err, size_t errlen);

/* The SQL expression of the input file a bundle path came from, NULL for
 * a bundle that is no import: bid and path are SQL expressions.  The
 * longest stored path that is path or a folder (or link) above it wins,
 * so evidence read through a link still names its file. */
#define IMP_ORIGIN_SQL(bid, path) \
	"(SELECT o.origin FROM import_origins o WHERE o.bundle_id = " bid \
	" AND o.path <= " path " AND (o.path = " path " OR substr(" path \
	", 1, length(o.path) + 1) = o.path || '/') ORDER BY o.path DESC " \
	"LIMIT 1)"

/* what "-" reads: standard input, read whole once by main() (the data
 * must live while inputs are read) */
void imp_stdin(const char *data, size_t len);

#endif
