/* view-dmesg: the kernel log as `dmesg` prints it, "[%5lu.%06lu] text";
 * --rdma keeps only the RDMA-relevant lines (those with a category, see
 * load-klog.c), like `dmesg | grep -E 'mlx5|infiniband|...'` done right */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "klog.h"
#include "log.h"
#include "view.h"

/* the text as dmesg prints it: control bytes as \xNN (the kernel escapes
 * them in /dev/kmsg, so they only come from a bundle that was tampered
 * with, and must not reach the terminal as escape sequences) */
static void put_text(FILE *out, const char *t)
{
	for (; *t; t++) {
		unsigned char c = (unsigned char)*t;

		if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			putc(c, out);
	}
	putc('\n', out);
}

static int show(const struct bundle_r *b, int argc, char **argv, FILE *out)
{
	struct klog_iter it;
	struct klog_rec *r;
	const char *path;
	int rdma = 0, i;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--rdma"))
			rdma = 1;
		else
			return error("dmesg: unknown argument '%s' (only --rdma)",
				     argv[i]);
	}
	if (!klog_open(b, &it, &path))
		return error("%s: no kernel log (rdma-collect/klog/kmsg.txt or "
			     "syslog.txt: the klog source did not run)", b->file);
	r = malloc(sizeof(*r));
	if (!r)
		return error("out of memory");
	while (klog_next(&it, r)) {
		if (rdma && !r->category)
			continue;
		if (r->ts_us >= 0)
			fprintf(out, "[%5" PRId64 ".%06" PRId64 "] ",
				r->ts_us / 1000000, r->ts_us % 1000000);
		put_text(out, r->text);
	}
	free(r);
	return 0;
}

const struct view view_dmesg = {
	.name = "dmesg",
	.usage = "[--rdma]",
	.help = "the kernel log as dmesg prints it; --rdma: only RDMA-relevant lines",
	.show = show,
};
