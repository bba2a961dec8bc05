# check-state: `rdma-analyze check --state DIR` (the counters' growth
# since the previous run, judged on the node by the history's rules) and
# `check --prom FILE` (the node's metrics for node_exporter's textfile
# collector), on fixture trees (--root).  The first run keeps its bundle
# and state.json and judges no growth; symbol errors grown since then are
# COUNTER_GROWING, in the text and in --reason; a reboot (new boot_id) or
# a driver reload (counters down) between the runs is no growth; a
# corrupt, foreign, oversized or mismatched state, a FIFO in its place or
# a DIR that is a file is one note and a normal check.  The metrics file
# passes promtool and tests/tools/prom-strict.py, is replaced by a rename,
# is written when the check finds problems and says rdma_check_up 0 when
# it could not run.
if ! command -v python3 >/dev/null 2>&1; then
	skip "check-state" "python3 is missing"
	return 0 2>/dev/null || exit 0
fi
cd "$T" || exit 1
mknode gpu-ndr8 good >/dev/null 2>&1 || fail "check-state: building the fixture node"
mkdir tmp m
export TMPDIR=$T/tmp
cp "$TOP/tests/tools/prom-strict.py" strict.py
BOOT=good/proc/sys/kernel/random/boot_id

# valid NAME FILE: promtool's parser and linter, then the strict format
valid() {
	if command -v promtool >/dev/null 2>&1; then
		check "$1: promtool check metrics" sh -c "promtool check metrics <'$2'"
	else
		skip "$1: promtool check metrics" "promtool missing (Debian package prometheus)"
	fi
	check "$1: strict format" python3 strict.py "$2"
}

# the value of a metric without other labels than node: metric FILE NAME
metric() { sed -n "s/^$2{node=\"[^\"]*\"} //p" "$1"; }

# a copy of the good tree: tree NAME
tree() { rm -rf "$1"; cp -a good "$1"; }

# the findings of a check's text output, "SEVERITY RULE COMPONENT"
lines() { tail -n +2 "$1" | awk '{ print $1, $2, $3 }'; }

# --- first run: the state written, no growth judged ---
s=$(date +%s%N)
"$RA" check --root good --state S --prom m/rdma.prom >1.out 2>1.err
rc=$?
ms=$((($(date +%s%N) - s) / 1000000))
check_eq "first run: exit 0" "$rc" 0
check_eq "first run: OK" "$(head -c 7 1.out)" "RDMA OK"
check_eq "first run: nothing on stderr" "$(cat 1.err)" ""
check_eq "first run: state.json and previous.rdma, nothing else" "$(ls -A S | tr '\n' ' ')" \
	"previous.rdma state.json "
check_eq "first run: DIR made private" "$(stat -c %a S)" 700
check "first run: state.json names the bundle by size and SHA-256, with boot_id, uptime, drivers and HCAs" \
	python3 - S <<'EOF'
import hashlib, json, os, sys
d = sys.argv[1]
s = json.load(open(d + "/state.json"))
b = open(d + "/previous.rdma", "rb").read()
assert s["state_version"] == 1, s
assert s["bundle"] == {"file": "previous.rdma", "bytes": len(b),
                       "sha256": hashlib.sha256(b).hexdigest()}, s["bundle"]
assert s["node"] == "dgx-h100-07" and s["boot_id"] and s["uptime_s"] > 0, s
assert {m["module"] for m in s["drivers"]} >= {"mlx5_core", "ib_core"}, s["drivers"]
assert all(m["srcversion"] for m in s["drivers"] if m["module"] == "mlx5_core"), s["drivers"]
assert len(s["hcas"]) == 8 and all(h["fw"] and h["pci"] for h in s["hcas"]), s["hcas"]
EOF
echo "# check --state of gpu-ndr8 (8 HCAs), first run: $ms ms; state.json" \
	"$(stat -c %s S/state.json) bytes, previous.rdma $(stat -c %s S/previous.rdma) bytes"
check_eq "first run: no growth finding" "$(grep -c COUNTER_GROWING 1.out)" 0
valid "prom, OK" m/rdma.prom
check_eq "prom, OK: rdma_check_up 1" "$(metric m/rdma.prom rdma_check_up)" 1
check_eq "prom, OK: rdma_check_status 0" "$(metric m/rdma.prom rdma_check_status)" 0
check "prom, OK: a duration under the timeout" \
	awk '/^rdma_check_duration_seconds/ { exit !($2 > 0 && $2 < 30) }' m/rdma.prom
check "prom, OK: the ports' counters" grep -q '^rdma_port_stat_total{node="dgx-h100-07",device="mlx5_1",port="1",counter="symbol_error"} 0$' m/rdma.prom
check_eq "prom: no temp file left" "$(ls -A m)" rdma.prom

# --- symbol errors grown since: COUNTER_GROWING, in the text and the reason ---
sleep 1
tree grown
"$FIXTURES/inject.sh" symbol-errors grown mlx5_1 >/dev/null || fail "check-state: symbol-errors"
cp -a S S.before
ino=$(stat -c %i m/rdma.prom)
s=$(date +%s%N)
"$RA" check --root grown --state S --prom m/rdma.prom >2.out 2>2.err
rc=$?
ms=$((($(date +%s%N) - s) / 1000000))
echo "# check --state of gpu-ndr8, second run (two bundles analysed): $ms ms"
check_eq "grown: exit 1" "$rc" 1
check_eq "grown: nothing on stderr" "$(cat 2.err)" ""
check_eq "grown: the growth finding beside the counter's own" "$(lines 2.out)" \
	"WARNING SYMBOL_ERRORS mlx5_1:1
WARNING COUNTER_GROWING mlx5_1:1"
check "grown: the growth's delta and rate" grep -q '^WARNING COUNTER_GROWING mlx5_1:1 .*symbol_error +18234 in .*/h)' 2.out
"$RA" check --root grown --state S.before --reason >r.out
check_eq "grown: --reason names it (exit 1)" "$?" 1
check "grown: --reason" grep -q '^rdma: .*COUNTER_GROWING mlx5_1:1' r.out
check_eq "grown: the state now holds this run" \
	"$(python3 -c 'import json; print(json.load(open("S/state.json"))["bundle"]["sha256"])')" \
	"$(sha256sum S/previous.rdma | cut -d' ' -f1)"
valid "prom, warning" m/rdma.prom
check_eq "prom, warning: written, rdma_check_status 1" "$(metric m/rdma.prom rdma_check_status)" 1
check "prom, warning: the growth finding" grep -q '^rdma_finding{node="dgx-h100-07",check="COUNTER_GROWING",severity="warning",component="mlx5_1:1"} 1$' m/rdma.prom
check "prom: replaced by a rename (a new inode)" test "$(stat -c %i m/rdma.prom)" != "$ino"
check_eq "prom: still no temp file" "$(ls -A m)" rdma.prom

# --- the same counters again: no growth ---
sleep 1
"$RA" check --root grown --state S >3.out 2>&1
check_eq "unchanged: the counter's own finding only" "$(lines 3.out)" \
	"WARNING SYMBOL_ERRORS mlx5_1:1"

# --- a reboot between (a new boot_id, the counters from 0): no growth ---
sleep 1
tree rebooted
echo 0f0e0d0c-0b0a-4909-8807-060504030201 >rebooted/proc/sys/kernel/random/boot_id
echo "600.12 4000.00" >rebooted/proc/uptime
"$RA" check --root rebooted --state S >4.out 2>4.err
check_eq "reboot: exit 0, no false growth" "$?" 0
check_eq "reboot: OK" "$(head -c 7 4.out)" "RDMA OK"
check_eq "reboot: nothing on stderr" "$(cat 4.err)" ""
check_eq "reboot: the new boot_id kept" \
	"$(python3 -c 'import json; print(json.load(open("S/state.json"))["boot_id"])')" \
	0f0e0d0c-0b0a-4909-8807-060504030201

# --- a driver reload (the same boot, the counters down): no growth ---
rm -rf S2
"$RA" check --root grown --state S2 >/dev/null 2>&1
sleep 1
"$RA" check --root good --state S2 >5.out 2>&1
check_eq "driver reload: exit 0, no negative or false growth" "$?" 0
check_eq "driver reload: OK" "$(cat 5.out | head -c 7)" "RDMA OK"

# --- a state that cannot be used: one note, a normal check, replaced ---
# corrupt NAME: the check with S holding what the caller made of it
corrupt() {
	"$RA" check --root grown --state S >c.out 2>c.err
	check_eq "$1: the normal verdict (exit 1)" "$?" 1
	check_eq "$1: no growth judged" "$(lines c.out)" "WARNING SYMBOL_ERRORS mlx5_1:1"
	check_eq "$1: one note" "$(wc -l <c.err)" 1
	check "$1: the note says why" grep -q "$2" c.err
	check "$1: the state replaced by a good one" python3 -c '
import json; assert json.load(open("S/state.json"))["state_version"] == 1'
}
sleep 1
printf '{"state_version": 1, "bundle": {"sha256": "' >S/state.json
corrupt "truncated state.json" "state.json: not JSON: ignored"
sleep 1
head -c 300000 /dev/zero >S/state.json
corrupt "state.json over 256 KiB" "state.json: not a regular file of at most 256 KiB"
sleep 1
echo '[1, 2, 3]' >S/state.json
corrupt "state.json of another kind" "not a state file of version 1"
sleep 1
echo tampered >>S/previous.rdma
corrupt "previous.rdma not the one named" "previous.rdma: not the bundle state.json names"
sleep 1
rm S/state.json
mkfifo S/state.json
s=$(date +%s)
corrupt "a FIFO as state.json" "state.json: not a regular file"
check "a FIFO as state.json: not waited on" test $(($(date +%s) - s)) -lt 10
sleep 1
tree other
echo other-node >other/proc/sys/kernel/hostname
echo 0123456789abcdef0123456789abcdef >other/etc/machine-id
"$FIXTURES/inject.sh" symbol-errors other mlx5_1 >/dev/null
"$RA" check --root other --state S >/dev/null 2>&1
sleep 1
corrupt "another node's state" "the previous run is another node's"

# --- DIR not a folder: one note, the check without state ---
: >notdir
"$RA" check --root grown --state notdir >n.out 2>n.err
check_eq "DIR a file: the normal verdict (exit 1)" "$?" 1
check_eq "DIR a file: one note" "$(cat n.err)" \
	"rdma-analyze: warning: check: --state notdir: not a folder: ignored"

# --- the check could not run: state untouched, the metrics say so ---
sum=$(cat S/state.json S/previous.rdma | cksum)
"$RA" check --root grown --state S --prom m/rdma.prom --collector /bin/false >u.out 2>u.err
check_eq "unknown: exit 3" "$?" 3
check_eq "unknown: the status line" "$(cut -c1-12 u.out)" "RDMA UNKNOWN"
check_eq "unknown: the state untouched" "$(cat S/state.json S/previous.rdma | cksum)" "$sum"
valid "prom, unknown" m/rdma.prom
check_eq "prom, unknown: rdma_check_up 0" "$(metric m/rdma.prom rdma_check_up)" 0
check_eq "prom, unknown: rdma_check_status 3" "$(metric m/rdma.prom rdma_check_status)" 3
check_eq "prom, unknown: no stale metric of the node" \
	"$(grep -v '^#' m/rdma.prom | cut -d'{' -f1 | tr '\n' ' ')" \
	"rdma_check_up rdma_check_status rdma_check_duration_seconds "
check_eq "prom, unknown: labelled with this host's name" \
	"$(grep '^rdma_check_up' m/rdma.prom | cut -d'"' -f2)" "$(hostname | tr -c 'a-zA-Z0-9._:\n-' '?')"
check_eq "prom, unknown: no temp file left" "$(ls -A m)" rdma.prom

# --- critical findings: written too ---
tree bad
"$FIXTURES/inject.sh" port-down bad mlx5_3 >/dev/null
"$RA" check --root bad --prom m/rdma.prom >/dev/null 2>&1
check_eq "prom, critical: exit 2" "$?" 2
valid "prom, critical" m/rdma.prom
check_eq "prom, critical: rdma_check_status 2, up 1" \
	"$(metric m/rdma.prom rdma_check_status) $(metric m/rdma.prom rdma_check_up)" "2 1"
check "prom, critical: the port down" grep -q '^rdma_port_state{node="dgx-h100-07",device="mlx5_3",port="1"} 1$' m/rdma.prom

# --- a folder that cannot be written: a message, the verdict stands ---
"$RA" check --root good --prom nodir/rdma.prom >w.out 2>w.err
check_eq "prom, unwritable: the verdict's exit 0" "$?" 0
check_eq "prom, unwritable: OK printed" "$(head -c 7 w.out)" "RDMA OK"
check "prom, unwritable: one message" test "$(wc -l <w.err)" -eq 1
check_eq "no scratch folder left" "$(ls -A tmp)" ""
