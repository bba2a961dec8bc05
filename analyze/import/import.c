/* import: sos reports, sysinfo-snapshots, ibdiagnet folders and pasted
 * outputs read as bundles (see imp.h): detection, the builder, the
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
#include "grepchain.h"
#include "imp.h"
#include "json.h"
#include "log.h"
#include "sha256.h"
#include "sources.h"
#include "util.h"

static const char *const ident_keys[] = {
	"hostname", "machine_id", "boot_id", "kernel_release", "collected_at",
	"uptime_s",
};
#define NIDENT ARRAY_SIZE(ident_keys)

#define MAX_NOTES 200
#define MAX_HOPS 40
#define ORIGINS "rdma-collect/import/origins.tsv"
#define EMPTY_FILTERS "rdma-collect/import/printed-nothing.txt"

/* what became of one input file, or of one part of a pasted one */
struct iput {
	char *file;
	unsigned line;		/* the part's first line; 0: the whole file */
	char *command;		/* its prompt's command line, or NULL */
	const char *reader;	/* the tool whose reader took it, or NULL */
	const char *status;	/* read, partial, unread */
	char *reason;		/* why not (all of it) */
	int named;		/* a reader's name pattern matched it */
	int empty;		/* read, and it showed nothing (imp_empty) */
};

#define MAX_INPUTS 2000

struct ient {
	char *path;
	char *data;		/* bytes or link target, NUL-terminated */
	size_t len;
	int type;		/* BR_FILE, BR_DIR, BR_LINK */
	int strength;
	char *origin;		/* NULL for folders the builder made */
};

struct imp_kind;

struct imp {
	const struct br_limits *lim;
	const char *kind;
	const struct imp_kind *kd;
	struct ient *v;
	size_t n, alloc;
	size_t *slot;		/* open addressing: index + 1, 0 empty */
	size_t nslot;
	size_t total;
	struct {
		char status[16];
		char *reason;
		int set;	/* by imp_source: not overridden */
	} src[SOURCE_NR];	/* the manifest lists every source, as a
				 * bundle's does (include/sources.h) */
	char *ident[NIDENT];
	char **notes;
	size_t nnotes, lost_notes;
	struct iput *inputs;	/* what became of each input (part) */
	size_t ninputs, lost_inputs;
	struct iput *cur;	/* the one being parsed */
	size_t nraw;		/* raw copies taken */
	int content;		/* readers chosen by content too (outputs) */
	int modules_whole;	/* a module list no filter cut was read */
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

static struct ient *find(const struct imp *im, const char *path)
{
	size_t i;

	if (!im->nslot)
		return NULL;
	for (i = fnv1a_str(FNV1A_INIT, path) & (im->nslot - 1); im->slot[i];
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
	i = fnv1a_str(FNV1A_INIT, im->v[idx].path) & (im->nslot - 1);
	while (im->slot[i])
		i = (i + 1) & (im->nslot - 1);
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

int imp_dir(struct imp *im, const char *path, const char *origin)
{
	return put(im, path, BR_DIR, "", 0, origin, IMP_DERIVED);
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

const char *imp_get_origin(const struct imp *im, const char *path)
{
	char real[4096];
	const struct ient *e;

	if (resolve(im, path, 1, real, sizeof(real)) < 0 ||
	    !(e = find(im, real)) || !e->origin)
		return "";
	return e->origin;
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

void imp_source(struct imp *im, enum source_id source, const char *status,
		const char *reason)
{
	if ((unsigned)source >= SOURCE_NR)
		return;
	snprintf(im->src[source].status, sizeof(im->src[source].status), "%s",
		 status);
	free(im->src[source].reason);
	im->src[source].reason = xstrdup(reason ? reason : "");
	im->src[source].set = 1;
}

/* a source the evidence fed proves present, unless a parser said more */
static void source_seen(struct imp *im, enum source_id source)
{
	if ((unsigned)source >= SOURCE_NR || im->src[source].set)
		return;
	snprintf(im->src[source].status, sizeof(im->src[source].status), "ok");
	free(im->src[source].reason);
	im->src[source].reason = xstrdup("");
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
	const char *prefix;
	enum source_id source;
} raw_sources[] = {
	{ "proc/modules", SOURCE_MODULES },
	{ "sys/module/", SOURCE_MODULES },
	{ "sys/class/infiniband/", SOURCE_SYSFS },
	{ "sys/class/infiniband_verbs/", SOURCE_SYSFS },
	{ "sys/class/infiniband_mad/", SOURCE_SYSFS },
	{ "sys/bus/pci/devices/", SOURCE_PCI },
	{ "sys/class/net/", SOURCE_NETDEV },
	{ "etc/security/limits", SOURCE_LIMITS },
	{ "proc/meminfo", SOURCE_LIMITS },
	{ "sys/kernel/mm/hugepages/", SOURCE_LIMITS },
	{ "sys/class/iommu/", SOURCE_IOMMU },
	{ "sys/kernel/iommu_groups/", SOURCE_IOMMU },
	{ "proc/sys/kernel/hostname", SOURCE_IDENTITY },
	{ "proc/sys/kernel/osrelease", SOURCE_IDENTITY },
	{ "proc/sys/kernel/random/boot_id", SOURCE_IDENTITY },
	{ "etc/machine-id", SOURCE_IDENTITY },
	{ "proc/cmdline", SOURCE_IDENTITY },
	{ "etc/nccl.conf", SOURCE_NCCL },
};

/* a process's limits ("cat /proc/3844/limits"), as --pid keeps them */
static int pid_limits(const char *name)
{
	size_t k;

	return starts_with(name, "proc/") &&
	       (k = strspn(name + 5, "0123456789")) &&
	       !strcmp(name + 5 + k, "/limits");
}

/* is a raw copy of name evidence some loader reads?  The sources' files
 * above, a process's limits, and files read for no one source */
static int raw_known(const char *name)
{
	static const char *const more[] = {
		"sys/devices/", "dev/infiniband", "proc/sys/kernel/",
	};
	size_t i;

	if (pid_limits(name))
		return 1;
	for (i = 0; i < ARRAY_SIZE(raw_sources); i++)
		if (starts_with(name, raw_sources[i].prefix))
			return 1;
	for (i = 0; i < ARRAY_SIZE(more); i++)
		if (starts_with(name, more[i]))
			return 1;
	return 0;
}

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

	if (pid_limits(name))
		source_seen(im, SOURCE_LIMITS);
	for (i = 0; i < ARRAY_SIZE(raw_sources); i++)
		if (starts_with(name, raw_sources[i].prefix))
			source_seen(im, raw_sources[i].source);
}

/* --- what became of each input --- */

static struct iput *input_add(struct imp *im, const char *file, unsigned line,
			      const char *command)
{
	struct iput *p;

	if (im->ninputs >= MAX_INPUTS) {
		im->lost_inputs++;
		return NULL;
	}
	im->inputs = xrealloc(im->inputs, (im->ninputs + 1) * sizeof(*p));
	p = &im->inputs[im->ninputs++];
	memset(p, 0, sizeof(*p));
	p->file = xstrdup(file);
	p->line = line;
	p->command = command ? xstrdup(command) : NULL;
	p->status = "unread";
	return p;
}

static void input_reason(struct iput *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void input_reason(struct iput *p, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	if (!p)
		return;
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	free(p->reason);
	p->reason = buf_detach(&b, NULL);
}

void imp_dropped(struct imp *im, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (im->cur) {
		if (!im->cur->reason) {
			im->cur->reason = xstrdup(b.buf);
		} else if (strlen(im->cur->reason) < 400) {
			char *r = xmalloc(strlen(im->cur->reason) + b.len + 3);

			sprintf(r, "%s; %s", im->cur->reason, b.buf);
			free(im->cur->reason);
			im->cur->reason = r;
		}
		im->cur->status = "partial";
	}
	imp_note(im, "%s", b.buf);
	buf_release(&b);
}

void imp_empty(struct imp *im)
{
	if (im->cur)
		im->cur->empty = 1;
}

void imp_reading(struct imp *im, const char *file, const char *tool)
{
	struct iput *in = input_add(im, file, 0, NULL);

	if (in) {
		in->named = 1;
		in->reader = tool;	/* a literal of the readers' table */
	}
	im->cur = in;
}

void imp_read_done(struct imp *im, int rc, const char *why)
{
	struct iput *in = im->cur;

	im->cur = NULL;
	if (!in || rc < 0)
		return;
	if (rc > 0) {
		in->reader = NULL;
		input_reason(in, "%s", why);
	} else if (strcmp(in->status, "partial")) {
		in->status = "read";
	}
}

/* --- the generic rule --- */

/* the first line of a text, trimmed and cut, for a message */
static void first_text_line(const char *t, size_t n, char *out, size_t on)
{
	size_t i = 0, k = 0;

	while (i < n && (t[i] == '\n' || t[i] == ' ' || t[i] == '\t'))
		i++;
	while (i < n && t[i] != '\n' && k + 1 < on && k < 60) {
		unsigned char c = (unsigned char)t[i++];

		out[k++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	out[k] = 0;
}

/* A tool's own failure, as it prints it instead of its output ("Failed
 * to get IB devices list: ...", "ibwarn: ...", "netlink error: ...",
 * "lsmod: command not found"): a short text whose first line says so.
 * The line, cut, in out. */
static int tool_error(const char *t, size_t n, char *out, size_t on)
{
	static const char *const says[] = {
		"Failed to ", "failed to ", "Fatal error", "No IB devices found",
		"No RDMA devices", "netlink error", "Cannot get ", "Cannot open",
		"no stats available", "Operation not supported",
		"command not found", "No such file or directory", "ibwarn:",
		"iberror:", "ibpanic:", "libkmod: ERROR", "Permission denied",
		"No data available", "Unable to ", "not found", "Error: ",
		"ERROR: ", "couldn't ", "Couldn't ",
	};
	size_t i, lines = 0;
	char fl[160];

	for (i = 0; i < n && lines < 40; i++)
		lines += t[i] == '\n';
	if (lines >= 40)
		return 0;	/* a long text is some output, not one error */
	first_text_line(t, n, fl, sizeof(fl));
	for (i = 0; i < ARRAY_SIZE(says); i++)
		if (strstr(fl, says[i])) {
			snprintf(out, on, "%s", fl);
			return 1;
		}
	return 0;
}

/* try one reader on a part; 0 taken, 1 refused, -1 failure */
static int try_reader(struct imp *im, const struct imp_reader *r,
		      struct iput *in, const char *text, size_t len,
		      const char *origin, const char *arg)
{
	int rc;

	im->cur = in;
	rc = r->parse(im, text, len, origin, arg && *arg ? arg : NULL);
	im->cur = NULL;
	if (rc < 0 || im->failed)
		return fail(im, "%s: the %s reader failed", origin, r->tool);
	if (rc)
		return 1;
	source_seen(im, r->source);
	if (in) {
		in->reader = r->tool;
		if (strcmp(in->status, "partial"))
			in->status = "read";
	}
	return 0;
}

/* One text (a whole file, or a part of one) to the reader its command,
 * its name or its content names.  hint: a normalized name or NULL. */
static int dispatch(struct imp *im, struct iput *in, const char *origin,
		    const char *hint, const char *text, size_t len)
{
	const struct imp_reader *r, *named = NULL, *looks = NULL;
	char arg[256], fl_err[128];
	int rc, tried[128] = { 0 }, hinted;
	size_t i;

	/* by name (the command's, else the file's) */
	for (r = imp_readers, i = 0; hint && r->tool; r++, i++) {
		if (!r->names || !match(r->names, hint, arg, sizeof(arg)))
			continue;
		if (i < ARRAY_SIZE(tried))
			tried[i] = 1;
		if (!named)
			named = r;
		if (in)
			in->named = 1;
		if ((rc = try_reader(im, r, in, text, len, origin, arg)) <= 0)
			return rc;
	}
	/* by content: only where every file is meant as evidence (a folder
	 * of outputs, a single file), not the thousands of a sos report */
	for (r = imp_readers, i = 0; im->content && r->tool; r++, i++) {
		if ((i < ARRAY_SIZE(tried) && tried[i]) || !r->recognize ||
		    !r->recognize(text, len))
			continue;
		if (!looks)
			looks = r;
		if ((rc = try_reader(im, r, in, text, len, origin, NULL)) <= 0)
			return rc;
	}
	/* in a sos report a broad name (ethtool_*, ip_*) catches commands no
	 * reader is for (ethtool -k, ip route): one of its thousands of
	 * other files, unless the text does look like the reader's tool */
	/* ethtool_* and ip_* name every ethtool and ip command sos runs:
	 * their failures (ethtool --show-eee: not supported) say nothing */
	hinted = named && (im->content || (strcmp(named->tool, "ethtool") &&
					   strcmp(named->tool, "ip")));
	if (!im->content && named && !looks &&
	    (named->recognize && !named->recognize(text, len))) {
		if (in)
			in->named = 0;
		named = NULL;
	}
	if (in && !in->reason && (im->content || hinted) &&
	    tool_error(text, len, fl_err, sizeof(fl_err))) {
		in->named = 1;
		/* the tool ran and said why it could not: that is read */
		in->status = "failed";
		input_reason(in, "the command failed: '%s'", fl_err);
		return 1;
	}
	if (in && !in->reason) {
		char fl[64];

		first_text_line(text, len, fl, sizeof(fl));
		if (named)
			input_reason(in, "named as %s output, but not in its "
				     "format (first line: '%s'); give %s",
				     named->tool, fl, named->fix);
		else if (looks)
			input_reason(in, "looks like %s output, but its reader "
				     "could not parse it (first line: '%s'); give "
				     "%s", looks->tool, fl, looks->fix);
		else
			input_reason(in, "not recognized as any tool's output "
				     "(first line: '%s'); rdma-analyze reads what "
				     "`rdma-analyze show --list` names, pasted with "
				     "its command line or in a file named after "
				     "its command", fl);
	}
	if (named)
		imp_note(im, "%s: not recognized as %s output", origin,
			 named->tool);
	return named || looks ? 1 : 2;
}

/* "ls [-opts] /sys/class/NAME[/]": the class folder listed, as its
 * bundle path in out; 0, or -1 when cmd is no such listing */
static int class_listing(const char *cmd, char *out, size_t n)
{
	char w[1024], *t, *save, *dir = NULL;

	snprintf(w, sizeof(w), "%s", cmd);
	w[strcspn(w, "|;&><")] = 0;
	t = strtok_r(w, " \t", &save);
	if (t && !strcmp(t, "sudo"))
		t = strtok_r(NULL, " \t", &save);
	if (!t || strcmp(t, "ls"))
		return -1;
	while ((t = strtok_r(NULL, " \t", &save))) {
		if (t[0] == '-')
			continue;
		if (dir)
			return -1;	/* two folders: whose names are whose? */
		dir = t;
	}
	if (!dir || !starts_with(dir, "/sys/class/"))
		return -1;
	t = dir + strlen(dir);
	while (t > dir + 1 && t[-1] == '/')
		*--t = 0;
	if (strchr(dir + 11, '/') || !dir[11] || strstr(dir, "..") ||
	    strchr(dir, '*'))
		return -1;
	return check_snprintf(out, n, "%s", dir + 1) < 0 ? -1 : 0;
}

/* a part's command line as a hint: "ethtool -S ens1" -> its normalized
 * name; a cat of a node file -> that file's bundle path (raw 1); an ls of
 * a sysfs class folder -> that folder (raw 2) */
static const char *command_hint(const char *cmd, char *out, size_t n,
				int *raw)
{
	char name[1024], *s;

	*raw = 0;
	if (!cmd || imp_command_name(cmd, name, sizeof(name)) < 0)
		return NULL;
	if (name[0] == '/' && is_raw(name + 1) && !strstr(name, "..") &&
	    !strchr(name, '*')) {
		snprintf(out, n, "%s", name + 1);
		*raw = 1;
		return out;
	}
	if (!class_listing(cmd, out, n)) {
		*raw = 2;
		return out;
	}
	/* a command line is no path: "ls -la /dev/infiniband/" reads
	 * ls_-la_dev_infiniband, not its last part; a file's name shown
	 * ("cat /tmp/ibstat.txt" -> /tmp/ibstat.txt) is */
	if (name[0] != '/')
		for (s = name; *s; s++)
			if (*s == '/')
				*s = '_';
	return imp_normalize(name, out, n);
}

/* an ls -l line of "." or ".." (ls -a; "./" with -F) */
static int ls_dot(const char *line)
{
	const char *t = strrchr(line, ' ');

	t = t ? t + 1 : line;
	return t != line && (!strcmp(t, ".") || !strcmp(t, "..") ||
			     !strcmp(t, "./") || !strcmp(t, "../"));
}

/* An ls of a class folder (/sys/class/infiniband): every name in it is a
 * device, a folder or a link to one.  Plain ls gives the names (each a
 * folder here), ls -l also the links' targets.  0 when some name was
 * taken, 1 when the text is no such listing, -1 on failure. */
static int class_names(struct imp *im, const char *dir, const char *text,
		       size_t len, const char *origin)
{
	const char *p = text, *end = text + len;
	char line[1024], path[1024], *t, *save, *arrow;
	int names = 0, other = 0, rc;

	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t k = e ? (size_t)(e - p) : (size_t)(end - p);

		snprintf(line, sizeof(line), "%.*s", (int)(k - strspn(p, " \t")),
			 p + strspn(p, " \t"));
		p += k + 1;
		if (!*line || starts_with(line, "total ") || ls_dot(line))
			continue;
		if ((arrow = strstr(line, " -> "))) {
			/* "lrwxrwxrwx 1 root root 0 Nov 29 21:04 mlx5_0 ->
			 * ../../devices/pci0000:00/.../infiniband/mlx5_0" */
			const char *target = arrow + 4;

			*arrow = 0;
			t = strrchr(line, ' ');
			t = t ? t + 1 : line;
			if (line[0] != 'l' || !*t || strchr(t, '/') ||
			    t[0] == '.' || !*target || strchr(target, ' ') ||
			    check_snprintf(path, sizeof(path), "%s/%s", dir, t) < 0) {
				other++;
				continue;
			}
			if (put(im, path, BR_LINK, target, strlen(target), origin,
				IMP_RAW) < 0)
				return -1;
			names++;
			continue;
		}
		if (strchr("dl-", line[0]) && strlen(line) > 10 &&
		    strchr(line, ' ') && strchr("rwx-", line[1])) {
			other++;	/* ls -l of something else: not a device */
			continue;
		}
		for (t = strtok_r(line, " \t", &save); t;
		     t = strtok_r(NULL, " \t", &save)) {
			size_t tl = strlen(t);

			/* ls -F: "mlx5_0@", "mlx5_0/" */
			if (tl > 1 && strchr("@/", t[tl - 1]))
				t[--tl] = 0;
			if (!strcmp(t, ".") || !strcmp(t, ".."))
				continue;
			if (strchr(t, '/') || t[0] == '.' ||
			    check_snprintf(path, sizeof(path), "%s/%s", dir, t) < 0) {
				other++;
				continue;
			}
			rc = put(im, path, BR_DIR, "", 0, origin, IMP_RAW);
			if (rc < 0)
				return -1;
			names++;
		}
	}
	if (other)
		imp_dropped(im, "%d name(s) of the %s listing left out", other,
			    dir);
	return names ? 0 : 1;
}

/* does a reader's name pattern take the hint? */
static int named_hint(const char *hint)
{
	const struct imp_reader *r;
	char arg[256];

	for (r = imp_readers; hint && r->tool; r++)
		if (r->names && match(r->names, hint, arg, sizeof(arg)))
			return 1;
	return 0;
}

/* the reader a raw copy's path is the file of ("cat /proc/cmdline":
 * /proc/cmdline's), so a report names the evidence, not the command */
static const char *raw_reader(const char *path)
{
	const struct imp_reader *r;
	char flat[512], hint[512], arg[256], *s;

	/* the whole path, as a saved copy would be named: proc_cmdline */
	snprintf(flat, sizeof(flat), "%s", path);
	for (s = flat; *s; s++)
		if (*s == '/')
			*s = '_';
	imp_normalize(flat, hint, sizeof(hint));
	for (r = imp_readers; r->tool; r++)
		if (r->names && match(r->names, hint, arg, sizeof(arg)))
			return r->tool;
	if (pid_limits(path))
		return "/proc/PID/limits";
	return starts_with(path, "sys/") ? "sysfs file" :
	       starts_with(path, "proc/") ? "procfs file" : "file copy";
}

/* does grep's command line show whole files ("grep . FILES", "grep -r
 * '' DIR", "grep ^ FILES"), not only the lines a pattern picked? */
static int grep_whole(const char *cmd)
{
	static const char *const whole[] = { ".", "", "^", "$", ".*", "^.*" };
	char w[1024], *t, *save, pat[64];
	size_t i, k;

	snprintf(w, sizeof(w), "%s", cmd);
	w[strcspn(w, "|;&><")] = 0;
	for (t = strtok_r(w, " \t", &save); t && strcmp(t, "grep") &&
	     strcmp(t, "egrep"); t = strtok_r(NULL, " \t", &save))
		;
	while (t && (t = strtok_r(NULL, " \t", &save)) && t[0] == '-' &&
	       t[1])
		if (!strcmp(t, "-e") || !strcmp(t, "--regexp")) {
			t = strtok_r(NULL, " \t", &save);
			break;
		}
	if (!t)
		return 0;
	/* the pattern, its quotes dropped */
	for (i = k = 0; t[i] && k < sizeof(pat) - 1; i++)
		if (t[i] != '"' && t[i] != '\'')
			pat[k++] = t[i];
	pat[k] = 0;
	for (i = 0; i < ARRAY_SIZE(whole); i++)
		if (!strcmp(pat, whole[i]))
			return 1;
	return 0;
}

/* A paste naming the files it shows ("grep . /sys/class/infiniband/
 * * /ports/ * /state", "head FILES"): each file a raw copy, as if it had
 * been cat'ed alone.  0 when some file was taken, 1 when the text is no
 * such paste, 2 when it names only files no check reads, -1 on failure. */
static int named_copies(struct imp *im, struct iput *in, const char *cmd,
			const char *above, size_t alen, const char *text,
			size_t len, const char *origin)
{
	struct imp_named *v;
	size_t n, i;
	unsigned failed;
	int kept = 0, other = 0, rc = 0;
	const char *reader = NULL;

	if (imp_named_files(text, len, above, alen, &v, &n, &failed))
		return 1;
	for (i = 0; i < n && rc >= 0; i++) {
		if (!raw_known(v[i].path) || strstr(v[i].path, "..")) {
			other++;
			continue;
		}
		rc = imp_put(im, v[i].path, v[i].data, v[i].len, origin,
			     IMP_RAW);
		if (rc)
			continue;
		raw_seen(im, v[i].path);
		if (!reader)
			reader = raw_reader(v[i].path);
		kept++;
	}
	if (rc >= 0 && kept) {
		if (other)
			imp_note(im, "%s: %d file(s) no check reads left out",
				 origin, other);
		if (failed)
			imp_note(im, "%s: %u file(s) grep could not read",
				 origin, failed);
		if (in) {
			in->reader = reader;
			in->status = "read";
			if (cmd && !grep_whole(cmd) && strstr(cmd, "grep")) {
				in->status = "partial";
				input_reason(in, "a filtered grep ('%.200s'): "
					     "only the lines it matched are "
					     "known", cmd);
			}
		}
	} else if (rc >= 0 && in) {
		input_reason(in, "copies of %d file(s) no check reads", other);
	}
	imp_named_free(v, n);
	return rc < 0 ? -1 : kept ? 0 : 2;
}

/* a command line that filters what it shows: "lsmod | grep mlx",
 * "grep nvidia_peermem /proc/modules" */
static int filtered(const char *cmd)
{
	char w[64];

	if (strchr(cmd, '|'))
		return 1;
	if (sscanf(cmd, "%63s", w) == 1 && !strcmp(w, "sudo"))
		sscanf(cmd, "%*s %63s", w);
	return !strcmp(w, "grep") || !strcmp(w, "egrep") ||
	       !strcmp(w, "fgrep") || !strcmp(w, "zgrep");
}

#define FILTERED_WHY "a filtered module list"

/* a module list was read from the part whose command is cmd: one a
 * filter showed ("lsmod | grep -E 'Module|mlx'" keeps the header) is
 * partial, unless a whole one was read too */
static void modules_read(struct imp *im, const char *cmd)
{
	const char *reason = im->src[SOURCE_MODULES].reason;
	char why[512];

	if (!cmd || !filtered(cmd)) {
		im->modules_whole = 1;
		if (reason && starts_with(reason, FILTERED_WHY))
			imp_source(im, SOURCE_MODULES, "ok", "");
		return;
	}
	if (im->modules_whole ||
	    !strcmp(im->src[SOURCE_MODULES].status, "partial"))
		return;
	snprintf(why, sizeof(why), FILTERED_WHY " ('%.200s'): only what its "
		 "filter looked for is known", cmd);
	imp_source(im, SOURCE_MODULES, "partial", why);
}

/* A filter of the module list that printed nothing ("lsmod | grep
 * nvidia_peermem"): no loaded module passed it.  That proves absent what
 * it filtered for and nothing else: its command line is kept, one a line,
 * at EMPTY_FILTERS (load-host.c judges it) and the module list is
 * partial.  0 when cmd is no such filter, 1 taken, -1 on failure. */
static int empty_module_filter(struct imp *im, struct iput *in,
			       const char *cmd, const char *origin)
{
	struct grep_chain g;
	struct buf b = BUF_INIT;
	const struct ient *e;
	int rc;

	if (grep_chain_parse(cmd, &g) < 0 || (strcmp(g.source, "lsmod") &&
					      strcmp(g.source, "/proc/modules")))
		return 0;
	e = find(im, EMPTY_FILTERS);
	if (e && e->type == BR_FILE)
		buf_add(&b, e->data, e->len);
	buf_addf(&b, "%s\n", cmd);
	rc = put(im, EMPTY_FILTERS, BR_FILE, b.buf, b.len, origin, IMP_DERIVED);
	buf_release(&b);
	if (rc < 0)
		return -1;
	modules_read(im, cmd);
	if (in) {
		in->reader = "lsmod";
		in->status = "read";
	}
	return 1;
}

static int feed_text(struct imp *im, const char *name, const char *data,
		     size_t len)
{
	struct imp_part *parts = NULL;
	size_t np, i, clen;
	unsigned what;
	char *clean, hint[256], fhint[256], ch[512];
	const char *above;
	int rc = 0, any = 0, raw;
	size_t first, k, alen;

	first = im->ninputs;
	imp_normalize(name, fhint, sizeof(fhint));
	if (memchr(data, 0, len)) {
		struct iput *in;

		/* binary: no tool prints that */
		if (!im->content)
			return 1;
		in = input_add(im, name, 0, NULL);
		input_reason(in, "binary data (NUL bytes), not a tool's text "
			     "output");
		return 1;
	}
	clean = imp_clean(data, len, &clen, &what);
	np = imp_split(clean, clen, &parts);
	for (i = 0; i < np && rc >= 0; i++) {
		struct imp_part *p = &parts[i];
		struct iput *in = NULL;
		const char *h = command_hint(p->command, ch, sizeof(ch), &raw);

		if (all_blank(p->text, p->len) && !p->command)
			continue;
		in = input_add(im, name, np > 1 ? p->line : 0, p->command);
		if (p->command && all_blank(p->text, p->len) &&
		    (rc = empty_module_filter(im, in, p->command, name)) != 0) {
			if (rc > 0) {
				any = 1;
				rc = 0;
			}
			continue;
		}
		if (raw == 2) {
			/* "$ ls /sys/class/infiniband": the devices there */
			im->cur = in;
			rc = class_names(im, ch, p->text, p->len, name);
			im->cur = NULL;
			if (!rc) {
				char sub[600];

				snprintf(sub, sizeof(sub), "%s/", ch);
				raw_seen(im, sub);
				if (in) {
					in->reader = "ls";
					if (strcmp(in->status, "partial"))
						in->status = "read";
				}
				any = 1;
			} else if (rc > 0) {
				input_reason(in, "no device names in the listing "
					     "of /%s", ch);
				rc = 0;
			}
			continue;
		}
		if (raw) {
			/* "$ cat /sys/class/infiniband/mlx5_0/fw_ver" */
			if (!raw_known(ch)) {
				input_reason(in, "a copy of /%s: no check reads "
					     "that file", ch);
				continue;
			}
			/* a wrapped or prompt-ended command line is joined
			 * by its reader, as when the file is pasted alone */
			if (!strcmp(ch, "proc/cmdline"))
				rc = ih_cmdline(im, p->text, p->len, name, NULL);
			else
				rc = imp_put(im, ch, p->text, p->len, name,
					     IMP_RAW);
			if (!rc && !strcmp(ch, "proc/modules"))
				modules_read(im, p->command);
			if (rc > 0) {
				input_reason(in, "a copy of /%s, but not one line "
					     "of printable text", ch);
				rc = 0;
				continue;
			}
			if (!rc) {
				raw_seen(im, ch);
				if (in) {
					in->reader = raw_reader(ch);
					in->status = "read";
				}
				any = 1;
			}
			continue;
		}
		if (p->command && p->text > clean) {
			/* the prompt's line: its folder names relative
			 * files ("root@h:/sys/.../counters# for f in *") */
			above = p->text - 1;
			while (above > clean && above[-1] != '\n')
				above--;
			alen = (size_t)(p->text - 1 - above);
		} else {
			above = NULL;
			alen = 0;
		}
		if (!all_blank(p->text, p->len) &&
		    (rc = named_copies(im, in, p->command, above, alen,
				       p->text, p->len, name)) != 1) {
			/* "$ grep . /sys/class/infiniband/ * /ports/1/state",
			 * "$ head FILES": the files it names */
			if (!rc)
				any = 1;
			if (rc > 0)
				rc = 0;
			continue;
		}
		rc = 0;
		if (all_blank(p->text, p->len)) {
			/* rmmod, modprobe, echo, ifup print nothing when they
			 * work: no output of a tool a reader is for is no
			 * unread evidence */
			if (in && !named_hint(h)) {
				in->status = "ignored";
				input_reason(in, "the command printed nothing, "
					     "and it is no tool rdma-analyze reads");
			} else {
				input_reason(in, "the command printed nothing");
			}
			continue;
		}
		/* a part with no prompt of its own: the file's name is the
		 * hint (a one-part file is named after its command) */
		snprintf(hint, sizeof(hint), "%s", h ? h : fhint);
		rc = dispatch(im, in, name, hint, p->text, p->len);
		if (!rc)
			any = 1;
		if (!rc && in && in->reader && !strcmp(in->reader, "lsmod"))
			modules_read(im, p->command);
		if (rc == 2 && in && !p->command && np > 1) {
			/* a ticket's own words around the outputs */
			in->status = "ignored";
			input_reason(in, "text around the outputs: no command "
				     "line and no tool's output");
		} else if (rc > 0 && in && p->command &&
			   (imp_command_unchecked(p->command) ||
			    (rc == 2 && !imp_command_relevant(p->command)))) {
			in->status = "ignored";
			input_reason(in, "no reader for this command: its output "
				     "is not evidence rdma-analyze checks");
		}
		if (rc > 0)
			rc = 0;
		if (in && in->status[0] != 'u' && (what & IMP_CLEAN_QUOTED))
			imp_note(im, "%s: mail quoting removed", name);
	}
	if (rc >= 0 && all_blank(clean, clen) && im->content)
		input_reason(input_add(im, name, 0, NULL), "empty: nothing but "
			     "blank lines");
	/* in a sos report or a sysinfo-snapshot, a file or section no
	 * reader is named for is one of thousands: counted, not listed */
	for (i = first, k = first; !im->content && i < im->ninputs; i++) {
		struct iput *q = &im->inputs[i];

		if (strcmp(q->status, "unread") || q->named) {
			im->inputs[k++] = *q;
			continue;
		}
		free(q->file);
		free(q->command);
		free(q->reason);
	}
	if (!im->content)
		im->ninputs = k;
	imp_parts_free(parts, np);
	free(clean);
	return rc < 0 ? -1 : any ? 0 : 1;
}

static int feed_raw(struct imp *im, const char *path, const char *origin,
		    const char *data, size_t len)
{
	if (imp_put(im, path, data, len, origin, IMP_RAW) < 0)
		return -1;
	raw_seen(im, path);
	im->nraw++;
	return 0;
}

int imp_feed(struct imp *im, const char *name, const char *data, size_t len)
{
	if (im->failed)
		return -1;
	if (is_raw(name))
		return feed_raw(im, name, name, data, len);
	return feed_text(im, name, data, len);
}

/* --- copies of sysfs taken out of their tree --- */

/* is dir (a folder of the input, with its dropped top) an RDMA device's
 * own folder: does the input hold a file dir/ports/<n>/...?  The names
 * are sorted: the first one at or after "dir/ports/" says. */
static int device_dir(const struct imp_input *in, const char *dir)
{
	size_t tl = in->top ? strlen(in->top) : 0, lo = 0, hi = in->n, k;
	char key[1024];

	if (tl && !strncmp(dir, in->top, tl) && (!dir[tl] || dir[tl] == '/'))
		dir += tl + (dir[tl] ? 1 : 0);	/* as the names read */
	else if (tl)
		return 0;
	if (check_snprintf(key, sizeof(key), "%s%sports/", dir,
			   *dir ? "/" : "") < 0)
		return 0;
	k = strlen(key);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(in->v[mid].name, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < in->n && !strncmp(in->v[lo].name, key, k) &&
	       isdigit((unsigned char)in->v[lo].name[k]);
}

/* The bundle path of an input name that is a copy of a node file, or
 * NULL.  Besides the names under sys/, proc/, etc/ and dev/: a copy of
 * sys/class/infiniband taken apart from its tree ("cp -r
 * /sys/class/infiniband" dereferences its links into plain folders), its
 * names being "sys/..." with "sys" the dropped top, "class/infiniband/...",
 * "infiniband/<dev>/..." or "<dev>/..." where <dev> is a device's folder
 * (it has ports/<n>/), or "ports/<n>/..." with that folder the top. */
static const char *raw_name(const struct imp_input *in, const char *name,
			    char *out, size_t n)
{
	static const char *const cls[] = {
		"class/infiniband/", "class/infiniband_verbs/",
		"class/infiniband_mad/",
	};
	char full[4096], dir[4096];
	const char *p, *s;
	size_t i;

	if (is_raw(name))
		return name;
	if (check_snprintf(full, sizeof(full), "%s%s%s", in->top ? in->top : "",
			   in->top ? "/" : "", name) < 0)
		return NULL;
	if (in->top && is_raw(full))
		return check_snprintf(out, n, "%s", full) < 0 ? NULL : out;
	for (i = 0; i < ARRAY_SIZE(cls); i++)
		if (starts_with(full, cls[i]))
			return check_snprintf(out, n, "sys/%s", full) < 0 ?
			       NULL : out;
	p = starts_with(full, "infiniband/") ? full + 11 : full;
	if (!(s = strchr(p, '/')))
		return NULL;
	snprintf(dir, sizeof(dir), "%.*s", (int)(s - full), full);
	if (!device_dir(in, dir))
		return NULL;
	return check_snprintf(out, n, "sys/class/infiniband/%s", p) < 0 ?
	       NULL : out;
}

/* --- kinds --- */

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static int is_sos(const struct imp_input *in)
{
	size_t i;

	for (i = 0; i < in->n; i++)
		if (starts_with(in->v[i].name, "sos_commands/") ||
		    starts_with(in->v[i].name, "sos_reports/") ||
		    starts_with(in->v[i].name, "sos_logs/"))
			return 1;
	return 0;
}

static int is_sysinfo(const struct imp_input *in)
{
	const char *top = in->top ? in->top : "";
	size_t i;

	for (i = 0; i < in->n; i++) {
		const char *nm = in->v[i].name;

		if (starts_with(nm, "commands_txt_output/") ||
		    strstr(nm, "/commands_txt_output/") ||
		    (!strchr(nm, '/') && ends_with(nm, ".html") &&
		     (starts_with(nm, "sysinfo-snapshot") || starts_with(nm, "sr_"))))
			return 1;
	}
	return in->n && (starts_with(top, "sysinfo-snapshot") ||
			 starts_with(top, "sr_"));
}

static int is_ibdiag(const struct imp_input *in)
{
	size_t i;

	for (i = 0; i < in->n; i++)
		if (!strcmp(in->v[i].name, "ibdiagnet2.db_csv") ||
		    ends_with(in->v[i].name, "/ibdiagnet2.db_csv"))
			return 1;
	return 0;
}

/* anything else that is no bundle: every file is meant as evidence */
static int is_outputs(const struct imp_input *in)
{
	(void)in;
	return 1;
}

/* The kinds (their names and texts: IMP_KINDS of import.h), tried in
 * that order; the first whose detector says yes is the input's kind.
 * feed NULL: every file through imp_feed.  content: the readers are
 * chosen by content too, and every file no reader took is named
 * (INPUT_UNREAD); a sos report's thousands of other files are only
 * counted. */
static const struct imp_kind {
	enum imp_kind_id id;
	int (*detect)(const struct imp_input *in);
	int (*feed)(struct imp *im, const struct imp_in *v, size_t n);
	int content;
} kinds[IMP_KIND_NR] = {
	[IMP_KIND_SOS] = { IMP_KIND_SOS, is_sos, NULL, 0 },
	[IMP_KIND_SYSINFO] = { IMP_KIND_SYSINFO, is_sysinfo,
			       imp_kind_sysinfo, 0 },
	[IMP_KIND_IBDIAG] = { IMP_KIND_IBDIAG, is_ibdiag, imp_kind_ibdiag, 0 },
	[IMP_KIND_OUTPUTS] = { IMP_KIND_OUTPUTS, is_outputs, NULL, 1 },
};

static const char *const kind_names[IMP_KIND_NR][2] = {
#define IMP_KIND_ROW(id, name, text) [IMP_KIND_##id] = { name, text },
	IMP_KINDS(IMP_KIND_ROW)
#undef IMP_KIND_ROW
};

const char *imp_kind_name(enum imp_kind_id k)
{
	return (unsigned)k < IMP_KIND_NR ? kind_names[k][0] : "";
}

const char *imp_kind_text(enum imp_kind_id k)
{
	return (unsigned)k < IMP_KIND_NR ? kind_names[k][1] : "";
}

/* the kind, from the names alone (content, never a flag) */
static const struct imp_kind *kind_of(const struct imp_input *in)
{
	size_t i;

	for (i = 0; i < in->n; i++) {
		const char *nm = in->v[i].name;

		/* an rdma-collect bundle, unpacked or in a folder of them, is
		 * no import */
		if (!strcmp(nm, BUNDLE_MANIFEST) || ends_with(nm, BUNDLE_SUFFIX) ||
		    starts_with(nm, BUNDLE_RESERVED "/"))
			return NULL;
	}
	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if (kinds[i].detect(in))
			return &kinds[i];
	return NULL;
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
	kind = kind_of(&in) ? imp_kind_name(kind_of(&in)->id) : NULL;
	imp_input_release(&in);
	return kind;
}

const char *imp_detect(const char *path)
{
	char err[256];

	return imp_detect_err(path, err, sizeof(err));
}

const char *imp_detect_err(const char *path, char *err, size_t errlen)
{
	const char *kind;
	int read;

	*err = 0;
	kind = detect(path, &read, err, errlen);
	if (read >= 0)
		*err = 0;
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

/* one item of an uptime's duration: "3 days", "2:03", "20 min", "2
 * hours" (uptime -p); its seconds, 0 for the "N user(s)" item or the
 * load average that ends it, -1 for anything else */
static double uptime_item(const char *s, int *end)
{
	static const struct {
		const char *unit;
		double s;
	} units[] = {
		{ "year", 365 * 86400.0 }, { "week", 7 * 86400.0 },
		{ "day", 86400.0 }, { "hour", 3600.0 }, { "min", 60.0 },
	};
	char *e;
	long v, m;
	size_t i;

	*end = 0;
	while (*s == ' ')
		s++;
	if (starts_with(s, "load average")) {
		*end = 1;
		return 0;
	}
	v = strtol(s, &e, 10);
	if (e == s || v < 0)
		return -1;
	if (*e == ':') {
		m = strtol(e + 1, &e, 10);
		return m < 0 || m > 59 ? -1 : v * 3600.0 + m * 60.0;
	}
	while (*e == ' ')
		e++;
	if (starts_with(e, "user")) {
		*end = 1;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (starts_with(e, units[i].unit))
			return v * units[i].s;
	return -1;
}

/* what uptime prints -> seconds; -1 if not that.  procps and busybox:
 * "10:04:01 up 3 days,  2:03,  1 user,  load average: ..." ("up 5 min",
 * "up 1 day, 20 min", busybox without the users); uptime -p: "up 3 days,
 * 2 hours, 3 minutes" (years and weeks too).  An item of no known unit
 * (uptime -s prints the boot time, no duration) is not read at all */
static double uptime_text(const char *s)
{
	const char *up = starts_with(s, "up ") ? s : strstr(s, " up ");
	double t = 0, v;
	int end = 0, n = 0;

	if (!up)
		return -1;
	for (up = strchr(up, 'p') + 1; !end && *up; n++) {
		if ((v = uptime_item(up, &end)) < 0)
			return -1;
		t += v;
		up += strcspn(up, ",");
		up += *up == ',';
	}
	return n > end ? t : -1;
}

/* --- identity readers: what hostname, uname -a and uptime print --- */

static void text_line(const char *t, size_t n, char *out, size_t on)
{
	size_t i = 0, k = 0;

	while (i < n && isspace((unsigned char)t[i]))
		i++;
	while (i < n && t[i] != '\n' && k + 1 < on)
		out[k++] = t[i++];
	while (k && isspace((unsigned char)out[k - 1]))
		k--;
	out[k] = 0;
}

int imp_rd_hostname(struct imp *im, const char *text, size_t len,
		    const char *origin, const char *arg)
{
	char line[256];
	size_t i;

	(void)origin;
	(void)arg;
	text_line(text, len, line, sizeof(line));
	for (i = 0; line[i]; i++)
		if (!isalnum((unsigned char)line[i]) && !strchr("-._", line[i]))
			return 1;
	if (!i)
		return 1;
	imp_ident(im, "hostname", line);
	return 0;
}

/* uname -a: "Linux HOST RELEASE #VERSION ... MACHINE [GNU/Linux]", alone
 * or in a ticket's words (rdma-core's bug template asks for it under
 * "Linux kernel and version"): the first line that is one.  A node
 * whose name was never set prints the kernel's "(none)": no hostname */
int imp_rd_uname(struct imp *im, const char *text, size_t len,
		 const char *origin, const char *arg)
{
	char line[512], host[256], rel[256];
	size_t off = 0;

	(void)origin;
	(void)arg;
	while (off < len) {
		const char *e = memchr(text + off, '\n', len - off);
		size_t k = e ? (size_t)(e - text - off) : len - off;

		text_line(text + off, k, line, sizeof(line));
		off += k + 1;
		if (sscanf(line, "Linux %255s %255s #", host, rel) != 2 ||
		    !isdigit((unsigned char)rel[0]) || !strchr(line, '#'))
			continue;
		imp_ident(im, "kernel_release", rel);
		if (strcmp(host, "(none)"))
			imp_ident(im, "hostname", host);
		return 0;
	}
	return 1;
}

int imp_rd_uptime(struct imp *im, const char *text, size_t len,
		  const char *origin, const char *arg)
{
	char line[512], v[64];
	double u;

	(void)origin;
	(void)arg;
	text_line(text, len, line, sizeof(line));
	if ((u = uptime_text(line)) < 0)
		return 1;
	snprintf(v, sizeof(v), "%.0f", u);
	imp_ident(im, "uptime_s", v);
	return 0;
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
		"sos_commands/host/uptime", "sos_commands/general/uptime",
		"uptime", "uptime.txt",
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
	/* what became of each input file (or part of one) */
	json_arr_open(&j, "inputs");
	for (i = 0; i < im->ninputs; i++) {
		const struct iput *p = &im->inputs[i];

		json_obj_open(&j, NULL);
		json_str(&j, "file", p->file);
		if (p->line)
			json_uint(&j, "line", p->line);
		if (p->command)
			json_str(&j, "command", p->command);
		json_str(&j, "reader", p->reader);
		json_str(&j, "status", p->status);
		if (p->reason)
			json_str(&j, "reason", p->reason);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	if (im->lost_inputs)
		json_int(&j, "inputs_left_out", (int64_t)im->lost_inputs);
	json_obj_close(&j);
	json_arr_open(&j, "sources");
	for (i = 0; i < SOURCE_NR; i++) {
		json_obj_open(&j, NULL);
		json_str(&j, "name", source_name((enum source_id)i));
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
	for (i = 0; i < SOURCE_NR; i++)
		free(im->src[i].reason);
	for (i = 0; i < NIDENT; i++)
		free(im->ident[i]);
	for (i = 0; i < im->nnotes; i++)
		free(im->notes[i]);
	free(im->notes);
	for (i = 0; i < im->ninputs; i++) {
		free(im->inputs[i].file);
		free(im->inputs[i].command);
		free(im->inputs[i].reason);
	}
	free(im->inputs);
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
	char path[4096];
	const char *p;
	size_t i;
	int rc;

	/* links first: a raw copy's folders may be links (sos keeps
	 * sys/class/net/<if> as the kernel has it) */
	for (i = 0; i < in->nlinks; i++) {
		if (!(p = raw_name(in, in->links[i].name, path, sizeof(path))))
			continue;
		if (put(im, p, BR_LINK, in->links[i].data, in->links[i].len,
			in->links[i].name, IMP_RAW) < 0)
			return -1;
		raw_seen(im, p);
	}
	if (im->kd->feed)
		return im->kd->feed(im, in->v, in->n);
	for (i = 0; i < in->n; i++) {
		p = raw_name(in, in->v[i].name, path, sizeof(path));
		rc = p && p != in->v[i].name ?
		     feed_raw(im, p, in->v[i].name, in->v[i].data, in->v[i].len) :
		     imp_feed(im, in->v[i].name, in->v[i].data, in->v[i].len);
		if (rc < 0)
			return -1;
		if (rc > 0)
			(*unused)++;
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

/* Did any input become evidence?  Nothing read is no healthy node: the
 * import fails with one line naming what was there and why none of it
 * was read.  1 yes; 0 no, with err. */
static int evidence_read(struct imp *im, const struct imp_input *in,
			 char *err, size_t errlen)
{
	struct buf b = BUF_INIT;
	size_t i, shown = 0, unread = 0;

	/* an entry from an input: a raw copy, a reader's, a kind's own (a
	 * folder only when an input showed it: the builder's own have no
	 * origin) */
	for (i = 0; i < im->n; i++)
		if (im->v[i].origin)
			return 1;
	/* or an input whose reader says its emptiness is the fact (show_gids'
	 * empty table): a reader that took a text and kept nothing of it
	 * is no evidence */
	for (i = 0; i < im->ninputs; i++)
		if (im->inputs[i].empty && !strcmp(im->inputs[i].status, "read"))
			return 1;
	if (!in->n) {
		snprintf(err, errlen, "no evidence read: %s",
			 in->nlinks || in->ignored ? "no regular file in it" :
			 "nothing in it (an empty folder or archive)");
		return 0;
	}
	for (i = 0; i < im->ninputs; i++) {
		const struct iput *p = &im->inputs[i];

		unread++;
		if (shown++ >= 2)
			continue;
		buf_addf(&b, "%s%s%s%.0u: %s", shown > 1 ? "; " : "", p->file,
			 p->line ? " line " : "", p->line, p->reason ? p->reason :
			 strcmp(p->status, "unread") ? "read, but nothing in it "
			 "is evidence rdma-analyze checks" : "not read");
	}
	if (!im->ninputs)
		snprintf(err, errlen, "no evidence read: none of its %zu "
			 "file(s) is a tool's output rdma-analyze reads", in->n);
	else
		snprintf(err, errlen, "no evidence read (%zu of %zu file(s) "
			 "looked at, none understood): %s%s", unread, in->n,
			 b.buf, shown > 2 ? "; ..." : "");
	buf_release(&b);
	return 0;
}

/* " (ibstat, ibstatus or show_gids carry it)": the readers that feed
 * source, so a check skipped for want of it names what to give; at most
 * four, in the table's order */
static void carriers(struct buf *b, enum source_id source)
{
	const struct imp_reader *r;
	const char *name[5];
	size_t n = 0, i;

	for (r = imp_readers; r->tool && n < ARRAY_SIZE(name); r++)
		if (r->source == source)
			name[n++] = r->tool;
	if (!n)
		return;
	buf_addf(b, " (");
	for (i = 0; i < n && i < 4; i++)
		buf_addf(b, "%s%s", i ? (i + 1 == n ? " or " : ", ") : "",
			 name[i]);
	buf_addf(b, "%s carr%s it)", n > 4 ? " ..." : "", n > 1 ? "y" : "ies");
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
	im.kd = kind_of(&in);
	if (!im.kd) {
		snprintf(err, errlen, "neither an rdma-collect bundle nor "
			 "evidence rdma-analyze can import");
		goto out;
	}
	im.kind = imp_kind_name(im.kd->id);
	im.content = im.kd->content;
	for (i = 0; i < SOURCE_NR; i++) {
		snprintf(im.src[i].status, sizeof(im.src[i].status), "absent");
		buf_reset(&man);
		buf_addf(&man, "not in this %s", imp_kind_text(im.kd->id));
		carriers(&man, (enum source_id)i);
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
	if (!evidence_read(&im, &in, err, errlen))
		goto out;
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
