/* test-spool: which names --keep takes for a host's bundles, and its
 * argument */
#include <stdlib.h>
#include <string.h>

#include "spool.h"
#include "t.h"

static const struct {
	const char *name;
	int ok;
	long long t;
	unsigned seq;
} names[] = {
	{ "gpu01-20261207T074914Z.rdma.tar.zst", 1, 1796629754LL, 1 },
	{ "gpu01-20261207T074914Z-2.rdma.tar.zst", 1, 1796629754LL, 2 },
	{ "gpu01-20261207T074914Z-999.rdma.tar.zst", 1, 1796629754LL, 999 },
	{ "gpu01-19700101T000000Z.rdma.tar.zst", 1, 0, 1 },
	{ "gpu01-20240229T235959Z.rdma.tar.zst", 1, 1709251199LL, 1 },
	{ "gpu01-20230229T000000Z.rdma.tar.zst", 0, 0, 0 },	/* no such day */
	{ "gpu01-20261307T074914Z.rdma.tar.zst", 0, 0, 0 },
	{ "gpu01-20261207T244914Z.rdma.tar.zst", 0, 0, 0 },
	{ "gpu01-20261207T074914.rdma.tar.zst", 0, 0, 0 },
	{ "gpu01-20261207t074914Z.rdma.tar.zst", 0, 0, 0 },
	{ "gpu01-2026120T0749140Z.rdma.tar.zst", 0, 0, 0 },
	{ "gpu01-+0261207T074914Z.rdma.tar.zst", 0, 0, 0 },
	{ "gpu01-20261207T074914Z-1.rdma.tar.zst", 0, 0, 0 },
	{ "gpu01-20261207T074914Z-02.rdma.tar.zst", 0, 0, 0 },
	{ "gpu01-20261207T074914Z-1000.rdma.tar.zst", 0, 0, 0 },
	{ "gpu01-20261207T074914Z-.rdma.tar.zst", 0, 0, 0 },
	{ "gpu01-20261207T074914Z-2x.rdma.tar.zst", 0, 0, 0 },
	{ "gpu01-20261207T074914Z.rdma.tar.zst.key", 0, 0, 0 },
	{ "gpu01-20261207T074914Z.rdma.tar", 0, 0, 0 },
	{ "gpu01-20261207T074914Zrdma.tar.zst", 0, 0, 0 },
	{ "gpu01-x-20261207T074914Z.rdma.tar.zst", 0, 0, 0 },	/* host gpu01-x */
	{ "gpu0-20261207T074914Z.rdma.tar.zst", 0, 0, 0 },
	{ "gpu011-20261207T074914Z.rdma.tar.zst", 0, 0, 0 },
	{ "gpu01_20261207T074914Z.rdma.tar.zst", 0, 0, 0 },
	{ ".gpu01-20261207T074914Z.rdma.tar.zst.tmp.AbCdEf", 0, 0, 0 },
	{ "gpu01-", 0, 0, 0 },
	{ "gpu01", 0, 0, 0 },
	{ "", 0, 0, 0 },
};

static void test_names(void)
{
	unsigned seq;
	time_t t;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int r = spool_bundle_name(names[i].name, "gpu01", &t, &seq);

		if (names[i].ok)
			T_OK(!r && (long long)t == names[i].t &&
			     seq == names[i].seq, "gpu01's bundle: %s",
			     names[i].name);
		else
			T_OK(r < 0, "not gpu01's bundle: '%s'", names[i].name);
	}
	T_OK(!spool_bundle_name("gpu01-x-20261207T074914Z.rdma.tar.zst",
				"gpu01-x", &t, &seq), "a host with a dash");
}

static void test_keep(void)
{
	static const char *bad[] = { "", "0", "0d", "d", "-1", "+3", " 3",
		"3 ", "3x", "3dd", "1d2", "100001", "36501d", "0x10",
		"99999999999999999999" };
	struct spool_keep k;
	size_t i;

	T_OK(!spool_parse_keep("30", &k) && k.count == 30 && !k.days, "30");
	T_OK(!spool_parse_keep("100000", &k) && k.count == 100000, "100000");
	T_OK(!spool_parse_keep("7d", &k) && k.days == 7 && !k.count, "7d");
	T_OK(!spool_parse_keep("36500d", &k) && k.days == 36500, "36500d");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		T_OK(spool_parse_keep(bad[i], &k) < 0, "refused: '%s'", bad[i]);
}

int main(void)
{
	test_names();
	test_keep();
	return t_done();
}
