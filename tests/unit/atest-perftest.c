/* atest-perftest: perftest outputs built with perftest's own format strings
 * (linux-rdma/perftest src/perftest_parameters.h: RESULT_LINE, the banner,
 * the header lines, RESULT_FMT*, REPORT_FMT, REPORT_FMT_LAT) and values of our own; label variants
 * (MB/sec before 24.07, MiB/sec, Gb/sec), CUDA runs, completion errors,
 * hostile input */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perftest.h"
#include "t.h"

#define RESULT_LINE "---------------------------------------------------------------------------------------\n"
#define REPORT_FMT " %-7lu    %-10" PRIu64 "       %-7.2lf            %-7.2lf\t\t     %-7.6lf"
#define REPORT_FMT_LAT " %-7lu %" PRIu64 "          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f"

static char txt[65536];
static size_t tl;

static void add(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void add(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tl += (size_t)vsnprintf(txt + tl, sizeof(txt) - tl, fmt, ap);
	va_end(ap);
}

static void header(const char *test, const char *dev, const char *conn,
		   const char *link)
{
	add(RESULT_LINE);
	add("                    %s Test\n", test);
	add(" Dual-port       : %s\t\tDevice         : %s\n", "OFF", dev);
	add(" Number of qps   : %d\t\tTransport type : %s\n", 1, "IB");
	add(" Connection type : %s\t\tUsing SRQ      : %s\n", conn, "OFF");
	add(" PCIe relax order: %s\t\tLock-free      : %s\n", "ON", "OFF");
	add(" ibv_wr* API     : %s\t\tUsing Enhanced Reorder      : %s\n", "ON", "OFF");
	add(" TX depth        : %d\n", 128);
	add(" CQ Moderation   : %d\n", 100);
	add(" Mtu             : %lu[B]\n", 4096UL);
	add(" Link type       : %s\n", link);
	add(" GID index       : %d\n", 3);
	add(" Max inline data : %d[B]\n", 0);
	add(" rdma_cm QPs\t : %s\n", "OFF");
	add(" Data ex. method : %s\n", "Ethernet");
	add(RESULT_LINE);
	add(" local address: LID %#04x QPN %#06x PSN %#06x RKey %#08x VAddr %#016llx\n",
	    0, 0x1a2, 0x3b4c5d, 0x1fffb9, 0x7f11aa000000ULL);
	add(" GID: %02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d\n",
	    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 192, 168, 10, 21);
	add(RESULT_LINE);
}

static void bw_table(const char *label, const double (*rows)[2], int n)
{
	int i;

	add(" #bytes     #iterations    BW peak[%s]    BW average[%s]   MsgRate[Mpps]\n",
	    label, label);
	for (i = 0; i < n; i++) {
		add(REPORT_FMT, (unsigned long)rows[i][0], (uint64_t)5000,
		    rows[i][1] * 1.01, rows[i][1], rows[i][1] / 8.0);
		add("\n");
	}
	add(RESULT_LINE);
}

static void test_labels(void)
{
	static const double r1[][2] = { { 65536, 11200.50 } };
	static const double r3[][2] = { { 2, 3.2 }, { 1048576, 46000.00 }, { 4096, 22000.1 } };
	static const double rg[][2] = { { 65536, 391.27 } };
	struct pt_result r[4];
	int n;

	tl = 0;
	header("RDMA_Write BW", "mlx5_0", "RC", "Ethernet");
	bw_table("MB/sec", r1, 1);
	n = perftest_parse(txt, tl, r, 4);
	T_OK(n == 1 && r[0].bw && r[0].unit == PT_UNIT_MB && r[0].rows == 1,
	     "MB/sec label (perftest < 24.07): one BW run");
	T_STREQ(r[0].test, "RDMA_Write BW", "banner: test name");
	T_STREQ(r[0].device, "mlx5_0", "header: device");
	T_STREQ(r[0].transport, "IB", "header: transport type");
	T_STREQ(r[0].connection, "RC", "header: connection type");
	T_STREQ(r[0].link, "Ethernet", "header: link type");
	T_OK(r[0].bw_avg > 11200.49 && r[0].bw_avg < 11200.51 &&
	     r[0].avg_gbps > 93.95 && r[0].avg_gbps < 93.96,
	     "MB/sec is 0x100000 bytes: 11200.50 -> 93.96 Gb/s (got %.3f)", r[0].avg_gbps);
	T_OK(!r[0].cuda && !r[0].failed && !r[0].bidir, "host memory, not failed");

	tl = 0;
	header("Send Bidirectional BW", "mlx5_3", "RC", "IB");
	bw_table("MiB/sec", r3, 3);
	n = perftest_parse(txt, tl, r, 4);
	T_OK(n == 1 && r[0].unit == PT_UNIT_MIB && r[0].rows == 3 && r[0].bidir,
	     "MiB/sec label (24.07+), bidirectional, 3 rows");
	T_OK(r[0].bytes == 1048576 && r[0].bw_avg > 45999 && r[0].bw_avg < 46001,
	     "the best row is kept (1 MiB messages)");

	tl = 0;
	header("RDMA_Read BW", "mlx5_bond_0", "RC", "Ethernet");
	bw_table("Gb/sec", rg, 1);
	n = perftest_parse(txt, tl, r, 4);
	T_OK(n == 1 && r[0].unit == PT_UNIT_GB && r[0].avg_gbps > 391.26 &&
	     r[0].avg_gbps < 391.28, "Gb/sec (--report_gbits) taken as is");
	T_STREQ(r[0].device, "mlx5_bond_0", "bond device name");
}

static void test_cuda_and_failure(void)
{
	static const double h[][2] = { { 1048576, 46500.00 } };
	static const double g[][2] = { { 1048576, 9100.00 } };
	struct pt_result r[4];
	int n;

	tl = 0;
	add("+ ib_write_bw -d mlx5_0 -s 1048576 10.0.0.2\n");
	header("RDMA_Write BW", "mlx5_0", "RC", "IB");
	bw_table("MiB/sec", h, 1);
	add("+ ib_write_bw -d mlx5_0 -s 1048576 --use_cuda=0 10.0.0.2\n");
	add("initializing CUDA\n");
	header("RDMA_Write BW", "mlx5_0", "RC", "IB");
	bw_table("MiB/sec", g, 1);
	add("+ ib_write_bw -d mlx5_0 --use_cuda=1 10.0.0.2\n");
	header("RDMA_Write BW", "mlx5_0", "RC", "IB");
	add(" #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]\n");
	add(" Completion with error at client\n");
	add(" Failed status-%s (%d): wr_id %d syndrom 0x%x\n",
	    "transport retry counter exceeded", 12, 0, 0x81);
	add(" scnt=%lu, ccnt=%lu\n", 128UL, 0UL);
	n = perftest_parse(txt, tl, r, 4);
	T_OK(n == 3, "three runs in one text (got %d)", n);
	T_OK(!r[0].cuda && r[1].cuda && r[2].cuda, "CUDA runs told apart");
	T_OK(!r[0].failed && !r[1].failed && r[2].failed, "the failing run is failed");
	T_OK(r[2].wc_status == 12 && r[2].vendor_err == 0x81 && r[2].rows == 0,
	     "Failed status-... (12) syndrom 0x81");
}

static void test_latency(void)
{
	struct pt_result r[2];
	int n;

	tl = 0;
	header("Send Latency", "mlx5_1", "UD", "IB");
	add(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99%% percentile[usec]   99.9%% percentile[usec] \n");
	add("Conflicting CPU frequency values detected: %lf != %lf. CPU Frequency is not max.\n", 3000.0, 1200.0);
	add(REPORT_FMT_LAT, 2UL, (uint64_t)1000, 0.91, 4.40, 0.95, 0.97, 0.05, 1.02, 4.40);
	add("\n");
	add(REPORT_FMT_LAT, 4UL, (uint64_t)1000, 0.90, 3.10, 0.94, 0.96, 0.04, 1.01, 3.10);
	add("\n" RESULT_LINE);
	n = perftest_parse(txt, tl, r, 2);
	T_OK(n == 1 && !r[0].bw && r[0].rows == 2, "latency: 2 rows, noise skipped");
	T_OK(r[0].t_avg > 0.96 && r[0].t_avg < 0.98 && r[0].t_typical > 0.94 &&
	     r[0].t_typical < 0.96, "latency: t_typical and t_avg of the first row");
	T_STREQ(r[0].connection, "UD", "latency: connection type");
}

static void test_hostile(void)
{
	struct pt_result r[2];
	char *big;
	size_t i;
	const char *bad[] = {
		"", " Test", "BW Test\n #bytes\n 1 2", "                    X BW Test\n #bytes [MiB/sec]\n -5 1 2 3\n 1e300 1 1 1\n nan nan nan nan\n",
		"                    A BW Test\n Device : \n Device         :",
	};

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int n = perftest_parse(bad[i], strlen(bad[i]), r, 2);

		T_OK(n >= 0 && n <= 2, "hostile %zu: parsed without harm", i);
	}
	big = malloc(1 << 20);
	if (!big)
		return;
	for (i = 0; i < (1 << 20); i++)
		big[i] = i % 97 == 0 ? '\n' : i % 13 == 0 ? 0 : "# Test BW"[i % 9];
	T_OK(perftest_parse(big, 1 << 20, r, 2) <= 2, "hostile: 1 MiB of noise with NULs");
	T_OK(perftest_detect("nothing here", 12) == 0, "detect: plain text is not perftest");
	free(big);
}

/* issue 17: a run that fails before its table is a result, and a paste
 * of perftest's error alone is perftest's */
static void test_errors(void)
{
	static const struct {
		const char *what, *text;
		int detect, runs, cuda;
		const char *error;
	} c[] = {
		{ "CUDA MR failure without a banner",
		  "initializing CUDA\ncreating CUDA Ctx\ncuMemAlloc() of a 262144 bytes GPU buffer\n"
		  "Couldn't allocate MR\nfailed to create mr\nFailed to create MR\n",
		  1, 1, 1, "Couldn't allocate MR" },
		{ "newer wording with errno",
		  "allocated GPU buffer of a 16777216 address at 0x594c for type CUDA_MEM_DEVICE\n"
		  "Couldn't allocate MR with error=14\nfailed to create mr\n",
		  1, 1, 1, "Couldn't allocate MR with error=14" },
		{ "TCP exchange, two messages on one line",
		  "Couldn't connect to 192.168.125.211:18515\n"
		  "Unable to open file descriptor for socket connection Unable to init the socket connection\n",
		  1, 1, 0, "Couldn't connect to 192.168.125.211:18515" },
		{ "banner, header, then RTR",
		  "------\n                    Send BW Test\n Dual-port       : OFF\t\tDevice         : mlx5_0\n"
		  " Link type       : Ethernet\n------\nFailed to modify QP 1399 to RTR\n"
		  " Unable to Connect the HCA's through the link\n",
		  1, 1, 0, "Failed to modify QP 1399 to RTR" },
		{ "the server's waiting box is no error",
		  "************************************\n* Waiting for client to connect... *\n"
		  "************************************\n",
		  1, 0, 0, "" },
		{ "'Couldn't connect' alone is anybody's",
		  "Couldn't connect to 10.0.0.1:22\n", 0, 1, 0, "" },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct pt_result r[2];
		size_t len = strlen(c[i].text);
		int n;

		T_OK(perftest_detect(c[i].text, len) == c[i].detect,
		     "errors: %s: detected %d", c[i].what, c[i].detect);
		if (!c[i].detect)
			continue;
		n = perftest_parse(c[i].text, len, r, 2);
		T_OK(n == c[i].runs, "errors: %s: %d run(s) (got %d)", c[i].what,
		     c[i].runs, n);
		if (n < 1)
			continue;
		T_OK(r[0].failed && r[0].cuda == c[i].cuda && !r[0].rows,
		     "errors: %s: failed, cuda %d", c[i].what, c[i].cuda);
		T_STREQ(r[0].error, c[i].error, "errors: %s: the error line",
			c[i].what);
	}
}

int main(void)
{
	test_labels();
	test_cuda_and_failure();
	test_errors();
	test_latency();
	test_hostile();
	return t_done();
}
