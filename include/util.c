/* util: checked parsing and formatting helpers */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
