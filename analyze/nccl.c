/* nccl: NCCL log lines and NCCL_IB_HCA (see nccl.h) */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nccl.h"

static const char *const wc_names[] = {
	"IBV_WC_SUCCESS", "IBV_WC_LOC_LEN_ERR", "IBV_WC_LOC_QP_OP_ERR",
	"IBV_WC_LOC_EEC_OP_ERR", "IBV_WC_LOC_PROT_ERR", "IBV_WC_WR_FLUSH_ERR",
	"IBV_WC_MW_BIND_ERR", "IBV_WC_BAD_RESP_ERR", "IBV_WC_LOC_ACCESS_ERR",
	"IBV_WC_REM_INV_REQ_ERR", "IBV_WC_REM_ACCESS_ERR", "IBV_WC_REM_OP_ERR",
	"IBV_WC_RETRY_EXC_ERR", "IBV_WC_RNR_RETRY_EXC_ERR",
	"IBV_WC_LOC_RDD_VIOL_ERR", "IBV_WC_REM_INV_RD_REQ_ERR",
	"IBV_WC_REM_ABORT_ERR", "IBV_WC_INV_EECN_ERR", "IBV_WC_INV_EEC_STATE_ERR",
	"IBV_WC_FATAL_ERR", "IBV_WC_RESP_TIMEOUT_ERR", "IBV_WC_GENERAL_ERR",
	"IBV_WC_TM_ERR", "IBV_WC_TM_RNDV_INCOMPLETE",
};

static const char *const wc_texts[] = {
	"success", "local length error", "local QP operation error",
	"local EE context operation error", "local protection error",
	"Work Request Flushed Error", "memory management operation error",
	"bad response error", "local access error",
	"remote invalid request error", "remote access error",
	"remote operation error", "transport retry counter exceeded",
	"RNR retry counter exceeded", "local RDD violation error",
	"remote invalid RD request", "aborted error",
	"invalid EE context number", "invalid EE context state", "fatal error",
	"response timeout error", "general error", "TM error",
	"TM software rendezvous",
};

#define NWC ((int)(sizeof(wc_names) / sizeof(wc_names[0])))

const char *ibv_wc_status_name(int status)
{
	return status >= 0 && status < NWC ? wc_names[status] : NULL;
}

const char *ibv_wc_status_text(int status)
{
	return status >= 0 && status < NWC ? wc_texts[status] : "unknown";
}

/* bounded search in [s, e) */
static const char *find(const char *s, const char *e, const char *needle)
{
	size_t n = strlen(needle);

	for (; s && (size_t)(e - s) >= n; s++)
		if (*s == *needle && !memcmp(s, needle, n))
			return s;
	return NULL;
}

static int starts(const char *s, const char *e, const char *pfx)
{
	size_t n = strlen(pfx);

	return (size_t)(e - s) >= n && !memcmp(s, pfx, n);
}

/* copy the token at s (up to a space, or stop characters) */
static const char *token(const char *s, const char *e, const char *stop,
			 char *out, size_t n)
{
	size_t k = 0;

	while (s < e && !isspace((unsigned char)*s) && !strchr(stop, *s)) {
		if (k + 1 < n)
			out[k++] = *s;
		s++;
	}
	out[k] = 0;
	return s;
}

static int64_t num(const char *s, const char *e, const char **end)
{
	int64_t v = 0;
	int neg = 0, any = 0;

	if (s < e && *s == '-') {
		neg = 1;
		s++;
	}
	while (s < e && isdigit((unsigned char)*s) && v < INT64_MAX / 10 - 10) {
		v = v * 10 + (*s - '0');
		s++;
		any = 1;
	}
	if (end)
		*end = s;
	if (!any)
		return INT64_MIN;
	return neg ? -v : v;
}

static const char *skipsp(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

/* "NET/IB : ", "NET/IB: ", "NET/IBext : " ...: the net name, and where the
 * text after the colon starts; NULL if the message is not NET/<x> */
static const char *net_prefix(const char *s, const char *e, char *name,
			      size_t n)
{
	const char *p;

	if (!starts(s, e, "NET/"))
		return NULL;
	p = token(s + 4, e, ":", name, n);
	p = skipsp(p, e);
	if (p >= e || *p != ':')
		return NULL;
	return skipsp(p + 1, e);
}

/* " [0]mlx5_0:1/IB [1]mlx5_1:1:0/RoCE [RO]; OOB ..." */
static void ib_devices(const char *s, const char *e, struct nccl_ev *ev)
{
	while (s < e && ev->ndevs < NCCL_MAX_DEVS) {
		struct nccl_dev *d = &ev->devs[ev->ndevs];
		const char *p;
		int64_t port;

		s = skipsp(s, e);
		if (s >= e || *s != '[')
			return;
		p = s + 1;
		if (num(p, e, &p) == INT64_MIN || p >= e || *p != ']')
			return;	/* "[RO]" or garbage: the list ends */
		p = token(p + 1, e, ":/;", d->name, sizeof(d->name));
		if (p >= e || *p != ':' || !d->name[0])
			return;
		port = num(p + 1, e, &p);
		if (port < 0 || port > 255)
			return;
		d->port = (int)port;
		while (p < e && *p != '/' && *p != ' ' && *p != ';')
			p++;	/* ":rail" / "::plane" */
		d->ll[0] = 0;
		if (p < e && *p == '/')
			p = token(p + 1, e, ";", d->ll, sizeof(d->ll));
		ev->ndevs++;
		s = p;
	}
}

/* "GPU Direct RDMA Enabled for HCA 0 'mlx5_0'", "... Disabled for HCA 0
 * 'mlx5_0' (no module)", "... Disabled for GPU 1b000 / HCA 0 (distance 5 >=
 * 4)", "GPU Direct RDMA (DMABUF) enabled for HCA 0 'mlx5_0" */
static void gdr(const char *s, const char *e, struct nccl_ev *ev)
{
	const char *p = skipsp(s + strlen("GPU Direct RDMA"), e), *q;
	char via[32] = "";

	if (p < e && *p == '(') {
		p = token(p + 1, e, ")", via, sizeof(via));
		if (p < e && *p == ')')
			p++;
		p = skipsp(p, e);
	}
	if (starts(p, e, "Enabled") || starts(p, e, "enabled"))
		ev->gdr_enabled = 1;
	else if (starts(p, e, "Disabled") || starts(p, e, "disabled"))
		ev->gdr_enabled = 0;
	else
		return;
	ev->gdr_dmabuf = !strcmp(via, "DMABUF") || !strcmp(via, "DMA-BUF");
	ev->kind = NCCL_GDR;
	q = find(p, e, "HCA ");
	if (q) {
		int64_t idx = num(q + 4, e, &q);

		ev->hca_index = idx >= 0 && idx < 1024 ? (int)idx : -1;
		q = skipsp(q, e);
		if (q < e && *q == '\'')
			token(q + 1, e, "'", ev->hca, sizeof(ev->hca));
	}
}

/* the number after key, as "N" or "NAME(N)" */
static int64_t field(const char *s, const char *e, const char *key)
{
	const char *p = find(s, e, key), *q;
	int64_t v;

	if (!p)
		return INT64_MIN;
	p += strlen(key);
	v = num(p, e, &q);
	if (v != INT64_MIN)
		return v;
	while (q < e && (isalnum((unsigned char)*q) || *q == '_'))
		q++;
	if (q < e && *q == '(')
		return num(q + 1, e, NULL);
	return INT64_MIN;
}

static void completion(const char *s, const char *e, struct nccl_ev *ev)
{
	const char *p;
	int64_t v;

	ev->kind = NCCL_COMPLETION;
	p = find(s, e, "from peer ");
	if (p)
		token(p + 10, e, "", ev->peer, sizeof(ev->peer));
	v = field(s, e, "with error ");
	if (v == INT64_MIN)
		v = field(s, e, "status=");
	ev->status = v >= 0 && v < 1000 ? (int)v : -1;
	v = field(s, e, "opcode ");
	if (v == INT64_MIN)
		v = field(s, e, "opcode=");
	ev->opcode = v >= 0 && v <= INT32_MAX ? (int)v : -1;
	v = field(s, e, "len ");
	if (v == INT64_MIN)
		v = field(s, e, "len=");
	if (v == INT64_MIN)
		v = field(s, e, "reqSize=");
	ev->len = v >= 0 ? v : -1;
	v = field(s, e, "vendor err ");
	if (v == INT64_MIN)
		v = field(s, e, "vendor_err=");
	ev->vendor_err = v >= 0 ? v : -1;
	p = find(s, e, "req_type=");
	if (p)
		token(p + 9, e, "", ev->req, sizeof(ev->req));
	else if ((p = find(s, e, " (")) && p + 2 < e)
		token(p + 2, e, ")", ev->req, sizeof(ev->req));
	if (strcmp(ev->req, "Send") && strcmp(ev->req, "Recv") &&
	    strcmp(ev->req, "Flush") && strcmp(ev->req, "Unused"))
		ev->req[0] = 0;
	p = find(s, e, "localGid ");
	if (p)
		token(skipsp(p + 9, e), e, "", ev->local_gid,
		      sizeof(ev->local_gid));
	p = find(s, e, "remoteGid");
	if (p) {
		p += 9;
		if (p < e && *p == 's')	/* " remoteGids" + the GID, no space */
			p++;
		token(skipsp(p, e), e, "", ev->remote_gid,
		      sizeof(ev->remote_gid));
	}
	/* " hca mlx5_0" at the end (2.22+) */
	for (p = NULL, s = find(s, e, " hca "); s; s = find(s + 1, e, " hca "))
		p = s;
	if (p)
		token(p + 5, e, "", ev->hca, sizeof(ev->hca));
}

/* NCCL's "host:pid:tid [dev] " before the message at m: the leftmost
 * "X:digits:digits [" in [s, m), whatever a launcher or a paste put
 * before it (mpirun's "2019-06-02T16:13:44.884Z: [1,12]<stdout>:", a
 * rank's "[155] ", a timestamp).  Copies the host and the dev (-1 when
 * it is no small number); 0 when none. */
static int log_prefix(const char *s, const char *m, char *host, size_t n,
		      int *dev)
{
	const char *p, *q, *h;
	int d;

	for (p = s; p + 1 < m; p++) {
		if (p[0] != ' ' || p[1] != '[')
			continue;
		q = p;
		while (q > s && isdigit((unsigned char)q[-1]))
			q--;
		if (q == p || q == s || q[-1] != ':')
			continue;
		q--;
		h = q;
		while (h > s && isdigit((unsigned char)h[-1]))
			h--;
		if (h == q || h == s || h[-1] != ':')
			continue;
		q = h - 1;	/* the ':' after the host */
		h = q;
		while (h > s && !isspace((unsigned char)h[-1]) &&
		       !strchr(":>]", h[-1]))
			h--;
		if (h == q)
			continue;
		snprintf(host, n, "%.*s", (int)(q - h), h);
		for (d = 0, q = p + 2; q < m && isdigit((unsigned char)*q) &&
		     d < 1000; q++)
			d = d * 10 + (*q - '0');
		*dev = q > p + 2 && q < m && *q == ']' && d < 1000 ? d : -1;
		return 1;
	}
	return 0;
}

/* "Got async event : local catastrophic error" (2.4-2.11), "mlx5_0:1 Got
 * async event : port error" (2.12+), "mlx5_0:1 async fatal event: ...",
 * "mlx5_0:1 async fatal event on QP (0x..) qpn=..: ...", "mlx5_0:1 Got
 * non-fatal async event: port error(10)"; p after "NET/IB : " */
static int async_event(const char *p, const char *e, struct nccl_ev *ev)
{
	const char *a = find(p, e, "async event"), *f = find(p, e, "async fatal"),
		   *q, *c;
	char dev[64];

	if (!a && !f)
		return 0;
	q = a ? a : f;
	if (q - p > 80)
		return 0;
	/* the device:port before it */
	c = token(p, q, "", dev, sizeof(dev));
	if (c < q && dev[0] && strchr(dev, ':') && strcmp(dev, "Got")) {
		char *col = strrchr(dev, ':');

		*col = 0;
		snprintf(ev->hca, sizeof(ev->hca), "%s", dev);
		ev->port = atoi(col + 1);
	}
	/* the event follows the last ": " */
	for (c = NULL, q = find(q, e, ": "); q; q = find(q + 1, e, ": "))
		c = q;
	if (!c)
		return 0;
	c = skipsp(c + 1, e);
	q = e;
	if (q > c && q[-1] == ')') {	/* "port error(10)" */
		const char *o = q - 1;

		while (o > c && isdigit((unsigned char)o[-1]))
			o--;
		if (o > c && o[-1] == '(')
			q = o - 1;
	}
	if (q <= c)
		return 0;
	snprintf(ev->detail, sizeof(ev->detail), "%.*s", (int)(q - c), c);
	/* IBV_EVENT_DEVICE_FATAL: the HCA is gone until it is reset (a QP's
	 * "local work queue catastrophic error" is that QP's alone) */
	ev->fatal = !strcmp(ev->detail, "local catastrophic error");
	return ev->kind = NCCL_ASYNC;
}

/* "Call to ibv_create_qp failed", "Call to ibv_reg_mr failed with error
 * Bad address", "Call to ibv_modify_qp failed with 110 Connection timed
 * out, ...", "NET/IB: mlx5dv_create_qp failed to create QP" */
static int verbs_fail(const char *m, const char *e, struct nccl_ev *ev)
{
	const char *p = starts(m, e, "Call to ") ? m + 8 : NULL, *q;

	if (!p) {
		char net[32];

		p = net_prefix(m, e, net, sizeof(net));
		if (!p && starts(m, e, "NET/IB: "))
			p = m + 8;
		if (!p || (!starts(p, e, "ibv_") && !starts(p, e, "mlx5dv_")))
			return 0;
	}
	if (!starts(p, e, "ibv_") && !starts(p, e, "mlx5dv_"))
		return 0;
	q = token(p, e, "(", ev->detail, sizeof(ev->detail));
	q = skipsp(q, e);
	if (!starts(q, e, "failed"))
		return 0;
	return ev->kind = NCCL_VERBS_FAIL;
}

/* "comm 0x.. rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 1c000 ... - Init
 * START|COMPLETE" (2.4 on; 2.3 prints no busId); not MNNVL's "peer rank" */
static int gpu_line(const char *m, const char *e, struct nccl_ev *ev)
{
	const char *p = find(m, e, "cudaDev "), *b;
	int64_t dev;

	if (!p || !find(m, e, " nranks ") || find(m, e, "peer rank"))
		return 0;
	dev = num(p + 8, e, NULL);
	if (dev < 0 || dev > 4096)
		return 0;
	ev->port = (int)dev;
	b = find(p, e, "busId ");
	if (b)
		token(b + 6, e, "", ev->detail, sizeof(ev->detail));
	if (!ev->detail[0])
		snprintf(ev->detail, sizeof(ev->detail), "cudaDev %d", ev->port);
	return ev->kind = NCCL_GPU;
}

enum nccl_kind nccl_parse_line(const char *line, size_t len,
			       struct nccl_ev *ev)
{
	const char *s = line, *e = line + len, *m, *p;
	char net[32];

	memset(ev, 0, sizeof(*ev));
	ev->hca_index = -1;
	ev->status = -1;
	ev->opcode = -1;
	ev->len = -1;
	ev->vendor_err = -1;
	ev->port = -1;
	ev->dev = -1;
	while (e > s && (e[-1] == '\r' || e[-1] == '\n' || e[-1] == ' '))
		e--;
	s = skipsp(s, e);
	if ((m = find(s, e, "NCCL WARN "))) {
		ev->warn = 1;
		m += 10;
	} else if ((m = find(s, e, "NCCL INFO "))) {
		m += 10;
	} else if (find(s, e, "NCCL TRACE ") || find(s, e, "NCCL CALL ")) {
		return NCCL_NONE;
	} else {
		m = s;	/* a bare message (pasted without the prefix) */
	}
	if (m != s && !log_prefix(s, m, ev->host, sizeof(ev->host), &ev->dev)) {
		/* "[2026-11-29 21:04:05] host ..." without pid and tid */
		p = s;
		if (p < e && *p == '[' && (p = memchr(p, ']', (size_t)(e - p))))
			p = skipsp(p + 1, e);
		else
			p = s;
		if (p && p < m)
			token(p, m, ":", ev->host, sizeof(ev->host));
	}
	m = skipsp(m, e);
	if (starts(m, e, "Using network ")) {
		token(m + 14, e, "", ev->net, sizeof(ev->net));
		return ev->kind = ev->net[0] ? NCCL_NET_USING : NCCL_NONE;
	}
	if (starts(m, e, "DMA-BUF is available on GPU device"))
		return ev->kind = NCCL_DMABUF;
	if (m != s && (verbs_fail(m, e, ev) || gpu_line(m, e, ev)))
		return ev->kind;
	if ((p = net_prefix(m, e, net, sizeof(net)))) {
		snprintf(ev->net, sizeof(ev->net), "%s", net);
		if (!strcmp(net, "Socket")) {
			if (starts(p, e, "Using "))
				return ev->kind = NCCL_SOCKET_USING;
			return NCCL_NONE;
		}
		if (strncmp(net, "IB", 2))
			return NCCL_NONE;
		if (starts(p, e, "No device found"))
			return ev->kind = NCCL_IB_NODEV;
		if (starts(p, e, "Using ") && find(p, e, "[")) {
			ib_devices(p + 6, e, ev);
			return ev->kind = ev->ndevs ? NCCL_IB_USING : NCCL_NONE;
		}
		if (starts(p, e, "GPU Direct RDMA")) {
			gdr(p, e, ev);
			return ev->kind;
		}
		if (starts(p, e, "Got completion")) {
			completion(p, e, ev);
			return ev->kind;
		}
		if (async_event(p, e, ev))
			return ev->kind;
		return NCCL_NONE;
	}
	/* NET/IB/GIN: (no space, no colon after IB) */
	if (starts(m, e, "NET/IB") && (p = find(m, e, ": Got completion"))) {
		snprintf(ev->net, sizeof(ev->net), "IB");
		completion(p + 2, e, ev);
		return ev->kind;
	}
	/* before 2.4: "IB Got async event : ..." */
	if (m != s && starts(m, e, "IB Got async event") &&
	    async_event(m + 3, e, ev))
		return ev->kind;
	/* paths.cc TRACE-era text without NET/: "GPU Direct RDMA Disabled for
	 * GPU ..." only counts with an NCCL prefix */
	if (m != s && starts(m, e, "GPU Direct RDMA")) {
		gdr(m, e, ev);
		return ev->kind;
	}
	return NCCL_NONE;
}

static size_t phys_line(const char *data, size_t len, size_t off, char *out,
			size_t n, size_t *k)
{
	size_t i = off;

	while (i < len && data[i] != '\n') {
		if (*k + 1 < n)
			out[(*k)++] = data[i] ? data[i] : ' ';
		i++;
	}
	while (*k > 0 && (out[*k - 1] == '\r' || out[*k - 1] == ' ' ||
			  out[*k - 1] == '\t'))
		(*k)--;
	out[*k] = 0;
	return i < len ? i + 1 : i;
}

/* is the message of out wrapped: its known tail missing? */
static int wrapped(const char *out, size_t k)
{
	struct nccl_ev *ev = malloc(sizeof(*ev));
	const char *e = out + k;
	int yes = 0;

	if (!ev)
		return 0;
	switch (nccl_parse_line(out, k, ev)) {
	case NCCL_COMPLETION:
		yes = !find(out, e, "vendor err") && !find(out, e, "vendor_err");
		break;
	case NCCL_IB_USING:
		yes = !find(out, e, "OOB") && !find(out, e, "[RO]");
		break;
	default:
		break;
	}
	free(ev);
	return yes;
}

/* a line that holds a message of its own, or none at all */
static int own_line(const char *data, size_t len, size_t off)
{
	const char *s = data + off, *e = memchr(s, '\n', len - off);

	if (!e)
		e = data + len;
	s = skipsp(s, e);
	return s >= e || *s == '\r' || find(s, e, "NCCL INFO ") ||
	       find(s, e, "NCCL WARN ") || find(s, e, "NCCL TRACE ") ||
	       find(s, e, "NCCL version") || starts(s, e, "NET/");
}

int nccl_next_line(const char *data, size_t len, size_t *off, char *out,
		   size_t n, int *lines)
{
	size_t k = 0, o = *off;
	int l = 0;

	if (o >= len || n < 2)
		return 0;
	o = phys_line(data, len, o, out, n, &k);
	l++;
	while (l < 4 && o < len && !own_line(data, len, o) && wrapped(out, k) &&
	       k + 2 < n) {
		out[k++] = ' ';
		o = phys_line(data, len, o, out, n, &k);
		l++;
	}
	*off = o;
	if (lines)
		*lines = l;
	return 1;
}

void nccl_hca_parse(const char *spec, struct nccl_hca *h)
{
	const char *s = spec ? spec : "";

	memset(h, 0, sizeof(*h));
	if (*s == '^') {
		h->exclude = 1;
		s++;
	}
	if (*s == '=') {
		h->exact = 1;
		s++;
	}
	while (*s && h->n < NCCL_HCA_MAX) {
		size_t n = strcspn(s, ",");
		size_t p = strcspn(s, ":,");

		if (p > 0 && p < sizeof(h->e[0].prefix)) {
			memcpy(h->e[h->n].prefix, s, p);
			h->e[h->n].prefix[p] = 0;
			h->e[h->n].port = -1;
			if (s[p] == ':' && p + 1 < n &&
			    isdigit((unsigned char)s[p + 1]))
				h->e[h->n].port = atoi(s + p + 1);
			h->n++;
		}
		s += n;
		if (*s == ',')
			s++;
	}
}

int nccl_hca_selects(const struct nccl_hca *h, const char *dev, int port,
		     int *entry)
{
	int i, match = 0;

	if (entry)
		*entry = -1;
	if (h->n == 0) {
		match = 1;
	} else {
		for (i = 0; i < h->n && !match; i++) {
			size_t l = h->exact ? strlen(dev) + 1 :
					      strlen(h->e[i].prefix);

			if (!strncmp(dev, h->e[i].prefix, l) &&
			    (h->e[i].port < 0 || port < 0 ||
			     h->e[i].port == port)) {
				match = 1;
				if (entry)
					*entry = i;
			}
		}
	}
	return match ^ h->exclude;
}
