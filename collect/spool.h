/* spool: an output folder used as a node's history (--keep).
 *
 * The collector's own bundle names, <host>-<yyyymmddThhmmssZ>[-N].rdma.tar.zst,
 * are the only files it ever removes, and only those of the host it just
 * collected, ordered by the UTC time in the name.  One collector at a time
 * writes into a spool: it holds an flock on <folder>/.rdma-collect.lock
 * from before it collects until it exits.
 */
#ifndef RDMA_COLLECT_SPOOL_H
#define RDMA_COLLECT_SPOOL_H

#include <time.h>

struct spool_keep {
	int count;		/* keep the newest count bundles, 0: not */
	int days;		/* keep the bundles of the last days, 0: not */
};

/* "30" or "30d" (the days 1-36500, the count 1-100000): 0 or -1 */
int spool_parse_keep(const char *s, struct spool_keep *k);
/* the time in name if it is one of host's bundles (seq: 1, or N of the
 * -N a taken name gets): 0, or -1 when name is not host's bundle */
int spool_bundle_name(const char *name, const char *host, time_t *t,
		      unsigned *seq);
/* after the bundle written (its base name) is in place in dir: remove
 * host's other bundles, and each one's .key, beyond k, counting written
 * as the newest and now (its time) as the present.  Only regular files,
 * never through a symlink; each removal said with -v, a failed one a
 * warning.  Returns how many bundles were removed. */
int spool_prune(const char *dir, const char *host, const char *written,
		time_t now, const struct spool_keep *k);

#define SPOOL_LOCK ".rdma-collect.lock"

/* take the spool's lock, creating the file (0644, less the umask) when
 * absent, never through a symlink, never blocking: the descriptor (close
 * it, or exit, to release), -1 when it cannot be taken (said), -2 when
 * another process holds it (said, with its pid when /proc/locks names it) */
int spool_lock(const char *dir);

#endif
