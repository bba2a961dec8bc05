/* buf: growable byte buffer with a cap (see buf.h) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "log.h"

char buf_empty[1];

void buf_init(struct buf *b, size_t cap)
{
	b->buf = buf_empty;
	b->len = b->alloc = 0;
	b->cap = cap;
	b->truncated = 0;
}

void buf_release(struct buf *b)
{
	if (b->alloc)
		free(b->buf);
	b->buf = buf_empty;
	b->len = b->alloc = 0;
	b->truncated = 0;
}

char *buf_detach(struct buf *b, size_t *len)
{
	char *p;

	if (len)
		*len = b->len;
	if (b->alloc) {
		p = b->buf;
	} else {
		p = xmalloc(1);
		p[0] = 0;
	}
	b->buf = buf_empty;
	b->len = b->alloc = 0;
	b->truncated = 0;
	return p;
}

void buf_reset(struct buf *b)
{
	b->len = 0;
	b->truncated = 0;
	if (b->alloc)
		b->buf[0] = 0;
}

void buf_grow(struct buf *b, size_t n)
{
	size_t want;

	if (n > (size_t)-1 / 2 - b->len)
		die("buffer size overflow");
	want = b->len + n + 1;
	if (want <= b->alloc)
		return;
	if (want < b->alloc * 3 / 2)
		want = b->alloc * 3 / 2;
	if (want < 64)
		want = 64;
	if (b->alloc) {
		b->buf = xrealloc(b->buf, want);
	} else {
		b->buf = xmalloc(want);
		b->buf[0] = 0;
	}
	b->alloc = want;
}

void buf_setlen(struct buf *b, size_t len)
{
	if (len > (b->alloc ? b->alloc - 1 : 0))
		die("buf_setlen beyond allocation");
	b->len = len;
	if (b->alloc)
		b->buf[len] = 0;
}

int buf_add(struct buf *b, const void *data, size_t len)
{
	int rc = 0;

	if (b->cap && b->len + len > b->cap) {
		len = b->cap > b->len ? b->cap - b->len : 0;
		b->truncated = 1;
		rc = -1;
	}
	if (!len)
		return rc;
	buf_grow(b, len);
	memcpy(b->buf + b->len, data, len);
	buf_setlen(b, b->len + len);
	return rc;
}

int buf_addstr(struct buf *b, const char *s)
{
	return buf_add(b, s, strlen(s));
}

int buf_addch(struct buf *b, int c)
{
	char ch = (char)c;

	return buf_add(b, &ch, 1);
}

int buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	char small[256];
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(small, sizeof(small), fmt, cp);
	va_end(cp);
	if (n < 0)
		die("vsnprintf failed");
	if ((size_t)n < sizeof(small))
		return buf_add(b, small, (size_t)n);
	{
		char *big = xmalloc((size_t)n + 1);
		int rc;

		vsnprintf(big, (size_t)n + 1, fmt, ap);
		rc = buf_add(b, big, (size_t)n);
		free(big);
		return rc;
	}
}

int buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = buf_vaddf(b, fmt, ap);
	va_end(ap);
	return rc;
}

void buf_add_tail(struct buf *b, const void *data, size_t len)
{
	const char *p = data;

	if (!b->cap) {
		buf_add(b, data, len);
		return;
	}
	if (len >= b->cap) {
		p += len - b->cap;
		len = b->cap;
		b->len = 0;
		b->truncated = 1;
	} else if (b->len + len > b->cap) {
		size_t drop = b->len + len - b->cap;

		memmove(b->buf, b->buf + drop, b->len - drop);
		b->len -= drop;
		b->truncated = 1;
	}
	buf_grow(b, len);
	memcpy(b->buf + b->len, p, len);
	buf_setlen(b, b->len + len);
}
