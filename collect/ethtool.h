/* ethtool: what `ethtool -i -S -a --show-priv-flags <if>` shows, read with
 * the SIOCETHTOOL ioctl (GET commands only, never SET), as JSON.
 *
 * Both functions talk to the live kernel (not through a ctx): under --root
 * a caller copies the stored form instead of calling them.  They never
 * print; every ioctl that fails is recorded in the document's "errors"
 * object with its errno name ("EOPNOTSUPP"), and never fails the caller.
 * The forms are those of schema/BUNDLE.md, section "netdev".
 */
#ifndef RDMA_COLLECT_ETHTOOL_H
#define RDMA_COLLECT_ETHTOOL_H

#include "buf.h"

/* Append to out the counters of ifname, one JSON document:
 *
 *   { "ifname": "eth0", "status": "ok",
 *     "stats": [ ["rx_packets", 123], ["tx_pause_storm_warning_events ", 0] ],
 *     "errors": {} }
 *
 * Stat names are exact (up to ETH_GSTRING_LEN bytes, trailing spaces kept),
 * values unsigned 64-bit, in the driver's order.  "status" is "ok" (the
 * stats were read; a driver without stats gives an empty list), "absent"
 * (no such interface, or it has no ethtool stats support) or "error";
 * "errors" names what failed ({ "stats": "EOPNOTSUPP" }).
 *
 * Returns 0 when the stats were read, else -errno of the failure; out gets
 * the document in every case.  This is the second read of --sample.
 */
int ethtool_stats_json(const char *ifname, struct buf *out);

/* Append to out the whole rdma-collect/ethtool/<if>.json document: the
 * driver (GDRVINFO), stats (GSSET_INFO, GSTRINGS, GSTATS), private flags
 * (GPFLAGS), pause (GPAUSEPARAM), link (GLINKSETTINGS, or GSET on old
 * drivers, and GLINK).  Returns 0 if the interface answered at all (even
 * with errors listed), -errno when nothing could be read. */
int ethtool_json(const char *ifname, struct buf *out);

#endif
