/* fuzz-nccl: NCCL log lines (analyze/nccl.c), each line of the input as
 * the loader feeds them, and the first line as an NCCL_IB_HCA setting
 * matched against the devices the log names */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "nccl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	struct nccl_ev ev;
	struct nccl_hca h;
	char *spec = NULL;
	int entry;

	ev.status = -1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (!spec) {
			spec = malloc(len + 1);
			memcpy(spec, p, len);
			spec[len] = 0;
			nccl_hca_parse(spec, &h);
		}
		if (nccl_parse_line(p, len, &ev) == NCCL_IB_USING) {
			int i;

			for (i = 0; i < ev.ndevs; i++)
				nccl_hca_selects(&h, ev.devs[i].name,
						 ev.devs[i].port, &entry);
		}
		ibv_wc_status_name(ev.status);
		ibv_wc_status_text(ev.status);
		p += len + 1;
	}
	free(spec);
	return 0;
}
