/* term: the one way text from outside reaches a terminal.  A bundle, an
 * import, a --root tree or a database may hold escape sequences in any
 * value or file name (a firmware version, a node description, a kernel log
 * line); printed raw they clear the screen, retitle the window, or worse.
 * Every byte written to standard output and standard error goes through
 * term_clean():
 *   - tab and newline pass; CR is dropped (a CRLF file reads as LF);
 *   - any other C0 control (0x00-0x1f) and DEL become '?';
 *   - UTF-8 passes, but a C1 control (U+0080-U+009F, the 8-bit CSI among
 *     them) becomes '?', and so does every byte of a malformed sequence
 *     (a lone 0x9b is CSI to a terminal in 8-bit mode).
 * A sequence cut between two writes is held in the state until the next. */
#ifndef RDMA_TERM_H
#define RDMA_TERM_H

#include <stddef.h>
#include <stdio.h>

struct term_state {
	unsigned char pend[4];	/* a UTF-8 sequence begun, not ended */
	unsigned npend, need;
};

/* clean in[0, n) into out (room for n + 4 bytes: a held sequence may be
 * written now); returns the bytes written */
size_t term_clean(struct term_state *ts, const char *in, size_t n, char *out);
/* what is still held, as '?' each (at the end of the text) */
size_t term_flush(struct term_state *ts, char *out);
/* f (stdout or stderr), whose every byte now goes through term_clean()
 * to its descriptor; NULL if the stream cannot be made or f is another
 * (f is then left as it was) */
FILE *term_guard(FILE *f);
/* the descriptor under f, guarded or not (fileno() of a guard is -1) */
int term_fd(FILE *f);
/* standard output and standard error guarded, for the whole process */
void term_guard_stdio(void);
/* this program's own control sequence s (a colour, a progress bar's CR)
 * to f, past its guard: what f holds is written first */
void term_own(FILE *f, const char *s);

#endif
