#!/bin/sh
# tests/bench-static.sh BUILD [STATIC_DIR]: the static collectors beside the
# dynamic one on the gpu-ndr8 fixture (8 NDR HCAs): file size (and, for the
# dynamic build, with the shared libraries it loads on this machine), wall
# time (median of RUNS, default 5) and peak RSS, and what each links.
# STATIC_DIR (default build-static) holds rdma-collect-x86_64 and
# rdma-collect-aarch64 from `make static` and `make static ARCH=aarch64`;
# the aarch64 one runs under qemu-user, so its time and memory are the
# emulator's and are labelled so.  Never fails on a figure.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-build}" && pwd) || exit 1
SDIR=${2:-$TOP/build-static}
RUNSTAT=$BUILD/tests/runstat
RUNS=${RUNS:-5}
: "${SOURCE_DATE_EPOCH:=1700000000}"
export SOURCE_DATE_EPOCH LC_ALL=C
. "$TOP/tests/bench-lib.sh"

[ -x "$RUNSTAT" ] || { echo "bench-static: $RUNSTAT is missing" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdma-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
"$TOP/tests/fixtures/mknode.sh" gpu-ndr8 "$tmp/root" >/dev/null 2>&1 ||
	{ echo "bench-static: mknode.sh gpu-ndr8 failed" >&2; exit 1; }

# the shared objects a dynamic program loads here, one per line
libs() { ldd "$1" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'; }

# measure NAME RUNNER FILE: RUNS collections; prints "median_ms rss_kib"
measure() {
	i=1
	: >"$tmp/runs"
	while [ "$i" -le "$RUNS" ]; do
		rm -rf "$tmp/out"
		mkdir "$tmp/out"
		$2 "$RUNSTAT" $3 "$4" --root "$tmp/root" -q -o "$tmp/out" \
			>/dev/null 2>"$tmp/run.err" ||
			{ echo "bench-static: $1 failed" >&2; cat "$tmp/run.err" >&2; return 1; }
		sed -n 's/^runstat: wall_ms=\([0-9]*\) maxrss_kib=\([0-9]*\).*/\1 \2/p' \
			"$tmp/run.err" >>"$tmp/runs"
		i=$((i + 1))
	done
	echo "$(cut -d' ' -f1 "$tmp/runs" | sort -n | sed -n "$(((RUNS + 1) / 2))p")" \
		"$(cut -d' ' -f2 "$tmp/runs" | sort -n | tail -1)"
}

echo "rdma-collect, dynamic and static: gpu-ndr8 fixture, $RUNS runs each"
printf '  %-34s %10s %10s %8s %9s\n' binary "file B" "+libs B" "ms" "peak KiB"
row() {	# name runner runner-args file
	f=$4
	[ -x "$f" ] || { printf '  %-34s missing (%s)\n' "$1" "$f"; return 0; }
	size=$(stat -c %s "$f")
	all=$size
	if [ "$1" = dynamic ]; then
		for l in $(libs "$f"); do
			all=$((all + $(stat -L -c %s "$l")))
		done
	fi
	set -- "$1" "$2" "$3" "$f" "$(measure "$1" "$2" "$3" "$f")"
	[ -n "$5" ] || return 0
	printf '  %-34s %10s %10s %8s %9s\n' "$1" "$size" "$all" ${5}
	bench_row static "$1: file size" "$size" B
	bench_row static "$1: wall (median)" "${5%% *}" ms
	bench_row static "$1: peak RSS" "${5##* }" KiB
}
row dynamic "" "" "$BUILD/rdma-collect"
row "static x86_64" "" "" "$SDIR/rdma-collect-x86_64"
q=$(command -v qemu-aarch64-static || command -v qemu-aarch64 || true)
if [ -n "$q" ]; then
	# runstat runs under the host; the collector under qemu-user
	row "static aarch64 (under qemu-user)" "" "$q" "$SDIR/rdma-collect-aarch64"
else
	echo "  static aarch64: no qemu-aarch64-static to run it"
fi

echo "what each links"
echo "  dynamic (shared objects loaded here):"
libs "$BUILD/rdma-collect" | sed 's|^|    |'
echo "  and at run time, with dlopen: libibverbs.so.1 (and its providers),"
echo "    libibumad.so.3, libibmad.so.5, libibnetdisc.so.5"
for a in x86_64 aarch64; do
	m=$SDIR/$a/rdma-collect.map
	[ -f "$m" ] || continue
	echo "  static $a (archives the linker took members from, and how many):"
	# the map's "Archive member included" section names archive(member)
	awk '/^Archive member included/ { on = 1; next }
	     /^(Allocating common|Discarded input|Memory Configuration)/ { exit }
	     on' "$m" |
		grep -o '^[^ (]*\.a(' | sed 's|($||; s|.*/||' | sort | uniq -c |
		awk '{ printf "    %-32s %4d\n", $2, $1 }'
done
exit 0
