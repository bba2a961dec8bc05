/* fuzz-bundle: the bundle reader (analyze/breader.c) on hostile tars.
 *
 * An input that starts with the zstd magic is taken as a whole bundle;
 * any other input is the tar inside one, compressed here, so that the
 * mutations reach the tar, pax and path checks instead of dying in zstd's
 * checksum.  Every entry of a bundle that opens is then looked up the
 * ways the loader does (links followed, folders listed, JSON parsed). */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#define MAX_WALK 2000

static void walk(const struct bundle_r *b)
{
	char out[4096];
	size_t i;

	for (i = 0; i < b->n && i < MAX_WALK; i++) {
		const char *p = b->v[i].path;
		const char **names;
		size_t len;

		br_get(b, p);
		br_lget(b, p);
		br_link_base(b, p);
		br_data(b, p, &len);
		br_line(b, p, out, sizeof(out));
		br_resolve(b, p, out, sizeof(out));
		br_list(b, p, &names);
		free(names);
		len = strlen(p);
		if (len > 5 && !strcmp(p + len - 5, ".json"))
			jfree(br_json(b, p));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	struct bundle_r *b;

	if (size >= 4 && !memcmp(data, zstd_magic, 4)) {
		b = fuzz_bundle_raw(data, size);
	} else {
		struct buf tar;

		buf_init(&tar, 0);
		buf_add(&tar, data, size);
		b = fuzz_bundle(&tar);
		buf_release(&tar);
	}
	if (b)
		walk(b);
	br_free(b);
	return 0;
}
