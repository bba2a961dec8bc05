#!/bin/sh
# tests/bench-fabric.sh BUILD: rdma-collect --fabric on a generated fat tree
# (ibsim): wall time, peak RSS, bundle and fabric.json size, with
# ibnetdiscover's own wall time on the same fabric beside it (a walk only:
# no forwarding tables, no counters).  Skips with the reason when ibsim,
# opensm or infiniband-diags is missing; never fails on a figure.
# SPINES, LEAVES, HCAS (default 4 16 16: 276 nodes) and RUNS (default 3)
# change the fabric and the number of runs.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-build}" && pwd) || exit 1
RC=$BUILD/rdma-collect
RUNSTAT=$BUILD/tests/runstat
RUNS=${RUNS:-3}
SPINES=${SPINES:-4} LEAVES=${LEAVES:-16} HCAS=${HCAS:-16}
export LC_ALL=C
. "$TOP/tests/bench-lib.sh"
: "${RANDOM:=0}"	# tests/ibsim/fabric.sh reads it; dash has none

for f in "$RC" "$RUNSTAT"; do
	[ -x "$f" ] || { echo "bench-fabric: $f is missing (make BUILD=... tests)" >&2; exit 1; }
done
. "$TOP/tests/ibsim/fabric.sh"
if ! fab_have; then
	echo "bench-fabric: skipped: missing $FAB_MISSING"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdma-bench-fabric.XXXXXX") || exit 1
FAB_SOCK=rcbench$$
trap 'fab_stop; rm -rf "$tmp"' EXIT

fab_fattree "$SPINES" "$LEAVES" "$HCAS" >"$tmp/fat.topo"
fab_start "$tmp/fab" "$tmp/fat.topo" || exit 1
FAB_SM_TIMEOUT=300 fab_sm_once node001 ||
	{ echo "bench-fabric: opensm did not finish" >&2; exit 1; }

# median of the first column of a file of numbers
median() { sort -n "$1" | sed -n "$(( ($(wc -l <"$1") + 1) / 2 ))p"; }
wall() { sed -n 's/^runstat: wall_ms=\([0-9]*\).*/\1/p' "$1"; }

: >"$tmp/scan" ; : >"$tmp/rss"; : >"$tmp/ibnd"
i=1
while [ "$i" -le "$RUNS" ]; do
	rm -f "$tmp/b.rdma.tar.zst"
	FAB_TIMEOUT=300 fab_run node001 "$RUNSTAT" "$RC" -q --only fabric \
		--fabric -o "$tmp/b.rdma.tar.zst" >/dev/null 2>"$tmp/run.err" ||
		{ cat "$tmp/run.err" >&2; echo "bench-fabric: rdma-collect failed" >&2; exit 1; }
	wall "$tmp/run.err" >>"$tmp/scan"
	sed -n 's/^runstat: .*maxrss_kib=\([0-9]*\).*/\1/p' "$tmp/run.err" >>"$tmp/rss"
	fab_reap >/dev/null
	FAB_TIMEOUT=300 fab_run node001 "$RUNSTAT" ibnetdiscover \
		>"$tmp/ibnd.out" 2>"$tmp/ibnd.err" ||
		{ cat "$tmp/ibnd.err" >&2; echo "bench-fabric: ibnetdiscover failed" >&2; exit 1; }
	wall "$tmp/ibnd.err" >>"$tmp/ibnd"
	i=$((i + 1))
done
tar --zstd -xOf "$tmp/b.rdma.tar.zst" rdma-collect/fabric/fabric.json >"$tmp/fabric.json"
set -- $(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = d["nodes"]
print(len(n), sum(1 for x in n if x["type"] == 2),
      sum(1 for x in n for p in x["ports"] if "pma" in p),
      sum(len(x.get("lft", [])) for x in n), d["status"], d["duration_ms"])' \
	"$tmp/fabric.json")
nodes=$1 switches=$2 pma=$3 lft=$4 status=$5 dur=$6
ibnd_nodes=$(grep -c '^\(Switch\|Ca\)' "$tmp/ibnd.out")

echo "rdma-collect --fabric benchmark: fat tree $SPINES spines x $LEAVES leaves x $HCAS HCAs" \
	"on ibsim, $RUNS runs"
printf '  %-34s %8s   (ibnetdiscover found %s)\n' "nodes found (switches)" "$nodes ($switches)" "$ibnd_nodes"
printf '  %-34s %8s\n' "status of the scan" "$status"
printf '  %-34s %8s\n' "ports with counters read" "$pma"
printf '  %-34s %8s\n' "LFT entries read" "$lft"
printf '  %-34s %8s ms\n' "rdma-collect wall time, median" "$(median "$tmp/scan")"
printf '  %-34s %8s ms\n' "  the scan itself (duration_ms)" "$dur"
printf '  %-34s %8s ms  (walk only)\n' "ibnetdiscover wall time, median" "$(median "$tmp/ibnd")"
printf '  %-34s %8s KiB\n' "peak RSS (max of runs)" "$(sort -n "$tmp/rss" | tail -1)"
printf '  %-34s %8s KiB\n' "fabric.json" "$(( ($(wc -c <"$tmp/fabric.json") + 1023) / 1024 ))"
bench_row fabric "--fabric scan, $nodes nodes (median)" "$(median "$tmp/scan")" ms ibnetdiscover "$(median "$tmp/ibnd")"
bench_row fabric "--fabric peak RSS" "$(sort -n "$tmp/rss" | tail -1)" KiB
printf '  %-34s %8s KiB\n' "bundle (.rdma.tar.zst)" "$(( ($(wc -c <"$tmp/b.rdma.tar.zst") + 1023) / 1024 ))"
exit 0
