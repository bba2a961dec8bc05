/* atest-nccl: NCCL log lines of every form since 2.3 (the format strings
 * of NVIDIA/nccl's src/transport/net_ib* and src/debug.cc, values of our
 * own), NCCL_IB_HCA matching, the ibv_wc_status table, and hostile lines */
#include <stdio.h>
#include <string.h>

#include "nccl.h"
#include "t.h"

struct cl {
	const char *what, *line;
	const char *peer, *hca, *req, *lgid, *rgid;
	int status, opcode;
	long long len, vendor;
};

static const struct cl completions[] = {
	{ "2.3/2.4: no peer, 'with error', commas",
	  "node-b7:2211:2290 [3] transport/net_ib.cc:789 NCCL WARN NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129",
	  "", "", "", "", "", 12, 1, 0, 129 },
	{ "2.10: 'from peer' appears",
	  "node-b7:2211:2290 [3] transport/net_ib.cc:1061 NCCL WARN NET/IB : Got completion from peer 10.31.4.18<40112> with error 5, opcode 0, len 4096, vendor err 249",
	  "10.31.4.18<40112>", "", "", "", "", 5, 0, 4096, 249 },
	{ "2.18: IPv6 link-local peer, (Send), vendor err 81 is 0x51",
	  "gpu-r3-11:9102:9190 [6] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer fe80::9e63:c003:e1:7a40%ib0<51007> with error 4, opcode 32511, len 32511, vendor err 81 (Send)",
	  "fe80::9e63:c003:e1:7a40%ib0<51007>", "", "Send", "", "", 4, 32511, 32511, 81 },
	{ "2.18: RoCE with ' remoteGid ' (space)",
	  "gpu-r3-11:9102:9190 [6] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 192.168.21.4<33012> with error 12, opcode 0, len 0, vendor err 129 (Recv) localGid ::ffff:192.168.21.3 remoteGid ::ffff:192.168.21.4",
	  "192.168.21.4<33012>", "", "Recv", "::ffff:192.168.21.3", "::ffff:192.168.21.4", 12, 0, 0, 129 },
	{ "2.20: status= and the 'remoteGids' quirk",
	  "gpu-r3-11:9102:9190 [2] transport/net_ib.cc:1402 NCCL WARN NET/IB : Got completion from peer 192.168.21.9<48830> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:192.168.21.3 remoteGids::ffff:192.168.21.9",
	  "192.168.21.9<48830>", "", "Recv", "::ffff:192.168.21.3", "::ffff:192.168.21.9", 12, 0, 0, 129 },
	{ "2.22: 'NET/IB:' without the space, hca at the end (IB: no GIDs)",
	  "dgx-x2:7011:7102 [0] transport/net_ib.cc:1580 NCCL WARN NET/IB: Got completion from peer 10.40.0.7<44001> with status=12 opcode=1 len=0 vendor err 129 (Send) hca mlx5_3",
	  "10.40.0.7<44001>", "mlx5_3", "Send", "", "", 12, 1, 0, 129 },
	{ "2.24: len=%u vendor err %u, RoCE GIDs and hca",
	  "dgx-x2:7011:7102 [4] transport/net_ib/p2p.cc:512 NCCL WARN NET/IB: Got completion from peer 172.20.3.5<51234> with status=5 opcode=0 len=4294967295 vendor err 244 (Recv) localGid fd00:20::3:4 remoteGidsfd00:20::3:5 hca mlx5_11",
	  "172.20.3.5<51234>", "mlx5_11", "Recv", "fd00:20::3:4", "fd00:20::3:5", 5, 0, 4294967295LL, 244 },
	{ "2.28: status=NAME(N) opcode=NAME(N) reqSize= vendor_err= req_type=",
	  "dgx-x2:7011:7102 [1] transport/net_ib/p2p.cc:600 NCCL WARN NET/IB: Got completion from peer 10.40.0.9<42000> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_RDMA_WRITE(1) reqSize=524288 vendor_err=129 req_type=Send hca mlx5_0",
	  "10.40.0.9<42000>", "mlx5_0", "Send", "", "", 12, 1, 524288, 129 },
	{ "2.30: (func) in the prefix, ' localGid ' after vendor_err, no req",
	  "dgx-x2:7011:7102 [1] transport/net_ib/p2p.cc:418 (ncclIbLogCompletionWithError) NCCL WARN NET/IB: Got completion from peer 192.168.30.2<40400> with status=IBV_WC_LOC_PROT_ERR(4) opcode=IBV_WC_RECV(128) vendor_err=82  localGid ::ffff:192.168.30.1 remoteGids::ffff:192.168.30.2 hca mlx5_2",
	  "192.168.30.2<40400>", "mlx5_2", "", "::ffff:192.168.30.1", "::ffff:192.168.30.2", 4, 128, -1, 82 },
	{ "IBext plugin file:line, blank-line WARN prefix, timestamp",
	  "[2026-10-02 11:20:33] kp-w-3:551:601 [7] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer 10.9.8.7<5555> with status=13 opcode=0 len=0 vendor err 136 (Recv) localGid fd00:aa::1 remoteGidsfd00:aa::2",
	  "10.9.8.7<5555>", "", "Recv", "fd00:aa::1", "fd00:aa::2", 13, 0, 0, 136 },
	{ "GIN path",
	  "h:1:2 [0] gin.cc:77 NCCL WARN NET/IB/GIN: Got completion from peer 10.1.1.2<700> with status=12 opcode=0 len=0 vendor err 129 (Send) hca mlx5_5",
	  "10.1.1.2<700>", "mlx5_5", "Send", "", "", 12, 0, 0, 129 },
	{ "CRLF line end",
	  "h:1:2 [0] net_ib.cc:1 NCCL WARN NET/IB: Got completion from peer 10.1.1.3<701> with status=12 opcode=0 len=0 vendor err 129 (Send) hca mlx5_6\r",
	  "10.1.1.3<701>", "mlx5_6", "Send", "", "", 12, 0, 0, 129 },
};

static void test_completions(void)
{
	size_t i;

	for (i = 0; i < sizeof(completions) / sizeof(completions[0]); i++) {
		const struct cl *c = &completions[i];
		struct nccl_ev ev;

		T_OK(nccl_parse_line(c->line, strlen(c->line), &ev) ==
		     NCCL_COMPLETION, "completion: %s: recognised", c->what);
		T_STREQ(ev.peer, c->peer, "completion: %s: peer", c->what);
		T_STREQ(ev.hca, c->hca, "completion: %s: hca", c->what);
		T_STREQ(ev.req, c->req, "completion: %s: request type", c->what);
		T_STREQ(ev.local_gid, c->lgid, "completion: %s: localGid", c->what);
		T_STREQ(ev.remote_gid, c->rgid, "completion: %s: remote GID", c->what);
		T_OK(ev.status == c->status, "completion: %s: status %d (got %d)",
		     c->what, c->status, ev.status);
		T_OK(ev.opcode == c->opcode, "completion: %s: opcode %d (got %d)",
		     c->what, c->opcode, ev.opcode);
		T_OK(ev.len == c->len, "completion: %s: len %lld (got %lld)",
		     c->what, c->len, (long long)ev.len);
		T_OK(ev.vendor_err == c->vendor, "completion: %s: vendor err %lld "
		     "(got %lld)", c->what, c->vendor, (long long)ev.vendor_err);
	}
}

static void test_discovery(void)
{
	struct nccl_ev ev;
	const char *l;

	l = "gpu-a1:4410:4480 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_10:1/RoCE ; OOB ib0:192.168.50.1<0>";
	T_OK(nccl_parse_line(l, strlen(l), &ev) == NCCL_IB_USING && ev.ndevs == 3,
	     "using: 3 devices, RO off (space before ';')");
	T_STREQ(ev.devs[2].name, "mlx5_10", "using: third device name");
	T_OK(ev.devs[2].port == 1, "using: port");
	T_STREQ(ev.devs[2].ll, "RoCE", "using: link layer RoCE");
	T_STREQ(ev.host, "gpu-a1", "using: host from the prefix");
	l = "dgx-q4:460:842 [0] NCCL INFO NET/IB : Using [0]mlx5_4:1/RoCE [1]mlx5_5:1/RoCE [RO]; OOB enp12s0np0:10.7.1.2<0>";
	T_OK(nccl_parse_line(l, strlen(l), &ev) == NCCL_IB_USING && ev.ndevs == 2,
	     "using: [RO] ends the list");
	l = "h:1:2 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1:0/IB [1]mlx5_1:1::1/IB ; OOB eth0:10.0.0.1<0>";
	T_OK(nccl_parse_line(l, strlen(l), &ev) == NCCL_IB_USING && ev.ndevs == 2 &&
	     !strcmp(ev.devs[1].name, "mlx5_1") && !strcmp(ev.devs[1].ll, "IB"),
	     "using: rail and plane suffixes");
	l = "ip-10-0-3-3:7:7 [0] NCCL INFO NET/IB : No device found.";
	T_OK(nccl_parse_line(l, strlen(l), &ev) == NCCL_IB_NODEV, "no device found");
	l = "ip-10-0-3-3:7:7 [0] NCCL INFO NET/Socket : Using [0]ens5:10.0.3.3<0>";
	T_OK(nccl_parse_line(l, strlen(l), &ev) == NCCL_SOCKET_USING, "socket fallback");
	l = "ip-10-0-3-3:7:7 [0] NCCL INFO Using network Socket";
	T_OK(nccl_parse_line(l, strlen(l), &ev) == NCCL_NET_USING &&
	     !strcmp(ev.net, "Socket"), "using network Socket");
	l = "ip-10-0-3-3:7:7 [0] NCCL INFO Using network IBext";
	T_OK(nccl_parse_line(l, strlen(l), &ev) == NCCL_NET_USING &&
	     !strcmp(ev.net, "IBext"), "using network IBext (plugin)");
	l = "h:1:2 [0] NCCL INFO DMA-BUF is available on GPU device 0";
	T_OK(nccl_parse_line(l, strlen(l), &ev) == NCCL_DMABUF, "DMA-BUF available");
}

static void test_gdr(void)
{
	struct { const char *line; int en, dmabuf; const char *hca; int idx; } g[] = {
		{ "h:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 2 'mlx5_2'", 1, 0, "mlx5_2", 2 },
		{ "h:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'", 0, 0, "mlx5_0", 0 },
		{ "h:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 1 'mlx5_1' (no module)", 0, 0, "mlx5_1", 1 },
		{ "h:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for GPU 1b000 / HCA 3 (distance 5 >= 4)", 0, 0, "", 3 },
		{ "h:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Enabled for GPU 1b000 / HCA 3 (distance 2 < 4), read 1", 1, 0, "", 3 },
		{ "h:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA (nvidia-peermem) enabled for HCA 4 'mlx5_4", 1, 0, "mlx5_4", 4 },
		{ "h:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA (DMABUF) enabled for HCA 5 'mlx5_5", 1, 1, "mlx5_5", 5 },
		{ "h:1:2 [0] NCCL INFO NET/IBext : GPU Direct RDMA Disabled for HCA 6 'mlx5_6'", 0, 0, "mlx5_6", 6 },
	};
	size_t i;

	for (i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		struct nccl_ev ev;

		T_OK(nccl_parse_line(g[i].line, strlen(g[i].line), &ev) == NCCL_GDR &&
		     ev.gdr_enabled == g[i].en && ev.gdr_dmabuf == g[i].dmabuf &&
		     ev.hca_index == g[i].idx, "gdr %zu: enabled %d dmabuf %d index %d",
		     i, g[i].en, g[i].dmabuf, g[i].idx);
		T_STREQ(ev.hca, g[i].hca, "gdr %zu: HCA name", i);
	}
}

static void test_hostile(void)
{
	const char *bad[] = {
		"", "NCCL WARN", "NCCL WARN NET/IB", "NCCL WARN NET/IB : Got completion",
		"x NCCL WARN NET/IB : Got completion from peer",
		"x NCCL WARN NET/IB : Got completion from peer with status=",
		"x NCCL WARN NET/IB : Got completion with status=99999999999999999999999 vendor err -5",
		"x NCCL INFO NET/IB : Using [", "x NCCL INFO NET/IB : Using [0]",
		"x NCCL INFO NET/IB : Using [0]mlx5_0", "x NCCL INFO NET/IB : Using [0]mlx5_0:99999/IB",
		"x NCCL INFO NET/IB : GPU Direct RDMA (", "x NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA '",
		"x NCCL INFO Using network ", "[unterminated NCCL INFO x",
		"NET/IB : Got completion from peer 1.2.3.4<5> with status=12 opcode=0 len=0 vendor err 129 hca ",
		"random text with NCCL in it",
	};
	char big[9000];
	size_t i;
	struct nccl_ev ev;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		nccl_parse_line(bad[i], strlen(bad[i]), &ev);
		T_OK(ev.peer[sizeof(ev.peer) - 1] == 0 && ev.hca[sizeof(ev.hca) - 1] == 0,
		     "hostile %zu: parsed without harm", i);
	}
	nccl_parse_line(bad[6], strlen(bad[6]), &ev);
	T_OK(ev.status == -1 && ev.vendor_err == -1, "hostile: out-of-range numbers are unknown");
	memset(big, 'A', sizeof(big));
	memcpy(big, "h:1:2 [0] NCCL WARN NET/IB: Got completion from peer ",
	       strlen("h:1:2 [0] NCCL WARN NET/IB: Got completion from peer "));
	T_OK(nccl_parse_line(big, sizeof(big), &ev) == NCCL_COMPLETION &&
	     strlen(ev.peer) == sizeof(ev.peer) - 1, "hostile: a 9000-byte peer is cut");
	big[100] = 0;	/* embedded NUL: only len counts */
	nccl_parse_line(big, sizeof(big), &ev);
	T_OK(1, "hostile: embedded NUL");
	T_OK(nccl_parse_line("NCCL WARN NET/IB: Got completion", 10, &ev) == NCCL_NONE,
	     "hostile: len shorter than the string is respected");
}

static void test_wc(void)
{
	T_STREQ(ibv_wc_status_name(0), "IBV_WC_SUCCESS", "wc 0");
	T_STREQ(ibv_wc_status_name(4), "IBV_WC_LOC_PROT_ERR", "wc 4");
	T_STREQ(ibv_wc_status_name(5), "IBV_WC_WR_FLUSH_ERR", "wc 5");
	T_STREQ(ibv_wc_status_name(12), "IBV_WC_RETRY_EXC_ERR", "wc 12");
	T_STREQ(ibv_wc_status_name(13), "IBV_WC_RNR_RETRY_EXC_ERR", "wc 13");
	T_STREQ(ibv_wc_status_name(21), "IBV_WC_GENERAL_ERR", "wc 21");
	T_STREQ(ibv_wc_status_name(23), "IBV_WC_TM_RNDV_INCOMPLETE", "wc 23");
	T_OK(ibv_wc_status_name(24) == NULL && ibv_wc_status_name(-1) == NULL,
	     "wc out of range: NULL");
	T_STREQ(ibv_wc_status_text(12), "transport retry counter exceeded", "wc 12 text");
	T_STREQ(ibv_wc_status_text(5), "Work Request Flushed Error", "wc 5 text");
	T_STREQ(ibv_wc_status_text(99), "unknown", "wc 99 text");
}

static void test_hca(void)
{
	struct { const char *spec, *dev; int port, want; } m[] = {
		{ "mlx5_1", "mlx5_1", 1, 1 },
		{ "mlx5_1", "mlx5_10", 1, 1 },		/* prefix */
		{ "=mlx5_1", "mlx5_10", 1, 0 },		/* exact */
		{ "=mlx5_1", "mlx5_1", 1, 1 },
		{ "mlx5_1:2", "mlx5_1", 1, 0 },		/* port */
		{ "mlx5_1:2", "mlx5_1", 2, 1 },
		{ "mlx5_1:", "mlx5_1", 2, 1 },		/* empty port: any */
		{ "^mlx5_1", "mlx5_12", 1, 0 },		/* excluded by prefix */
		{ "^mlx5_1", "mlx5_2", 1, 1 },
		{ "^=mlx5_1", "mlx5_12", 1, 1 },
		{ "^=mlx5_1", "mlx5_1", 1, 0 },
		{ "mlx5", "mlx5_7", 1, 1 },
		{ "mlx5_0,mlx5_3:1", "mlx5_3", 1, 1 },
		{ "mlx5_0,mlx5_3:1", "mlx5_2", 1, 0 },
		{ "", "mlx5_2", 1, 1 },			/* no list: all */
		{ "^", "mlx5_2", 1, 0 },		/* as NCCL: empty exclusion selects none */
		{ ",,,", "mlx5_2", 1, 1 },
		{ "=mlx5_0:1,mlx5_1:1", "mlx5_1", 1, 1 },
		{ "=mlx5_0:1,mlx5_1:1", "mlx5_11", 1, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		struct nccl_hca h;

		nccl_hca_parse(m[i].spec, &h);
		T_OK(nccl_hca_selects(&h, m[i].dev, m[i].port, NULL) == m[i].want,
		     "NCCL_IB_HCA='%s' %s %s:%d", m[i].spec,
		     m[i].want ? "selects" : "does not select", m[i].dev, m[i].port);
	}
}

/* issue 17: messages found inside launcher prefixes, the async events,
 * failing verbs calls and the communicator's GPU, from 2.4 to 2.2x */
static void test_events(void)
{
	static const struct {
		const char *what, *line;
		enum nccl_kind kind;
		const char *host, *hca, *detail;
		int port, fatal;
	} c[] = {
		{ "2.4 async event behind mpirun's timestamp and rank",
		  "2019-06-02T16:13:44.884Z: [1,12]<stdout>:container-e275-01-000057:815:864 [0] transport/net_ib.cu:80 NCCL WARN NET/IB : Got async event : local catastrophic error",
		  NCCL_ASYNC, "container-e275-01-000057", "", "local catastrophic error", -1, 1 },
		{ "2.12+: device:port before 'Got async event'",
		  "[155] node-a:11:12 [3] NCCL WARN NET/IB : mlx5_3:1 Got async event : port error",
		  NCCL_ASYNC, "node-a", "mlx5_3", "port error", 1, 0 },
		{ "2.2x: 'async fatal event:'",
		  "node-a:11:12 [3] common.cc:123 NCCL WARN NET/IB : mlx5_10:1 async fatal event: local catastrophic error",
		  NCCL_ASYNC, "node-a", "mlx5_10", "local catastrophic error", 1, 1 },
		{ "2.2x: non-fatal with its number",
		  "node-a:11:12 [3] NCCL WARN NET/IB : mlx5_0:1 Got non-fatal async event: port active(9)",
		  NCCL_ASYNC, "node-a", "mlx5_0", "port active", 1, 0 },
		{ "2.2x: a QP's fatal event is not the device's",
		  "node-a:11:12 [3] NCCL WARN NET/IB : mlx5_0:1 async fatal event on QP (0x5555) qpn=77 handle=1 send_cq=2 recv_cq=3 state=6 sq_psn=0 rq_psn=0: local work queue catastrophic error",
		  NCCL_ASYNC, "node-a", "mlx5_0", "local work queue catastrophic error", 1, 0 },
		{ "Call to ibv_create_qp failed (2.8 bazel build)",
		  "hai-a100-3:3778851:3779883 [4] ibvwrap.c:130 NCCL WARN Call to ibv_create_qp failed",
		  NCCL_VERBS_FAIL, "hai-a100-3", "", "ibv_create_qp", -1, 0 },
		{ "Call to ibv_reg_mr failed with error",
		  "h:1:2 [0] misc/ibvwrap.cc:42 NCCL WARN Call to ibv_reg_mr failed with error Bad address",
		  NCCL_VERBS_FAIL, "h", "", "ibv_reg_mr", -1, 0 },
		{ "ibv_modify_qp failed with errno and text",
		  "h:1:2 [0] misc/ibvwrap.cc:376 NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx5_0:1",
		  NCCL_VERBS_FAIL, "h", "", "ibv_modify_qp", -1, 0 },
		{ "2.19 Init START: cudaDev and busId",
		  "hostname1:25668:27396 [0] NCCL INFO comm 0x55cc8aa86c70 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 1c000 commId 0x65e0bd6ee7449db4 - Init START",
		  NCCL_GPU, "hostname1", "", "1c000", 0, 0 },
		{ "2.4 Init COMPLETE without nvmlDev",
		  "n1:7:7 [2] NCCL INFO comm 0x7f2c rank 2 nranks 8 cudaDev 2 busId 3f000 - Init COMPLETE",
		  NCCL_GPU, "n1", "", "3f000", 2, 0 },
		{ "2.3 without busId",
		  "n1:7:7 [2] NCCL INFO comm 0x7f2c rank 2 nranks 8 cudaDev 2 nvmlDev 2 - Init COMPLETE",
		  NCCL_GPU, "n1", "", "cudaDev 2", 2, 0 },
		{ "MNNVL's peer lines are not this node's GPU",
		  "n1:7:7 [2] NCCL INFO MNNVL diag init peer rank 3 cudaDev 1 nvmlDev 1 busId 0x1b000 hostHash 0x1 nranks 4",
		  NCCL_NONE, "", "", "", -1, 0 },
		{ "bare 'cudaDev' without an NCCL prefix is not NCCL's",
		  "comm 0x7f2c rank 2 nranks 8 cudaDev 2 busId 3f000 - Init COMPLETE",
		  NCCL_NONE, "", "", "", -1, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct nccl_ev ev;

		T_OK(nccl_parse_line(c[i].line, strlen(c[i].line), &ev) ==
		     c[i].kind, "event: %s: kind %d (got %d)", c[i].what,
		     c[i].kind, ev.kind);
		if (c[i].kind == NCCL_NONE)
			continue;
		T_STREQ(ev.host, c[i].host, "event: %s: host", c[i].what);
		T_STREQ(ev.hca, c[i].hca, "event: %s: hca", c[i].what);
		T_STREQ(ev.detail, c[i].detail, "event: %s: detail", c[i].what);
		T_OK(ev.port == c[i].port, "event: %s: port %d (got %d)",
		     c[i].what, c[i].port, ev.port);
		T_OK(ev.fatal == c[i].fatal, "event: %s: fatal %d", c[i].what,
		     c[i].fatal);
	}
}

/* a WARN line wrapped by a mail client is one message again; lines with
 * a message of their own stay apart */
static void test_wrapped(void)
{
	static const char log[] =
		"node-2:5776:5902 [0] transport/net_ib.cc:1296 NCCL WARN NET/IB : Got completion from peer 10.2.0.5<33092> with error 12, opcode 0, len\n"
		"0, vendor err 129 (Recv)\n"
		"node-2:5776:5902 [0] NCCL INFO transport/net.cc:1134 -> 6\n"
		"node-2:5776:5898 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB\r\n"
		"[1]mlx5_1:1/IB ; OOB eth0:10.2.0.4<0>\n"
		"node-2:5776:5902 [0] transport/net_ib.cc:1296 NCCL WARN NET/IB : Got completion from peer 10.2.0.5<33092> with error 12, opcode 0, len\n"
		"\n"
		"Traceback (most recent call last):\n";
	char line[512];
	size_t off = 0;
	int took = 0, n = 0;
	struct nccl_ev ev;

	while (nccl_next_line(log, sizeof(log) - 1, &off, line, sizeof(line),
			      &took)) {
		n++;
		if (n == 1) {
			T_OK(took == 2, "wrapped: completion takes 2 lines (%d)",
			     took);
			T_OK(nccl_parse_line(line, strlen(line), &ev) ==
			     NCCL_COMPLETION && ev.vendor_err == 129 &&
			     !strcmp(ev.req, "Recv"),
			     "wrapped: vendor err 129 (Recv) found again");
		} else if (n == 2) {
			T_OK(took == 1, "wrapped: an INFO line stays alone");
		} else if (n == 3) {
			T_OK(took == 2 && nccl_parse_line(line, strlen(line),
							  &ev) == NCCL_IB_USING &&
			     ev.ndevs == 2, "wrapped: the device list joined "
			     "(%d devices)", ev.ndevs);
		} else if (n == 4) {
			T_OK(took == 1, "wrapped: a blank line ends the message");
		}
	}
	T_OK(n == 6, "wrapped: 6 logical lines (%d)", n);
}

int main(void)
{
	test_completions();
	test_discovery();
	test_gdr();
	test_hostile();
	test_wc();
	test_hca();
	test_events();
	test_wrapped();
	return t_done();
}
