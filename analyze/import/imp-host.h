/* imp-host: the host-side parsers of import (imp-host.c, imp-host-pci.c,
 * imp-host-net.c) and the small helpers they share.  Only these files
 * include it; their parsers are rows of imp_readers[] (import.h). */
#ifndef RDMA_ANALYZE_IMP_HOST_H
#define RDMA_ANALYZE_IMP_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "import.h"

#define IH_LINE_MAX 4096	/* longer lines are cut (and never numbers) */

/* a text walked line by line; a last line without its newline is
 * "unterminated": a cut paste, whose numbers cannot be trusted */
struct ih_lines {
	const char *p, *end;
};

struct ih_line {
	char s[IH_LINE_MAX];	/* without the newline and a trailing '\r' */
	size_t len;
	int cut;		/* longer than IH_LINE_MAX - 1 */
	int unterminated;
};

void ih_lines_init(struct ih_lines *it, const char *text, size_t len);
/* the next line: 1, or 0 at the end */
int ih_next(struct ih_lines *it, struct ih_line *l);

/* s without its leading blanks */
const char *ih_skip(const char *s);
/* a whole unsigned decimal number, at most max; 0 or -1 */
int ih_u64(const char *s, uint64_t max, uint64_t *out);
/* does the text hold needle? */
int ih_has(const char *text, size_t len, const char *needle);

/* Rewrite the JSON object at path with member key set to value (JSON
 * text); the other members are kept.  A missing or foreign document is
 * started as { "ifname": ifname, "status": "ok" } when ifname is given,
 * else {}. */
int ih_json_set(struct imp *im, const char *path, const char *origin,
		const char *ifname, const char *key, const char *value);

/* is the line a kernel log record in one of the forms ih_dmesg reads
 * (dmesg, dmesg -r/-x/-T, journalctl -k, syslog, pstore)? */
int ih_is_klog_record(const char *s);

/* does the text hold a line NCCL's parser knows? */
int ih_is_nccl(const char *text, size_t len);

#endif
