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
/* the strings up to a NULL, one after another, into dst: the length, or
 * -1 and "" when they do not fit (a cut path names nothing).  For paths
 * built thousands of times a bundle, where vsnprintf's parsing of "%s/%s"
 * cost more than the copy. */
int pjoin(char *dst, size_t n, ...) __attribute__((sentinel));
int64_t mono_ms(void);
int64_t mono_us(void);
/* open a file someone named, for reading: "-" is standard input; any other
 * must be a regular file (a FIFO, a device, /dev/zero are refused without
 * blocking; /dev/null is taken as empty) of at most max bytes.  The descriptor, or -1 with the reason in
 * err */
int open_named_file(const char *path, uint64_t max, char *err, size_t errlen);
/* read a file someone named whole, NUL-terminated, as open_named_file()
 * opens it; at most max bytes.  0, or -1 with the reason in err */
int read_named_file(const char *path, size_t max, char **data, size_t *len,
		    char *err, size_t errlen);
/* an unsigned counter as SQLite's signed INTEGER stores it: at or above
 * 2^63 (a saturated 64-bit counter, 2^64 - 1) it is held at INT64_MAX,
 * which the rules read as "at its maximum", never as negative */
static inline int64_t u64_stored(uint64_t v)
{
	return v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v;
}
/* the n bytes at s are all white space / all hex digits (true when n is 0) */
int all_blank(const char *s, size_t n);
int all_hex(const char *s, size_t n);
/* "EACCES" for EACCES; "EUNKNOWN" for what libc cannot name */
const char *errno_name(int err);
/* string starts with prefix (inline, a byte at a time: most tries fail at
 * the first or second byte, where a call to strncmp cost more than the
 * comparison; load-rdma.c tries thousands of names a bundle) */
static inline int starts_with(const char *s, const char *prefix)
{
	while (*prefix && *s == *prefix)
		s++, prefix++;
	return !*prefix;
}

/* FNV-1a, 64 bits: a hash for tables and for telling equal texts apart
 * quickly, never a security boundary.  Start from FNV1A_INIT; feed bytes,
 * a string, or 64-bit words (a word as one step: the pairs model hashes
 * its integer rows that way) */
#define FNV1A_INIT 0xcbf29ce484222325ULL
#define FNV1A_PRIME 0x100000001b3ULL
static inline uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;

	while (n--)
		h = (h ^ *s++) * FNV1A_PRIME;
	return h;
}

static inline uint64_t fnv1a_str(uint64_t h, const char *s)
{
	while (*s)
		h = (h ^ (unsigned char)*s++) * FNV1A_PRIME;
	return h;
}

static inline uint64_t fnv1a_word(uint64_t h, uint64_t w)
{
	return (h ^ w) * FNV1A_PRIME;
}

/* big-endian bytes */
static inline uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static inline uint64_t get_be64(const unsigned char *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

static inline void put_be64(unsigned char *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

#endif
