/* src-klog: the whole kernel ring buffer, raw; the analyzer filters.
 *
 * /dev/kmsg first: its records carry the sequence number and the
 * SUBSYSTEM/DEVICE dictionary, and reading it consumes nothing (each open
 * has its own position).  klogctl(READ_ALL) is the fallback; never
 * READ_CLEAR, never CLEAR. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "log.h"
#include "src.h"
#include "util.h"

#define SYSLOG_ACTION_READ_ALL 3
#define SYSLOG_ACTION_SIZE_BUFFER 10
#define KMSG_RECORD_MAX 8192

static int read_kmsg(struct ctx *c, struct buf *out)
{
	char rec[KMSG_RECORD_MAX];
	unsigned long lost = 0;
	int fd;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EPIPE) {	/* overwritten while reading */
				lost++;
				continue;
			}
			if (errno == EAGAIN)
				break;
			n = -errno;
			close(fd);
			return (int)n;
		}
		if (!n)
			break;
		buf_add_tail(out, rec, (size_t)n);
	}
	close(fd);
	if (lost)
		ctx_note(c, "records_lost", "%lu", lost);
	return 0;
}

static int read_syslog(struct buf *out)
{
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	char *b;
	int n;

	if (size < 0)
		return -errno;
	if (size < 4096)
		size = 4096;
	b = xmalloc((size_t)size);
	n = klogctl(SYSLOG_ACTION_READ_ALL, b, size);
	if (n < 0) {
		n = -errno;
		free(b);
		return n;
	}
	buf_add_tail(out, b, (size_t)n);
	free(b);
	return 0;
}

static int collect(struct ctx *c)
{
	struct buf out = BUF_INIT;
	int rc, res = SRC_OK;

	if (ctx_is_root(c)) {
		if (ctx_stored(c, "klog") < 0) {
			ctx_reason(c, "no stored kernel log under the root");
			return SRC_ABSENT;
		}
		return SRC_OK;
	}
	buf_init(&out, c->opts->max_file);
	ctx_progress(c, "", "/dev/kmsg");
	rc = read_kmsg(c, &out);
	if (!rc) {
		ctx_note(c, "method", "/dev/kmsg");
		ctx_emit_buf(c, "klog/kmsg.txt", &out);
	} else {
		int rc2;

		buf_reset(&out);
		ctx_progress(c, "", "klogctl");
		rc2 = read_syslog(&out);
		if (!rc2) {
			ctx_note(c, "method", "klogctl");
			ctx_emit_buf(c, "klog/syslog.txt", &out);
		} else {
			ctx_reason(c, "/dev/kmsg: %s; klogctl: %s",
				   strerror(-rc), strerror(-rc2));
			res = (rc == -EACCES || rc == -EPERM) &&
			      (rc2 == -EACCES || rc2 == -EPERM) ?
			      SRC_DENIED : SRC_ERROR;
		}
	}
	if (out.truncated) {
		ctx_note(c, "truncated", "kept the last %zu bytes", out.len);
		if (res == SRC_OK)
			ctx_reason(c, "log longer than --max-file: the "
				   "oldest lines were left out");
	}
	buf_release(&out);
	return res;
}

const struct source src_klog = {
	.name = "klog",
	.help = "the kernel ring buffer (/dev/kmsg records, or klogctl), never cleared",
	.flags = SRC_F_STORED,
	.timeout_ms = 5000,
	.max_bytes = 16u << 20,
	.collect = collect,
};
