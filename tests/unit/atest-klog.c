/* atest-klog: the kernel log parser (kmsg and syslog forms, hostile
 * lines) and the category of each RDMA-relevant line format */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "klog.h"
#include "t.h"

/* one-record inputs: what the first record must be (n = records in all) */
static const struct {
	int syslog;
	const char *in;
	int n;
	int64_t seq, ts;
	int level;
	const char *device, *text;
} recs[] = {
	{ 0, "6,339,5140900,-;mlx5_core 0000:b1:00.0: firmware version: 28.41.1000\n"
	     " SUBSYSTEM=pci\n DEVICE=+pci:0000:B1:00.0\n", 1, 339, 5140900, 6,
	  "0000:b1:00.0", "mlx5_core 0000:b1:00.0: firmware version: 28.41.1000" },
	/* newer kernels add fields after flags */
	{ 0, "3,12,77,-,caller=T412;text here\n", 1, 12, 77, 3, "", "text here" },
	/* facility 3 (daemon) level 4 */
	{ 0, "28,5,1,c;x", 1, 5, 1, 4, "", "x" },
	/* the device from the text when no DEVICE key */
	{ 0, "6,1,2,-;mlx5_core 0000:17:00.1 ens1f1np1: Link up\n", 1, 1, 2, 6,
	  "0000:17:00.1", "mlx5_core 0000:17:00.1 ens1f1np1: Link up" },
	/* a DEVICE that is not PCI leaves the text's */
	{ 0, "6,4,29901877,-;infiniband rxe0: set active\n SUBSYSTEM=infiniband\n"
	     " DEVICE=+infiniband:rxe0\n", 1, 4, 29901877, 6, "",
	  "infiniband rxe0: set active" },
	/* a capped file starts mid-record: orphan continuation and a broken
	 * first line are skipped */
	{ 0, "BDF=+pci:0000:b1:00.0\n DEVICE=+pci:0000:b1:00.0\n6,7,8,-;ok\n", 1,
	  7, 8, 6, "", "ok" },
	{ 0, "6,abc,1,-;bad seq\n6,1,,-;bad ts\n;\n6,1,2\n\n6,9,10,-;good\n", 1,
	  9, 10, 6, "", "good" },
	{ 0, "99999999999999999999,1,1,-;too big\n6,2,3,-;next\n", 1, 2, 3, 6, "",
	  "next" },
	{ 0, "6,3,4,-;a \\x5c b \\x0a c\n", 1, 3, 4, 6, "", "a \\ b \\x0a c" },
	{ 0, "6,3,4,-;no newline at the end", 1, 3, 4, 6, "",
	  "no newline at the end" },
	{ 1, "<6>[    4.100000] mlx5_core 0000:14:00.0: firmware version: 28.41.1000\n",
	  1, -1, 4100000, 6, "0000:14:00.0",
	  "mlx5_core 0000:14:00.0: firmware version: 28.41.1000" },
	{ 1, "<4>[12345.5] x\n", 1, -1, 12345500000, 4, "", "x" },
	{ 1, "<3>no time\n", 1, -1, -1, 3, "", "no time" },
	{ 1, "<6>[abc] bad\n<6[1.0] bad\n[1.0] bad\n<6>[ 1.000001] good\n", 1, -1,
	  1000001, 6, "", "good" },
	{ 1, "<6>[1.1234567891] too many digits\n<6>[2.000000] fine\n", 1, -1,
	  2000000, 6, "", "fine" },
};

static const struct {
	const char *text, *category;
} cats[] = {
	{ "mlx5_core 0000:14:00.0: firmware version: 28.41.1000", "probe" },
	{ "mlx5_core 0000:14:00.0: 504.112 Gb/s available PCIe bandwidth (32.0 GT/s PCIe x16 link)", "probe" },
	{ "mlx5_core 0000:b3:00.1: 63.008 Gb/s available PCIe bandwidth, limited by 8 GT/s x8 link at 0000:b2:00.0 (capable of 252.048 Gb/s with 16 GT/s x16 link)", "pcie_bw" },
	{ "pci 0003:01:00.0: 7.876 Gb/s available PCIe bandwidth, limited by 8.0 GT/s PCIe x1 link at 0003:00:00.0 (capable of 15.752 Gb/s with 8.0 GT/s PCIe x2 link), in Flit mode", "pcie_bw" },
	{ "mlx5_core 0000:14:00.0: Port module event: module 0, Cable plugged", "probe" },
	{ "mlx5_core 0000:14:00.0: Port module event: module 0, Cable unplugged", "link_flap" },
	{ "mlx5_core 0000:14:00.0: port_module:286:(pid 0): Port module event[error]: module 0, Cable error, High Temperature", "cable_module" },
	{ "mlx5_core 0000:14:00.0: Port module event: module 0, Cable error, Bus stuck(I2C or data shorted)", "cable_module" },
	{ "mlx5_core 0000:17:00.0 ens1f0np0: Link down", "link_flap" },
	{ "mlx5_core 0000:17:00.0 ens1f0np0: Link up", "probe" },
	{ "mlx5_core 0000:3b:00.0: poll_health:834:(pid 0): device's health compromised - reached miss count", "fw_reset" },
	{ "mlx5_core 0000:3b:00.0: poll_health:821:(pid 0): Fatal error 1 detected", "fw_reset" },
	{ "mlx5_core 0000:3b:00.0: print_health_info:461:(pid 0): Health issue observed, firmware internal error, severity(3) ERROR:", "fw_reset" },
	{ "mlx5_core 0000:3b:00.0: print_health_info:472:(pid 0): time 1733001234", "fw_reset" },
	{ "mlx5_core 0000:3b:00.0: mlx5_health_try_recover:393:(pid 812): health recovery succeeded", "fw_reset" },
	{ "mlx5_core 0000:3b:00.0: give_pages:369:(pid 2231): func_id 0x0, npages 4096, err -12", "fw_mem_alloc" },
	{ "mlx5_core 0000:3b:00.0: reclaim_pages_cmd:512:(pid 9): failed reclaiming pages: err -5", "fw_mem_alloc" },
	{ "mlx5_core 0000:3b:00.0: mlx5_cmd_out_err:838:(pid 4410): CREATE_MKEY(0x200) op_mod(0x0) failed, status no resources(0xf), syndrome (0x2c1e8b), err(-28)", "fw_mem_alloc" },
	{ "mlx5_core 0000:3b:00.0: mlx5_cmd_out_err:838:(pid 4410): MODIFY_QP(0x50a) op_mod(0x0) failed, status bad parameter(0x3), syndrome (0x1), err(-22)", "mlx5_cmd" },
	{ "mlx5_core 0000:3b:00.0: mlx5_cmd_check:810:(pid 77): QUERY_VPORT_COUNTER(0x770) op_mod(0x0) failed, status bad system state(0x4), syndrome (0x368b01)", "mlx5_cmd" },
	{ "mlx5_core 0000:3b:00.0: wait_func:1134:(pid 12): ACCESS_REG(0x805) timeout. Will cause a leak of a command resource", "mlx5_cmd" },
	{ "mlx5_core 0000:3b:00.0: mlx5_pcie_event:299:(pid 1100): Detected insufficient power on the PCIe slot (27W).", "pcie_power" },
	{ "mlx5_core 0000:3b:00.0: mlx5_pcie_event:299:(pid 1100): PCIe slot advertised sufficient power (75W).", "probe" },
	{ "mlx5_core 0000:01:00.0: mlx5_load_one failed with error code -22", "probe_fail" },
	{ "mlx5_core: probe of 0000:01:00.0 failed with error -22", "probe_fail" },
	{ "mlx5_core 0000:3b:00.0: E-Switch: Total vports 10, per vport: max uc(128) max mc(2048)", NULL },
	{ "nvidia_peermem: Unknown symbol ib_register_peer_memory_client (err -22)", "peermem" },
	{ "nvidia_peermem: disagrees about version of symbol ib_unregister_peer_memory_client", "peermem" },
	{ "nvidia-peermem nv_mem_client_init:523 nv_mem_client_init -- error while registering traditional client", "peermem" },
	{ "nvidia_peermem: loading out-of-tree module taints kernel.", NULL },
	{ "Peer memory nv_mem is missing mandatory function get_pages", "peermem" },
	{ "DMAR: [DMA Read NO_PASID] Request device [b1:00.0] fault addr 0x7cd80000 [fault reason 0x01] Present bit in root entry is clear", "iommu" },
	{ "AMD-Vi: Event logged [IO_PAGE_FAULT device=05:00.0 domain=0x0000 address=0x0000000092050de0 flags=0x0020]", "iommu" },
	{ "iommu: Default domain type: Translated ", "iommu" },
	{ "DMAR: IOMMU enabled", NULL },
	{ "infiniband mlx5_0: dump_cqe:272:(pid 0): WC error: 5, Message: WR flushed", "cqe_error" },
	{ "IPv6: ADDRCONF(NETDEV_CHANGE): ens1f0np0: link becomes ready", NULL },
	{ "", NULL },
	{ "mlx5_core", NULL },
};

static const struct {
	const char *text, *dev;
} devs[] = {
	{ "mlx5_core 0000:3b:00.0: x", "0000:3b:00.0" },
	{ "mlx5_core 0000:3B:00.0 ens1: x", "0000:3b:00.0" },
	{ "pci 0000:00:01.0: Adding to iommu group 0", "0000:00:01.0" },
	{ "mlx5_core 0000:3b:00.0", NULL },	/* nothing after the address */
	{ "mlx5_core 0000:3b:00.0x: y", NULL },
	{ "mlx5_core 000:3b:00.0: y", NULL },
	{ "DMAR: [DMA Read] Request device [00:02.0]", NULL },
	{ "no-space-here", NULL },
	{ "", NULL },
};

int main(void)
{
	struct klog_rec *r = malloc(sizeof(*r));
	size_t i;

	if (!r)
		return 1;
	for (i = 0; i < sizeof(recs) / sizeof(*recs); i++) {
		struct klog_iter it;
		int n = 0, got;

		klog_iter_init(&it, recs[i].in, strlen(recs[i].in), recs[i].syslog);
		got = klog_next(&it, r);
		T_OK(got == 1, "record %zu parses", i);
		if (got != 1)
			continue;
		n = 1;
		T_OK(r->seq == recs[i].seq && r->ts_us == recs[i].ts &&
		     r->level == recs[i].level, "record %zu: seq %lld ts %lld "
		     "level %d", i, (long long)r->seq, (long long)r->ts_us,
		     r->level);
		T_STREQ(r->device, recs[i].device, "record %zu: device", i);
		T_STREQ(r->text, recs[i].text, "record %zu: text", i);
		while (klog_next(&it, r))
			n++;
		T_OK(n == recs[i].n, "record %zu: %d record(s)", i, n);
	}
	/* hostile: a very long line is cut, NUL bytes and a lone prefix */
	{
		size_t len = 9000;
		char *big = malloc(len + 16);
		struct klog_iter it;

		if (!big)
			return 1;
		memcpy(big, "6,1,1,-;", 8);
		memset(big + 8, 'a', len - 8);
		big[100] = 0;
		memcpy(big + len, "\n6,2,2,-;z\n", 11);
		klog_iter_init(&it, big, len + 11, 0);
		T_OK(klog_next(&it, r) == 1 && strlen(r->text) == KLOG_TEXT_MAX - 1,
		     "a 9000-byte record is cut to %d bytes", KLOG_TEXT_MAX - 1);
		T_OK(klog_next(&it, r) == 1 && !strcmp(r->text, "z"),
		     "the record after it is intact");
		T_OK(klog_next(&it, r) == 0, "then the end");
		free(big);
		klog_iter_init(&it, "6", 1, 0);
		T_OK(klog_next(&it, r) == 0, "a lone digit is no record");
		klog_iter_init(&it, "<", 1, 1);
		T_OK(klog_next(&it, r) == 0, "a lone '<' is no record");
		klog_iter_init(&it, NULL, 0, 0);
		T_OK(klog_next(&it, r) == 0, "no data, no record");
	}
	for (i = 0; i < sizeof(cats) / sizeof(*cats); i++) {
		const char *c = klog_category(cats[i].text);

		T_OK(c == cats[i].category ||
		     (c && cats[i].category && !strcmp(c, cats[i].category)),
		     "category of '%.60s': %s", cats[i].text, c ? c : "(none)");
	}
	T_OK(!klog_is_event("probe") && klog_is_event("fw_reset") &&
	     !klog_is_event(NULL), "probe lines are not events");
	for (i = 0; i < sizeof(devs) / sizeof(*devs); i++) {
		char out[16];
		int rc = klog_text_device(devs[i].text, out, sizeof(out));

		if (devs[i].dev)
			T_OK(rc == 0 && !strcmp(out, devs[i].dev),
			     "device of '%s'", devs[i].text);
		else
			T_OK(rc < 0, "no device in '%s'", devs[i].text);
	}
	free(r);
	return t_done();
}
