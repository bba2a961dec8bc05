/* term: what reaches a terminal (term.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "term.h"

/* a whole sequence held in ts: the code point's bytes, or one '?' for an
 * overlong form, a surrogate, a C1 control or a bidirectional override
 * (U+202A-U+202E, U+2066-U+2069: text that reads other than it runs) */
static size_t sequence(struct term_state *ts, char *out)
{
	const unsigned char *b = ts->pend;
	unsigned long cp;
	unsigned i, n = ts->npend;
	int ok;

	cp = b[0] & (n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07);
	for (i = 1; i < n; i++)
		cp = cp << 6 | (b[i] & 0x3f);
	ts->npend = 0;
	ok = n == 2 ? cp > 0x9f :
	     n == 3 ? cp >= 0x800 && (cp < 0xd800 || cp > 0xdfff) &&
		      !(cp >= 0x202a && cp <= 0x202e) &&
		      !(cp >= 0x2066 && cp <= 0x2069) :
	     cp >= 0x10000 && cp <= 0x10ffff;
	if (!ok) {
		*out = '?';
		return 1;
	}
	memcpy(out, b, n);
	return n;
}

size_t term_flush(struct term_state *ts, char *out)
{
	size_t n = ts->npend;

	memset(out, '?', n);
	ts->npend = 0;
	return n;
}

size_t term_clean(struct term_state *ts, const char *in, size_t n, char *out)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)in[i];

		if (ts->npend) {
			if ((c & 0xc0) == 0x80) {
				ts->pend[ts->npend++] = c;
				if (ts->npend == ts->need)
					o += sequence(ts, out + o);
				continue;
			}
			/* cut short: each byte held is malformed */
			o += term_flush(ts, out + o);
		}
		if (c == '\t' || c == '\n') {
			out[o++] = (char)c;
		} else if (c == '\r') {
			continue;
		} else if (c < 0x20 || c == 0x7f) {
			out[o++] = '?';
		} else if (c < 0x80) {
			out[o++] = (char)c;
		} else if (c >= 0xc2 && c <= 0xf4) {
			ts->pend[0] = c;
			ts->npend = 1;
			ts->need = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
		} else {
			out[o++] = '?';
		}
	}
	return o;
}

struct guard {
	int fd;
	struct term_state ts;
};

/* standard output's and standard error's: static, as the streams live
 * until exit (a guard allocated would be a leak at exit: exit() flushes a
 * stream, it does not close it) */
static struct guard guards[2];
static struct {
	FILE *f;
	int fd;
} guarded[2];

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static ssize_t guard_write(void *cookie, const char *buf, size_t n)
{
	struct guard *g = cookie;
	char out[4096 + 4];
	size_t done = 0;

	while (done < n) {
		size_t k = n - done > 4096 ? 4096 : n - done;
		size_t m = term_clean(&g->ts, buf + done, k, out);

		if (write_all(g->fd, out, m) < 0)
			return done ? (ssize_t)done : -1;
		done += k;
	}
	return (ssize_t)n;
}

static int guard_close(void *cookie)
{
	struct guard *g = cookie;
	char out[4];

	/* the descriptor stays: it is the process's stdout or stderr */
	return write_all(g->fd, out, term_flush(&g->ts, out));
}

FILE *term_guard(FILE *f)
{
	cookie_io_functions_t io = { NULL, guard_write, NULL, guard_close };
	struct guard *g;
	FILE *t;

	if (f != stdout && f != stderr)
		return NULL;
	fflush(f);
	g = &guards[f == stderr];
	memset(g, 0, sizeof(*g));
	g->fd = fileno(f);
	t = g->fd < 0 ? NULL : fopencookie(g, "w", io);
	if (!t)
		return NULL;
	if (f == stderr)
		setvbuf(t, NULL, _IONBF, 0);
	guarded[f == stderr].f = t;
	guarded[f == stderr].fd = g->fd;
	return t;
}

int term_fd(FILE *f)
{
	size_t i;

	for (i = 0; i < 2; i++)
		if (guarded[i].f && guarded[i].f == f)
			return guarded[i].fd;
	return fileno(f);
}

void term_own(FILE *f, const char *s)
{
	size_t i;

	if (!*s)
		return;
	for (i = 0; i < 2; i++) {
		if (guarded[i].f && guarded[i].f == f) {
			fflush(f);
			write_all(guarded[i].fd, s, strlen(s));
			return;
		}
	}
	fputs(s, f);
}

void term_guard_stdio(void)
{
	FILE *o = term_guard(stdout), *e = term_guard(stderr);

	if (o)
		stdout = o;
	if (e)
		stderr = e;
}
