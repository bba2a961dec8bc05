# pairs: `rdma-analyze pairs` on a simulated fabric (tests/ibsim/fabric.sh):
# a fat tree of 12 hosts (2 spines, 3 leaves), opensm once, rdma-collect
# --fabric under the shim.  Which pairs fail is worked out here from the
# routes `rdma-analyze path` prints (held to ibtracert by path-ibsim.sh),
# independently of the engine: a faulty cable fails every pair whose route
# crosses it either way.  Cases: one bad inter-switch cable, one bad
# direction of it, one bad node, a bad host cable with symbol errors, two
# faults, flipped outcomes (where the tomography floor goes wrong), an
# ambiguous case and its split test, NCCL and perftest inputs from
# attached files, names, hostile input, usage.
. "$TOP/tests/ibsim/fabric.sh"

# --- usage and unreadable input: no fabric needed ---
"$RA" pairs >/dev/null 2>&1
check_eq "pairs without --db: usage, exit 3" "$?" 3
"$RA" pairs --db "$T/missing.db" >/dev/null 2>&1
check_eq "pairs --db of a missing file: exit 4" "$?" 4
"$RA" pairs --db "$T/missing.db" --method fastest >/dev/null 2>&1
check_eq "pairs --method fastest: usage, exit 3" "$?" 3

# --- no topology at all: hosts only ---
"$RC" -q --root /nonexistent --only identity -o "$T/id.rdma.tar.zst" >/dev/null 2>&1
"$RA" load --db "$T/none.db" "$T/id.rdma.tar.zst" >/dev/null 2>&1
{
	echo "src,dst,result,gbps,error"
	for a in h1 h2 h3 h4 h5; do
		for b in h1 h2 h3 h4 h5; do
			[ "$a" \< "$b" ] || continue
			r=ok
			[ $a = h3 ] || [ $b = h3 ] && r=fail
			echo "$a,$b,$r,,"
		done
	done
} >"$T/hosts.csv"
"$RA" pairs --db "$T/none.db" --results "$T/hosts.csv" >"$T/none.out" 2>&1
rc=$?
check_eq "no topology: every pair of h3 fails -> PAIR_SUSPECT_NODE h3, exit 2" \
	"$rc $(grep -c '^critical PAIR_SUSPECT_NODE *h3$' "$T/none.out")" "2 1"
check "no topology: the evidence in numbers" grep -q \
	'4 of 4 failing pairs involve h3; 0 of 6 passing pairs do' "$T/none.out"
"$RA" pairs --db "$T/none.db" --results "$T/missing.csv" >/dev/null 2>&1
check_eq "a missing results file: exit 4" "$?" 4

if ! fab_have; then
	skip "pairs on ibsim" "missing: $FAB_MISSING"
	exit 0
fi
printf 'interceptor_via_lib:libumad2sim.so\n' >"$T/asan.supp"
printf 'leak:libibnetdisc.so\n' >"$T/lsan.supp"
export ASAN_OPTIONS="verify_asan_link_order=0:detect_leaks=1:suppressions=$T/asan.supp"
export LSAN_OPTIONS="suppressions=$T/lsan.supp"
export FAB_SOCK="rcpairs$$"
trap fab_stop EXIT
cd "$T" || exit 1

fab_fattree 2 3 4 >topo
fab_start "$T/fab" topo || { fail "ibsim starts"; exit 0; }
fab_sm_once node001 || fail "opensm --once assigns LIDs"
# node010's cable has symbol errors at the leaf end: a bad cable, not a
# bad node, when all of node010's pairs fail
fab_cmd 'PerformanceSet "leaf3"[2] PortCounters.SymbolErrorCounter=7' >/dev/null
fab_run node001 "$RC" -q --only identity,sysfs,mad,fabric --fabric -o "$T" \
	>col.out 2>&1
fab_stop
B=$(ls "$T"/*.rdma.tar.zst 2>/dev/null | head -1)
check "rdma-collect --fabric at node001" test -s "$B"
"$RA" load --db f.db "$B" >/dev/null 2>&1

# hops of every pair both ways, "leaf1:6>spine2:1" (switch names short)
python3 - "$RA" f.db >hops.txt <<'EOF'
import re, subprocess, sys
ra, db = sys.argv[1], sys.argv[2]
hosts = ["node%03d" % i for i in range(1, 13)]
short = lambda d: d.split(";")[1].split(":")[0] if ";" in d else d.split()[0]
hop = re.compile(r'^\[(\d+)\] -> \w+ port \{[^}]*\}\[(\d+)\].*"([^"]*)"$')
frm = re.compile(r'^From \w+ \{[^}]*\} portnum \d+ lid [-\d]+ "([^"]*)"')
for i, a in enumerate(hosts):
    for b in hosts[i + 1:]:
        out = subprocess.run([ra, "path", "--db", db, a, b],
                             stdout=subprocess.PIPE, universal_newlines=True).stdout
        hops, cur = [], None
        for l in out.splitlines():
            m = frm.match(l)
            if m:
                cur = m.group(1)
            m = hop.match(l)
            if m:
                hops.append("%s:%s>%s:%s" % (short(cur), m.group(1),
                                             short(m.group(3)), m.group(2)))
                cur = m.group(3)
        print("%s %s|%s" % (a, b, "|".join(hops)))
EOF
check_eq "routes of all 66 pairs from path" "$(grep -c '>' hops.txt)" 66

# mkcsv OUT HOP...: the pairs whose routes cross a HOP fail
mkcsv() {
	out=$1
	shift
	awk -F'|' -v pats="$*" 'BEGIN { n = split(pats, P, " ") }
	{ bad = 0; for (i = 2; i <= NF; i++) for (j = 1; j <= n; j++) if ($i == P[j]) bad = 1
	  split($1, h, " "); print h[1] "," h[2] "," (bad ? "fail" : "ok") ",," }' hops.txt >"$out"
}
# top METHOD CSV: "rule|component" of each suspect, exit status last
top() {
	"$RA" pairs --db f.db --results "$2" --method "$1" --json >"$2.$1.json" 2>"$2.$1.err"
	echo "rc=$?"
	python3 -c '
import json, sys
for s in json.load(open(sys.argv[1]))["suspects"]:
    print("%s|%s" % (s["rule"], s["component"]))' "$2.$1.json"
}
counts() { echo "$(grep -c ',fail,' "$1") of $(grep -c ',fail,' "$1") failing pairs cross $2; 0 of $(grep -c ',ok,' "$1") passing pairs do"; }

L='MF0;spine2:MQM9700/U1 port 1 <-> MF0;leaf1:MQM9700/U1 port 6'
H='MF0;leaf1:MQM9700/U1 port 6 -> MF0;spine2:MQM9700/U1 port 1'

# --- one bad inter-switch cable (both directions) ---
mkcsv link.csv "leaf1:6>spine2:1" "spine2:1>leaf1:6"
for m in best tomography; do
	check_eq "one bad cable ($m): PAIR_SUSPECT_LINK on it, nothing else, exit 2" \
		"$(top $m link.csv)" "rc=2
PAIR_SUSPECT_LINK|$L"
done
s=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["suspects"][0]["summary"])' link.csv.best.json)
check_eq "one bad cable: failing and passing pairs through it" "$s" "$(counts link.csv "$L")"
"$RA" pairs --db f.db --results link.csv >link.txt 2>&1
check "one bad cable: the text report names it" grep -q "^critical PAIR_SUSPECT_LINK *$L\$" link.txt

# --- one direction of it: the switch port's transmitter ---
mkcsv half.csv "leaf1:6>spine2:1"
check_eq "one bad direction: the direction, not the cable" "$(top best half.csv)" "rc=2
PAIR_SUSPECT_LINK|$H"

# --- one bad node: every pair of node006 fails, no counter on its cable ---
mkcsv node.csv "node006:1>leaf2:2"
check_eq "one bad node: PAIR_SUSPECT_NODE node006" "$(top best node.csv)" "rc=2
PAIR_SUSPECT_NODE|node006"
check "one bad node: its cable is on the same pairs, shown" grep -q \
	'same pairs: cable node006 mlx5_0 port 1 <-> MF0;leaf2:MQM9700/U1 port 2' \
	"$("$RA" pairs --db f.db --results node.csv >node.txt 2>&1; echo node.txt)"

# --- every pair of node010 fails and its cable counts symbol errors ---
mkcsv cable.csv "node010:1>leaf3:2"
check_eq "node010's pairs fail, its cable has symbol errors: PAIR_SUSPECT_LINK on the cable" \
	"$(top best cable.csv)" "rc=2
PAIR_SUSPECT_LINK|node010 mlx5_0 port 1 <-> MF0;leaf3:MQM9700/U1 port 2"
check_eq "the cable's counter is the corroboration" "$(python3 -c '
import json,sys; print(json.load(open(sys.argv[1]))["suspects"][0]["counters"])' cable.csv.best.json)" \
	"['MF0;leaf3:MQM9700/U1 port 2 SymbolErrorCounter 7 (fabric scan)']"

# --- two faults at once ---
mkcsv two.csv "leaf1:6>spine2:1" "spine2:1>leaf1:6" "node012:1>leaf3:4"
for m in best tomography; do
	check_eq "two faults ($m): the cable and node012" "$(top $m two.csv | sort)" \
		"PAIR_SUSPECT_LINK|$L
PAIR_SUSPECT_NODE|node012
rc=2"
done

# --- flipped outcomes: a passing pair through the bad cable and a failing
# one elsewhere; the floor clears the cable, best does not ---
awk -F, 'BEGIN { OFS = "," }
	$1 == "node001" && $2 == "node002" { $3 = "fail" }
	!done && $3 == "fail" && $1 != "node001" { $3 = "ok"; done = 1 } { print }' \
	link.csv >noisy.csv
check_eq "two flipped outcomes: best still names the cable first" \
	"$(top best noisy.csv | sed -n 2p)" "PAIR_SUSPECT_LINK|$L"
check "two flipped outcomes: the tomography floor does not" sh -c \
	"! grep -qF '\"component\": \"$L\"' noisy.csv.tomography.json"

# --- ring coverage (each host to the next, as an NCCL ring): node005's
# two ring pairs fail; then one more ring pair fails by chance ---
for i in $(seq 1 12); do
	a=$(printf node%03d "$i") b=$(printf node%03d $((i % 12 + 1)))
	r=ok
	{ [ $a = node005 ] || [ $b = node005 ]; } && r=fail
	echo "$a,$b,$r,,"
done >ring.csv
check_eq "ring: node005's two pairs fail: PAIR_SUSPECT_NODE node005" "$(top best ring.csv)" "rc=2
PAIR_SUSPECT_NODE|node005"
sed 's/^node009,node010,ok/node009,node010,fail/' ring.csv >ring2.csv
# the chance failure names node009 or node010, each cleared by its other
# ring pair: a coin flip, worse than the suspect it would follow
check_eq "ring and one failure by chance: node005 alone, the other failure unexplained" \
	"$(top best ring2.csv; python3 -c '
import json,sys; print(json.load(open(sys.argv[1]))["results"]["unexplained"])' ring2.csv.best.json)" "rc=2
PAIR_SUSPECT_NODE|node005
1"
# ... and listed with the components on its path, both hosts' cables
# among them, and a test that would tell its first two apart
check_eq "... listed: its ends, both hosts' cables on its path, a split test" \
	"$(python3 -c '
import json,sys
u = json.load(open(sys.argv[1]))["unexplained"]
hosts = sorted(c["host"] for c in u[0]["components"] if c["kind"] == "cable")
sp = u[0]["split"] or {}
keys = [c["key"] for c in u[0]["components"]]
print(len(u), u[0]["src"].split()[0], u[0]["dst"].split()[0], " ".join(hosts),
      sp.get("crosses_key") in keys[:2] and keys.index(sp["crosses_key"]) >= 0)' ring2.csv.best.json)" \
	"1 node009 node010 node009 node010 True"
"$RA" pairs --db f.db --results ring2.csv >ring2.txt 2>&1
check "... and in the text: the result, its path's strongest components, the split test" \
	grep -q '^  node009 [^:]* -> node010 [^:]*: cable .*; test .* <-> .* next: it crosses .* only$' ring2.txt
check "... under the count" grep -q '^# 1 failing result explained by no component (noise, or a fault too weak to name)' ring2.txt
# ... but alone it is the best lead there is
grep -v '^node00[45],node00[56],' ring2.csv >ring3.csv
check_eq "ring and that failure alone: node009's cable, ambiguous" "$(top best ring3.csv)" "rc=1
PAIR_AMBIGUOUS|node009 mlx5_0 port 1 <-> MF0;leaf3:MQM9700/U1 port 1"
check_eq "... and the other end is its alternative" "$(python3 -c '
import json,sys; s=json.load(open(sys.argv[1]))["suspects"][0]
print(" ".join(sorted(a["host"] or "-" for a in s["alternatives"])))' ring3.csv.best.json)" \
	"node010 node010"

# --- ambiguous: one failing pair, two passing ones (the guide's case) ---
printf 'src,dst,result,gbps,error\nnode001,node012,fail,,retry exceeded\nnode001,node002,ok,,\nnode012,node011,ok,,\n' >amb.csv
for m in best tomography; do
	r=$(top $m amb.csv | head -2)
	check_eq "one failing pair ($m): PAIR_AMBIGUOUS, exit 1" \
		"$(echo "$r" | sed 's/|.*//')" "rc=1
PAIR_AMBIGUOUS"
	python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["suspects"][0]
c = [s["key"]] + [x["key"] for x in s["equivalent"] + s["alternatives"]]
sp = s["split"] or {}
print(len(c) >= 4, sp.get("crosses_key") in c, sp.get("src", "").split()[0],
      sp.get("dst", "").split()[0])' amb.csv.$m.json >split.$m
	read -r many inset a z <split.$m
	check_eq "one failing pair ($m): every candidate named, a split test among them" \
		"$many $inset" "True True"
	case " node001,node012 node001,node002 node012,node011 node002,node001 node012,node001 node011,node012 " in
	*" $a,$z "*) fail "one failing pair ($m): the split test was not tested yet ($a $z)";;
	*) ok "one failing pair ($m): the split test was not tested yet ($a $z)";;
	esac
done
# run the split test of the floor's answer: as if the fault were on what
# it crosses, it fails; the candidates must shrink
read -r many inset a z <split.tomography
n0=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["suspects"][0]; print(1+len(s["equivalent"])+len(s["alternatives"]))' amb.csv.tomography.json)
{ cat amb.csv; echo "$a,$z,fail,,"; } >amb2.csv
top tomography amb2.csv >/dev/null
n1=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["suspects"][0]; print(1+len(s["equivalent"])+len(s["alternatives"]))' amb2.csv.tomography.json)
check "the split test's result narrows the candidates ($n0 -> $n1)" test "$n1" -lt "$n0"

# --- names: LIDs, GUIDs, "host ibdev"; header optional; bad lines ---
lid() { sqlite3 f.db "SELECT p.lid FROM fabric_ports p JOIN fabric_nodes n ON n.guid = p.guid AND n.bundle_id = p.bundle_id WHERE n.desc = '$1 mlx5_0' AND p.port = 1"; }
guid() { sqlite3 f.db "SELECT guid FROM fabric_nodes WHERE desc = '$1 mlx5_0'"; }
awk -F, -v l="$(lid node006)" -v g="$(guid node001)" 'BEGIN { OFS = "," }
	{ if ($1 == "node006") $1 = l; if ($2 == "node006") $2 = l;
	  if ($1 == "node001") $1 = g; if ($2 == "node002") $2 = "node002 mlx5_0"; print }' node.csv >names.csv
printf 'node001,node777,ok,,\nnot a result\nnode003,node004,maybe,,\n' >>names.csv
check_eq "LIDs, GUIDs and 'host ibdev' name the same pairs: node006 again" \
	"$(top best names.csv)" "rc=2
PAIR_SUSPECT_NODE|node006"
check_eq "an unknown node and two bad lines are counted" "$(python3 -c '
import json,sys; i=json.load(open(sys.argv[1]))["inputs"]; print(i["unresolved"], i["bad_lines"], i["csv"]["used"])' names.csv.best.json)" "1 2 66"
check_eq "bad lines are reported on stderr" "$(grep -c 'names.csv:6[89]:' names.csv.best.err)" 2

# --- hostile results: bytes, long lines, huge numbers ---
{ head -c 3000 /dev/urandom; printf '\n%05000d,x,fail\n,,,,,,,\n0x,0,ok\n99999999999999999999,1,fail\n' 0; } >junk.csv
"$RA" pairs --db f.db --results junk.csv >junk.out 2>junk.err
rc=$?
check "hostile results: no crash, a normal exit ($rc)" test $rc -le 2
"$RA" pairs --db f.db --results /dev/null --json >empty.json 2>&1
check_eq "no results at all: no suspect, exit 0" "$?:$(python3 -c '
import json,sys; print(len(json.load(open(sys.argv[1]))["suspects"]))' empty.json)" "0:0"

# --- no scan: the mad source's peer switch port (node001's bundle only) ---
cp f.db mad.db
sqlite3 mad.db "DELETE FROM fabric_scans; UPDATE bundles SET hostname = 'node001'"
awk -F, '{ r = ($1 == "node001" || $2 == "node001") ? "fail" : "ok"; print $1 "," $2 "," r ",," }' \
	node.csv >n1.csv
"$RA" pairs --db mad.db --results n1.csv --json >mad.json 2>&1
check_eq "mad peers only: node001's cable, its node and its leaf are the candidates, exit 1" \
	"$?:$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["suspects"][0]
print(d["topology"]["kind"], s["rule"], s["component"], "/",
      " ".join(sorted(x["kind"] for x in s["equivalent"])))' mad.json)" \
	"1:mad PAIR_AMBIGUOUS node001 ibsim0 port 1 <-> MF0;leaf1:MQM9700/U1 port 1 / node switch"

# --- NCCL and perftest outputs attached to two nodes' bundles ---
mknode rxe n3 >/dev/null 2>&1
mknode rxe n9 >/dev/null 2>&1
for n in 3 9; do
	printf 'node00%s\n' $n >n$n/proc/sys/kernel/hostname
	printf '%032d\n' $n >n$n/etc/machine-id
	sed -i "s/10\.0\.2\.15/10.9.0.$n/" n$n/rdma-collect/net/addresses.json
done
P='node003:4242:4300 [0]'
printf '%s transport/net_ib.cc:1580 NCCL WARN NET/IB: Got completion from peer 10.9.0.9<40120> with status=12 opcode=1 len=0 vendor err 129 (Send) hca rxe0\n' \
	"$P" "$P" >nccl.log
RL=---------------------------------------------------------------------------------------
{
	printf '%s\n                    RDMA_Write BW Test\n Dual-port       : OFF\t\tDevice         : rxe0\n' "$RL"
	printf ' Link type       : IB\n%s\n' "$RL"
	printf ' local address: LID 0x%02x QPN 0x0091 PSN 0xe2af32\n' "$(lid node003)"
	printf ' remote address: LID 0x%02x QPN 0x0093 PSN 0x98b544\n%s\n' "$(lid node011)" "$RL"
	printf ' Completion with error at client\n Failed status-transport retry counter exceeded (12): wr_id 0 syndrom 0x81\n'
} >pt.txt
"$RC" -q --root n3 -o n3.rdma.tar.zst -a nccl.log -a pt.txt >/dev/null 2>&1
"$RC" -q --root n9 -o n9.rdma.tar.zst >/dev/null 2>&1
"$RA" load --db f.db n3.rdma.tar.zst n9.rdma.tar.zst >/dev/null 2>&1
# the CSV: every pair but node003's works; node003 was not in the test
mkcsv app.csv
sed -i '/node003/d' app.csv
top best app.csv >app.top
check_eq "NCCL: two lines of one completion error became one failing pair" "$(python3 -c '
import json,sys; i=json.load(open(sys.argv[1]))["inputs"]; print(i["nccl"]["rows"], i["nccl"]["used"], i["perftest"]["rows"], i["perftest"]["used"])' app.csv.best.json)" "2 1 1 1"
check_eq "NCCL: decoded, the peer address mapped to node009" "$(python3 -c '
import json,sys
e=json.load(open(sys.argv[1]))["nccl_errors"][0]
print(e["node"], e["hca"], e["peer_node"], e["status_name"], e["vendor_err_hex"])' app.csv.best.json)" \
	"node003 rxe0 node009 IBV_WC_RETRY_EXC_ERR 0x81"
check_eq "NCCL and perftest: 2 failing pairs, both of node003" "$(python3 -c '
import json,sys; r=json.load(open(sys.argv[1]))["results"]; print(r["failing"])' app.csv.best.json)" 2
check_eq "NCCL and perftest: node003 is the suspect" "$(sed -n 2p app.top)" \
	"PAIR_SUSPECT_NODE|node003"
