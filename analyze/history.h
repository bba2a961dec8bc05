/* history: one node's bundles over time, and what changed between them.
 *
 * A node is a row of `nodes` (hostname + machine id); its snapshots are
 * its bundles ordered by collected_at (then id).  Between two consecutive
 * snapshots a counter's growth is turned into a per-hour rate, unless the
 * counter could not have been counting the whole interval:
 *
 *   - a new boot_id: the node rebooted and the counter restarted from 0;
 *     its value is what it counted since boot, over the new uptime;
 *   - a value that went down in the same boot: a driver reload or a
 *     counter clear at an unknown time: no rate;
 *   - a 64-bit counter that went from its top quarter to its bottom
 *     quarter: one wrap, counted through 2^64;
 *   - an IB PMA counter at its maximum (4, 8, 16 or 32 bits): PMA counters
 *     saturate instead of wrapping, so the value is "at least": no rate.
 *
 * The rules of layer "history" (rules-history.c) and `rdma-analyze
 * history` (history-timeline.c) are built on these functions.
 */
#ifndef RDMA_ANALYZE_HISTORY_H
#define RDMA_ANALYZE_HISTORY_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

enum hist_status {
	HIST_DELTA,		/* cur - prev, counted over the interval */
	HIST_WRAP,		/* a 64-bit counter wrapped once */
	HIST_REBOOT,		/* counted from 0 since the reboot */
	HIST_RESET,		/* went down in the same boot: no rate */
	HIST_SATURATED,		/* at its maximum: delta is "at least" */
};

struct hist_delta {
	enum hist_status status;
	uint64_t delta;		/* HIST_RESET: 0 */
	double seconds;		/* what delta was counted over; <= 0 unknown */
	double per_hour;	/* < 0: no rate */
};

/* the change of one counter of `width` bits between two snapshots.
 * rebooted: the boot ids differ; interval_s: between the snapshots;
 * uptime_s: of the newer one (< 0 unknown) */
void hist_delta(uint64_t prev, uint64_t cur, unsigned width, int rebooted,
		double interval_s, double uptime_s, struct hist_delta *d);
const char *hist_status_name(enum hist_status s);

/* the largest value of a counter of width bits (64: UINT64_MAX) */
uint64_t hist_max(unsigned width);

/* what the history knows of a counter: kind is counters.kind (pma, hw,
 * hw_dev), netdev_stats.source (ethtool, sysfs) or a mad_counters group
 * (PortCounters, PortCountersExtended).  width: bits (a PMA data counter
 * is 32 bits in the basic table, 64 in the extended one: value tells);
 * error: an error counter (schema/REPORT.md, conventions).  Returns -1
 * for a value that is not a counter (PortSelect, CounterSelect). */
struct hist_counter {
	unsigned width;
	int error;
};
int hist_counter_info(const char *kind, const char *name, uint64_t value,
		      struct hist_counter *c);

/* a snapshot: one bundle of the node */
struct hist_snap {
	int64_t bundle_id;
	char *file, *collected_at, *boot_id, *kernel;
	int64_t t;		/* collected_at in seconds since the epoch */
	int t_ok;		/* collected_at could be read */
	double uptime_s;	/* < 0: unknown */
};

struct hist_node {
	int64_t node_id;
	char *name, *machine_id;
	struct hist_snap *v;	/* oldest first */
	size_t n;
};

/* the snapshots of a node, oldest first; upto (a bundle id, 0: all) ends
 * the list at that bundle and last (0: all) keeps only the newest `last`
 * of them.  0 or -1 */
int hist_node_load(sqlite3 *db, int64_t node_id, int64_t upto, size_t last,
		   struct hist_node *h);
void hist_node_release(struct hist_node *h);

/* the two snapshots were taken in different boots (both ids known) */
int hist_rebooted(const struct hist_snap *a, const struct hist_snap *b);
/* seconds from a to b, < 0 when a time is unknown */
double hist_interval(const struct hist_snap *a, const struct hist_snap *b);

/* One counter of a snapshot with its values in up to two earlier ones.
 * obj: "mlx5_0:1" (counters), the netdev (netdev_stats), or the peer
 * port "GUID:port" (mad_counters of the far end of the cable). */
struct hist_row {
	const char *kind, *obj, *name, *path, *desc;
	uint64_t cur, prev, pprev;
	int has_prev, has_pprev;
	int has_v2;		/* a --sample second read in the snapshot */
	uint64_t v2;
	int64_t interval_ms;
};
typedef int (*hist_row_fn)(const struct hist_row *r, void *arg);

/* call fn for each counter of bundle cur (ordered by obj, kind, name),
 * with its values in prev and pprev (0: none); errors_only: only the
 * error counters, and of those at 0 only a possible 64-bit wrap (a zero
 * neither grew nor has a rate since boot).  fn returns 0 to go on.  0 or
 * -1 */
int hist_counters(sqlite3 *db, int64_t cur, int64_t prev, int64_t pprev,
		  int errors_only, hist_row_fn fn, void *arg);

/* One compared setting of a snapshot: component (mlx5_0, kernel, a module,
 * a netdev, mlx5_0:1 ...), name (fw_ver, version, mtu ...), value (NULL:
 * absent). */
struct hist_setting {
	const char *component, *name, *from, *to, *path;
};
typedef int (*hist_setting_fn)(const struct hist_setting *s, void *arg);

/* call fn for each setting that differs between bundles prev and cur
 * (present in one only, or with another value).  0 or -1 */
int hist_settings_changed(sqlite3 *db, int64_t prev, int64_t cur,
			  hist_setting_fn fn, void *arg);

/* The RDMA-relevant kernel log records of bundle cur that no earlier
 * bundle of the node (same boot) holds: the same text at the same
 * boot-relative time in the same boot is the same record, seen again in
 * the ring buffer's overlap.  Calls fn(category, ts_us, device, text).
 * Returns the count, or -1. */
typedef int (*hist_klog_fn)(const char *category, int64_t ts_us,
			    const char *device, const char *text, void *arg);
int hist_new_klog(sqlite3 *db, const struct hist_snap *cur,
		  hist_klog_fn fn, void *arg);

/* per-hour figure for messages: "12.5/h", "0.004/h" */
void hist_fmt_rate(char *out, size_t n, double per_hour);
/* "26.0 h", "3.5 d", "42 min" */
void hist_fmt_span(char *out, size_t n, double seconds);

/* the bundles of the temp table todo gain the next bundle of each of their
 * nodes (its history findings compare it with a bundle loaded now); the
 * added bundles' findings and skipped rows are removed.  0 or -1 */
int hist_widen_todo(sqlite3 *db);

/* history-timeline.c: the timeline of the nodes named NODE in database FILE,
 * as text or JSON (--all: every counter that moved, not only the error
 * counters); EXIT_OK or EXIT_INPUT (analyze.h) */
int history_print(const char *file, const char *node, int json, int all);

#endif
