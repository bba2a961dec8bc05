/* fuzz.h: what the libFuzzer targets (tests/fuzz/fuzz-*.c) share: a bundle
 * built in memory around fuzzed bytes, and a database the loader's
 * extractors run against.  Built only by `make fuzz` (lib.c). */
#ifndef RDMA_FUZZ_H
#define RDMA_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "breader.h"
#include "buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* a ustar entry (type '0' file, '5' folder, '2' symlink to data) appended
 * to tar; names must fit the 100-byte name field */
void fuzz_tar_add(struct buf *tar, const char *path, char type,
		  const void *data, size_t len);
/* a small valid manifest.json, as the first entry */
void fuzz_tar_manifest(struct buf *tar);
/* end tar, compress it as rdma-collect does (zstd) and open it; NULL if
 * br_open_mem refused it (the reason is not interesting to a target) */
struct bundle_r *fuzz_bundle(struct buf *tar);
/* the same over bytes that already are a compressed bundle */
struct bundle_r *fuzz_bundle_raw(const void *raw, size_t len);

/* run every extractor of the registry over b in an in-memory database,
 * then roll it all back: the next input starts from an empty database */
void fuzz_load(const struct bundle_r *b);

#endif
