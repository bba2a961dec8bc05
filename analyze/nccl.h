/* nccl: NCCL log lines of every version since 2.3 (NVIDIA/nccl src/debug.cc
 * for the prefix; src/transport/net_ib.cc, later net_ib/{init,connect,p2p}.cc
 * for the IB lines; tests/real/nccl-* for real logs), one line
 * at a time, and NCCL_IB_HCA as NCCL applies it.
 *
 * nccl_parse_line() recognises the lines an RDMA diagnosis reads: the IB
 * device list ("NET/IB : Using [0]mlx5_0:1/IB ; OOB ..."), "NET/IB : No
 * device found.", "Using network IB|Socket", the socket fallback, the GPU
 * Direct RDMA lines (all their forms, plugin ones included) and the
 * completion error ("Got completion ...") in all its historical forms,
 * the HCA's asynchronous events ("Got async event : local catastrophic
 * error", "mlx5_0:1 async fatal event: ..."), failing verbs calls ("Call
 * to ibv_create_qp failed", "Call to ibv_modify_qp failed with 110 ...")
 * and the communicator's GPU ("cudaDev 0 nvmlDev 0 busId 1c000").  The
 * message is found inside the line: mpirun's "2019-06-02T16:13:44.884Z:
 * [1,12]<stdout>:", a rank's "[155] " or a timestamp may come before
 * NCCL's "host:pid:tid [dev]".
 * Input is hostile: any length, any bytes; fields are bounded copies.
 */
#ifndef RDMA_ANALYZE_NCCL_H
#define RDMA_ANALYZE_NCCL_H

#include <stddef.h>
#include <stdint.h>

enum nccl_kind {
	NCCL_NONE,
	NCCL_IB_USING,		/* NET/IB : Using [0]mlx5_0:1/IB ... */
	NCCL_IB_NODEV,		/* NET/IB : No device found. */
	NCCL_NET_USING,		/* Using network IB | Socket | IBext ... */
	NCCL_SOCKET_USING,	/* NET/Socket : Using [0]ens3:... */
	NCCL_GDR,		/* GPU Direct RDMA Enabled|Disabled ... */
	NCCL_DMABUF,		/* DMA-BUF is available on GPU device N */
	NCCL_COMPLETION,	/* Got completion ... with error / status= */
	NCCL_ASYNC,		/* Got async event : local catastrophic error */
	NCCL_VERBS_FAIL,	/* Call to ibv_create_qp failed */
	NCCL_GPU,		/* comm ... rank 0 nranks 2 cudaDev 0 ... busId */
};

#define NCCL_MAX_DEVS 32

struct nccl_dev {
	char name[64];
	int port;
	char ll[16];		/* IB | RoCE | UNSPECIFIED */
};

struct nccl_ev {
	enum nccl_kind kind;
	int warn;		/* NCCL WARN (else INFO or bare) */
	char host[64];		/* the log prefix's hostname, "" if none */
	int dev;		/* the prefix's "[dev]": NCCL prints the
				 * thread's cudaDev there; -1 none.  Set for
				 * every line with the prefix, NCCL_NONE too */
	/* NCCL_IB_USING */
	struct nccl_dev devs[NCCL_MAX_DEVS];
	int ndevs;
	/* NCCL_NET_USING: network name; NCCL_GDR: the NET/<name> */
	char net[32];
	/* NCCL_GDR */
	int gdr_enabled;
	int gdr_dmabuf;		/* "(DMABUF) enabled" */
	char hca[64];		/* also NCCL_COMPLETION's local HCA ("" unknown) */
	int hca_index;		/* -1 unknown */
	/* NCCL_COMPLETION */
	char peer[96];		/* "10.0.0.2<41234>", "" when not printed */
	int status;		/* ibv_wc_status, -1 unknown */
	int opcode;		/* -1 unknown */
	int64_t len;		/* -1 unknown */
	int64_t vendor_err;	/* decimal as printed, -1 unknown */
	char req[16];		/* Send | Recv | Flush | "" */
	char local_gid[64];
	char remote_gid[64];
	/* NCCL_ASYNC: the event ("local catastrophic error"); NCCL_VERBS_FAIL:
	 * the call ("ibv_create_qp"); NCCL_GPU: the busId ("1c000", else
	 * "cudaDev N") */
	char detail[64];
	int fatal;		/* NCCL_ASYNC: IBV_EVENT_DEVICE_FATAL */
	int port;		/* NCCL_ASYNC "mlx5_0:1": 1 (hca "mlx5_0");
				 * NCCL_GPU: cudaDev; -1 unknown */
};

/* parse one line (without its newline); returns ev->kind */
enum nccl_kind nccl_parse_line(const char *line, size_t len,
			       struct nccl_ev *ev);

/* the next logical line of an NCCL log at *off into out (NUL-terminated,
 * cut at n - 1 bytes): a message whose known tail is missing (a
 * completion without its vendor error, the IB device list without its
 * "OOB") was wrapped by a mail client or a terminal, and takes the lines
 * after it that carry no NCCL message of their own (at most 3).  *lines
 * gets the number of physical lines taken; returns 0 at the end. */
int nccl_next_line(const char *data, size_t len, size_t *off, char *out,
		   size_t n, int *lines);

/* rdma-core's enum ibv_wc_status: "IBV_WC_RETRY_EXC_ERR" and
 * ibv_wc_status_str(): "transport retry counter exceeded"; NULL/"unknown"
 * outside the enum */
const char *ibv_wc_status_name(int status);
const char *ibv_wc_status_text(int status);

/* NCCL_IB_HCA: "[^][=]prefix[:port[:rail[:plane]]],..." */
#define NCCL_HCA_MAX 32
struct nccl_hca {
	int exclude;		/* leading '^' */
	int exact;		/* '=' (after '^') */
	int n;
	struct {
		char prefix[64];
		int port;	/* -1: any */
	} e[NCCL_HCA_MAX];
};

void nccl_hca_parse(const char *spec, struct nccl_hca *h);
/* does NCCL select device:port under this setting?  *entry gets the index
 * of the matching entry (-1 none) */
int nccl_hca_selects(const struct nccl_hca *h, const char *dev, int port,
		     int *entry);

#endif
