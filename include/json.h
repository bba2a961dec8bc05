/* json: a small streaming JSON writer into a struct buf.
 *
 * Members are written in the order they are given (fixed order makes
 * bundles reproducible).  Inside an object every value takes a key; inside
 * an array the key must be NULL.  Strings are escaped, and bytes that are
 * not valid UTF-8 become U+FFFD, so the output is always valid JSON
 * whatever the node (or a hostile bundle) handed us.
 */
#ifndef RDMA_JSON_H
#define RDMA_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

#define JSON_MAX_DEPTH 32

struct json {
	struct buf *out;
	int depth;
	int pretty;
	unsigned char first[JSON_MAX_DEPTH];
};

void json_init(struct json *j, struct buf *out, int pretty);
void json_obj_open(struct json *j, const char *key);
void json_obj_close(struct json *j);
void json_arr_open(struct json *j, const char *key);
void json_arr_close(struct json *j);
void json_str(struct json *j, const char *key, const char *val);	/* NULL: null */
void json_strn(struct json *j, const char *key, const char *val, size_t n);
void json_int(struct json *j, const char *key, int64_t val);
void json_uint(struct json *j, const char *key, uint64_t val);
void json_bool(struct json *j, const char *key, int val);
void json_null(struct json *j, const char *key);
/* a number already in JSON form (the caller checked it) */
void json_raw(struct json *j, const char *key, const char *num);
/* finish: a newline after the top-level value */
void json_end(struct json *j);
/* a parsed value (jsonp.h) written back, numbers with their own text */
struct jv;
void json_jv(struct json *j, const char *key, const struct jv *v);
/* append s (n bytes) as a quoted, escaped JSON string */
void json_quote(struct buf *out, const char *s, size_t n);
/* length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid
 * (overlong, surrogate, beyond U+10FFFF, cut short) */
size_t json_utf8_len(const unsigned char *s, size_t n);

#endif
