/* src-netdev: the netdevs behind the RDMA ports (and their bond masters):
 * their sysfs attributes and counters, ethtool (driver, stats, pause,
 * link, private flags), DCB (PFC, ETS, APP), and every interface's
 * addresses.  See schema/BUNDLE.md, section "netdev". */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "ethtool.h"
#include "rdmanet.h"
#include "src.h"
#include "util.h"

static const char *const attrs[] = {
	"address", "mtu", "operstate", "carrier", "speed", "duplex",
	"dev_port", "dev_id", "type", "ifindex", "iflink", "flags",
	"tx_queue_len", "broadcast", "link_mode",
	/* added: switchdev/representor naming and link flaps */
	"phys_port_name", "phys_switch_id", "carrier_changes",
	"carrier_up_count", "carrier_down_count",
};

static const char *const links[] = { "device", "master" };
static const char *const dirs[] = {
	"statistics", "qos", "bonding", "bonding_slave",
};

/* files the kernel refuses to read in some states: speed and duplex of
 * a link that is down (EINVAL), phys_* without switchdev (EOPNOTSUPP) */
static const int quiet[] = { EINVAL, EOPNOTSUPP, ENODATA, 0 };

static int in_list(const char *s, const char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(s, v[i]))
			return 1;
	return 0;
}

static int skip(const char *name, const char *rel, int isdir)
{
	if (strchr(rel, '/'))	/* inside statistics/, qos/, bonding/ */
		return isdir;
	if (isdir)
		return !in_list(name, dirs, ARRAY_SIZE(dirs));
	return !in_list(name, attrs, ARRAY_SIZE(attrs)) &&
	       !in_list(name, links, ARRAY_SIZE(links)) &&
	       !starts_with(name, "lower_") && !starts_with(name, "upper_");
}

/* ethtool and DCB of one netdev, from the live kernel */
static void syscalls(struct ctx *c, const char *ifname)
{
	struct buf b = BUF_INIT;
	char p[64];

	ctx_progress(c, ifname, "ethtool ioctls (SIOCETHTOOL)");
	ethtool_json(ifname, &b);
	xsnprintf(p, sizeof(p), "ethtool/%s.json", ifname);
	ctx_emit_buf(c, p, &b);
	buf_reset(&b);
	ctx_progress(c, ifname, "DCB (rtnetlink RTM_GETDCB)");
	dcb_json(ifname, &b);
	xsnprintf(p, sizeof(p), "dcb/%s.json", ifname);
	ctx_emit_buf(c, p, &b);
	buf_release(&b);
}

static int addresses(struct ctx *c)
{
	struct buf b = BUF_INIT;
	int rc;

	if (ctx_is_root(c))
		return ctx_stored(c, "net") < 0 ? -ENOENT : 0;
	ctx_progress(c, "", "addresses (rtnetlink RTM_GETADDR)");
	rc = net_addresses_json(&b);
	if (!rc)
		rc = ctx_emit(c, "net/addresses.json", b.buf, b.len);
	buf_release(&b);
	return rc;
}

/* append name to a space-separated list for a reason or a note */
static void list_add(struct buf *l, const char *name)
{
	buf_addf(l, "%s%s", l->len ? " " : "", name);
}

static int collect(struct ctx *c)
{
	const struct tree_opts o = {
		.max_depth = 2, .skip = skip, .quiet = quiet,
	};
	struct buf done = BUF_INIT, held = BUF_INIT, gone = BUF_INIT;
	struct buf why = BUF_INIT;
	char **names = NULL, p[PATH_MAX];
	int n, i, rc, arc, res = SRC_OK;

	n = rdma_netdevs(c, &names);
	arc = addresses(c);
	if (arc < 0) {
		if (ctx_is_root(c))
			buf_addstr(&why, "no stored addresses under the root");
		else
			buf_addf(&why, "addresses not read: %s",
				 strerror(-arc));
	}
	if (n < 0) {
		ctx_reason(c, "cannot list /sys/class/infiniband: %s",
			   strerror(-n));
		res = n == -EACCES || n == -EPERM ? SRC_DENIED : SRC_ERROR;
		goto out;
	}
	if (!n) {
		ctx_reason(c, "no netdev behind an RDMA port%s%s",
			   why.len ? "; " : "", why.buf);
		res = SRC_ABSENT;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (ctx_quarantined(c, names[i])) {
			list_add(&held, names[i]);
			continue;
		}
		xsnprintf(p, sizeof(p), "/sys/class/net/%s", names[i]);
		rc = ctx_tree(c, p, &o);
		if (rc == -ENOENT) {
			list_add(&gone, names[i]);
			continue;
		}
		list_add(&done, names[i]);
		if (!ctx_is_root(c))
			syscalls(c, names[i]);
	}
	if (ctx_is_root(c)) {
		if (ctx_stored(c, "ethtool") < 0)
			buf_addf(&why, "%sno stored ethtool evidence under the "
				 "root", why.len ? "; " : "");
		if (ctx_stored(c, "dcb") < 0)
			buf_addf(&why, "%sno stored dcb evidence under the root",
				 why.len ? "; " : "");
	}
	ctx_note(c, "netdevs", "%s", done.buf);
	if (held.len)
		buf_addf(&why, "%sleft alone (quarantined): %s",
			 why.len ? "; " : "", held.buf);
	if (gone.len)
		buf_addf(&why, "%snot in /sys/class/net: %s",
			 why.len ? "; " : "", gone.buf);
	if (c->denied)
		buf_addf(&why, "%s%lu files not readable without privileges",
			 why.len ? "; " : "", c->denied);
	if (why.len) {
		ctx_reason(c, "%s", why.buf);
		res = done.len ? SRC_PARTIAL : SRC_ERROR;
	}
out:
	if (n > 0)
		ctx_names_free(names, n);
	buf_release(&done);
	buf_release(&held);
	buf_release(&gone);
	buf_release(&why);
	return res;
}

const struct source src_netdev = {
	.name = "netdev",
	.help = "netdevs behind the RDMA ports: sysfs, ethtool, PFC/ETS (DCB), addresses",
	.flags = SRC_F_STORED,
	.timeout_ms = 15000,
	.max_bytes = 32u << 20,
	.collect = collect,
};
