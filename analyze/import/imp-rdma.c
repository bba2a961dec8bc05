/* imp-rdma: iproute2's rdma tool (`rdma link show`, `rdma dev show`,
 * `rdma statistic show`) and libfabric's `fi_info` turned into the sysfs
 * entries rdma-collect reads for the same facts (schema/BUNDLE.md).
 *
 * rdma prints one record a line (or, with -p, the first line of a
 * record unindented and the rest indented under it):
 *   link mlx5_0/1 subnet_prefix fe80:0000:0000:0000 lid 7 sm_lid 1 lmc 0
 *        state ACTIVE physical_state LINK_UP netdev ib0
 *   0/1: mlx5_0/1: subnet_prefix ... state ACTIVE ...   (before 5.4)
 *   0: mlx5_0: node_type ca fw 28.39.1002 node_guid 946d:ae03:00d1:a2b4
 *        sys_image_guid 946d:ae03:00d1:a2b4
 *   link mlx5_0/1 rx_write_requests 0 rx_read_requests 0 ... out_of_sequence 0
 * The state names are iproute2's (rdma/link.c: link_state_to_str,
 * phys_state_to_str); the kernel's sysfs strings are written for them.
 *
 * fi_info lists the endpoints a libfabric provider offers ("provider:
 * efa", "domain: rdmap16s27-rdm"); an EFA or verbs domain names the RDMA
 * device, so the device is known to exist, and nothing more: no port
 * state is made up from it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "imp.h"
#include "json.h"
#include "log.h"
#include "util.h"

#define SYS_IB "sys/class/infiniband"
#define MAX_RECS 4096

static const char *const link_states[] = {
	"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER",
};
static const char *const kern_states[] = {
	"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER",
};
static const char *const phys_states[] = {
	"NOP", "SLEEP", "POLLING", "DISABLED", "ARMED", "LINK_UP",
	"LINK_ERROR_RECOVER", "PHY_TEST",
};
static const char *const kern_phys[] = {
	"<unknown>", "Sleep", "Polling", "Disabled", "PortConfigurationTraining",
	"LinkUp", "LinkErrorRecovery", "Phy Test",
};

static int lookup(const char *const *t, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(t[i], s))
			return (int)i;
	return -1;
}

/* a device name as the kernel allows it: no '/', no control, no blank */
static int dev_ok(const char *s)
{
	size_t n = strlen(s), i;

	if (!n || n > 63 || !strcmp(s, ".") || !strcmp(s, ".."))
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_-.", s[i]))
			return 0;
	return 1;
}

/* The records of an rdma output, each one logical line: an indented
 * line continues the record above it (rdma -p).  Calls fn with the words
 * of each record that starts with lead ("link", or NULL: any).  Returns
 * how many records fn took, or -1 on failure. */
struct words {
	char *w[256];
	int n;
};

/* does the line start a record: "link dev/N ...", "N: dev: ...", the
 * links of iproute2 before 5.4 ("I/N: dev/N: ..."), or ("mode ...",
 * "supported ...")?  A line that does not continues the one before:
 * rdma -p indents it, a mail client just wraps it */
static int rec_start(const char *s)
{
	unsigned k, n;
	char name[64];

	return starts_with(s, "link ") ||
	       sscanf(s, "%u: %63[^:]:", &k, name) == 2 ||
	       sscanf(s, "%u/%u: %63[^:]:", &k, &n, name) == 3;
}

static int records(struct imp *im, const char *text, size_t len,
		   const char *origin, void *ctx,
		   int (*fn)(struct imp *, const char *, struct words *, void *))
{
	struct ih_lines it;
	struct ih_line *l = xmalloc(sizeof(*l));
	char *rec = NULL;
	size_t rl = 0;
	int took = 0, rc = 0, nrec = 0;

	ih_lines_init(&it, text, len);
	for (;;) {
		int more = ih_next(&it, l);

		if (more && l->len && rec && ((l->s[0] == ' ' || l->s[0] == '\t') ||
					      !rec_start(l->s))) {
			rec = xrealloc(rec, rl + l->len + 2);
			rec[rl++] = ' ';
			memcpy(rec + rl, l->s, l->len + 1);
			rl += l->len;
			continue;
		}
		if (rec) {
			struct words w;
			char *save, *t;

			w.n = 0;
			for (t = strtok_r(rec, " \t", &save); t && w.n < 256;
			     t = strtok_r(NULL, " \t", &save))
				w.w[w.n++] = t;
			if (w.n && ++nrec <= MAX_RECS) {
				rc = fn(im, origin, &w, ctx);
				if (rc < 0)
					break;
				took += rc == 0;
			}
			free(rec);
			rec = NULL;
			rl = 0;
		}
		if (!more)
			break;
		if (!l->len || l->unterminated)
			continue;
		rec = xstrdup(l->s);
		rl = l->len;
	}
	free(rec);
	free(l);
	return rc < 0 ? -1 : took;
}

/* "mlx5_0/1" -> dev, port */
static int dev_port(const char *s, char *dev, size_t n, unsigned *port)
{
	const char *sl = strchr(s, '/');
	char *e;
	unsigned long p;

	if (!sl || (size_t)(sl - s) >= n)
		return -1;
	memcpy(dev, s, (size_t)(sl - s));
	dev[sl - s] = 0;
	p = strtoul(sl + 1, &e, 10);
	if (e == sl + 1 || *e || !p || p > 255 || !dev_ok(dev))
		return -1;
	*port = (unsigned)p;
	return 0;
}

/* the port a link record names: "link mlx5_0/1 ..." or, before
 * iproute2 5.4 (rdma/link.c printed the indexes first), "0/1: mlx5_0/1:
 * ..." */
static int link_port(const struct words *w, char *dev, size_t n,
		     unsigned *port)
{
	char t[80];
	size_t l;

	if (w->n < 2)
		return -1;
	if (!strcmp(w->w[0], "link"))
		return dev_port(w->w[1], dev, n, port);
	l = strlen(w->w[1]);
	if (!isdigit((unsigned char)w->w[0][0]) || !strchr(w->w[0], '/') ||
	    w->w[0][strlen(w->w[0]) - 1] != ':' || l < 2 || l >= sizeof(t) ||
	    w->w[1][l - 1] != ':')
		return -1;
	memcpy(t, w->w[1], l - 1);
	t[l - 1] = 0;
	return dev_port(t, dev, n, port);
}

static const char *word(struct words *w, const char *key)
{
	int i;

	for (i = 0; i + 1 < w->n; i++)
		if (!strcmp(w->w[i], key))
			return w->w[i + 1];
	return NULL;
}

static int link_rec(struct imp *im, const char *origin, struct words *w,
		    void *ctx)
{
	char dev[64], p[256];
	const char *x;
	unsigned port;
	int s;

	if (link_port(w, dev, sizeof(dev), &port) < 0)
		return 1;
	if (!word(w, "state") && !word(w, "physical_state"))
		return 1;	/* a statistic record */
#define P(f) (snprintf(p, sizeof(p), SYS_IB "/%s/ports/%u/%s", dev, port, f), p)
	if ((x = word(w, "state")) &&
	    (s = lookup(link_states, ARRAY_SIZE(link_states), x)) >= 0 &&
	    imp_putf(im, origin, P("state"), "%d: %s\n", s, kern_states[s]) < 0)
		return -1;
	if ((x = word(w, "physical_state")) &&
	    (s = lookup(phys_states, ARRAY_SIZE(phys_states), x)) >= 0 &&
	    s != 4 && imp_putf(im, origin, P("phys_state"), "%d: %s\n", s,
			       kern_phys[s]) < 0)
		return -1;
	if ((x = word(w, "lid"))) {
		unsigned long v = strtoul(x, NULL, 10);

		if (v <= 0xffff && imp_putf(im, origin, P("lid"), "0x%lx\n", v) < 0)
			return -1;
		/* a LID is InfiniBand's: RoCE ports print none */
		if (imp_putf(im, origin, P("link_layer"), "InfiniBand\n") < 0)
			return -1;
	}
	if ((x = word(w, "sm_lid"))) {
		unsigned long v = strtoul(x, NULL, 10);

		if (v <= 0xffff &&
		    imp_putf(im, origin, P("sm_lid"), "0x%lx\n", v) < 0)
			return -1;
	}
	if ((x = word(w, "netdev")) && dev_ok(x)) {
		struct json *j = ctx;

		/* which netdev is the port's, as ibdev2netdev says it */
		json_obj_open(j, NULL);
		json_str(j, "ibdev", dev);
		json_uint(j, "port", port);
		json_str(j, "netdev", x);
		json_str(j, "how", "rdma link");
		json_obj_close(j);
	}
#undef P
	return 0;
}

int rdma_link(struct imp *im, const char *text, size_t len,
	      const char *origin, const char *arg)
{
	struct buf out = BUF_INIT;
	struct json j;
	int n;

	(void)arg;
	json_init(&j, &out, 0);
	json_arr_open(&j, NULL);
	n = records(im, text, len, origin, &j, link_rec);
	json_arr_close(&j);
	json_end(&j);
	/* ibdev2netdev's own list, when pasted too, says more (-v) */
	if (n > 0 && out.len > 3 &&
	    !imp_get(im, "rdma-collect/ibdev2netdev.json", NULL) &&
	    imp_put(im, "rdma-collect/ibdev2netdev.json", out.buf, out.len,
		    origin, IMP_DERIVED) < 0)
		n = -1;
	buf_release(&out);
	if (n < 0)
		return -1;
	return n ? 0 : 1;
}

/* "946d:ae03:00d1:a2b4" as sysfs writes it */
static int guid_ok(const char *s)
{
	int i;

	if (strlen(s) != 19)
		return 0;
	for (i = 0; i < 19; i++)
		if (i % 5 == 4 ? s[i] != ':' : !isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

static int dev_rec(struct imp *im, const char *origin, struct words *w,
		   void *ctx)
{
	char dev[64], p[256];
	const char *x;
	size_t k;

	(void)ctx;
	/* "0: mlx5_0: node_type ca ..." */
	if (w->n < 3 || !isdigit((unsigned char)w->w[0][0]) ||
	    (k = strlen(w->w[0])) < 2 || w->w[0][k - 1] != ':')
		return 1;
	k = strlen(w->w[1]);
	if (k < 2 || w->w[1][k - 1] != ':' || k > sizeof(dev))
		return 1;
	memcpy(dev, w->w[1], k - 1);
	dev[k - 1] = 0;
	if (!dev_ok(dev) || !word(w, "node_type"))
		return 1;
#define P(f) (snprintf(p, sizeof(p), SYS_IB "/%s/%s", dev, f), p)
	if ((x = word(w, "fw")) && imp_putf(im, origin, P("fw_ver"), "%s\n", x) < 0)
		return -1;
	if ((x = word(w, "node_guid")) && guid_ok(x) &&
	    imp_putf(im, origin, P("node_guid"), "%s\n", x) < 0)
		return -1;
	if ((x = word(w, "sys_image_guid")) && guid_ok(x) &&
	    imp_putf(im, origin, P("sys_image_guid"), "%s\n", x) < 0)
		return -1;
	if ((x = word(w, "node_type"))) {
		static const struct { const char *rdma, *sysfs; } t[] = {
			{ "ca", "1: CA" }, { "switch", "2: SWITCH" },
			{ "router", "3: ROUTER" }, { "rnic", "4: RNIC" },
			{ "usnic", "5: usNIC" }, { "usnic_udp", "6: usNIC UDP" },
			{ "unspecified", "7: unspecified" },
		};
		size_t i;

		for (i = 0; i < ARRAY_SIZE(t); i++)
			if (!strcmp(t[i].rdma, x) &&
			    imp_putf(im, origin, P("node_type"), "%s\n",
				     t[i].sysfs) < 0)
				return -1;
	}
#undef P
	return 0;
}

int rdma_dev(struct imp *im, const char *text, size_t len, const char *origin,
	     const char *arg)
{
	int n;

	(void)arg;
	if ((n = records(im, text, len, origin, NULL, dev_rec)) < 0)
		return -1;
	return n ? 0 : 1;
}

static int stat_rec(struct imp *im, const char *origin, struct words *w,
		    void *ctx)
{
	char dev[64], p[512];
	unsigned port;
	int i, took = 0;

	(void)ctx;
	if (w->n < 3 || strcmp(w->w[0], "link") ||
	    dev_port(w->w[1], dev, sizeof(dev), &port) < 0 ||
	    word(w, "state"))
		return 1;
	/* `rdma statistic mode`: which optional counters are on */
	if (!strcmp(w->w[2], "supported") || !strcmp(w->w[2], "optional-counters") ||
	    !strcmp(w->w[2], "mode"))
		return 0;
	for (i = 2; i + 1 < w->n; i += 2) {
		const char *name = w->w[i], *v = w->w[i + 1];
		uint64_t x;

		if (!dev_ok(name) || ih_u64(v, UINT64_MAX, &x) < 0)
			continue;
		/* the counters rdma shows are the port's hw_counters */
		snprintf(p, sizeof(p), SYS_IB "/%s/ports/%u/hw_counters/%s", dev,
			 port, name);
		if (imp_putf(im, origin, p, "%llu\n", (unsigned long long)x) < 0)
			return -1;
		took++;
	}
	return took ? 0 : 1;
}

int rdma_statistic(struct imp *im, const char *text, size_t len,
		   const char *origin, const char *arg)
{
	int n;

	(void)arg;
	if ((n = records(im, text, len, origin, NULL, stat_rec)) < 0)
		return -1;
	return n ? 0 : 1;
}

/* `rdma res`: "0: efa_0: pd 2 cq 4 qp 2 cm_id 0 mr 2 ctx 2", and `rdma
 * res show qp|cq|mr|pd`: "link efa_0/1 lqpn 0 type UNKNOWN state RTS ...":
 * the devices that hold resources exist; the counts are not checked */
static int res_rec(struct imp *im, const char *origin, struct words *w,
		   void *ctx)
{
	char dev[64], p[256];
	unsigned port;
	size_t k;

	(void)ctx;
	if (w->n >= 3 && !strcmp(w->w[0], "link") &&
	    !dev_port(w->w[1], dev, sizeof(dev), &port) &&
	    (word(w, "lqpn") || word(w, "cqn") || word(w, "mrn") ||
	     word(w, "pdn") || word(w, "cm-idn")))
		goto dev;
	if (w->n < 4 || !isdigit((unsigned char)w->w[0][0]) ||
	    (k = strlen(w->w[1])) < 2 || w->w[1][k - 1] != ':' ||
	    k > sizeof(dev) || (!word(w, "pd") && !word(w, "qp") && !word(w, "cq")))
		return 1;
	memcpy(dev, w->w[1], k - 1);
	dev[k - 1] = 0;
dev:
	if (!dev_ok(dev))
		return 1;
	snprintf(p, sizeof(p), SYS_IB "/%s", dev);
	return imp_dir(im, p, origin) < 0 ? -1 : 0;
}

int rdma_res(struct imp *im, const char *text, size_t len, const char *origin,
	     const char *arg)
{
	int n;

	(void)arg;
	if ((n = records(im, text, len, origin, NULL, res_rec)) < 0)
		return -1;
	return n ? 0 : 1;
}

/* fi_info: "provider: efa", "domain: rdmap16s27-rdm" (EFA) or
 * "domain: mlx5_0" (verbs); the devices a provider runs on */
/* one fi_info record's devices, kept when its provider runs on RDMA
 * devices (efa, verbs; "verbs;ofi_rxd" is verbs under a utility one) */
struct fi_rec {
	char prov[64];
	char dev[16][64];
	int n;
};

static int fi_flush(struct imp *im, const char *origin, struct fi_rec *r,
		    int *took)
{
	char p[256];
	int i, rc = 0;

	if (starts_with(r->prov, "efa") || starts_with(r->prov, "verbs"))
		for (i = 0; i < r->n && !rc; i++) {
			snprintf(p, sizeof(p), SYS_IB "/%s", r->dev[i]);
			rc = imp_dir(im, p, origin);
			++*took;
		}
	memset(r, 0, sizeof(*r));
	return rc;
}

/* fi_info: "provider: efa", "domain: rdmap16s27-rdm" (EFA) or "domain:
 * mlx5_0" (verbs), one record a provider line; fi_info -v: "fi_info:"
 * records, the domain's name under fi_domain_attr ("name: mlx5_0-dgram")
 * and the provider's after it ("prov_name: verbs;ofi_rxd").  The device is
 * the domain's name up to its endpoint type. */
int rdma_fi_info(struct imp *im, const char *text, size_t len,
		 const char *origin, const char *arg)
{
	struct ih_lines it;
	struct ih_line *l = xmalloc(sizeof(*l));
	struct fi_rec r;
	int took = 0, rc = 0, in_domain = 0;

	(void)arg;
	memset(&r, 0, sizeof(r));
	ih_lines_init(&it, text, len);
	while (ih_next(&it, l) && rc >= 0) {
		const char *s = ih_skip(l->s), *d = NULL;
		size_t k;

		if (!strcmp(s, "fi_info:") || starts_with(s, "provider:")) {
			if (r.prov[0] || r.n)
				rc = fi_flush(im, origin, &r, &took);
			if (starts_with(s, "provider:"))
				snprintf(r.prov, sizeof(r.prov), "%s", ih_skip(s + 9));
			in_domain = 0;
			continue;
		}
		if (starts_with(s, "prov_name:")) {
			snprintf(r.prov, sizeof(r.prov), "%s", ih_skip(s + 10));
			continue;
		}
		if (!strcmp(s, "fi_domain_attr:")) {
			in_domain = 1;
			continue;
		}
		if (starts_with(s, "fi_") && s[strlen(s) - 1] == ':')
			in_domain = 0;
		if (starts_with(s, "domain:") && !starts_with(ih_skip(s + 7), "0x"))
			d = ih_skip(s + 7);
		else if (in_domain && starts_with(s, "name:"))
			d = ih_skip(s + 5);
		if (!d || l->unterminated || r.n == 16)
			continue;
		/* "rdmap16s27-rdm", "rdmap16s27-dgrm", "mlx5_0-xrc" */
		k = strcspn(d, "- \t");
		if (!k || k >= sizeof(r.dev[0]))
			continue;
		memcpy(r.dev[r.n], d, k);
		r.dev[r.n][k] = 0;
		if (dev_ok(r.dev[r.n]))
			r.n++;
	}
	if (rc >= 0)
		rc = fi_flush(im, origin, &r, &took);
	free(l);
	if (rc < 0)
		return -1;
	return took ? 0 : 1;
}
