/* load-host: the host and application layer: memlock limits (collector,
 * --pid processes, limits.conf and limits.d), meminfo and huge pages, the
 * NCCL/UCX/MPI environment (collector, --pid, nccl.conf), attachments
 * (NCCL logs, perftest outputs, mlxlink) parsed into nccl_events and
 * perftest_results, and node facts (cmdline, peermem, GPUs, container,
 * /dev/infiniband visibility) */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "load.h"
#include "log.h"
#include "nccl.h"
#include "perftest.h"

#define ATTACH "rdma-collect/attach"
#define MAX_EVENTS 20000
#define MAX_RUNS 64

static int all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* the next line of data[*off..len) into out (NUL-terminated, NULs made
 * spaces, trailing CR/blanks kept off); 0 at the end */
static int next_line(const char *data, size_t len, size_t *off, char *out,
		     size_t n)
{
	size_t i = *off, k = 0;

	if (i >= len)
		return 0;
	while (i < len && data[i] != '\n') {
		if (k + 1 < n)
			out[k++] = data[i] ? data[i] : ' ';
		i++;
	}
	while (k > 0 && (out[k - 1] == '\r' || out[k - 1] == ' ' ||
			 out[k - 1] == '\t'))
		k--;
	out[k] = 0;
	*off = i < len ? i + 1 : i;
	return 1;
}

static const char *jtext(const struct jv *v)
{
	return v && (v->t == J_STR || v->t == J_NUM) ? v->s : NULL;
}

/* --- limits --- */

static int limit_row(struct ld *l, const char *who, const char *domain,
		     const char *type, const char *value, const char *path)
{
	return ld_exec(l, "INSERT INTO temp.s_limits (bundle_id, who, "
		       "item, domain, type, value, path) VALUES (?, ?, "
		       "'memlock', ?, ?, ?, ?)", "isssss", l->bid, who, domain, type, value,
		       path);
}

static int limits_self(struct ld *l)
{
	const char *p = "rdma-collect/limits/self.json";
	struct jv *j = br_json(l->b, p);
	const struct jv *m = jget(j, "memlock");
	char euid[32];
	int rc = 0;

	if (!j)
		return 0;
	if (jtext(jget(m, "soft")))
		rc = limit_row(l, "collector", NULL, "soft",
			       jtext(jget(m, "soft")), p);
	if (!rc && jtext(jget(m, "hard")))
		rc = limit_row(l, "collector", NULL, "hard",
			       jtext(jget(m, "hard")), p);
	if (!rc && jget(j, "euid")) {
		snprintf(euid, sizeof(euid), "%lld",
			 (long long)jint(j, "euid", -1));
		rc = ld_fact(l, "collector_euid", euid, p);
	}
	if (!rc && jget(j, "pid")) {
		snprintf(euid, sizeof(euid), "%lld",
			 (long long)jint(j, "pid", -1));
		rc = ld_fact(l, "collector_pid", euid, p);
	}
	jfree(j);
	return rc;
}

/* "Max locked memory         65536                65536                bytes" */
static int parse_limits_row(const char *line, char *soft, char *hard,
			    size_t n)
{
	const char *p;
	char unit[16] = "";

	if (strncmp(line, "Max locked memory", 17))
		return 0;
	p = line + 17;
	soft[0] = hard[0] = 0;
	if (n < 32)
		return 0;
	if (sscanf(p, "%31s %31s %15s", soft, hard, unit) < 2)
		return 0;
	return (!strcmp(soft, "unlimited") || all_digits(soft)) &&
	       (!strcmp(hard, "unlimited") || all_digits(hard));
}

/* the PID of a "proc/<PID>/limits" entry (the bundle holds no folder
 * entries for --pid processes, so br_list cannot find them) */
static const char *pid_of(const char *path, char *out, size_t n)
{
	size_t k;

	if (strncmp(path, "proc/", 5))
		return NULL;
	k = strspn(path + 5, "0123456789");
	if (!k || k >= n || strcmp(path + 5 + k, "/limits"))
		return NULL;
	memcpy(out, path + 5, k);
	out[k] = 0;
	return out;
}

static int limits_pids(struct ld *l)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < l->b->n && !rc; i++) {
		char p[PATH_MAX], who[48], line[512], soft[32], hard[32], pid[12];
		const char *data;
		size_t len, off = 0;
		const char *names[1];

		if (!pid_of(l->b->v[i].path, pid, sizeof(pid)))
			continue;
		names[0] = pid;
		snprintf(p, sizeof(p), "proc/%s/limits", names[0]);
		data = br_data(l->b, p, &len);
		if (!data)
			continue;
		snprintf(who, sizeof(who), "pid:%s", names[0]);
		while (!rc && next_line(data, len, &off, line, sizeof(line)))
			if (parse_limits_row(line, soft, hard, sizeof(soft))) {
				rc = limit_row(l, who, NULL, "soft", soft, p);
				if (!rc)
					rc = limit_row(l, who, NULL, "hard", hard, p);
				break;
			}
		/* CAP_IPC_LOCK (bit 14 of CapEff) lifts the limit */
		snprintf(p, sizeof(p), "proc/%s/status", names[0]);
		data = br_data(l->b, p, &len);
		off = 0;
		while (!rc && data && next_line(data, len, &off, line,
						sizeof(line))) {
			if (!strncmp(line, "CapEff:", 7)) {
				unsigned long long cap = strtoull(line + 7, NULL, 16);
				char key[64];

				snprintf(key, sizeof(key), "%s:cap_ipc_lock", who);
				rc = ld_fact(l, key, cap & (1ULL << 14) ? "1" : "0", p);
			}
		}
		snprintf(p, sizeof(p), "proc/%s/comm", names[0]);
		if (!rc && br_line(l->b, p, line, sizeof(line))) {
			char key[64];

			snprintf(key, sizeof(key), "%s:comm", who);
			rc = ld_fact(l, key, line, p);
		}
	}
	return rc;
}

static int limits_conf_file(struct ld *l, const char *p)
{
	const char *data;
	char line[512];
	size_t len, off = 0;
	int rc = 0;

	data = br_data(l->b, p, &len);
	while (data && !rc && next_line(data, len, &off, line, sizeof(line))) {
		char dom[128], type[16], item[32], value[64], extra[8];
		char *h = strchr(line, '#');

		if (h)
			*h = 0;
		if (sscanf(line, "%127s %15s %31s %63s %7s", dom, type, item,
			   value, extra) != 4 || strcmp(item, "memlock"))
			continue;
		rc = limit_row(l, p, dom, type, value, p);
	}
	return rc;
}

static int limits_conf(struct ld *l)
{
	const char **names;
	size_t n, i;
	int rc = limits_conf_file(l, "etc/security/limits.conf");

	/* pam_limits reads only the limits.d files ending .conf, in order */
	n = br_list(l->b, "etc/security/limits.d", &names);
	for (i = 0; i < n && !rc; i++) {
		char p[PATH_MAX];
		size_t k = strlen(names[i]);

		if (k < 6 || strcmp(names[i] + k - 5, ".conf"))
			continue;
		snprintf(p, sizeof(p), "etc/security/limits.d/%s", names[i]);
		rc = limits_conf_file(l, p);
	}
	free(names);
	return rc;
}

/* --- meminfo, huge pages --- */

static int meminfo(struct ld *l)
{
	const char *data;
	const char **names;
	char line[256];
	size_t len, off = 0, n, i;
	int rc = 0;

	data = br_data(l->b, "proc/meminfo", &len);
	while (data && !rc && next_line(data, len, &off, line, sizeof(line))) {
		char *c = strchr(line, ':'), *end;
		long long v;

		if (!c || c == line || c - line > 64)
			continue;
		*c = 0;
		v = strtoll(c + 1, &end, 10);
		if (end == c + 1)
			continue;
		rc = ld_exec(l, "INSERT OR REPLACE INTO "
			     "temp.s_meminfo (bundle_id, "
			     "name, value) VALUES (?, ?, ?)", "isi", l->bid, line,
			     (int64_t)v);
	}
	n = br_list(l->b, "sys/kernel/mm/hugepages", &names);
	for (i = 0; i < n && !rc; i++) {
		char p[PATH_MAX], key[128], v[32];

		snprintf(p, sizeof(p), "sys/kernel/mm/hugepages/%s/nr_hugepages",
			 names[i]);
		if (!br_line(l->b, p, v, sizeof(v)) || !all_digits(v))
			continue;
		snprintf(key, sizeof(key), "hugepages/%s/nr_hugepages", names[i]);
		rc = ld_fact(l, key, v, p);
	}
	free(names);
	return rc;
}

/* --- environment --- */

static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1] == 'n') {
			*w++ = '\n';
			s++;
		} else if (*s == '\\' && s[1] == '\\') {
			*w++ = '\\';
			s++;
		} else {
			*w++ = *s;
		}
	}
	*w = 0;
}

static int env_file(struct ld *l, const char *who, const char *p, int esc)
{
	const char *data;
	char line[4096];
	size_t len, off = 0;
	int rc = 0;

	data = br_data(l->b, p, &len);
	while (data && !rc && next_line(data, len, &off, line, sizeof(line))) {
		char *s = line, *eq;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '#' || !(eq = strchr(s, '=')) || eq == s)
			continue;
		*eq = 0;
		if (strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			   "0123456789_") != strlen(s))
			continue;
		if (esc)
			unescape(eq + 1);
		rc = ld_exec(l, "INSERT INTO temp.s_environment (bundle_id, "
			     "who, name, value) VALUES (?, ?, ?, ?)", "isss", l->bid,
			     who, s, eq + 1);
	}
	return rc;
}

static int environment(struct ld *l)
{
	const char **names;
	size_t n, i;
	int rc = 0;

	n = br_list(l->b, "rdma-collect/environ", &names);
	for (i = 0; i < n && !rc; i++) {
		char p[PATH_MAX], who[48];
		size_t k = strlen(names[i]);

		if (k < 5 || k > 30 || strcmp(names[i] + k - 4, ".env"))
			continue;
		snprintf(p, sizeof(p), "rdma-collect/environ/%s", names[i]);
		if (!strcmp(names[i], "self.env"))
			snprintf(who, sizeof(who), "self");
		else
			snprintf(who, sizeof(who), "pid:%.*s", (int)(k - 4),
				 names[i]);
		rc = env_file(l, who, p, 1);
	}
	free(names);
	if (!rc)
		rc = env_file(l, "nccl.conf", "etc/nccl.conf", 0);
	return rc;
}

/* --- attachments --- */

static const char *nccl_kind_name(enum nccl_kind k)
{
	switch (k) {
	case NCCL_IB_USING: return "ib_using";
	case NCCL_IB_NODEV: return "ib_nodev";
	case NCCL_NET_USING: return "net_using";
	case NCCL_SOCKET_USING: return "socket_using";
	case NCCL_GDR: return "gdr";
	case NCCL_DMABUF: return "dmabuf";
	case NCCL_COMPLETION: return "completion";
	case NCCL_ASYNC: return "async";
	case NCCL_VERBS_FAIL: return "verbs_fail";
	case NCCL_GPU: return "gpu";
	default: return NULL;
	}
}

static int nccl_event(struct ld *l, const char *att, int64_t lineno,
		      const struct nccl_ev *ev, const char *dev, int port,
		      const char *ll, const char *text)
{
	char cap[512];

	snprintf(cap, sizeof(cap), "%s", text);
	return ld_exec(l, "INSERT INTO nccl_events (bundle_id, attachment, "
		       "line, kind, warn, net, hca, port, link_layer, enabled, "
		       "dmabuf, peer, status, opcode, len, vendor_err, req, "
		       "local_gid, remote_gid, text, detail) VALUES (?, ?, ?, ?, ?, "
		       "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		       "isisissNsiisNNNNsssss", l->bid, att, lineno,
		       nccl_kind_name(ev->kind), (int64_t)ev->warn,
		       ev->net[0] ? ev->net : NULL,
		       dev && *dev ? dev : NULL, (int64_t)port,
		       ll && *ll ? ll : NULL, (int64_t)ev->gdr_enabled,
		       (int64_t)ev->gdr_dmabuf, ev->peer[0] ? ev->peer : NULL,
		       (int64_t)ev->status, (int64_t)ev->opcode, ev->len,
		       ev->vendor_err, ev->req[0] ? ev->req : NULL,
		       ev->local_gid[0] ? ev->local_gid : NULL,
		       ev->remote_gid[0] ? ev->remote_gid : NULL, cap,
		       ev->detail[0] ? ev->detail : NULL);
}

/* the manifest's status of source name ("ok", "partial", "absent" ...),
 * NULL when it lists no such source */
static const char *source_status(struct ld *l, const char *name)
{
	const struct jv *s = jget(l->b->manifest, "sources");
	size_t i;

	for (i = 0; i < jlen(s); i++)
		if (jstr(jat(s, i), "name") && !strcmp(jstr(jat(s, i), "name"),
						      name))
			return jstr(jat(s, i), "status");
	return NULL;
}

/* an import whose lspci was read whole: its PCI functions are the GPU
 * inventory, so NCCL's line prefix does not stand in for one */
static int pci_whole(struct ld *l)
{
	const char *st = source_status(l, "pci");

	return st && !strcmp(st, "ok");
}

/* the GPUs of an imported log without "cudaDev N ... busId" lines: NCCL
 * prints the thread's cudaDev in every line's prefix ("host:pid:tid [3]"),
 * so each device seen there is one, cited by the first line that shows
 * it.  Only on an import without a whole lspci: a collector's bundle has
 * the node's own GPU inventory (sys/bus/pci), as has an import whose
 * lspci was read whole, and a log attached there may be another's */
#define PREFIX_DEVS 16

struct prefix_dev {
	int dev;
	int64_t line;
	char text[512];
};

static void prefix_dev_seen(struct prefix_dev *v, int *n, int dev,
			    int64_t line, const char *text)
{
	int i;

	for (i = 0; i < *n; i++)
		if (v[i].dev == dev)
			return;
	if (*n >= PREFIX_DEVS)
		return;
	v[*n].dev = dev;
	v[*n].line = line;
	snprintf(v[*n].text, sizeof(v[*n].text), "%s", text);
	(*n)++;
}

static int prefix_gpus(struct ld *l, const char *att,
		       const struct prefix_dev *v, int n)
{
	struct nccl_ev *ev = xcalloc(1, sizeof(*ev));
	int i, rc = 0;

	for (i = 0; i < n && !rc; i++) {
		memset(ev, 0, sizeof(*ev));
		ev->kind = NCCL_GPU;
		ev->status = ev->opcode = -1;
		ev->len = ev->vendor_err = -1;
		snprintf(ev->detail, sizeof(ev->detail), "cudaDev %d", v[i].dev);
		rc = nccl_event(l, att, v[i].line, ev, NULL, v[i].dev, NULL,
				v[i].text);
	}
	free(ev);
	return rc;
}

static int nccl_log(struct ld *l, const char *att, const char *data,
		    size_t len)
{
	char line[4096];
	size_t off = 0;
	int64_t lineno = 0, nev = 0;
	int rc = 0, i, took = 0, gpus = 0, ndev = 0;
	struct prefix_dev *pd = xcalloc(PREFIX_DEVS, sizeof(*pd));

	/* a message wrapped by a mail client is joined again (nccl.h) */
	while (!rc && nev < MAX_EVENTS &&
	       nccl_next_line(data, len, &off, line, sizeof(line), &took)) {
		struct nccl_ev ev;

		lineno += took;
		if (nccl_parse_line(line, strlen(line), &ev) == NCCL_NONE) {
			if (ev.dev >= 0)
				prefix_dev_seen(pd, &ndev, ev.dev,
						lineno - took + 1, line);
			continue;
		}
		if (ev.dev >= 0)
			prefix_dev_seen(pd, &ndev, ev.dev, lineno - took + 1,
					line);
		gpus += ev.kind == NCCL_GPU;
		nev++;
		if (ev.kind == NCCL_IB_USING) {
			for (i = 0; i < ev.ndevs && !rc; i++)
				rc = nccl_event(l, att, lineno - took + 1, &ev,
						ev.devs[i].name, ev.devs[i].port,
						ev.devs[i].ll, line);
		} else {
			rc = nccl_event(l, att, lineno - took + 1, &ev, ev.hca,
					ev.kind == NCCL_GDR ? ev.hca_index :
					ev.port, NULL, line);
		}
	}
	if (!rc && !gpus && jget(l->b->manifest, "import") &&
	    !pci_whole(l))
		rc = prefix_gpus(l, att, pd, ndev);
	free(pd);
	return rc;
}

static int perftest_out(struct ld *l, const char *att, const char *data,
			size_t len)
{
	/* on the heap: extractors run in several reader threads at once */
	struct pt_result *r = xcalloc(MAX_RUNS, sizeof(*r));
	int n = perftest_parse(data, len, r, MAX_RUNS), i, rc = 0;

	for (i = 0; i < n && !rc; i++)
		rc = ld_exec(l, "INSERT OR REPLACE INTO perftest_results "
			     "(bundle_id, attachment, run, test, bw, bidir, device, "
			     "transport, connection, link_type, cuda, unit, rows, "
			     "bytes, bw_avg, bw_peak, avg_gbps, peak_gbps, t_avg, "
			     "failed, wc_status, vendor_err, error) VALUES (?, ?, ?, "
			     "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
			     "?)", "isisiissssisiiDDDDDiNis", l->bid, att, (int64_t)i,
			     r[i].test, (int64_t)r[i].bw, (int64_t)r[i].bidir,
			     r[i].device[0] ? r[i].device : NULL,
			     r[i].transport[0] ? r[i].transport : NULL,
			     r[i].connection[0] ? r[i].connection : NULL,
			     r[i].link[0] ? r[i].link : NULL, (int64_t)r[i].cuda,
			     r[i].unit ? perftest_unit_name(r[i].unit) : NULL,
			     (int64_t)r[i].rows, (int64_t)r[i].bytes,
			     r[i].rows && r[i].bw ? r[i].bw_avg : -1.0,
			     r[i].rows && r[i].bw ? r[i].bw_peak : -1.0,
			     r[i].rows && r[i].bw ? r[i].avg_gbps : -1.0,
			     r[i].rows && r[i].bw ? r[i].peak_gbps : -1.0,
			     r[i].rows && !r[i].bw ? r[i].t_avg : -1.0,
			     (int64_t)r[i].failed, (int64_t)r[i].wc_status,
			     (int64_t)r[i].vendor_err,
			     r[i].error[0] ? r[i].error : NULL);
	free(r);
	return rc;
}

static int has(const char *data, size_t len, const char *needle)
{
	return memmem(data, len, needle, strlen(needle)) != NULL;
}

static const char *attach_kind(const char *data, size_t len)
{
	if (has(data, len, "NCCL INFO ") || has(data, len, "NCCL WARN ") ||
	    (has(data, len, "NET/IB") && (has(data, len, "Got completion") ||
					  has(data, len, "No device found") ||
					  has(data, len, "GPU Direct RDMA"))))
		return "nccl";
	if (perftest_detect(data, len))
		return "perftest";
	if ((has(data, len, "Operational Info") ||
	     has(data, len, "Troubleshooting Info") ||
	     has(data, len, "Physical Counters and BER Info")) &&
	    has(data, len, "\n----"))
		return "mlxlink";
	return "other";
}

static int attachments(struct ld *l)
{
	const char **names;
	size_t n, i;
	int rc = 0;

	n = br_list(l->b, ATTACH, &names);
	for (i = 0; i < n && !rc; i++) {
		char p[PATH_MAX];
		const char *data, *kind;
		size_t len;

		snprintf(p, sizeof(p), ATTACH "/%s", names[i]);
		data = br_data(l->b, p, &len);
		if (!data)
			continue;
		kind = attach_kind(data, len);
		rc = ld_exec(l, "INSERT OR REPLACE INTO attachments (bundle_id, "
			     "name, size, kind) VALUES (?, ?, ?, ?)", "isis",
			     l->bid, names[i], (int64_t)len, kind);
		if (!rc && !strcmp(kind, "nccl"))
			rc = nccl_log(l, p, data, len);
		else if (!rc && !strcmp(kind, "perftest"))
			rc = perftest_out(l, p, data, len);
	}
	free(names);
	return rc;
}

/* --- facts --- */

/* no devnodes.json: only "not visible" when the source said absent */
static int devnodes_absent(struct ld *l)
{
	const char *st = source_status(l, "devnodes");

	return st && !strcmp(st, "absent");
}

static int facts(struct ld *l)
{
	const struct jv *cont = jget(l->b->manifest, "container");
	const char **names;
	const char *data;
	char line[4096], v[32];
	size_t len, off = 0, n, i;
	int rc = 0, peer = 0, gpus = 0;
	struct jv *dn;

	if (br_line(l->b, "proc/cmdline", line, sizeof(line)))
		rc = ld_fact(l, "cmdline", line, "proc/cmdline");
	data = br_data(l->b, "proc/modules", &len);
	while (data && next_line(data, len, &off, line, sizeof(line)))
		if (!strncmp(line, "nvidia_peermem ", 15) ||
		    !strncmp(line, "nv_peer_mem ", 12))
			peer = 1;
	if (!rc && data)
		rc = ld_fact(l, "peermem_loaded", peer ? "1" : "0",
			     "proc/modules");
	n = br_list(l->b, "sys/bus/pci/devices", &names);
	for (i = 0; i < n; i++) {
		char p[PATH_MAX], ven[16], cls[16];

		snprintf(p, sizeof(p), "sys/bus/pci/devices/%s/vendor", names[i]);
		if (!br_line(l->b, p, ven, sizeof(ven)))
			continue;
		snprintf(p, sizeof(p), "sys/bus/pci/devices/%s/class", names[i]);
		if (!br_line(l->b, p, cls, sizeof(cls)))
			continue;
		if (!strcmp(ven, "0x10de") && !strncmp(cls, "0x03", 4) &&
		    strlen(cls) == 8)
			gpus++;
	}
	free(names);
	snprintf(v, sizeof(v), "%d", gpus);
	if (!rc)
		rc = ld_fact(l, "gpus", v, "sys/bus/pci/devices");
	if (!rc)
		rc = ld_fact(l, "container", jbool(cont, "detected", 0) ?
			     (jstr(cont, "kind") ? jstr(cont, "kind") : "yes") :
			     "no", "manifest.json");
	dn = br_json(l->b, "rdma-collect/devnodes.json");
	if (!rc && dn)
		rc = ld_fact(l, "devinfiniband_visible",
			     jstr(dn, "status") && !strcmp(jstr(dn, "status"), "ok") &&
			     jlen(jget(dn, "entries")) > 0 ? "1" : "0",
			     "rdma-collect/devnodes.json");
	else if (!rc && devnodes_absent(l))
		rc = ld_fact(l, "devinfiniband_visible", "0", "manifest.json");
	jfree(dn);
	return rc;
}

int load_host(struct ld *l)
{
	if (limits_self(l) < 0 || limits_pids(l) < 0 || limits_conf(l) < 0 ||
	    meminfo(l) < 0 || environment(l) < 0 || attachments(l) < 0 ||
	    facts(l) < 0)
		return -1;
	return 0;
}
