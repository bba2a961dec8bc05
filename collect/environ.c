/* environ: filter environments down to the RDMA-relevant variables */
#include <string.h>

#include "environ.h"
#include "util.h"

int environ_wanted(const char *name, size_t n)
{
	static const char *const prefixes[] = {
		"NCCL_", "UCX_", "OMPI_", "MLX5_",
	};
	size_t i;

	if (n == strlen("CUDA_VISIBLE_DEVICES") &&
	    !memcmp(name, "CUDA_VISIBLE_DEVICES", n))
		return 1;
	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (n > strlen(prefixes[i]) &&
		    !memcmp(name, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

void environ_filter(const char *block, size_t len, struct buf *out)
{
	const char *p = block, *end = block + len;

	while (p < end) {
		const char *e = memchr(p, 0, (size_t)(end - p));
		const char *eq;

		if (!e)
			e = end;
		eq = memchr(p, '=', (size_t)(e - p));
		if (eq && environ_wanted(p, (size_t)(eq - p))) {
			const char *v;

			buf_add(out, p, (size_t)(eq - p + 1));
			for (v = eq + 1; v < e; v++) {
				if (*v == '\\')
					buf_add(out, "\\\\", 2);
				else if (*v == '\n')
					buf_add(out, "\\n", 2);
				else
					buf_addch(out, *v);
			}
			buf_addch(out, '\n');
		}
		p = e + 1;
	}
}
