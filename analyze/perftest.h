/* perftest: the outputs of ib_write_bw, ib_send_bw, ib_read_bw and the
 * latency tests (ib_send_lat ...), as linux-rdma/perftest prints them
 * (src/perftest_parameters.h: REPORT_FMT and its headers; tests/real/
 * perftest-* for real runs): the
 * banner ("RDMA_Write BW Test"), the header (Device, Transport type,
 * Connection type, Link type), CUDA lines (--use_cuda), the BW table with
 * MB/sec (before perftest 24.07), MiB/sec or Gb/sec (--report_gbits)
 * labels, the latency table, completion errors, and the errors that end
 * a run before its table ("Couldn't allocate MR", "Failed to modify QP
 * 1399 to RTR", "Couldn't connect to 10.0.0.2:18515"): a failed run is a
 * result too, and a paste of the error alone (no banner) is one run.  A
 * text may hold several runs; each banner starts one.  Hostile input:
 * bounded.
 */
#ifndef RDMA_ANALYZE_PERFTEST_H
#define RDMA_ANALYZE_PERFTEST_H

#include <stddef.h>
#include <stdint.h>

enum pt_unit { PT_UNIT_NONE, PT_UNIT_MB, PT_UNIT_MIB, PT_UNIT_GB };

struct pt_result {
	char test[48];		/* "RDMA_Write BW", "Send Latency" */
	int bw;			/* 1 bandwidth, 0 latency */
	int bidir;		/* "Bidirectional" in the banner */
	char device[64];
	char transport[16];	/* IB */
	char connection[16];	/* RC UC UD ... */
	char link[16];		/* IB | Ethernet */
	int cuda;		/* --use_cuda / CUDA lines */
	enum pt_unit unit;
	int rows;
	/* bandwidth: the row with the highest average */
	uint64_t bytes;
	double bw_avg, bw_peak;	/* as printed, in unit */
	double avg_gbps, peak_gbps;
	/* latency: the first row */
	double t_typical, t_avg;
	int failed;		/* completion error, or no result row */
	int wc_status;		/* "Failed status-... (N)" or -1 */
	unsigned vendor_err;	/* its "syndrom 0x.." */
	char error[128];	/* the first error line, "" none */
};

/* parse text; fills up to max results; returns how many */
int perftest_parse(const char *text, size_t len, struct pt_result *out,
		   int max);
/* Gb/s of a value printed in unit */
double perftest_gbps(double v, enum pt_unit unit);
/* does the text look like perftest output (a banner, a result table, or
 * one of perftest's own error messages)? */
int perftest_detect(const char *text, size_t len);
const char *perftest_unit_name(enum pt_unit u);

#endif
