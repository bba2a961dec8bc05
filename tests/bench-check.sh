#!/bin/sh
# tests/bench-check.sh BUILD: `rdma-analyze check` (collector as a child,
# the bundle loaded and diagnosed in memory) on the gpu-ndr8 fixture (8
# NDR HCAs, through --root) and on this machine as it is: wall time
# (median of RUNS, default 5) and peak RSS of the check and of its
# collector (runstat's wait4: the largest of the process and its
# children).  The target is issue 22's: a check under 2 s on the 8-HCA
# node.  Never fails on a figure.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-build}" && pwd) || exit 1
RA=$BUILD/rdma-analyze
RUNSTAT=$BUILD/tests/runstat
RUNS=${RUNS:-5}
export LC_ALL=C
. "$TOP/tests/bench-lib.sh"

for f in "$RA" "$BUILD/rdma-collect" "$RUNSTAT"; do
	[ -x "$f" ] || { echo "bench-check: $f is missing (make BUILD=... tests)" >&2; exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdma-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
"$TOP/tests/fixtures/mknode.sh" gpu-ndr8 "$tmp/root" >/dev/null 2>&1 ||
	{ echo "bench-check: mknode.sh gpu-ndr8 failed" >&2; exit 1; }

# measure ARGS...: RUNS checks; prints "median_ms rss_kib status"
measure() {
	i=1
	: >"$tmp/runs"
	while [ "$i" -le "$RUNS" ]; do
		"$RUNSTAT" "$RA" check "$@" >/dev/null 2>"$tmp/run.err"
		sed -n 's/^runstat: wall_ms=\([0-9]*\) maxrss_kib=\([0-9]*\) status=\([0-9]*\).*/\1 \2 \3/p' \
			"$tmp/run.err" >>"$tmp/runs"
		i=$((i + 1))
	done
	echo "$(cut -d' ' -f1 "$tmp/runs" | sort -n | sed -n "$(((RUNS + 1) / 2))p")" \
		"$(cut -d' ' -f2 "$tmp/runs" | sort -n | tail -1)" \
		"$(cut -d' ' -f3 "$tmp/runs" | tail -1)"
}
verdict() { if [ "$1" -lt "$2" ]; then echo ok; else echo "over target"; fi; }

echo "rdma-analyze check: $RUNS runs each"
# shellcheck disable=SC2046	# three numbers
set -- $(measure --root "$tmp/root")
printf '  %-34s %8s ms   (target < 2000 ms: %s)\n' "gpu-ndr8 fixture, median" "$1" "$(verdict "$1" 2000)"
printf '  %-34s %8s KiB  (exit status %s)\n' "gpu-ndr8 fixture, peak RSS" "$2" "$3"
bench_row check "check, gpu-ndr8 (median)" "$1" ms "" "" "< 2000 ms" "$(verdict "$1" 2000)"
bench_row check "check, gpu-ndr8 peak RSS" "$2" KiB
# shellcheck disable=SC2046
set -- $(measure)
printf '  %-34s %8s ms\n' "this machine, median" "$1"
printf '  %-34s %8s KiB  (exit status %s)\n' "this machine, peak RSS" "$2" "$3"
bench_row check "check, this machine (median)" "$1" ms
bench_row check "check, this machine peak RSS" "$2" KiB
