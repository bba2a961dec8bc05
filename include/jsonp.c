/* jsonp: JSON parser (see jsonp.h) */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonp.h"
#include "log.h"

/* A document lives in one arena: a list of chunks that jfree() drops at
 * once.  Members of an array or object are gathered on the parser's stack
 * and copied to the arena when the container closes, so nothing is ever
 * reallocated in it.  (One malloc per value made parsing and freeing the
 * ethtool documents most of the load time.)
 *
 * The text is copied into the arena once and parsed in place: a string
 * ends where its closing quote was (escapes are undone in place: what they
 * stand for is never longer than they are), a number is moved one byte
 * back, over the delimiter already read before it, and ends where its last
 * byte was.  No value is copied again (a copy per string and number was a
 * third of parsing a 1,559-counter ethtool document). */
struct chunk {
	struct chunk *next;
	size_t used, size;
	max_align_t data[];
};

struct jdoc {
	struct chunk *chunks;
	struct jv root;
};

struct parser {
	char *p, *end;		/* in the document's copy of the text */
	char *start;
	char *err;
	size_t errlen;
	int failed;
	struct jdoc *doc;
	struct jv *stk;		/* members of the open containers */
	char **kstk;		/* their keys (objects) */
	size_t top, alloc;
	size_t *budget;		/* values still allowed */
	size_t limit;		/* the budget at the start, for the message */
};

#define CHUNK (64u << 10)

static void *aalloc(struct parser *ps, size_t n)
{
	struct chunk *c = ps->doc->chunks;
	void *r;

	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) *
		sizeof(max_align_t);
	if (!c || c->size - c->used < n) {
		size_t sz = n > CHUNK / 4 ? n : CHUNK;

		c = xmalloc(sizeof(*c) + sz);
		c->size = sz;
		c->used = 0;
		if (n > CHUNK / 4 && ps->doc->chunks) {
			/* a big one: behind the current chunk, which goes on */
			c->next = ps->doc->chunks->next;
			ps->doc->chunks->next = c;
		} else {
			c->next = ps->doc->chunks;
			ps->doc->chunks = c;
		}
	}
	r = (char *)c->data + c->used;
	c->used += n;
	return r;
}

static char *adup(struct parser *ps, const char *s, size_t n)
{
	char *d = aalloc(ps, n + 1);

	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

static void fail(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(struct parser *ps, const char *fmt, ...)
{
	va_list ap;

	if (ps->failed)
		return;
	ps->failed = 1;
	va_start(ap, fmt);
	if (ps->err && ps->errlen)
		vsnprintf(ps->err, ps->errlen, fmt, ap);
	va_end(ap);
}

/* byte classes: the loops over them need no bound, the copy of the text
 * ends with a NUL, which is in none */
enum { C_BLANK = 1, C_PLAIN = 2, C_NUM = 4 };

static const unsigned char cls[256] = {
	[' '] = C_BLANK | C_PLAIN, ['\n'] = C_BLANK, ['\t'] = C_BLANK,
	['\r'] = C_BLANK,
	['!'] = C_PLAIN, ['#' ... '*'] = C_PLAIN, [','] = C_PLAIN,
	['/'] = C_PLAIN, [':' ... 'D'] = C_PLAIN, ['F' ... '['] = C_PLAIN,
	[']' ... 'd'] = C_PLAIN, ['f' ... 0xff] = C_PLAIN,
	['0' ... '9'] = C_PLAIN | C_NUM, ['+'] = C_PLAIN | C_NUM,
	['-'] = C_PLAIN | C_NUM, ['.'] = C_PLAIN | C_NUM,
	['e'] = C_PLAIN | C_NUM, ['E'] = C_PLAIN | C_NUM,
};

static void ws(struct parser *ps)
{
	while (cls[(unsigned char)*ps->p] & C_BLANK)
		ps->p++;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* cp as UTF-8 at w; the end of what was written */
static char *put_utf8(char *w, unsigned cp)
{
	unsigned char *u = (unsigned char *)w;

	if (cp < 0x80) {
		*u++ = (unsigned char)cp;
	} else if (cp < 0x800) {
		*u++ = (unsigned char)(0xc0 | cp >> 6);
		*u++ = (unsigned char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*u++ = (unsigned char)(0xe0 | cp >> 12);
		*u++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		*u++ = (unsigned char)(0x80 | (cp & 0x3f));
	} else {
		*u++ = (unsigned char)(0xf0 | cp >> 18);
		*u++ = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
		*u++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		*u++ = (unsigned char)(0x80 | (cp & 0x3f));
	}
	return (char *)u;
}

static int hex4(struct parser *ps, unsigned *cp)
{
	int i, h;

	if (ps->end - ps->p < 4)
		return -1;
	*cp = 0;
	for (i = 0; i < 4; i++) {
		h = hexval((unsigned char)ps->p[i]);
		if (h < 0)
			return -1;
		*cp = *cp << 4 | (unsigned)h;
	}
	ps->p += 4;
	return 0;
}

/* the string at ps->p (its opening quote), in place: NUL-terminated
 * where it ended, escapes undone (a \uXXXX of 6 bytes is at most 3 of
 * UTF-8, a surrogate pair of 12 is 4: the write never passes the read) */
static char *string(struct parser *ps, size_t *len)
{
	char *s = ++ps->p, *q = s, *w;

	/* most strings have no escape: end them where the quote is */
	while (cls[(unsigned char)*q] & C_PLAIN)
		q++;
	if (q < ps->end && *q == '"') {
		*q = 0;
		*len = (size_t)(q - s);
		ps->p = q + 1;
		return s;
	}
	w = q;
	ps->p = q;
	while (ps->p < ps->end && *ps->p != '"') {
		unsigned char c = (unsigned char)*ps->p++;

		if (c < 0x20) {
			fail(ps, "control character in a string");
			return NULL;
		}
		if (c != '\\') {
			*w++ = (char)c;
			continue;
		}
		if (ps->p >= ps->end)
			break;
		c = (unsigned char)*ps->p++;
		switch (c) {
		case '"': case '\\': case '/': *w++ = (char)c; break;
		case 'b': *w++ = '\b'; break;
		case 'f': *w++ = '\f'; break;
		case 'n': *w++ = '\n'; break;
		case 'r': *w++ = '\r'; break;
		case 't': *w++ = '\t'; break;
		case 'u': {
			unsigned cp, lo;

			if (hex4(ps, &cp) < 0) {
				fail(ps, "bad \\u escape");
				return NULL;
			}
			if (cp >= 0xd800 && cp < 0xdc00 && ps->end - ps->p >= 6 &&
			    ps->p[0] == '\\' && ps->p[1] == 'u') {
				ps->p += 2;
				if (hex4(ps, &lo) < 0 || lo < 0xdc00 || lo > 0xdfff) {
					fail(ps, "bad surrogate pair");
					return NULL;
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if (cp >= 0xd800 && cp <= 0xdfff) {
				cp = 0xfffd;
			}
			w = put_utf8(w, cp);
			break;
		}
		default:
			fail(ps, "bad escape '\\%c'", c);
			return NULL;
		}
	}
	if (ps->p >= ps->end) {
		fail(ps, "unterminated string");
		return NULL;
	}
	ps->p++;
	*w = 0;
	*len = (size_t)(w - s);
	return s;
}

static void value(struct parser *ps, struct jv *v, int depth);

static void push(struct parser *ps)
{
	/* a 62 MiB array of zeros is 32 million values, ~100 bytes of tree
	 * each: the count is what bounds the memory */
	if (!*ps->budget)
		fail(ps, "more than the %zu values allowed", ps->limit);
	else
		--*ps->budget;
	if (ps->top == ps->alloc) {
		ps->alloc = ps->alloc ? ps->alloc * 2 : 256;
		ps->stk = xrealloc(ps->stk, ps->alloc * sizeof(*ps->stk));
		ps->kstk = xrealloc(ps->kstk, ps->alloc * sizeof(*ps->kstk));
	}
	memset(&ps->stk[ps->top], 0, sizeof(ps->stk[ps->top]));
	ps->kstk[ps->top] = NULL;
	ps->top++;
}

/* the members gathered since base become v's, in the arena */
static void close_container(struct parser *ps, struct jv *v, size_t base,
			    int obj)
{
	v->n = ps->top - base;
	if (v->n) {
		v->v = aalloc(ps, v->n * sizeof(*v->v));
		memcpy(v->v, ps->stk + base, v->n * sizeof(*v->v));
		if (obj) {
			v->k = aalloc(ps, v->n * sizeof(*v->k));
			memcpy(v->k, ps->kstk + base, v->n * sizeof(*v->k));
		}
	}
	ps->top = base;
}

/* a [string, number] pair at ps->p, as ethtool's counters are written
 * (1,559 of them a netdev on a 400G node): parsed in one go, into the
 * tree the general path would make, or nothing touched and 0 when it is
 * anything else (an escape, another type, more members: the general path
 * parses it, and reports its errors) */
static int pair(struct parser *ps, struct jv *v, int depth)
{
	char *q = ps->p + 1, *s, *se, *n;
	size_t nl;
	struct jv *m;

	if (depth + 1 > JSON_PARSE_MAX_DEPTH)
		return 0;
	while (cls[(unsigned char)*q] & C_BLANK)
		q++;
	if (*q != '"')
		return 0;
	for (s = se = q + 1; cls[(unsigned char)*se] & C_PLAIN; se++)
		;
	if (*se != '"')
		return 0;
	for (q = se + 1; cls[(unsigned char)*q] & C_BLANK; q++)
		;
	if (*q != ',')
		return 0;
	for (q++; cls[(unsigned char)*q] & C_BLANK; q++)
		;
	if (*q != '-' && (*q < '0' || *q > '9'))
		return 0;
	for (n = q; cls[(unsigned char)*q] & C_NUM; q++)
		;
	nl = (size_t)(q - n);
	while (cls[(unsigned char)*q] & C_BLANK)
		q++;
	if (nl > 64 || *q != ']' || *ps->budget < 2)
		return 0;
	*ps->budget -= 2;
	*se = 0;
	memmove(n - 1, n, nl);	/* as value() does: over the byte before */
	n[nl - 1] = 0;
	m = aalloc(ps, 2 * sizeof(*m));
	memset(m, 0, 2 * sizeof(*m));
	m[0].t = J_STR;
	m[0].s = s;
	m[0].n = (size_t)(se - s);
	m[1].t = J_NUM;
	m[1].s = n - 1;
	memset(v, 0, sizeof(*v));
	v->t = J_ARR;
	v->n = 2;
	v->v = m;
	ps->p = q + 1;
	return 1;
}

static void container(struct parser *ps, struct jv *v, int depth, int obj)
{
	size_t base = ps->top;

	ps->p++;
	v->t = obj ? J_OBJ : J_ARR;
	ws(ps);
	if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) {
		ps->p++;
		return;
	}
	for (;;) {
		struct jv m;

		ws(ps);
		push(ps);
		if (obj) {
			size_t kl;
			char *k;

			if (ps->p >= ps->end || *ps->p != '"') {
				fail(ps, "expected a key");
				break;
			}
			k = string(ps, &kl);
			if (!k)
				break;
			ps->kstk[ps->top - 1] = k;
			ws(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				fail(ps, "expected ':'");
				break;
			}
			ps->p++;
		}
		/* value() may push (and pop) members of its own: parse into
		 * a local, then store it in this member's slot */
		if (obj || *ps->p != '[' || !pair(ps, &m, depth + 1))
			value(ps, &m, depth + 1);
		ps->stk[ps->top - 1] = m;
		if (ps->failed)
			break;
		ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) {
			ps->p++;
			break;
		}
		fail(ps, "expected ',' or '%c'", obj ? '}' : ']');
		break;
	}
	close_container(ps, v, base, obj);
}

static void value(struct parser *ps, struct jv *v, int depth)
{
	char *s;

	memset(v, 0, sizeof(*v));
	if (depth > JSON_PARSE_MAX_DEPTH) {
		fail(ps, "nested deeper than %d", JSON_PARSE_MAX_DEPTH);
		return;
	}
	ws(ps);
	if (ps->p >= ps->end) {
		fail(ps, "unexpected end");
		return;
	}
	s = ps->p;
	switch (*s) {
	case '{':
		container(ps, v, depth, 1);
		return;
	case '[':
		container(ps, v, depth, 0);
		return;
	case '"':
		v->t = J_STR;
		v->s = string(ps, &v->n);
		if (!v->s)
			v->t = J_NULL;
		return;
	default:
		break;
	}
	if (ps->end - s >= 4 && !memcmp(s, "true", 4)) {
		v->t = J_BOOL;
		v->b = 1;
		ps->p += 4;
	} else if (ps->end - s >= 5 && !memcmp(s, "false", 5)) {
		v->t = J_BOOL;
		ps->p += 5;
	} else if (ps->end - s >= 4 && !memcmp(s, "null", 4)) {
		ps->p += 4;
	} else if (*s == '-' || (*s >= '0' && *s <= '9')) {
		size_t n;

		while (cls[(unsigned char)*ps->p] & C_NUM)
			ps->p++;
		n = (size_t)(ps->p - s);
		if (n > 64) {
			fail(ps, "number too long");
			return;
		}
		v->t = J_NUM;
		/* one byte back, over what came before it (a ':', ',', '[' or
		 * blank, already read), and a NUL where its last byte was */
		if (s > ps->start) {
			memmove(s - 1, s, n);
			s[n - 1] = 0;
			v->s = s - 1;
		} else {
			v->s = adup(ps, s, n);	/* a bare number */
		}
	} else {
		fail(ps, "unexpected character '%c'", *s);
	}
}

static void drop(struct jdoc *d)
{
	struct chunk *c, *n;

	for (c = d->chunks; c; c = n) {
		n = c->next;
		free(c);
	}
	free(d);
}

struct jv *jparse_budget(const char *text, size_t len, size_t *budget,
			 char *err, size_t errlen)
{
	struct parser ps = { NULL, NULL, NULL, err, errlen, 0, NULL, NULL,
			     NULL, 0, 0, budget, *budget };

	ps.doc = xcalloc(1, sizeof(*ps.doc));
	ps.start = ps.p = aalloc(&ps, len + 1);
	memcpy(ps.p, text, len);
	ps.p[len] = 0;
	ps.end = ps.p + len;
	value(&ps, &ps.doc->root, 0);
	ws(&ps);
	if (!ps.failed && ps.p != ps.end)
		fail(&ps, "trailing bytes after the value");
	free(ps.stk);
	free(ps.kstk);
	if (ps.failed) {
		if (err && errlen) {
			size_t used = strlen(err);

			snprintf(err + used, errlen - used, " at byte %zu",
				 (size_t)(ps.p - ps.start));
		}
		drop(ps.doc);
		return NULL;
	}
	return &ps.doc->root;
}

struct jv *jparse(const char *text, size_t len, char *err, size_t errlen)
{
	size_t budget = JSON_PARSE_MAX_VALUES;

	return jparse_budget(text, len, &budget, err, errlen);
}

/* only what jparse() returned: the root of its document */
void jfree(struct jv *v)
{
	if (v)
		drop((struct jdoc *)((char *)v - offsetof(struct jdoc, root)));
}

struct jv *jget(const struct jv *obj, const char *key)
{
	size_t i;

	if (!obj || obj->t != J_OBJ || !key)
		return NULL;
	for (i = 0; i < obj->n; i++)
		if (obj->k[i] && !strcmp(obj->k[i], key))
			return &obj->v[i];
	return NULL;
}

struct jv *jat(const struct jv *arr, size_t i)
{
	if (!arr || (arr->t != J_ARR && arr->t != J_OBJ) || i >= arr->n)
		return NULL;
	return &arr->v[i];
}

size_t jlen(const struct jv *v)
{
	return v && (v->t == J_ARR || v->t == J_OBJ) ? v->n : 0;
}

static const struct jv *pick(const struct jv *obj, const char *key)
{
	return key ? jget(obj, key) : obj;
}

const char *jstr(const struct jv *obj, const char *key)
{
	const struct jv *v = pick(obj, key);

	return v && v->t == J_STR ? v->s : NULL;
}

int64_t jint(const struct jv *obj, const char *key, int64_t dflt)
{
	const struct jv *v = pick(obj, key);
	char *end;
	long long r;

	if (!v || (v->t != J_NUM && v->t != J_STR) || !v->s)
		return dflt;
	errno = 0;
	r = strtoll(v->s, &end, 0);
	if (errno || end == v->s || *end)
		return dflt;
	return r;
}

uint64_t juint(const struct jv *obj, const char *key, uint64_t dflt)
{
	const struct jv *v = pick(obj, key);
	char *end;
	unsigned long long r;

	if (!v || (v->t != J_NUM && v->t != J_STR) || !v->s || v->s[0] == '-')
		return dflt;
	errno = 0;
	r = strtoull(v->s, &end, 0);
	if (errno || end == v->s || *end)
		return dflt;
	return r;
}

double jnum(const struct jv *obj, const char *key, double dflt)
{
	const struct jv *v = pick(obj, key);
	char *end;
	double r;

	if (!v || (v->t != J_NUM && v->t != J_STR) || !v->s)
		return dflt;
	r = strtod(v->s, &end);
	if (end == v->s || *end)
		return dflt;
	return r;
}

int jbool(const struct jv *obj, const char *key, int dflt)
{
	const struct jv *v = pick(obj, key);

	return v && v->t == J_BOOL ? v->b : dflt;
}
