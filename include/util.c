/* util: checked parsing and formatting helpers */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "util.h"

int parse_ll(const char *s, int base, long long min, long long max,
	     long long *out)
{
	char *end;
	long long v;

	if (!s || !*s || isspace((unsigned char)*s)) {
		errno = EINVAL;
		return -1;
	}
	errno = 0;
	v = strtoll(s, &end, base);
	if (errno)
		return -1;
	if (*end) {
		errno = EINVAL;
		return -1;
	}
	if (v < min || v > max) {
		errno = ERANGE;
		return -1;
	}
	*out = v;
	return 0;
}

int parse_ull(const char *s, int base, unsigned long long max,
	      unsigned long long *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || isspace((unsigned char)*s)) {
		errno = EINVAL;
		return -1;
	}
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno)
		return -1;
	if (*end) {
		errno = EINVAL;
		return -1;
	}
	if (v > max) {
		errno = ERANGE;
		return -1;
	}
	*out = v;
	return 0;
}

void xsnprintf(char *dst, size_t n, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(dst, n, fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= n)
		die("string too long for buffer: '%.40s...'", dst);
}

int check_snprintf(char *dst, size_t n, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(dst, n, fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= n) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return len;
}

int pjoin(char *dst, size_t n, ...)
{
	va_list ap;
	const char *s;
	size_t len = 0;

	if (!n)
		return -1;
	va_start(ap, n);
	while ((s = va_arg(ap, const char *))) {
		size_t k = strlen(s);

		if (k >= n - len) {
			va_end(ap);
			dst[0] = 0;
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(dst + len, s, k);
		len += k;
	}
	va_end(ap);
	dst[len] = 0;
	return (int)len;
}

int64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t mono_ms(void)
{
	return mono_us() / 1000;
}

const char *errno_name(int err)
{
	const char *s = strerrorname_np(err);

	return s ? s : "EUNKNOWN";
}

static void too_big(uint64_t max, char *err, size_t errlen)
{
	if (max >= 1 << 20)
		snprintf(err, errlen, "larger than %llu MiB",
			 (unsigned long long)(max >> 20));
	else
		snprintf(err, errlen, "larger than %llu KiB",
			 (unsigned long long)(max >> 10));
}

int all_blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

int all_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

int open_named_file(const char *path, uint64_t max, char *err, size_t errlen)
{
	struct stat st;
	int fd;

	if (!strcmp(path, "-"))
		return STDIN_FILENO;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open: %s", strerror(errno));
		return -1;
	}
	/* /dev/null (1:3) is the usual "nothing": it ends at once */
	if (fstat(fd, &st) < 0 || !(S_ISREG(st.st_mode) ||
	    (S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3)))) {
		snprintf(err, errlen, "not a regular file");
		close(fd);
		return -1;
	}
	if ((uint64_t)st.st_size > max) {
		too_big(max, err, errlen);
		close(fd);
		return -1;
	}
	return fd;
}

int read_named_file(const char *path, size_t max, char **data, size_t *len,
		    char *err, size_t errlen)
{
	size_t got = 0, cap = 65536;
	struct stat st;
	char *p;
	int fd;

	fd = open_named_file(path, max, err, errlen);
	if (fd < 0)
		return -1;
	if (fd != STDIN_FILENO && !fstat(fd, &st) && S_ISREG(st.st_mode))
		cap = (size_t)st.st_size;
	p = xmalloc(cap + 1);
	/* read to the end, not to st_size: a file may grow while read */
	for (;;) {
		ssize_t r;

		if (got == cap) {
			cap = cap < 65536 ? 65536 : cap * 2;
			if (cap > max + 1)
				cap = max + 1;
			p = xrealloc(p, cap + 1);
		}
		r = read(fd, p + got, cap - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "cannot read: %s", strerror(errno));
			goto fail;
		}
		if (!r)
			break;
		got += (size_t)r;
		if (got > max) {
			too_big(max, err, errlen);
			goto fail;
		}
	}
	p[got] = 0;
	if (fd != STDIN_FILENO)
		close(fd);
	*data = p;
	*len = got;
	return 0;
fail:
	free(p);
	if (fd != STDIN_FILENO)
		close(fd);
	return -1;
}
