/* jsonp: JSON parser (see jsonp.h) */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "jsonp.h"
#include "log.h"

struct parser {
	const char *p, *end;
	char *err;
	size_t errlen;
	int failed;
};

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

static void ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\n' ||
				   *ps->p == '\t' || *ps->p == '\r'))
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

static void put_utf8(struct buf *b, unsigned cp)
{
	if (cp < 0x80) {
		buf_addch(b, (int)cp);
	} else if (cp < 0x800) {
		buf_addch(b, 0xc0 | (int)(cp >> 6));
		buf_addch(b, 0x80 | (int)(cp & 0x3f));
	} else if (cp < 0x10000) {
		buf_addch(b, 0xe0 | (int)(cp >> 12));
		buf_addch(b, 0x80 | (int)((cp >> 6) & 0x3f));
		buf_addch(b, 0x80 | (int)(cp & 0x3f));
	} else {
		buf_addch(b, 0xf0 | (int)(cp >> 18));
		buf_addch(b, 0x80 | (int)((cp >> 12) & 0x3f));
		buf_addch(b, 0x80 | (int)((cp >> 6) & 0x3f));
		buf_addch(b, 0x80 | (int)(cp & 0x3f));
	}
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

static char *string(struct parser *ps, size_t *len)
{
	struct buf b = BUF_INIT;

	ps->p++;	/* the quote */
	while (ps->p < ps->end && *ps->p != '"') {
		const char *run = ps->p;
		unsigned char c;

		/* plain bytes in one go: strings are most of a document */
		while (ps->p < ps->end && *ps->p != '"' && *ps->p != '\\' &&
		       (unsigned char)*ps->p >= 0x20)
			ps->p++;
		if (ps->p > run) {
			buf_add(&b, run, (size_t)(ps->p - run));
			continue;
		}
		c = (unsigned char)*ps->p++;

		if (c < 0x20) {
			fail(ps, "control character in a string");
			goto bad;
		}
		if (c != '\\') {
			buf_addch(&b, c);
			continue;
		}
		if (ps->p >= ps->end)
			break;
		c = (unsigned char)*ps->p++;
		switch (c) {
		case '"': case '\\': case '/': buf_addch(&b, c); break;
		case 'b': buf_addch(&b, '\b'); break;
		case 'f': buf_addch(&b, '\f'); break;
		case 'n': buf_addch(&b, '\n'); break;
		case 'r': buf_addch(&b, '\r'); break;
		case 't': buf_addch(&b, '\t'); break;
		case 'u': {
			unsigned cp, lo;

			if (hex4(ps, &cp) < 0) {
				fail(ps, "bad \\u escape");
				goto bad;
			}
			if (cp >= 0xd800 && cp < 0xdc00 && ps->end - ps->p >= 6 &&
			    ps->p[0] == '\\' && ps->p[1] == 'u') {
				ps->p += 2;
				if (hex4(ps, &lo) < 0 || lo < 0xdc00 || lo > 0xdfff) {
					fail(ps, "bad surrogate pair");
					goto bad;
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if (cp >= 0xd800 && cp <= 0xdfff) {
				cp = 0xfffd;
			}
			put_utf8(&b, cp);
			break;
		}
		default:
			fail(ps, "bad escape '\\%c'", c);
			goto bad;
		}
	}
	if (ps->p >= ps->end) {
		fail(ps, "unterminated string");
		goto bad;
	}
	ps->p++;
	return buf_detach(&b, len);
bad:
	buf_release(&b);
	return NULL;
}

static void value(struct parser *ps, struct jv *v, int depth);

static void grow(struct jv *v, size_t *alloc, int obj)
{
	if (v->n < *alloc)
		return;
	*alloc = *alloc ? *alloc * 2 : 8;
	v->v = xrealloc(v->v, *alloc * sizeof(*v->v));
	if (obj)
		v->k = xrealloc(v->k, *alloc * sizeof(*v->k));
}

static void container(struct parser *ps, struct jv *v, int depth, int obj)
{
	size_t alloc = 0;

	ps->p++;
	v->t = obj ? J_OBJ : J_ARR;
	ws(ps);
	if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) {
		ps->p++;
		return;
	}
	for (;;) {
		ws(ps);
		grow(v, &alloc, obj);
		memset(&v->v[v->n], 0, sizeof(v->v[v->n]));
		if (obj) {
			size_t kl;

			v->k[v->n] = NULL;
			if (ps->p >= ps->end || *ps->p != '"') {
				fail(ps, "expected a key");
				return;
			}
			v->k[v->n] = string(ps, &kl);
			if (!v->k[v->n]) {
				v->n++;
				return;
			}
			ws(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				v->n++;
				fail(ps, "expected ':'");
				return;
			}
			ps->p++;
		}
		value(ps, &v->v[v->n], depth + 1);
		v->n++;
		if (ps->failed)
			return;
		ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) {
			ps->p++;
			return;
		}
		fail(ps, "expected ',' or '%c'", obj ? '}' : ']');
		return;
	}
}

static void value(struct parser *ps, struct jv *v, int depth)
{
	const char *s;

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
		while (ps->p < ps->end && strchr("+-0123456789.eE", *ps->p))
			ps->p++;
		if (ps->p - s > 64) {
			fail(ps, "number too long");
			return;
		}
		v->t = J_NUM;
		v->s = xstrndup(s, (size_t)(ps->p - s));
	} else {
		fail(ps, "unexpected character '%c'", *s);
	}
}

struct jv *jparse(const char *text, size_t len, char *err, size_t errlen)
{
	struct parser ps = { text, text + len, err, errlen, 0 };
	struct jv *v = xcalloc(1, sizeof(*v));

	value(&ps, v, 0);
	ws(&ps);
	if (!ps.failed && ps.p != ps.end)
		fail(&ps, "trailing bytes after the value");
	if (ps.failed) {
		if (err && errlen) {
			size_t used = strlen(err);

			snprintf(err + used, errlen - used, " at byte %zu",
				 (size_t)(ps.p - text));
		}
		jfree(v);
		return NULL;
	}
	return v;
}

static void release(struct jv *v)
{
	size_t i;

	if (v->t == J_ARR || v->t == J_OBJ) {
		for (i = 0; i < v->n; i++) {
			release(&v->v[i]);
			if (v->k)
				free(v->k[i]);
		}
		free(v->v);
		free(v->k);
	}
	free(v->s);
}

void jfree(struct jv *v)
{
	if (!v)
		return;
	release(v);
	free(v);
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
