/* import-read: an import's input (a folder, or an archive in any format
 * libarchive reads) read whole into memory, never extracted, under the
 * bundle limits (see imp.h, struct imp_input).
 *
 * Names are checked as breader checks a bundle's: relative, no "." or
 * ".." parts, no control characters; others are counted in `ignored`, as
 * are devices, FIFOs, sockets and hard links.  Folders are walked with
 * openat(O_NOFOLLOW): a symlink is kept as a link (its target text), never
 * followed, so a folder cannot lead the reader out of itself. */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "imp.h"
#include "log.h"
#include "util.h"

#define MAX_DEPTH 32

struct rd {
	const struct br_limits *lim;
	struct imp_input *in;
	size_t nalloc, lalloc;
	size_t entries;		/* files, links and folders seen */
	char **dirs;		/* folder names: only for the top folder rule */
	size_t ndirs, dalloc;
	int names_only;
	char *err;
	size_t errlen;
};

/* a name we accept (see breader's clean_path): a copy, or NULL */
static char *clean_name(const char *p, size_t max)
{
	size_t n = strlen(p), i;
	const char *s, *e;

	while (n >= 2 && p[0] == '.' && p[1] == '/') {
		p += 2;
		n -= 2;
	}
	while (n && p[n - 1] == '/')
		n--;
	if (!n || n >= max || p[0] == '/')
		return NULL;
	for (i = 0; i < n; i++)
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
			return NULL;
	for (s = p; s < p + n; s = e + 1) {
		e = memchr(s, '/', (size_t)(p + n - s));
		if (!e)
			e = p + n;
		if (e == s || (e - s == 1 && s[0] == '.') ||
		    (e - s == 2 && s[0] == '.' && s[1] == '.'))
			return NULL;
	}
	return xstrndup(p, n);
}

static int count_entry(struct rd *r)
{
	if (++r->entries > r->lim->max_entries) {
		snprintf(r->err, r->errlen, "more than %zu entries",
			 r->lim->max_entries);
		return -1;
	}
	return 0;
}

/* data is taken over (NUL-terminated, len bytes) */
static int add_file(struct rd *r, char *name, char *data, size_t len,
		    long long mtime)
{
	struct imp_input *in = r->in;

	if (in->bytes + len > r->lim->max_total) {
		snprintf(r->err, r->errlen, "uncompressed size over the limit "
			 "(%zu MiB in all): a decompression bomb?",
			 r->lim->max_total >> 20);
		free(name);
		free(data);
		return -1;
	}
	if (in->n == r->nalloc) {
		r->nalloc = r->nalloc ? r->nalloc * 2 : 256;
		in->v = xrealloc(in->v, r->nalloc * sizeof(*in->v));
	}
	in->v[in->n].name = name;
	in->v[in->n].data = data;
	in->v[in->n].len = len;
	in->n++;
	in->bytes += len;
	if (mtime > in->mtime)
		in->mtime = mtime;
	return 0;
}

static void add_link(struct rd *r, char *name, const char *target)
{
	struct imp_input *in = r->in;

	if (in->nlinks == r->lalloc) {
		r->lalloc = r->lalloc ? r->lalloc * 2 : 64;
		in->links = xrealloc(in->links, r->lalloc * sizeof(*in->links));
	}
	in->links[in->nlinks].name = name;
	in->links[in->nlinks].data = xstrdup(target);
	in->links[in->nlinks].len = strlen(target);
	in->nlinks++;
}

static void add_dir(struct rd *r, char *name)
{
	if (r->ndirs == r->dalloc) {
		r->dalloc = r->dalloc ? r->dalloc * 2 : 64;
		r->dirs = xrealloc(r->dirs, r->dalloc * sizeof(*r->dirs));
	}
	r->dirs[r->ndirs++] = name;
}

static int too_big(struct rd *r, const char *name, size_t len)
{
	snprintf(r->err, r->errlen, "entry '%.80s' has %zu bytes or more, more "
		 "than the %zu MiB limit", name, len, r->lim->max_entry >> 20);
	return -1;
}

/* A whole input file, through fn (read(2) or libarchive's), at most
 * max_entry bytes; the data NUL-terminated.  fn returns the bytes read,
 * 0 at the end, -1 with the reason in r->err. */
typedef ssize_t (*read_fn)(struct rd *r, void *src, const char *name,
			   char *buf, size_t n);

static int read_all(struct rd *r, read_fn fn, void *src, const char *name,
		    char **data, size_t *len)
{
	size_t alloc = 4096, got = 0;
	char *p = xmalloc(alloc);

	for (;;) {
		ssize_t k;

		if (got + 1 == alloc) {
			if (alloc > r->lim->max_entry) {
				free(p);
				return too_big(r, name, got);
			}
			alloc *= 2;
			p = xrealloc(p, alloc);
		}
		k = fn(r, src, name, p + got, alloc - 1 - got);
		if (k < 0) {
			free(p);
			return -1;
		}
		if (!k)
			break;
		got += (size_t)k;
	}
	if (got > r->lim->max_entry) {
		free(p);
		return too_big(r, name, got);
	}
	p[got] = 0;
	*data = p;
	*len = got;
	return 0;
}

/* --- folders --- */

static ssize_t fd_read(struct rd *r, void *src, const char *name, char *buf,
		       size_t n)
{
	ssize_t k;

	do
		k = read(*(int *)src, buf, n);
	while (k < 0 && errno == EINTR);
	if (k < 0)
		snprintf(r->err, r->errlen, "cannot read '%.200s': %s", name,
			 strerror(errno));
	return k;
}

static int read_fd(struct rd *r, int fd, const char *name, char **data,
		   size_t *len)
{
	return read_all(r, fd_read, &fd, name, data, len);
}

static int walk(struct rd *r, int dfd, const char *prefix, int depth)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	int rc = 0;

	if (!d) {
		close(dfd);
		snprintf(r->err, r->errlen, "cannot list '%.200s': %s",
			 *prefix ? prefix : ".", strerror(errno));
		return -1;
	}
	while (!rc && (de = readdir(d))) {
		char full[PATH_MAX], *name;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (check_snprintf(full, sizeof(full), "%s%s%s", prefix,
				   *prefix ? "/" : "", de->d_name) < 0 ||
		    !(name = clean_name(full, r->lim->max_path))) {
			r->in->ignored++;
			continue;
		}
		if ((rc = count_entry(r)) < 0 ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			free(name);
			continue;
		}
		if (S_ISDIR(st.st_mode) && depth < MAX_DEPTH) {
			int sub = openat(dirfd(d), de->d_name, O_RDONLY |
					 O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (sub < 0) {
				r->in->ignored++;
				free(name);
				continue;
			}
			rc = walk(r, sub, name, depth + 1);
			add_dir(r, name);
		} else if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX];
			ssize_t k = readlinkat(dirfd(d), de->d_name, target,
					       sizeof(target) - 1);

			if (k < 0) {
				r->in->ignored++;
				free(name);
				continue;
			}
			target[k] = 0;
			add_link(r, name, target);
		} else if (S_ISREG(st.st_mode)) {
			char *data = NULL;
			size_t len = 0;
			int fd;

			if ((size_t)st.st_size > r->lim->max_entry) {
				rc = too_big(r, name, (size_t)st.st_size);
				free(name);
				break;
			}
			if (r->names_only) {
				rc = add_file(r, name, xstrdup(""), 0, 0);
				continue;
			}
			fd = openat(dirfd(d), de->d_name, O_RDONLY | O_NOFOLLOW |
				    O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
			if (fd < 0) {
				r->in->ignored++;
				free(name);
				continue;
			}
			rc = read_fd(r, fd, name, &data, &len);
			close(fd);
			if (rc)
				free(name);
			else
				rc = add_file(r, name, data, len,
					      (long long)st.st_mtime);
		} else {
			r->in->ignored++;	/* device, FIFO, socket */
			free(name);
		}
	}
	closedir(d);
	return rc;
}

/* --- archives --- */

static ssize_t archive_read(struct rd *r, void *src, const char *name,
			    char *buf, size_t n)
{
	la_ssize_t k = archive_read_data(src, buf, n);

	(void)name;
	if (k < 0)
		snprintf(r->err, r->errlen, "truncated or corrupt: %s",
			 archive_error_string(src));
	return (ssize_t)k;
}

static int read_entry(struct rd *r, struct archive *a, const char *name,
		      char **data, size_t *len)
{
	return read_all(r, archive_read, a, name, data, len);
}

static int read_archive(struct rd *r, const char *path)
{
	struct archive *a = archive_read_new();
	struct archive_entry *ae;
	int rc = 0, h;

	archive_read_support_filter_all(a);
	/* every archive format but the text-like ones: mtree takes any line
	 * of a pasted output for an entry's name ("hello" is a file), warc
	 * is no evidence anyone keeps */
	archive_read_support_format_7zip(a);
	archive_read_support_format_ar(a);
	archive_read_support_format_cab(a);
	archive_read_support_format_cpio(a);
	archive_read_support_format_iso9660(a);
	archive_read_support_format_lha(a);
	archive_read_support_format_rar(a);
	archive_read_support_format_rar5(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_xar(a);
	archive_read_support_format_zip(a);
	if (archive_read_open_filename(a, path, 65536) != ARCHIVE_OK) {
		snprintf(r->err, r->errlen, "not a readable archive: %s",
			 archive_error_string(a));
		archive_read_free(a);
		return -1;
	}
	while (!rc && (h = archive_read_next_header(a, &ae)) != ARCHIVE_EOF) {
		const char *nm = archive_entry_pathname(ae);
		mode_t type = archive_entry_filetype(ae);
		char *name;

		if (h < ARCHIVE_WARN) {
			snprintf(r->err, r->errlen, "%s after %zu entries: %s",
				 r->entries ? "truncated or corrupt" :
				 "not a readable archive", r->entries,
				 archive_error_string(a));
			rc = -1;
			break;
		}
		if ((rc = count_entry(r)) < 0)
			break;
		name = nm ? clean_name(nm, r->lim->max_path) : NULL;
		if (!name || archive_entry_hardlink(ae)) {
			free(name);
			r->in->ignored++;
			continue;
		}
		if (type == AE_IFDIR) {
			add_dir(r, name);
		} else if (type == AE_IFLNK && archive_entry_symlink(ae)) {
			add_link(r, name, archive_entry_symlink(ae));
		} else if (type == AE_IFREG) {
			char *data = NULL;
			size_t len = 0;

			if (archive_entry_size_is_set(ae) &&
			    archive_entry_size(ae) > (la_int64_t)r->lim->max_entry) {
				rc = too_big(r, name, (size_t)archive_entry_size(ae));
				free(name);
				break;
			}
			if (r->names_only) {
				rc = add_file(r, name, xstrdup(""), 0, 0);
				continue;
			}
			if ((rc = read_entry(r, a, name, &data, &len)) < 0)
				free(name);
			else
				rc = add_file(r, name, data, len,
					      (long long)archive_entry_mtime(ae));
		} else {
			r->in->ignored++;
			free(name);
		}
	}
	archive_read_free(a);
	if (!rc && !r->entries) {
		snprintf(r->err, r->errlen, "empty archive");
		rc = -1;
	}
	return rc;
}

/* --- the top folder --- */

static size_t top_len(const char *name)
{
	const char *s = strchr(name, '/');

	return s ? (size_t)(s - name) : strlen(name);
}

/* every name is T or under T/, and some are under it: T is dropped */
static void drop_top(struct rd *r)
{
	struct imp_input *in = r->in;
	const char *t = NULL;
	size_t tl = 0, i, under = 0;
	struct imp_in *lists[2] = { in->v, in->links };
	size_t counts[2] = { in->n, in->nlinks }, k;

	for (k = 0; k < 2; k++) {
		for (i = 0; i < counts[k]; i++) {
			const char *nm = lists[k][i].name;

			if (!t) {
				t = nm;
				tl = top_len(nm);
			}
			if (strncmp(nm, t, tl) || nm[tl] != '/')
				return;
			under++;
		}
	}
	for (i = 0; i < r->ndirs; i++) {
		const char *nm = r->dirs[i];

		if (!t) {
			t = nm;
			tl = top_len(nm);
		}
		if (strncmp(nm, t, tl) || (nm[tl] && nm[tl] != '/'))
			return;
	}
	if (!under)
		return;
	in->top = xstrndup(t, tl);
	for (k = 0; k < 2; k++) {
		for (i = 0; i < counts[k]; i++) {
			char *nm = (char *)lists[k][i].name;

			memmove(nm, nm + tl + 1, strlen(nm + tl + 1) + 1);
		}
	}
}

static int cmp_in(const void *a, const void *b)
{
	return strcmp(((const struct imp_in *)a)->name,
		      ((const struct imp_in *)b)->name);
}

static const char *stdin_data;
static size_t stdin_len;

void imp_stdin(const char *data, size_t len)
{
	stdin_data = data;
	stdin_len = len;
}

/* one file that is no archive: a pasted output, as it is */
static int read_plain(struct rd *r, const char *path, const struct stat *st)
{
	const char *base = strrchr(path, '/');
	char *data = NULL, *name;
	size_t len = 0;
	int fd, rc;

	base = base && base[1] ? base + 1 : path;
	name = clean_name(base, r->lim->max_path);
	if (!name) {
		snprintf(r->err, r->errlen, "a file name rdma-analyze does not "
			 "take (control characters?)");
		return -1;
	}
	if (r->names_only)
		return add_file(r, name, xstrdup(""), 0, 0);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		snprintf(r->err, r->errlen, "cannot open: %s", strerror(errno));
		free(name);
		return -1;
	}
	rc = read_fd(r, fd, name, &data, &len);
	close(fd);
	if (rc < 0) {
		free(name);
		return -1;
	}
	return add_file(r, name, data, len, (long long)st->st_mtime);
}

int imp_read(const char *path, const struct br_limits *lim, int names_only,
	     struct imp_input *in, char *err, size_t errlen)
{
	struct rd r;
	struct stat st;
	size_t i;
	int rc;

	memset(in, 0, sizeof(*in));
	memset(&r, 0, sizeof(r));
	r.lim = lim ? lim : &br_default_limits;
	r.in = in;
	r.names_only = names_only;
	r.err = err;
	r.errlen = errlen;
	if (!strcmp(path, "-") && stdin_data) {
		/* standard input, read once by the caller */
		if (stdin_len > r.lim->max_entry) {
			snprintf(err, errlen, "standard input: larger than %zu MiB",
				 r.lim->max_entry >> 20);
			return -1;
		}
		rc = add_file(&r, xstrdup("stdin"), names_only ? xstrdup("") :
			      xstrndup(stdin_data, stdin_len),
			      names_only ? 0 : stdin_len, 0);
		goto done;
	}
	if (stat(path, &st) < 0) {
		snprintf(err, errlen, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (fd < 0) {
			snprintf(err, errlen, "cannot open: %s", strerror(errno));
			return -1;
		}
		rc = walk(&r, fd, "", 0);
	} else if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "not a regular file or folder");
		return -1;
	} else if ((size_t)st.st_size > r.lim->max_file) {
		snprintf(err, errlen, "larger than %zu MiB", r.lim->max_file >> 20);
		return -1;
	} else {
		rc = st.st_size ? read_archive(&r, path) : -1;
		/* no archive at all: the file itself is the evidence */
		if (rc && !r.entries && (!st.st_size ||
					 starts_with(err, "not a readable archive"))) {
			imp_input_release(in);
			rc = read_plain(&r, path, &st);
		}
	}
done:
	if (!rc)
		drop_top(&r);
	for (i = 0; i < r.ndirs; i++)
		free(r.dirs[i]);
	free(r.dirs);
	if (rc) {
		imp_input_release(in);
		return -1;
	}
	if (in->n)
		qsort(in->v, in->n, sizeof(*in->v), cmp_in);
	if (in->nlinks)
		qsort(in->links, in->nlinks, sizeof(*in->links), cmp_in);
	return 0;
}

void imp_input_release(struct imp_input *in)
{
	size_t i;

	for (i = 0; i < in->n; i++) {
		free((char *)in->v[i].name);
		free((char *)in->v[i].data);
	}
	for (i = 0; i < in->nlinks; i++) {
		free((char *)in->links[i].name);
		free((char *)in->links[i].data);
	}
	free(in->v);
	free(in->links);
	free(in->top);
	memset(in, 0, sizeof(*in));
}
