/* load-kernel: the kernel side of the RDMA stack: loaded modules
 * (/proc/modules, with version/srcversion and parameters from sys/module;
 * a module with a sys/module folder but no /proc/modules line is built in),
 * modules a pasted filter of the list proves absent, the /dev/infiniband
 * listing (devnodes.json) and the RDMA character devices sysfs names
 * (infiniband_verbs, infiniband_mad) */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "grepchain.h"
#include "load.h"
#include "modules.h"
#include "util.h"

static int64_t decnum(const char *s, int64_t dflt)
{
	long long v;

	if (!s || parse_ll(s, 10, 0, 1LL << 62, &v) < 0)
		return dflt;
	return v;
}

static int module_extra(struct ld *l, const char *m)
{
	char p[PATH_MAX], ver[128], src[64];
	const char **params;
	size_t n, i;
	int rc = 0;

	snprintf(p, sizeof(p), "sys/module/%s/version", m);
	if (!br_line(l->b, p, ver, sizeof(ver)))
		ver[0] = 0;
	snprintf(p, sizeof(p), "sys/module/%s/srcversion", m);
	if (!br_line(l->b, p, src, sizeof(src)))
		src[0] = 0;
	if (ld_exec(l, "UPDATE temp.s_modules SET version = ?, srcversion = ? "
		    "WHERE bundle_id = ? AND name = ?", "ssis", ver[0] ? ver : NULL,
		    src[0] ? src : NULL, l->bid, m) < 0)
		return -1;
	snprintf(p, sizeof(p), "sys/module/%s/parameters", m);
	n = br_list(l->b, p, &params);
	for (i = 0; i < n && !rc; i++) {
		char f[PATH_MAX];
		const char *v;
		size_t len = 0;

		snprintf(f, sizeof(f), "sys/module/%s/parameters/%s", m,
			 params[i]);
		v = br_data(l->b, f, &len);
		if (!v)
			continue;
		while (len && (v[len - 1] == '\n'))
			len--;
		{
			char *val = malloc(len + 1);

			if (!val)
				return -1;
			memcpy(val, v, len);
			val[len] = 0;
			rc = ld_exec(l, "INSERT OR REPLACE INTO "
				     "temp.s_module_params "
				     "(bundle_id, module, name, value) VALUES (?, ?, "
				     "?, ?)", "isss", l->bid, m, params[i], val);
			free(val);
		}
	}
	free(params);
	return rc;
}

/* the names of the folders under sys/module: the bundle stores files (and
 * only some folders), so the names come from every path below it */
static size_t module_dirs(const struct bundle_r *b, char (**out)[64])
{
	static const char pre[] = "sys/module/";
	char (*v)[64] = NULL;
	size_t i, n = 0, alloc = 0;

	for (i = 0; i < b->n; i++) {
		const char *rest, *sl;
		size_t len;

		if (strncmp(b->v[i].path, pre, sizeof(pre) - 1))
			continue;
		rest = b->v[i].path + sizeof(pre) - 1;
		sl = strchr(rest, '/');
		len = sl ? (size_t)(sl - rest) : strlen(rest);
		if (!len || len >= 64 ||
		    (n && !strncmp(v[n - 1], rest, len) && !v[n - 1][len]))
			continue;
		if (n == alloc) {
			void *nv;

			alloc = alloc ? alloc * 2 : 32;
			nv = realloc(v, alloc * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		memcpy(v[n], rest, len);
		v[n][len] = 0;
		n++;
	}
	*out = v;
	return n;
}

static int modules(struct ld *l)
{
	size_t len = 0, i, n;
	const char *d = br_data(l->b, "proc/modules", &len), *e;
	char (*sys)[64];
	int rc = 0;

	for (; d && len; d = e) {
		char line[4096];
		struct proc_module m;
		long long size;
		size_t ll;

		e = memchr(d, '\n', len);
		e = e ? e + 1 : d + len;
		ll = (size_t)(e - d);
		len -= ll;
		if (ll >= sizeof(line))
			continue;
		memcpy(line, d, ll);
		line[ll] = 0;
		if (proc_module_parse(line, &m) < 5 ||
		    !module_name_ok(m.name) ||
		    parse_ll(m.size, 10, 0, LLONG_MAX, &size) < 0)
			continue;
		if (ld_exec(l, "INSERT OR REPLACE INTO "
			    "temp.s_modules (bundle_id, "
			    "name, size, refcnt, used_by, state) VALUES (?, ?, ?, ?, "
			    "?, ?)", "isiNss", l->bid, m.name, (int64_t)size,
			    decnum(m.refcnt, -1), m.deps, m.state) < 0)
			return -1;
	}
	/* sys/module: version, parameters; built-in modules have a folder
	 * but no /proc/modules line */
	n = module_dirs(l->b, &sys);
	for (i = 0; i < n && !rc; i++) {
		if (!module_name_ok(sys[i]))
			continue;
		rc = ld_exec(l, "INSERT OR IGNORE INTO "
			     "temp.s_modules (bundle_id, "
			     "name, state) VALUES (?, ?, 'builtin')", "is", l->bid,
			     sys[i]);
		if (!rc)
			rc = module_extra(l, sys[i]);
	}
	free(sys);
	return rc;
}

#define EMPTY_FILTERS "rdma-collect/import/printed-nothing.txt"

/* An import's filters of the module list that printed nothing ("lsmod |
 * grep nvidia_peermem", one command line a line): a module whose lsmod
 * line would have passed one is not loaded.  Said only of the modules a
 * check asks about, as facts module_absent/<name> (the value: the command
 * line that proves it); of any other module nothing is known. */
static int absent_modules(struct ld *l)
{
	static const char *const asked[] = { "nvidia_peermem", "nv_peer_mem" };
	const char *d, *e, *end;
	size_t len = 0, i;
	char line[1024], key[96];
	struct grep_chain g;

	d = br_data(l->b, EMPTY_FILTERS, &len);
	if (!d)
		return 0;
	for (end = d + len; d < end; d = e + 1) {
		e = memchr(d, '\n', (size_t)(end - d));
		if (!e)
			e = end;
		if ((size_t)(e - d) >= sizeof(line))
			continue;
		snprintf(line, sizeof(line), "%.*s", (int)(e - d), d);
		if (grep_chain_parse(line, &g) < 0 ||
		    (strcmp(g.source, "lsmod") && strcmp(g.source, "/proc/modules")))
			continue;
		for (i = 0; i < ARRAY_SIZE(asked); i++) {
			snprintf(key, sizeof(key), "module_absent/%s", asked[i]);
			if (grep_chain_passes(&g, asked[i]) &&
			    ld_exec(l, "INSERT OR IGNORE INTO "
				    "temp.s_facts (bundle_id, "
				    "key, value, path) VALUES (?, ?, ?, ?)", "isss",
				    l->bid, key, line, EMPTY_FILTERS) < 0)
				return -1;
		}
	}
	return 0;
}

static int devnodes(struct ld *l)
{
	struct jv *j = br_json(l->b, "rdma-collect/devnodes.json");
	const struct jv *ents = jget(j, "entries");
	size_t i;
	int rc = 0;

	for (i = 0; i < jlen(ents) && !rc; i++) {
		const struct jv *e = jat(ents, i);
		const char *name = jstr(e, "name");

		if (!name || !*name)
			continue;
		rc = ld_exec(l, "INSERT OR REPLACE INTO "
			     "temp.s_devnodes (bundle_id, "
			     "name, type, mode, uid, gid, user, \"group\", major, "
			     "minor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			     "isssNNssNN", l->bid, name, jstr(e, "type"),
			     jstr(e, "mode"), jint(e, "uid", -1), jint(e, "gid", -1),
			     jstr(e, "user"), jstr(e, "group"),
			     jint(e, "major", -1), jint(e, "minor", -1));
	}
	jfree(j);
	return rc;
}

static int cdevs(struct ld *l, const char *cls, const char *kind)
{
	const char **names;
	size_t n, i;
	int rc = 0;

	n = br_list(l->b, cls, &names);
	for (i = 0; i < n && !rc; i++) {
		char p[PATH_MAX], ibdev[64], port[16], dev[32];

		snprintf(p, sizeof(p), "%s/%s/ibdev", cls, names[i]);
		if (!br_line(l->b, p, ibdev, sizeof(ibdev)) || !*ibdev)
			continue;	/* abi_version and the like */
		{
			char q[PATH_MAX];

			snprintf(q, sizeof(q), "%s/%s/port", cls, names[i]);
			if (!br_line(l->b, q, port, sizeof(port)))
				port[0] = 0;
			snprintf(q, sizeof(q), "%s/%s/dev", cls, names[i]);
			if (!br_line(l->b, q, dev, sizeof(dev)))
				dev[0] = 0;
		}
		rc = ld_exec(l, "INSERT OR REPLACE INTO "
			     "temp.s_rdma_cdevs (bundle_id, "
			     "name, class, ibdev, port, dev, path) VALUES (?, ?, ?, ?, "
			     "?, ?, ?)", "isssNss", l->bid, names[i], kind, ibdev,
			     port[0] ? decnum(port, -1) : (int64_t)-1,
			     dev[0] ? dev : NULL, p);
	}
	free(names);
	return rc;
}

int load_kernel(struct ld *l)
{
	if (modules(l) < 0 || absent_modules(l) < 0 || devnodes(l) < 0 ||
	    cdevs(l, "sys/class/infiniband_verbs", "verbs") < 0 ||
	    cdevs(l, "sys/class/infiniband_mad", "mad") < 0)
		return -1;
	return 0;
}
