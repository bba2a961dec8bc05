/* breader: read and index a bundle (see breader.h) */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "breader.h"
#include "buf.h"
#include "bundle.h"
#include "log.h"
#include "sha256.h"
#include "util.h"

const struct br_limits br_default_limits = {
	.max_file = 512u << 20,
	.max_entries = 200000,
	.max_entry = 64u << 20,
	.max_total = 1024u << 20,
	.max_path = 4096,
};

#define MAX_MANIFEST (4u << 20)
#define MAX_HOPS 40

static int read_whole(const char *file, size_t max, char **data, size_t *len,
		      char *err, size_t errlen)
{
	struct stat st;
	size_t got = 0;
	char *p;
	int fd;

	fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "not a regular file");
		close(fd);
		return -1;
	}
	if ((size_t)st.st_size > max) {
		snprintf(err, errlen, "larger than %zu MiB", max >> 20);
		close(fd);
		return -1;
	}
	p = xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, p + got, (size_t)st.st_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	*data = p;
	*len = got;
	return 0;
}

/* a path we accept: relative, no "." or ".." parts, no empty parts, no
 * control characters; a trailing '/' (directories) is dropped */
static char *clean_path(const char *p, size_t max)
{
	size_t n = strlen(p);
	const char *s, *e;

	while (n && p[n - 1] == '/')
		n--;
	while (n >= 2 && p[0] == '.' && p[1] == '/') {
		p += 2;
		n -= 2;
	}
	if (!n || n >= max || p[0] == '/')
		return NULL;
	for (s = p; s < p + n; s = e + 1) {
		e = memchr(s, '/', (size_t)(p + n - s));
		if (!e)
			e = p + n;
		if (e == s || (e - s == 1 && s[0] == '.') ||
		    (e - s == 2 && s[0] == '.' && s[1] == '.'))
			return NULL;
		if (e == p + n)
			break;
	}
	for (s = p; s < p + n; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return NULL;
	return xstrndup(p, n);
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct br_entry *)a)->path,
		      ((const struct br_entry *)b)->path);
}

static const struct br_entry *find(const struct bundle_r *b, const char *path)
{
	size_t lo = 0, hi = b->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(b->v[mid].path, path);

		if (!c)
			return &b->v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int check_manifest(struct bundle_r *b, const char *text, size_t len,
			  char *err, size_t errlen)
{
	char jerr[160];
	int64_t ver;

	b->manifest = jparse(text, len, jerr, sizeof(jerr));
	if (!b->manifest) {
		snprintf(err, errlen, "manifest.json is not valid JSON: %s", jerr);
		return -1;
	}
	if (!jstr(b->manifest, "format") ||
	    strcmp(jstr(b->manifest, "format"), BUNDLE_FORMAT)) {
		snprintf(err, errlen, "manifest does not name the format '%s'",
			 BUNDLE_FORMAT);
		return -1;
	}
	ver = jint(b->manifest, "format_version", -1);
	if (ver < 1) {
		snprintf(err, errlen, "manifest has no valid format_version");
		return -1;
	}
	if (ver > BUNDLE_FORMAT_VERSION) {
		snprintf(err, errlen, "bundle format %lld is newer than this "
			 "rdma-analyze reads (%d): upgrade rdma-analyze",
			 (long long)ver, BUNDLE_FORMAT_VERSION);
		return -1;
	}
	b->format_version = (int)ver;
	return 0;
}

int br_open(const char *file, const struct br_limits *lim,
	    struct bundle_r **out, char *err, size_t errlen)
{
	struct archive *a = NULL;
	struct archive_entry *ae;
	struct bundle_r *b;
	unsigned char sum[32];
	char *raw = NULL;
	size_t rawlen, alloc = 0, i;
	int rc = -1, r, first = 1;

	if (!lim)
		lim = &br_default_limits;
	*out = NULL;
	if (read_whole(file, lim->max_file, &raw, &rawlen, err, errlen) < 0)
		return -1;
	b = xcalloc(1, sizeof(*b));
	b->file = xstrdup(file);
	b->size = rawlen;
	sha256(raw, rawlen, sum);
	for (i = 0; i < 32; i++)
		snprintf(b->sha256 + 2 * i, 3, "%02x", sum[i]);
	a = archive_read_new();
	archive_read_support_filter_zstd(a);
	archive_read_support_format_tar(a);
	if (archive_read_open_memory(a, raw, rawlen) != ARCHIVE_OK) {
		snprintf(err, errlen, "not a zstd-compressed tar: %s",
			 archive_error_string(a));
		goto out;
	}
	while ((r = archive_read_next_header(a, &ae)) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(ae);
		la_int64_t size = archive_entry_size(ae);
		unsigned ft = archive_entry_filetype(ae);
		struct br_entry *e;
		char *path;

		if (!name) {
			snprintf(err, errlen, "an entry without a name");
			goto out;
		}
		if (first) {
			first = 0;
			if (strcmp(name, BUNDLE_MANIFEST)) {
				snprintf(err, errlen, "not an rdma-collect bundle "
					 "(first entry is '%.80s', not %s)", name,
					 BUNDLE_MANIFEST);
				goto out;
			}
		}
		if (b->n >= lim->max_entries) {
			snprintf(err, errlen, "more than %zu entries",
				 lim->max_entries);
			goto out;
		}
		path = clean_path(name, lim->max_path);
		if (!path || (ft != AE_IFREG && ft != AE_IFDIR && ft != AE_IFLNK)) {
			free(path);
			b->ignored++;
			continue;
		}
		if (ft == AE_IFREG && (size < 0 || (size_t)size > lim->max_entry)) {
			snprintf(err, errlen, "entry '%.80s' declares %lld bytes, "
				 "more than the %zu MiB limit", path,
				 (long long)size, lim->max_entry >> 20);
			free(path);
			goto out;
		}
		if (b->n == alloc) {
			alloc = alloc ? alloc * 2 : 1024;
			b->v = xrealloc(b->v, alloc * sizeof(*b->v));
		}
		e = &b->v[b->n++];
		memset(e, 0, sizeof(*e));
		e->path = path;
		if (ft == AE_IFDIR) {
			e->type = BR_DIR;
		} else if (ft == AE_IFLNK) {
			const char *t = archive_entry_symlink(ae);

			e->type = BR_LINK;
			e->data = xstrdup(t ? t : "");
			e->len = strlen(e->data);
		} else {
			struct buf d = BUF_INIT;
			char chunk[65536];
			la_ssize_t got;

			e->type = BR_FILE;
			while ((got = archive_read_data(a, chunk, sizeof(chunk))) > 0) {
				if (d.len + (size_t)got > lim->max_entry ||
				    b->total + d.len + (size_t)got > lim->max_total) {
					buf_release(&d);
					e->data = xstrdup("");
					snprintf(err, errlen, "uncompressed size over "
						 "the limit (%zu MiB in all, %zu MiB "
						 "an entry): a decompression bomb?",
						 lim->max_total >> 20,
						 lim->max_entry >> 20);
					goto out;
				}
				buf_add(&d, chunk, (size_t)got);
			}
			if (got < 0) {
				buf_release(&d);
				e->data = xstrdup("");
				snprintf(err, errlen, "truncated or corrupt in '%.80s': %s",
					 path, archive_error_string(a));
				goto out;
			}
			b->total += d.len;
			e->data = buf_detach(&d, &e->len);
		}
	}
	if (r != ARCHIVE_EOF) {
		snprintf(err, errlen, "truncated or corrupt after %zu entries: %s",
			 b->n, archive_error_string(a));
		goto out;
	}
	if (first) {
		snprintf(err, errlen, "empty archive");
		goto out;
	}
	qsort(b->v, b->n, sizeof(*b->v), cmp_entry);
	/* duplicate paths: the first in sorted order stays, as on disk the
	 * last would; either way one, and deterministic */
	{
		const struct br_entry *m = find(b, BUNDLE_MANIFEST);

		if (!m || m->type != BR_FILE || m->len > MAX_MANIFEST) {
			snprintf(err, errlen, "manifest.json missing or too large");
			goto out;
		}
		if (check_manifest(b, m->data, m->len, err, errlen) < 0)
			goto out;
	}
	rc = 0;
out:
	archive_read_free(a);
	free(raw);
	if (rc) {
		br_free(b);
		return -1;
	}
	*out = b;
	return 0;
}

void br_free(struct bundle_r *b)
{
	size_t i;

	if (!b)
		return;
	for (i = 0; i < b->n; i++) {
		free(b->v[i].path);
		free(b->v[i].data);
	}
	free(b->v);
	jfree(b->manifest);
	free(b->file);
	free(b);
}

/* normalise "a/b/../c" in place; -1 if it climbs out of the bundle */
static int normalise(char *p)
{
	char *parts[PATH_MAX / 2];
	size_t n = 0, i;
	char *s, *save = NULL, out[PATH_MAX];

	out[0] = 0;
	for (s = strtok_r(p, "/", &save); s; s = strtok_r(NULL, "/", &save)) {
		if (!strcmp(s, "."))
			continue;
		if (!strcmp(s, "..")) {
			if (!n)
				return -1;
			n--;
			continue;
		}
		if (n >= ARRAY_SIZE(parts))
			return -1;
		parts[n++] = s;
	}
	for (i = 0; i < n; i++) {
		if (i)
			strcat(out, "/");
		strcat(out, parts[i]);
	}
	strcpy(p, out);
	return 0;
}

const char *br_resolve(const struct bundle_r *b, const char *path, char *out,
		       size_t n)
{
	char cur[PATH_MAX], next[PATH_MAX];
	int hops = 0;
	size_t i;

	if (check_snprintf(cur, sizeof(cur), "%s", path) < 0 || normalise(cur))
		return NULL;
restart:
	/* find the first prefix of cur that is a link */
	for (i = 0; cur[i]; i++) {
		const struct br_entry *e;
		char save;

		if (cur[i + 1] && cur[i + 1] != '/')
			continue;
		save = cur[i + 1];
		cur[i + 1] = 0;
		e = find(b, cur);
		cur[i + 1] = save;
		if (!e || e->type != BR_LINK)
			continue;
		if (++hops > MAX_HOPS || e->data[0] == '/')
			return NULL;
		{
			/* target relative to the link's folder */
			const char *slash = NULL;
			size_t k;

			for (k = 0; k <= i; k++)
				if (cur[k] == '/')
					slash = cur + k;
			if (check_snprintf(next, sizeof(next), "%.*s%s%s%s",
					   slash ? (int)(slash - cur) : 0, cur,
					   slash ? "/" : "", e->data,
					   cur + i + 1) < 0)
				return NULL;
		}
		if (normalise(next))
			return NULL;
		strcpy(cur, next);
		goto restart;
	}
	if (check_snprintf(out, n, "%s", cur) < 0)
		return NULL;
	return out;
}

const struct br_entry *br_get(const struct bundle_r *b, const char *path)
{
	const struct br_entry *e = find(b, path);
	char real[PATH_MAX];

	/* most lookups name an entry as it is stored: take it without
	 * walking the path for links (an entry below a linked folder exists
	 * only in a malformed bundle, and either answer is inside it) */
	if (e && e->type != BR_LINK)
		return e;

	if (!br_resolve(b, path, real, sizeof(real)))
		return NULL;
	return find(b, real);
}

const struct br_entry *br_lget(const struct bundle_r *b, const char *path)
{
	char dir[PATH_MAX], real[PATH_MAX], full[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (!slash)
		return find(b, path);
	if (check_snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path) < 0 ||
	    !br_resolve(b, dir, real, sizeof(real)) ||
	    check_snprintf(full, sizeof(full), "%s/%s", real, slash + 1) < 0)
		return NULL;
	return find(b, full);
}

const char *br_link_base(const struct bundle_r *b, const char *path)
{
	const struct br_entry *e = br_lget(b, path);
	const char *s;

	if (!e || e->type != BR_LINK || !e->len)
		return NULL;
	s = strrchr(e->data, '/');
	return s ? s + 1 : e->data;
}

const char *br_data(const struct bundle_r *b, const char *path, size_t *len)
{
	const struct br_entry *e = br_get(b, path);

	if (!e || e->type != BR_FILE)
		return NULL;
	if (len)
		*len = e->len;
	return e->data;
}

const char *br_line(const struct bundle_r *b, const char *path, char *out,
		   size_t n)
{
	const char *d = br_data(b, path, NULL);
	size_t k = 0;

	if (!d || !n)
		return NULL;
	while (d[k] && d[k] != '\n' && k + 1 < n) {
		out[k] = d[k];
		k++;
	}
	while (k && (out[k - 1] == ' ' || out[k - 1] == '\r' ||
		     out[k - 1] == '\t'))
		k--;
	out[k] = 0;
	return out;
}

size_t br_list(const struct bundle_r *b, const char *dir, const char ***names)
{
	char real[PATH_MAX], prefix[PATH_MAX];
	const char **v = NULL;
	size_t lo = 0, hi = b->n, cnt = 0, alloc = 0, pl;

	*names = NULL;
	if (!br_resolve(b, dir, real, sizeof(real)) ||
	    check_snprintf(prefix, sizeof(prefix), "%s/", real) < 0)
		return 0;
	pl = strlen(prefix);
	while (lo < hi) {	/* first entry >= prefix */
		size_t mid = (lo + hi) / 2;

		if (strcmp(b->v[mid].path, prefix) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < b->n && !strncmp(b->v[lo].path, prefix, pl); lo++) {
		const char *rest = b->v[lo].path + pl;

		if (strchr(rest, '/'))
			continue;
		if (cnt == alloc) {
			alloc = alloc ? alloc * 2 : 16;
			v = xrealloc(v, alloc * sizeof(*v));
		}
		v[cnt++] = rest;
	}
	*names = v;
	return cnt;
}

struct jv *br_json(const struct bundle_r *b, const char *path)
{
	size_t len;
	const char *d = br_data(b, path, &len);

	return d ? jparse(d, len, NULL, 0) : NULL;
}
