/* sha256: SHA-256 (FIPS 180-4), used for bundle content hashes and, with
 * HMAC, for --redact's pseudonyms */
#ifndef RDMA_SHA256_H
#define RDMA_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256_ctx {
	uint32_t h[8];
	uint64_t len;		/* bytes hashed */
	unsigned char blk[64];
	size_t n;		/* bytes in blk */
};

void sha256_init(struct sha256_ctx *c);
void sha256_update(struct sha256_ctx *c, const void *data, size_t len);
void sha256_final(struct sha256_ctx *c, unsigned char out[32]);
void sha256(const void *data, size_t len, unsigned char out[32]);
/* 1 when the CPU's SHA instructions do the work (not with the environment
 * variable RDMA_SHA256_SOFTWARE set: the tests compare both ways) */
int sha256_accelerated(void);

#endif
