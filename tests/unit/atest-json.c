/* atest-json: the JSON parser (include/jsonp.c) on the shapes the bundles
 * hold (ethtool's [name, value] pairs, nested objects, escapes), on every
 * place a number can stand (it is moved in place over the byte before it),
 * and on malformed text: one error with its offset, and the caller's text
 * never written. */
#include <stdlib.h>
#include <string.h>

#include "jsonp.h"
#include "t.h"

static struct jv *parse(const char *s, char *err, size_t n)
{
	return jparse(s, strlen(s), err, n);
}

static void shapes(void)
{
	static const char doc[] =
		"{ \"ifname\": \"ibp20s0\", \"status\": \"ok\",\n"
		"  \"drvinfo\": { \"driver\": \"mlx5_core\", \"n_stats\": 3 },\n"
		"  \"stats\": [ [\"rx_packets\", 48213], [\"tx_pause\",0],"
		"[\"big\", 18446744073709551615] ],\n"
		"  \"neg\": -7, \"f\": 2.5e3, \"t\": true, \"no\": false,"
		" \"z\": null, \"e\": [], \"o\": {} }";
	char copy[sizeof(doc)], err[128] = "";
	struct jv *v;
	const struct jv *st;

	memcpy(copy, doc, sizeof(doc));
	v = parse(copy, err, sizeof(err));
	T_OK(v != NULL, "ethtool-shaped document parses (%s)", err);
	T_OK(!memcmp(copy, doc, sizeof(doc)), "the caller's text is not written");
	T_STREQ(jstr(v, "ifname"), "ibp20s0", "string member");
	T_STREQ(jstr(jget(v, "drvinfo"), "driver"), "mlx5_core", "nested string");
	T_OK(jint(jget(v, "drvinfo"), "n_stats", -1) == 3, "number before '}'");
	st = jget(v, "stats");
	T_OK(jlen(st) == 3, "three pairs");
	T_STREQ(jstr(jat(jat(st, 0), 0), NULL), "rx_packets", "pair name");
	T_OK(juint(jat(jat(st, 0), 1), NULL, 0) == 48213, "number before ']'");
	T_OK(juint(jat(jat(st, 1), 1), NULL, 9) == 0, "0 after a ',' without a blank");
	T_OK(juint(jat(jat(st, 2), 1), NULL, 0) == 18446744073709551615ull,
	     "64-bit maximum");
	T_STREQ(jat(jat(st, 2), 1)->s, "18446744073709551615", "a number's text");
	T_OK(jint(v, "neg", 0) == -7, "negative number");
	T_OK(jnum(v, "f", 0) == 2500.0, "exponent");
	T_OK(jbool(v, "t", 0) == 1 && jbool(v, "no", 1) == 0, "booleans");
	T_OK(jget(v, "z") && jget(v, "z")->t == J_NULL, "null");
	T_OK(jget(v, "e")->t == J_ARR && jlen(jget(v, "e")) == 0, "empty array");
	T_OK(jget(v, "o")->t == J_OBJ && jlen(jget(v, "o")) == 0, "empty object");
	T_STREQ(jstr(v, "status"), "ok", "a key after numbers is intact");
	jfree(v);

	v = parse("[1,22,333,-4,5e1]", err, sizeof(err));
	T_OK(jlen(v) == 5 && jint(jat(v, 0), NULL, 0) == 1 &&
	     jint(jat(v, 1), NULL, 0) == 22 && jint(jat(v, 2), NULL, 0) == 333 &&
	     jint(jat(v, 3), NULL, 0) == -4 && jnum(jat(v, 4), NULL, 0) == 50.0,
	     "numbers one after another");
	jfree(v);
	v = parse("42", err, sizeof(err));
	T_OK(v && v->t == J_NUM && jint(v, NULL, 0) == 42, "a bare number");
	jfree(v);
	v = parse("  7  ", err, sizeof(err));
	T_OK(v && jint(v, NULL, 0) == 7, "a bare number between blanks");
	jfree(v);
	v = parse("{\"a\":1,\"b\":{\"c\":[2,{\"d\":3}]}}", err, sizeof(err));
	T_OK(jint(jat(jget(jget(v, "b"), "c"), 0), NULL, 0) == 2 &&
	     jint(jat(jget(jget(v, "b"), "c"), 1), "d", 0) == 3 &&
	     jint(v, "a", 0) == 1, "numbers at every depth");
	jfree(v);
}

static void escapes(void)
{
	char err[128] = "";
	struct jv *v = parse("[\"a\\\"b\\\\c\\/d\\n\\t\\r\\b\\f\", \"\\u00e9\\u20ac\","
			     " \"\\ud83d\\ude00x\", \"\\ud800\", \"n\\u0000ul\","
			     " \"plain\", 5]", err, sizeof(err));

	T_OK(v != NULL, "escapes parse (%s)", err);
	T_STREQ(jstr(jat(v, 0), NULL), "a\"b\\c/d\n\t\r\b\f", "short escapes");
	T_STREQ(jstr(jat(v, 1), NULL), "\xc3\xa9\xe2\x82\xac", "\\u to UTF-8");
	T_STREQ(jstr(jat(v, 2), NULL), "\xf0\x9f\x98\x80x", "surrogate pair");
	T_STREQ(jstr(jat(v, 3), NULL), "\xef\xbf\xbd", "lone surrogate: U+FFFD");
	T_OK(jat(v, 4)->n == 4 && !memcmp(jstr(jat(v, 4), NULL), "n\0ul", 5),
	     "an escaped NUL is kept, with the length");
	T_STREQ(jstr(jat(v, 5), NULL), "plain", "a string after escaped ones");
	T_OK(jint(jat(v, 6), NULL, 0) == 5, "a number after escaped strings");
	jfree(v);
}

/* [string, number] pairs take a short path: the same tree as any other
 * array, and anything else in brackets the general one */
static void pairs(void)
{
	char err[128] = "", deep[200];
	struct jv *v = parse("[ [ \"a\" , 1 ] ,[\"b\",-2],[\"c\\u0041\", 3],"
			     "[\"d\", 4, 5], [\"e\", true], [6, \"f\"], [\"g\",7e2],"
			     "[\"\", 0], [\"h\"]]", err, sizeof(err));
	size_t i;

	T_OK(v && jlen(v) == 9, "nine pairs and near-pairs (%s)", err);
	T_STREQ(jstr(jat(jat(v, 0), 0), NULL), "a", "blanks around a pair's members");
	T_OK(jint(jat(jat(v, 0), 1), NULL, 0) == 1 && jlen(jat(v, 0)) == 2 &&
	     jat(v, 0)->t == J_ARR, "a pair is an array of two");
	T_OK(jint(jat(jat(v, 1), 1), NULL, 0) == -2, "negative member");
	T_STREQ(jstr(jat(jat(v, 2), 0), NULL), "cA", "an escaped name: general path");
	T_OK(jlen(jat(v, 3)) == 3 && jint(jat(jat(v, 3), 2), NULL, 0) == 5,
	     "three members: general path");
	T_OK(jbool(jat(jat(v, 4), 1), NULL, 0) == 1, "a boolean member");
	T_OK(jint(jat(jat(v, 5), 0), NULL, 0) == 6 &&
	     !strcmp(jstr(jat(jat(v, 5), 1), NULL), "f"), "number first");
	T_OK(jnum(jat(jat(v, 6), 1), NULL, 0) == 700.0, "exponent member");
	T_OK(jat(jat(v, 7), 0)->n == 0 && jint(jat(jat(v, 7), 1), NULL, 9) == 0,
	     "empty name");
	T_OK(jlen(jat(v, 8)) == 1, "one member");
	jfree(v);
	for (i = 0; i < 2; i++) {
		size_t k = 63 + i, n;

		memset(deep, '[', k);
		n = k + (size_t)sprintf(deep + k, "[\"x\",1]");
		memset(deep + n, ']', k);
		deep[n + k] = 0;
		v = parse(deep, err, sizeof(err));
		if (!i)
			T_OK(v != NULL, "a pair at depth 63 parses (%s)", err);
		else
			T_OK(!v && strstr(err, "nested deeper"),
			     "a pair one deeper: the depth limit (%s)", err);
		jfree(v);
	}
	v = parse("[[\"x\", 1", err, sizeof(err));
	T_OK(!v && strstr(err, "expected ','"), "a pair cut before ']' (%s)", err);
	jfree(v);
	v = parse("[[\"x\", 12345678901234567890123456789012345678901234567890123456789012345]]",
		  err, sizeof(err));
	T_OK(!v && strstr(err, "number too long"), "a pair's long number (%s)", err);
	jfree(v);
}

static void errors(void)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "", "unexpected end" },
		{ "[1,", "unexpected end" },
		{ "{\"a\" 1}", "expected ':'" },
		{ "{1:2}", "expected a key" },
		{ "[1 2]", "expected ','" },
		{ "\"abc", "unterminated string" },
		{ "\"a\\q\"", "bad escape" },
		{ "\"\\u12\"", "bad \\u escape" },
		{ "\"\\ud800\\u0041\"", "bad surrogate pair" },
		{ "\"a\tb\"", "control character" },
		{ "[1] x", "trailing bytes" },
		{ "nul", "unexpected character" },
		{ "[11111111111111111111111111111111111111111111111111111111111111111]",
		  "number too long" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char err[128] = "";
		struct jv *v = parse(bad[i].text, err, sizeof(err));

		T_OK(!v && strstr(err, bad[i].why) && strstr(err, " at byte "),
		     "'%s': %s (%s)", bad[i].text, bad[i].why, err);
		jfree(v);
	}
	{
		char err[128] = "", deep[200];
		struct jv *v;

		memset(deep, '[', sizeof(deep) - 1);
		deep[sizeof(deep) - 1] = 0;
		v = parse(deep, err, sizeof(err));
		T_OK(!v && strstr(err, "nested deeper"), "depth limit (%s)", err);
	}
}

int main(void)
{
	shapes();
	escapes();
	pairs();
	errors();
	return t_done();
}
