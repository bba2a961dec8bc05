/* ctx: how a source reads the node (live or under --root) and hands the
 * evidence to the runner; runs in the source's child process. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "log.h"
#include "src.h"
#include "util.h"
#include "wire.h"

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

#define CTX_MAX_NAMES 100000
/* an endless file (a misbehaving driver) is read this far past the cap */
#define CTX_READ_FACTOR 4

static int is_quiet(const int *quiet, int err)
{
	for (; quiet && *quiet; quiet++)
		if (*quiet == err)
			return 1;
	return 0;
}

/* the root-relative form of an absolute path: "/sys/x" -> "sys/x" */
static const char *rel(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

/* the next name of the path in *p (skipping slashes) into out: its
 * length, 0 at the end, -1 when too long */
static int next_name(const char **p, char *out, size_t n)
{
	size_t l;

	while (**p == '/')
		(*p)++;
	l = strcspn(*p, "/");
	if (l >= n)
		return -1;
	memcpy(out, *p, l);
	out[l] = 0;
	*p += l;
	return (int)l;
}

/* openat2(RESOLVE_IN_ROOT) done by hand, for kernels before 5.6 (RHEL 8's
 * 4.18): a name at a time, never following a link with the kernel's
 * resolution; a link's target is read and walked from the root (absolute)
 * or from its folder (relative), ".." stops at the root, 40 links at most.
 * Only what is inside the root is ever opened. */
#define WALK_DEPTH 256
static int open_in_root(int rootfd, const char *path, int flags)
{
	char todo[2 * PATH_MAX], rest[2 * PATH_MAX], name[NAME_MAX + 1],
	     target[PATH_MAX];
	int stack[WALK_DEPTH], depth = 0, hops = 0, fd = -ENOENT, i;
	const char *p;
	struct stat st;
	ssize_t k;

	stack[0] = rootfd;
	if (check_snprintf(todo, sizeof(todo), "%s", path) < 0)
		return -ENAMETOOLONG;
	p = todo;
	for (;;) {
		int l = next_name(&p, name, sizeof(name)), last;

		if (l < 0) {
			fd = -ENAMETOOLONG;
			break;
		}
		while (*p == '/')
			p++;
		last = !*p;
		if (!l || !strcmp(name, ".")) {
			if (!last && l)
				continue;
			fd = openat(stack[depth], ".", flags);
			fd = fd < 0 ? -errno : fd;
			break;
		}
		if (!strcmp(name, "..")) {
			if (depth)
				close(stack[depth--]);
			if (last) {
				fd = openat(stack[depth], ".", flags);
				fd = fd < 0 ? -errno : fd;
				break;
			}
			continue;
		}
		if (fstatat(stack[depth], name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			fd = -errno;
			break;
		}
		if (S_ISLNK(st.st_mode) && !(last && (flags & O_NOFOLLOW))) {
			k = readlinkat(stack[depth], name, target,
				       sizeof(target) - 1);
			if (k < 0 || ++hops > 40) {
				fd = k < 0 ? -errno : -ELOOP;
				break;
			}
			target[k] = 0;
			if (target[0] == '/')
				while (depth)
					close(stack[depth--]);
			/* the target, then what was left of the path */
			xsnprintf(rest, sizeof(rest), "%s", p);
			if (check_snprintf(todo, sizeof(todo), "%s/%s", target,
					   rest) < 0) {
				fd = -ENAMETOOLONG;
				break;
			}
			p = todo;
			continue;
		}
		if (last) {
			fd = openat(stack[depth], name, flags | O_NOFOLLOW);
			fd = fd < 0 ? -errno : fd;
			break;
		}
		if (depth + 1 >= WALK_DEPTH) {
			fd = -ENAMETOOLONG;
			break;
		}
		fd = openat(stack[depth], name,
			    O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			fd = -errno;
			break;
		}
		stack[++depth] = fd;
	}
	for (i = depth; i > 0; i--)
		close(stack[i]);
	return fd;
}

int ctx_open(struct ctx *c, const char *path, int flags)
{
	static int no_openat2 = -1;
	struct open_how how;
	int fd;

	flags |= O_CLOEXEC;
	if (!ctx_is_root(c)) {
		fd = open(path, flags);
		return fd < 0 ? -errno : fd;
	}
	/* the tests walk by hand on a kernel that has openat2 too */
	if (no_openat2 < 0)
		no_openat2 = getenv("RDMA_COLLECT_TEST_NO_OPENAT2") != NULL;
	if (!no_openat2) {
		memset(&how, 0, sizeof(how));
		how.flags = (uint64_t)flags;
		how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
		fd = (int)syscall(SYS_openat2, c->rootfd, rel(path), &how,
				  sizeof(how));
		if (fd >= 0 || errno != ENOSYS)	/* kernels before 5.6 */
			return fd < 0 ? -errno : fd;
		no_openat2 = 1;
	}
	return open_in_root(c->rootfd, rel(path), flags);
}

/* open the directory holding path, and point *base at the last name */
static int open_parent(struct ctx *c, const char *path, const char **base)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!slash)
		return -EINVAL;
	*base = slash + 1;
	n = (size_t)(slash - path);
	if (n >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, n);
	dir[n] = 0;
	return ctx_open(c, n ? dir : "/", O_PATH | O_DIRECTORY);
}

int ctx_lstat(struct ctx *c, const char *path, struct stat *st)
{
	const char *base;
	int dfd, rc;

	if (!ctx_is_root(c))
		return lstat(path, st) < 0 ? -errno : 0;
	if (!strcmp(rel(path), "."))
		return fstat(c->rootfd, st) < 0 ? -errno : 0;
	dfd = open_parent(c, path, &base);
	if (dfd < 0)
		return dfd;
	rc = fstatat(dfd, base, st, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
	close(dfd);
	return rc;
}

static int read_link(struct ctx *c, const char *path, char *out, size_t n)
{
	const char *base;
	ssize_t len;
	int dfd;

	if (!ctx_is_root(c)) {
		len = readlink(path, out, n - 1);
	} else {
		dfd = open_parent(c, path, &base);
		if (dfd < 0)
			return dfd;
		len = readlinkat(dfd, base, out, n - 1);
		if (len < 0)
			len = -errno;
		close(dfd);
		if (len < 0)
			return (int)len;
	}
	if (len < 0)
		return -errno;
	out[len] = 0;
	return (int)len;
}

int ctx_resolve(struct ctx *c, const char *path, char *out, size_t n)
{
	char host[PATH_MAX], proc[64];
	static char rootreal[PATH_MAX];
	size_t rl;
	ssize_t len;
	int fd;

	if (!ctx_is_root(c)) {
		if (!realpath(path, host))
			return -errno;
		return check_snprintf(out, n, "%s", host) < 0 ? -ENAMETOOLONG : 0;
	}
	if (!rootreal[0] && !realpath(c->opts->root, rootreal))
		return -errno;
	fd = ctx_open(c, path, O_PATH);
	if (fd < 0)
		return fd;
	xsnprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	len = readlink(proc, host, sizeof(host) - 1);
	close(fd);
	if (len < 0)
		return -errno;
	host[len] = 0;
	rl = strlen(rootreal);
	if (strncmp(host, rootreal, rl) || (host[rl] && host[rl] != '/'))
		return -EXDEV;
	return check_snprintf(out, n, "%s", host[rl] ? host + rl : "/") < 0 ?
		-ENAMETOOLONG : 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int ctx_names(struct ctx *c, const char *path, char ***names)
{
	struct dirent *de;
	char **v = NULL;
	size_t n = 0, alloc = 0;
	DIR *d;
	int fd;

	*names = NULL;
	fd = ctx_open(c, path, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n >= CTX_MAX_NAMES) {
			c->errors++;
			wire_send(c->wfd, W_ERR, 0, E2BIG, rel(path),
				  strlen(rel(path)),
				  NULL, 0);
			break;
		}
		if (n == alloc) {
			alloc = alloc ? alloc * 2 : 32;
			v = xrealloc(v, alloc * sizeof(*v));
		}
		v[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_names);
	*names = v;
	return (int)n;
}

void ctx_names_free(char **names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* read an open regular file into out (capped at max_file, tail kept),
 * close it; *mode (may be NULL) gets its mode.  0 or -errno. */
static int read_fd(struct ctx *c, int fd, struct buf *out, uint32_t *mode)
{
	char chunk[65536];
	size_t total = 0, limit;
	struct stat st;
	ssize_t r;
	int err = 0;

	buf_reset(out);
	out->cap = c->opts->max_file;
	limit = out->cap * CTX_READ_FACTOR;
	if (fstat(fd, &st) < 0) {
		err = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		err = S_ISDIR(st.st_mode) ? -EISDIR : -ENXIO;
		goto out;
	}
	if (mode)
		*mode = st.st_mode & 07777;
	/* a real file (not sysfs/procfs, whose sizes mean nothing) larger
	 * than the cap: start at its tail */
	if ((size_t)st.st_size > out->cap + sizeof(chunk) &&
	    lseek(fd, st.st_size - (off_t)out->cap, SEEK_SET) > 0)
		out->truncated = 1;
	for (;;) {
		r = read(fd, chunk, sizeof(chunk));
		if (r < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			goto out;
		}
		if (!r)
			break;
		buf_add_tail(out, chunk, (size_t)r);
		total += (size_t)r;
		if (total > limit) {
			out->truncated = 1;
			break;
		}
	}
out:
	close(fd);
	return err;
}

static int read_file(struct ctx *c, const char *path, struct buf *out,
		     uint32_t *mode)
{
	int fd = ctx_open(c, path, O_RDONLY | O_NONBLOCK | O_NOCTTY);

	if (fd < 0) {
		buf_reset(out);
		return fd;
	}
	return read_fd(c, fd, out, mode);
}

int ctx_read(struct ctx *c, const char *path, struct buf *out)
{
	return read_file(c, path, out, NULL);
}

static int send_path(struct ctx *c, int type, int flags, uint32_t mode,
		     const char *path, const void *data, size_t len)
{
	const char *r = rel(path);

	return wire_send(c->wfd, type, flags, mode, r, strlen(r), data, len);
}

static void count_error(struct ctx *c, const char *path, int err)
{
	if (err == EACCES || err == EPERM)
		c->denied++;
	else if (err == ENOENT)
		c->missing++;
	else
		c->errors++;
	if (err != ENOENT)
		send_path(c, W_ERR, 0, (uint32_t)err, path, NULL, 0);
}

static int file_to(struct ctx *c, const char *path, const char *bpath,
		   const int *quiet)
{
	struct buf b = BUF_INIT;
	uint32_t mode = 0444;
	char key[256];
	int rc;

	if (path_device_key(path, key, sizeof(key))) {
		if (ctx_quarantined(c, key))
			return -EIO;
		ctx_progress(c, key, path);
	} else {
		ctx_progress(c, "", path);
	}
	rc = read_file(c, path, &b, &mode);
	if (rc < 0) {
		if (!is_quiet(quiet, -rc))
			count_error(c, path, -rc);
		buf_release(&b);
		return rc;
	}
	rc = send_path(c, W_FILE, b.truncated ? WF_TRUNC : 0, mode, bpath,
		       b.buf, b.len);
	if (!rc)
		c->files++;
	buf_release(&b);
	return rc;
}

int ctx_file_quiet(struct ctx *c, const char *path, const int *quiet)
{
	return file_to(c, path, path, quiet);
}

int ctx_file(struct ctx *c, const char *path)
{
	return file_to(c, path, path, NULL);
}

int ctx_file_to(struct ctx *c, const char *path, const char *bpath)
{
	return file_to(c, path, bpath, NULL);
}

int ctx_link(struct ctx *c, const char *path)
{
	char target[PATH_MAX];
	int rc;

	rc = read_link(c, path, target, sizeof(target));
	if (rc < 0) {
		if (rc != -EINVAL)
			count_error(c, path, -rc);
		return rc;
	}
	return send_path(c, W_LINK, 0, 0777, path, target, strlen(target));
}

static int walk(struct ctx *c, const char *path, size_t toplen, int depth,
		const struct tree_opts *o)
{
	char **names, full[PATH_MAX], key[256];
	struct stat st;
	int n, i, rc;

	n = ctx_names(c, path, &names);
	if (n < 0) {
		count_error(c, path, -n);
		return n;
	}
	for (i = 0; i < n; i++) {
		int isdir;

		if (check_snprintf(full, sizeof(full), "%s/%s",
				   strcmp(path, "/") ? path : "", names[i]) < 0)
			continue;
		rc = ctx_lstat(c, full, &st);
		if (rc < 0) {
			count_error(c, full, -rc);
			continue;
		}
		isdir = S_ISDIR(st.st_mode);
		if (o && o->skip &&
		    o->skip(names[i], full + (toplen < strlen(full) ?
					      toplen + 1 : strlen(full)), isdir))
			continue;
		if (S_ISLNK(st.st_mode)) {
			ctx_link(c, full);
		} else if (isdir) {
			if (path_device_key(full, key, sizeof(key)) &&
			    ctx_quarantined(c, key))
				continue;
			send_path(c, W_DIR, 0, st.st_mode & 07777, full, NULL, 0);
			if (!o || !o->max_depth || depth < o->max_depth)
				walk(c, full, toplen, depth + 1, o);
		} else if (S_ISREG(st.st_mode) && (st.st_mode & 0444)) {
			/* write-only attributes (demote, ...) are knobs */
			file_to(c, full, full, o ? o->quiet : NULL);
		}
	}
	ctx_names_free(names, n);
	return 0;
}

int ctx_tree(struct ctx *c, const char *path, const struct tree_opts *o)
{
	char real[PATH_MAX];
	struct stat st;
	int rc;

	rc = ctx_lstat(c, path, &st);
	if (rc < 0)
		return rc;
	if (S_ISLNK(st.st_mode)) {
		ctx_link(c, path);
		rc = ctx_resolve(c, path, real, sizeof(real));
		if (rc < 0)
			return rc;
		path = real;
		rc = ctx_lstat(c, path, &st);
		if (rc < 0)
			return rc;
	}
	if (S_ISREG(st.st_mode))
		return file_to(c, path, path, o ? o->quiet : NULL);
	if (!S_ISDIR(st.st_mode))
		return -ENXIO;
	send_path(c, W_DIR, 0, st.st_mode & 07777, path, NULL, 0);
	return walk(c, path, strlen(path), 1, o);
}

int ctx_put(struct ctx *c, const char *path, const void *data, size_t len,
	    unsigned mode)
{
	int rc = send_path(c, W_FILE, 0, mode, path, data, len);

	if (!rc)
		c->files++;
	return rc;
}

int ctx_emit(struct ctx *c, const char *bpath, const void *data, size_t len)
{
	char p[PATH_MAX];
	int rc;

	xsnprintf(p, sizeof(p), "%s/%s", "rdma-collect", bpath);
	rc = wire_send(c->wfd, W_FILE, 0, 0644, p, strlen(p), data, len);
	if (!rc)
		c->files++;
	return rc;
}

int ctx_emit_buf(struct ctx *c, const char *bpath, const struct buf *b)
{
	return ctx_emit(c, bpath, b->buf, b->len);
}

int ctx_stored(struct ctx *c, const char *sub)
{
	char p[PATH_MAX];
	unsigned long before = c->files;
	struct stat st;
	int rc;

	if (!ctx_is_root(c))
		return -ENOENT;
	xsnprintf(p, sizeof(p), "/rdma-collect/%s", sub);
	rc = ctx_lstat(c, p, &st);
	if (rc < 0)
		return rc;
	rc = ctx_tree(c, p, NULL);
	if (rc < 0)
		return rc;
	return (int)(c->files - before);
}

void ctx_progress(struct ctx *c, const char *key, const char *what)
{
	wire_send(c->wfd, W_BEGIN, 0, 0, key, strlen(key), what, strlen(what));
}

int ctx_quarantined(struct ctx *c, const char *key)
{
	size_t i;

	for (i = 0; i < c->nquarantine; i++)
		if (!strcmp(c->quarantine[i], key))
			return 1;
	return 0;
}

void ctx_note(struct ctx *c, const char *key, const char *fmt, ...)
{
	char val[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	wire_send(c->wfd, W_NOTE, 0, 0, key, strlen(key), val, strlen(val));
}

void ctx_reason(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->reason, sizeof(c->reason), fmt, ap);
	va_end(ap);
}

static int is_bdf(const char *s, size_t n)
{
	/* dddd:bb:dd.f */
	static const char shape[] = "xxxx:xx:xx.x";
	size_t i;

	if (n != sizeof(shape) - 1)
		return 0;
	for (i = 0; i < n; i++) {
		if (shape[i] == 'x' ? !strchr("0123456789abcdef", s[i]) :
				      s[i] != shape[i])
			return 0;
	}
	return 1;
}

const char *path_device_key(const char *path, char *out, size_t n)
{
	const char *p, *e, *bdf = NULL;
	size_t bdflen = 0;
	static const char *const parents[] = {
		"/infiniband/", "/net/", NULL,
	};
	int i;

	for (i = 0; parents[i]; i++) {
		p = strstr(path, parents[i]);
		if (!p)
			continue;
		p += strlen(parents[i]);
		e = strchrnul(p, '/');
		if (e > p && (size_t)(e - p) < n) {
			memcpy(out, p, (size_t)(e - p));
			out[e - p] = 0;
			return out;
		}
	}
	for (p = path; *p; p = e) {
		while (*p == '/')
			p++;
		e = strchrnul(p, '/');
		if (is_bdf(p, (size_t)(e - p))) {
			bdf = p;
			bdflen = (size_t)(e - p);
		}
	}
	if (bdf && bdflen < n) {
		memcpy(out, bdf, bdflen);
		out[bdflen] = 0;
		return out;
	}
	return NULL;
}

int ctx_emit_capped(struct ctx *c, const char *bpath, const struct buf *b)
{
	char p[PATH_MAX];
	int rc;

	if (check_snprintf(p, sizeof(p), "rdma-collect/%s", bpath) < 0)
		return -ENAMETOOLONG;
	rc = wire_send(c->wfd, W_FILE, b->truncated ? WF_TRUNC : 0, 0644, p,
		       strlen(p), b->buf, b->len);
	if (!rc)
		c->files++;
	return rc;
}

int ctx_read_host(struct ctx *c, const char *path, struct buf *out)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		buf_reset(out);
		return -errno;
	}
	return read_fd(c, fd, out, NULL);
}

/* --- a library's messages --- */

void ctx_quiet_begin(struct ctx_quiet *q, const char *name)
{
	q->saved = -1;
	q->fd = memfd_create(name, MFD_CLOEXEC);
	if (q->fd < 0)
		return;
	fflush(stderr);
	q->saved = dup(STDERR_FILENO);
	if (q->saved < 0 || dup2(q->fd, STDERR_FILENO) < 0) {
		if (q->saved >= 0)
			close(q->saved);
		close(q->fd);
		q->fd = q->saved = -1;
	}
}

void ctx_quiet_read(struct ctx_quiet *q, struct buf *out, size_t max)
{
	char chunk[4096];
	off_t off = 0;
	ssize_t n;

	if (q->fd < 0)
		return;
	fflush(stderr);
	while (out->len < max &&
	       (n = pread(q->fd, chunk, sizeof(chunk), off)) > 0) {
		buf_add(out, chunk, (size_t)n);
		off += n;
	}
}

void ctx_quiet_end(struct ctx_quiet *q)
{
	if (q->fd < 0)
		return;
	fflush(stderr);
	dup2(q->saved, STDERR_FILENO);
	close(q->saved);
	close(q->fd);
	q->fd = q->saved = -1;
}

void ctx_quiet_note(struct ctx *c, struct ctx_quiet *q, const char *key,
		    size_t max)
{
	struct buf msg = BUF_INIT;
	size_t n;

	ctx_quiet_read(q, &msg, max);
	ctx_quiet_end(q);
	n = msg.len < max ? msg.len : max;
	while (n > 0 && (msg.buf[n - 1] == '\n' || msg.buf[n - 1] == ' '))
		n--;
	if (n)
		ctx_note(c, key, "%.*s", (int)n, msg.buf);
	buf_release(&msg);
}
