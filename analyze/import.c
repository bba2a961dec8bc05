/* import: sos reports, sysinfo-snapshots, ibdiagnet folders and pasted
 * outputs read as bundles (see import.h): detection, the builder, the
 * generic rule, the synthesized manifest, the bundle_r handed over. */
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "buf.h"
#include "bundle.h"
#include "import.h"
#include "json.h"
#include "log.h"
#include "sha256.h"
#include "util.h"

/* Until imp-ib.c, imp-host.c, imp-ibdiag.c and imp-sysinfo.c land (other
 * hands write them), empty weak tables and handlers keep the build whole
 * in any order; their own definitions replace these at link time. */
__attribute__((weak)) const struct imp_parser imp_parsers_ib[] = { { 0 } };
__attribute__((weak)) const struct imp_parser imp_parsers_host[] = { { 0 } };
__attribute__((weak)) const struct imp_parser imp_parsers_fabric[] = { { 0 } };

__attribute__((weak)) int imp_kind_sysinfo(struct imp *im,
					   const struct imp_in *v, size_t n)
{
	(void)v;
	(void)n;
	imp_note(im, "this rdma-analyze has no sysinfo-snapshot reader");
	return 0;
}

__attribute__((weak)) int imp_kind_ibdiag(struct imp *im,
					  const struct imp_in *v, size_t n)
{
	(void)v;
	(void)n;
	imp_note(im, "this rdma-analyze has no ibdiagnet reader");
	return 0;
}

/* the collector's registry (collect/registry.c), in its order: the
 * manifest lists every source, as a bundle's does */
static const char *const reg_sources[] = {
	"identity", "pci", "modules", "devnodes", "sysfs", "verbs", "libs",
	"mad", "netdev", "klog", "limits", "iommu", "nccl", "attach",
	"commands", "fabric", "sample",
};
#define NSRC ARRAY_SIZE(reg_sources)

static const char *const ident_keys[] = {
	"hostname", "machine_id", "boot_id", "kernel_release", "collected_at",
	"uptime_s",
};
#define NIDENT ARRAY_SIZE(ident_keys)

#define MAX_NOTES 200
#define MAX_HOPS 40
#define ORIGINS "rdma-collect/import/origins.tsv"

struct ient {
	char *path;
	char *data;		/* bytes or link target, NUL-terminated */
	size_t len;
	int type;		/* BR_FILE, BR_DIR, BR_LINK */
	int strength;
	char *origin;		/* NULL for folders the builder made */
};

struct imp {
	const struct br_limits *lim;
	const char *kind;
	struct ient *v;
	size_t n, alloc;
	size_t *slot;		/* open addressing: index + 1, 0 empty */
	size_t nslot;
	size_t total;
	struct {
		char status[16];
		char *reason;
		int set;	/* by imp_source: not overridden */
	} src[NSRC];
	char *ident[NIDENT];
	char **notes;
	size_t nnotes, lost_notes;
	int failed;
	char err[256];
};

/* --- names --- */

char *imp_normalize(const char *name, char *out, size_t n)
{
	const char *base = strrchr(name, '/');
	static const char *const ext[] = { ".txt", ".out", ".log" };
	size_t len, i, k = 0;

	base = base ? base + 1 : name;
	len = strlen(base);
	for (i = 0; i < ARRAY_SIZE(ext); i++) {
		size_t el = strlen(ext[i]);

		if (len > el && !strcasecmp(base + len - el, ext[i])) {
			len -= el;
			break;
		}
	}
	if (!n)
		return out;
	/* as sos mangles a command into a file name: what is not a word
	 * character, '-' or '.' becomes '_', runs of them one */
	for (i = 0; i < len && k + 1 < n; i++) {
		unsigned char c = (unsigned char)base[i];

		if (!isalnum(c) && c != '-' && c != '.')
			c = '_';
		if (c == '_' && k && out[k - 1] == '_')
			continue;
		out[k++] = (char)c;
	}
	while (k && out[k - 1] == '_')
		k--;
	out[k] = 0;
	return out;
}

/* does name match pattern (at most one '*', one or more characters)?
 * pattern is [p, pe); the '*' part goes to arg */
static int match_one(const char *p, const char *pe, const char *name,
		     char *arg, size_t argn)
{
	const char *star = memchr(p, '*', (size_t)(pe - p));
	size_t nl = strlen(name), pre, post;

	if (!star)
		return (size_t)(pe - p) == nl && !memcmp(p, name, nl);
	pre = (size_t)(star - p);
	post = (size_t)(pe - star - 1);
	if (nl < pre + post + 1 || memcmp(name, p, pre) ||
	    memcmp(name + nl - post, star + 1, post))
		return 0;
	snprintf(arg, argn, "%.*s", (int)(nl - pre - post), name + pre);
	return 1;
}

static int match(const char *names, const char *name, char *arg, size_t argn)
{
	const char *p = names;

	for (;;) {
		const char *e = strchrnul(p, '|');

		arg[0] = 0;
		if (match_one(p, e, name, arg, argn))
			return 1;
		if (!*e)
			return 0;
		p = e + 1;
	}
}

/* a bundle path the builder accepts: relative, no empty, "." or ".."
 * parts, no control characters, within the path limit */
static int path_ok(const struct imp *im, const char *p)
{
	const char *s = p, *e;
	size_t n = strlen(p), i;

	if (!n || n >= im->lim->max_path || p[0] == '/' || p[n - 1] == '/')
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
			return 0;
	for (;;) {
		e = strchrnul(s, '/');
		if (e == s || (e - s == 1 && s[0] == '.') ||
		    (e - s == 2 && s[0] == '.' && s[1] == '.'))
			return 0;
		if (!*e)
			return 1;
		s = e + 1;
	}
}

/* --- the index --- */

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static struct ient *find(const struct imp *im, const char *path)
{
	size_t i;

	if (!im->nslot)
		return NULL;
	for (i = hash(path) & (im->nslot - 1); im->slot[i];
	     i = (i + 1) & (im->nslot - 1))
		if (!strcmp(im->v[im->slot[i] - 1].path, path))
			return &im->v[im->slot[i] - 1];
	return NULL;
}

static void index_add(struct imp *im, size_t idx)
{
	size_t i;

	if ((im->n + 1) * 2 > im->nslot) {
		size_t k;

		free(im->slot);
		im->nslot = im->nslot ? im->nslot * 2 : 1024;
		im->slot = xcalloc(im->nslot, sizeof(*im->slot));
		for (k = 0; k < im->n; k++)
			if (k != idx)
				index_add(im, k);
	}
	for (i = hash(im->v[idx].path) & (im->nslot - 1); im->slot[i];
	     i = (i + 1) & (im->nslot - 1))
		;
	im->slot[i] = idx + 1;
}

static int fail(struct imp *im, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct imp *im, const char *fmt, ...)
{
	va_list ap;

	if (!im->failed) {
		va_start(ap, fmt);
		vsnprintf(im->err, sizeof(im->err), fmt, ap);
		va_end(ap);
	}
	im->failed = 1;
	return -1;
}

static struct ient *new_ent(struct imp *im, const char *path, int type)
{
	struct ient *e;

	if (im->n >= im->lim->max_entries) {
		fail(im, "more than %zu entries", im->lim->max_entries);
		return NULL;
	}
	if (im->n == im->alloc) {
		im->alloc = im->alloc ? im->alloc * 2 : 1024;
		im->v = xrealloc(im->v, im->alloc * sizeof(*im->v));
	}
	e = &im->v[im->n];
	memset(e, 0, sizeof(*e));
	e->path = xstrdup(path);
	e->type = type;
	im->n++;
	index_add(im, im->n - 1);
	return &im->v[im->n - 1];
}

/* "a/./b/../c" -> "a/c" in place; -1 when it climbs out */
static int squash(char *p)
{
	char *out = p, *s = p;

	while (*s) {
		char *e = strchrnul(s, '/');
		size_t l = (size_t)(e - s);

		if (!l || (l == 1 && s[0] == '.')) {
			/* nothing */
		} else if (l == 2 && s[0] == '.' && s[1] == '.') {
			if (out == p)
				return -1;
			while (out > p && out[-1] != '/')
				out--;
			if (out > p)
				out--;
		} else {
			if (out > p)
				*out++ = '/';
			memmove(out, s, l);
			out += l;
		}
		s = *e ? e + 1 : e;
	}
	*out = 0;
	return 0;
}

/* path with the links among its folders replaced by their targets (into
 * out); with follow_last, a link at path itself too.  -1 when it leaves
 * the bundle or loops. */
static int resolve(const struct imp *im, const char *path, int follow_last,
		   char *out, size_t n)
{
	char cur[4096], next[4096];
	int hops = 0;
	size_t i;

	if (check_snprintf(cur, sizeof(cur), "%s", path) < 0)
		return -1;
again:
	for (i = 0; cur[i]; i++) {
		const struct ient *e;
		char save;

		if (cur[i + 1] && cur[i + 1] != '/')
			continue;
		if (!cur[i + 1] && !follow_last)
			break;
		save = cur[i + 1];
		cur[i + 1] = 0;
		e = find(im, cur);
		cur[i + 1] = save;
		if (!e || e->type != BR_LINK)
			continue;
		if (++hops > MAX_HOPS || e->data[0] == '/')
			return -1;
		{
			const char *slash = memrchr(cur, '/', i);

			if (check_snprintf(next, sizeof(next), "%.*s%s%s%s",
					   slash ? (int)(slash - cur) : 0, cur,
					   slash ? "/" : "", e->data,
					   cur + i + 1) < 0 || squash(next) < 0)
				return -1;
		}
		strcpy(cur, next);
		goto again;
	}
	return check_snprintf(out, n, "%s", cur);
}

/* the folders above path, made as folders; -1 when one is a file */
static int make_dirs(struct imp *im, const char *path)
{
	char p[4096];
	char *s;

	snprintf(p, sizeof(p), "%s", path);
	for (s = strchr(p, '/'); s; s = strchr(s + 1, '/')) {
		struct ient *e;

		*s = 0;
		e = find(im, p);
		if (!e) {
			if (!new_ent(im, p, BR_DIR))
				return -1;
			im->v[im->n - 1].data = NULL;
		} else if (e->type != BR_DIR) {
			*s = '/';
			return 1;
		}
		*s = '/';
	}
	return 0;
}

static int put(struct imp *im, const char *path, int type, const char *data,
	       size_t len, const char *origin, enum imp_strength s)
{
	char real[4096];
	struct ient *e;
	int r;

	if (im->failed)
		return -1;
	if (!path_ok(im, path) || resolve(im, path, 0, real, sizeof(real)) < 0 ||
	    !path_ok(im, real)) {
		imp_note(im, "%s: unsafe bundle path '%.120s' left out",
			 origin ? origin : "import", path);
		return 0;
	}
	if (type == BR_FILE && len > im->lim->max_entry)
		return fail(im, "'%.120s' has %zu bytes, more than the %zu MiB "
			    "limit", origin ? origin : real, len,
			    im->lim->max_entry >> 20);
	if ((r = make_dirs(im, real)) < 0)
		return -1;
	if (r) {
		imp_note(im, "%s: '%.120s' is below a file, left out",
			 origin ? origin : "import", real);
		return 0;
	}
	e = find(im, real);
	if (e && e->type == BR_DIR && type != BR_DIR) {
		imp_note(im, "%s: '%.120s' is a folder, left out",
			 origin ? origin : "import", real);
		return 0;
	}
	if (e && (int)s < e->strength)
		return 0;	/* a raw copy stays */
	if (type == BR_FILE && im->total + len > im->lim->max_total)
		return fail(im, "uncompressed size over the limit (%zu MiB in "
			    "all): a decompression bomb?", im->lim->max_total >> 20);
	if (!e && !(e = new_ent(im, real, type)))
		return -1;
	if (e->type == BR_FILE)
		im->total -= e->len;
	free(e->data);
	free(e->origin);
	e->type = type;
	e->data = xstrndup(data, len);
	e->len = len;
	e->strength = s;
	e->origin = origin ? xstrdup(origin) : NULL;
	if (type == BR_FILE)
		im->total += len;
	return 0;
}

int imp_put(struct imp *im, const char *path, const char *data, size_t len,
	    const char *origin, enum imp_strength s)
{
	return put(im, path, BR_FILE, data, len, origin, s);
}

int imp_putf(struct imp *im, const char *origin, const char *path,
	     const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	rc = put(im, path, BR_FILE, b.buf, b.len, origin, IMP_DERIVED);
	buf_release(&b);
	return rc;
}

int imp_link(struct imp *im, const char *path, const char *target,
	     const char *origin)
{
	return put(im, path, BR_LINK, target, strlen(target), origin,
		   IMP_DERIVED);
}

const char *imp_get(const struct imp *im, const char *path, size_t *len)
{
	char real[4096];
	const struct ient *e;

	if (resolve(im, path, 1, real, sizeof(real)) < 0 ||
	    !(e = find(im, real)) || e->type != BR_FILE)
		return NULL;
	if (len)
		*len = e->len;
	return e->data;
}

static int cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

size_t imp_list(const struct imp *im, const char *dir, const char ***names)
{
	char real[4096];
	const char **v = NULL;
	size_t i, n = 0, dl;

	*names = NULL;
	if (resolve(im, dir, 1, real, sizeof(real)) < 0)
		return 0;
	dl = strlen(real);
	for (i = 0; i < im->n; i++) {
		const char *p = im->v[i].path;

		if (strncmp(p, real, dl) || p[dl] != '/' || strchr(p + dl + 1, '/'))
			continue;
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = p + dl + 1;
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_cstr);
	*names = v;
	return n;
}

/* "b1:00.0" or "0000:b1:00.0" in canonical form; -1 if neither */
static int canon_bdf(const char *in, char *out, size_t n)
{
	unsigned dom = 0, bus, dev, fn;
	char tail;

	if (sscanf(in, "%4x:%2x:%2x.%1u%c", &dom, &bus, &dev, &fn, &tail) != 4 &&
	    (dom = 0, sscanf(in, "%2x:%2x.%1u%c", &bus, &dev, &fn, &tail) != 3))
		return -1;
	if (dev > 31 || fn > 7)
		return -1;
	return check_snprintf(out, n, "%04x:%02x:%02x.%u", dom, bus, dev, fn);
}

const char *imp_pci_dir(struct imp *im, const char *bdf, char *out, size_t n)
{
	char b[32], link[128], target[128];

	if (canon_bdf(bdf, b, sizeof(b)) < 0)
		return NULL;
	snprintf(link, sizeof(link), "sys/bus/pci/devices/%s", b);
	/* a raw copy (or an earlier call) knows the real place */
	if (!find(im, link)) {
		/* the root bus is unknown from a tool's text: the function
		 * hangs under a root of its own bus */
		snprintf(target, sizeof(target), "../../../devices/pci%.4s:%.2s/%s",
			 b, b + 5, b);
		if (imp_link(im, link, target, NULL) < 0)
			return NULL;
	}
	if (resolve(im, link, 1, out, n) < 0)
		return NULL;
	return out;
}

int imp_ibdev_pci(struct imp *im, const char *ibdev, const char *bdf,
		  const char *origin)
{
	char dir[1024], link[512], target[1100];

	if (!imp_pci_dir(im, bdf, dir, sizeof(dir))) {
		imp_note(im, "%s: '%.40s' is not a PCI address", origin, bdf);
		return 0;
	}
	if (check_snprintf(link, sizeof(link), "sys/class/infiniband/%s/device",
			   ibdev) < 0)
		return 0;
	/* from sys/class/infiniband/<ibdev>: three folders up */
	snprintf(target, sizeof(target), "../../../%s", dir + 4);
	if (imp_link(im, link, target, origin) < 0)
		return -1;
	/* and the function's own infiniband/<ibdev>, by which the loader
	 * knows the function has its device */
	if (check_snprintf(link, sizeof(link), "%s/infiniband/%s", dir,
			   ibdev) < 0)
		return 0;
	return put(im, link, BR_DIR, "", 0, origin, IMP_DERIVED);
}

void imp_source(struct imp *im, const char *source, const char *status,
		const char *reason)
{
	size_t i;

	for (i = 0; i < NSRC; i++) {
		if (strcmp(reg_sources[i], source))
			continue;
		snprintf(im->src[i].status, sizeof(im->src[i].status), "%s",
			 status);
		free(im->src[i].reason);
		im->src[i].reason = xstrdup(reason ? reason : "");
		im->src[i].set = 1;
		return;
	}
}

/* a source the evidence fed proves present, unless a parser said more */
static void source_seen(struct imp *im, const char *source)
{
	size_t i;

	for (i = 0; source && i < NSRC; i++) {
		if (strcmp(reg_sources[i], source) || im->src[i].set)
			continue;
		snprintf(im->src[i].status, sizeof(im->src[i].status), "ok");
		free(im->src[i].reason);
		im->src[i].reason = xstrdup("");
	}
}

void imp_ident(struct imp *im, const char *key, const char *value)
{
	size_t i;

	if (!value || !*value)
		return;
	for (i = 0; i < NIDENT; i++)
		if (!strcmp(ident_keys[i], key) && !im->ident[i])
			im->ident[i] = xstrdup(value);
}

void imp_note(struct imp *im, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	if (im->nnotes >= MAX_NOTES) {
		im->lost_notes++;
		return;
	}
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	im->notes = xrealloc(im->notes, (im->nnotes + 1) * sizeof(*im->notes));
	im->notes[im->nnotes++] = buf_detach(&b, NULL);
}

/* --- the generic rule --- */

/* raw copies of node files, and the collector source they belong to */
static const struct {
	const char *prefix, *source;
} raw_sources[] = {
	{ "proc/modules", "modules" },
	{ "sys/module/", "modules" },
	{ "sys/class/infiniband/", "sysfs" },
	{ "sys/class/infiniband_verbs/", "sysfs" },
	{ "sys/class/infiniband_mad/", "sysfs" },
	{ "sys/bus/pci/devices/", "pci" },
	{ "sys/class/net/", "netdev" },
	{ "etc/security/limits", "limits" },
	{ "proc/meminfo", "limits" },
	{ "sys/kernel/mm/hugepages/", "limits" },
	{ "sys/class/iommu/", "iommu" },
	{ "sys/kernel/iommu_groups/", "iommu" },
	{ "proc/sys/kernel/hostname", "identity" },
	{ "proc/sys/kernel/osrelease", "identity" },
	{ "proc/sys/kernel/random/boot_id", "identity" },
	{ "etc/machine-id", "identity" },
};

static int is_raw(const char *name)
{
	static const char *const tops[] = { "sys/", "proc/", "etc/", "dev/" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tops); i++)
		if (starts_with(name, tops[i]))
			return 1;
	return 0;
}

static void raw_seen(struct imp *im, const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(raw_sources); i++)
		if (starts_with(name, raw_sources[i].prefix))
			source_seen(im, raw_sources[i].source);
}

int imp_feed(struct imp *im, const char *name, const char *data, size_t len)
{
	static const struct imp_parser *const tables[] = {
		imp_parsers_ib, imp_parsers_host, imp_parsers_fabric,
	};
	char norm[256], arg[256];
	const char *refused = NULL;
	size_t t;

	if (im->failed)
		return -1;
	if (is_raw(name)) {
		if (imp_put(im, name, data, len, name, IMP_RAW) < 0)
			return -1;
		raw_seen(im, name);
		return 0;
	}
	imp_normalize(name, norm, sizeof(norm));
	for (t = 0; t < ARRAY_SIZE(tables); t++) {
		const struct imp_parser *p;

		for (p = tables[t]; p->tool; p++) {
			int rc;

			if (!p->names || !p->parse ||
			    !match(p->names, norm, arg, sizeof(arg)))
				continue;
			rc = p->parse(im, data, len, name, *arg ? arg : NULL);
			if (rc < 0 || im->failed)
				return fail(im, "%s: the %s reader failed", name,
					    p->tool);
			if (!rc) {
				source_seen(im, p->source);
				return 0;
			}
			refused = p->tool;
		}
	}
	if (refused)
		imp_note(im, "%s: not recognized as %s output", name, refused);
	return 1;
}

/* --- kinds --- */

static int has_parser(const char *name)
{
	const struct imp_parser *const all[] = {
		imp_parsers_ib, imp_parsers_host, imp_parsers_fabric,
	};
	char norm[256], arg[256];
	size_t t;

	imp_normalize(name, norm, sizeof(norm));
	for (t = 0; t < ARRAY_SIZE(all); t++) {
		const struct imp_parser *p;

		for (p = all[t]; p->tool; p++)
			if (p->names && match(p->names, norm, arg, sizeof(arg)))
				return 1;
	}
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* the kind, from the names alone (content, never a flag) */
static const char *kind_of(const struct imp_input *in)
{
	size_t i, any = 0;
	const char *top = in->top ? in->top : "";

	for (i = 0; i < in->n; i++) {
		const char *nm = in->v[i].name;

		/* an rdma-collect bundle, unpacked or in a folder of them, or
		 * a node tree for --root, is no import */
		if (!strcmp(nm, BUNDLE_MANIFEST) || ends_with(nm, BUNDLE_SUFFIX) ||
		    starts_with(nm, BUNDLE_RESERVED "/"))
			return NULL;
		if (starts_with(nm, "sos_commands/") ||
		    starts_with(nm, "sos_reports/") || starts_with(nm, "sos_logs/"))
			return "sos";
		if (starts_with(nm, "commands_txt_output/") ||
		    strstr(nm, "/commands_txt_output/") ||
		    (!strchr(nm, '/') && ends_with(nm, ".html") &&
		     (starts_with(nm, "sysinfo-snapshot") || starts_with(nm, "sr_"))))
			return "sysinfo-snapshot";
		if (ends_with(nm, ".db_csv") &&
		    (!strcmp(nm, "ibdiagnet2.db_csv") ||
		     ends_with(nm, "/ibdiagnet2.db_csv")))
			return "ibdiagnet";
	}
	if (starts_with(top, "sysinfo-snapshot") || starts_with(top, "sr_"))
		return in->n ? "sysinfo-snapshot" : NULL;
	/* pasted outputs: a raw copy alone (a node tree) is not one */
	for (i = 0; i < in->n && !any; i++)
		any = !is_raw(in->v[i].name) && has_parser(in->v[i].name);
	return any ? "outputs" : NULL;
}

/* the kind of path, or NULL; read < 0 when the import reader refused it
 * (err says why) */
static const char *detect(const char *path, int *read, char *err,
			  size_t errlen)
{
	struct imp_input in;
	const char *kind;

	*read = 0;
	/* a bundle is br_open's, whatever it holds */
	if (ends_with(path, BUNDLE_SUFFIX))
		return NULL;
	if ((*read = imp_read(path, NULL, 1, &in, err, errlen)) < 0)
		return NULL;
	kind = kind_of(&in);
	imp_input_release(&in);
	return kind;
}

const char *imp_detect(const char *path)
{
	char err[256];
	int read;

	return detect(path, &read, err, sizeof(err));
}

/* a kind as the skip reasons name it */
static const char *kind_text(const char *kind)
{
	if (!strcmp(kind, "sos"))
		return "sos report";
	if (!strcmp(kind, "ibdiagnet"))
		return "ibdiagnet output";
	if (!strcmp(kind, "outputs"))
		return "folder of command outputs";
	return kind;
}

/* --- identity from raw files --- */

static const struct imp_in *input(const struct imp_input *in, const char *name)
{
	size_t lo = 0, hi = in->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(in->v[mid].name, name);

		if (!c)
			return &in->v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* the first line of an input file, trimmed */
static const char *first_line(const struct imp_input *in, const char *name,
			      char *out, size_t n)
{
	const struct imp_in *f = input(in, name);
	size_t k = 0;

	if (!f)
		return NULL;
	while (k < f->len && f->data[k] != '\n' && k + 1 < n) {
		out[k] = f->data[k];
		k++;
	}
	while (k && isspace((unsigned char)out[k - 1]))
		k--;
	out[k] = 0;
	return *out ? out : NULL;
}

/* "10:04:01 up 3 days,  2:03,  1 user, ..." -> seconds; -1 if not that */
static double uptime_text(const char *s)
{
	const char *up = strstr(s, " up ");
	double t = 0;
	char *e;
	long v;

	if (!up)
		return -1;
	v = strtol(up + 4, &e, 10);
	if (e == up + 4 || v < 0)
		return -1;
	if (starts_with(e, " day")) {
		t = v * 86400.0;
		e = strchr(e, ',');
		if (!e)
			return t;
		v = strtol(e + 1, &e, 10);
		if (v < 0)
			return -1;
	}
	if (*e == ':')
		t += v * 3600.0 + strtol(e + 1, NULL, 10) * 60.0;
	else if (starts_with(e, " min"))
		t += v * 60.0;
	return t;
}

static void raw_identity(struct imp *im, const struct imp_input *in)
{
	static const char *const hostnames[] = {
		"proc/sys/kernel/hostname", "etc/hostname",
		"sos_commands/host/hostname", "sos_commands/general/hostname",
		"hostname",
	};
	static const char *const unames[] = {
		"sos_commands/kernel/uname_-a", "uname", "uname -a", "uname_-a",
	};
	static const char *const uptimes[] = {
		"sos_commands/host/uptime", "uptime", "uptime.txt",
	};
	char line[512], rel[256];
	size_t i;
	struct tm tm;

	for (i = 0; i < ARRAY_SIZE(hostnames); i++)
		imp_ident(im, "hostname", first_line(in, hostnames[i], line,
						     sizeof(line)));
	/* sos 4.0 has the copy its dbus plugin keeps (the same file) */
	imp_ident(im, "machine_id", first_line(in, "etc/machine-id", line,
					       sizeof(line)));
	imp_ident(im, "machine_id", first_line(in, "var/lib/dbus/machine-id",
					       line, sizeof(line)));
	imp_ident(im, "boot_id", first_line(in, "proc/sys/kernel/random/boot_id",
					    line, sizeof(line)));
	imp_ident(im, "kernel_release", first_line(in, "proc/sys/kernel/osrelease",
						   line, sizeof(line)));
	for (i = 0; i < ARRAY_SIZE(unames); i++)
		if (first_line(in, unames[i], line, sizeof(line)) &&
		    sscanf(line, "Linux %*s %255s", rel) == 1)
			imp_ident(im, "kernel_release", rel);
	if (first_line(in, "proc/uptime", line, sizeof(line)))
		imp_ident(im, "uptime_s", strtok(line, " "));
	/* what uptime prints, in sos or pasted */
	for (i = 0; i < ARRAY_SIZE(uptimes); i++)
		if (first_line(in, uptimes[i], line, sizeof(line)) &&
		    uptime_text(line) >= 0) {
			snprintf(rel, sizeof(rel), "%.0f", uptime_text(line));
			imp_ident(im, "uptime_s", rel);
		}
	memset(&tm, 0, sizeof(tm));
	if (first_line(in, "sos_commands/date/date_--utc", line, sizeof(line)) &&
	    strptime(line, "%a %b %e %H:%M:%S UTC %Y", &tm)) {
		strftime(rel, sizeof(rel), "%Y-%m-%dT%H:%M:%SZ", &tm);
		imp_ident(im, "collected_at", rel);
	}
}

/* --- the manifest and the bundle --- */

static const char *ident(const struct imp *im, const char *key)
{
	size_t i;

	for (i = 0; i < NIDENT; i++)
		if (!strcmp(ident_keys[i], key))
			return im->ident[i];
	return NULL;
}

static void write_manifest(struct imp *im, const char *file, size_t ninputs,
			   size_t unused, struct buf *out)
{
	struct json j;
	const char *up = ident(im, "uptime_s"), *base;
	char num[64], name[1024];
	size_t i, k;
	double u;

	/* the input's own name: "sosreport-x.tar.xz", "case-17/" */
	snprintf(name, sizeof(name), "%s", file);
	for (k = strlen(name); k > 1 && name[k - 1] == '/'; k--)
		name[k - 1] = 0;
	base = strrchr(name, '/');
	base = base && base[1] ? base + 1 : name;
	json_init(&j, out, 1);
	json_obj_open(&j, NULL);
	json_str(&j, "format", BUNDLE_FORMAT);
	json_int(&j, "format_version", BUNDLE_FORMAT_VERSION);
	json_str(&j, "tool", "rdma-analyze import");
	json_str(&j, "tool_version", VERSION);
	json_str(&j, "hostname", ident(im, "hostname"));
	json_str(&j, "boot_id", ident(im, "boot_id"));
	json_str(&j, "machine_id", ident(im, "machine_id"));
	json_str(&j, "collected_at", ident(im, "collected_at"));
	if (up && (u = strtod(up, NULL)) >= 0 && u < 1e10) {
		snprintf(num, sizeof(num), "%.2f", u);
		json_raw(&j, "uptime_s", num);
	} else {
		json_null(&j, "uptime_s");
	}
	json_str(&j, "kernel_release", ident(im, "kernel_release"));
	json_null(&j, "root");
	json_bool(&j, "as_root", 0);
	json_obj_open(&j, "import");
	json_str(&j, "kind", im->kind);
	json_str(&j, "input", base);
	json_int(&j, "files", (int64_t)ninputs);
	json_int(&j, "unused", (int64_t)unused);
	json_str(&j, "origins", ORIGINS);
	json_arr_open(&j, "notes");
	for (i = 0; i < im->nnotes; i++)
		json_str(&j, NULL, im->notes[i]);
	if (im->lost_notes) {
		snprintf(num, sizeof(num), "%zu more notes left out",
			 im->lost_notes);
		json_str(&j, NULL, num);
	}
	json_arr_close(&j);
	json_obj_close(&j);
	json_arr_open(&j, "sources");
	for (i = 0; i < NSRC; i++) {
		json_obj_open(&j, NULL);
		json_str(&j, "name", reg_sources[i]);
		json_str(&j, "status", im->src[i].status);
		json_str(&j, "reason", im->src[i].reason);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_obj_close(&j);
	json_end(&j);
}

/* which input file each entry came from: "path TAB origin TAB raw|derived"
 * lines (paths have no control characters) */
static void write_origins(const struct imp *im, struct buf *out)
{
	size_t i;

	for (i = 0; i < im->n; i++)
		if (im->v[i].origin && im->v[i].type != BR_DIR)
			buf_addf(out, "%s\t%s\t%s\n", im->v[i].path,
				 im->v[i].origin, im->v[i].strength == IMP_RAW ?
				 "raw" : "derived");
}

static int cmp_ient(const void *a, const void *b)
{
	return strcmp(((const struct ient *)a)->path,
		      ((const struct ient *)b)->path);
}

/* the entries as br_open gives them: sorted, in one allocation (the
 * bundle's `tar`, which br_free releases) */
static struct bundle_r *to_bundle(struct imp *im, const char *file,
				  const unsigned char sum[32], size_t size,
				  size_t ignored, char *err, size_t errlen)
{
	struct bundle_r *b = xcalloc(1, sizeof(*b));
	size_t i;
	char jerr[160];

	if (im->n)
		qsort(im->v, im->n, sizeof(*im->v), cmp_ient);
	b->v = xcalloc(im->n ? im->n : 1, sizeof(*b->v));
	for (i = 0; i < im->n; i++) {
		const struct ient *e = &im->v[i];
		struct br_entry *o = &b->v[i];

		o->path = e->path;
		o->data = e->data;
		o->len = e->len;
		o->type = e->type;
		if (e->type == BR_FILE)
			b->total += e->len;
	}
	b->n = im->n;
	br_pack(b);
	b->ignored = ignored;
	b->file = xstrdup(file);
	b->size = size;
	b->format_version = BUNDLE_FORMAT_VERSION;
	b->cache = xcalloc(1, sizeof(*b->cache));
	for (i = 0; i < 32; i++)
		snprintf(b->sha256 + 2 * i, 3, "%02x", sum[i]);
	for (i = 0; i < b->n; i++) {
		if (strcmp(b->v[i].path, BUNDLE_MANIFEST))
			continue;
		b->manifest = jparse(b->v[i].data, b->v[i].len, jerr,
				     sizeof(jerr));
		break;
	}
	if (!b->manifest) {
		snprintf(err, errlen, "cannot build the manifest: %s", jerr);
		br_free(b);
		return NULL;
	}
	return b;
}

static void imp_release(struct imp *im)
{
	size_t i;

	for (i = 0; i < im->n; i++) {
		free(im->v[i].path);
		free(im->v[i].data);
		free(im->v[i].origin);
	}
	free(im->v);
	free(im->slot);
	for (i = 0; i < NSRC; i++)
		free(im->src[i].reason);
	for (i = 0; i < NIDENT; i++)
		free(im->ident[i]);
	for (i = 0; i < im->nnotes; i++)
		free(im->notes[i]);
	free(im->notes);
}

/* the identity: the sorted input names and bytes (links: their target),
 * so the same report read twice, from an archive or unpacked, is one */
static void identity_sum(const struct imp_input *in, unsigned char sum[32])
{
	struct sha256_ctx c;
	size_t i;

	sha256_init(&c);
	for (i = 0; i < in->n; i++) {
		sha256_update(&c, in->v[i].name, strlen(in->v[i].name) + 1);
		sha256_update(&c, in->v[i].data, in->v[i].len);
		sha256_update(&c, "\n", 1);
	}
	for (i = 0; i < in->nlinks; i++) {
		sha256_update(&c, "l", 1);
		sha256_update(&c, in->links[i].name, strlen(in->links[i].name) + 1);
		sha256_update(&c, in->links[i].data, in->links[i].len + 1);
	}
	sha256_final(&c, sum);
}

static int feed_all(struct imp *im, const struct imp_input *in,
		    size_t *unused)
{
	size_t i;
	int rc;

	/* links first: a raw copy's folders may be links (sos keeps
	 * sys/class/net/<if> as the kernel has it) */
	for (i = 0; i < in->nlinks; i++) {
		if (!is_raw(in->links[i].name))
			continue;
		if (put(im, in->links[i].name, BR_LINK, in->links[i].data,
			in->links[i].len, in->links[i].name, IMP_RAW) < 0)
			return -1;
		raw_seen(im, in->links[i].name);
	}
	if (!strcmp(im->kind, "sysinfo-snapshot"))
		return imp_kind_sysinfo(im, in->v, in->n);
	if (!strcmp(im->kind, "ibdiagnet"))
		return imp_kind_ibdiag(im, in->v, in->n);
	for (i = 0; i < in->n; i++) {
		rc = imp_feed(im, in->v[i].name, in->v[i].data, in->v[i].len);
		if (rc < 0)
			return -1;
		if (rc > 0) {
			/* a sos report holds thousands of files rdma-analyze
			 * has no use for: counted, the pasted ones named */
			if (!strcmp(im->kind, "outputs"))
				imp_note(im, "%s: no reader for this file",
					 in->v[i].name);
			(*unused)++;
		}
	}
	return 0;
}

/* mlx5_N devices and the ConnectX functions, when no input names which
 * is which (sos runs neither ibdev2netdev nor copies sysfs): paired in
 * bus order, as mlx5_core probes and mlx5_ib names them, only when the
 * counts agree; the note says so */
static int pair_devices(struct imp *im)
{
	const char **devs = NULL, **fns = NULL, **hcas = NULL;
	size_t nd, nf, nh = 0, i;
	char p[512];
	int rc = 0;

	nd = imp_list(im, "sys/class/infiniband", &devs);
	nf = imp_list(im, "sys/bus/pci/devices", &fns);
	for (i = 0; i < nd; i++) {
		snprintf(p, sizeof(p), "sys/class/infiniband/%s/device", devs[i]);
		if (find(im, p) || strncmp(devs[i], "mlx5_", 5))
			goto out;	/* mapped already, or not only mlx5 */
	}
	hcas = xcalloc(nf ? nf : 1, sizeof(*hcas));
	for (i = 0; i < nf; i++) {
		const char *v, *c;

		snprintf(p, sizeof(p), "sys/bus/pci/devices/%s/vendor", fns[i]);
		v = imp_get(im, p, NULL);
		snprintf(p, sizeof(p), "sys/bus/pci/devices/%s/class", fns[i]);
		c = imp_get(im, p, NULL);
		if (v && c && starts_with(v, "0x15b3") && starts_with(c, "0x02"))
			hcas[nh++] = fns[i];
	}
	if (!nd || nd != nh)
		goto out;
	/* mlx5_0 .. mlx5_<n-1>, by number (mlx5_10 sorts before mlx5_2) */
	for (i = 0; i < nd; i++) {
		snprintf(p, sizeof(p), "sys/class/infiniband/mlx5_%zu", i);
		if (!find(im, p))
			goto out;
	}
	for (i = 0; i < nd && !rc; i++) {
		snprintf(p, sizeof(p), "mlx5_%zu", i);
		rc = imp_ibdev_pci(im, p, hcas[i], "(bus order)");
	}
	imp_note(im, "%zu mlx5 devices paired with the ConnectX PCI functions "
		 "in bus order (no input names the mapping)", nd);
out:
	free(devs);
	free(fns);
	free(hcas);
	return rc;
}

int imp_open(const char *path, const struct br_limits *lim,
	     struct bundle_r **out, char *err, size_t errlen)
{
	struct imp_input in;
	struct imp im;
	struct buf man = BUF_INIT, org = BUF_INIT;
	unsigned char sum[32];
	size_t i, unused = 0;
	int rc = -1;

	*out = NULL;
	if (!lim)
		lim = &br_default_limits;
	if (imp_read(path, lim, 0, &in, err, errlen) < 0)
		return -1;
	memset(&im, 0, sizeof(im));
	im.lim = lim;
	im.kind = kind_of(&in);
	if (!im.kind) {
		snprintf(err, errlen, "neither an rdma-collect bundle nor "
			 "evidence rdma-analyze can import");
		goto out;
	}
	for (i = 0; i < NSRC; i++) {
		snprintf(im.src[i].status, sizeof(im.src[i].status), "absent");
		buf_reset(&man);
		buf_addf(&man, "not in this %s", kind_text(im.kind));
		im.src[i].reason = xstrdup(man.buf);
	}
	raw_identity(&im, &in);
	if (feed_all(&im, &in, &unused) < 0 || im.failed) {
		snprintf(err, errlen, "%s", im.failed ? im.err :
			 "cannot import");
		goto out;
	}
	if (pair_devices(&im) < 0) {
		snprintf(err, errlen, "%s", im.err);
		goto out;
	}
	if (in.ignored)
		imp_note(&im, "%zu entries left out (unsafe names, hard links, "
			 "devices, FIFOs)", in.ignored);
	if (!ident(&im, "collected_at") && in.mtime > 0) {
		time_t t = (time_t)in.mtime;
		struct tm tm;
		char when[32];

		gmtime_r(&t, &tm);
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
		imp_ident(&im, "collected_at", when);
		imp_note(&im, "collected_at: the newest file's time");
	}
	write_origins(&im, &org);
	if (put(&im, ORIGINS, BR_FILE, org.buf, org.len, NULL, IMP_RAW) < 0) {
		snprintf(err, errlen, "%s", im.err);
		goto out;
	}
	buf_reset(&man);
	write_manifest(&im, path, in.n, unused, &man);
	if (put(&im, BUNDLE_MANIFEST, BR_FILE, man.buf, man.len, NULL,
		IMP_RAW) < 0) {
		snprintf(err, errlen, "%s", im.err);
		goto out;
	}
	identity_sum(&in, sum);
	*out = to_bundle(&im, path, sum, in.bytes, in.ignored, err, errlen);
	rc = *out ? 0 : -1;
out:
	buf_release(&man);
	buf_release(&org);
	imp_release(&im);
	imp_input_release(&in);
	return rc;
}

int imp_or_br_open(const char *path, const struct br_limits *lim,
		   struct bundle_r **out, char *err, size_t errlen)
{
	char ierr[256];
	int read;

	if (detect(path, &read, ierr, sizeof(ierr)))
		return imp_open(path, lim, out, err, errlen);
	if (!br_open(path, lim, out, err, errlen))
		return 0;
	/* neither: an archive the import reader refused (a huge entry, too
	 * many) says more than "not a zstd-compressed tar" */
	if (read < 0 && !starts_with(ierr, "not a readable archive") &&
	    !starts_with(ierr, "not a regular file"))
		snprintf(err, errlen, "%s", ierr);
	return -1;
}
