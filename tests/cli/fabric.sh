# rdma-collect --fabric: the whole-subnet scan, live on a simulated fabric
# (ibsim, tests/ibsim/fabric.sh), compared with what ibnetdiscover, ibroute
# and perfquery print under the same shim; then faults: an unlinked cable, a
# 1X link, injected counters, packet loss, a budget too small, a size cap.
. "$TOP/tests/ibsim/fabric.sh"
CMP="python3 $TOP/tests/ibsim/fabric-cmp.py"

# --- what needs no fabric ---

"$RC" --fabric-timeout 0 -o "$T" >/dev/null 2>"$T/e1"
check_eq "--fabric-timeout 0 is a usage error" "$?" 2
"$RC" --fabric-timeout 1.2345 -o "$T" >/dev/null 2>"$T/e2"
check_eq "--fabric-timeout with four decimals is a usage error" "$?" 2
"$RC" --fabric-port :1 -o "$T" >/dev/null 2>"$T/e3"
check_eq "--fabric-port without a device is a usage error" "$?" 2
"$RC" --fabric-port mlx5_0:0 -o "$T" >/dev/null 2>"$T/e4"
check_eq "--fabric-port with port 0 is a usage error" "$?" 2
check "the usage error names the option" grep -q "invalid --fabric-port ':1'" "$T/e3"

"$RC" -q --only fabric -o "$T/off.rdma.tar.zst" >/dev/null 2>&1
check_eq "without --fabric the source is absent" \
	"$(src_status "$T/off.rdma.tar.zst" fabric)" absent
check "... and says how to enable it" sh -c \
	"tar --zstd -xOf '$T/off.rdma.tar.zst' manifest.json | grep -q 'enable with --fabric'"

if [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
	"$RC" -q --fabric --only fabric -o "$T/nodev.rdma.tar.zst" >/dev/null 2>&1
	check_eq "--fabric on a node without RDMA devices: absent" \
		"$(src_status "$T/nodev.rdma.tar.zst" fabric)" absent
	check "... with the reason" sh -c \
		"tar --zstd -xOf '$T/nodev.rdma.tar.zst' manifest.json | grep -q 'no active InfiniBand port to scan from'"
fi

mkdir -p "$T/emptyroot"
"$RC" -q --root "$T/emptyroot" --only fabric -o "$T/noroot.rdma.tar.zst" >/dev/null 2>&1
check_eq "--root without a stored scan: absent" \
	"$(src_status "$T/noroot.rdma.tar.zst" fabric)" absent

if ! fab_have; then
	skip "fabric scan on ibsim" "missing: $FAB_MISSING"
	exit 0
fi

# the collector is built with ASan; the shim is preloaded before it
export ASAN_OPTIONS="verify_asan_link_order=0:detect_leaks=1:suppressions=$TOP/tests/ibsim/asan-umad2sim.supp"
export LSAN_OPTIONS="suppressions=$TOP/tests/ibsim/lsan-ibnetdisc.supp"

# scan NAME [OPTION...]: rdma-collect --fabric at node001 into
# $T/NAME.rdma.tar.zst, its fabric.json into $T/NAME.json
scan() {
	local n=$1 rc
	shift
	fab_run node001 "$RC" -q --only fabric -o "$T/$n.rdma.tar.zst" "$@" \
		>"$T/$n.out" 2>"$T/$n.err"
	rc=$?
	fab_reap >/dev/null	# the source's process ends with _exit
	tar --zstd -xOf "$T/$n.rdma.tar.zst" rdma-collect/fabric/fabric.json \
		>"$T/$n.json" 2>/dev/null
	return $rc
}
# jget NAME EXPR: a Python expression over the document d
jget() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$T/$1.json" "$2"
}

# 2 spines, 3 leaves, 4 HCAs a leaf: 17 nodes; node006's cable is 1X
fab_fattree 2 3 4 | sed '/^\[2\] "node006"\[1\]$/s/$/ w=1/' >"$T/fat.topo"
FAB_SOCK=rcfab$$
if ! fab_start "$T/fab" "$T/fat.topo"; then
	fail "ibsim starts"
	exit 0
fi
trap 'fab_stop' EXIT
check "opensm sweeps once" fab_sm_once node001

# --- a clean fabric, compared with the real tools ---

check "rdma-collect --fabric exits 0" scan clean --fabric
check_eq "clean fabric: status ok" "$(jget clean 'd["status"]')" ok
check_eq "clean fabric: no errors" "$(jget clean 'd["errors"]')" "[]"
check_eq "clean fabric: source ok in the manifest" \
	"$(src_status "$T/clean.rdma.tar.zst" fabric)" ok
check_eq "from the port the shim offers" \
	"$(jget clean 'd["from"]["ibdev"], d["from"]["port"]')" "('ibsim0', 1)"
check_eq "17 nodes, 5 switches, 18 links" "$($CMP count "$T/clean.json")" \
	"17 5 18"
check "the collector printed nothing" test ! -s "$T/clean.err"
check_eq "clean fabric: each node's PMA ClassPortInfo, once a node" \
	"$(jget clean 'sum(1 for n in d["nodes"] if "CapabilityMask" in n.get("pma", {}).get("ClassPortInfo", {})), sum(1 for n in d["nodes"] for p in n["ports"] if "ClassPortInfo" in p.get("pma", {}))')" \
	"(17, 0)"

fab_run node001 ibnetdiscover >"$T/ibnd.out" 2>/dev/null
fab_run node001 ibnetdiscover -p >"$T/ibnd-p.out" 2>/dev/null
check "every node as ibnetdiscover: GUID, type, ports, description, ids" \
	$CMP nodes "$T/clean.json" "$T/ibnd.out"
check "every link both ends as ibnetdiscover -p: LIDs, ports, GUIDs, width, speed" \
	$CMP links "$T/clean.json" "$T/ibnd-p.out"
# the comparisons can fail: one description, one width changed
sed 's/^\(Ca.*# "node007\) mlx5_0"/\1 mlx5_9"/' "$T/ibnd.out" >"$T/ibnd.bad"
sed 's/^\(CA .* 0xb8cef60300d0000d\) 4x /\1 1x /' "$T/ibnd-p.out" >"$T/ibnd-p.bad"
check_eq "one line changed in each" \
	"$(diff "$T/ibnd.out" "$T/ibnd.bad" | grep -c '^>') $(diff "$T/ibnd-p.out" "$T/ibnd-p.bad" | grep -c '^>')" \
	"1 1"
check "the node comparison sees a changed description" \
	sh -c "! $CMP nodes '$T/clean.json' '$T/ibnd.bad'"
check "the link comparison sees a changed width" \
	sh -c "! $CMP links '$T/clean.json' '$T/ibnd-p.bad'"
check_eq "the 1X cable: 1X at both ends" \
	"$(jget clean '[p["width_active"] for n in d["nodes"] for p in n["ports"] if n["desc"] in ("node006 mlx5_0", "MF0;leaf2:MQM9700/U1") and p["port"] == (2 if n["type"] == 2 else 1)]')" \
	"[1, 1]"
$CMP switches "$T/clean.json" >"$T/switches"
while read -r guid lid; do
	fab_run node001 ibroute "$lid" >"$T/ibroute.$lid" 2>/dev/null
	check "every LFT entry of switch LID $lid as ibroute" \
		$CMP lft "$T/clean.json" "$guid" "$T/ibroute.$lid"
done <"$T/switches"
check_eq "5 switches' LFTs compared" "$(wc -l <"$T/switches")" 5

# --- faults: counters, an unlinked cable ---

leaf2=0x7cfe900300c00003 spine1=0x7cfe900300c00000 node005=0xb8cef60300d00008
fab_cmd 'PerformanceSet "leaf2"[5] PortCounters.SymbolErrorCounter=123' >/dev/null
fab_cmd 'PerformanceSet "leaf2"[5] PortCounters.PortXmitDiscards=45' >/dev/null
fab_cmd 'PerformanceSet "leaf2"[5] PortCounters.PortXmitWait=6789' >/dev/null
fab_cmd 'PerformanceSet "leaf2"[5] PortCounters.LinkDownedCounter=3' >/dev/null
fab_cmd 'PerformanceSet "node005"[1] PortCounters.PortRcvErrors=77' >/dev/null
fab_cmd 'PerformanceSet "spine1"[2] PortCounters.LinkErrorRecoveryCounter=9' >/dev/null
fab_cmd 'PerformanceSet "spine1"[2] PortCountersExtended.PortUnicastXmitPkts=424242' >/dev/null
fab_cmd 'Unlink "leaf3"[4]' >/dev/null
check "a scan after the faults exits 0" scan faults --fabric
check_eq "faults: status ok (every node that is left answered)" \
	"$(jget faults 'd["status"]')" ok
l2lid=$($CMP port "$T/faults.json" $leaf2 5 lid)
s1lid=$($CMP port "$T/faults.json" $spine1 2 lid)
n5lid=$($CMP port "$T/faults.json" $node005 1 lid)
fab_run node001 perfquery "$l2lid" 5 >"$T/pq.l2" 2>/dev/null
fab_run node001 perfquery -x "$l2lid" 5 >"$T/pqx.l2" 2>/dev/null
fab_run node001 perfquery "$n5lid" 1 >"$T/pq.n5" 2>/dev/null
fab_run node001 perfquery "$s1lid" 2 >"$T/pq.s1" 2>/dev/null
fab_run node001 perfquery -x "$s1lid" 2 >"$T/pqx.s1" 2>/dev/null
# the counters, and CapMask (CapMask2) of perfquery's header as the node's
# ClassPortInfo
check "leaf2 port 5: every counter as perfquery and perfquery -x" \
	$CMP pma "$T/faults.json" $leaf2 5 "$T/pq.l2" "$T/pqx.l2"
check "node005 port 1: every counter as perfquery" \
	$CMP pma "$T/faults.json" $node005 1 "$T/pq.n5"
check "spine1 port 2: every counter as perfquery and perfquery -x" \
	$CMP pma "$T/faults.json" $spine1 2 "$T/pq.s1" "$T/pqx.s1"
check_eq "injected SymbolErrorCounter, PortXmitDiscards, PortXmitWait, LinkDownedCounter" \
	"$($CMP port "$T/faults.json" $leaf2 5 pma.PortCounters | python3 -c '
import json, sys; c = json.load(sys.stdin)
print(c["SymbolErrorCounter"], c["PortXmitDiscards"], c["PortXmitWait"], c["LinkDownedCounter"])')" \
	"123 45 6789 3"
check_eq "injected PortUnicastXmitPkts (extended)" \
	"$($CMP port "$T/faults.json" $spine1 2 pma.PortCountersExtended.PortUnicastXmitPkts)" \
	424242
check_eq "the unlinked cable: no remote, port Down/Polling" \
	"$($CMP port "$T/faults.json" 0x7cfe900300c00004 4 remote) $($CMP port "$T/faults.json" 0x7cfe900300c00004 4 state) $($CMP port "$T/faults.json" 0x7cfe900300c00004 4 phys_state)" \
	"null 1 2"
check_eq "... and no counters read on it" \
	"$($CMP port "$T/faults.json" 0x7cfe900300c00004 4 pma)" null
check_eq "the HCA behind it is gone: 16 nodes, 17 links" \
	"$($CMP count "$T/faults.json")" "16 5 17"
fab_run node001 ibnetdiscover >"$T/ibnd2.out" 2>/dev/null
fab_run node001 ibnetdiscover -p >"$T/ibnd2-p.out" 2>/dev/null
check "after the faults: every node as ibnetdiscover" \
	$CMP nodes "$T/faults.json" "$T/ibnd2.out"
check "after the faults: every link as ibnetdiscover -p" \
	$CMP links "$T/faults.json" "$T/ibnd2-p.out"
fab_cmd 'ReLink "leaf3"[4]' >/dev/null

# --- packet loss: 30% of what enters leaf2 port 5 is dropped ---

fab_cmd 'Error "leaf2"[5] 30' >/dev/null
check "a scan with packet loss exits 0" scan loss --fabric
fab_cmd 'Error "leaf2"[5] 0' >/dev/null
check_eq "packet loss: status partial" "$(jget loss 'd["status"]')" partial
check_eq "... the source partial in the manifest" \
	"$(src_status "$T/loss.rdma.tar.zst" fabric)" partial
check "... the lost MADs listed" test "$(jget loss 'len(d["errors"])')" -gt 0
check_eq "... each error names what was lost" \
	"$(jget loss 'all(e.startswith(("discovery: ", "node 0x")) for e in d["errors"])')" True
check "... what was found is kept" test "$(jget loss 'len(d["nodes"])')" -gt 1
check_eq "... the reason says why" \
	"$(jget loss 'd["reason"].startswith(("discovery lost ", "time budget")) or "PortCounters" in " ".join(d["errors"]) or "LinearForwardingTable" in " ".join(d["errors"])')" True

# --- budgets and caps ---

check "a 1 ms budget exits 0" scan tiny --fabric-timeout 0.001
check_eq "1 ms budget: partial, the walk abandoned" \
	"$(jget tiny 'd["status"], d["reason"], len(d["nodes"])')" \
	"('partial', 'time budget of 0.001 s ran out during discovery', 0)"
check_eq "... the manifest says the same" \
	"$(src_status "$T/tiny.rdma.tar.zst" fabric)" partial
check "a 0.3 s budget exits 0" scan short --fabric-timeout 0.3
check_eq "0.3 s budget: no MAD whose 500 ms timeout does not fit" \
	"$(jget short 'd["status"], d["reason"].startswith("time budget of 0.3 s ran out"), sum(1 for n in d["nodes"] for p in n["ports"] if "pma" in p), sum(1 for n in d["nodes"] if "pma" in n)')" \
	"('partial', True, 0, 0)"
check "a size-capped scan exits 0" scan capped --fabric --max-bundle 20k
check_eq "size cap: partial, some nodes written" \
	"$(jget capped 'd["status"], d["reason"].startswith("size cap of 20480 bytes: "), 0 < len(d["nodes"]) < 17')" \
	"('partial', True, True)"

# --- the port to scan from ---

check "--fabric-port ibsim0:1 exits 0" scan named --fabric-port ibsim0:1
check_eq "--fabric-port ibsim0:1 scans from it" \
	"$(jget named 'd["status"], d["from"]["ibdev"], d["from"]["port"], len(d["nodes"])')" \
	"('ok', 'ibsim0', 1, 17)"
scan nosuch --fabric-port mlx9_9
check_eq "--fabric-port of a device that is not there: absent" \
	"$(src_status "$T/nosuch.rdma.tar.zst" fabric)" absent
check "... and no document" test ! -s "$T/nosuch.json"

# --- --redact: the subnet's node descriptions name hosts ---

check "a redacted scan exits 0" scan redacted --fabric --redact-key "$T/key"
check_eq "--redact: every description a pseudonym, each its own" \
	"$(jget redacted 'sum(n["desc"].startswith("nodedesc-") for n in d["nodes"]), len(set(n["desc"] for n in d["nodes"]))')" \
	"(17, 17)"
check "--redact: no host or switch name left" sh -c \
	"! grep -Eq 'node0[0-9][0-9]|leaf[0-9]|spine[0-9]' '$T/redacted.json'"
check_eq "--redact: the links still line up" "$($CMP count "$T/redacted.json")" \
	"17 5 18"

# --- the stored scan under --root ---

mkdir -p "$T/unpacked"
tar --zstd -xf "$T/clean.rdma.tar.zst" -C "$T/unpacked"
"$RC" -q --root "$T/unpacked" --only fabric -o "$T/again.rdma.tar.zst" >/dev/null 2>&1
tar --zstd -xOf "$T/again.rdma.tar.zst" rdma-collect/fabric/fabric.json >"$T/again.json" 2>/dev/null
check "--root copies the stored scan byte for byte" cmp "$T/clean.json" "$T/again.json"
check_eq "... source ok" "$(src_status "$T/again.rdma.tar.zst" fabric)" ok
mkdir -p "$T/unpacked-loss"
tar --zstd -xf "$T/loss.rdma.tar.zst" -C "$T/unpacked-loss"
"$RC" -q --root "$T/unpacked-loss" --only fabric -o "$T/again2.rdma.tar.zst" >/dev/null 2>&1
check_eq "--root keeps a stored partial scan partial" \
	"$(src_status "$T/again2.rdma.tar.zst" fabric)" partial
