/* store: in-memory bundle and the tar.zst writer */
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

#include "bundle.h"
#include "log.h"
#include "store.h"
#include "util.h"

void store_init(struct store *s, size_t cap)
{
	memset(s, 0, sizeof(*s));
	s->cap = cap;
}

void store_release(struct store *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].path);
		free(s->v[i].data);
	}
	free(s->v);
	free(s->hash);
	memset(s, 0, sizeof(*s));
}

static void rehash(struct store *s)
{
	size_t i, j;

	free(s->hash);
	s->hsize = s->hsize ? s->hsize * 2 : 1024;
	s->hash = xcalloc(s->hsize, sizeof(*s->hash));
	for (i = 0; i < s->n; i++) {
		j = fnv1a_str(FNV1A_INIT, s->v[i].path) & (s->hsize - 1);
		while (s->hash[j])
			j = (j + 1) & (s->hsize - 1);
		s->hash[j] = i + 1;
	}
}

static size_t *slot(struct store *s, const char *path)
{
	size_t j;

	if (!s->hsize)
		rehash(s);
	j = fnv1a_str(FNV1A_INIT, path) & (s->hsize - 1);
	while (s->hash[j] && strcmp(s->v[s->hash[j] - 1].path, path))
		j = (j + 1) & (s->hsize - 1);
	return &s->hash[j];
}

struct entry *store_find(struct store *s, const char *path)
{
	size_t *h = slot(s, path);

	return *h ? &s->v[*h - 1] : NULL;
}

int bundle_path_ok(const char *path)
{
	const char *p = path, *e;
	size_t n;

	if (!*path || *path == '/' || strlen(path) >= PATH_MAX)
		return 0;
	for (; *p; p = *e ? e + 1 : e) {
		e = strchrnul(p, '/');
		n = (size_t)(e - p);
		if (!n || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
	}
	for (p = path; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return 0;
	return 1;
}

int store_add(struct store *s, int type, const char *path, char *data,
	      size_t len, uint32_t mode, int truncated, int src)
{
	struct entry *e;
	size_t *h;

	if (!bundle_path_ok(path)) {
		free(data);
		return -1;
	}
	if (s->cap && s->bytes + len > s->cap) {
		free(data);
		return -2;
	}
	if ((s->n + 1) * 2 > s->hsize)
		rehash(s);
	h = slot(s, path);
	if (*h) {
		free(data);
		return 1;
	}
	if (s->n == s->alloc) {
		s->alloc = s->alloc ? s->alloc * 2 : 256;
		s->v = xrealloc(s->v, s->alloc * sizeof(*s->v));
	}
	e = &s->v[s->n++];
	e->path = xstrdup(path);
	e->data = data;
	e->len = len;
	e->mode = mode;
	e->type = (uint8_t)type;
	e->truncated = (uint8_t)truncated;
	e->src = src;
	*h = s->n;
	s->bytes += len;
	return 0;
}

void store_set_data(struct store *s, struct entry *e, char *data, size_t len)
{
	s->bytes -= e->len;
	free(e->data);
	e->data = data;
	e->len = len;
	s->bytes += len;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->path,
		      ((const struct entry *)b)->path);
}

void store_sort(struct store *s)
{
	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), cmp_entry);
	rehash(s);
}

static int write_one(struct archive *a, struct archive_entry *ae,
		     const char *path, int type, uint32_t mode,
		     const char *data, size_t len, time_t mtime)
{
	archive_entry_clear(ae);
	archive_entry_set_pathname(ae, path);
	archive_entry_set_mtime(ae, mtime, 0);
	archive_entry_set_uid(ae, 0);
	archive_entry_set_gid(ae, 0);
	archive_entry_set_uname(ae, "root");
	archive_entry_set_gname(ae, "root");
	switch (type) {
	case ENT_DIR:
		archive_entry_set_filetype(ae, AE_IFDIR);
		archive_entry_set_perm(ae, (mode & 07777) | 0700);
		archive_entry_set_size(ae, 0);
		break;
	case ENT_LINK:
		archive_entry_set_filetype(ae, AE_IFLNK);
		archive_entry_set_perm(ae, 0777);
		archive_entry_set_symlink(ae, data);
		archive_entry_set_size(ae, 0);
		break;
	default:
		archive_entry_set_filetype(ae, AE_IFREG);
		/* sysfs files can be write-only (0200): keep them readable */
		archive_entry_set_perm(ae, (mode & 0777) | 0444);
		archive_entry_set_size(ae, (la_int64_t)len);
		break;
	}
	if (archive_write_header(a, ae) != ARCHIVE_OK)
		return -1;
	if (type == ENT_FILE && len &&
	    archive_write_data(a, data, len) != (la_ssize_t)len)
		return -1;
	return 0;
}

/* put tmp at out without replacing anything: 0, 1 if out exists, -1 */
static int place(const char *tmp, const char *out)
{
	int fd, e;

	if (!renameat2(AT_FDCWD, tmp, AT_FDCWD, out, RENAME_NOREPLACE))
		return 0;
	if (errno == EEXIST)
		return 1;
	if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
		return -1;
	/* a filesystem without it (vfat, some FUSE): claim the name, then
	 * move the bundle over the claim, which is ours */
	fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno == EEXIST ? 1 : -1;
	close(fd);
	if (rename(tmp, out) < 0) {
		e = errno;
		unlink(out);
		errno = e;
		return -1;
	}
	return 0;
}

/* the next free name for an automatic out: host-stamp-2.rdma.tar.zst ... */
static int next_name(char *out, size_t n, const char *first, unsigned i)
{
	size_t fl = strlen(first), sl = strlen(BUNDLE_SUFFIX);

	return check_snprintf(out, n, "%.*s-%u%s", (int)(fl - sl), first, i,
			      BUNDLE_SUFFIX);
}

int store_write(struct store *s, const char *manifest, size_t mlen,
		char *out, size_t outsz, int unique, time_t mtime, int level)
{
	char first[PATH_MAX];
	unsigned tries = 1;
	int placed;
	char tmp[PATH_MAX], lvl[16];
	struct archive_entry *ae = NULL;
	struct archive *a = NULL;
	const char *slash;
	size_t i;
	int fd = -1, rc = -1;

	slash = strrchr(out, '/');
	if (check_snprintf(tmp, sizeof(tmp), "%.*s.%s.tmp.XXXXXX",
			   slash ? (int)(slash - out + 1) : 0, out,
			   slash ? slash + 1 : out) < 0)
		return error("output path too long: '%s'", out);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return error("cannot create '%s': %s", tmp, strerror(errno));
	a = archive_write_new();
	ae = archive_entry_new();
	if (!a || !ae)
		die("out of memory");
	xsnprintf(lvl, sizeof(lvl), "%d", level);
	if (archive_write_add_filter_zstd(a) != ARCHIVE_OK ||
	    archive_write_set_filter_option(a, "zstd", "compression-level",
					    lvl) != ARCHIVE_OK ||
	    archive_write_set_format_pax_restricted(a) != ARCHIVE_OK ||
	    archive_write_open_fd(a, fd) != ARCHIVE_OK) {
		error("cannot start archive '%s': %s", tmp,
		      archive_error_string(a));
		goto out;
	}
	if (write_one(a, ae, BUNDLE_MANIFEST, ENT_FILE, 0644, manifest, mlen,
		      mtime) < 0)
		goto werr;
	for (i = 0; i < s->n; i++) {
		struct entry *e = &s->v[i];

		if (write_one(a, ae, e->path, e->type, e->mode, e->data,
			      e->len, mtime) < 0)
			goto werr;
	}
	if (archive_write_close(a) != ARCHIVE_OK)
		goto werr;
	if (fsync(fd) < 0) {
		error("cannot write '%s': %s", tmp, strerror(errno));
		goto out;
	}
	if (close(fd) < 0) {
		fd = -1;
		error("cannot write '%s': %s", tmp, strerror(errno));
		goto out;
	}
	fd = -1;
	if (fchmodat(AT_FDCWD, tmp, 0644, 0) < 0) {
		error("cannot write '%s': %s", tmp, strerror(errno));
		goto out;
	}
	xsnprintf(first, sizeof(first), "%s", out);
	/* never replace a file: another collector's bundle of the same
	 * second, or a file the user named */
	while ((placed = place(tmp, out)) == 1 && unique && tries < 1000)
		if (next_name(out, outsz, first, ++tries) < 0)
			break;
	if (placed) {
		if (placed > 0)
			error("'%s' exists: not replaced", out);
		else
			error("cannot rename '%s' to '%s': %s", tmp, out,
			      strerror(errno));
		xsnprintf(out, outsz, "%s", first);
		goto out;
	}
	rc = 0;
	goto out;
werr:
	/* libarchive says "Write error"; its errno says why (ENOSPC) */
	error("cannot write '%s': %s", tmp, archive_errno(a) > 0 ?
	      strerror(archive_errno(a)) : archive_error_string(a));
out:
	if (a)
		archive_write_free(a);
	archive_entry_free(ae);
	if (fd >= 0)
		close(fd);
	if (rc)
		unlink(tmp);
	return rc;
}
