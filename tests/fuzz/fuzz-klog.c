/* fuzz-klog: the kernel log (analyze/klog.c) in both stored forms,
 * /dev/kmsg records and klogctl lines (the first byte's low bit picks),
 * every record then categorised as the checks do */
#include "fuzz.h"
#include "klog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct klog_iter it;
	struct klog_rec r;
	char dev[16];

	if (!size)
		return 0;
	klog_iter_init(&it, (const char *)data + 1, size - 1, data[0] & 1);
	while (klog_next(&it, &r)) {
		const char *c = klog_category(r.text);

		klog_is_event(c);
		klog_text_device(r.text, dev, sizeof(dev));
	}
	return 0;
}
