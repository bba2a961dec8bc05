/* klog: the kernel log of a bundle, record by record, and what RDMA checks
 * read each line for.
 *
 * Two stored forms (schema/BUNDLE.md, klog source):
 *   rdma-collect/klog/kmsg.txt    /dev/kmsg records "prio,seq,usec,flags;text"
 *                                 with continuation lines " KEY=value"
 *                                 (DEVICE=+pci:0000:b1:00.0)
 *   rdma-collect/klog/syslog.txt  klogctl lines "<prio>[secs.usecs] text"
 * The file is hostile and may start in the middle of a record (the tail is
 * kept when capped): lines that do not parse are skipped with their
 * continuation lines, never a crash.
 *
 * Categories: see klog_category() in klog.c (the list is at the top of
 * that file).
 */
#ifndef RDMA_ANALYZE_KLOG_H
#define RDMA_ANALYZE_KLOG_H

#include <stddef.h>
#include <stdint.h>

#include "breader.h"

#define KLOG_KMSG "rdma-collect/klog/kmsg.txt"
#define KLOG_SYSLOG "rdma-collect/klog/syslog.txt"
#define KLOG_TEXT_MAX 1024	/* the kernel's own record limit is smaller */

struct klog_rec {
	int64_t seq;		/* -1: none (syslog form) */
	int64_t ts_us;		/* since boot; -1: none */
	int level;		/* 0 emerg .. 7 debug; -1: none */
	int facility;
	char device[16];	/* "0000:b1:00.0", or "" */
	char text[KLOG_TEXT_MAX];	/* cut at KLOG_TEXT_MAX - 1 */
	const char *category;	/* klog_category(text) */
};

struct klog_iter {
	const char *p, *end;
	int syslog;		/* the "<prio>[secs.usecs] text" form */
};

/* iterate over len bytes of one of the two forms */
void klog_iter_init(struct klog_iter *it, const char *data, size_t len,
		    int syslog);
/* the next record into r: 1, or 0 at the end */
int klog_next(struct klog_iter *it, struct klog_rec *r);
/* the bundle's kernel log: kmsg.txt, else syslog.txt; 0 if neither */
int klog_open(const struct bundle_r *b, struct klog_iter *it,
	      const char **path);

/* what the line is for (a static string), NULL: not RDMA-relevant */
const char *klog_category(const char *text);
/* the PCI address a driver line names ("mlx5_core 0000:b1:00.0: ..."),
 * in out (at least 13 bytes); 0, or -1 if none */
int klog_text_device(const char *text, char *out, size_t n);
/* a category whose lines are events (not 'probe') */
int klog_is_event(const char *category);

#endif
