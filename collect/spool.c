/* spool: retention of a node's bundles in an output folder (--keep), and
 * the lock that keeps it to one collector at a time */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/sysmacros.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bundle.h"
#include "log.h"
#include "spool.h"
#include "util.h"

#define STAMP_LEN 16	/* yyyymmddThhmmssZ */

int spool_parse_keep(const char *s, struct spool_keep *k)
{
	char num[16];
	size_t n = strlen(s);
	int days = n && s[n - 1] == 'd';
	long long v;

	if (days)
		n--;
	if (!n || n >= sizeof(num) || s[0] < '0' || s[0] > '9')
		return -1;
	memcpy(num, s, n);
	num[n] = 0;
	if (parse_ll(num, 10, 1, days ? 36500 : 100000, &v) < 0)
		return -1;
	k->count = days ? 0 : (int)v;
	k->days = days ? (int)v : 0;
	return 0;
}

/* "20261207T074914Z": the time, or -1 unless it is one the collector
 * would write (every field in range: it round-trips) */
static int parse_stamp(const char *s, time_t *t)
{
	char again[STAMP_LEN + 1];
	struct tm tm;
	const char *e;

	memset(&tm, 0, sizeof(tm));
	e = strptime(s, "%Y%m%dT%H%M%SZ", &tm);
	if (!e || e != s + STAMP_LEN)
		return -1;
	*t = timegm(&tm);
	if (!gmtime_r(t, &tm) || strftime(again, sizeof(again),
					  "%Y%m%dT%H%M%SZ", &tm) != STAMP_LEN ||
	    memcmp(again, s, STAMP_LEN))
		return -1;
	return 0;
}

int spool_bundle_name(const char *name, const char *host, time_t *t,
		      unsigned *seq)
{
	size_t hl = strlen(host), sl = strlen(BUNDLE_SUFFIX);
	const char *p = name, *end;
	long long v;
	char num[8];
	size_t n;

	if (strncmp(p, host, hl) || p[hl] != '-')
		return -1;
	p += hl + 1;
	if (strlen(p) < STAMP_LEN + sl || parse_stamp(p, t) < 0)
		return -1;
	p += STAMP_LEN;
	end = name + strlen(name) - sl;
	if (strcmp(end, BUNDLE_SUFFIX))
		return -1;
	*seq = 1;
	if (p == end)
		return 0;
	/* -2 ... -999: the names store_write() tries after a taken one */
	n = (size_t)(end - p);
	if (*p != '-' || n < 2 || n > 4 || p[1] == '0')
		return -1;
	memcpy(num, p + 1, n - 1);
	num[n - 1] = 0;
	if (parse_ll(num, 10, 2, 999, &v) < 0)
		return -1;
	*seq = (unsigned)v;
	return 0;
}

struct old {
	char *name;
	time_t t;
	unsigned seq;
};

/* newest first */
static int cmp_old(const void *a, const void *b)
{
	const struct old *x = a, *y = b;

	if (x->t != y->t)
		return x->t > y->t ? -1 : 1;
	return x->seq > y->seq ? -1 : x->seq < y->seq;
}

/* unlink dir/name if it is a regular file (not a symlink, not a
 * folder): 1 removed, 0 not there, -1 failed (warned) */
static int remove_file(int dfd, const char *dir, const char *name)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT)
			return 0;
		warning("cannot remove '%s/%s': %s", dir, name,
			strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		warning("not removing '%s/%s': not a regular file", dir, name);
		return -1;
	}
	/* unlinkat never follows: a file swapped for a symlink meanwhile
	 * loses only the link */
	if (unlinkat(dfd, name, 0) < 0) {
		if (errno == ENOENT)
			return 0;
		warning("cannot remove '%s/%s': %s", dir, name,
			strerror(errno));
		return -1;
	}
	return 1;
}

/* this host's bundles in the folder, but the one just written: regular
 * files only, so a symlink or a folder of that name neither counts among
 * the kept nor is removed */
static size_t list_old(DIR *d, const char *host, const char *written,
		       struct old **out)
{
	struct old *v = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *de;
	struct stat st;
	unsigned seq;
	time_t t;

	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, written) ||
		    spool_bundle_name(de->d_name, host, &t, &seq) < 0 ||
		    fstatat(dirfd(d), de->d_name, &st,
			    AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		if (n == alloc) {
			alloc = alloc ? alloc * 2 : 64;
			v = xrealloc(v, alloc * sizeof(*v));
		}
		v[n].name = xstrdup(de->d_name);
		v[n].t = t;
		v[n].seq = seq;
		n++;
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_old);
	*out = v;
	return n;
}

int spool_prune(const char *dir, const char *host, const char *written,
		time_t now, const struct spool_keep *k)
{
	char key[NAME_MAX + 8];
	struct old *v;
	size_t n, i;
	int removed = 0;
	DIR *d;

	d = opendir(dir);
	if (!d) {
		warning("--keep: cannot read '%s': %s", dir, strerror(errno));
		return 0;
	}
	n = list_old(d, host, written, &v);
	for (i = 0; i < n; i++) {
		/* the one written counts as the newest of the count */
		if (k->count ? i + 1 < (size_t)k->count :
		    v[i].t >= now - (time_t)k->days * 86400)
			continue;
		if (remove_file(dirfd(d), dir, v[i].name) > 0) {
			removed++;
			info("removed %s/%s (--keep %d%s)", dir, v[i].name,
			     k->count ? k->count : k->days,
			     k->count ? "" : "d");
			/* --redact's key beside it names only this bundle */
			xsnprintf(key, sizeof(key), "%s.key", v[i].name);
			if (remove_file(dirfd(d), dir, key) > 0)
				info("removed %s/%s", dir, key);
		}
	}
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	closedir(d);
	return removed;
}

/* the pid holding an flock on the file st is, from /proc/locks ("1: FLOCK
 * ADVISORY WRITE 4242 08:01:1234 0 EOF", the device in hex); 0 unknown */
static long lock_holder(const struct stat *st)
{
	unsigned maj, mnr;
	unsigned long ino;
	char line[256];
	long pid = 0, p;
	FILE *f;

	f = fopen("/proc/locks", "re");
	if (!f)
		return 0;
	while (!pid && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*d: FLOCK %*s %*s %ld %x:%x:%lu", &p, &maj,
			   &mnr, &ino) == 4 && ino == st->st_ino &&
		    maj == major(st->st_dev) && mnr == minor(st->st_dev))
			pid = p;
	fclose(f);
	return pid;
}

int spool_lock(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;
	long pid;
	int fd;

	if (check_snprintf(path, sizeof(path), "%s/%s", dir, SPOOL_LOCK) < 0)
		return error("output path too long: '%s'", dir);
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return error("output folder '%s' does not exist", dir);
	/* read-only is enough for flock, and lets a user lock a spool
	 * whose lock file root made; O_NONBLOCK: a FIFO put there does not
	 * stall the open */
	fd = open(path, O_RDONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
		  O_CLOEXEC | O_NOCTTY, 0644);
	if (fd < 0)
		return error("cannot lock '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return error("cannot lock '%s': not a regular file", path);
	}
	if (!flock(fd, LOCK_EX | LOCK_NB))
		return fd;
	if (errno != EWOULDBLOCK) {
		error("cannot lock '%s': %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	pid = lock_holder(&st);
	if (pid > 0)
		error("another rdma-collect is writing into %s (pid %ld)", dir,
		      pid);
	else
		error("another rdma-collect is writing into %s", dir);
	close(fd);
	return -2;
}
