/* src-sysfs: /sys/class/infiniband and its companions, mirrored whole:
 * device attributes, ports, GID tables, pkeys, counters, hw_counters; the
 * verbs and MAD character-device classes; and the RDMA port to netdev map
 * (ibdev2netdev) derived from them.
 *
 * hw_counters/lifespan is a read-write setting: it is read like the rest
 * and never written.  Unused GID slots fail with EINVAL on read: they are
 * empty, not errors (the zero GID in gids/N says so). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json.h"
#include "log.h"
#include "src.h"
#include "util.h"

static int skip(const char *name, const char *rel, int isdir)
{
	(void)rel;
	(void)isdir;
	/* power/ has runtime-PM knobs; uevent is noise */
	return !strcmp(name, "power") || !strcmp(name, "uevent");
}

static const int quiet[] = { EINVAL, ENODATA, 0 };

static const struct tree_opts dev_opts = {
	.max_depth = 8,
	.skip = skip,
	.quiet = quiet,
};

static void trim(struct buf *b)
{
	while (b->len && (b->buf[b->len - 1] == '\n' ||
			  b->buf[b->len - 1] == ' '))
		buf_setlen(b, b->len - 1);
}

/* mirror a class folder: its entries are links to device folders */
static int mirror_class(struct ctx *c, const char *cls)
{
	char **names, p[512];
	int n, i;

	n = ctx_names(c, cls, &names);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		xsnprintf(p, sizeof(p), "%s/%s", cls, names[i]);
		if (ctx_quarantined(c, names[i]))
			continue;
		ctx_tree(c, p, &dev_opts);
	}
	ctx_names_free(names, n);
	return n;
}

static int read_trim(struct ctx *c, const char *path, struct buf *b)
{
	int rc = ctx_read(c, path, b);

	if (!rc)
		trim(b);
	return rc;
}

static void map_entry(struct json *j, const char *dev, int port,
		      const char *netdev, const char *how)
{
	json_obj_open(j, NULL);
	json_str(j, "ibdev", dev);
	json_int(j, "port", port);
	json_str(j, "netdev", netdev);
	json_str(j, "how", how);
	json_obj_close(j);
}

/* the netdev of one port: the PCI function's net/ entry whose dev_port
 * (dev_id on old kernels) is port-1, else the software device's parent
 * (rxe, siw), else the netdev of the port's first GIDs */
static void map_port(struct ctx *c, struct json *j, const char *dev, int port)
{
	struct buf b = BUF_INIT;
	char p[512], **nets = NULL;
	int n, i, found = 0;

	xsnprintf(p, sizeof(p), "/sys/class/infiniband/%s/device/net", dev);
	n = ctx_names(c, p, &nets);
	for (i = 0; i < n && !found; i++) {
		long long v = 0;

		xsnprintf(p, sizeof(p),
			  "/sys/class/infiniband/%s/device/net/%s/dev_port",
			  dev, nets[i]);
		if (read_trim(c, p, &b) < 0 ||
		    parse_ll(b.buf, 0, 0, 1 << 16, &v) < 0 || v == 0) {
			xsnprintf(p, sizeof(p),
				  "/sys/class/infiniband/%s/device/net/%s/dev_id",
				  dev, nets[i]);
			if (read_trim(c, p, &b) < 0 ||
			    parse_ll(b.buf, 0, 0, 1 << 16, &v) < 0)
				v = 0;
		}
		if (v + 1 == port || n == 1) {
			map_entry(j, dev, port, nets[i], "device/net");
			found = 1;
		}
	}
	if (n > 0)
		ctx_names_free(nets, n);
	if (!found) {
		xsnprintf(p, sizeof(p), "/sys/class/infiniband/%s/parent", dev);
		if (!read_trim(c, p, &b) && b.len) {
			map_entry(j, dev, port, b.buf, "parent");
			found = 1;
		}
	}
	for (i = 0; i < 4 && !found; i++) {
		xsnprintf(p, sizeof(p),
			  "/sys/class/infiniband/%s/ports/%d/gid_attrs/ndevs/%d",
			  dev, port, i);
		if (!read_trim(c, p, &b) && b.len) {
			map_entry(j, dev, port, b.buf, "gid_ndev");
			found = 1;
		}
	}
	buf_release(&b);
}

static void ibdev2netdev(struct ctx *c, char **devs, int ndev)
{
	struct buf out = BUF_INIT;
	char p[512], **ports;
	struct json j;
	int i, k, np;

	json_init(&j, &out, 1);
	json_arr_open(&j, NULL);
	for (i = 0; i < ndev; i++) {
		if (ctx_quarantined(c, devs[i]))
			continue;
		xsnprintf(p, sizeof(p), "/sys/class/infiniband/%s/ports",
			  devs[i]);
		np = ctx_names(c, p, &ports);
		for (k = 0; k < np; k++) {
			long long port;

			if (parse_ll(ports[k], 10, 1, 255, &port) == 0)
				map_port(c, &j, devs[i], (int)port);
		}
		if (np > 0)
			ctx_names_free(ports, np);
	}
	json_arr_close(&j);
	json_end(&j);
	ctx_emit_buf(c, "ibdev2netdev.json", &out);
	buf_release(&out);
}

static int collect(struct ctx *c)
{
	static const char *const classes[] = {
		"/sys/class/infiniband_verbs",
		"/sys/class/infiniband_mad",
		"/sys/class/infiniband_cm",
	};
	char **devs, p[512];
	int n, i, q = 0;
	size_t k;

	n = ctx_names(c, "/sys/class/infiniband", &devs);
	if (n <= 0) {
		ctx_reason(c, n == 0 || n == -ENOENT ?
			   "no RDMA device (/sys/class/infiniband is empty or "
			   "absent: ib_core not loaded, or no RDMA hardware)" :
			   "cannot list /sys/class/infiniband: %s",
			   strerror(-n));
		if (n == 0)
			ctx_link(c, "/sys/class/infiniband");
		return n == 0 || n == -ENOENT ? SRC_ABSENT :
		       n == -EACCES ? SRC_DENIED : SRC_ERROR;
	}
	for (i = 0; i < n; i++) {
		if (ctx_quarantined(c, devs[i])) {
			q++;
			continue;
		}
		xsnprintf(p, sizeof(p), "/sys/class/infiniband/%s", devs[i]);
		ctx_tree(c, p, &dev_opts);
	}
	for (k = 0; k < ARRAY_SIZE(classes); k++) {
		struct stat st;

		if (ctx_lstat(c, classes[k], &st) < 0)
			continue;
		mirror_class(c, classes[k]);
	}
	ibdev2netdev(c, devs, n);
	ctx_note(c, "devices", "%d", n);
	ctx_names_free(devs, n);
	if (q) {
		ctx_reason(c, "%d quarantined device(s) left out", q);
		return SRC_PARTIAL;
	}
	if (c->denied || c->errors) {
		ctx_reason(c, "%lu files denied, %lu unreadable", c->denied,
			   c->errors);
		return SRC_PARTIAL;
	}
	return SRC_OK;
}

const struct source src_sysfs = {
	.name = "sysfs",
	.help = "/sys/class/infiniband (devices, ports, GIDs, pkeys, counters, hw_counters), uverbs/umad classes, ibdev2netdev",
	.timeout_ms = 10000,
	.max_bytes = 32u << 20,
	.collect = collect,
};
