/* rdmanet: the netdevs behind the RDMA ports, and their rtnetlink
 * evidence (addresses, DCB).  Shared by the netdev and sysfs sources. */
#ifndef RDMA_COLLECT_RDMANET_H
#define RDMA_COLLECT_RDMANET_H

#include "buf.h"
#include "src.h"

/* The netdevs of every /sys/class/infiniband/<dev>, read through c (so
 * also under --root): <dev>/device/net/<if> (the netdevs of the device's PCI
 * function), <dev>/ports/N/gid_attrs/ndevs/<N> (unused slots fail with
 * EINVAL and are ignored) and <dev>/parent (software devices such as rxe
 * name their netdev there), plus the bond master of each of them
 * (/sys/class/net/<if>/master).  Quarantined devices are not read.
 * Nothing is stored.  *names is sorted and unique, freed with
 * ctx_names_free(*names, count); returns the count (0: none, *names may
 * be NULL) or -errno. */
int rdma_netdevs(struct ctx *c, char ***names);

/* 1 when s can be a netdev name and a bundle file name: 1 to IFNAMSIZ-1
 * bytes, no '/', no blank, not "." or ".." */
int netdev_name_ok(const char *s);

/* Append rdma-collect/net/addresses.json: every address of every
 * interface (rtnetlink RTM_GETADDR dump, the `ip addr` equivalent), a
 * JSON array as in schema/BUNDLE.md.  Live kernel only.  0 or -errno
 * (then out is left as it was). */
int net_addresses_json(struct buf *out);

/* Append rdma-collect/dcb/<if>.json: IEEE 802.1Qaz PFC, ETS, APP table,
 * buffer and max rate (DCB_CMD_IEEE_GET) and the DCBX mode
 * (DCB_CMD_GDCBX) of ifname, the `dcb pfc show` equivalent.  "status" is
 * "absent" when the device has no DCB (EOPNOTSUPP, ENODEV, EINVAL), and
 * "error" when netlink failed otherwise.  GET commands only.  Returns 0
 * when the IEEE part was read, else -errno; out gets the document in
 * every case. */
int dcb_json(const char *ifname, struct buf *out);

#endif
