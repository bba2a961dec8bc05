/* fingerprint: a bundle's configuration, apart from its volatile data.
 *
 * Computed from the database after load (every value comes from the
 * evidence tables, never from the bundle), into fingerprints (one row per
 * bundle: class, digest) and fingerprint_attrs (one row per attribute),
 * schema/003-fleet.sql.  Attribute names are stable and listed in
 * schema/DATABASE.md; each belongs to a group:
 *   class   the hardware shape nodes are grouped by (HCA models, link layers)
 *   fw      HCA firmware, per device, with its board (PSID)
 *   driver  kernel release, mlx5_core/ib_core versions, inbox or OFED
 *   config  every other compared setting (MTU, rate, width, PFC, trust,
 *           PCIe link, ACS, IOMMU, peermem, memlock, huge pages, NCCL
 *           environment, module parameters, GID table shape)
 *   count   HCAs and active ports
 *   unique  what must differ between nodes (GUIDs, MAC and IP addresses)
 * The fleet rules (rules-fleet.c) compare fw/driver/config/count within a
 * class; `rdma-analyze diff` and the history rules compare two bundles.
 */
#ifndef RDMA_ANALYZE_FINGERPRINT_H
#define RDMA_ANALYZE_FINGERPRINT_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

/* bump when an attribute is added, renamed or computed differently:
 * fingerprints of an older version are recomputed on use */
#define FINGERPRINT_VERSION 1

/* compute the fingerprints of bundles ids[0..n) that have none or an older
 * one (ids NULL: every bundle of the database).  Runs in the caller's
 * transaction if one is open.  0, or -1 with a message. */
int fingerprint_update(sqlite3 *db, const int64_t *ids, size_t n);

/* one attribute that differs between two bundles; a or b NULL: the
 * attribute is absent from that side (present_a/present_b 0) or known to be
 * absent (present 1, value NULL) */
struct fp_diff {
	const char *attr;
	const char *grp;
	const char *a, *b;
	int present_a, present_b;
	const char *path_a, *path_b;
};

/* call fn for every attribute (unique group included: with_unique 1)
 * whose value differs between bundles a and b, in attribute order;
 * fingerprints are updated first.  Returns the number of differences, or
 * -1 (fn returning non-zero stops the walk and is returned). */
int fingerprint_diff(sqlite3 *db, int64_t a, int64_t b, int with_unique,
		     int (*fn)(const struct fp_diff *d, void *arg), void *arg);

/* the class of a bundle (updated first); NULL if none.  The string is
 * the caller's to free. */
char *fingerprint_class(sqlite3 *db, int64_t bundle_id);

#endif
