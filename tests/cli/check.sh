# check: `rdma-analyze check`, the on-node health check, on fixture trees
# (--root): Nagios' output and exit status (0 OK, 1 WARNING, 2 CRITICAL,
# 3 UNKNOWN), the drain reason, --expect, --save/--keep, -f json, the
# deadline with a collector that hangs (exit 3 within it plus ~1 s, the
# child's process group gone), a missing or failing collector; then the
# Slurm wrapper as Slurm runs it (a fake scontrol on PATH records the
# drain) and the NHC check through a stand-in of NHC's die/log and
# check_cmd_status (NHC is not a Debian package): its semantics as
# scripts/lbnl_cmd.nhc defines them (run with output to /dev/null, a
# watchdog past -t, the status against -r, die 1 with the reason).
cd "$T" || exit 1
mknode gpu-ndr8 good >/dev/null 2>&1 || fail "check: building the fixture node"
mkdir tmp
export TMPDIR=$T/tmp
HOST=dgx-h100-07

# --- healthy: OK, exit 0 ---
s=$(date +%s%N)
"$RA" check --root good >ok.out 2>ok.err
rc=$?
ms=$((($(date +%s%N) - s) / 1000000))
echo "# check of gpu-ndr8 (8 HCAs): $ms ms"
check_eq "healthy: exit 0" "$rc" 0
check_eq "healthy: one OK line with performance data" "$(cat ok.out)" \
	"RDMA OK - $HOST: no finding at warning or above | critical=0 warning=0"
check_eq "healthy: nothing on stderr" "$(cat ok.err)" ""
check_eq "healthy: --reason prints nothing" "$("$RA" check --root good --reason; echo "rc=$?")" "rc=0"
check_eq "healthy: no scratch folder left" "$(ls -A tmp)" ""

# --- critical: a port down and a PCIe link at x8 ---
cp -a good bad
"$FIXTURES/inject.sh" port-down bad mlx5_3 >/dev/null &&
	"$FIXTURES/inject.sh" pcie-degraded bad mlx5_1 >/dev/null ||
	fail "check: injecting the faults"
"$RA" check --root bad >bad.out 2>bad.err
check_eq "critical: exit 2" "$?" 2
check_eq "critical: status line" "$(head -1 bad.out)" \
	"RDMA CRITICAL - $HOST: 2 critical, 0 warning | critical=2 warning=0"
check "critical: a PORT_DOWN line" grep -q '^CRITICAL PORT_DOWN mlx5_3:1 .*Polling' bad.out
check "critical: a PCIE_LINK_DEGRADED line" \
	grep -q '^CRITICAL PCIE_LINK_DEGRADED 0000:24:00.0 .*x8' bad.out
check_eq "critical: three lines" "$(wc -l <bad.out)" 3
check_eq "critical: the reason" "$("$RA" check --root bad --reason; echo "rc=$?")" \
	"rdma: PCIE_LINK_DEGRADED 0000:24:00.0; PORT_DOWN mlx5_3:1
rc=2"

# --- warning only ---
cp -a good warn
"$FIXTURES/inject.sh" mtu-below-max warn mlx5_2 >/dev/null || fail "check: mtu-below-max"
"$RA" check --root warn >warn.out
check_eq "warning: exit 1" "$?" 1
check_eq "warning: the status line" "$(head -1 warn.out)" \
	"RDMA WARNING - $HOST: 0 critical, 1 warning | critical=0 warning=1"
check "warning: the MTU_BELOW_MAX line" grep -q '^WARNING MTU_BELOW_MAX mlx5_2:1 active_mtu 1024' warn.out

# --- the reason is bounded: every port down, every link at x8 ---
cp -a good worse
for i in 0 1 2 3 4 5 6 7; do
	"$FIXTURES/inject.sh" port-down worse mlx5_$i >/dev/null
	"$FIXTURES/inject.sh" pcie-degraded worse mlx5_$i >/dev/null
done
r=$("$RA" check --root worse --reason)
check_eq "long reason: exit 2" "$?" 2
echo "# $r"
check "long reason: under 200 bytes" test "${#r}" -lt 200
check "long reason: cut with ..." sh -c "case '$r' in rdma:\ PCIE_LINK_DEGRADED\ 0000:14:00.0,*...) exit 0;; esac; exit 1"

# --- -f json, --json ---
"$RA" check --root bad -f json >j.out
check_eq "json: exit 2" "$?" 2
check "json: the node verdict, with the findings" python3 -c '
import json, sys
d = json.load(open("j.out"))
assert d["verdict_version"] == 1 and d["node"] == "'$HOST'", d["node"]
assert d["worst"] == "critical", d["worst"]
r = {f["rule"] for f in d["findings"] if f["severity"] == "critical"}
assert r == {"PORT_DOWN", "PCIE_LINK_DEGRADED"}, r'
check "json: valid against schema/node-verdict.schema.json" /usr/bin/python3 -c '
import json, sys, jsonschema
s = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator(s).validate(json.load(open("j.out")))' \
	"$TOP/schema/node-verdict.schema.json"
check_eq "json: --json is -f json" "$("$RA" check --root bad --json | python3 -c '
import json, sys; print(json.load(sys.stdin)["worst"])')" critical

# --- --expect: a file of values, a known-good bundle ---
printf 'hcas 8\nhca.*.fw 28.41.1000\nport.*.rate 400 Gb/sec (4X NDR)\n' >good.expect
printf 'hcas 9\n' >nine.expect
"$RA" check --root good --expect good.expect >/dev/null
check_eq "expect: matching values, exit 0" "$?" 0
"$RA" check --root good --expect nine.expect >e9.out
check_eq "expect: 9 HCAs expected, exit 2" "$?" 2
check "expect: an HCA_COUNT_OUTLIER line" grep -q '^CRITICAL HCA_COUNT_OUTLIER node .*hcas 8 (baseline: 9)' e9.out
"$RC" -q --root good -o known.rdma.tar.zst >/dev/null 2>&1
"$RA" check --root good --expect known.rdma.tar.zst >/dev/null
check_eq "expect: a known-good bundle, healthy node, exit 0" "$?" 0
"$RA" check --root bad --expect known.rdma.tar.zst >ek.out
check "expect: a known-good bundle, one port fewer active" \
	grep -q '^CRITICAL HCA_COUNT_OUTLIER node .*ports_active 7' ek.out
"$RA" check --root good --expect missing.expect >/dev/null 2>&1
check_eq "expect: a file that cannot be read, exit 3" "$?" 3

# --- --save, --keep ---
SOURCE_DATE_EPOCH=1000000000 "$RA" check --root bad --save saved >s1.out
check_eq "save: exit 2 still" "$?" 2
b=$(ls saved)
check_eq "save: named as rdma-collect names it" "$b" "$HOST-20010909T014640Z.rdma.tar.zst"
check_eq "save: the last line names it" "$(tail -1 s1.out)" "bundle saved/$b"
"$RA" report -q "saved/$b" >/dev/null 2>&1
check_eq "save: the bundle loads (report exit 2)" "$?" 2
SOURCE_DATE_EPOCH=1000086400 "$RA" check --root good --save saved --keep 1 >/dev/null
check_eq "save --keep 1: only the newest" "$(ls saved)" "$HOST-20010910T014640Z.rdma.tar.zst"
"$RA" check --keep 1 >/dev/null 2>&1
check_eq "keep without save: usage error, exit 3" "$?" 3

# --- the collector: missing, failing, hanging ---
"$RA" check --root good --collector "$T/none" >m.out 2>&1
check_eq "missing collector: exit 3" "$?" 3
check "missing collector: UNKNOWN line" grep -q '^RDMA UNKNOWN - rdma-collect not found' m.out
mkdir alone
cp "$RA" alone/
PATH=/nonexistent "$T/alone/rdma-analyze" check --root good >m2.out 2>&1
check_eq "no collector beside it nor on PATH: exit 3" "$?" 3
check_eq "... and the reason" "$(cat m2.out)" \
	"RDMA UNKNOWN - rdma-collect not found (install it, or --collector PATH)"
printf '#!/bin/sh\necho broken >&2\nexit 3\n' >fail.sh
chmod +x fail.sh
"$RA" check --collector "$T/fail.sh" >f.out 2>/dev/null
check_eq "failing collector: exit 3" "$?" 3
check_eq "failing collector: says so" "$(cat f.out)" \
	"RDMA UNKNOWN - $T/fail.sh exited with status 3"

# gone PID: not running (gone, or a zombie left to a PID 1 that does not
# reap, as in some containers)
gone() { case $(ps -o stat= -p "$1" 2>/dev/null) in ""|Z*) return 0 ;; esac; return 1; }
# hang.sh: a collector stuck (in sleep), its own child too; ignores TERM
cat >hang.sh <<EOF
#!/bin/sh
trap '' TERM
echo \$\$ >"$T/hang.pid"
sleep 60 &
echo \$! >"$T/sleep.pid"
wait
EOF
chmod +x hang.sh
s=$(date +%s%N)
"$RA" check --collector "$T/hang.sh" --timeout 2 >h.out 2>&1
rc=$?
ms=$((($(date +%s%N) - s) / 1000000))
echo "# --timeout 2 with a hanging collector: $ms ms"
check_eq "hanging collector: exit 3" "$rc" 3
check_eq "hanging collector: says so" "$(cat h.out)" \
	"RDMA UNKNOWN - rdma-collect did not finish within the 2 s deadline (killed)"
check "hanging collector: within the deadline + 1 s" test "$ms" -lt 3000
check "hanging collector: the collector is gone" gone "$(cat hang.pid)"
check "hanging collector: its child is gone" gone "$(cat sleep.pid)"
check_eq "no scratch folder left after all" "$(ls -A tmp)" ""
"$RA" check --collector "$T/hang.sh" --timeout 1 --reason >/dev/null 2>&1
check_eq "hanging collector, --reason: exit 3" "$?" 3
"$RA" check --collector "$T/hang.sh" --timeout 1 -f json >hj.out 2>&1
check "hanging collector, json: an UNKNOWN object" python3 -c '
import json; d = json.load(open("hj.out")); assert d["status"] == "UNKNOWN"'

# --- usage ---
"$RA" check --timeout 0 >/dev/null 2>&1
check_eq "usage: --timeout 0, exit 3" "$?" 3
"$RA" check extra >/dev/null 2>&1
check_eq "usage: an argument, exit 3" "$?" 3
check "usage: --help" sh -c "'$RA' check --help | grep -q -- --reason"

# --- Slurm: contrib/slurm/rdma-healthcheck as HealthCheckProgram, prolog ---
mkdir bin
cat >bin/scontrol <<EOF
#!/bin/sh
for a; do printf '[%s]' "\$a"; done >>"$T/scontrol.log"
echo >>"$T/scontrol.log"
EOF
printf '#!/bin/sh\necho "$*" >>"%s/logger.log"\n' "$T" >bin/logger
chmod +x bin/scontrol bin/logger
HC=$TOP/contrib/slurm/rdma-healthcheck
# slurm MODE TREE: run the wrapper as slurmd would (no terminal, node name
# in the environment); its status in $SRC
slurm() {
	: >scontrol.log
	PATH=$T/bin:$PATH SLURMD_NODENAME=node07 RDMA_ANALYZE=$RA \
		RDMA_CHECK_ARGS="--root $T/$2 ${3:-}" "$HC" "$1" </dev/null >/dev/null 2>&1
	SRC=$?
}
slurm healthcheck bad
check_eq "slurm: healthcheck exits 0" "$SRC" 0
check_eq "slurm: critical drains with the reason" "$(cat scontrol.log)" \
	"[update][NodeName=node07][State=DRAIN][Reason=rdma: PCIE_LINK_DEGRADED 0000:24:00.0; PORT_DOWN mlx5_3:1]"
slurm healthcheck good
check_eq "slurm: healthy, no scontrol call" "$SRC:$(cat scontrol.log)" "0:"
slurm healthcheck warn
check_eq "slurm: warning, no drain" "$SRC:$(cat scontrol.log)" "0:"
check "slurm: the warning logged" grep -q 'node07 (status 1, not draining): rdma: MTU_BELOW_MAX mlx5_2:1' logger.log
slurm prolog bad
check_eq "slurm: prolog on a critical node exits 1" "$SRC" 1
check "slurm: prolog drains" grep -q 'Reason=rdma: PCIE_LINK_DEGRADED' scontrol.log
: >scontrol.log
PATH=$T/bin:$PATH SLURMD_NODENAME=node07 SLURM_SCRIPT_CONTEXT=prolog_slurmd \
	RDMA_ANALYZE=$RA RDMA_CHECK_ARGS="--root $T/bad" "$HC" </dev/null >/dev/null 2>&1
check_eq "slurm: as Prolog= (no argument, SLURM_SCRIPT_CONTEXT), exit 1 and drained" \
	"$?:$(grep -c DRAIN scontrol.log)" "1:1"
slurm epilog bad
check_eq "slurm: epilog exits 0 after draining" "$SRC:$(grep -c DRAIN scontrol.log)" "0:1"
slurm prolog good
check_eq "slurm: prolog on a healthy node exits 0" "$SRC:$(cat scontrol.log)" "0:"
: >scontrol.log
PATH=$T/bin:$PATH SLURMD_NODENAME=node07 RDMA_ANALYZE=$RA RDMA_DRAIN_ON="2 3" \
	RDMA_CHECK_ARGS="--collector $T/none" "$HC" </dev/null >/dev/null 2>&1
check_eq "slurm: RDMA_DRAIN_ON=\"2 3\" drains a node whose check cannot run" \
	"$(cat scontrol.log)" \
	"[update][NodeName=node07][State=DRAIN][Reason=rdma: check failed: rdma-collect not found: $T/none]"

# --- NHC: contrib/nhc/rdma.nhc and a check_cmd_status line ---
cat >nhc-standin.sh <<'EOF'
# what NHC gives a check: die (the failure and the node's reason), log,
# $TIMEOUT; and check_cmd_status as scripts/lbnl_cmd.nhc defines it
TIMEOUT=30
die() { echo "die $1: $2"; }
log() { echo "log: $*"; }
check_cmd_status() {
	local t=5 r="" ret pid wd
	OPTIND=1
	while getopts ":r:t:" o; do
		case $o in r) r=$OPTARG ;; t) t=$OPTARG ;; *) die 1 "bad option"; return 1 ;; esac
	done
	shift $((OPTIND - 1))
	[ "$t" -le "$TIMEOUT" ] || { die 1 "check_cmd_status:  Command timeout $t exceeds NHC timeout $TIMEOUT"; return 1; }
	"$@" </dev/null >/dev/null 2>&1 &
	pid=$!
	(sleep "$t"; kill -TERM "$pid" 2>/dev/null) </dev/null >/dev/null 2>&1 &
	wd=$!
	wait "$pid"
	ret=$?
	kill "$wd" 2>/dev/null
	if [ "$ret" -ne "${r:-0}" ]; then
		die 1 "check_cmd_status:  $ret${r:+ (expected $r)} returned by \"$*\"."
		return 1
	fi
	return 0
}
EOF
# nhc TREE CHECK...: run one nhc.conf check line's check in the stand-in
nhc() {
	tree=$1
	shift
	bash -c '. ./nhc-standin.sh; . "$1"; shift; "$@"; echo "ret $?"' nhc \
		"$TOP/contrib/nhc/rdma.nhc" "$@"
}
export RDMA_ANALYZE=$RA
check_eq "nhc: check_rdma on a critical node fails with the reason" \
	"$(nhc bad check_rdma -t 20 --root "$T/bad")" \
	"die 1: rdma: PCIE_LINK_DEGRADED 0000:24:00.0; PORT_DOWN mlx5_3:1
ret 1"
check_eq "nhc: check_rdma on a healthy node passes" \
	"$(nhc good check_rdma --root "$T/good")" "ret 0"
check_eq "nhc: check_rdma on a warning logs, passes" \
	"$(nhc warn check_rdma --root "$T/warn")" \
	"log: check_rdma:  status 1, not failing:  rdma: MTU_BELOW_MAX mlx5_2:1
ret 0"
check_eq "nhc: check_cmd_status -t 30 -r 0 rdma-analyze check, critical" \
	"$(nhc bad check_cmd_status -t 30 -r 0 "$RA" check --timeout 25 --root "$T/bad")" \
	"die 1: check_cmd_status:  2 (expected 0) returned by \"$RA check --timeout 25 --root $T/bad\".
ret 1"
check_eq "nhc: check_cmd_status -t 30 -r 0 rdma-analyze check, healthy" \
	"$(nhc good check_cmd_status -t 30 -r 0 "$RA" check --timeout 25 --root "$T/good")" "ret 0"
unset RDMA_ANALYZE
check_eq "no scratch folder left at the end" "$(ls -A tmp)" ""
