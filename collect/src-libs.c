/* src-libs: which rdma-core libraries this node can load.  Each is opened
 * with dlopen (never linked: on the nodes that need a ticket rdma-core is
 * often missing or broken) and closed again; the manifest's "libraries"
 * says ok with the file, or absent with the loader's message.  libibverbs
 * is probed by the verbs source itself, which uses it. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "rdmalib.h"
#include "src.h"
#include "util.h"

static const char *const libs[][2] = {
	{ "libibumad", "libibumad.so.3" },
	{ "libibmad", "libibmad.so.5" },
	{ "libibnetdisc", "libibnetdisc.so.5" },
};

static int collect(struct ctx *c)
{
	size_t i, absent = 0;
	char key[64];

	if (ctx_is_root(c)) {
		ctx_reason(c, "not probed under --root (libraries of this "
			   "machine, not of the tree)");
		return SRC_ABSENT;
	}
	for (i = 0; i < ARRAY_SIZE(libs); i++) {
		char file[PATH_MAX];
		void *h;

		ctx_progress(c, "", libs[i][1]);
		h = rdmalib_open(libs[i][1]);
		if (!h) {
			ctx_note(c, libs[i][0], "absent: %s", rdmalib_error());
			absent++;
			continue;
		}
		ctx_note(c, libs[i][0], "ok");
		if (!rdmalib_file(h, file, sizeof(file))) {
			xsnprintf(key, sizeof(key), "%s.file", libs[i][0]);
			ctx_note(c, key, "%s", file);
		}
		rdmalib_close(h);
	}
	if (absent == ARRAY_SIZE(libs)) {
		ctx_reason(c, "no MAD library of rdma-core (libibumad, libibmad, "
			   "libibnetdisc) can be loaded");
		return SRC_ABSENT;
	}
	if (absent) {
		ctx_reason(c, "%zu of %zu MAD libraries cannot be loaded", absent,
			   ARRAY_SIZE(libs));
		return SRC_PARTIAL;
	}
	return SRC_OK;
}

const struct source src_libs = {
	.name = "libs",
	.help = "which rdma-core MAD libraries load (libibumad, libibmad, libibnetdisc), by dlopen",
	.flags = SRC_F_STORED,
	.timeout_ms = 3000,
	.max_bytes = 64u << 10,
	.collect = collect,
};
