# The InfiniBand fabric views (sminfo, perfquery, iblinkinfo, ibnetdiscover,
# ibroute) against the real infiniband-diags tools on a simulated fabric
# (tests/ibsim/fabric.sh): rdma-collect runs live under the shim at node003
# with the mad source and --fabric, the tools run at the same node right
# after, and their outputs are diffed with `rdma-analyze show`.  Masked,
# because they legitimately differ: the SM's activity count (it ticks), the
# data and packet counters (every MAD moves them) and the "generated on"
# line of ibnetdiscover.  perfquery's header with the PMA's CapMask and
# CapMask2 (its ClassPortInfo, from the mad document or the scan) and the
# error counters are compared exactly, with values injected through
# ibsim's console first.
. "$TOP/tests/ibsim/fabric.sh"

# --- missing and hostile evidence: no fabric needed ---

mkdir -p "$T/empty"
"$RC" -q --root "$T/empty" --only identity -o "$T/none.rdma.tar.zst" >/dev/null 2>&1
for v in sminfo perfquery "perfquery -x 5 1" iblinkinfo ibnetdiscover "ibroute 2" ibroute; do
	"$RA" show "$T/none.rdma.tar.zst" $v >"$T/o" 2>"$T/e"
	rc=$?
	if [ $rc -eq 4 ] && [ ! -s "$T/o" ] && [ "$(wc -l <"$T/e")" -eq 1 ]; then
		ok "no MAD evidence: show $v says so in one line, exit 4"
	else
		fail "no MAD evidence: show $v says so in one line, exit 4 (rc $rc)"
		sed 's/^/#   /' "$T/e" | head -5
	fi
done
"$RA" show "$T/none.rdma.tar.zst" perfquery -Q >/dev/null 2>&1
check_eq "show perfquery -Q: bad option, exit 4" "$?" 4

# hostile documents: every view on each, exit 0 or 4, never a sanitizer
# report, never a control character from the bundle on the terminal
python3 - "$T/hostile" <<'PY'
import json, os, sys
out = sys.argv[1]
def tree(name, mad=None, fabric=None, raw_fabric=None, raw_mad=None):
    d = os.path.join(out, name, "rdma-collect")
    os.makedirs(d + "/mad"); os.makedirs(d + "/fabric")
    if mad is not None: json.dump(mad, open(d + "/mad/mlx5_0.1.json", "w"))
    if raw_mad is not None: open(d + "/mad/mlx5_0.1.json", "w").write(raw_mad)
    if fabric is not None: json.dump(fabric, open(d + "/fabric/fabric.json", "w"))
    if raw_fabric is not None: open(d + "/fabric/fabric.json", "w").write(raw_fabric)
evil = "A\x01\x1b[2J%s%n" * 40
port = lambda n, **k: dict({"port": n, "guid": "0x00000000000000%02x" % (n % 256), "lid": n, "lmc": 7,
        "state": 4, "phys_state": 5, "width_active": 2, "width_supported": 255,
        "speed_active": 4, "speed_ext_active": 32, "speed_ext_supported": 63,
        "cap_mask": -1, "remote": {"guid": "0x0000000000000002", "port": 3},
        "pma": {"PortCounters": {"SymbolErrorCounter": 1e300, "PortXmitData": -5,
                "CounterSelect": "x", "PortXmitWait": 18446744073709551617},
                "PortCountersExtended": {"PortXmitData": [1], "CounterSelect2": {}},
                "ClassPortInfo": {"CapabilityMask": 65535, "CapabilityMask2": -1}}}, **k)
nodes = [
  {"guid": "0x0000000000000001", "type": 2, "desc": evil, "num_ports": 255, "lid": 65535,
   "pma": {"ClassPortInfo": {"CapabilityMask": "x", "CapabilityMask2": 1e300}},
   "dr_path": "0," * 300, "lft": [255, "x", -1, 3.5, None, [], 1e99] * 10000,
   "ports": [port(0), port(1), port(254), port(255), port(256), port(-1), "port", port(3), port(3)]},
  {"guid": "0x0000000000000002", "type": 2, "desc": "sw", "num_ports": 3, "lid": 2,
   "pma": [{"ClassPortInfo": 1}],
   "dr_path": "0,x", "lft": [0, 1, 2, 3, 4, 255],
   "ports": [port(0, lid=0), port(3, remote={"guid": "0x0000000000000001", "port": 255}),
             port(2, remote={"guid": "0xzz", "port": "a"}), port(1, state=1, remote=None)]},
  {"guid": "0x0000000000000002", "type": 1, "desc": "dup", "num_ports": 1, "ports": [port(1)]},
  {"guid": "0x0000000000000003", "type": 99, "desc": None, "num_ports": -4, "lid": "7",
   "ports": {"a": 1}, "lft": "no"},
  {"guid": "0x0000000000000004", "type": 1, "num_ports": 2, "dr_path": "0",
   "ports": [port(1, lid=0, lmc=0, remote={"guid": "0x0000000000000004", "port": 1})]},
  {"guid": 5}, [], None, "x",
]
fab = {"status": "partial", "reason": evil, "from": {"ibdev": 5, "port": 999}, "nodes": nodes}
mad = {"ibdev": "mlx5_0", "port": 1, "status": "ok", "errors": {"sminfo": evil},
       "local": {"portinfo": {"Lid": 1e10, "LMC": 9, "LinkState": "4", "CapMask": -7},
                 "nodeinfo": {"Guid": "0x0000000000000009", "NodeType": 1, "NumPorts": 300},
                 "node_desc": evil, "pma": [1, 2]},
       "sminfo": {"lid": -1, "SmInfoGuid": "0x123456789abcdef0123", "SmActivity": 1e20,
                  "SmState": 200, "SmPriority": "x"},
       "peer": {"nodeinfo": {"Guid": "0x0000000000000009", "NodeType": 2, "NumPorts": 2,
                             "LocalPort": 7}, "lid": 70000, "portinfo": [],
                "pma": {"PortCounters": "x"}}}
tree("evil", mad=mad, fabric=fab)
tree("types", mad={"local": 5, "sminfo": [], "peer": "x", "port": "1"},
     fabric={"nodes": {"a": 1}})
tree("arrays", mad=[], fabric=[])
tree("truncated", raw_mad='{"ibdev": "mlx5_0", "sminfo": {"lid": 1', raw_fabric='{"nodes": [{"guid": "0x1"')
tree("deep", raw_mad="[" * 5000, raw_fabric='{"nodes": ' + "[" * 5000)
PY
for k in "$T"/hostile/*; do
	n=$(basename "$k")
	"$RC" -q --root "$k" --only mad,fabric --fabric -o "$T/h-$n.rdma.tar.zst" \
		>/dev/null 2>&1 || fail "hostile $n: the tree collects"
	bad=
	for v in sminfo perfquery "perfquery -x" "perfquery 1 1" "perfquery -x 2 3" \
		 "perfquery 65535 255" iblinkinfo "iblinkinfo -l" "iblinkinfo -d" \
		 ibnetdiscover ibroute "ibroute 2" "ibroute -a 1" "ibroute -G 0x1" \
		 "ibroute 65535 0 70000" "ibroute -n 1 3 2"; do
		"$RA" show "$T/h-$n.rdma.tar.zst" $v >"$T/o" 2>"$T/e"
		rc=$?
		if { [ $rc -ne 0 ] && [ $rc -ne 4 ]; } ||
		   grep -q 'runtime error\|Sanitizer' "$T/e" ||
		   LC_ALL=C grep -q "$(printf '[\001-\010\016-\037]')" "$T/o" "$T/e"; then
			bad="$bad [$v: exit $rc]"
		fi
	done
	check_eq "hostile $n: every fabric view exits 0 or 4, cleanly" "$bad" ""
done

if ! fab_have; then
	skip "fabric views against the real tools" "missing: $FAB_MISSING"
	exit 0
fi

# the build under test has ASan; the shim is preloaded before it and
# libibnetdisc keeps a little memory on purpose
printf 'interceptor_via_lib:libumad2sim.so\n' >"$T/asan.supp"
printf 'leak:libibnetdisc.so\n' >"$T/lsan.supp"
export ASAN_OPTIONS="verify_asan_link_order=0:detect_leaks=1:suppressions=$T/asan.supp"
export LSAN_OPTIONS="suppressions=$T/lsan.supp"
export FAB_SOCK="rcviews$$"
trap fab_stop EXIT

# 2 spines, 3 leaves, 2 HCAs a leaf (11 nodes): node003 sits on leaf2 port 1
fab_fattree 2 3 2 >"$T/topo"
fab_start "$T/fab" "$T/topo" || { fail "ibsim starts"; exit 0; }
fab_sm_once node001 || fail "opensm --once assigns LIDs"
fab_sm_start node001 || fail "a resident opensm is master"
# error counters both views must show: on the peer switch port of
# node003 and on a spine port only the fabric scan reaches
fab_cmd 'PerformanceSet "leaf2"[1] PortCounters.SymbolErrorCounter=123' >/dev/null
fab_cmd 'PerformanceSet "leaf2"[1] PortCounters.PortXmitDiscards=7' >/dev/null
fab_cmd 'PerformanceSet "spine2"[2] PortCounters.LinkDownedCounter=3' >/dev/null
fab_cmd 'PerformanceSet "spine2"[2] PortCounters.PortRcvErrors=45' >/dev/null

B="$T/b.rdma.tar.zst"
fab_run node003 "$RC" -q --only mad,fabric --fabric -o "$B" >"$T/col.out" 2>&1
check "rdma-collect --fabric runs live under the shim" test -s "$B"
fab_run node003 "$RC" -q --only mad -o "$T/mad.rdma.tar.zst" >/dev/null 2>&1
fab_reap >/dev/null

# the LIDs to ask for, as the bundle holds them: the peer switch port, a
# spine port, every switch
tar --zstd -xOf "$B" rdma-collect/mad/ibsim0.1.json >"$T/mad.json" 2>/dev/null
tar --zstd -xOf "$B" rdma-collect/fabric/fabric.json >"$T/fabric.json" 2>/dev/null
lids=$(python3 -c '
import json, sys
mad = json.load(open(sys.argv[1]))
fab = json.load(open(sys.argv[2]))
p = mad["peer"]
sp = [n for n in fab["nodes"] if n["desc"].startswith("MF0;spine2")][0]
sw = " ".join(str(n["lid"]) for n in fab["nodes"] if n["type"] == 2)
print(p["lid"], p["nodeinfo"]["LocalPort"], sp["lid"], sw)' \
	"$T/mad.json" "$T/fabric.json")
set -- $lids
if [ $# -lt 4 ]; then
	fail "the bundle names the peer, a spine and the switches"
	exit 0
fi
ok "the bundle names the peer, a spine and the switches"
PEER_LID=$1 PEER_PORT=$2 SPINE_LID=$3
shift 3
SWITCHES=$*

# real NAME TOOL ARGS...: the tool at node003 into $T/real.NAME
real() {
	local n=$1
	shift
	fab_run node003 "$@" >"$T/real.$n" 2>"$T/real.$n.err"
}
real sminfo sminfo
real pq perfquery
real pqx perfquery -x
real pqpeer perfquery "$PEER_LID" "$PEER_PORT"
real pqxpeer perfquery -x "$PEER_LID" "$PEER_PORT"
real pqspine perfquery "$SPINE_LID" 2
real pqxspine perfquery -x "$SPINE_LID" 2
real iblinkinfo iblinkinfo
real ibnetdiscover ibnetdiscover
for l in $SWITCHES; do
	real "ibroute$l" ibroute "$l"
done
fab_reap >/dev/null

# mask: what may differ between two reads of a live fabric
mask() {
	sed -E -e 's/activity count [0-9]+/activity count N/' \
		-e 's/^(Port(Xmit|Rcv)(Data|Pkts):\.+)[0-9]+$/\1N/' \
		-e 's/^# Topology file: generated on .*/# Topology file: generated on D/'
}

# same NAME VIEW ARGS...: rdma-analyze show VIEW equals the tool's output
same() {
	local n=$1
	shift
	if "$RA" show "$B" "$@" >"$T/mine.$n" 2>"$T/mine.$n.err" &&
	   [ -s "$T/real.$n" ] &&
	   mask <"$T/real.$n" >"$T/real.$n.m" && mask <"$T/mine.$n" >"$T/mine.$n.m" &&
	   cmp -s "$T/real.$n.m" "$T/mine.$n.m"; then
		ok "show $* prints what the real $1 printed ($(wc -l <"$T/real.$n") lines)"
	else
		fail "show $* prints what the real $1 printed"
		diff "$T/real.$n.m" "$T/mine.$n.m" | head -20 | sed 's/^/#   /'
		sed 's/^/#   stderr: /' "$T/mine.$n.err" | head -5
	fi
}
same sminfo sminfo
same pq perfquery
same pqx perfquery -x
same pqpeer perfquery "$PEER_LID" "$PEER_PORT"
same pqxpeer perfquery -x "$PEER_LID" "$PEER_PORT"
same pqspine perfquery "$SPINE_LID" 2
same pqxspine perfquery -x "$SPINE_LID" 2
same iblinkinfo iblinkinfo
same ibnetdiscover ibnetdiscover
for l in $SWITCHES; do
	same "ibroute$l" ibroute "$l"
done
check "the injected SymbolErrorCounter is on the peer port" \
	grep -qx 'SymbolErrorCounter:..............123' "$T/mine.pqpeer"
check "the injected PortRcvErrors is on the spine port" \
	grep -qx 'PortRcvErrors:...................45' "$T/mine.pqspine"

# without --fabric: iblinkinfo prints node003's link from both ends, each
# line as the real iblinkinfo printed it
"$RA" show "$T/mad.rdma.tar.zst" iblinkinfo >"$T/mine.madlink" 2>&1
check_eq "mad only: iblinkinfo prints the CA and the switch port (4 lines)" \
	"$(wc -l <"$T/mine.madlink")" 4
check "mad only: every line is a line of the real iblinkinfo" \
	sh -c "grep -vxFf '$T/real.iblinkinfo' '$T/mine.madlink' | { ! grep -q .; }"
"$RA" show "$T/mad.rdma.tar.zst" ibnetdiscover >/dev/null 2>"$T/e"
check_eq "mad only: ibnetdiscover needs the scan, exit 4" "$?" 4
