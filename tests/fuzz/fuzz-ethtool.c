/* fuzz-ethtool: the per-netdev JSON documents of a bundle, through a
 * one-netdev bundle whose evidence files all hold the input: the ethtool
 * document (rdma-collect/ethtool/<if>.json, read by load-rdma.c for the
 * driver info and statistics, and by `show ethtool -S`), its --sample
 * twin, the DCB document (rdma-collect/dcb/<if>.json, load-net.c) and
 * the address list (rdma-collect/net/addresses.json, load-net.c).  Each
 * reader meets its own shape or someone else's: both must be safe. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "view.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	static const char *const docs[] = {
		"rdma-collect/ethtool/eth0.json",
		"rdma-collect/sample/ethtool/eth0.json",
		"rdma-collect/dcb/eth0.json",
		"rdma-collect/net/addresses.json",
	};
	char arg0[] = "-S", arg1[] = "eth0";
	char *argv[] = { arg0, arg1, NULL };
	struct bundle_r *b;
	struct buf tar;
	size_t i;

	if (!null && !(null = fopen("/dev/null", "w")))
		return 0;
	buf_init(&tar, 0);
	fuzz_tar_manifest(&tar);
	fuzz_tar_add(&tar, "sys/class/net/eth0", '5', NULL, 0);
	fuzz_tar_add(&tar, "sys/class/net/eth0/mtu", '0', "4200\n", 5);
	fuzz_tar_add(&tar, "sys/class/net/eth0/operstate", '0', "up\n", 3);
	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
		fuzz_tar_add(&tar, docs[i], '0', data, size);
	b = fuzz_bundle(&tar);
	buf_release(&tar);
	if (!b)
		__builtin_trap();	/* the bundle built here must open */
	fuzz_load(b);
	view_ethtool.show(b, 2, argv, null);
	br_free(b);
	return 0;
}
