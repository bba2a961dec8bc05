/* src-verbs: the `ibv_devinfo -v` equivalent, through libibverbs opened
 * with dlopen at run time (never linked: on a broken node rdma-core may be
 * missing or half-installed, and the collector must still run).
 * <infiniband/verbs.h> gives only the structures and the inline helpers
 * that need no symbol; every library function is called through dlsym.
 * See schema/BUNDLE.md, section "verbs". */
#include <endian.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "json.h"
#include "rdmalib.h"
#include "src.h"
#include "util.h"

#define VERBS_LIB "libibverbs.so.1"
/* test hook: another file name (or path) to dlopen instead */
#define VERBS_LIB_ENV "RDMA_COLLECT_LIBIBVERBS"
#define VERBS_MAX_GIDS 4096
#define VERBS_MAX_ERRORS 16
#define VERBS_MSG_MAX 4000

struct verbs {
	void *h;
	struct ibv_device **(*get_device_list)(int *num);
	void (*free_device_list)(struct ibv_device **list);
	const char *(*get_device_name)(struct ibv_device *dev);
	struct ibv_context *(*open_device)(struct ibv_device *dev);
	int (*close_device)(struct ibv_context *ctx);
	int (*query_device)(struct ibv_context *ctx,
			    struct ibv_device_attr *attr);
	int (*query_port)(struct ibv_context *ctx, uint8_t port,
			  struct _compat_ibv_port_attr *attr);
	int (*query_gid)(struct ibv_context *ctx, uint8_t port, int index,
			 union ibv_gid *gid);
	/* optional: rdma-core 32 and later */
	int (*query_gid_ex)(struct ibv_context *ctx, uint32_t port,
			    uint32_t index, struct ibv_gid_entry *entry,
			    uint32_t flags, size_t size);
	struct ctx_quiet quiet;	/* the library's messages */
};

/* ibv_port_attr with room for what newer libraries add at its end
 * (active_speed_ex, rdma-core 47); the library zeroes all we hand it */
union port_attr {
	struct ibv_port_attr a;
	unsigned char raw[sizeof(struct ibv_port_attr) + 64];
};
/* where rdma-core 47 puts active_speed_ex: after port_cap_flags2 */
#define SPEED_EX_OFF ((offsetof(struct ibv_port_attr, port_cap_flags2) + 2 + 3) & ~(size_t)3)

struct dev_errors {
	int n;
	struct {
		char what[32];
		int err;
	} v[VERBS_MAX_ERRORS];
};

static void dev_error(struct dev_errors *e, const char *what, int err)
{
	if (e->n >= VERBS_MAX_ERRORS)
		return;
	xsnprintf(e->v[e->n].what, sizeof(e->v[e->n].what), "%s", what);
	e->v[e->n].err = err;
	e->n++;
}

/* --- loading --- */

static void *sym(struct verbs *v, const char *name, int *missing)
{
	void *p = rdmalib_sym(v->h, name);

	if (!p && missing)
		(*missing)++;
	return p;
}

/* 0, or -1 with the reason set */
static int verbs_load(struct ctx *c, struct verbs *v)
{
	const char *name = getenv(VERBS_LIB_ENV);
	char file[PATH_MAX];
	int missing = 0;

	if (!name || !*name)
		name = VERBS_LIB;
	v->h = rdmalib_open(name);
	if (!v->h) {
		const char *e = rdmalib_error();

		ctx_note(c, "libibverbs", "absent: %s", e);
		ctx_reason(c, "libibverbs cannot be loaded (%s)", e);
		return -1;
	}
	ctx_note(c, "libibverbs", "ok");
	if (!rdmalib_file(v->h, file, sizeof(file)))
		ctx_note(c, "libibverbs.file", "%s", file);
	/* POSIX lets a void * from dlsym become a function pointer */
	v->get_device_list = (struct ibv_device **(*)(int *))
		sym(v, "ibv_get_device_list", &missing);
	v->free_device_list = (void (*)(struct ibv_device **))
		sym(v, "ibv_free_device_list", &missing);
	v->get_device_name = (const char *(*)(struct ibv_device *))
		sym(v, "ibv_get_device_name", &missing);
	v->open_device = (struct ibv_context *(*)(struct ibv_device *))
		sym(v, "ibv_open_device", &missing);
	v->close_device = (int (*)(struct ibv_context *))
		sym(v, "ibv_close_device", &missing);
	v->query_device = (int (*)(struct ibv_context *,
				   struct ibv_device_attr *))
		sym(v, "ibv_query_device", &missing);
	/* the real export; verbs.h makes ibv_query_port an inline macro */
	v->query_port = (int (*)(struct ibv_context *, uint8_t,
				 struct _compat_ibv_port_attr *))
		sym(v, "ibv_query_port", &missing);
	v->query_gid = (int (*)(struct ibv_context *, uint8_t, int,
				union ibv_gid *))
		sym(v, "ibv_query_gid", &missing);
	v->query_gid_ex = (int (*)(struct ibv_context *, uint32_t, uint32_t,
				   struct ibv_gid_entry *, uint32_t, size_t))
		sym(v, "_ibv_query_gid_ex", NULL);
	if (missing) {
		ctx_reason(c, "libibverbs lacks %d of the functions needed",
			   missing);
		return -1;
	}
	return 0;
}

/* --- formatting --- */

static void guid_str(__be64 g, char *out, size_t n)
{
	uint64_t h = be64toh(g);

	xsnprintf(out, n, "%04x:%04x:%04x:%04x",
		  (unsigned)(h >> 48) & 0xffff, (unsigned)(h >> 32) & 0xffff,
		  (unsigned)(h >> 16) & 0xffff, (unsigned)h & 0xffff);
}

static void gid_str(const union ibv_gid *g, char *out, size_t n)
{
	const uint8_t *r = g->raw;

	xsnprintf(out, n, "%02x%02x:%02x%02x:%02x%02x:%02x%02x:"
		  "%02x%02x:%02x%02x:%02x%02x:%02x%02x",
		  r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7],
		  r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]);
}

static int gid_empty(const union ibv_gid *g)
{
	static const uint8_t zero[16];

	return !memcmp(g->raw, zero, sizeof(zero));
}

static const char *gid_type_name(uint32_t t)
{
	switch (t) {
	case IBV_GID_TYPE_IB: return "IB";
	case IBV_GID_TYPE_ROCE_V1: return "RoCE v1";
	case IBV_GID_TYPE_ROCE_V2: return "RoCE v2";
	default: return NULL;
	}
}

static void device_json(struct json *j, struct ibv_device *dev,
			const struct ibv_device_attr *a)
{
	char g[32];

	json_obj_open(j, "device");
	json_strn(j, "fw_ver", a->fw_ver, strnlen(a->fw_ver,
						  sizeof(a->fw_ver)));
	guid_str(a->node_guid, g, sizeof(g));
	json_str(j, "node_guid", g);
	guid_str(a->sys_image_guid, g, sizeof(g));
	json_str(j, "sys_image_guid", g);
	json_uint(j, "vendor_id", a->vendor_id);
	json_uint(j, "vendor_part_id", a->vendor_part_id);
	json_uint(j, "hw_ver", a->hw_ver);
	json_uint(j, "phys_port_cnt", a->phys_port_cnt);
	json_uint(j, "max_mr_size", a->max_mr_size);
	json_uint(j, "page_size_cap", a->page_size_cap);
	json_int(j, "max_qp", a->max_qp);
	json_int(j, "max_qp_wr", a->max_qp_wr);
	json_uint(j, "device_cap_flags", a->device_cap_flags);
	json_int(j, "max_sge", a->max_sge);
	json_int(j, "max_sge_rd", a->max_sge_rd);
	json_int(j, "max_cq", a->max_cq);
	json_int(j, "max_cqe", a->max_cqe);
	json_int(j, "max_mr", a->max_mr);
	json_int(j, "max_pd", a->max_pd);
	json_int(j, "max_qp_rd_atom", a->max_qp_rd_atom);
	json_int(j, "max_ee_rd_atom", a->max_ee_rd_atom);
	json_int(j, "max_res_rd_atom", a->max_res_rd_atom);
	json_int(j, "max_qp_init_rd_atom", a->max_qp_init_rd_atom);
	json_int(j, "max_ee_init_rd_atom", a->max_ee_init_rd_atom);
	json_uint(j, "atomic_cap", (unsigned)a->atomic_cap);
	json_int(j, "max_ee", a->max_ee);
	json_int(j, "max_rdd", a->max_rdd);
	json_int(j, "max_mw", a->max_mw);
	json_int(j, "max_raw_ipv6_qp", a->max_raw_ipv6_qp);
	json_int(j, "max_raw_ethy_qp", a->max_raw_ethy_qp);
	json_int(j, "max_mcast_grp", a->max_mcast_grp);
	json_int(j, "max_mcast_qp_attach", a->max_mcast_qp_attach);
	json_int(j, "max_total_mcast_qp_attach",
		 a->max_total_mcast_qp_attach);
	json_int(j, "max_ah", a->max_ah);
	json_int(j, "max_fmr", a->max_fmr);
	json_int(j, "max_map_per_fmr", a->max_map_per_fmr);
	json_int(j, "max_srq", a->max_srq);
	json_int(j, "max_srq_wr", a->max_srq_wr);
	json_int(j, "max_srq_sge", a->max_srq_sge);
	json_uint(j, "max_pkeys", a->max_pkeys);
	json_uint(j, "local_ca_ack_delay", a->local_ca_ack_delay);
	json_int(j, "transport_type", (int)dev->transport_type);
	json_int(j, "node_type", (int)dev->node_type);
	json_obj_close(j);
}

/* the extended attributes, through the context's own op (an inline of
 * verbs.h that needs no library symbol); nothing when the provider has
 * no query_device_ex */
static void device_ex_json(struct json *j, struct ibv_context *ctx,
			   struct dev_errors *e)
{
	struct verbs_context *vctx = verbs_get_ctx_op(ctx, query_device_ex);
	struct ibv_device_attr_ex ax;
	int rc;

	if (!vctx)
		return;
	memset(&ax, 0, sizeof(ax));
	rc = vctx->query_device_ex(ctx, NULL, &ax, sizeof(ax));
	if (rc) {
		dev_error(e, "query_device_ex", rc > 0 ? rc : errno);
		return;
	}
	json_obj_open(j, "device_ex");
	json_uint(j, "device_cap_flags_ex", ax.device_cap_flags_ex);
	json_uint(j, "completion_timestamp_mask",
		  ax.completion_timestamp_mask);
	json_uint(j, "hca_core_clock", ax.hca_core_clock);
	json_uint(j, "odp_general_caps", ax.odp_caps.general_caps);
	json_uint(j, "odp_rc_caps", ax.odp_caps.per_transport_caps.rc_odp_caps);
	json_uint(j, "odp_uc_caps", ax.odp_caps.per_transport_caps.uc_odp_caps);
	json_uint(j, "odp_ud_caps", ax.odp_caps.per_transport_caps.ud_odp_caps);
	json_uint(j, "xrc_odp_caps", ax.xrc_odp_caps);
	json_uint(j, "raw_packet_caps", ax.raw_packet_caps);
	json_uint(j, "max_dm_size", ax.max_dm_size);
	json_uint(j, "phys_port_cnt_ex", ax.phys_port_cnt_ex);
	/* the rest of what ibv_devinfo -v prints after local_ca_ack_delay */
	json_uint(j, "tso_max_tso", ax.tso_caps.max_tso);
	json_uint(j, "tso_supported_qpts", ax.tso_caps.supported_qpts);
	json_uint(j, "rss_supported_qpts", ax.rss_caps.supported_qpts);
	json_uint(j, "rss_max_rwq_indirection_tables",
		  ax.rss_caps.max_rwq_indirection_tables);
	json_uint(j, "rss_max_rwq_indirection_table_size",
		  ax.rss_caps.max_rwq_indirection_table_size);
	json_uint(j, "rss_rx_hash_fields_mask", ax.rss_caps.rx_hash_fields_mask);
	json_uint(j, "rss_rx_hash_function", ax.rss_caps.rx_hash_function);
	json_uint(j, "max_wq_type_rq", ax.max_wq_type_rq);
	json_uint(j, "pp_qp_rate_limit_min",
		  ax.packet_pacing_caps.qp_rate_limit_min);
	json_uint(j, "pp_qp_rate_limit_max",
		  ax.packet_pacing_caps.qp_rate_limit_max);
	json_uint(j, "pp_supported_qpts", ax.packet_pacing_caps.supported_qpts);
	json_uint(j, "tm_max_rndv_hdr_size", ax.tm_caps.max_rndv_hdr_size);
	json_uint(j, "tm_max_num_tags", ax.tm_caps.max_num_tags);
	json_uint(j, "tm_flags", ax.tm_caps.flags);
	json_uint(j, "tm_max_ops", ax.tm_caps.max_ops);
	json_uint(j, "tm_max_sge", ax.tm_caps.max_sge);
	json_uint(j, "cq_mod_max_cq_count", ax.cq_mod_caps.max_cq_count);
	json_uint(j, "cq_mod_max_cq_period", ax.cq_mod_caps.max_cq_period);
	json_int(j, "num_comp_vectors", ctx->num_comp_vectors);
	json_obj_close(j);
}

static int query_port(struct verbs *v, struct ibv_context *ctx,
		      uint8_t port, union port_attr *pa)
{
	struct verbs_context *vctx = verbs_get_ctx_op(ctx, query_port);

	memset(pa, 0, sizeof(*pa));
	if (vctx)
		return vctx->query_port(ctx, port, &pa->a, sizeof(*pa));
	return v->query_port(ctx, port, (struct _compat_ibv_port_attr *)&pa->a);
}

/* the GID type and netdev of a slot from sysfs, for libraries without
 * _ibv_query_gid_ex */
static void gid_sysfs(struct ctx *c, const char *ibdev, int port, int index,
		      int ethernet, struct json *j)
{
	struct buf b = BUF_INIT;
	char p[PATH_MAX], name[IF_NAMESIZE];
	const char *type = NULL;

	if (check_snprintf(p, sizeof(p), "/sys/class/infiniband/%s/ports/%d/"
			   "gid_attrs/types/%d", ibdev, port, index) < 0)
		return;
	if (!ctx_read(c, p, &b)) {
		b.len = strcspn(b.buf, "\n");
		b.buf[b.len] = 0;
		if (!strcmp(b.buf, "RoCE v2"))
			type = "RoCE v2";
		else if (!strcmp(b.buf, "IB/RoCE v1"))
			type = ethernet ? "RoCE v1" : "IB";
	}
	if (type)
		json_str(j, "type", type);
	else if (b.len)
		json_str(j, "type", b.buf);
	if (check_snprintf(p, sizeof(p), "/sys/class/infiniband/%s/ports/%d/"
			   "gid_attrs/ndevs/%d", ibdev, port, index) < 0)
		goto out;
	if (!ctx_read(c, p, &b)) {
		b.len = strcspn(b.buf, "\n");
		b.buf[b.len] = 0;
		if (b.len && b.len < sizeof(name)) {
			memcpy(name, b.buf, b.len + 1);
			json_uint(j, "ndev_ifindex", if_nametoindex(name));
		}
	}
out:
	buf_release(&b);
}

static void gids_json(struct ctx *c, struct verbs *v, struct ibv_context *ctx,
		      const char *ibdev, int port, const struct ibv_port_attr *pa,
		      struct json *j, struct dev_errors *e)
{
	int n = pa->gid_tbl_len, i, rc, use_ex = v->query_gid_ex != NULL;
	int ethernet = pa->link_layer == IBV_LINK_LAYER_ETHERNET;
	char what[32], text[48];

	if (n > VERBS_MAX_GIDS)
		n = VERBS_MAX_GIDS;
	json_arr_open(j, "gids");
	for (i = 0; i < n; i++) {
		struct ibv_gid_entry ge;
		union ibv_gid gid;

		if (use_ex) {
			memset(&ge, 0, sizeof(ge));
			rc = v->query_gid_ex(ctx, (uint32_t)port, (uint32_t)i,
					     &ge, 0, sizeof(ge));
			if (rc < 0)
				rc = errno;
			if (rc == ENODATA)
				continue;	/* an empty slot */
			if (!rc) {
				if (gid_empty(&ge.gid))
					continue;
				gid_str(&ge.gid, text, sizeof(text));
				json_obj_open(j, NULL);
				json_int(j, "index", i);
				json_str(j, "gid", text);
				json_str(j, "type", gid_type_name(ge.gid_type));
				json_uint(j, "ndev_ifindex", ge.ndev_ifindex);
				json_obj_close(j);
				continue;
			}
			/* an old kernel: the plain query and sysfs */
			use_ex = 0;
		}
		if (v->query_gid(ctx, (uint8_t)port, i, &gid)) {
			xsnprintf(what, sizeof(what), "port%d.gid%d", port, i);
			dev_error(e, what, errno ? errno : EIO);
			continue;
		}
		if (gid_empty(&gid))
			continue;
		gid_str(&gid, text, sizeof(text));
		json_obj_open(j, NULL);
		json_int(j, "index", i);
		json_str(j, "gid", text);
		gid_sysfs(c, ibdev, port, i, ethernet, j);
		json_obj_close(j);
	}
	json_arr_close(j);
}

static void port_json(struct ctx *c, struct verbs *v, struct ibv_context *ctx,
		      const char *ibdev, int port, struct json *j,
		      struct dev_errors *e)
{
	union port_attr pa;
	const struct ibv_port_attr *a = &pa.a;
	uint32_t speed_ex;
	char what[32];
	int rc;

	rc = query_port(v, ctx, (uint8_t)port, &pa);
	if (rc) {
		xsnprintf(what, sizeof(what), "port%d", port);
		dev_error(e, what, rc > 0 ? rc : errno);
		return;
	}
	memcpy(&speed_ex, pa.raw + SPEED_EX_OFF, sizeof(speed_ex));
	json_obj_open(j, NULL);
	json_int(j, "port", port);
	json_uint(j, "state", (unsigned)a->state);
	json_uint(j, "max_mtu", (unsigned)a->max_mtu);
	json_uint(j, "active_mtu", (unsigned)a->active_mtu);
	json_int(j, "gid_tbl_len", a->gid_tbl_len);
	json_uint(j, "port_cap_flags", a->port_cap_flags);
	json_uint(j, "port_cap_flags2", a->port_cap_flags2);
	json_uint(j, "max_msg_sz", a->max_msg_sz);
	json_uint(j, "bad_pkey_cntr", a->bad_pkey_cntr);
	json_uint(j, "qkey_viol_cntr", a->qkey_viol_cntr);
	json_uint(j, "pkey_tbl_len", a->pkey_tbl_len);
	json_uint(j, "lid", a->lid);
	json_uint(j, "sm_lid", a->sm_lid);
	json_uint(j, "lmc", a->lmc);
	json_uint(j, "max_vl_num", a->max_vl_num);
	json_uint(j, "sm_sl", a->sm_sl);
	json_uint(j, "subnet_timeout", a->subnet_timeout);
	json_uint(j, "init_type_reply", a->init_type_reply);
	json_uint(j, "active_width", a->active_width);
	json_uint(j, "active_speed", a->active_speed);
	json_uint(j, "active_speed_ex", speed_ex);
	json_uint(j, "phys_state", a->phys_state);
	json_uint(j, "link_layer", a->link_layer);
	json_uint(j, "flags", a->flags);
	gids_json(c, v, ctx, ibdev, port, a, j, e);
	json_obj_close(j);
}

/* one device's document; returns 0 or the errno of ibv_open_device */
static int dev_json(struct ctx *c, struct verbs *v, struct ibv_device *dev,
		    const char *ibdev, struct buf *out)
{
	struct ibv_device_attr attr;
	struct ibv_context *ctx;
	struct dev_errors e;
	struct json j;
	int rc, i;

	memset(&e, 0, sizeof(e));
	json_init(&j, out, 1);
	json_obj_open(&j, NULL);
	json_str(&j, "ibdev", ibdev);
	errno = 0;
	ctx = v->open_device(dev);
	if (!ctx) {
		rc = errno ? errno : ENODEV;
		json_str(&j, "status", "error");
		json_str(&j, "reason", "ibv_open_device failed");
		dev_error(&e, "open_device", rc);
		goto out;
	}
	rc = v->query_device(ctx, &attr);
	if (rc) {
		json_str(&j, "status", "error");
		json_str(&j, "reason", "ibv_query_device failed");
		dev_error(&e, "query_device", rc > 0 ? rc : errno);
		rc = 0;
		goto close;
	}
	json_str(&j, "status", "ok");
	json_strn(&j, "uverbs", dev->dev_name, strnlen(dev->dev_name,
						       sizeof(dev->dev_name)));
	device_json(&j, dev, &attr);
	device_ex_json(&j, ctx, &e);
	json_arr_open(&j, "ports");
	for (i = 1; i <= attr.phys_port_cnt; i++)
		port_json(c, v, ctx, ibdev, i, &j, &e);
	json_arr_close(&j);
close:
	v->close_device(ctx);
out:
	json_obj_open(&j, "errors");
	for (i = 0; i < e.n; i++)
		json_str(&j, e.v[i].what, errno_name(e.v[i].err));
	json_obj_close(&j);
	json_obj_close(&j);
	json_end(&j);
	return rc;
}

static int ibdev_name_ok(const char *s)
{
	size_t n = strlen(s);

	return n && n < 64 && !strchr(s, '/') && strcmp(s, ".") &&
	       strcmp(s, "..");
}

static void devices_json(struct ctx *c, const char *status,
			 const char *reason, char **names, int n,
			 const struct buf *skipped)
{
	struct buf b = BUF_INIT;
	struct json j;
	int i;

	json_init(&j, &b, 1);
	json_obj_open(&j, NULL);
	json_str(&j, "status", status);
	json_str(&j, "reason", reason);
	json_arr_open(&j, "devices");
	for (i = 0; i < n; i++)
		json_str(&j, NULL, names[i]);
	json_arr_close(&j);
	if (skipped && skipped->len)
		json_raw(&j, "quarantined", skipped->buf);
	json_obj_close(&j);
	json_end(&j);
	ctx_emit_buf(c, "verbs/devices.json", &b);
	buf_release(&b);
}

/* under --root: the stored documents, never the library */
static int collect_stored(struct ctx *c)
{
	struct buf b = BUF_INIT;
	int rc;

	rc = ctx_stored(c, "verbs");
	if (rc == -ENOENT) {
		ctx_reason(c, "no stored verbs evidence under the root");
		return SRC_ABSENT;
	}
	if (rc < 0) {
		ctx_reason(c, "cannot copy the stored verbs evidence: %s",
			   strerror(-rc));
		return SRC_ERROR;
	}
	/* keep the status the node had */
	rc = SRC_OK;
	if (!ctx_read(c, "/rdma-collect/verbs/devices.json", &b) &&
	    (strstr(b.buf, "\"status\": \"absent\"") ||
	     strstr(b.buf, "\"status\":\"absent\""))) {
		ctx_reason(c, "the stored verbs evidence records no device");
		rc = SRC_ABSENT;
	}
	buf_release(&b);
	return rc;
}

static int collect(struct ctx *c)
{
	struct verbs v;
	struct ibv_device **list = NULL;
	struct buf doc = BUF_INIT, skipped = BUF_INIT;
	char **names = NULL, p[128];
	int n = 0, i, k, ok = 0, failed = 0, denied = 0, held = 0, err;
	int res;

	if (ctx_is_root(c))
		return collect_stored(c);
	memset(&v, 0, sizeof(v));
	v.quiet.fd = v.quiet.saved = -1;
	ctx_progress(c, "", "dlopen " VERBS_LIB);
	ctx_quiet_begin(&v.quiet, "libibverbs-stderr");
	if (verbs_load(c, &v) < 0) {
		ctx_quiet_note(c, &v.quiet, "libibverbs.messages",
			       VERBS_MSG_MAX);
		devices_json(c, v.h ? "error" : "absent", c->reason, NULL, 0,
			     NULL);
		res = v.h ? SRC_ERROR : SRC_ABSENT;
		goto out;
	}
	ctx_progress(c, "", "ibv_get_device_list");
	errno = 0;
	list = v.get_device_list(&n);
	err = errno;
	ctx_quiet_note(c, &v.quiet, "libibverbs.messages", VERBS_MSG_MAX);
	if (!list || n <= 0) {
		if (!list && err && err != ENOSYS && err != ENODEV) {
			ctx_reason(c, "ibv_get_device_list failed: %s (%s)",
				   errno_name(err),
				   strerror(err));
			res = err == EACCES || err == EPERM ? SRC_DENIED :
				SRC_ERROR;
			devices_json(c, "error", c->reason, NULL, 0, NULL);
		} else {
			if (!list)
				ctx_reason(c, "no RDMA devices (ibv_get_device_list: "
					   "%s, %s: no RDMA support in this "
					   "kernel)", errno_name(err ? err : ENOSYS),
					   strerror(err ? err : ENOSYS));
			else
				ctx_reason(c, "no RDMA devices (libibverbs "
					   "found none)");
			devices_json(c, "absent", c->reason, NULL, 0, NULL);
			res = SRC_ABSENT;
		}
		n = 0;
		goto out;
	}
	names = calloc((size_t)n, sizeof(*names));
	if (!names) {
		ctx_reason(c, "out of memory");
		res = SRC_ERROR;
		n = 0;
		goto out;
	}
	for (i = k = 0; i < n; i++) {
		const char *name = v.get_device_name(list[i]);

		if (name && ibdev_name_ok(name))
			names[k++] = (char *)name;
	}
	buf_addch(&skipped, '[');
	for (i = 0; i < n; i++) {
		const char *name = v.get_device_name(list[i]);

		if (!name || !ibdev_name_ok(name))
			continue;
		if (ctx_quarantined(c, name)) {
			buf_addf(&skipped, "%s", held ? ", " : "");
			json_quote(&skipped, name, strlen(name));
			held++;
			continue;
		}
		xsnprintf(p, sizeof(p), "verbs/%s.json", name);
		ctx_progress(c, name, "verbs query (ibv_open_device, "
			     "ibv_query_device, ibv_query_port, ibv_query_gid)");
		buf_reset(&doc);
		ctx_quiet_begin(&v.quiet, "libibverbs-stderr");
		err = dev_json(c, &v, list[i], name, &doc);
		ctx_quiet_note(c, &v.quiet, "libibverbs.messages",
			       VERBS_MSG_MAX);
		ctx_emit_buf(c, p, &doc);
		if (!err)
			ok++;
		else if (err == EACCES || err == EPERM)
			denied++;
		else
			failed++;
	}
	buf_addch(&skipped, ']');
	devices_json(c, "ok", "", names, k, held ? &skipped : NULL);
	ctx_note(c, "devices", "%d", k);
	if (!ok && denied && !failed) {
		ctx_reason(c, "no device could be opened without privileges");
		res = SRC_DENIED;
	} else if (!ok && (failed || denied)) {
		ctx_reason(c, "no device could be opened");
		res = SRC_ERROR;
	} else if (failed || denied || held) {
		ctx_reason(c, "%d devices read, %d not opened, %d left alone "
			   "(quarantined)", ok, failed + denied, held);
		res = SRC_PARTIAL;
	} else {
		res = SRC_OK;
	}
out:
	free(names);
	buf_release(&doc);
	buf_release(&skipped);
	if (list)
		v.free_device_list(list);
	/* not dlclose'd: provider libraries may keep threads or handlers */
	return res;
}

const struct source src_verbs = {
	.name = "verbs",
	.help = "ibv_devinfo -v through libibverbs (dlopen'ed at run time)",
	.flags = SRC_F_STORED,
	.timeout_ms = 15000,
	.max_bytes = 8u << 20,
	.collect = collect,
};
