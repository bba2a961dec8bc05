/* util: checked number parsing, checked formatting, clocks */
#ifndef RDMA_UTIL_H
#define RDMA_UTIL_H

#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* parse a whole decimal (or 0x hex with base 0) number within [min, max];
 * returns 0 or -1 (errno EINVAL/ERANGE), like OpenBSD strtonum */
int parse_ll(const char *s, int base, long long min, long long max,
	     long long *out);
int parse_ull(const char *s, int base, unsigned long long max,
	      unsigned long long *out);
/* snprintf that dies on truncation: for paths we built ourselves */
void xsnprintf(char *dst, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* snprintf that returns -1 on truncation: for paths from outside */
int check_snprintf(char *dst, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int64_t mono_ms(void);
int64_t mono_us(void);
/* string starts with prefix */
int starts_with(const char *s, const char *prefix);

#endif
