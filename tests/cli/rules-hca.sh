# rules-hca: layer 1 (firmware, cable, physical link) on the fixture nodes:
# each rule fires on an injected fault with the right component and
# severity, and stays quiet on the healthy trees.
cd "$T" || exit 1

HCA_RULES="FW_RESET FW_MEM_ALLOC_FAILED CABLE_MODULE_ERROR LINK_FLAPPING PHY_BER_HIGH PHY_EYE_LOW SYMBOL_ERRORS PORT_RCV_ERRORS LINK_DEGRADED XMIT_DISCARDS XMIT_WAIT_HIGH"

mknode gpu-ndr8 gpu >/dev/null 2>&1 || fail "gpu-ndr8 fixture builds"
mknode roce-pfc roce >/dev/null 2>&1 || fail "roce-pfc fixture builds"
mknode rxe rxe >/dev/null 2>&1 || fail "rxe fixture builds"

# collect TREE OUT [rdma-collect options]
collect() {
	local tree=$1 out=$2
	shift 2
	rm -f "$out"
	"$RC" -q --root "$tree" "$@" -o "$out" >/dev/null 2>"$out.err"
}

# findings BUNDLE: "RULE severity component" lines of the HCA rules
findings() {
	"$RA" report --format json "$1" 2>/dev/null | python3 -c '
import json, sys
rules = set(sys.argv[1].split())
d = json.load(sys.stdin)
def walk(o):
    if isinstance(o, dict):
        if "rule" in o and "severity" in o and "component" in o:
            yield o
        for v in o.values():
            yield from walk(v)
    elif isinstance(o, list):
        for v in o:
            yield from walk(v)
for f in walk(d):
    if f["rule"] in rules:
        print(f["rule"], f["severity"], f["component"])
' "$HCA_RULES" | sort
}

# fires "what" BUNDLE "RULE severity component"
fires() {
	local got
	got=$(findings "$2")
	if printf '%s\n' "$got" | grep -qxF -- "$3"; then
		ok "$1"
	else
		fail "$1"
		echo "#   want: '$3'"
		printf '%s\n' "$got" | sed 's/^/#   got:  /'
	fi
}

# quiet "what" BUNDLE RULE [component]: no finding of RULE (on component)
quiet() {
	local got
	got=$(findings "$2" | awk -v r="$3" -v c="${4:-}" '$1 == r && (c == "" || $3 == c)')
	check_eq "$1" "$got" ""
}

# repack DIR OUT: a bundle from an unpacked one (manifest first)
repack() {
	local out
	case $2 in /*) out=$2 ;; *) out=$PWD/$2 ;; esac
	(cd "$1" && { echo manifest.json; find . -mindepth 1 ! -name manifest.json |
		sed 's|^\./||' | LC_ALL=C sort; } >"$T/.list" &&
		tar --zstd --no-recursion -cf "$out" -T "$T/.list")
}

# kmsg DIR "prio,seq,usec" "text" [pci]: append one /dev/kmsg record
kmsg() {
	printf '%s,-;%s\n' "$2" "$3" >>"$1/rdma-collect/klog/kmsg.txt"
	[ -n "${4:-}" ] && printf ' SUBSYSTEM=pci\n DEVICE=+pci:%s\n' "$4" \
		>>"$1/rdma-collect/klog/kmsg.txt"
	return 0
}

# contains "what" TEXT NEEDLE
contains() {
	case $2 in
	*"$3"*) ok "$1" ;;
	*) fail "$1"; echo "#   '$3' not in: $2" ;;
	esac
}

# --- healthy nodes ---
collect gpu g0.rdma.tar.zst
collect roce r0.rdma.tar.zst --sample 1
collect rxe x0.rdma.tar.zst
check_eq "gpu-ndr8: no HCA finding" "$(findings g0.rdma.tar.zst)" ""
check_eq "roce-pfc: no HCA finding" "$(findings r0.rdma.tar.zst)" ""
check_eq "rxe: no HCA finding" "$(findings x0.rdma.tar.zst)" ""

# --- FW_RESET: one incident without a failed health check is a warning,
# two are critical; a health dump (the firmware's syndrome) or "health
# compromised" is critical at once (schema/REPORT.md, conventions)
cp -a gpu g1
P=0000:34:00.0
kmsg g1 "3,900,86400000001" "mlx5_core $P: poll_health:834:(pid 0): Fatal error 1 detected" $P
kmsg g1 "6,904,86402100000" "mlx5_core $P: mlx5_health_try_recover:393:(pid 812): starting health recovery flow" $P
kmsg g1 "6,905,86402900000" "mlx5_core $P: health recovery succeeded" $P
collect g1 g1.rdma.tar.zst
fires "FW_RESET: one fatal-sensor incident without a syndrome is a warning on mlx5_2" g1.rdma.tar.zst "FW_RESET warning mlx5_2"
# 2 h later a health dump, new form: firmware internal error
cp -a g1 g1n
kmsg g1n "3,906,93600000210" "mlx5_core $P: print_health_info:461:(pid 0): Health issue observed, firmware internal error, severity(3) ERROR:" $P
kmsg g1n "3,907,93600000220" "mlx5_core $P: print_health_info:465:(pid 0): assert_var[0] 0x00000000" $P
kmsg g1n "3,908,93600000290" "mlx5_core $P: print_health_info:482:(pid 0): synd 0x1: firmware internal error" $P
collect g1n g1b.rdma.tar.zst
fires "FW_RESET: a second incident (a health dump) makes it critical" g1b.rdma.tar.zst "FW_RESET critical mlx5_2"
quiet "FW_RESET: not on the other HCAs" g1b.rdma.tar.zst FW_RESET mlx5_0
quiet "FW_RESET: quiet on the healthy node" g0.rdma.tar.zst FW_RESET
# one incident alone: "firmware internal error" (new form), the old form
# (assert_var and synd lines, no header) and "health compromised" are each
# critical by themselves
cp -a gpu g1c
kmsg g1c "3,900,86400000210" "mlx5_core $P: print_health_info:461:(pid 0): Health issue observed, firmware internal error, severity(3) ERROR:" $P
kmsg g1c "3,901,86400000220" "mlx5_core $P: print_health_info:465:(pid 0): assert_var[0] 0x00000000" $P
Q=0000:44:00.0
kmsg g1c "3,902,86500000000" "mlx5_core $Q: print_health_info:383:(pid 0): assert_var[0] 0x00000001" $Q
kmsg g1c "3,903,86500000010" "mlx5_core $Q: print_health_info:389:(pid 0): synd 0x1: firmware internal error" $Q
R=0000:94:00.0
kmsg g1c "3,904,86600000000" "mlx5_core $R: poll_health:834:(pid 0): device's health compromised - reached miss count" $R
collect g1c g1c.rdma.tar.zst
fires "FW_RESET: one 'Health issue observed, firmware internal error' dump is critical" g1c.rdma.tar.zst "FW_RESET critical mlx5_2"
fires "FW_RESET: one old-form dump (assert_var, synd) is critical" g1c.rdma.tar.zst "FW_RESET critical mlx5_3"
fires "FW_RESET: one 'health compromised - reached miss count' is critical" g1c.rdma.tar.zst "FW_RESET critical mlx5_4"
s=$(summary g1c.rdma.tar.zst FW_RESET mlx5_2)
contains "FW_RESET: the summary names the syndrome" "$s" "syndrome: firmware internal error"
# one incident, one finding: the dump that both functions of a dual-port
# ConnectX-6 Dx print is one finding on the first function (mlx5_0), the
# second function in its evidence
cp -a roce r1
q=200
for m in "poll_health:834:(pid 0): device's health compromised - reached miss count" \
	"print_health_info:461:(pid 0): Health issue observed, firmware internal error, severity(3) ERROR:" \
	"print_health_info:482:(pid 0): synd 0x1: firmware internal error"; do
	for f in 0000:17:00.0 0000:17:00.1; do
		q=$((q + 1))
		kmsg r1 "3,$q,500000$q" "mlx5_core $f: $m" $f
	done
done
collect r1 r1.rdma.tar.zst
fires "FW_RESET: both functions' dump is one critical finding on mlx5_0" r1.rdma.tar.zst "FW_RESET critical mlx5_0"
quiet "FW_RESET: no second finding on the device's other function" r1.rdma.tar.zst FW_RESET mlx5_1
"$RA" report --format json r1.rdma.tar.zst 2>/dev/null >r1.json
check "FW_RESET: one incident, and the other function in the evidence" python3 -c '
import json
d = json.load(open("r1.json"))
f = [f for n in d["nodes"] for f in n["findings"] if f["rule"] == "FW_RESET"]
assert len(f) == 1, f
assert f[0]["summary"].startswith("1 firmware health/reset incident "), f[0]["summary"]
assert "2 PCI functions" in f[0]["summary"], f[0]["summary"]
assert any(e["value"].startswith("0000:17:00.1 (mlx5_1): the same incident") for e in f[0]["evidence"]), f[0]["evidence"]
'

# --- FW_MEM_ALLOC_FAILED: give_pages failure; CREATE_QP limits exceeded ---
cp -a gpu g2
kmsg g2 "4,900,500000000" "mlx5_core 0000:14:00.0: give_pages:369:(pid 2231): func_id 0x0, npages 4096, err -12" 0000:14:00.0
collect g2 g2.rdma.tar.zst
fires "FW_MEM_ALLOC_FAILED: page supply failure on mlx5_0 is critical" g2.rdma.tar.zst "FW_MEM_ALLOC_FAILED critical mlx5_0"
cp -a roce r2
kmsg r2 "3,100,900000000" "mlx5_core 0000:17:00.1: mlx5_cmd_out_err:838:(pid 4410): CREATE_QP(0x500) op_mod(0x0) failed, status limits exceeded(0x8), syndrome (0x5c4e5b), err(-12)" 0000:17:00.1
collect r2 r2.rdma.tar.zst
fires "FW_MEM_ALLOC_FAILED: CREATE_QP limits exceeded on mlx5_1" r2.rdma.tar.zst "FW_MEM_ALLOC_FAILED critical mlx5_1"
quiet "FW_MEM_ALLOC_FAILED: quiet on the healthy node" r0.rdma.tar.zst FW_MEM_ALLOC_FAILED
# host memory pressure hits both functions' page supply: one incident
kmsg r2 "4,101,900000100" "mlx5_core 0000:17:00.0: alloc_system_page:231:(pid 1021): failed to allocate page" 0000:17:00.0
collect r2 r2b.rdma.tar.zst
fires "FW_MEM_ALLOC_FAILED: both functions of one device: one finding on mlx5_0" r2b.rdma.tar.zst "FW_MEM_ALLOC_FAILED critical mlx5_0"
quiet "FW_MEM_ALLOC_FAILED: none on the device's second function" r2b.rdma.tar.zst FW_MEM_ALLOC_FAILED mlx5_1

# --- CABLE_MODULE_ERROR: new form (func prefix) and old info form ---
cp -a roce r3
kmsg r3 "3,100,700000000" "mlx5_core 0000:17:00.1: port_module:286:(pid 0): Port module event[error]: module 1, Cable error, Bad or shorted cable/module" 0000:17:00.1
kmsg r3 "6,101,700000500" "mlx5_core 0000:17:00.0: Port module event: module 0, Cable error, Bus stuck(I2C or data shorted)" 0000:17:00.0
collect r3 r3.rdma.tar.zst
fires "CABLE_MODULE_ERROR: new form on mlx5_1" r3.rdma.tar.zst "CABLE_MODULE_ERROR critical mlx5_1"
fires "CABLE_MODULE_ERROR: old form on mlx5_0" r3.rdma.tar.zst "CABLE_MODULE_ERROR critical mlx5_0"
quiet "CABLE_MODULE_ERROR: 'Cable plugged' at boot is not an error" r0.rdma.tar.zst CABLE_MODULE_ERROR

# --- LINK_FLAPPING: Link down once warning, twice in 24 h critical ---
cp -a roce r4
kmsg r4 "6,100,3600000000" "mlx5_core 0000:17:00.0 ens1f0np0: Link down" 0000:17:00.0
kmsg r4 "6,101,3605000000" "mlx5_core 0000:17:00.0 ens1f0np0: Link up" 0000:17:00.0
collect r4 r4.rdma.tar.zst
fires "LINK_FLAPPING: one Link down is a warning on mlx5_0:1" r4.rdma.tar.zst "LINK_FLAPPING warning mlx5_0:1"
kmsg r4 "6,102,7200000000" "mlx5_core 0000:17:00.0: Port module event: module 0, Cable unplugged" 0000:17:00.0
kmsg r4 "6,103,7210000000" "mlx5_core 0000:17:00.0: Port module event: module 0, Cable plugged" 0000:17:00.0
collect r4 r4b.rdma.tar.zst
fires "LINK_FLAPPING: link down + cable unplugged within 24 h is critical" r4b.rdma.tar.zst "LINK_FLAPPING critical mlx5_0:1"
quiet "LINK_FLAPPING: not on the other port" r4b.rdma.tar.zst LINK_FLAPPING mlx5_1:1
# two downs 30 h apart: warning only
cp -a roce r4c
kmsg r4c "6,100,3600000000" "mlx5_core 0000:17:00.1 ens1f1np1: Link down" 0000:17:00.1
kmsg r4c "6,101,111600000000" "mlx5_core 0000:17:00.1 ens1f1np1: Link down" 0000:17:00.1
collect r4c r4c.rdma.tar.zst
fires "LINK_FLAPPING: two downs 30 h apart stay a warning" r4c.rdma.tar.zst "LINK_FLAPPING warning mlx5_1:1"
# LinkDownedCounter: on a port down on purpose never; one step after a
# driver restart is not flapping; growing between --sample reads is critical
cp -a gpu g4
echo 5 >g4/sys/class/infiniband/mlx5_3/ports/1/counters/link_downed
echo "1: DOWN" >g4/sys/class/infiniband/mlx5_3/ports/1/state
echo "2: Polling" >g4/sys/class/infiniband/mlx5_3/ports/1/phys_state
echo 1 >g4/sys/class/infiniband/mlx5_4/ports/1/counters/link_downed
kmsg g4 "6,900,900000000" "mlx5_core 0000:94:00.0: firmware version: 28.41.1000" 0000:94:00.0
echo 1 >g4/sys/class/infiniband/mlx5_6/ports/1/counters/link_downed
# mlx5_3: no cable (its module was unplugged and never plugged again):
# down on purpose; mlx5_5: Polling with its cable plugged (the boot's
# "Cable plugged"): it should be up, its counters count
kmsg g4 "6,901,901000000" "mlx5_core 0000:44:00.0: Port module event: module 0, Cable unplugged" 0000:44:00.0
echo 3 >g4/sys/class/infiniband/mlx5_5/ports/1/counters/link_downed
echo "1: DOWN" >g4/sys/class/infiniband/mlx5_5/ports/1/state
echo "2: Polling" >g4/sys/class/infiniband/mlx5_5/ports/1/phys_state
collect g4 g4.rdma.tar.zst
quiet "LINK_FLAPPING: never on a port down on purpose (no cable)" g4.rdma.tar.zst LINK_FLAPPING mlx5_3:1
fires "LINK_FLAPPING: a Polling port with a cable plugged is not down on purpose" g4.rdma.tar.zst "LINK_FLAPPING warning mlx5_5:1"
quiet "LINK_FLAPPING: a driver restart's single link_downed step is not flapping" g4.rdma.tar.zst LINK_FLAPPING mlx5_4:1
fires "LINK_FLAPPING: link_downed 1 without a restart is a warning" g4.rdma.tar.zst "LINK_FLAPPING warning mlx5_6:1"
# only a cycle counts: a down followed by its up (or by another down, or
# the port up now).  mlx5_0: two down/up cycles, then a last "Link down"
# with the port Polling (its cable plugged at boot: it should be up);
# mlx5_1: one "Link down" and never up since: a port down, not a flap
cp -a roce r7
for x in mlx5_0 mlx5_1; do
	echo "1: DOWN" >r7/sys/class/infiniband/$x/ports/1/state
	echo "2: Polling" >r7/sys/class/infiniband/$x/ports/1/phys_state
done
kmsg r7 "6,100,3600000000" "mlx5_core 0000:17:00.0 ens1f0np0: Link down" 0000:17:00.0
kmsg r7 "6,101,3605000000" "mlx5_core 0000:17:00.0 ens1f0np0: Link up" 0000:17:00.0
kmsg r7 "6,102,7200000000" "mlx5_core 0000:17:00.0 ens1f0np0: Link down" 0000:17:00.0
kmsg r7 "6,103,7205000000" "mlx5_core 0000:17:00.0 ens1f0np0: Link up" 0000:17:00.0
kmsg r7 "6,104,9000000000" "mlx5_core 0000:17:00.0 ens1f0np0: Link down" 0000:17:00.0
kmsg r7 "6,105,9000000100" "mlx5_core 0000:17:00.1 ens1f1np1: Link down" 0000:17:00.1
collect r7 r7.rdma.tar.zst
fires "LINK_FLAPPING: two down/up cycles in 24 h are critical" r7.rdma.tar.zst "LINK_FLAPPING critical mlx5_0:1"
contains "LINK_FLAPPING: the last down, never up again, is no cycle" \
	"$(summary r7.rdma.tar.zst LINK_FLAPPING mlx5_0:1)" "went down 2 times"
quiet "LINK_FLAPPING: one Link down and never up: a port down, not a flap" r7.rdma.tar.zst LINK_FLAPPING mlx5_1:1
# "Cable unplugged" at boot with no plug after: no cable (the port is
# down on purpose, PORT_DOWN info), not a flap
cp -a gpu g8
kmsg g8 "6,900,3300000000" "mlx5_core 0000:34:00.0: Port module event: module 0, Cable unplugged" 0000:34:00.0
echo "1: DOWN" >g8/sys/class/infiniband/mlx5_2/ports/1/state
echo "2: Polling" >g8/sys/class/infiniband/mlx5_2/ports/1/phys_state
collect g8 g8.rdma.tar.zst
quiet "LINK_FLAPPING: an unplug never followed by a plug is no flap" g8.rdma.tar.zst LINK_FLAPPING mlx5_2:1
check_eq "LINK_FLAPPING: ... and the port is down on purpose (PORT_DOWN info)" \
	"$(sev g8.rdma.tar.zst PORT_DOWN mlx5_2:1)" info
# an unplug followed by a plug on a port that is up: one cycle
cp -a gpu g9
kmsg g9 "6,900,7000000000" "mlx5_core 0000:34:00.0: Port module event: module 0, Cable unplugged" 0000:34:00.0
kmsg g9 "6,901,7030000000" "mlx5_core 0000:34:00.0: Port module event: module 0, Cable plugged" 0000:34:00.0
collect g9 g9.rdma.tar.zst
fires "LINK_FLAPPING: one unplug/plug cycle is a warning" g9.rdma.tar.zst "LINK_FLAPPING warning mlx5_2:1"
collect roce r4s.rdma.tar.zst --sample 1
mkdir r4s && tar --zstd -xf r4s.rdma.tar.zst -C r4s
echo 3 >r4s/rdma-collect/sample/sys/class/infiniband/mlx5_1/ports/1/counters/link_downed
repack r4s r4s2.rdma.tar.zst
fires "LINK_FLAPPING: link_downed growing between the reads is critical" r4s2.rdma.tar.zst "LINK_FLAPPING critical mlx5_1:1"

# --- SYMBOL_ERRORS, PORT_RCV_ERRORS, XMIT_DISCARDS, XMIT_WAIT_HIGH ---
cp -a gpu g5
echo 7 >g5/sys/class/infiniband/mlx5_1/ports/1/counters/symbol_error
echo 3 >g5/sys/class/infiniband/mlx5_2/ports/1/counters/port_rcv_errors
echo 2 >g5/sys/class/infiniband/mlx5_2/ports/1/counters/local_link_integrity_errors
echo 12 >g5/sys/class/infiniband/mlx5_7/ports/1/counters/port_xmit_discards
d=$(cat g5/sys/class/infiniband/mlx5_6/ports/1/counters/port_xmit_data)
echo $((d / 5)) >g5/sys/class/infiniband/mlx5_6/ports/1/counters/port_xmit_wait
echo 9 >g5/sys/class/infiniband/mlx5_3/ports/1/counters/symbol_error
echo "1: DOWN" >g5/sys/class/infiniband/mlx5_3/ports/1/state
echo "3: Disabled" >g5/sys/class/infiniband/mlx5_3/ports/1/phys_state
# mlx5_0 Polling with its cable plugged and 7 Active siblings: its errors count
echo 9 >g5/sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error
echo "1: DOWN" >g5/sys/class/infiniband/mlx5_0/ports/1/state
echo "2: Polling" >g5/sys/class/infiniband/mlx5_0/ports/1/phys_state
collect g5 g5.rdma.tar.zst
fires "SYMBOL_ERRORS: on a Polling port that should be up" g5.rdma.tar.zst "SYMBOL_ERRORS warning mlx5_0:1"
fires "SYMBOL_ERRORS: symbol_error 7 is a warning on mlx5_1:1" g5.rdma.tar.zst "SYMBOL_ERRORS warning mlx5_1:1"
quiet "SYMBOL_ERRORS: not on a Disabled port" g5.rdma.tar.zst SYMBOL_ERRORS mlx5_3:1
fires "PORT_RCV_ERRORS: on mlx5_2:1" g5.rdma.tar.zst "PORT_RCV_ERRORS warning mlx5_2:1"
fires "XMIT_DISCARDS: on mlx5_7:1" g5.rdma.tar.zst "XMIT_DISCARDS warning mlx5_7:1"
fires "XMIT_WAIT_HIGH: 20% since the counters began on mlx5_6:1" g5.rdma.tar.zst "XMIT_WAIT_HIGH warning mlx5_6:1"
for r in SYMBOL_ERRORS PORT_RCV_ERRORS XMIT_DISCARDS XMIT_WAIT_HIGH; do
	quiet "$r: quiet on the healthy nodes" g0.rdma.tar.zst $r
	quiet "$r: quiet on roce-pfc" r0.rdma.tar.zst $r
done
# growing between the --sample reads: SYMBOL_ERRORS critical; xmit wait
# measured over the interval
mkdir r5 && tar --zstd -xf r0.rdma.tar.zst -C r5
S=r5/rdma-collect/sample/sys/class/infiniband
echo 4 >r5/sys/class/infiniband/mlx5_0/ports/1/counters/link_error_recovery
echo 6 >$S/mlx5_0/ports/1/counters/link_error_recovery
echo 2 >r5/sys/class/infiniband/mlx5_1/ports/1/counters/symbol_error
echo 2 >$S/mlx5_1/ports/1/counters/symbol_error
w=$(cat r5/sys/class/infiniband/mlx5_1/ports/1/counters/port_xmit_wait)
d=$(cat r5/sys/class/infiniband/mlx5_1/ports/1/counters/port_xmit_data)
echo $((w + 500000)) >$S/mlx5_1/ports/1/counters/port_xmit_wait
echo $((d + 1000000)) >$S/mlx5_1/ports/1/counters/port_xmit_data
repack r5 r5.rdma.tar.zst
fires "SYMBOL_ERRORS: link_error_recovery growing is critical" r5.rdma.tar.zst "SYMBOL_ERRORS critical mlx5_0:1"
fires "SYMBOL_ERRORS: a steady count stays a warning" r5.rdma.tar.zst "SYMBOL_ERRORS warning mlx5_1:1"
fires "XMIT_WAIT_HIGH: 50% over the sample interval" r5.rdma.tar.zst "XMIT_WAIT_HIGH warning mlx5_1:1"
quiet "XMIT_WAIT_HIGH: low over the interval on mlx5_0:1" r5.rdma.tar.zst XMIT_WAIT_HIGH mlx5_0:1

# --- LINK_DEGRADED ---
cp -a gpu g6
echo "100 Gb/sec (1X NDR)" >g6/sys/class/infiniband/mlx5_0/ports/1/rate
echo "200 Gb/sec (4X HDR)" >g6/sys/class/infiniband/mlx5_7/ports/1/rate
echo "200 Gb/sec (4X HDR)" >g6/sys/class/infiniband/mlx5_5/ports/1/rate
mkdir -p g6/rdma-collect/commands/mlxlink-mlx5_5
cat >g6/rdma-collect/commands/mlxlink-mlx5_5/stdout <<'EOF'

Operational Info
----------------
State                              : Active
Physical state                     : LinkUp
Speed                              : IB-HDR
Width                              : 4x
FEC                                : Standard_RS-FEC - (544,514)
Loopback Mode                      : No Loopback
Auto Negotiation                   : ON

Supported Info
--------------
Enabled Link Speed (Ext.)          : 0x000007e0 (NDR,HDR,EDR,FDR,QDR,DDR,SDR)
Supported Cable Speed (Ext.)       : 0x00000400 (NDR)
EOF
collect g6 g6.rdma.tar.zst --commands
fires "LINK_DEGRADED: 1X on a ConnectX-7 is critical" g6.rdma.tar.zst "LINK_DEGRADED critical mlx5_0:1"
fires "LINK_DEGRADED: HDR on a ConnectX-7 without peer evidence is a warning" g6.rdma.tar.zst "LINK_DEGRADED warning mlx5_7:1"
fires "LINK_DEGRADED: HDR with NDR enabled and an NDR cable is critical" g6.rdma.tar.zst "LINK_DEGRADED critical mlx5_5:1"
quiet "LINK_DEGRADED: quiet on NDR 4X" g6.rdma.tar.zst LINK_DEGRADED mlx5_1:1
quiet "LINK_DEGRADED: never on Ethernet (roce-pfc) or rxe" r0.rdma.tar.zst LINK_DEGRADED
quiet "LINK_DEGRADED: quiet on rxe" x0.rdma.tar.zst LINK_DEGRADED

# --- PHY_BER_HIGH and PHY_EYE_LOW (mlxlink text) ---
mlxlink_text() {	# eff_errors eff_ber raw_ber heights
	cat <<EOF
Operational Info
----------------
State                              : Active
Physical state                     : LinkUp
Speed                              : IB-NDR
Width                              : 4x

Physical Counters and BER Info
------------------------------
Time Since Last Clear [Min]        : 4310.2
Effective Physical Errors          : $1
Effective Physical BER             : $2
Raw Physical BER                   : $3
Raw Physical Errors Per Lane       : 1841,1702,2210,1934
Effective Errors Per Lane          : 0,0,0,0

EYE Opening Info
----------------
Physical Grade                     :   4210,  4312,  4188,  4290
Height Eye Opening [mV]            : $4
Phase  Eye Opening [psec]          :     12,    12,    11,    12
EOF
}
cp -a gpu g7
mkdir -p g7/rdma-collect/commands/mlxlink-mlx5_0 g7/rdma-collect/commands/mlxlink-mlx5_1
mlxlink_text 12 3E-10 2E-7 "   38,    37,    39,    38" >g7/rdma-collect/commands/mlxlink-mlx5_0/stdout
mlxlink_text 0 15E-255 5E-7 "   38,    37,    39,    38" >g7/rdma-collect/commands/mlxlink-mlx5_1/stdout
mlxlink_text 0 15E-255 2E-4 "   38,    14,    39,    38" >mlxlink-mlx5_2.txt
mlxlink_text N/A N/A N/A "N/A,N/A,N/A,N/A" >mlxlink-mlx5_4.txt
# HDR/NDR: PLR retransmits what FEC left, effective errors alone are a warning
mlxlink_text 3 5E-13 2E-7 "   38,    37,    39,    38" |
	sed 's/^Width .*/&\nFEC                                : RS-FEC - (544,514) + PLR/' >mlxlink-mlx5_3.txt
collect g7 g7.rdma.tar.zst --commands --attach mlxlink-mlx5_2.txt --attach mlxlink-mlx5_4.txt \
	--attach mlxlink-mlx5_3.txt
fires "PHY_BER_HIGH: effective errors on mlx5_0:1 (commands source)" g7.rdma.tar.zst "PHY_BER_HIGH critical mlx5_0:1"
fires "PHY_BER_HIGH: raw BER 2E-4 on mlx5_2:1 (attachment)" g7.rdma.tar.zst "PHY_BER_HIGH critical mlx5_2:1"
fires "PHY_BER_HIGH: effective errors under PLR are a warning" g7.rdma.tar.zst "PHY_BER_HIGH warning mlx5_3:1"
quiet "PHY_BER_HIGH: a clean link (15E-255, raw 5E-7) is quiet" g7.rdma.tar.zst PHY_BER_HIGH mlx5_1:1
quiet "PHY_BER_HIGH: N/A values are absent, not errors" g7.rdma.tar.zst PHY_BER_HIGH mlx5_4:1
fires "PHY_EYE_LOW: lane 1 at 14 mV against 38 on mlx5_2:1" g7.rdma.tar.zst "PHY_EYE_LOW warning mlx5_2:1"
quiet "PHY_EYE_LOW: even lanes are quiet" g7.rdma.tar.zst PHY_EYE_LOW mlx5_0:1
quiet "PHY_EYE_LOW: N/A lanes are quiet" g7.rdma.tar.zst PHY_EYE_LOW mlx5_4:1
"$RA" report --format json g7.rdma.tar.zst 2>/dev/null >g7.json
check "PHY_BER_HIGH: evidence names the mlxlink output and its values" python3 -c '
import json, sys
d = json.load(open("g7.json"))
def walk(o):
    if isinstance(o, dict):
        if o.get("rule") == "PHY_BER_HIGH" and o.get("component") == "mlx5_0:1":
            yield o
        for v in o.values(): yield from walk(v)
    elif isinstance(o, list):
        for v in o: yield from walk(v)
f = next(walk(d))
e = f["evidence"][0]
assert e["path"] == "rdma-collect/commands/mlxlink-mlx5_0/stdout", e
assert "Effective Physical Errors 12" in e["value"] and "3E-10" in e["value"], e
'

# --- another vendor's RDMA (tests/fixtures/mkbnxt.sh: bnxt_re) and rxe:
# the mlx5 kernel lines and mlxlink are skipped with the reason; the
# generic counters are judged
"$FIXTURES/mkbnxt.sh" bnxt || fail "mkbnxt.sh builds"
echo 2 >bnxt/sys/class/infiniband/bnxt_re0/ports/1/counters/link_downed
collect bnxt bnxt.rdma.tar.zst
"$RA" report --format json bnxt.rdma.tar.zst >bnxt.json 2>/dev/null
"$RA" report --format json x0.rdma.tar.zst >x0.json 2>/dev/null
check "bnxt_re node: FW_RESET, FW_MEM_ALLOC_FAILED, CABLE_MODULE_ERROR, PHY_BER_HIGH, PHY_EYE_LOW skipped: no mlx5 device" python3 -c '
import json
for f, devs in (("bnxt.json", "bnxt_re0 bnxt_re1"), ("x0.json", "rxe0")):
    d = json.load(open(f))
    s = {x["rule"]: x["reason"] for n in d["nodes"] for x in n["skipped"]}
    for r in ("FW_RESET", "FW_MEM_ALLOC_FAILED", "CABLE_MODULE_ERROR", "PHY_BER_HIGH", "PHY_EYE_LOW"):
        assert s.get(r, "").startswith("no mlx5 device (RDMA devices: %s): it reads " % devs), (f, r, s.get(r))
'
fires "bnxt_re node: LinkDownedCounter is generic: LINK_FLAPPING" bnxt.rdma.tar.zst "LINK_FLAPPING warning bnxt_re0:1"
quiet "bnxt_re node: nothing else from the HCA rules" bnxt.rdma.tar.zst SYMBOL_ERRORS
