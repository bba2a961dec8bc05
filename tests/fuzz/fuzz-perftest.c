/* fuzz-perftest: ib_*_bw / ib_*_lat output (analyze/perftest.c) */
#include "fuzz.h"
#include "perftest.h"

#define MAX_RUNS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pt_result r[MAX_RUNS];
	int i, n;

	perftest_detect((const char *)data, size);
	n = perftest_parse((const char *)data, size, r, MAX_RUNS);
	if (n < 0 || n > MAX_RUNS)
		__builtin_trap();	/* more results than room */
	for (i = 0; i < n; i++)
		perftest_gbps(r[i].bw_avg, r[i].unit);
	return 0;
}
