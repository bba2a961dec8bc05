/* json: streaming JSON writer (see json.h) */
#include <inttypes.h>
#include <string.h>

#include "json.h"
#include "jsonp.h"
#include "log.h"

void json_init(struct json *j, struct buf *out, int pretty)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
	j->pretty = pretty;
	j->first[0] = 1;
}

static void indent(struct json *j)
{
	int i;

	if (!j->pretty)
		return;
	buf_addch(j->out, '\n');
	for (i = 0; i < j->depth; i++)
		buf_add(j->out, "  ", 2);
}

static void member(struct json *j, const char *key)
{
	if (!j->first[j->depth])
		buf_addch(j->out, ',');
	j->first[j->depth] = 0;
	if (j->depth)
		indent(j);
	if (key) {
		json_quote(j->out, key, strlen(key));
		buf_add(j->out, j->pretty ? ": " : ":", j->pretty ? 2 : 1);
	}
}

static void open(struct json *j, const char *key, char c)
{
	member(j, key);
	buf_addch(j->out, c);
	if (j->depth + 1 >= JSON_MAX_DEPTH)
		die("json nesting too deep");
	j->first[++j->depth] = 1;
}

static void close_(struct json *j, char c)
{
	int empty = j->first[j->depth];

	if (!j->depth)
		die("json close without open");
	j->depth--;
	if (!empty)
		indent(j);
	buf_addch(j->out, c);
}

void json_obj_open(struct json *j, const char *key) { open(j, key, '{'); }
void json_obj_close(struct json *j) { close_(j, '}'); }
void json_arr_open(struct json *j, const char *key) { open(j, key, '['); }
void json_arr_close(struct json *j) { close_(j, ']'); }

size_t json_utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

void json_quote(struct buf *out, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, l;

	buf_addch(out, '"');
	while (i < n) {
		unsigned char c = s[i];

		switch (c) {
		case '"': buf_add(out, "\\\"", 2); i++; continue;
		case '\\': buf_add(out, "\\\\", 2); i++; continue;
		case '\n': buf_add(out, "\\n", 2); i++; continue;
		case '\t': buf_add(out, "\\t", 2); i++; continue;
		case '\r': buf_add(out, "\\r", 2); i++; continue;
		default:
			break;
		}
		if (c < 0x20 || c == 0x7f) {
			buf_addf(out, "\\u%04x", c);
			i++;
			continue;
		}
		/* '<' too, so JSON can be inlined in HTML later */
		if (c == '<') {
			buf_add(out, "\\u003c", 6);
			i++;
			continue;
		}
		l = json_utf8_len(s + i, n - i);
		if (!l) {
			buf_add(out, "\\ufffd", 6);
			i++;
			continue;
		}
		buf_add(out, s + i, l);
		i += l;
	}
	buf_addch(out, '"');
}

void json_strn(struct json *j, const char *key, const char *val, size_t n)
{
	member(j, key);
	if (!val)
		buf_add(j->out, "null", 4);
	else
		json_quote(j->out, val, n);
}

void json_str(struct json *j, const char *key, const char *val)
{
	json_strn(j, key, val, val ? strlen(val) : 0);
}

void json_int(struct json *j, const char *key, int64_t val)
{
	member(j, key);
	buf_addf(j->out, "%" PRId64, val);
}

void json_uint(struct json *j, const char *key, uint64_t val)
{
	member(j, key);
	buf_addf(j->out, "%" PRIu64, val);
}

void json_bool(struct json *j, const char *key, int val)
{
	member(j, key);
	buf_addstr(j->out, val ? "true" : "false");
}

void json_null(struct json *j, const char *key)
{
	member(j, key);
	buf_add(j->out, "null", 4);
}

void json_raw(struct json *j, const char *key, const char *num)
{
	member(j, key);
	buf_addstr(j->out, num);
}

void json_end(struct json *j)
{
	buf_addch(j->out, '\n');
}

void json_jv(struct json *j, const char *key, const struct jv *v)
{
	size_t i;

	switch (v->t) {
	case J_NULL: json_null(j, key); break;
	case J_BOOL: json_bool(j, key, v->b); break;
	case J_NUM: json_raw(j, key, v->s); break;
	case J_STR: json_strn(j, key, v->s, v->n); break;
	case J_ARR:
		json_arr_open(j, key);
		for (i = 0; i < v->n; i++)
			json_jv(j, NULL, &v->v[i]);
		json_arr_close(j);
		break;
	case J_OBJ:
		json_obj_open(j, key);
		for (i = 0; i < v->n; i++)
			json_jv(j, v->k[i], &v->v[i]);
		json_obj_close(j);
		break;
	}
}
