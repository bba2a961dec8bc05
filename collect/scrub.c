/* scrub: --redact over a whole bundle, and the key file */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "log.h"
#include "scrub.h"
#include "util.h"

/* ---- the key ---- */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* the key from /dev/urandom: kernels before 3.17 (RHEL 7's 3.10) have no
 * getrandom, and the static collector runs there too */
static int urandom_key(unsigned char key[REDACT_KEY_LEN])
{
	size_t got = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return error("cannot make a redaction key: /dev/urandom: %s",
			     strerror(errno));
	while (got < REDACT_KEY_LEN) {
		ssize_t n = read(fd, key + got, REDACT_KEY_LEN - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return error("cannot make a redaction key: /dev/urandom: %s",
				     n ? strerror(errno) : "end of file");
		}
		got += (size_t)n;
	}
	close(fd);
	return 0;
}

int scrub_new_key(unsigned char key[REDACT_KEY_LEN])
{
	size_t got = 0;

	while (got < REDACT_KEY_LEN) {
		ssize_t n = getrandom(key + got, REDACT_KEY_LEN - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ENOSYS && !got)
			return urandom_key(key);
		if (n <= 0)
			return error("cannot make a redaction key: getrandom: "
				     "%s", strerror(errno));
		got += (size_t)n;
	}
	return 0;
}

int scrub_save_key(const char *file, const unsigned char key[REDACT_KEY_LEN])
{
	char text[2 * REDACT_KEY_LEN + 1];
	int fd, i, rc = -1;

	for (i = 0; i < REDACT_KEY_LEN; i++)
		sprintf(text + 2 * i, "%02x", key[i]);
	text[2 * REDACT_KEY_LEN] = '\n';
	fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return error("cannot create redaction key file '%s': %s", file,
			     strerror(errno));
	if (write(fd, text, sizeof(text)) != (ssize_t)sizeof(text) ||
	    fsync(fd) < 0) {
		error("cannot write redaction key file '%s': %s", file,
		      strerror(errno ? errno : EIO));
		unlink(file);
		goto out;
	}
	rc = 0;
out:
	if (close(fd) < 0 && !rc) {
		rc = error("cannot write redaction key file '%s': %s", file,
			   strerror(errno));
		unlink(file);
	}
	memset(text, 0, sizeof(text));
	return rc;
}

int scrub_load_key(const char *file, unsigned char key[REDACT_KEY_LEN],
		   int *created)
{
	unsigned char raw[2 * REDACT_KEY_LEN + 2];
	struct stat st;
	ssize_t n;
	size_t len = 0;
	int fd, i, rc = -1;

	*created = 0;
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		if (scrub_new_key(key) < 0 || scrub_save_key(file, key) < 0)
			return -1;
		*created = 1;
		return 0;
	}
	if (fd < 0)
		return error("cannot open redaction key file '%s': %s", file,
			     strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		error("redaction key file '%s' is not a regular file", file);
		goto out;
	}
	while (len < sizeof(raw)) {
		n = read(fd, raw + len, sizeof(raw) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error("cannot read redaction key file '%s': %s", file,
			      strerror(errno));
			goto out;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	if (len == REDACT_KEY_LEN) {
		memcpy(key, raw, REDACT_KEY_LEN);
		rc = 0;
		goto out;
	}
	if (len == 2 * REDACT_KEY_LEN + 1 && raw[len - 1] == '\n')
		len--;
	if (len == 2 * REDACT_KEY_LEN) {
		for (i = 0; i < REDACT_KEY_LEN; i++) {
			int hi = hexval(raw[2 * i]);
			int lo = hexval(raw[2 * i + 1]);

			if (hi < 0 || lo < 0)
				break;
			key[i] = (unsigned char)(hi << 4 | lo);
		}
		if (i == REDACT_KEY_LEN) {
			rc = 0;
			goto out;
		}
	}
	error("redaction key file '%s' must hold %d bytes, or %d hex digits "
	      "and an optional newline", file, REDACT_KEY_LEN,
	      2 * REDACT_KEY_LEN);
out:
	memset(raw, 0, sizeof(raw));
	close(fd);
	return rc;
}

/* ---- literals ---- */

void scrub_add_hostname(struct redact *r, const char *name)
{
	const char *dot;
	char *s;
	size_t n = strlen(name);

	while (n && (name[n - 1] == '\n' || name[n - 1] == ' ' ||
		     name[n - 1] == '.'))
		n--;
	s = xstrndup(name, n);
	if (!*s || !strcasecmp(s, "localhost") || !strcmp(s, "(none)") ||
	    !strcmp(s, "unknown"))
		goto out;
	redact_add_literal(r, "host", s);
	dot = strchr(s, '.');
	if (dot && dot > s) {
		char *shrt = xstrndup(s, (size_t)(dot - s));

		if (strcasecmp(shrt, "localhost"))
			redact_add_literal(r, "host", shrt);
		free(shrt);
		/* the domain, when it is more than one label ("lan" and
		 * "local" are words) */
		if (strchr(dot + 1, '.'))
			redact_add_literal(r, "domain", dot + 1);
	}
out:
	free(s);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int is_limits(const char *path)
{
	return !strcmp(path, "etc/security/limits.conf") ||
	       starts_with(path, "etc/security/limits.d/");
}

static char *first_line(const struct entry *e)
{
	size_t n = 0;

	while (n < e->len && e->data[n] != '\n' && e->data[n])
		n++;
	while (n && (e->data[n - 1] == ' ' || e->data[n - 1] == '\r'))
		n--;
	return xstrndup(e->data, n);
}

/* limits.conf: "<domain> <type> <item> <value>"; a domain is a user name,
 * "@group", "%" or "%group", "*", or a uid range "1000:2000" */
static void limits_users(struct redact *r, const struct entry *e)
{
	const char *p = e->data, *end = e->data + e->len;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *w;
		size_t n;

		if (!eol)
			eol = end;
		while (p < eol && (*p == ' ' || *p == '\t'))
			p++;
		for (w = p; w < eol && *w != ' ' && *w != '\t' && *w != '#';
		     w++)
			;
		n = (size_t)(w - p);
		if (n && *p != '#' && *p != '*' && *p != '@' && *p != '%' &&
		    strspn(p, "0123456789:") < n &&
		    !(n == 4 && !memcmp(p, "root", 4))) {
			char *user = xstrndup(p, n);

			redact_add_literal(r, "user", user);
			free(user);
		}
		p = eol + 1;
	}
}

/* a --fabric scan names every host and switch of the subnet in its
 * NodeDescriptions ("desc":"..." in rdma-collect/fabric/fabric.json), and
 * a mad document its own and the peer switch's ("node_desc": "..." in
 * the documents of rdma-collect/mad/), as the JSON has them: each becomes a node
 * description literal */
static void json_descs(struct redact *r, const struct entry *e,
		       const char *key)
{
	const char *p = e->data, *end = e->data + e->len;
	size_t kl = strlen(key);

	while ((p = memmem(p, (size_t)(end - p), key, kl))) {
		const char *q = p += kl;
		char *v;

		while (q < end && *q != '"')
			q += *q == '\\' && q + 1 < end ? 2 : 1;
		if (q >= end)
			break;
		v = xstrndup(p, (size_t)(q - p));
		redact_add_literal(r, "nodedesc", v);
		free(v);
		p = q;
	}
}

/* values to hide wherever they appear */
static void gather(struct redact *r, struct store *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct entry *e = &s->v[i];
		char *v;

		if (e->type != ENT_FILE || !e->len || memchr(e->data, 0, e->len))
			continue;
		if (!strcmp(base_name(e->path), "node_desc") &&
		    starts_with(e->path, "sys/")) {
			v = first_line(e);
			redact_add_literal(r, "nodedesc", v);
			free(v);
		} else if (!strcmp(e->path, "etc/machine-id")) {
			v = first_line(e);
			redact_add_literal(r, "machine-id", v);
			free(v);
		} else if (is_limits(e->path)) {
			limits_users(r, e);
		} else if (!strcmp(e->path, "rdma-collect/fabric/fabric.json")) {
			json_descs(r, e, "\"desc\":\"");
		} else if (starts_with(e->path, "rdma-collect/mad/")) {
			json_descs(r, e, "\"node_desc\": \"");
		}
	}
}

/* ---- entries ---- */

/* knobs whose values say how RDMA is set up and never who or where;
 * their values still go through redact_text() */
static const char *const env_allowed[] = {
	"NCCL_IB_HCA", "NCCL_IB_GID_INDEX", "NCCL_SOCKET_IFNAME",
	"NCCL_SOCKET_FAMILY", "NCCL_DEBUG", "NCCL_DEBUG_SUBSYS",
	"NCCL_NET_GDR_LEVEL", "NCCL_NET_GDR_READ", "NCCL_NET_GDR_C2C",
	"NCCL_IB_TC", "NCCL_IB_FIFO_TC", "NCCL_IB_SL", "NCCL_IB_TIMEOUT",
	"NCCL_IB_RETRY_CNT", "NCCL_IB_DISABLE", "NCCL_IB_QPS_PER_CONNECTION",
	"NCCL_IB_SPLIT_DATA_ON_QPS", "NCCL_IB_PCI_RELAXED_ORDERING",
	"NCCL_IB_ADAPTIVE_ROUTING", "NCCL_IB_AR_THRESHOLD",
	"NCCL_IB_ROCE_VERSION_NUM", "NCCL_IB_ADDR_FAMILY",
	"NCCL_IB_CUDA_SUPPORT", "NCCL_IB_MERGE_NICS", "NCCL_IB_USE_INLINE",
	"NCCL_NET", "NCCL_NET_SHARED_BUFFERS", "NCCL_NET_SHARED_COMMS",
	"NCCL_NSOCKS_PERTHREAD", "NCCL_SOCKET_NTHREADS", "NCCL_CROSS_NIC",
	"NCCL_P2P_DISABLE", "NCCL_P2P_LEVEL", "NCCL_SHM_DISABLE",
	"NCCL_PROTO", "NCCL_ALGO", "NCCL_BUFFSIZE", "NCCL_NTHREADS",
	"NCCL_MIN_NCHANNELS", "NCCL_MAX_NCHANNELS", "NCCL_COLLNET_ENABLE",
	"NCCL_NVLS_ENABLE", "NCCL_DMABUF_ENABLE", "NCCL_GDRCOPY_ENABLE",
	"NCCL_CUMEM_ENABLE", "NCCL_IGNORE_CPU_AFFINITY", "NCCL_LAUNCH_MODE",
	"UCX_NET_DEVICES", "UCX_TLS", "UCX_IB_GID_INDEX", "UCX_IB_SL",
	"UCX_IB_TRAFFIC_CLASS", "UCX_IB_MTU", "UCX_IB_ROCE_LOCAL_SUBNET",
	"UCX_IB_ROCE_SUBNET_PREFIX_LEN", "UCX_IB_PCI_RELAXED_ORDERING",
	"UCX_IB_REG_METHODS", "UCX_IB_ADDR_TYPE", "UCX_RNDV_THRESH",
	"UCX_RNDV_SCHEME", "UCX_ZCOPY_THRESH", "UCX_MAX_RNDV_RAILS",
	"UCX_MAX_EAGER_RAILS", "UCX_LOG_LEVEL", "UCX_MEMTYPE_CACHE",
	"UCX_RC_TIMEOUT", "UCX_RC_RETRY_COUNT", "UCX_RC_PATH_MTU",
	"OMPI_MCA_pml", "OMPI_MCA_btl", "OMPI_MCA_osc",
	"OMPI_MCA_btl_openib_if_include", "OMPI_MCA_btl_tcp_if_include",
	"OMPI_MCA_btl_tcp_if_exclude", "OMPI_MCA_oob_tcp_if_include",
	"OMPI_MCA_pml_ucx_tls", "OMPI_MCA_pml_ucx_devices",
	"OMPI_MCA_coll_hcoll_enable",
	"CUDA_VISIBLE_DEVICES",
};

int scrub_env_allowed(const char *name, size_t n)
{
	size_t i;

	if (n > 5 && !memcmp(name, "MLX5_", 5))
		return 1;
	for (i = 0; i < ARRAY_SIZE(env_allowed); i++)
		if (strlen(env_allowed[i]) == n &&
		    !memcmp(env_allowed[i], name, n))
			return 1;
	return 0;
}

static int env_value_plain(const char *v, size_t n)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyz"
				 "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "0123456789_,:^=.+-";
	size_t i;

	for (i = 0; i < n; i++)
		if (!v[i] || !strchr(ok, v[i]))
			return 0;
	return 1;
}

/* rdma-collect/environ/<who>.env: NAME=value lines */
static void scrub_env(struct redact *r, const struct entry *e,
		      struct buf *out)
{
	const char *p = e->data, *end = e->data + e->len;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *eq;
		size_t vn;

		if (!eol)
			eol = end;
		eq = memchr(p, '=', (size_t)(eol - p));
		if (!eq) {
			redact_text(r, p, (size_t)(eol - p), out);
		} else {
			vn = (size_t)(eol - eq - 1);
			buf_add(out, p, (size_t)(eq - p + 1));
			if (scrub_env_allowed(p, (size_t)(eq - p)) &&
			    env_value_plain(eq + 1, vn)) {
				redact_text(r, eq + 1, vn, out);
			} else if (vn) {
				char *v = xstrndup(eq + 1, vn), pseudo[64];

				redact_value(r, "env", v, pseudo,
					     sizeof(pseudo));
				buf_addstr(out, pseudo);
				free(v);
			}
		}
		if (eol < end)
			buf_addch(out, '\n');
		p = eol + 1;
	}
}

/* one whole value: "<pseudonym>\n" */
static void scrub_whole(struct redact *r, const char *kind,
			const struct entry *e, struct buf *out)
{
	char *v = first_line(e), pseudo[128];

	redact_value(r, kind, v, pseudo, sizeof(pseudo));
	buf_addstr(out, pseudo);
	if (e->len && e->data[e->len - 1] == '\n')
		buf_addch(out, '\n');
	free(v);
}

/* the machine id keeps its shape: 32 hex digits from SHA-256 of its
 * keyed pseudonym */
static void scrub_machine_id(struct redact *r, const struct entry *e,
			     struct buf *out)
{
	char *v = first_line(e), pseudo[128];
	unsigned char d[32];
	int i;

	redact_value(r, "machine-id", v, pseudo, sizeof(pseudo));
	sha256(pseudo, strlen(pseudo), d);
	for (i = 0; i < 16; i++)
		buf_addf(out, "%02x", d[i]);
	if (e->len && e->data[e->len - 1] == '\n')
		buf_addch(out, '\n');
	free(v);
}

/* PCI config space: zero the Device Serial Number extended capability
 * (ID 0x0003), whose 8 bytes are the board serial, often the GUID */
static void zero_dsn(struct entry *e)
{
	unsigned char *p = (unsigned char *)e->data;
	size_t off = 0x100;
	int hops;

	for (hops = 0; hops < 1024 && off >= 0x100 && off + 4 <= e->len;
	     hops++) {
		uint32_t h = (uint32_t)p[off] | (uint32_t)p[off + 1] << 8 |
			     (uint32_t)p[off + 2] << 16 |
			     (uint32_t)p[off + 3] << 24;

		if (!h || h == 0xffffffff)
			break;
		if ((h & 0xffff) == 0x0003 && off + 12 <= e->len)
			memset(p + off + 4, 0, 8);
		off = (h >> 20) & ~3u;
	}
}

static int is_pci_config(const struct entry *e)
{
	return !strcmp(base_name(e->path), "config") &&
	       (starts_with(e->path, "sys/devices/") ||
		starts_with(e->path, "sys/bus/pci/"));
}

static void scrub_entry(struct redact *r, struct store *s, struct entry *e)
{
	struct buf out = BUF_INIT;
	char *data;
	size_t len;

	if (e->type == ENT_DIR)
		return;
	if (e->type == ENT_FILE && is_pci_config(e)) {
		zero_dsn(e);
		return;
	}
	if (e->type == ENT_FILE && (!e->len || memchr(e->data, 0, e->len)))
		return;
	if (e->type == ENT_LINK)
		redact_text(r, e->data, e->len, &out);
	else if (!strcmp(e->path, "etc/machine-id"))
		scrub_machine_id(r, e, &out);
	else if (!strcmp(base_name(e->path), "node_desc") &&
		 starts_with(e->path, "sys/"))
		scrub_whole(r, "nodedesc", e, &out);
	else if (starts_with(e->path, "rdma-collect/environ/"))
		scrub_env(r, e, &out);
	else
		redact_text(r, e->data, e->len, &out);
	if (out.len == e->len && !memcmp(out.buf, e->data, e->len)) {
		buf_release(&out);
		return;
	}
	data = buf_detach(&out, &len);
	store_set_data(s, e, data, len);
}

static void scrub_path(struct redact *r, struct entry *e)
{
	struct buf out = BUF_INIT;

	redact_text(r, e->path, strlen(e->path), &out);
	if (strcmp(out.buf, e->path) && bundle_path_ok(out.buf)) {
		free(e->path);
		e->path = buf_detach(&out, NULL);
	}
	buf_release(&out);
}

void scrub_store(struct redact *r, struct store *s)
{
	size_t i;

	gather(r, s);
	for (i = 0; i < s->n; i++)
		scrub_entry(r, s, &s->v[i]);
	/* paths last: store_find() works until here */
	for (i = 0; i < s->n; i++)
		scrub_path(r, &s->v[i]);
}

static char *scrub_str(struct redact *r, const char *in)
{
	struct buf out = BUF_INIT;

	redact_text(r, in, strlen(in), &out);
	return buf_detach(&out, NULL);
}

void scrub_run(struct redact *r, struct run *run)
{
	size_t i, k;
	char *t;

	for (i = 0; i < nsources; i++) {
		struct src_run *sr = &run->runs[i];
		struct buf out = BUF_INIT;

		t = scrub_str(r, sr->reason);
		snprintf(sr->reason, sizeof(sr->reason), "%s", t);
		free(t);
		for (k = 0; k < sr->nnotes; k++) {
			t = scrub_str(r, sr->notes[k].key);
			free(sr->notes[k].key);
			sr->notes[k].key = t;
			t = scrub_str(r, sr->notes[k].val);
			free(sr->notes[k].val);
			sr->notes[k].val = t;
		}
		redact_text(r, sr->errlist.buf, sr->errlist.len, &out);
		buf_reset(&sr->errlist);
		buf_add(&sr->errlist, out.buf, out.len);
		buf_release(&out);
	}
	for (i = 0; i < run->nquarantine; i++) {
		t = scrub_str(r, run->quarantine[i]);
		free(run->quarantine[i]);
		run->quarantine[i] = t;
	}
}
