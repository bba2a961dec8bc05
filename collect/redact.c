/* redact: keyed, shape-keeping pseudonyms (--redact).
 *
 * Every pseudonym comes from HMAC-SHA256 under the user's key.  The value
 * families and their mappings:
 *
 *   IPv4      first octet kept; 10/8, 172.16/12, 192.168/16, 100.64/10 and
 *             169.254/16 map into themselves, keeping the range prefix; the
 *             other bits are flipped by a keyed function of the bits before
 *             them (prefix-preserving: two addresses sharing n leading bits
 *             share n leading bits of their pseudonyms), so subnets stay
 *             subnets.  It is a bijection: no two addresses collide.
 *             0/8, 127/8 and 224/3 (multicast, reserved, broadcast, masks)
 *             are left alone.
 *   GUID      64 bits; top 24 bits (OUI) kept, the low 40 bits permuted by
 *             a keyed Feistel network (a bijection per OUI).  A GUID in
 *             modified EUI-64 form (bytes 3-4 ff:fe, made from a MAC) is
 *             mapped through the MAC so that the GUID, the RoCE GID and the
 *             netdev's MAC stay consistent.
 *   MAC       OUI kept, low 24 bits permuted (Feistel, per OUI).
 *   IPv6/GID  IPv4-mapped and IPv4-compatible: the IPv4 mapping; else the
 *             upper 64 bits (subnet prefix) kept unless global unicast
 *             (2000::/3) or ULA (fc00::/7), whose bits 16-63 are mapped
 *             prefix-preserving; the lower 64 bits mapped as a GUID.
 *             Multicast (ff00::/8) is left alone.
 *   literals  kind-xxxxxxxx, from HMAC(kind, lowercase value).
 *
 * The Feistel tweaks ignore the U/L bit, so an interface id made from a
 * GUID or a MAC by flipping it maps consistently.  The scanner tries each
 * form only at a word boundary and checks the character after it; a value
 * the mapping leaves alone keeps its exact text.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "log.h"
#include "redact.h"
#include "sha256.h"
#include "util.h"


/* ---- HMAC-SHA256 (RFC 2104): the pads are absorbed once per key ---- */

struct hmac_key {
	struct sha256_ctx inner, outer;
};

static void hmac_setkey(struct hmac_key *hk, const unsigned char *key,
			size_t keylen)
{
	unsigned char k[64], pad[64];
	int i;

	memset(k, 0, sizeof(k));
	if (keylen > 64)
		sha256(key, keylen, k);
	else if (keylen)
		memcpy(k, key, keylen);
	for (i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x36;
	sha256_init(&hk->inner);
	sha256_update(&hk->inner, pad, 64);
	for (i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x5c;
	sha256_init(&hk->outer);
	sha256_update(&hk->outer, pad, 64);
	memset(k, 0, sizeof(k));
	memset(pad, 0, sizeof(pad));
}

/* HMAC of the concatenation a || b || c (any may be empty) */
static void hmac3(const struct hmac_key *hk, const void *a, size_t alen,
		  const void *b, size_t blen, const void *c, size_t clen,
		  unsigned char out[32])
{
	struct sha256_ctx ctx = hk->inner;
	unsigned char ih[32];

	sha256_update(&ctx, a, alen);
	sha256_update(&ctx, b, blen);
	sha256_update(&ctx, c, clen);
	sha256_final(&ctx, ih);
	ctx = hk->outer;
	sha256_update(&ctx, ih, sizeof(ih));
	sha256_final(&ctx, out);
}

void hmac_sha256(const unsigned char *key, size_t keylen, const void *data,
		 size_t len, unsigned char out[32])
{
	struct hmac_key hk;

	hmac_setkey(&hk, key, keylen);
	hmac3(&hk, data, len, NULL, 0, NULL, 0, out);
	memset(&hk, 0, sizeof(hk));
}

/* ---- the redactor ---- */

struct literal {
	char *val;		/* lowercase */
	size_t len;
	char *pseudo;
};

#define CACHE_SIZE 4096

/* mapped values, by kind and input: logs repeat the same few addresses */
struct cache_slot {
	uint64_t in, out;
	unsigned kind;		/* 0: empty */
};

struct redact {
	struct hmac_key hk;
	struct cache_slot cache[CACHE_SIZE];
	char key_id[17];
	struct literal *lit;	/* longest first */
	size_t nlit;
	unsigned char first[256];	/* first bytes of literals (folded) */
};

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 'a' - 'A' : c;
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* count decimal bytes (1-3 digits, at most 255) separated by sep, from
 * s[*j]; on success *j is past the last one.  1 or 0. */
static int dec_bytes(const char *s, size_t n, size_t *j, int count, char sep,
		     unsigned char *out)
{
	size_t p = *j;
	int k;

	for (k = 0; k < count; k++) {
		unsigned v = 0, d = 0;

		if (k) {
			if (p >= n || s[p] != sep)
				return 0;
			p++;
		}
		while (p < n && is_digit(s[p]) && d < 4) {
			v = v * 10 + (unsigned)(s[p] - '0');
			p++;
			d++;
		}
		if (!d || d > 3 || v > 255)
			return 0;
		out[k] = (unsigned char)v;
	}
	*j = p;
	return 1;
}

static int is_hex(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int is_alnum(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_word(int c)
{
	return is_alnum(c) || c == '_';
}

static int hexval(int c)
{
	if (is_digit(c))
		return c - '0';
	return lower(c) - 'a' + 10;
}

/* HMAC(key, kind NUL data) */
static void prf(const struct redact *r, const char *kind, const void *data,
		size_t len, unsigned char out[32])
{
	hmac3(&r->hk, kind, strlen(kind) + 1, data, len, NULL, 0, out);
}

struct redact *redact_new(const unsigned char *key, size_t keylen)
{
	struct redact *r = xcalloc(1, sizeof(*r));
	unsigned char h[32];
	int i;

	hmac_setkey(&r->hk, key, keylen);
	sha256(key, keylen, h);
	for (i = 0; i < 8; i++)
		sprintf(r->key_id + 2 * i, "%02x", h[i]);
	return r;
}

void redact_free(struct redact *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nlit; i++) {
		free(r->lit[i].val);
		free(r->lit[i].pseudo);
	}
	free(r->lit);
	memset(r, 0, sizeof(*r));
	free(r);
}

void redact_key_id(const struct redact *r, char out[17])
{
	memcpy(out, r->key_id, 17);
}

void redact_value(struct redact *r, const char *kind, const char *value,
		  char *out, size_t n)
{
	size_t len = strlen(value), i;
	unsigned char d[32];
	char *low = xmalloc(len + 1);

	for (i = 0; i <= len; i++)
		low[i] = (char)lower((unsigned char)value[i]);
	prf(r, kind, low, len, d);
	free(low);
	snprintf(out, n, "%s-%02x%02x%02x%02x", kind, d[0], d[1], d[2], d[3]);
}

void redact_add_literal(struct redact *r, const char *kind, const char *value)
{
	size_t len = strlen(value), i, at;
	struct literal l;
	char p[96];

	if (len < 2)
		return;
	for (i = 0; i < r->nlit; i++)
		if (r->lit[i].len == len && !strncasecmp(r->lit[i].val, value,
							 len))
			return;
	l.val = xstrdup(value);
	for (i = 0; i < len; i++)
		l.val[i] = (char)lower((unsigned char)l.val[i]);
	l.len = len;
	redact_value(r, kind, value, p, sizeof(p));
	l.pseudo = xstrdup(p);
	for (at = 0; at < r->nlit && r->lit[at].len >= len; at++)
		;
	r->lit = xrealloc(r->lit, (r->nlit + 1) * sizeof(*r->lit));
	memmove(r->lit + at + 1, r->lit + at, (r->nlit - at) * sizeof(*r->lit));
	r->lit[at] = l;
	r->nlit++;
	r->first[(unsigned char)l.val[0]] = 1;
	r->first[(unsigned char)(l.val[0] >= 'a' && l.val[0] <= 'z' ?
				 l.val[0] - 'a' + 'A' : l.val[0])] = 1;
}

/* ---- value mappings ---- */

/* a keyed permutation of the low `bits` bits (even, <= 64) of x; the
 * tweak (the kept high part) selects the permutation */
static uint64_t feistel(const struct redact *r, const char *kind,
			uint64_t tweak, uint64_t x, unsigned bits)
{
	unsigned half = bits / 2, round;
	uint64_t mask = (1ull << half) - 1, left = x >> half, right = x & mask;
	unsigned char in[17], d[32];

	for (round = 0; round < 6; round++) {
		uint64_t t;

		in[0] = (unsigned char)round;
		put_be64(in + 1, tweak);
		put_be64(in + 9, right);
		prf(r, kind, in, sizeof(in), d);
		t = left ^ (get_be64(d) & mask);
		left = right;
		right = t;
	}
	return left << half | right;
}

/* prefix-preserving map of a width-bit value: bit i (from the top, i >=
 * keep) is flipped by a keyed function of the i bits above it */
static uint64_t prefix_map(const struct redact *r, const char *kind,
			   uint64_t x, unsigned width, unsigned keep)
{
	unsigned char in[9], d[32];
	uint64_t out = x;
	unsigned i;

	for (i = keep; i < width; i++) {
		in[0] = (unsigned char)i;
		put_be64(in + 1, i ? x >> (width - i) : 0);
		prf(r, kind, in, sizeof(in), d);
		if (d[0] & 1)
			out ^= 1ull << (width - 1 - i);
	}
	return out;
}

enum { C_IPV4 = 1, C_MAC, C_GUID, C_V6PREFIX };

static struct cache_slot *cache_slot(struct redact *r, unsigned kind,
				     uint64_t in)
{
	uint64_t h = (in ^ (uint64_t)kind << 60) * 0x9e3779b97f4a7c15ull;

	return &r->cache[h >> 52];
}

static int cache_get(struct redact *r, unsigned kind, uint64_t in,
		     uint64_t *out)
{
	struct cache_slot *c = cache_slot(r, kind, in);

	if (c->kind != kind || c->in != in)
		return 0;
	*out = c->out;
	return 1;
}

static uint64_t cache_put(struct redact *r, unsigned kind, uint64_t in,
			  uint64_t out)
{
	struct cache_slot *c = cache_slot(r, kind, in);

	c->kind = kind;
	c->in = in;
	c->out = out;
	return out;
}

static const struct {
	uint32_t net;
	unsigned len;
} v4_ranges[] = {
	{ 0x0a000000, 8 },	/* 10/8 */
	{ 0xac100000, 12 },	/* 172.16/12 */
	{ 0xc0a80000, 16 },	/* 192.168/16 */
	{ 0x64400000, 10 },	/* 100.64/10 */
	{ 0xa9fe0000, 16 },	/* 169.254/16 */
};

static unsigned v4_range(uint32_t a)
{
	size_t i;

	for (i = 0; i < sizeof(v4_ranges) / sizeof(v4_ranges[0]); i++)
		if ((a >> (32 - v4_ranges[i].len)) ==
		    (v4_ranges[i].net >> (32 - v4_ranges[i].len)))
			return v4_ranges[i].len;
	return 0;
}

static uint32_t ipv4_map(struct redact *r, uint32_t a)
{
	unsigned o = a >> 24, keep = v4_range(a);
	uint32_t y = a;
	uint64_t c;

	if (o == 0 || o == 127 || o >= 224)
		return a;
	if (cache_get(r, C_IPV4, a, &c))
		return (uint32_t)c;
	if (keep)
		return (uint32_t)cache_put(r, C_IPV4, a,
					   prefix_map(r, "ipv4", a, 32, keep));
	/* public: keep the first octet; cycle-walk out of the ranges above
	 * so the map stays a bijection on the addresses outside them */
	do
		y = (uint32_t)prefix_map(r, "ipv4", y, 32, 8);
	while (v4_range(y));
	return (uint32_t)cache_put(r, C_IPV4, a, y);
}

static uint64_t mac_map48(struct redact *r, uint64_t m)
{
	uint64_t oui = m >> 24, c;

	if (cache_get(r, C_MAC, m, &c))
		return c;
	/* the tweak ignores the U/L bit: see guid_map() */
	return cache_put(r, C_MAC, m, oui << 24 |
			 feistel(r, "mac", oui & ~0x020000ull, m & 0xffffff,
				 24));
}

static uint64_t guid_map(struct redact *r, uint64_t g)
{
	uint64_t top = g >> 40, m, c;

	/* no OUI, kernel pointers, subnet prefixes: not a GUID */
	if (!(g >> 48) || (g >> 48) == 0xffff || !(uint32_t)g)
		return g;
	if (((g >> 24) & 0xffff) == 0xfffe) {
		/* modified EUI-64 of a MAC: map the MAC */
		m = (top ^ 0x020000) << 24 | (g & 0xffffff);
		m = mac_map48(r, m);
		return ((m >> 24) ^ 0x020000) << 40 | 0xfffeull << 24 |
		       (m & 0xffffff);
	}
	if (cache_get(r, C_GUID, g, &c))
		return c;
	/* an IPv6 interface id is the GUID with the U/L bit flipped (IPoIB
	 * link-local addresses): the tweak ignores that bit so both map to
	 * the same low 40 bits */
	return cache_put(r, C_GUID, g, top << 40 |
			 feistel(r, "guid", top & ~0x020000ull,
				 g & 0xffffffffffull, 40));
}

static void gid_map(struct redact *r, unsigned char g[16])
{
	static const unsigned char zero[12];
	uint64_t hi, lo, c;

	if (g[0] == 0xff)
		return;
	if (!memcmp(g, zero, 12) ||
	    (!memcmp(g, zero, 10) && g[10] == 0xff && g[11] == 0xff)) {
		put_be32(g + 12, ipv4_map(r, get_be32(g + 12)));
		return;
	}
	hi = get_be64(g);
	lo = get_be64(g + 8);
	if (((g[0] & 0xe0) == 0x20 || (g[0] & 0xfe) == 0xfc) &&
	    !cache_get(r, C_V6PREFIX, hi, &c))
		hi = cache_put(r, C_V6PREFIX, hi,
			       prefix_map(r, "ipv6", hi, 64, 16));
	else if ((g[0] & 0xe0) == 0x20 || (g[0] & 0xfe) == 0xfc)
		hi = c;
	put_be64(g, hi);
	put_be64(g + 8, guid_map(r, lo));
}

/* ---- the text scanner ---- */

static void add_hex(struct buf *out, uint64_t v, int digits, int upper)
{
	buf_addf(out, upper ? "%0*" PRIX64 : "%0*" PRIx64, digits, v);
}

static int has_upper_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] >= 'A' && s[i] <= 'F')
			return 1;
	return 0;
}

/* a value the mapping leaves alone keeps its exact text, and the whole
 * token is consumed so no part of it is matched again */
static size_t keep(const char *s, size_t i, size_t len, struct buf *out)
{
	buf_add(out, s + i, len);
	return len;
}

static size_t m_literal(struct redact *r, const char *s, size_t i, size_t n,
			struct buf *out)
{
	size_t k;

	if (!r->first[(unsigned char)s[i]] ||
	    (i && (is_word(s[i - 1]) || s[i - 1] == '-')))
		return 0;
	for (k = 0; k < r->nlit; k++) {
		struct literal *l = &r->lit[k];

		if (l->len > n - i || strncasecmp(s + i, l->val, l->len))
			continue;
		if (i + l->len < n && (is_word(s[i + l->len]) ||
				       s[i + l->len] == '-'))
			continue;
		buf_addstr(out, l->pseudo);
		return l->len;
	}
	return 0;
}

/* perftest's GID: 16 decimal bytes, "%02d" joined by ':' */
static size_t m_decgid(struct redact *r, const char *s, size_t i, size_t n,
		       struct buf *out)
{
	unsigned char g[16], g0[16];
	size_t j = i;
	int k;

	if (!dec_bytes(s, n, &j, 16, ':', g))
		return 0;
	if (j < n && (is_word(s[j]) || (s[j] == ':' && j + 1 < n &&
					is_alnum(s[j + 1]))))
		return 0;
	memcpy(g0, g, 16);
	gid_map(r, g);
	if (!memcmp(g, g0, 16))
		return keep(s, i, j - i, out);
	for (k = 0; k < 16; k++)
		buf_addf(out, "%s%02d", k ? ":" : "", g[k]);
	return j - i;
}

/* pairs of hex digits separated by ':' or '-': MACs (6), GUIDs (8), GIDs
 * (16), IPoIB hardware addresses (20), other lengths 7-32 */
static size_t m_hw(struct redact *r, const char *s, size_t i, size_t n,
		   struct buf *out)
{
	unsigned char b[32], b0[32], g[16];
	size_t j = i, k, cnt = 0;
	char sep;
	int up;

	if (i + 2 >= n || !is_hex(s[i + 1]) || (s[i + 2] != ':' &&
						s[i + 2] != '-'))
		return 0;
	sep = s[i + 2];
	for (;;) {
		if (j + 1 >= n || !is_hex(s[j]) || !is_hex(s[j + 1]) ||
		    (j + 2 < n && is_hex(s[j + 2])))
			return 0;
		if (cnt == sizeof(b))
			return 0;
		b[cnt++] = (unsigned char)(hexval(s[j]) << 4 |
					   hexval(s[j + 1]));
		j += 2;
		if (j + 3 <= n && s[j] == sep && is_hex(s[j + 1]) &&
		    is_hex(s[j + 2]) && (j + 3 == n || !is_hex(s[j + 3])))
			j++;
		else
			break;
	}
	if (j < n && (is_word(s[j]) ||
		      ((s[j] == ':' || s[j] == '-') && j + 1 < n &&
		       is_alnum(s[j + 1]))))
		return 0;
	if (cnt < 6 || (sep == '-' && cnt != 6))
		return 0;
	memcpy(b0, b, cnt);
	if (cnt == 6) {
		uint64_t m = 0;

		for (k = 0; k < 6; k++)
			m = m << 8 | b[k];
		if (m && m != 0xffffffffffffull && !(b[0] & 1))
			m = mac_map48(r, m);
		for (k = 0; k < 6; k++)
			b[5 - k] = (unsigned char)(m >> (8 * k));
	} else if (cnt == 8) {
		put_be64(b, guid_map(r, get_be64(b)));
	} else if (cnt == 16 || cnt == 20) {
		/* a GID, or an IPoIB address: flags and QPN, then the GID */
		memcpy(g, b + cnt - 16, 16);
		gid_map(r, g);
		memcpy(b + cnt - 16, g, 16);
	} else {
		unsigned char d[32];

		prf(r, "hwaddr", b, cnt, d);
		memcpy(b + 3, d, cnt - 3);
	}
	if (!memcmp(b, b0, cnt))
		return keep(s, i, j - i, out);
	up = has_upper_hex(s + i, j - i);
	for (k = 0; k < cnt; k++) {
		if (k)
			buf_addch(out, sep);
		add_hex(out, b[k], 2, up);
	}
	return j - i;
}

static size_t m_ip6(struct redact *r, const char *s, size_t i, size_t n,
		    struct buf *out)
{
	unsigned char g[16], g0[16];
	char a[48], txt[INET6_ADDRSTRLEN];
	size_t j = i, len, k, colons = 0, groups = 1, glen = 0, gmax = 0;
	int full = 1, digit = 0, dot = 0, dbl, up;

	if (s[i] == ':' && (i + 1 >= n || s[i + 1] != ':'))
		return 0;
	while (j < n && j - i <= sizeof(a) &&
	       (is_hex(s[j]) || s[j] == ':' || s[j] == '.'))
		j++;
	while (j > i && s[j - 1] == '.')
		j--;
	if (j - i >= 2 && s[j - 1] == ':' && s[j - 2] != ':')
		j--;
	len = j - i;
	if (len < 2 || len >= sizeof(a) || (j < n && is_word(s[j])))
		return 0;
	memcpy(a, s + i, len);
	a[len] = 0;
	for (k = 0; k < len; k++) {
		if (a[k] == ':') {
			colons++;
			groups++;
			if (glen != 4)
				full = 0;
			glen = 0;
		} else {
			glen++;
			gmax = glen > gmax ? glen : gmax;
			if (a[k] == '.')
				full = 0, dot = 1;
			if (is_digit(a[k]))
				digit = 1;
		}
	}
	if (glen != 4)
		full = 0;
	dbl = strstr(a, "::") != NULL;
	/* "a::b", "0:1:2:3:4:5:6:7": addresses have a group of 3 hex
	 * digits or more, or an embedded IPv4 address */
	if (colons < 2 || (dbl && !digit && groups < 5) || (gmax < 3 && !dot))
		return 0;
	if (inet_pton(AF_INET6, a, g) != 1)
		return 0;
	full = full && !dbl && groups == 8;
	memcpy(g0, g, 16);
	gid_map(r, g);
	if (!memcmp(g, g0, 16))
		return keep(s, i, len, out);
	up = has_upper_hex(a, len);
	if (full) {
		for (k = 0; k < 8; k++) {
			if (k)
				buf_addch(out, ':');
			add_hex(out, (uint64_t)g[2 * k] << 8 | g[2 * k + 1], 4,
				up);
		}
		return len;
	}
	if (!inet_ntop(AF_INET6, g, txt, sizeof(txt)))
		return 0;
	if (up)
		for (k = 0; txt[k]; k++)
			if (txt[k] >= 'a' && txt[k] <= 'f')
				txt[k] = (char)(txt[k] - 'a' + 'A');
	buf_addstr(out, txt);
	return len;
}

/* a GUID as %04x:%04x:%04x:%04x (sysfs node_guid, ibv_devinfo) */
static size_t m_guid4(struct redact *r, const char *s, size_t i, size_t n,
		      struct buf *out)
{
	uint64_t v = 0;
	size_t j = i, k;
	int d;

	if (n - i < 19)
		return 0;
	for (k = 0; k < 4; k++) {
		if (k && s[j++] != ':')
			return 0;
		for (d = 0; d < 4; d++, j++) {
			if (!is_hex(s[j]))
				return 0;
			v = v << 4 | (uint64_t)hexval(s[j]);
		}
	}
	if (j < n && (is_word(s[j]) || (s[j] == ':' && j + 1 < n &&
					is_hex(s[j + 1]))))
		return 0;
	if (guid_map(r, v) == v)
		return keep(s, i, j - i, out);
	v = guid_map(r, v);
	d = has_upper_hex(s + i, j - i);
	for (k = 0; k < 4; k++) {
		if (k)
			buf_addch(out, ':');
		add_hex(out, (v >> (48 - 16 * k)) & 0xffff, 4, d);
	}
	return j - i;
}

/* a GUID as 0x%016llx (ibstat, NCCL, saquery) */
static size_t m_guid0x(struct redact *r, const char *s, size_t i, size_t n,
		       struct buf *out)
{
	uint64_t v = 0;
	size_t j;

	if (n - i < 18 || s[i] != '0' || (s[i + 1] != 'x' && s[i + 1] != 'X'))
		return 0;
	for (j = i + 2; j < i + 18; j++) {
		if (!is_hex(s[j]))
			return 0;
		v = v << 4 | (uint64_t)hexval(s[j]);
	}
	if (j < n && is_word(s[j]))
		return 0;
	if (guid_map(r, v) == v)
		return keep(s, i, 18, out);
	buf_add(out, s + i, 2);
	add_hex(out, guid_map(r, v), 16, has_upper_hex(s + i + 2, 16));
	return 18;
}

/* predictable netdev names made of the MAC: enx0c42a15d4db8 */
static size_t m_enx(struct redact *r, const char *s, size_t i, size_t n,
		    struct buf *out)
{
	uint64_t m = 0;
	size_t j;

	if (n - i < 15 || memcmp(s + i, "enx", 3))
		return 0;
	for (j = i + 3; j < i + 15; j++) {
		if (!is_digit(s[j]) && !(s[j] >= 'a' && s[j] <= 'f'))
			return 0;
		m = m << 4 | (uint64_t)hexval(s[j]);
	}
	if (j < n && is_word(s[j]))
		return 0;
	if (!m || m == 0xffffffffffffull || (m >> 40 & 1))
		return keep(s, i, 15, out);
	m = mac_map48(r, m);
	buf_addstr(out, "enx");
	add_hex(out, m, 12, 0);
	return 15;
}

static size_t m_ip4(struct redact *r, const char *s, size_t i, size_t n,
		    struct buf *out)
{
	unsigned char b4[4];
	uint32_t a = 0;
	size_t j = i;
	int k;

	if (i && (s[i - 1] == '.' || s[i - 1] == '-'))
		return 0;
	if (!dec_bytes(s, n, &j, 4, '.', b4))
		return 0;
	for (k = 0; k < 4; k++)
		a = a << 8 | b4[k];
	/* versions: 24.10-1.1.4.0, 1.2.3.4.5, 1.2.3.4-rc1, 1.2.3.4.el8 */
	if (j < n && (is_word(s[j]) || s[j] == '-' ||
		      (s[j] == '.' && j + 1 < n && is_alnum(s[j + 1]))))
		return 0;
	if (ipv4_map(r, a) == a)
		return keep(s, i, j - i, out);
	a = ipv4_map(r, a);
	buf_addf(out, "%u.%u.%u.%u", a >> 24, (a >> 16) & 0xff,
		 (a >> 8) & 0xff, a & 0xff);
	return j - i;
}

/* s[i - 1] is ':'; 1 if what precedes it is a key ("gid:", "addr:"),
 * not the hex group of a longer colon sequence ("0000:b1:00.0") */
static int after_key(const char *s, size_t i)
{
	size_t k = i - 1, n = 0;
	int key = 0;

	while (k && is_word(s[k - 1]) && n < 64) {
		k--;
		n++;
		if (!is_hex(s[k]))
			key = 1;
	}
	return key || (!n && !(i >= 2 && s[i - 2] == ':'));
}

void redact_text(struct redact *r, const char *in, size_t len, struct buf *out)
{
	size_t i = 0, plain = 0, m;

	buf_grow(out, len);
	while (i < len) {
		unsigned char c = (unsigned char)in[i];
		unsigned char p = i ? (unsigned char)in[i - 1] : ' ';

		/* NCCL prints "remoteGids<gid>" without a space */
		if (p == 's' && i >= 10 && (is_hex(c) || c == ':') &&
		    !memcmp(in + i - 10, "remoteGids", 10))
			p = ' ';
		/* inside dotted or dashed words nothing starts (versions,
		 * names), nor inside colon sequences; after a key and ':' it
		 * may ("addr:10.0.0.1", "gid:fe80::1") */
		int sep = p == '.' || p == '-' ||
			  (p == ':' && !after_key(in, i));

		/* every form starts at a word boundary */
		if (is_word(p) || !(r->first[c] || is_hex(c) || c == ':')) {
			i++;
			continue;
		}
		/* matchers append only when they match */
		buf_add(out, in + plain, i - plain);
		plain = i;
		m = 0;
		if (r->first[c])
			m = m_literal(r, in, i, len, out);
		if (!m && !sep) {
			if (is_digit(c))
				m = m_decgid(r, in, i, len, out);
			if (!m && is_hex(c))
				m = m_hw(r, in, i, len, out);
			if (!m)
				m = m_ip6(r, in, i, len, out);
			if (!m && is_hex(c))
				m = m_guid4(r, in, i, len, out);
			if (!m && c == '0')
				m = m_guid0x(r, in, i, len, out);
			if (!m && c == 'e')
				m = m_enx(r, in, i, len, out);
		}
		if (!m && is_digit(c) && p != '.' && p != '-')
			m = m_ip4(r, in, i, len, out);
		if (m) {
			i += m;
			plain = i;
		} else {
			i++;
		}
	}
	buf_add(out, in + plain, len - plain);
}
