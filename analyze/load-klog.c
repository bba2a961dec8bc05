/* load-klog: the kernel log into the klog table (staged, then stored as a
 * row set: store.c), one row per record in the log's order, with the PCI
 * address it names and what RDMA checks read it for (the parser and the
 * categories are klog.c's) */
#include <stdlib.h>

#include "klog.h"
#include "load.h"

int load_klog(struct ld *l)
{
	struct klog_iter it;
	struct klog_rec *r;
	const char *path;
	int rc = 0;

	if (!klog_open(l->b, &it, &path))
		return 0;
	r = malloc(sizeof(*r));
	if (!r)
		return -1;
	while (!rc && klog_next(&it, r))
		rc = ld_exec(l, "INSERT INTO temp.s_klog (bundle_id, seq, "
			     "ts_us, prio, device, text, category) VALUES (?, ?, "
			     "?, ?, ?, ?, ?)", "iNNNsss", l->bid, r->seq, r->ts_us,
			     (int64_t)r->level, r->device[0] ? r->device : NULL,
			     r->text, r->category);
	free(r);
	return rc < 0 ? -1 : 0;
}
