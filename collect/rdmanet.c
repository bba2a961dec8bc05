/* rdmanet: the netdevs behind the RDMA ports, their addresses and DCB
 * (see rdmanet.h) */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "json.h"
#include "log.h"
#include "rdmanet.h"
#include "util.h"

#define NL_RECV_SIZE 65536
#define NL_TIMEOUT_MS 2000	/* per receive */
#define NL_TOTAL_MS 5000	/* per request */
#define NL_DUMP_TRIES 3		/* a dump interrupted by a change is redone */

/* --- the netdevs behind the RDMA ports --- */

struct names {
	char **v;
	int n;
	int alloc;
};

int netdev_name_ok(const char *s)
{
	size_t n = strlen(s), i;

	if (!n || n >= IFNAMSIZ || !strcmp(s, ".") || !strcmp(s, ".."))
		return 0;
	for (i = 0; i < n; i++)
		if (s[i] == '/' || (unsigned char)s[i] <= ' ' ||
		    (unsigned char)s[i] == 0x7f)
			return 0;
	return 1;
}

static void names_add(struct names *l, const char *s)
{
	if (!netdev_name_ok(s))
		return;
	if (l->n == l->alloc) {
		l->alloc = l->alloc ? l->alloc * 2 : 16;
		l->v = xrealloc(l->v, (size_t)l->alloc * sizeof(*l->v));
	}
	l->v[l->n++] = xstrdup(s);
}

/* add the first line of a file naming a netdev, if any */
static void names_add_file(struct ctx *c, struct names *l, const char *path)
{
	struct buf b = BUF_INIT;

	if (!ctx_read(c, path, &b)) {
		b.len = strcspn(b.buf, "\n");
		while (b.len && (b.buf[b.len - 1] == ' ' ||
				 b.buf[b.len - 1] == '\t'))
			b.len--;
		b.buf[b.len] = 0;
		names_add(l, b.buf);
	}
	buf_release(&b);
}

static void names_add_dir(struct ctx *c, struct names *l, const char *path)
{
	char **v;
	int n, i;

	n = ctx_names(c, path, &v);
	for (i = 0; i < n; i++)
		names_add(l, v[i]);
	if (n > 0)
		ctx_names_free(v, n);
}

static void device_netdevs(struct ctx *c, struct names *l, const char *dev)
{
	char p[PATH_MAX], **ports = NULL, **slots = NULL;
	int np, ns, i, k;

	if (check_snprintf(p, sizeof(p), "/sys/class/infiniband/%s/device/net",
			   dev) < 0)
		return;
	names_add_dir(c, l, p);
	xsnprintf(p, sizeof(p), "/sys/class/infiniband/%s/parent", dev);
	names_add_file(c, l, p);
	xsnprintf(p, sizeof(p), "/sys/class/infiniband/%s/ports", dev);
	np = ctx_names(c, p, &ports);
	for (i = 0; i < np; i++) {
		if (check_snprintf(p, sizeof(p),
				   "/sys/class/infiniband/%s/ports/%s/gid_attrs/ndevs",
				   dev, ports[i]) < 0)
			continue;
		ns = ctx_names(c, p, &slots);
		for (k = 0; k < ns; k++) {
			char f[PATH_MAX];

			/* an unused slot fails with EINVAL: nothing added */
			if (check_snprintf(f, sizeof(f), "%s/%s", p,
					   slots[k]) < 0)
				continue;
			names_add_file(c, l, f);
		}
		if (ns > 0)
			ctx_names_free(slots, ns);
	}
	if (np > 0)
		ctx_names_free(ports, np);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void names_sort_unique(struct names *l)
{
	int i, k = 0;

	if (!l->n)
		return;
	qsort(l->v, (size_t)l->n, sizeof(*l->v), cmp_str);
	for (i = 1; i < l->n; i++) {
		if (!strcmp(l->v[i], l->v[k]))
			free(l->v[i]);
		else
			l->v[++k] = l->v[i];
	}
	l->n = k + 1;
}

int rdma_netdevs(struct ctx *c, char ***names)
{
	struct names l = { NULL, 0, 0 };
	char **devs = NULL, p[PATH_MAX], real[PATH_MAX];
	int nd, i, nbase;

	*names = NULL;
	nd = ctx_names(c, "/sys/class/infiniband", &devs);
	if (nd == -ENOENT)
		return 0;
	if (nd < 0)
		return nd;
	for (i = 0; i < nd; i++) {
		if (ctx_quarantined(c, devs[i]))
			continue;
		ctx_progress(c, devs[i], "netdevs behind the RDMA device");
		device_netdevs(c, &l, devs[i]);
	}
	ctx_names_free(devs, nd);
	names_sort_unique(&l);
	/* the bond masters, which carry the RoCE LAG addresses */
	nbase = l.n;
	for (i = 0; i < nbase; i++) {
		const char *slash;

		xsnprintf(p, sizeof(p), "/sys/class/net/%s/master", l.v[i]);
		if (ctx_resolve(c, p, real, sizeof(real)) < 0)
			continue;
		slash = strrchr(real, '/');
		names_add(&l, slash ? slash + 1 : real);
	}
	names_sort_unique(&l);
	*names = l.v;
	return l.n;
}

/* --- rtnetlink --- */

struct nl {
	int fd;
	uint32_t seq;
	uint32_t pid;
	char *rx;
};

static int nl_open(struct nl *nl)
{
	struct timeval tv = {
		.tv_sec = NL_TIMEOUT_MS / 1000,
		.tv_usec = (NL_TIMEOUT_MS % 1000) * 1000,
	};
	struct sockaddr_nl sa;
	socklen_t len = sizeof(sa);
	int rc;

	memset(nl, 0, sizeof(*nl));
	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (nl->fd < 0)
		return -errno;
	if (setsockopt(nl->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(nl->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0)
		goto fail;
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	if (bind(nl->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    getsockname(nl->fd, (struct sockaddr *)&sa, &len) < 0)
		goto fail;
	nl->pid = sa.nl_pid;
	nl->seq = (uint32_t)mono_us();
	nl->rx = xmalloc(NL_RECV_SIZE);
	return 0;
fail:
	rc = -errno;
	close(nl->fd);
	nl->fd = -1;
	return rc;
}

static void nl_close(struct nl *nl)
{
	if (nl->fd >= 0)
		close(nl->fd);
	nl->fd = -1;
	free(nl->rx);
	nl->rx = NULL;
}

static int nl_send(struct nl *nl, struct nlmsghdr *nh)
{
	struct sockaddr_nl sa;
	ssize_t n;

	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	nh->nlmsg_seq = ++nl->seq;
	nh->nlmsg_pid = 0;
	do {
		n = sendto(nl->fd, nh, nh->nlmsg_len, 0, (struct sockaddr *)&sa,
			   sizeof(sa));
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (size_t)n == nh->nlmsg_len ? 0 : -EIO;
}

/* receive one datagram; its length, or -errno (EAGAIN: timed out) */
static int nl_recv(struct nl *nl, int64_t until_ms)
{
	struct sockaddr_nl sa;
	socklen_t len;
	ssize_t n;

	for (;;) {
		if (mono_ms() > until_ms)
			return -ETIMEDOUT;
		len = sizeof(sa);
		n = recvfrom(nl->fd, nl->rx, NL_RECV_SIZE, MSG_TRUNC,
			     (struct sockaddr *)&sa, &len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ?
				-ETIMEDOUT : -errno;
		if (n > NL_RECV_SIZE)
			return -EMSGSIZE;
		if (sa.nl_pid != 0)	/* not from the kernel */
			continue;
		return (int)n;
	}
}

/* call fn for each message answering the last request, until DONE (dump)
 * or the first answer (dump == 0); 0, 1 (dump interrupted: redo), or
 * -errno, including the kernel's NLMSG_ERROR */
static int nl_answers(struct nl *nl, int dump,
		      int (*fn)(const struct nlmsghdr *nh, void *arg),
		      void *arg)
{
	int64_t until = mono_ms() + NL_TOTAL_MS;
	int intr = 0, n, rc;

	for (;;) {
		struct nlmsghdr *nh;

		n = nl_recv(nl, until);
		if (n < 0)
			return n;
		for (nh = (struct nlmsghdr *)nl->rx; NLMSG_OK(nh, n);
		     nh = NLMSG_NEXT(nh, n)) {
			if (nh->nlmsg_seq != nl->seq ||
			    (nh->nlmsg_pid && nh->nlmsg_pid != nl->pid))
				continue;	/* a stale answer */
			if (nh->nlmsg_flags & NLM_F_DUMP_INTR)
				intr = 1;
			if (nh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(nh);

				if (nh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
					return -EPROTO;
				if (!e->error && dump)
					continue;
				return e->error ? e->error : 0;
			}
			if (nh->nlmsg_type == NLMSG_DONE)
				return intr;
			if (nh->nlmsg_type < NLMSG_MIN_TYPE)
				continue;
			rc = fn(nh, arg);
			if (rc < 0)
				return rc;
			if (!dump)
				return 0;
		}
	}
}

/* --- addresses --- */

struct addrs {
	struct json j;
	int count;
};

static const char *scope_name(unsigned scope, char *tmp, size_t n)
{
	switch (scope) {
	case RT_SCOPE_UNIVERSE: return "global";
	case RT_SCOPE_SITE: return "site";
	case RT_SCOPE_LINK: return "link";
	case RT_SCOPE_HOST: return "host";
	case RT_SCOPE_NOWHERE: return "nowhere";
	default:
		xsnprintf(tmp, n, "%u", scope);
		return tmp;
	}
}

static int addr_one(const struct nlmsghdr *nh, void *arg)
{
	struct addrs *a = arg;
	const struct ifaddrmsg *ifa = NLMSG_DATA(nh);
	const struct rtattr *rta, *local = NULL, *address = NULL;
	const struct rtattr *label = NULL;
	char text[INET6_ADDRSTRLEN], peer[INET6_ADDRSTRLEN];
	char ifname[IF_NAMESIZE], tmp[16];
	size_t alen;
	uint32_t flags;
	int len;

	if (nh->nlmsg_type != RTM_NEWADDR ||
	    nh->nlmsg_len < NLMSG_LENGTH(sizeof(*ifa)))
		return 0;
	if (ifa->ifa_family != AF_INET && ifa->ifa_family != AF_INET6)
		return 0;
	alen = ifa->ifa_family == AF_INET ? 4 : 16;
	flags = ifa->ifa_flags;
	len = (int)IFA_PAYLOAD(nh);
	for (rta = IFA_RTA(ifa); RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		switch (rta->rta_type) {
		case IFA_LOCAL:
			local = rta;
			break;
		case IFA_ADDRESS:
			address = rta;
			break;
		case IFA_LABEL:
			label = rta;
			break;
		case IFA_FLAGS:
			if (RTA_PAYLOAD(rta) >= sizeof(uint32_t))
				memcpy(&flags, RTA_DATA(rta), sizeof(flags));
			break;
		}
	}
	/* IFA_LOCAL is the address; IFA_ADDRESS the peer on point to point
	 * links (and the address itself where there is no IFA_LOCAL) */
	if (!local)
		local = address;
	if (!local || RTA_PAYLOAD(local) < alen ||
	    !inet_ntop(ifa->ifa_family, RTA_DATA(local), text, sizeof(text)))
		return 0;
	peer[0] = 0;
	if (address && address != local && RTA_PAYLOAD(address) >= alen &&
	    memcmp(RTA_DATA(address), RTA_DATA(local), alen))
		inet_ntop(ifa->ifa_family, RTA_DATA(address), peer,
			  sizeof(peer));
	json_obj_open(&a->j, NULL);
	json_str(&a->j, "ifname", if_indextoname(ifa->ifa_index, ifname));
	json_uint(&a->j, "ifindex", ifa->ifa_index);
	json_str(&a->j, "family", ifa->ifa_family == AF_INET ? "inet" :
		 "inet6");
	json_str(&a->j, "address", text);
	json_uint(&a->j, "prefixlen", ifa->ifa_prefixlen);
	json_str(&a->j, "scope", scope_name(ifa->ifa_scope, tmp, sizeof(tmp)));
	if (peer[0])
		json_str(&a->j, "peer", peer);
	if (label)
		json_strn(&a->j, "label", RTA_DATA(label),
			  strnlen(RTA_DATA(label), RTA_PAYLOAD(label)));
	json_uint(&a->j, "flags", flags);
	json_obj_close(&a->j);
	a->count++;
	return 0;
}

int net_addresses_json(struct buf *out)
{
	struct {
		struct nlmsghdr nh;
		struct ifaddrmsg ifa;
	} req;
	struct buf b = BUF_INIT;
	struct addrs a;
	struct nl nl;
	int rc, try;

	rc = nl_open(&nl);
	if (rc < 0)
		return rc;
	for (try = 0; try < NL_DUMP_TRIES; try++) {
		memset(&req, 0, sizeof(req));
		req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifa));
		req.nh.nlmsg_type = RTM_GETADDR;
		req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		req.ifa.ifa_family = AF_UNSPEC;
		buf_reset(&b);
		json_init(&a.j, &b, 1);
		a.count = 0;
		json_arr_open(&a.j, NULL);
		rc = nl_send(&nl, &req.nh);
		if (rc < 0)
			break;
		rc = nl_answers(&nl, 1, addr_one, &a);
		if (rc != 1)
			break;
	}
	if (rc == 1)		/* kept changing: what we have is still true */
		rc = 0;
	if (!rc) {
		json_arr_close(&a.j);
		json_end(&a.j);
		buf_add(out, b.buf, b.len);
	}
	buf_release(&b);
	nl_close(&nl);
	return rc;
}

/* --- DCB --- */

#define NLA_TYPE(rta) ((rta)->rta_type & NLA_TYPE_MASK)

struct dcb_reply {
	char *msg;	/* a copy of the answer, or NULL */
	size_t len;
};

static int dcb_keep(const struct nlmsghdr *nh, void *arg)
{
	struct dcb_reply *r = arg;

	if (nh->nlmsg_type != RTM_GETDCB ||
	    nh->nlmsg_len < NLMSG_LENGTH(sizeof(struct dcbmsg)))
		return -EPROTO;
	r->msg = xmalloc(nh->nlmsg_len);
	memcpy(r->msg, nh, nh->nlmsg_len);
	r->len = nh->nlmsg_len;
	return 0;
}

static int dcb_get(struct nl *nl, int cmd, const char *ifname,
		   struct dcb_reply *r)
{
	struct {
		struct nlmsghdr nh;
		struct dcbmsg d;
		char attrs[RTA_SPACE(IFNAMSIZ)];
	} req;
	struct rtattr *rta;
	size_t n = strlen(ifname) + 1;
	int rc;

	memset(r, 0, sizeof(*r));
	if (n > IFNAMSIZ)
		return -ENODEV;
	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_type = RTM_GETDCB;
	req.nh.nlmsg_flags = NLM_F_REQUEST;
	req.d.dcb_family = AF_UNSPEC;
	req.d.cmd = (uint8_t)cmd;
	rta = (struct rtattr *)req.attrs;
	rta->rta_type = DCB_ATTR_IFNAME;
	rta->rta_len = (unsigned short)RTA_LENGTH(n);
	memcpy(RTA_DATA(rta), ifname, n);
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.d)) + RTA_SPACE(n);
	rc = nl_send(nl, &req.nh);
	if (!rc)
		rc = nl_answers(nl, 0, dcb_keep, r);
	if (!rc && !r->msg)
		rc = -ENODATA;
	return rc;
}

/* the attribute of type t among attrs (len bytes), or NULL */
static const struct rtattr *attr_find(const struct rtattr *rta, int len,
				      int t)
{
	for (; RTA_OK(rta, len); rta = RTA_NEXT(rta, len))
		if (NLA_TYPE(rta) == t)
			return rta;
	return NULL;
}

/* the payload of rta into a zeroed struct of size n; 1 if present */
static int attr_copy(const struct rtattr *rta, void *dst, size_t n)
{
	size_t have;

	memset(dst, 0, n);
	if (!rta)
		return 0;
	have = RTA_PAYLOAD(rta);
	memcpy(dst, RTA_DATA(rta), have < n ? have : n);
	return 1;
}

/* a short array of numbers on one line */
static void num_array(struct json *j, const char *key, const void *v,
		      size_t size, size_t n)
{
	struct buf tmp = BUF_INIT;
	uint64_t x;
	size_t i;

	buf_addch(&tmp, '[');
	for (i = 0; i < n; i++) {
		const unsigned char *p = (const unsigned char *)v + i * size;

		if (size == 1) {
			x = *p;
		} else if (size == 4) {
			uint32_t w;

			memcpy(&w, p, 4);
			x = w;
		} else {
			memcpy(&x, p, 8);
		}
		buf_addf(&tmp, "%s%" PRIu64, i ? ", " : "", x);
	}
	buf_addch(&tmp, ']');
	json_raw(j, key, tmp.buf);
	buf_release(&tmp);
}

#define u8_array(j, key, v, n) num_array(j, key, v, 1, n)
#define u32_array(j, key, v, n) num_array(j, key, v, 4, n)
#define u64_array(j, key, v, n) num_array(j, key, v, 8, n)

/* the attributes after the dcbmsg of a reply */
static const struct rtattr *dcb_attrs(const struct dcb_reply *r, int *len)
{
	const struct nlmsghdr *nh = (const struct nlmsghdr *)r->msg;

	*len = (int)(nh->nlmsg_len - NLMSG_LENGTH(sizeof(struct dcbmsg)));
	return (const struct rtattr *)((const char *)NLMSG_DATA(nh) +
				       NLMSG_ALIGN(sizeof(struct dcbmsg)));
}

static int dcb_dcbx(const struct dcb_reply *r, unsigned *dcbx)
{
	const struct rtattr *top, *a;
	int len;

	if (!r->msg)
		return 0;
	top = dcb_attrs(r, &len);
	a = attr_find(top, len, DCB_ATTR_DCBX);
	if (!a || RTA_PAYLOAD(a) < 1)
		return 0;
	*dcbx = *(const uint8_t *)RTA_DATA(a);
	return 1;
}

static void dcb_ieee_json(struct json *j, const struct dcb_reply *r)
{
	const struct rtattr *top, *ieee, *a, *app;
	struct ieee_pfc pfc;
	struct ieee_ets ets;
	struct ieee_maxrate mr;
	struct dcbnl_buffer dbuf;
	struct dcb_app da;
	int len, ilen, alen;

	top = dcb_attrs(r, &len);
	ieee = attr_find(top, len, DCB_ATTR_IEEE);
	if (!ieee)
		return;
	ilen = (int)RTA_PAYLOAD(ieee);
	ieee = (const struct rtattr *)RTA_DATA(ieee);
	if (attr_copy(attr_find(ieee, ilen, DCB_ATTR_IEEE_PFC), &pfc,
		      sizeof(pfc))) {
		json_obj_open(j, "pfc");
		json_uint(j, "pfc_cap", pfc.pfc_cap);
		json_uint(j, "pfc_en", pfc.pfc_en);
		json_uint(j, "mbc", pfc.mbc);
		json_uint(j, "delay", pfc.delay);
		u64_array(j, "requests", pfc.requests, IEEE_8021QAZ_MAX_TCS);
		u64_array(j, "indications", pfc.indications,
			  IEEE_8021QAZ_MAX_TCS);
		json_obj_close(j);
	}
	if (attr_copy(attr_find(ieee, ilen, DCB_ATTR_IEEE_ETS), &ets,
		      sizeof(ets))) {
		json_obj_open(j, "ets");
		json_uint(j, "willing", ets.willing);
		json_uint(j, "ets_cap", ets.ets_cap);
		json_uint(j, "cbs", ets.cbs);
		u8_array(j, "tc_tx_bw", ets.tc_tx_bw, IEEE_8021QAZ_MAX_TCS);
		u8_array(j, "tc_rx_bw", ets.tc_rx_bw, IEEE_8021QAZ_MAX_TCS);
		u8_array(j, "tc_tsa", ets.tc_tsa, IEEE_8021QAZ_MAX_TCS);
		u8_array(j, "prio_tc", ets.prio_tc, IEEE_8021QAZ_MAX_TCS);
		u8_array(j, "tc_reco_bw", ets.tc_reco_bw, IEEE_8021QAZ_MAX_TCS);
		u8_array(j, "tc_reco_tsa", ets.tc_reco_tsa,
			 IEEE_8021QAZ_MAX_TCS);
		u8_array(j, "reco_prio_tc", ets.reco_prio_tc,
			 IEEE_8021QAZ_MAX_TCS);
		json_obj_close(j);
	}
	a = attr_find(ieee, ilen, DCB_ATTR_IEEE_APP_TABLE);
	json_arr_open(j, "apps");
	if (a) {
		alen = (int)RTA_PAYLOAD(a);
		for (app = RTA_DATA(a); RTA_OK(app, alen);
		     app = RTA_NEXT(app, alen)) {
			if (NLA_TYPE(app) != DCB_ATTR_IEEE_APP)
				continue;
			attr_copy(app, &da, sizeof(da));
			json_obj_open(j, NULL);
			json_uint(j, "selector", da.selector);
			json_uint(j, "priority", da.priority);
			json_uint(j, "protocol", da.protocol);
			json_obj_close(j);
		}
	}
	json_arr_close(j);
	if (attr_copy(attr_find(ieee, ilen, DCB_ATTR_DCB_BUFFER), &dbuf,
		      sizeof(dbuf))) {
		json_obj_open(j, "buffer");
		u8_array(j, "prio2buffer", dbuf.prio2buffer,
			 IEEE_8021Q_MAX_PRIORITIES);
		u32_array(j, "buffer_size", dbuf.buffer_size,
			  DCBX_MAX_BUFFERS);
		json_uint(j, "total_size", dbuf.total_size);
		json_obj_close(j);
	}
	if (attr_copy(attr_find(ieee, ilen, DCB_ATTR_IEEE_MAXRATE), &mr,
		      sizeof(mr))) {
		json_obj_open(j, "maxrate");
		u64_array(j, "tc_maxrate", mr.tc_maxrate, IEEE_8021QAZ_MAX_TCS);
		json_obj_close(j);
	}
}

static int dcb_absent(int rc)
{
	return rc == -EOPNOTSUPP || rc == -ENODEV || rc == -EINVAL;
}

int dcb_json(const char *ifname, struct buf *out)
{
	struct dcb_reply ieee = { NULL, 0 }, gdcbx = { NULL, 0 };
	const char *e;
	unsigned dcbx = 0;
	struct json j;
	struct nl nl;
	int rc, xrc = 0, have_dcbx;
	char tmp[16];

	rc = nl_open(&nl);
	if (!rc) {
		rc = dcb_get(&nl, DCB_CMD_IEEE_GET, ifname, &ieee);
		if (rc != -ENODEV)
			xrc = dcb_get(&nl, DCB_CMD_GDCBX, ifname, &gdcbx);
		nl_close(&nl);
	}
	have_dcbx = dcb_dcbx(&gdcbx, &dcbx) || dcb_dcbx(&ieee, &dcbx);
	json_init(&j, out, 1);
	json_obj_open(&j, NULL);
	json_str(&j, "ifname", ifname);
	json_str(&j, "status", !rc ? "ok" : dcb_absent(rc) ? "absent" :
		 "error");
	if (have_dcbx)
		json_uint(&j, "dcbx", dcbx);
	if (!rc)
		dcb_ieee_json(&j, &ieee);
	json_obj_open(&j, "errors");
	if (rc) {
		e = strerrorname_np(-rc);
		if (!e) {
			xsnprintf(tmp, sizeof(tmp), "E%d", -rc);
			e = tmp;
		}
		json_str(&j, "ieee", e);
	}
	if (xrc) {
		e = strerrorname_np(-xrc);
		if (!e) {
			xsnprintf(tmp, sizeof(tmp), "E%d", -xrc);
			e = tmp;
		}
		json_str(&j, "dcbx", e);
	}
	json_obj_close(&j);
	json_obj_close(&j);
	json_end(&j);
	free(ieee.msg);
	free(gdcbx.msg);
	return rc;
}
