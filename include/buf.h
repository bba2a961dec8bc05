/* buf: a growable byte buffer with an optional size cap.
 *
 * Like git's strbuf, b->buf is never NULL and always NUL-terminated, so a
 * buffer can be printed without checks.  Like curl's dynbuf, a buffer may
 * carry a cap: bytes beyond it are refused (buf_add) or push the oldest
 * bytes out (buf_add_tail), and b->truncated records that it happened, so
 * a runaway procfs file cannot eat memory.
 *
 * Ownership: the buffer owns b->buf; buf_detach() hands it to the caller.
 */
#ifndef RDMA_BUF_H
#define RDMA_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
	char *buf;
	size_t len;
	size_t alloc;
	size_t cap;		/* 0: no cap */
	int truncated;
};

extern char buf_empty[];
#define BUF_INIT { buf_empty, 0, 0, 0, 0 }

void buf_init(struct buf *b, size_t cap);
/* free the contents; the buffer is empty and usable afterwards */
void buf_release(struct buf *b);
/* hand the bytes to the caller (malloc'ed, NUL-terminated); *len may be NULL */
char *buf_detach(struct buf *b, size_t *len);
void buf_reset(struct buf *b);
/* append; returns 0, or -1 when the cap cut the data (b->truncated is set) */
int buf_add(struct buf *b, const void *data, size_t len);
int buf_addstr(struct buf *b, const char *s);
int buf_addch(struct buf *b, int c);
int buf_addf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int buf_vaddf(struct buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* append keeping only the last b->cap bytes (the tail of a log) */
void buf_add_tail(struct buf *b, const void *data, size_t len);
/* make room for n more bytes (not counting the NUL) */
void buf_grow(struct buf *b, size_t n);
void buf_setlen(struct buf *b, size_t len);

#endif
