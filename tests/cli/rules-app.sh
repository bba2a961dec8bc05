# Layer 6 (app) and the perftest checks of layer 5: each rule fires on a
# fixture with the fault injected (right component and severity), and not
# on the healthy fixtures.  NCCL logs and perftest outputs are written in
# the formats NCCL (src/debug.cc, src/transport/net_ib*) and perftest
# (src/perftest_parameters.h) print, with values of our own.

# findings RULE < report.json: "severity component" lines
findings() {
	python3 -c '
import json, sys
d = json.load(sys.stdin)
for n in d["nodes"]:
    for f in n["findings"]:
        if f["rule"] == sys.argv[1]:
            print(f["severity"], f["component"])
' "$1"
}
# summary RULE < report.json: the summaries and evidence values
summary() {
	python3 -c '
import json, sys
d = json.load(sys.stdin)
for n in d["nodes"]:
    for f in n["findings"]:
        if f["rule"] == sys.argv[1]:
            print(f["summary"])
            for e in f["evidence"]:
                print(e["path"], e["value"])
' "$1"
}
# collect TREE NAME [rdma-collect options]: bundle then report
report() {
	local tree=$1 name=$2
	shift 2
	"$RC" -q --root "$tree" -o "$T/$name.rdma.tar.zst" "$@" >/dev/null 2>&1
	"$RA" report --format json "$T/$name.rdma.tar.zst" >"$T/$name.json" 2>/dev/null
}
fresh() {	# fresh KIND DIR
	rm -rf "$2"
	mknode "$1" "$2" >/dev/null 2>&1 || fail "$1 fixture builds"
}

APP="NCCL_NO_IB NCCL_IB_HCA_MISMATCH NCCL_GDR_DISABLED NCCL_COMPLETION_ERROR PEERMEM_MISSING MEMLOCK_LIMITED HUGEPAGES_NONE CONTAINER_NO_RDMA BW_BELOW_LINE_RATE GDR_BW_LOW NCCL_IB_ERROR PERFTEST_FAILED"

# --- healthy fixtures: nothing at warning or above from these rules
for k in gpu-ndr8 roce-pfc rxe; do
	fresh "$k" "$T/$k"
	report "$T/$k" "healthy-$k"
	bad=""
	for r in $APP; do
		bad="$bad$(findings "$r" <"$T/healthy-$k.json" | grep -v '^info ' | sed "s/^/$r /")"
	done
	check_eq "healthy $k: no app/perftest finding at warning or above" "$bad" ""
done
check_eq "HUGEPAGES_NONE: info on roce-pfc (no huge pages)" \
	"$(findings HUGEPAGES_NONE <"$T/healthy-roce-pfc.json")" "info hugepages"
check_eq "HUGEPAGES_NONE: not on gpu-ndr8 (16384 pages)" \
	"$(findings HUGEPAGES_NONE <"$T/healthy-gpu-ndr8.json")" ""
check_eq "MEMLOCK_LIMITED: rxe collector ran as root with 8 MiB: info only" \
	"$(findings MEMLOCK_LIMITED <"$T/healthy-rxe.json")" "info memlock"
check_eq "PEERMEM_MISSING: not on gpu-ndr8 (nvidia_peermem loaded)" \
	"$(findings PEERMEM_MISSING <"$T/healthy-gpu-ndr8.json")" ""

G="$T/gpu-ndr8"
P='gpu-k9:51234:51301 [0]'

# --- NCCL_NO_IB: "No device found." while 8 ports are ACTIVE
printf '%s NCCL INFO Bootstrap : Using eno1:10.20.0.7<0>\n%s NCCL INFO NET/IB : No device found.\n%s NCCL INFO NET/Socket : Using [0]eno1:10.20.0.7<0>\n%s NCCL INFO Using network Socket\n' \
	"$P" "$P" "$P" "$P" >"$T/nodev.log"
report "$G" noib -a "$T/nodev.log"
check_eq "NCCL_NO_IB: fires critical on 'No device found.'" \
	"$(findings NCCL_NO_IB <"$T/noib.json")" "critical nccl"
s=$(summary NCCL_NO_IB <"$T/noib.json")
case "$s" in
*"line 2: "*"No device found."*"ACTIVE: mlx5_0:1 mlx5_1:1"*)
	ok "NCCL_NO_IB: evidence names the log line and the ACTIVE ports";;
*)	fail "NCCL_NO_IB: evidence names the log line and the ACTIVE ports"
	echo "$s" | sed 's/^/#   /';;
esac
printf '%s NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ibp20s0:192.168.101.107<0>\n%s NCCL INFO Using network IB\n' \
	"$P" "$P" >"$T/ib.log"
report "$G" ib -a "$T/ib.log"
check_eq "NCCL_NO_IB: not when NCCL uses IB" "$(findings NCCL_NO_IB <"$T/ib.json")" ""

# --- NCCL_IB_HCA_MISMATCH: no device / excludes ACTIVE ones (prefix rules)
fresh gpu-ndr8 "$G"
sed -i 's/^NCCL_IB_HCA=.*/NCCL_IB_HCA=mlx5_9/' "$G/rdma-collect/environ/self.env"
report "$G" hca-none
check_eq "NCCL_IB_HCA_MISMATCH: 'mlx5_9' selects nothing: critical" \
	"$(findings NCCL_IB_HCA_MISMATCH <"$T/hca-none.json")" "critical NCCL_IB_HCA"
check "NCCL_IB_HCA_MISMATCH: evidence from environ/self.env" sh -c \
	"python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print([e for n in d[\"nodes\"] for f in n[\"findings\"] if f[\"rule\"]==\"NCCL_IB_HCA_MISMATCH\" for e in f[\"evidence\"]])' '$T/hca-none.json' | grep -q 'rdma-collect/environ/self.env'"
sed -i 's/^NCCL_IB_HCA=.*/NCCL_IB_HCA=^mlx5_1/' "$G/rdma-collect/environ/self.env"
report "$G" hca-excl
check_eq "NCCL_IB_HCA_MISMATCH: '^mlx5_1' excludes ACTIVE mlx5_1:1" \
	"$(findings NCCL_IB_HCA_MISMATCH <"$T/hca-excl.json")" "critical NCCL_IB_HCA"
check "NCCL_IB_HCA_MISMATCH: names the excluded port" sh -c \
	"python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print([f[\"summary\"] for n in d[\"nodes\"] for f in n[\"findings\"] if f[\"rule\"]==\"NCCL_IB_HCA_MISMATCH\"])' '$T/hca-excl.json' | grep -q 'excludes ACTIVE port mlx5_1:1'"
sed -i 's/^NCCL_IB_HCA=.*/NCCL_IB_HCA=mlx5/' "$G/rdma-collect/environ/self.env"
report "$G" hca-all
check_eq "NCCL_IB_HCA_MISMATCH: 'mlx5' (prefix of all) is fine" \
	"$(findings NCCL_IB_HCA_MISMATCH <"$T/hca-all.json")" ""
sed -i 's/^NCCL_IB_HCA=.*/NCCL_IB_HCA==mlx5_0:2,mlx5_1:2/' "$G/etc/nccl.conf"
report "$G" hca-port
check_eq "NCCL_IB_HCA_MISMATCH: nccl.conf '=mlx5_0:2,...' (no port 2) selects nothing" \
	"$(findings NCCL_IB_HCA_MISMATCH <"$T/hca-port.json")" "critical NCCL_IB_HCA"

# --- NCCL_GDR_DISABLED (node with 8 GPUs)
fresh gpu-ndr8 "$G"
printf "%s NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (no module)\n%s NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 1 'mlx5_1'\n" \
	"$P" "$P" >"$T/gdr.log"
report "$G" gdr -a "$T/gdr.log"
check_eq "NCCL_GDR_DISABLED: warning on mlx5_0 only" \
	"$(findings NCCL_GDR_DISABLED <"$T/gdr.json")" "warning mlx5_0"
report "$T/roce-pfc" gdr-nogpu -a "$T/gdr.log"
check_eq "NCCL_GDR_DISABLED: not on a node without GPUs" \
	"$(findings NCCL_GDR_DISABLED <"$T/gdr-nogpu.json")" ""

# --- NCCL_COMPLETION_ERROR: two forms, decoded
{
	printf '%s transport/net_ib.cc:1580 NCCL WARN NET/IB: Got completion from peer 192.168.103.21<40120> with status=12 opcode=1 len=0 vendor err 129 (Send) hca mlx5_3\n' "$P"
	printf '%s transport/net_ib.cc:1580 NCCL WARN NET/IB: Got completion from peer 192.168.103.21<40120> with status=12 opcode=1 len=0 vendor err 129 (Send) hca mlx5_3\n' "$P"
	printf '%s NCCL INFO transport/net.cc:1298 -> 6\n' "$P"
	printf '\n%s transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 192.168.104.9<51200> with error 4, opcode 0, len 0, vendor err 81 (Recv)\n' "$P"
} >"$T/cqe.log"
report "$G" cqe -a "$T/cqe.log"
check_eq "NCCL_COMPLETION_ERROR: two distinct errors, critical, local HCA or nccl" \
	"$(findings NCCL_COMPLETION_ERROR <"$T/cqe.json" | sort)" "critical mlx5_3
critical nccl"
{
	s=$(summary NCCL_COMPLETION_ERROR <"$T/cqe.json")
	case "$s" in
	*"status 12 IBV_WC_RETRY_EXC_ERR (transport retry counter exceeded), vendor err 129 (0x81)"*"192.168.103.21<40120>"*)
		ok "NCCL_COMPLETION_ERROR: RETRY_EXC decoded with 129 (0x81) and the peer";;
	*) fail "NCCL_COMPLETION_ERROR: RETRY_EXC decoded"; echo "$s" | sed 's/^/#   /';;
	esac
	case "$s" in
	*"status 4 IBV_WC_LOC_PROT_ERR (local protection error), vendor err 81 (0x51)"*)
		ok "NCCL_COMPLETION_ERROR: the 2.18 form: vendor err 81 is 0x51";;
	*) fail "NCCL_COMPLETION_ERROR: the 2.18 form decoded";;
	esac
	case "$s" in
	*"and 1 more like it"*) ok "NCCL_COMPLETION_ERROR: repeats counted";;
	*) fail "NCCL_COMPLETION_ERROR: repeats counted";;
	esac
}

# --- PEERMEM_MISSING: GPUs + HCAs, no nvidia_peermem in proc/modules
fresh gpu-ndr8 "$G"
sed -i '/^nvidia_peermem /d' "$G/proc/modules"
report "$G" peermem
check_eq "PEERMEM_MISSING: critical on nvidia_peermem" \
	"$(findings PEERMEM_MISSING <"$T/peermem.json")" "critical nvidia_peermem"
printf "%s NCCL INFO DMA-BUF is available on GPU device 0\n%s NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'\n" \
	"$P" "$P" >"$T/dmabuf.log"
report "$G" peermem-dmabuf -a "$T/dmabuf.log"
check_eq "PEERMEM_MISSING: not when NCCL shows GPUDirect RDMA through DMA-BUF" \
	"$(findings PEERMEM_MISSING <"$T/peermem-dmabuf.json")" ""
report "$T/roce-pfc" peermem-nogpu
check_eq "PEERMEM_MISSING: not on a node without GPUs" \
	"$(findings PEERMEM_MISSING <"$T/peermem-nogpu.json")" ""

# --- MEMLOCK_LIMITED: limits.d, a non-root collector, a --pid process
fresh gpu-ndr8 "$G"
printf '# site limits\n*       soft    memlock     65536\n*       hard    memlock     unlimited\n' \
	>"$G/etc/security/limits.d/99-rdma.conf"
report "$G" mlk-conf
check_eq "MEMLOCK_LIMITED: limits.d soft 65536 KiB: critical memlock" \
	"$(findings MEMLOCK_LIMITED <"$T/mlk-conf.json")" "critical memlock"
check "MEMLOCK_LIMITED: names the file and the value" sh -c \
	"python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print([f[\"summary\"] for n in d[\"nodes\"] for f in n[\"findings\"] if f[\"rule\"]==\"MEMLOCK_LIMITED\"])' '$T/mlk-conf.json' | grep -q 'etc/security/limits.d/99-rdma.conf sets memlock soft 65536 KiB'"
printf '*       soft    memlock     unlimited\n' >"$G/etc/security/limits.d/zz-override.conf"
report "$G" mlk-override
check_eq "MEMLOCK_LIMITED: a later limits.d file overriding it to unlimited wins" \
	"$(findings MEMLOCK_LIMITED <"$T/mlk-override.json")" ""
fresh gpu-ndr8 "$G"
printf '{ "pid": 777, "euid": 1000, "memlock": { "soft": 8388608, "hard": 8388608 }, "nofile": { "soft": 1024, "hard": 1024 } }\n' \
	>"$G/rdma-collect/limits/self.json"
report "$G" mlk-user
check_eq "MEMLOCK_LIMITED: a non-root collector with 8 MiB: critical" \
	"$(findings MEMLOCK_LIMITED <"$T/mlk-user.json")" "critical memlock"
fresh gpu-ndr8 "$G"
mkdir -p "$G/proc/4242"
f='%-25s %-20s %-20s %-10s\n'
{ printf "$f" Limit "Soft Limit" "Hard Limit" Units
  printf "$f" "Max open files" 1048576 1048576 files
  printf "$f" "Max locked memory" 65536 65536 bytes; } >"$G/proc/4242/limits"
printf 'python3\n' >"$G/proc/4242/comm"
printf 'Name:\tpython3\nCapEff:\t0000000000000000\n' >"$G/proc/4242/status"
report "$G" mlk-pid --pid 4242
check_eq "MEMLOCK_LIMITED: --pid process with 65536 bytes: critical" \
	"$(findings MEMLOCK_LIMITED <"$T/mlk-pid.json")" "critical memlock"

# --- CONTAINER_NO_RDMA: docker marker, /dev/infiniband absent
fresh gpu-ndr8 "$G"
: >"$G/.dockerenv"
printf '{ "path": "/dev/infiniband", "status": "absent", "entries": [] }\n' >"$G/rdma-collect/devnodes.json"
report "$G" cont
check_eq "CONTAINER_NO_RDMA: warning on container" \
	"$(findings CONTAINER_NO_RDMA <"$T/cont.json")" "warning container"
fresh gpu-ndr8 "$G"
: >"$G/.dockerenv"
report "$G" cont-ok
check_eq "CONTAINER_NO_RDMA: not when the container sees /dev/infiniband" \
	"$(findings CONTAINER_NO_RDMA <"$T/cont-ok.json")" ""

# --- perftest: BW_BELOW_LINE_RATE, GDR_BW_LOW (perftest's REPORT_FMT)
RL=---------------------------------------------------------------------------------------
pt() {	# pt DEVICE LABEL AVG [cuda]
	[ "${4:-}" = cuda ] && printf 'initializing CUDA\n'
	printf '%s\n                    RDMA_Write BW Test\n' "$RL"
	printf ' Dual-port       : OFF\t\tDevice         : %s\n' "$1"
	printf ' Number of qps   : 1\t\tTransport type : IB\n'
	printf ' Connection type : RC\t\tUsing SRQ      : OFF\n'
	printf ' Mtu             : 4096[B]\n Link type       : IB\n%s\n' "$RL"
	printf ' #bytes     #iterations    BW peak[%s]    BW average[%s]   MsgRate[Mpps]\n' "$2" "$2"
	printf ' %-7d    %-10d       %-7.2f            %-7.2f\t\t     %-7.6f\n' 1048576 5000 "$3" "$3" 0.04
	printf '%s\n' "$RL"
}
fresh gpu-ndr8 "$G"
pt mlx5_2 Gb/sec 391.50 >"$T/bw-good.txt"
pt mlx5_2 MiB/sec 23841.86 >"$T/bw-low.txt"	# 200.00 Gb/s
report "$G" bw -a "$T/bw-good.txt" -a "$T/bw-low.txt"
check_eq "BW_BELOW_LINE_RATE: 200 Gb/s of 400 on mlx5_2:1 (the good run does not fire)" \
	"$(findings BW_BELOW_LINE_RATE <"$T/bw.json")" "warning mlx5_2:1"
check "BW_BELOW_LINE_RATE: both numbers in Gb/s" sh -c \
	"python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print([f[\"summary\"] for n in d[\"nodes\"] for f in n[\"findings\"] if f[\"rule\"]==\"BW_BELOW_LINE_RATE\"])' '$T/bw.json' | grep -q '200.00 Gb/s average, 50.0% of the 400 Gb/s line rate'"
check_eq "BW_BELOW_LINE_RATE: layer perf" "$(python3 -c '
import json,sys
d=json.load(open(sys.argv[1]))
print(" ".join(f["layer"] for n in d["nodes"] for f in n["findings"] if f["rule"]=="BW_BELOW_LINE_RATE"))' "$T/bw.json")" perf
{ pt mlx5_4 MB/sec 46500.00; pt mlx5_4 MB/sec 9000.00 cuda; } >"$T/gdr.txt"
report "$G" gdrbw -a "$T/gdr.txt"
check_eq "GDR_BW_LOW: CUDA 75 Gb/s vs host 390 Gb/s: warning mlx5_4" \
	"$(findings GDR_BW_LOW <"$T/gdrbw.json")" "warning mlx5_4"
{ pt mlx5_4 MB/sec 46500.00; pt mlx5_4 MB/sec 45000.00 cuda; } >"$T/gdr-ok.txt"
report "$G" gdrbw-ok -a "$T/gdr-ok.txt"
check_eq "GDR_BW_LOW: not when CUDA is close to host memory" \
	"$(findings GDR_BW_LOW <"$T/gdrbw-ok.json")" ""
{ pt mlx5_4 MB/sec 46500.00; printf 'initializing CUDA\n%s\n                    RDMA_Write BW Test\n Dual-port       : OFF\t\tDevice         : mlx5_4\n%s\n Completion with error at client\n Failed status-transport retry counter exceeded (12): wr_id 0 syndrom 0x81\n' "$RL" "$RL"; } >"$T/gdr-fail.txt"
report "$G" gdrbw-fail -a "$T/gdr-fail.txt"
check_eq "GDR_BW_LOW: CUDA run failing where host memory works" \
	"$(findings GDR_BW_LOW <"$T/gdrbw-fail.json")" "warning mlx5_4"
check_eq "PERFTEST_FAILED: not beside GDR_BW_LOW (the failing CUDA run is its)" \
	"$(findings PERFTEST_FAILED <"$T/gdrbw-fail.json")" ""
check_eq "PERFTEST_FAILED: not on a run with its table" \
	"$(findings PERFTEST_FAILED <"$T/bw.json")" ""

# --- PERFTEST_FAILED: a run that ends in an error is a result too
{ printf '%s\n                    Send BW Test\n Dual-port       : OFF\t\tDevice         : mlx5_4\n' "$RL"
  printf ' Link type       : Ethernet\n GID index       : 1\n%s\n' "$RL"
  printf 'Failed to modify QP 1399 to RTR\n Unable to Connect the HCA'"'"'s through the link\n'; } >"$T/pt-rtr.txt"
report "$G" pt-rtr -a "$T/pt-rtr.txt"
check_eq "PERFTEST_FAILED: 'Failed to modify QP ... to RTR': warning on mlx5_4" \
	"$(findings PERFTEST_FAILED <"$T/pt-rtr.json")" "warning mlx5_4"
case "$(summary PERFTEST_FAILED <"$T/pt-rtr.json")" in
*"Failed to modify QP 1399 to RTR"*"GID index"*)
	ok "PERFTEST_FAILED: names the error and, on RoCE, the GID index";;
*)	fail "PERFTEST_FAILED: names the error and, on RoCE, the GID index";;
esac
# the error alone, pasted without the banner (perftest's own messages)
printf 'initializing CUDA\ncreating CUDA Ctx\nCouldn'"'"'t allocate MR\nfailed to create mr\nFailed to create MR\n Couldn'"'"'t create IB resources\n' >"$T/pt-mr.txt"
report "$G" pt-mr -a "$T/pt-mr.txt"
check_eq "PERFTEST_FAILED: CUDA 'Couldn't allocate MR' without a banner: warning, no GDR_BW_LOW (no host run)" \
	"$(findings PERFTEST_FAILED <"$T/pt-mr.json"; findings GDR_BW_LOW <"$T/pt-mr.json")" "warning perftest"
printf 'Couldn'"'"'t connect to 192.0.2.11:18515\nUnable to open file descriptor for socket connection Unable to init the socket connection\n' >"$T/pt-tcp.txt"
report "$G" pt-tcp -a "$T/pt-tcp.txt"
check_eq "PERFTEST_FAILED: the TCP exchange failing is info (the HCA was not tested)" \
	"$(findings PERFTEST_FAILED <"$T/pt-tcp.json")" "info perftest"

# --- NCCL_IB_ERROR: async events and failing verbs calls
M='2019-06-02T16:13:44.884Z: [1,12]<stdout>:gpu-k9:815:864 [0]'
{ printf '%s transport/net_ib.cu:80 NCCL WARN NET/IB : Got async event : local catastrophic error\n%s\n' "$M" "2019-06-02T16:13:44.884Z: [1,12]<stdout>:"
  printf '%s misc/ibvwrap.cu:220 NCCL WARN Call to ibv_get_async_event failed\n' "$M"; } >"$T/async.log"
report "$G" async -a "$T/async.log"
check_eq "NCCL_IB_ERROR: 2.4 'local catastrophic error' behind mpirun's prefix: one critical finding" \
	"$(findings NCCL_IB_ERROR <"$T/async.json")" "critical nccl"
{ printf '%s transport/net_ib/common.cc:123 NCCL WARN NET/IB : mlx5_3:1 async fatal event: local catastrophic error\n' "$P"
  printf '%s transport/net_ib/common.cc:179 NCCL WARN NET/IB : mlx5_0:1 Got non-fatal async event: port active(9)\n' "$P"
  printf '%s misc/ibvwrap.cc:42 NCCL WARN Call to ibv_reg_mr failed with error Bad address\n' "$P"; } >"$T/async2.log"
report "$G" async2 -a "$T/async2.log"
check_eq "NCCL_IB_ERROR: device fatal critical on its port, port active info, ibv_reg_mr warning" \
	"$(findings NCCL_IB_ERROR <"$T/async2.json" | sort)" "$(printf 'critical mlx5_3:1\ninfo mlx5_0:1\nwarning nccl')"
report "$G" async-none -a "$T/ib.log"
check_eq "NCCL_IB_ERROR: not on a log without errors" \
	"$(findings NCCL_IB_ERROR <"$T/async-none.json")" ""

# --- NCCL_GDR_DISABLED: the GPUs from NCCL's own cudaDev lines
printf "%s NCCL INFO comm 0x55cc8aa86c70 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 1c000 commId 0x65e0bd6ee7449db4 - Init START\n%s NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'\n" \
	"$P" "$P" >"$T/gdr-cuda.log"
report "$T/roce-pfc" gdr-cuda -a "$T/gdr-cuda.log"
check_eq "NCCL_GDR_DISABLED: a GPU in NCCL's 'cudaDev 0 ... busId 1c000' counts" \
	"$(findings NCCL_GDR_DISABLED <"$T/gdr-cuda.json")" "warning mlx5_0"
case "$(summary NCCL_GDR_DISABLED <"$T/gdr-cuda.json")" in
*"busId 1c000"*"1 GPU(s) in the NCCL log"*)
	ok "NCCL_GDR_DISABLED: evidence is the cudaDev line";;
*)	fail "NCCL_GDR_DISABLED: evidence is the cudaDev line";;
esac

# --- a completion error wrapped by a mail client keeps its vendor error
printf '%s transport/net_ib.cc:1296 NCCL WARN NET/IB : Got completion from peer 10.2.0.5<33092> with error 12, opcode 0, len\n0, vendor err 129 (Recv)\n%s NCCL INFO proxy.cc:679 -> 6\n' \
	"$P" "$P" >"$T/wrapped.log"
report "$G" wrapped -a "$T/wrapped.log"
case "$(summary NCCL_COMPLETION_ERROR <"$T/wrapped.json")" in
*"vendor err 129 (0x81)"*"line 1: "*)
	ok "NCCL_COMPLETION_ERROR: a wrapped WARN line is joined (vendor err 129)";;
*)	fail "NCCL_COMPLETION_ERROR: a wrapped WARN line is joined (vendor err 129)";;
esac

# --- NCCL_NO_IB on pasted outputs without port state: skipped, saying why
mkdir -p "$T/paste-noib"
cp "$T/nodev.log" "$T/paste-noib/nccl.log"
"$RA" report --format json "$T/paste-noib" >"$T/paste-noib.json" 2>/dev/null
check_eq "NCCL_NO_IB: skipped without port state, naming ibstat" "$(python3 -c '
import json,sys
d=json.load(open(sys.argv[1]))
print(" ".join(s["reason"] for n in d["nodes"] for s in n["skipped"] if s["rule"]=="NCCL_NO_IB"))' "$T/paste-noib.json" | grep -c 'no port state.*ibstat')" 1
