/* test-term: the terminal sanitizer (include/term.c), byte by byte and
 * with sequences cut between writes */
#include <string.h>

#include "t.h"
#include "term.h"

/* in, written in pieces of cut bytes (0: whole), then flushed */
static const char *clean(const char *in, size_t len, size_t cut)
{
	static char out[1024];
	struct term_state ts;
	size_t i, o = 0, k;

	memset(&ts, 0, sizeof(ts));
	for (i = 0; i < len; i += k) {
		k = cut && len - i > cut ? cut : len - i;
		o += term_clean(&ts, in + i, k, out + o);
	}
	o += term_flush(&ts, out + o);
	out[o] = 0;
	return out;
}

#define C(in, want, what) do {                                           \
	size_t cut_;                                                       \
	for (cut_ = 0; cut_ < 4; cut_++)                                   \
		T_STREQ(clean(in, sizeof(in) - 1, cut_), want,             \
			"%s (written %zu at a time)", what, cut_);         \
} while (0)

int main(void)
{
	C("plain text\tand tab\n", "plain text\tand tab\n", "text, tab, newline pass");
	C("a\x1b[2Jb", "a?[2Jb", "ESC of a CSI sequence is '?'");
	C("t\x1b]0;title\x07x", "t?]0;title?x", "an OSC title and BEL are '?'");
	C("crlf\r\n", "crlf\n", "CR is dropped");
	C("\x7f\x01\x00z", "???z", "DEL and other C0 bytes are '?'");
	C("a\xc2\x9b" "2Jb", "a?2Jb", "C1 CSI as UTF-8 (U+009B) is '?'");
	C("a\x9b" "2J", "a?2J", "a lone 0x9b byte is '?'");
	C("\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9", "UTF-8 letters pass");
	C("\xe2\x82\xac \xf0\x9f\x98\x80", "\xe2\x82\xac \xf0\x9f\x98\x80",
	  "3- and 4-byte UTF-8 passes");
	C("x\xe2\x80\xae" "cba", "x?cba", "a right-to-left override is '?'");
	C("\xc0\xaf", "??", "an overlong '/' is '?' each");
	C("\xed\xa0\x80", "?", "a surrogate is '?'");
	C("\xe2\x82" "x", "??x", "a sequence cut short: each byte '?'");
	C("end\xe2\x82", "end??", "a sequence cut by the end: '?' each");
	return t_done();
}
