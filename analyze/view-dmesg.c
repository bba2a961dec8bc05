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

int view_dmesg(const struct bundle_r *b, int argc, char **argv, FILE *out);

int view_dmesg(const struct bundle_r *b, int argc, char **argv, FILE *out)
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
			fprintf(out, "[%5" PRId64 ".%06" PRId64 "] %s\n",
				r->ts_us / 1000000, r->ts_us % 1000000, r->text);
		else
			fprintf(out, "%s\n", r->text);
	}
	free(r);
	return 0;
}
