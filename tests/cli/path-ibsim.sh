# path-ibsim: `rdma-analyze path` and the MAD rules on a real simulated
# fabric (tests/ibsim/fabric.sh): rdma-collect --fabric runs at node003
# under the shim; `path` must print, for several pairs and both ways,
# exactly the hops ibtracert prints on the same fabric; faults injected
# through ibsim's console (a 1X cable, error counters on chosen switch
# ports, no SM) must come out as the right finding on the right port, and
# nothing else fires.
. "$TOP/tests/ibsim/fabric.sh"

if ! fab_have; then
	skip "path and MAD rules on ibsim" "missing: $FAB_MISSING"
	exit 0
fi
printf 'interceptor_via_lib:libumad2sim.so\n' >"$T/asan.supp"
printf 'leak:libibnetdisc.so\n' >"$T/lsan.supp"
export ASAN_OPTIONS="verify_asan_link_order=0:detect_leaks=1:suppressions=$T/asan.supp"
export LSAN_OPTIONS="suppressions=$T/lsan.supp"
export FAB_SOCK="rcpath$$"
trap fab_stop EXIT
cd "$T" || exit 1

# 2 spines, 3 leaves, 2 HCAs a leaf; node002's cable: its leaf port
# enables 1X only
fab_fattree 2 3 2 | sed '/^\[2\] "node002"\[1\]$/s/$/ w=1/' >topo
fab_start "$T/fab" topo || { fail "ibsim starts"; exit 0; }
fab_sm_once node001 || fail "opensm --once assigns LIDs"
fab_sm_start node001 || fail "a resident opensm is master"
fab_cmd 'PerformanceSet "leaf2"[1] PortCounters.SymbolErrorCounter=5' >/dev/null
fab_cmd 'PerformanceSet "spine2"[2] PortCounters.PortXmitDiscards=7' >/dev/null
fab_cmd 'PerformanceSet "leaf3"[3] PortCounters.LinkDownedCounter=2' >/dev/null
fab_cmd 'PerformanceSet "spine1"[3] PortCounters.PortRcvErrors=4' >/dev/null

fab_run node003 "$RC" -q --only identity,sysfs,mad,fabric --fabric -o "$T" \
	>col.out 2>&1
B=$(ls "$T"/*.rdma.tar.zst 2>/dev/null | head -1)
check "rdma-collect --fabric at node003" test -s "$B"
"$RA" load --db f.db "$B" >/dev/null 2>&1
check_eq "the scan is loaded" "$(sqlite3 f.db 'SELECT status, nodes FROM fabric_scans')" "ok|11"
lid() { sqlite3 f.db "SELECT coalesce(n.lid, p.lid) FROM fabric_nodes n JOIN fabric_ports p ON p.guid = n.guid AND p.bundle_id = n.bundle_id WHERE n.desc = '$1' ORDER BY p.port DESC LIMIT 1"; }

# route lines of path for one direction: the block after "# A -> B"
for pair in "node001 mlx5_0|node005 mlx5_0" "node002 mlx5_0|node006 mlx5_0" \
	    "node004 mlx5_0|node001 mlx5_0" "node006 mlx5_0|node003 mlx5_0" \
	    "node001 mlx5_0|MF0;leaf3:MQM9700/U1"; do
	a=${pair%|*} z=${pair#*|}
	la=$(lid "$a") lz=$(lid "$z")
	"$RA" path --db f.db "$a" "$z" >path.out 2>path.err
	rc=$?
	fab_run node003 ibtracert "$la" "$lz" >real.az 2>&1
	fab_run node003 ibtracert "$lz" "$la" >real.za 2>&1
	awk -v h="# $a -> $z" '$0 == h { on = 1; next } /^$/ { on = 0 } on && !/^ /' path.out >mine.az
	awk -v h="# $z -> $a" '$0 == h { on = 1; next } /^$/ { on = 0 } on && !/^ /' path.out >mine.za
	if [ $rc -eq 0 ] && [ -s real.az ] && cmp -s real.az mine.az &&
	   [ -s real.za ] && cmp -s real.za mine.za; then
		ok "path $a -> $z and back: ibtracert's hops ($(($(wc -l <real.az) + $(wc -l <real.za) - 4)) hops)"
	else
		fail "path $a -> $z and back: ibtracert's hops (exit $rc)"
		diff real.az mine.az | sed 's/^/#   /' | head -10
		diff real.za mine.za | sed 's/^/#   /' | head -10
		sed 's/^/#   /' path.err | head -3
	fi
done
fab_reap >/dev/null

# --- the rules on the same bundle ---
rows() {
	"$RA" report --format json "$1" 2>/dev/null | python3 -c '
import json, sys
mine = "SM_ABSENT SM_NOT_MASTER LINK_DEGRADED SYMBOL_ERRORS PORT_RCV_ERRORS LINK_FLAPPING XMIT_DISCARDS XMIT_WAIT_HIGH".split()
for n in json.load(sys.stdin)["nodes"]:
    for f in n["findings"]:
        if f["rule"] in mine:
            print(f["rule"], f["severity"], f["component"])' | sort
}
check_eq "each injected fault is one finding on its port, nothing else" "$(rows "$B")" \
"LINK_DEGRADED warning MF0;leaf1:MQM9700/U1 port 2 <-> node002 mlx5_0 port 1
LINK_FLAPPING warning MF0;leaf3:MQM9700/U1 port 3
PORT_RCV_ERRORS warning MF0;spine1:MQM9700/U1 port 3
SYMBOL_ERRORS warning MF0;leaf2:MQM9700/U1 port 1 (peer of ibsim0:1)
XMIT_DISCARDS warning MF0;spine2:MQM9700/U1 port 2"

# --- no SM: the mad source alone, after the SM is stopped ---
fab_sm_stop
mkdir nosm
fab_run node003 "$RC" -q --only identity,sysfs,mad -o "$T/nosm" >/dev/null 2>&1
N=$(ls "$T"/nosm/*.rdma.tar.zst 2>/dev/null | head -1)
fab_reap >/dev/null
check_eq "no SM running: SM_ABSENT on the port" "$(rows "$N" | grep SM_)" \
	"SM_ABSENT critical ibsim0:1"
