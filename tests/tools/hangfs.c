/* hangfs: a read-only pass-through FUSE filesystem that misbehaves on
 * purpose, to test that rdma-collect never hangs.
 *
 *   hangfs SRC MOUNTPOINT [-f] [-d] [-s] [-o OPT,...]
 *          [--hang PATH...] [--eio PATH...] [--endless PATH...]
 *
 * SRC is shown read-only at MOUNTPOINT: directories, symlinks (their
 * target text as is), getattr (regular files with their real sizes) and
 * reads pass through, except for reads of the named files:
 *
 *   --hang PATH     a read blocks forever, like a sysfs counter read when
 *                   the firmware is wedged (open and stat still work).  The
 *                   reader is left in an uninterruptible wait, even after
 *                   SIGKILL, until hangfs is told to end (then EIO).
 *   --eio PATH      a read fails with EIO.
 *   --endless PATH  a read never reaches the end: every read returns all
 *                   the bytes asked for ("endless\n" repeated).
 *
 * PATH is a path inside SRC ("/proc/uptime" or "proc/uptime"); symlinks in
 * it are resolved inside SRC, so a class path such as
 * /sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error names the file
 * the kernel will ask for.  Each option takes one or more paths, and may
 * be repeated; SRC and MOUNTPOINT come first.
 *
 * Every file is opened in direct-I/O mode (no page cache, as sysfs), so
 * each read reaches hangfs.  Without -f, hangfs daemonizes once the mount
 * is up (libfuse's default); with -f it stays in the foreground, which is
 * what the tests use ("hangfs ... -f & pid=$!").
 *
 * Unmounting: SIGTERM or SIGINT to hangfs ends it, which releases the
 * blocked readers and unmounts.  "fusermount3 -u MOUNTPOINT" works when no
 * read is blocked (a blocked reader keeps the file busy; use -z then, and
 * kill hangfs).  Exit status 77 means hangfs was built without libfuse3.
 */
#define FUSE_USE_VERSION 31

#include <stdio.h>
#include <stdlib.h>

#if !__has_include(<fuse.h>)

int main(void)
{
	fprintf(stderr, "hangfs: built without libfuse3 (install "
		"libfuse3-dev and rebuild)\n");
	return 77;
}

#else

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <fuse_lowlevel.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

enum kind {
	K_NONE,
	K_HANG,
	K_EIO,
	K_ENDLESS,
};

struct special {
	char *path;	/* "/proc/uptime", as FUSE names it */
	enum kind kind;
};

static struct special *specials;
static size_t nspecials;
static int srcfd = -1;

static void *xalloc(void *p)
{
	if (!p) {
		fprintf(stderr, "hangfs: out of memory\n");
		exit(1);
	}
	return p;
}

/* "/a/b" -> "a/b", "/" -> "." (relative to srcfd) */
static const char *rel(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

static enum kind kind_of(const char *path)
{
	size_t i;

	for (i = 0; i < nspecials; i++)
		if (!strcmp(specials[i].path, path))
			return specials[i].kind;
	return K_NONE;
}

/* PATH inside SRC, symlinks resolved inside SRC, as "/x/y" */
static void add_special(const char *srcreal, const char *path, enum kind k)
{
	char full[PATH_MAX * 2], real[PATH_MAX], *p;
	size_t sl = strlen(srcreal);
	int n;

	while (*path == '/')
		path++;
	n = snprintf(full, sizeof(full), "%s/%s", srcreal, path);
	if (n > 0 && n < PATH_MAX && realpath(full, real) && !strncmp(real, srcreal, sl) &&
	    (real[sl] == '/' || !real[sl])) {
		p = xalloc(strdup(real[sl] ? real + sl : "/"));
	} else {
		p = xalloc(malloc(strlen(path) + 2));
		sprintf(p, "/%s", path);
		while (strlen(p) > 1 && p[strlen(p) - 1] == '/')
			p[strlen(p) - 1] = 0;
	}
	specials = xalloc(realloc(specials,
				  (nspecials + 1) * sizeof(*specials)));
	specials[nspecials].path = p;
	specials[nspecials].kind = k;
	nspecials++;
}

static void *hfs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	cfg->direct_io = 1;
	cfg->kernel_cache = 0;
	cfg->use_ino = 1;
	return NULL;
}

static int hfs_getattr(const char *path, struct stat *st,
		       struct fuse_file_info *fi)
{
	int rc;

	if (fi)
		rc = fstat((int)fi->fh, st);
	else
		rc = fstatat(srcfd, rel(path), st, AT_SYMLINK_NOFOLLOW);
	return rc < 0 ? -errno : 0;
}

static int hfs_readlink(const char *path, char *buf, size_t size)
{
	ssize_t n;

	if (!size)
		return -EINVAL;
	n = readlinkat(srcfd, rel(path), buf, size - 1);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return 0;
}

static int hfs_open(const char *path, struct fuse_file_info *fi)
{
	int fd;

	if ((fi->flags & O_ACCMODE) != O_RDONLY)
		return -EROFS;
	fd = openat(srcfd, rel(path), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	fi->fh = (uint64_t)fd;
	fi->direct_io = 1;
	return 0;
}

static int hfs_read(const char *path, char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	static const char pat[] = "endless\n";
	struct fuse_session *se;
	ssize_t n;
	size_t i;

	switch (kind_of(path)) {
	case K_HANG:
		/* until hangfs is told to end: then the thread can be joined */
		se = fuse_get_session(fuse_get_context()->fuse);
		while (!fuse_session_exited(se))
			usleep(100000);
		return -EIO;
	case K_EIO:
		return -EIO;
	case K_ENDLESS:
		for (i = 0; i < size; i++)
			buf[i] = pat[((size_t)off + i) % (sizeof(pat) - 1)];
		return (int)size;
	case K_NONE:
		break;
	}
	n = pread((int)fi->fh, buf, size, off);
	return n < 0 ? -errno : (int)n;
}

static int hfs_release(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	close((int)fi->fh);
	return 0;
}

static int hfs_opendir(const char *path, struct fuse_file_info *fi)
{
	DIR *d;
	int fd;

	fd = openat(srcfd, rel(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	fi->fh = (uint64_t)(uintptr_t)d;
	return 0;
}

static int hfs_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
		       off_t off, struct fuse_file_info *fi,
		       enum fuse_readdir_flags flags)
{
	DIR *d = (DIR *)(uintptr_t)fi->fh;
	struct dirent *de;

	(void)path;
	(void)off;
	(void)flags;
	rewinddir(d);
	while ((de = readdir(d))) {
		struct stat st;

		memset(&st, 0, sizeof(st));
		st.st_ino = de->d_ino;
		st.st_mode = (mode_t)DTTOIF(de->d_type);
		if (fill(buf, de->d_name, &st, 0, 0))
			break;
	}
	return 0;
}

static int hfs_releasedir(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	closedir((DIR *)(uintptr_t)fi->fh);
	return 0;
}

static int hfs_statfs(const char *path, struct statvfs *st)
{
	(void)path;
	return fstatvfs(srcfd, st) < 0 ? -errno : 0;
}

static int hfs_access(const char *path, int mask)
{
	if (mask & W_OK)
		return -EROFS;
	return faccessat(srcfd, rel(path), mask, AT_SYMLINK_NOFOLLOW) < 0 ?
		-errno : 0;
}

static const struct fuse_operations ops = {
	.init = hfs_init,
	.getattr = hfs_getattr,
	.readlink = hfs_readlink,
	.open = hfs_open,
	.read = hfs_read,
	.release = hfs_release,
	.opendir = hfs_opendir,
	.readdir = hfs_readdir,
	.releasedir = hfs_releasedir,
	.statfs = hfs_statfs,
	.access = hfs_access,
};

static int usage(void)
{
	fprintf(stderr, "usage: hangfs SRC MOUNTPOINT [-f] [-d] [-s] "
		"[-o OPT,...] [--hang PATH...] [--eio PATH...] "
		"[--endless PATH...]\n");
	return 2;
}

int main(int argc, char **argv)
{
	char srcreal[PATH_MAX], **fargv;
	enum kind k = K_NONE;
	int i, fargc = 0, rc;

	if (argc < 3 || argv[1][0] == '-' || argv[2][0] == '-')
		return usage();
	if (!realpath(argv[1], srcreal)) {
		fprintf(stderr, "hangfs: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	srcfd = open(srcreal, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (srcfd < 0) {
		fprintf(stderr, "hangfs: %s: %s\n", srcreal, strerror(errno));
		return 1;
	}
	fargv = xalloc(calloc((size_t)argc + 4, sizeof(*fargv)));
	fargv[fargc++] = argv[0];
	fargv[fargc++] = argv[2];
	fargv[fargc++] = "-o";
	fargv[fargc++] = "ro,fsname=hangfs,subtype=hangfs";
	for (i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "--hang")) {
			k = K_HANG;
		} else if (!strcmp(argv[i], "--eio")) {
			k = K_EIO;
		} else if (!strcmp(argv[i], "--endless")) {
			k = K_ENDLESS;
		} else if (argv[i][0] != '-' && k != K_NONE) {
			add_special(srcreal, argv[i], k);
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			k = K_NONE;
			fargv[fargc++] = argv[i++];
			fargv[fargc++] = argv[i];
		} else if (!strcmp(argv[i], "-f") || !strcmp(argv[i], "-d") ||
			   !strcmp(argv[i], "-s") ||
			   !strncmp(argv[i], "-o", 2)) {
			k = K_NONE;
			fargv[fargc++] = argv[i];
		} else {
			free(fargv);
			return usage();
		}
	}
	rc = fuse_main(fargc, fargv, &ops, NULL);
	free(fargv);
	return rc;
}

#endif
