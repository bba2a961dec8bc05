/* src-attach: the user's own files (--attach FILE: an NCCL log, perftest
 * output), stored as rdma-collect/attach/<basename>, bytes unchanged.
 *
 * The files are read on the machine running the collector, never inside
 * --root: they are the user's, not the node's.  A file longer than
 * --max-file keeps its tail (logs end with the failure) and is listed as
 * truncated.  A repeated basename gets ".2", ".3", ...  Under --root, the
 * attachments of the tree (an unpacked bundle) are copied too, and the new
 * ones are named around them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "log.h"
#include "src.h"
#include "util.h"

#define ATTACH_DIR "/rdma-collect/attach"
#define ATTACH_NAME_MAX 200

struct names {
	char **v;
	int n;
};

static int name_used(const struct names *used, const char *name)
{
	int i;

	for (i = 0; i < used->n; i++)
		if (!strcmp(used->v[i], name))
			return 1;
	return 0;
}

static void name_add(struct names *used, const char *name)
{
	used->v = xrealloc(used->v, (size_t)(used->n + 1) * sizeof(char *));
	used->v[used->n++] = xstrdup(name);
}

/* the last component of path, made safe as a bundle name */
static void base_name(const char *path, char *out, size_t n)
{
	const char *e = path + strlen(path), *b;
	size_t len, i;

	while (e > path && e[-1] == '/')
		e--;
	for (b = e; b > path && b[-1] != '/'; b--)
		;
	len = (size_t)(e - b);
	if (len > ATTACH_NAME_MAX)
		len = ATTACH_NAME_MAX;
	if (len >= n)
		len = n - 1;
	memcpy(out, b, len);
	out[len] = 0;
	for (i = 0; i < len; i++)
		if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
			out[i] = '_';
	if (!len || !strcmp(out, ".") || !strcmp(out, ".."))
		xsnprintf(out, n, "attachment");
}

/* base, or base.2, base.3, ... whichever is free; recorded as used */
static void unique_name(struct names *used, const char *base, char *out,
			size_t n)
{
	int k;

	xsnprintf(out, n, "%s", base);
	for (k = 2; name_used(used, out); k++)
		xsnprintf(out, n, "%s.%d", base, k);
	name_add(used, out);
}

static void reason_add(struct buf *why, const char *path, const char *what)
{
	buf_addf(why, "%s'%s': %s", why->len ? "; " : "cannot attach ", path,
		 what);
}

static int attach_one(struct ctx *c, struct names *used, const char *path,
		      struct buf *why)
{
	char base[ATTACH_NAME_MAX + 1], name[ATTACH_NAME_MAX + 16];
	char bpath[ATTACH_NAME_MAX + 32];
	struct buf b = BUF_INIT;
	int rc;

	ctx_progress(c, "", path);
	rc = ctx_read_host(c, path, &b);
	if (rc < 0) {
		reason_add(why, path, rc == -ENXIO || rc == -EISDIR ?
			   "not a regular file" : strerror(-rc));
		goto out;
	}
	base_name(path, base, sizeof(base));
	unique_name(used, base, name, sizeof(name));
	xsnprintf(bpath, sizeof(bpath), "attach/%s", name);
	rc = ctx_emit_capped(c, bpath, &b);
	if (rc < 0) {
		reason_add(why, path, strerror(-rc));
		goto out;
	}
	ctx_note(c, bpath, "%s", path);
out:
	buf_release(&b);
	return rc;
}

static int collect(struct ctx *c)
{
	const struct collect_opts *o = c->opts;
	struct names used = { NULL, 0 };
	struct buf why = BUF_INIT;
	char **stored = NULL;
	int nstored = 0, copied = 0, failed = 0, i, res;

	if (ctx_is_root(c)) {
		copied = ctx_stored(c, "attach");
		if (copied < 0)
			copied = 0;
		nstored = ctx_names(c, ATTACH_DIR, &stored);
		for (i = 0; i < nstored; i++)
			name_add(&used, stored[i]);
		if (nstored > 0)
			ctx_names_free(stored, nstored);
	}
	if (!o->nattach && !copied) {
		ctx_reason(c, "nothing to attach (--attach FILE)");
		res = SRC_ABSENT;
		goto out;
	}
	for (i = 0; i < o->nattach; i++)
		if (attach_one(c, &used, o->attach[i], &why) < 0)
			failed++;
	if (failed) {
		ctx_reason(c, "%s", why.buf);
		res = SRC_PARTIAL;
		goto out;
	}
	res = SRC_OK;
out:
	for (i = 0; i < used.n; i++)
		free(used.v[i]);
	free(used.v);
	buf_release(&why);
	return res;
}

const struct source src_attach = {
	.name = "attach",
	.help = "the files given with --attach (NCCL logs, perftest output), tail kept",
	.timeout_ms = 10000,
	.max_bytes = 64u << 20,
	.collect = collect,
};
