/* fuzz-mlxlink: `mlxlink -m -e -c` text (analyze/mlxlink.c), the same
 * bytes as `mst status -v` rows, and the BER, lane-list and PCI address
 * helpers on the input's first line */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "mlxlink.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mlxlink m;
	struct mst_row rows[8];
	double v[MLXLINK_LANES];
	char bdf[16];
	size_t n = 0;
	char *s;

	mlxlink_parse((const char *)data, size, &m);
	mst_rows((const char *)data, size, rows, 8);
	/* the helpers take C strings: the first line, NUL-terminated */
	while (n < size && data[n] != '\n' && data[n])
		n++;
	s = malloc(n + 1);
	memcpy(s, data, n);
	s[n] = 0;
	mlxlink_ber(s);
	mlxlink_lanes(s, v, MLXLINK_LANES);
	mst_bdf(s, bdf);
	free(s);
	return 0;
}
