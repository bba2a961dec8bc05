/* sha256: SHA-256 (FIPS 180-4) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sha256.h"
#include "util.h"

static uint32_t ror32(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
	0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
	0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static void sha256_block_sw(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, hh, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = get_be32(p + 4 * i);
	for (i = 16; i < 64; i++) {
		uint32_t s0 = ror32(w[i - 15], 7) ^ ror32(w[i - 15], 18) ^
			      (w[i - 15] >> 3);
		uint32_t s1 = ror32(w[i - 2], 17) ^ ror32(w[i - 2], 19) ^
			      (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = h[0]; b = h[1]; c = h[2]; d = h[3];
	e = h[4]; f = h[5]; g = h[6]; hh = h[7];
	for (i = 0; i < 64; i++) {
		t1 = hh + (ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25)) +
		     ((e & f) ^ (~e & g)) + sha256_k[i] + w[i];
		t2 = (ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22)) +
		     ((a & b) ^ (a & c) ^ (b & c));
		hh = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	h[0] += a; h[1] += b; h[2] += c; h[3] += d;
	h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* The SHA extensions (SHA-NI: Intel since Goldmont and Ice Lake, AMD since
 * Zen): two rounds an instruction.  A bundle is hashed whole when it is
 * read; in software that was 3.5% of a load.  The state is kept as the
 * instructions want it: ABEF and CDGH, two words of each per register
 * half. */
#include <cpuid.h>
#include <immintrin.h>

#define SHA_TARGET __attribute__((target("sha,sse4.1,ssse3")))

SHA_TARGET static void sha256_block_ni(uint32_t h[8], const unsigned char *p)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bll,
					     0x0405060700010203ll);
	__m128i t, abef, cdgh, abef0, cdgh0, m[4];
	int g;

	t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)h), 0xb1);
	cdgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(h + 4)),
				 0x1b);
	abef = _mm_alignr_epi8(t, cdgh, 8);
	cdgh = _mm_blend_epi16(cdgh, t, 0xf0);
	abef0 = abef;
	cdgh0 = cdgh;
	/* sixteen groups of four rounds; m[g % 4] holds the schedule's words
	 * 4g-16 .. 4g-13 until group g replaces them with 4g .. 4g+3 */
	for (g = 0; g < 16; g++) {
		__m128i w, k;

		if (g < 4) {
			w = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)
							     (p + 16 * g)), bswap);
		} else {
			w = _mm_sha256msg1_epu32(m[g & 3], m[(g + 1) & 3]);
			w = _mm_add_epi32(w, _mm_alignr_epi8(m[(g + 3) & 3],
							     m[(g + 2) & 3], 4));
			w = _mm_sha256msg2_epu32(w, m[(g + 3) & 3]);
		}
		m[g & 3] = w;
		k = _mm_add_epi32(w, _mm_loadu_si128((const __m128i *)
						     (sha256_k + 4 * g)));
		cdgh = _mm_sha256rnds2_epu32(cdgh, abef, k);
		abef = _mm_sha256rnds2_epu32(abef, cdgh,
					     _mm_shuffle_epi32(k, 0x0e));
	}
	abef = _mm_add_epi32(abef, abef0);
	cdgh = _mm_add_epi32(cdgh, cdgh0);
	t = _mm_shuffle_epi32(abef, 0x1b);
	cdgh = _mm_shuffle_epi32(cdgh, 0xb1);
	_mm_storeu_si128((__m128i *)h, _mm_blend_epi16(t, cdgh, 0xf0));
	_mm_storeu_si128((__m128i *)(h + 4), _mm_alignr_epi8(cdgh, t, 8));
}

static void (*sha256_block)(uint32_t h[8], const unsigned char *p) =
	sha256_block_sw;

/* chosen once, before main() and any thread */
__attribute__((constructor)) static void sha256_pick(void)
{
	unsigned a, b, c, d;

	if (getenv("RDMA_SHA256_SOFTWARE"))
		return;		/* the tests compare both */
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSE4_1) ||
	    !(c & bit_SSSE3))
		return;
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & bit_SHA))
		return;
	sha256_block = sha256_block_ni;
}

int sha256_accelerated(void)
{
	return sha256_block == sha256_block_ni;
}
#else
#define sha256_block sha256_block_sw

int sha256_accelerated(void)
{
	return 0;
}
#endif

void sha256_init(struct sha256_ctx *c)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(c->h, iv, sizeof(iv));
	c->len = 0;
	c->n = 0;
}

void sha256_update(struct sha256_ctx *c, const void *data, size_t len)
{
	const unsigned char *p = data;

	if (!len)
		return;
	c->len += len;
	if (c->n) {
		size_t k = 64 - c->n < len ? 64 - c->n : len;

		memcpy(c->blk + c->n, p, k);
		c->n += k;
		p += k;
		len -= k;
		if (c->n < 64)
			return;
		sha256_block(c->h, c->blk);
		c->n = 0;
	}
	for (; len >= 64; p += 64, len -= 64)
		sha256_block(c->h, p);
	memcpy(c->blk, p, len);
	c->n = len;
}

void sha256_final(struct sha256_ctx *c, unsigned char out[32])
{
	uint64_t bits = c->len * 8;
	int i;

	c->blk[c->n++] = 0x80;
	if (c->n > 56) {
		memset(c->blk + c->n, 0, 64 - c->n);
		sha256_block(c->h, c->blk);
		c->n = 0;
	}
	memset(c->blk + c->n, 0, 56 - c->n);
	put_be64(c->blk + 56, bits);
	sha256_block(c->h, c->blk);
	for (i = 0; i < 8; i++)
		put_be32(out + 4 * i, c->h[i]);
	memset(c, 0, sizeof(*c));
}

void sha256(const void *data, size_t len, unsigned char out[32])
{
	struct sha256_ctx c;

	sha256_init(&c);
	sha256_update(&c, data, len);
	sha256_final(&c, out);
}
