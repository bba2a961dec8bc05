# the mad source: without a fabric (absent, libraries missing, --root),
# then live on a simulated fabric (tests/ibsim/fabric.sh) at node003, whose
# cable enters leaf1 port 3: what it records must agree with smpquery,
# sminfo and perfquery run under the same shim at the same node, and the
# faults (no SM, packet loss, cable unlinked) must end partial, in time,
# with the failed MADs named
cd "$T" || exit 1

# mad_doc BUNDLE EXPR: a Python expression on the port document d
# (rdma-collect/mad/ibsim0.1.json) and the manifest entry s
mad_doc() {
	tar --zstd -xOf "$1" rdma-collect/mad/ibsim0.1.json >"$T/.doc.json" 2>/dev/null
	manifest "$1" | python3 -c '
import json, sys
m = json.load(sys.stdin)
s = [x for x in m["sources"] if x["name"] == "mad"][0]
try:
    d = json.load(open(sys.argv[1]))
except (OSError, ValueError):
    d = None
print(eval(sys.argv[2]))' "$T/.doc.json" "$2"
}

# --- without a fabric ---

# this machine: no InfiniBand port (unless it has one)
mkdir live
"$RC" -q --only identity,mad -o live >out.txt 2>err.txt
check_eq "live run without a fabric exits 0" "$?" 0
check_eq "nothing on stderr" "$(cat err.txt)" ""
b=$(cat out.txt)
if ! grep -qs InfiniBand /sys/class/infiniband/*/ports/*/link_layer; then
	check_eq "no IB port here: mad absent" "$(src_status "$b" mad)" absent
	check_eq "reason: no InfiniBand port" "$(mad_doc "$b" 's["reason"]')" \
		"no InfiniBand port"
	check_eq "libibumad and libibmad noted ok" \
		"$(mad_doc "$b" 's["notes"]["libibumad"], s["notes"]["libibmad"], s["notes"]["ports"]')" \
		"('ok', 'ok', '0')"
else
	skip "mad absent on this machine" "it has InfiniBand ports"
fi

# a library that cannot be loaded: absent, with the loader's message
mkdir nolib
RDMA_COLLECT_LIBIBMAD=/nonexistent/libibmad.so.5 \
	"$RC" -q --only identity,mad -o nolib >out.txt 2>err.txt
check_eq "run without libibmad exits 0" "$?" 0
b=$(cat out.txt)
check_eq "without libibmad: mad absent" "$(src_status "$b" mad)" absent
check_eq "without libibmad: note and reason name it" \
	"$(mad_doc "$b" 's["notes"]["libibmad"].startswith("absent: /nonexistent/libibmad.so.5"), s["reason"].startswith("libibmad cannot be loaded")')" \
	"(True, True)"

# --mad-timeout: milliseconds, 1-60000
"$RC" --mad-timeout 0 -o . >out.txt 2>err.txt
check_eq "--mad-timeout 0 is a usage error" "$?" 2
check_eq "--mad-timeout 0: one clear line" "$(head -1 err.txt)" \
	"rdma-collect: invalid --mad-timeout '0' (1-60000 ms)"
"$RC" --mad-timeout 60001 -o . >/dev/null 2>&1
check_eq "--mad-timeout 60001 is a usage error" "$?" 2

# --root: a RoCE node has no IB port; stored documents are copied as they are
mknode roce-pfc roce
mkdir rocebundle
"$RC" -q --root roce --only identity,mad -o rocebundle >out.txt 2>err.txt
b=$(cat out.txt)
check_eq "RoCE node: mad absent" "$(src_status "$b" mad)" absent
check_eq "RoCE node: reason" "$(mad_doc "$b" 's["reason"]')" "no InfiniBand port"
mkdir -p stored/proc/sys/kernel stored/rdma-collect/mad storedbundle
echo node9 >stored/proc/sys/kernel/hostname
printf '{ "ibdev": "mlx5_0", "port": 1, "status": "partial", "errors": { "sminfo": "timeout" } }\n' \
	>stored/rdma-collect/mad/mlx5_0.1.json
RDMA_COLLECT_LIBIBUMAD=/nonexistent/x.so \
	"$RC" -q --root stored --only identity,mad -o storedbundle >out.txt 2>err.txt
b=$(cat out.txt)
check_eq "--root: stored document copied unchanged" \
	"$(tar --zstd -xOf "$b" rdma-collect/mad/mlx5_0.1.json | cksum)" \
	"$(cksum <stored/rdma-collect/mad/mlx5_0.1.json)"
check_eq "--root: a stored partial port keeps the source partial" \
	"$(src_status "$b" mad)" partial

# --- on a simulated fabric ---

. "$TOP/tests/ibsim/fabric.sh"
if ! fab_have; then
	skip "mad on a simulated fabric" "not installed: $FAB_MISSING"
	return 0 2>/dev/null || exit 0
fi
# the shim is preloaded into a sanitized collector: ASan must not insist on
# coming first, and the shim's own interceptor is not ours to fix
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:suppressions=$TOP/tests/ibsim/asan-umad2sim.supp"
FAB_SOCK=rcmad$$x$RANDOM
trap fab_stop EXIT
fab_fattree 2 2 3 >fat.topo
if ! fab_start "$T/fab" fat.topo || ! fab_sm_once node001; then
	fail "simulated fabric comes up"
	return 0 2>/dev/null || exit 0
fi

# collect RUN [OPTIONS]: the collector at node003; the bundle in $T/RUN,
# its path in $b, the wall time in ms in $ms
collect_at() {
	local run=$1 t0
	shift
	mkdir -p "$T/$run"
	t0=$(date +%s%N)
	b=$(fab_run node003 "$RC" -q --only identity,mad -o "$T/$run" "$@" 2>"$T/$run.err")
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
}

# cmp.py KIND JSONFILE EXPR TOOLFILE: compare a JSON object with a tool's
# "Name:.....value" lines; prints "compared N" and one line per mismatch.
# smpquery prints enums and bit masks decoded: they are encoded back here.
# Traffic counters grow with every MAD, the collector's must be <= the
# tool's (which ran later).
cat >cmp.py <<'EOF'
import json, re, sys
W = {"1X": 1, "4X": 2, "8X": 4, "12X": 8, "2X": 16}
S = {"2.5 Gbps": 1, "5.0 Gbps": 2, "10.0 Gbps": 4}
SX = {"14.0625 Gbps": 1, "25.78125 Gbps": 2, "53.125 Gbps": 4, "106.25 Gbps": 8}
PST = {"Sleep": 1, "Polling": 2, "Disabled": 3, "PortConfigurationTraining": 4,
       "LinkUp": 5, "LinkErrorRecovery": 6, "PhyTest": 7}
MTU = {"256": 1, "512": 2, "1024": 3, "2048": 4, "4096": 5}
VL = {"VL0": 1, "VL0-1": 2, "VL0-3": 3, "VL0-7": 4, "VL0-14": 5}
ENUM = {"LinkState": {"Down": 1, "Initialize": 2, "Armed": 3, "Active": 4},
        "PhysLinkState": PST, "LinkDownDefState": PST, "NeighborMTU": MTU,
        "MtuCap": MTU, "VLCap": VL, "OperVLs": VL,
        "NodeType": {"Channel Adapter": 1, "Switch": 2, "Router": 3}}
MASK = {"LinkWidthEnabled": W, "LinkWidthSupported": W, "LinkWidthActive": W,
        "LinkSpeedSupported": S, "LinkSpeedActive": S, "LinkSpeedEnabled": S,
        "LinkSpeedExtActive": SX, "LinkSpeedExtSupported": SX,
        "LinkSpeedExtEnabled": SX}
GROWS = {"PortXmitData", "PortRcvData", "PortXmitPkts", "PortRcvPkts",
         "PortUnicastXmitPkts", "PortUnicastRcvPkts"}

def value(name, v):
    if name in ENUM:
        return ENUM[name].get(v)
    if name in MASK and not re.fullmatch(r"\d+", v):
        bits = 0
        for t in v.split(" or "):
            if t not in MASK[name]:
                return None
            bits |= MASK[name][t]
        return bits
    if re.fullmatch(r"0x[0-9a-fA-F]+", v):
        return int(v, 16)
    if re.fullmatch(r"\d+", v):
        return int(v)
    return None

d = json.load(open(sys.argv[1]))
obj = eval(sys.argv[2])
n = 0
for line in open(sys.argv[3]):
    m = re.match(r"^(\w+):\.+(.*)$", line.rstrip("\n"))
    if not m or m.group(1) not in obj:
        continue
    name, want = m.group(1), value(m.group(1), m.group(2).strip())
    if want is None:
        continue
    got = obj[name]
    if isinstance(got, str):
        got = int(got, 16)
    n += 1
    if name in GROWS and sys.argv[4:] == ["grows"]:
        if not got <= want:
            print("MISMATCH %s: collector %s > tool %s" % (name, got, want))
    elif got != want:
        print("MISMATCH %s: collector %s, tool %s" % (name, got, want))
print("compared", n)
EOF

# same_as WHAT EXPR MIN TOOLFILE [grows]: at least MIN fields compared, none differs
same_as() {
	local r
	r=$(python3 cmp.py "$T/doc.json" "$2" "$4" $5 2>&1)
	if [ "$(echo "$r" | grep -c MISMATCH)" -eq 0 ] &&
	   [ "$(echo "$r" | sed -n 's/^compared //p')" -ge "$3" ] 2>/dev/null; then
		ok "$1 ($(echo "$r" | tail -1) fields)"
	else
		fail "$1"
		echo "$r" | sed 's/^/#   /' | head -20
	fi
}

# 1. no resident SM (opensm ran once and left): SMInfo goes unanswered
collect_at nosm --deadline 10
check_eq "no SM: exits 0" "$rc" 0
check_eq "no SM: mad partial" "$(src_status "$b" mad)" partial
check_eq "no SM: sminfo absent, its error named" \
	"$(mad_doc "$b" '"sminfo" in d, d["errors"].get("sminfo")')" "(False, 'timeout')"
check_eq "no SM: the rest was read" \
	"$(mad_doc "$b" 'sorted(d["errors"]), d["local"]["portinfo"]["LinkState"], d["peer"]["node_desc"]')" \
	"(['sminfo'], 4, 'MF0;leaf1:MQM9700/U1')"
check "no SM: done well within the deadline ($ms ms)" test "$ms" -lt 10000
if FAB_TIMEOUT=10 fab_run node003 sminfo >/dev/null 2>&1; then
	fail "no SM: the real sminfo fails too"
else
	ok "no SM: the real sminfo fails too"
fi

# 2. a resident SM and counters set on both ends of node003's cable
fab_sm_start node001 || fail "resident SM becomes master"
fab_cmd 'PerformanceSet "leaf1"[3] PortCounters.SymbolErrorCounter=77' >/dev/null
fab_cmd 'PerformanceSet "leaf1"[3] PortCounters.PortXmitDiscards=12' >/dev/null
fab_cmd 'PerformanceSet "leaf1"[3] PortCounters.LinkDownedCounter=3' >/dev/null
fab_cmd 'PerformanceSet "leaf1"[3] PortCounters.PortXmitWait=345' >/dev/null
fab_cmd 'PerformanceSet "node003"[1] PortCounters.PortRcvErrors=5' >/dev/null
collect_at good
check_eq "healthy fabric: exits 0" "$rc" 0
check_eq "healthy fabric: mad ok, no errors" \
	"$(mad_doc "$b" 's["status"], d["status"], d["errors"], s["notes"]["ports"]')" \
	"('ok', 'ok', {}, '1')"
check_eq "nothing on stderr" "$(cat "$T/good.err")" ""
tar --zstd -xOf "$b" rdma-collect/mad/ibsim0.1.json >doc.json
plid=$(python3 -c 'import json; print(json.load(open("doc.json"))["peer"]["lid"])')
pport=$(python3 -c 'import json; print(json.load(open("doc.json"))["peer"]["nodeinfo"]["LocalPort"])')
check_eq "peer: the cable enters leaf1 port 3" "$pport" 3

fab_run node003 smpquery -D portinfo 0 1 >t.lpi 2>&1
fab_run node003 smpquery -D nodeinfo 0 >t.lni 2>&1
fab_run node003 smpquery -D nodedesc 0 >t.lnd 2>&1
fab_run node003 smpquery -D nodeinfo 0,1 >t.pni 2>&1
fab_run node003 smpquery -D nodedesc 0,1 >t.pnd 2>&1
fab_run node003 smpquery -D portinfo 0,1 "$pport" >t.ppi 2>&1
fab_run node003 smpquery -D portinfo 0,1 0 >t.ppi0 2>&1
fab_run node003 sminfo >t.sm 2>&1
fab_run node003 perfquery >t.lpc 2>&1
fab_run node003 perfquery -x >t.lpcx 2>&1
fab_run node003 perfquery "$plid" "$pport" >t.ppc 2>&1
fab_run node003 perfquery -x "$plid" "$pport" >t.ppcx 2>&1

same_as "local PortInfo = smpquery portinfo" 'd["local"]["portinfo"]' 45 t.lpi
same_as "local NodeInfo = smpquery nodeinfo" 'd["local"]["nodeinfo"]' 12 t.lni
same_as "peer NodeInfo = smpquery nodeinfo 0,1" 'd["peer"]["nodeinfo"]' 12 t.pni
same_as "peer PortInfo = smpquery portinfo 0,1 $pport" 'd["peer"]["portinfo"]' 45 t.ppi
same_as "peer LID = smpquery portinfo 0,1 0" '{"Lid": d["peer"]["lid"]}' 1 t.ppi0
same_as "local PortCounters = perfquery" 'd["local"]["pma"]["PortCounters"]' 20 t.lpc grows
same_as "local PortCountersExtended = perfquery -x" 'd["local"]["pma"]["PortCountersExtended"]' 10 t.lpcx grows
same_as "peer PortCounters = perfquery LID PORT" 'd["peer"]["pma"]["PortCounters"]' 20 t.ppc grows
same_as "peer PortCountersExtended = perfquery -x LID PORT" 'd["peer"]["pma"]["PortCountersExtended"]' 10 t.ppcx grows
# capmask FILE: "CapMask [CapMask2]" of perfquery's header, as it printed them
capmask() {
	sed -n 's/^# Port .*counters: .*(CapMask: \(0x[0-9A-F]*\)\( CapMask2: \(0x[0-9A-F]*\)\)\{0,1\})$/\1 \3/p' "$1" |
		sed 's/ $//'
}
for end in local:lpc peer:ppc; do
	check_eq "${end%%:*} PMA ClassPortInfo = perfquery's CapMask" \
		"$(mad_doc "$b" '"0x%02X" % d["'"${end%%:*}"'"]["pma"]["ClassPortInfo"]["CapabilityMask"]')" \
		"$(capmask "t.${end#*:}")"
	check_eq "${end%%:*} PMA ClassPortInfo = perfquery -x's CapMask and CapMask2" \
		"$(mad_doc "$b" '"0x%02X 0x%07X" % (d["'"${end%%:*}"'"]["pma"]["ClassPortInfo"]["CapabilityMask"], d["'"${end%%:*}"'"]["pma"]["ClassPortInfo"]["CapabilityMask2"])')" \
		"$(capmask "t.${end#*:}x")"
done
check_eq "local node_desc = smpquery nodedesc" \
	"$(mad_doc "$b" 'd["local"]["node_desc"]')" "$(sed -n 's/^Node Description:\.*//p' t.lnd)"
check_eq "peer node_desc = smpquery nodedesc 0,1" \
	"$(mad_doc "$b" 'd["peer"]["node_desc"]')" "$(sed -n 's/^Node Description:\.*//p' t.pnd)"
check_eq "the counters set on leaf1[3] and node003[1]" \
	"$(mad_doc "$b" '[d["peer"]["pma"]["PortCounters"][k] for k in ("SymbolErrorCounter", "PortXmitDiscards", "LinkDownedCounter", "PortXmitWait")], d["local"]["pma"]["PortCounters"]["PortRcvErrors"]')" \
	"([77, 12, 3, 345], 5)"
check "counters not cleared: perfquery still reads them after" \
	grep -q '^SymbolErrorCounter:\.*77$' t.ppc
# sminfo: sm lid 1 sm guid 0x..., activity count 12 priority 0 state 3 SMINFO_MASTER
sm=$(sed -n 's/^sminfo: sm lid \([0-9]*\) sm guid \(0x[0-9a-f]*\), activity count \([0-9]*\) priority \([0-9]*\) state \([0-9]*\).*/\1 \2 \4 \5/p' t.sm)
check_eq "sminfo = the sminfo tool (lid, guid, priority, state)" \
	"$(mad_doc "$b" '"%d %s %d %d" % (d["sminfo"]["lid"], d["sminfo"]["SmInfoGuid"], d["sminfo"]["SmPriority"], d["sminfo"]["SmState"])')" \
	"${sm:-sminfo printed nothing}"
act=$(sed -n 's/.*activity count \([0-9]*\).*/\1/p' t.sm)
check "SmActivity not ahead of the later sminfo" \
	test "$(mad_doc "$b" 'd["sminfo"]["SmActivity"]')" -le "${act:-0}"

# --redact: the node descriptions (this host's and the switch's) name
# machines; each becomes a pseudonym, and nothing else in the document moves
collect_at redacted --redact --redact-key "$T/mad.key"
check_eq "--redact: exits 0" "$rc" 0
check_eq "--redact: both node descriptions are pseudonyms" \
	"$(mad_doc "$b" 'd["local"]["node_desc"].startswith("nodedesc-"), d["peer"]["node_desc"].startswith("nodedesc-")')" \
	"(True, True)"
check "--redact: no host or switch name left in the mad document" sh -c \
	"tar --zstd -xOf '$b' --wildcards 'rdma-collect/mad/*' | { ! grep -Eq 'node0[0-9][0-9]|leaf[0-9]|spine[0-9]'; }"

# 3. packet loss where the cable enters leaf1: the local port still answers
fab_cmd 'Error "leaf1"[3] 100' >/dev/null
collect_at loss --deadline 10 --mad-timeout 50
check_eq "packet loss: exits 0" "$rc" 0
check_eq "packet loss: mad partial" "$(src_status "$b" mad)" partial
check_eq "packet loss: the unanswered MADs named" \
	"$(mad_doc "$b" 'd["errors"]')" "{'sminfo': 'timeout', 'peer.nodeinfo': 'timeout'}"
check_eq "packet loss: local evidence kept, no peer" \
	"$(mad_doc "$b" 'd["local"]["portinfo"]["Lid"] > 0, "PortCounters" in d["local"]["pma"], "peer" in d')" \
	"(True, True, False)"
check_eq "packet loss: the manifest's reason names them" \
	"$(mad_doc "$b" 's["reason"]')" \
	"0 of 1 ports complete: ibsim0.1: sminfo (timeout), peer.nodeinfo (timeout)"
check "packet loss: done within the deadline ($ms ms)" test "$ms" -lt 10000
fab_cmd 'Error "leaf1"[3] 0' >/dev/null

# 4. the cable unlinked: the port is down, nothing beyond it is asked
fab_cmd 'Unlink "leaf1"[3]' >/dev/null
collect_at unlinked --deadline 10
check_eq "unlinked: exits 0" "$rc" 0
check_eq "unlinked: mad partial" "$(src_status "$b" mad)" partial
check_eq "unlinked: errors say the link is down" \
	"$(mad_doc "$b" 'sorted(d["errors"]), d["errors"]["peer"]')" \
	"(['local.pma', 'peer', 'sminfo'], 'link down (LinkState 1, PhysLinkState 2)')"
fab_run node003 smpquery -D portinfo 0 1 >t.down 2>&1
tar --zstd -xOf "$b" rdma-collect/mad/ibsim0.1.json >doc.json
same_as "unlinked: local PortInfo = smpquery portinfo" 'd["local"]["portinfo"]' 45 t.down
check "unlinked: done within the deadline ($ms ms)" test "$ms" -lt 10000
