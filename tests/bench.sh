#!/bin/sh
# tests/bench.sh BUILD: speed, memory and size of rdma-collect on the
# gpu-ndr8 fixture (8 NDR HCAs, 8 GPUs, ~1,400 ethtool stats per netdev).
#
# Prints figures against the targets (wall < 0.5 s, peak RSS < 20 MiB,
# bundle < 300 KiB) with "ok" or "over target".  Never fails on a figure:
# the exit status is 0 unless the fixture or the collector itself fails.
# RUNS=N changes the number of runs (default 5); SOURCE_DATE_EPOCH is
# honoured (default 1700000000, so every run writes the same bundle).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-build}" && pwd) || exit 1
RC=$BUILD/rdma-collect
RUNSTAT=$BUILD/tests/runstat
RUNS=${RUNS:-5}
: "${SOURCE_DATE_EPOCH:=1700000000}"
export SOURCE_DATE_EPOCH LC_ALL=C
. "$TOP/tests/bench-lib.sh"

for f in "$RC" "$RUNSTAT"; do
	[ -x "$f" ] || { echo "bench: $f is missing (make BUILD=... tests)" >&2; exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdma-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# verdict VALUE LIMIT: "ok" or "over target"
verdict() { if [ "$1" -lt "$2" ]; then echo ok; else echo "over target"; fi; }

# the fixture, timed (generation must stay well under 2 s)
"$RUNSTAT" "$TOP/tests/fixtures/mknode.sh" gpu-ndr8 "$tmp/root" 2>"$tmp/gen.err" ||
	{ cat "$tmp/gen.err" >&2; echo "bench: mknode.sh gpu-ndr8 failed" >&2; exit 1; }
gen_ms=$(sed -n 's/^runstat: wall_ms=\([0-9]*\).*/\1/p' "$tmp/gen.err")
nfiles=$(find "$tmp/root" | wc -l)

i=1
: >"$tmp/runs"
while [ "$i" -le "$RUNS" ]; do
	rm -rf "$tmp/out"
	mkdir "$tmp/out"
	if ! "$RUNSTAT" "$RC" --root "$tmp/root" -q -o "$tmp/out" \
		>"$tmp/run.out" 2>"$tmp/run.err"; then
		cat "$tmp/run.err" >&2
		echo "bench: rdma-collect failed (run $i)" >&2
		exit 1
	fi
	sed -n 's/^runstat: wall_ms=\([0-9]*\) maxrss_kib=\([0-9]*\).*/\1 \2/p' \
		"$tmp/run.err" >>"$tmp/runs"
	i=$((i + 1))
done
bundle=$(ls "$tmp/out"/*.rdma.tar.zst)

med=$(cut -d' ' -f1 "$tmp/runs" | sort -n | sed -n "$(((RUNS + 1) / 2))p")
best=$(cut -d' ' -f1 "$tmp/runs" | sort -n | head -1)
rss=$(cut -d' ' -f2 "$tmp/runs" | sort -n | tail -1)
size=$(wc -c <"$bundle")
size_kib=$(((size + 1023) / 1024))
entries=$(tar --zstd -tf "$bundle" | wc -l)

echo "rdma-collect benchmark: gpu-ndr8 fixture ($nfiles paths, made in $gen_ms ms), $RUNS runs"
printf '  %-26s %8s ms   (target < 500 ms: %s)\n' "wall time, median" "$med" "$(verdict "$med" 500)"
printf '  %-26s %8s ms\n' "wall time, best" "$best"
printf '  %-26s %8s KiB  (target < 20480 KiB: %s)\n' "peak RSS (max of runs)" "$rss" "$(verdict "$rss" 20480)"
printf '  %-26s %8s KiB  (target < 300 KiB: %s)\n' "bundle size" "$size_kib" "$(verdict "$size_kib" 300)"
printf '  %-26s %8s\n' "bundle entries" "$entries"
bench_row collect "rdma-collect, gpu-ndr8 (median)" "$med" ms "" "" "< 500 ms" "$(verdict "$med" 500)"
bench_row collect "rdma-collect peak RSS" "$rss" KiB "" "" "< 20480 KiB" "$(verdict "$rss" 20480)"
bench_row collect "bundle size" "$size_kib" KiB "" "" "< 300 KiB" "$(verdict "$size_kib" 300)"

# ethtool stats per netdev, counted in the bundle
mkdir "$tmp/x"
tar --zstd -xf "$bundle" -C "$tmp/x" --wildcards 'rdma-collect/ethtool/*' 2>/dev/null
for j in "$tmp/x/rdma-collect/ethtool"/*.json; do
	[ -f "$j" ] || { echo "  ethtool stats: none in the bundle"; break; }
	if command -v python3 >/dev/null 2>&1; then
		n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1])).get("stats") or []))' "$j")
	else
		n=$(grep -o '"n_stats": *[0-9]*' "$j" | grep -o '[0-9]*$')
	fi
	printf '  %-26s %8s       (target 1,000+: %s)\n' "ethtool stats $(basename "$j" .json)" "$n" \
		"$([ "${n:-0}" -ge 1000 ] && echo ok || echo "under target")"
done
exit 0
