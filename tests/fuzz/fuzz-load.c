/* fuzz-load: every extractor of the loader (analyze/load-*.c) over a
 * hostile bundle, as `rdma-analyze load` runs them; the input is the tar
 * (compressed here, as in fuzz-bundle) and the seeds are real bundles'
 * tars, so the mutations land in the evidence files the extractors read */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bundle_r *b;
	struct buf tar;

	buf_init(&tar, 0);
	buf_add(&tar, data, size);
	b = fuzz_bundle(&tar);
	buf_release(&tar);
	if (b)
		fuzz_load(b);
	br_free(b);
	return 0;
}
