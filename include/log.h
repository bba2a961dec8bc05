/* log: messages in the git style ("prog: what failed: why") and the few
 * allocation wrappers that die instead of returning NULL. */
#ifndef RDMA_LOG_H
#define RDMA_LOG_H

#include <stddef.h>

extern const char *log_prog;	/* set by main() */
extern int log_verbose;		/* -v count */

/* print "prog: msg" to stderr and return -1 */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* internal errors only: print and exit(127); never for bad input */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

#endif
