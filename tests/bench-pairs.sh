#!/bin/sh
# tests/bench-pairs.sh BUILD: the measured accuracy of `rdma-analyze pairs`
# (issues 7 and 21; tests/pairs-eval/README.md): issue 7's fat trees of 32
# to 512 hosts, one and two rails, routed by opensm's minhop, updn and
# ftree engines, and the other shapes (2, 4, 8 spines, parallel cables, 3
# levels, unequal leaves, hosts named by GID or IP address) routed by
# every engine that accepts them, on ibsim, scanned with rdma-collect
# --fabric (cached in RDMA_PAIRS_CACHE, default ~/.cache/rdma-pairs-eval);
# then CASES random cases on the first (default 1080, 20 a row of the
# table) and SHAPE_CASES on each other shape (default 270, 5 a row: 2,430
# on the nine; SEED, default 1), scored for --method best, the floor's
# variants (floor.py) and --method tomography, the Bayes rule beside every
# row (exact for one fault, sampled for two and three), issue 21's targets
# beside each row; then the time of one localization on 512 hosts with
# all pairs.
# PAIRS_JSON=FILE also writes every case (fabric, faults, answers, which of
# them are right, scores).
# Skips with the reason when ibsim or python3 is missing; never fails on a
# figure (a row below its target says MISSES).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-build}" && pwd) || exit 1
export LC_ALL=C
: "${RANDOM:=0}"	# tests/ibsim/fabric.sh reads it; dash has none

. "$TOP/tests/ibsim/fabric.sh"
if ! fab_have; then
	echo "bench-pairs: skipped: missing $FAB_MISSING"
	exit 0
fi
command -v python3 >/dev/null || { echo "bench-pairs: skipped: no python3"; exit 0; }
if ! "$BUILD/rdma-analyze" pairs --help >/dev/null 2>&1; then
	echo "bench-pairs: skipped: $BUILD/rdma-analyze has no pairs subcommand"
	exit 0
fi
. "$TOP/tests/bench-lib.sh"
out=$(mktemp "${TMPDIR:-/tmp}/rdma-bench-pairs.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT
python3 "$TOP/tests/pairs-eval/eval.py" --build "$BUILD" ${PAIRS_JSON:+--json "$PAIRS_JSON"} \
	--cases "${CASES:-1080}" --shape-cases "${SHAPE_CASES:-270}" --seed "${SEED:-1}" \
	--methods best,floor,tomography --bayes --speed | tee "$out"
# the table's verdicts and the speed lines, for make bench's summary
ms() { sed -n "s/^speed: pairs --method $1 on 512 hosts.*: \([0-9.]*\) s wall.*/\1/p" "$out" |
	awk '{ printf "%d", $1 * 1000 }'; }
best=$(ms best) floor=$(ms tomography)
ok=$(grep -c '^[123] .*| [A-Z,]* ok$' "$out")
miss=$(grep -c '^[123] .*MISSES' "$out")
[ -n "$best" ] && bench_row pairs "localize 512 hosts, 261,632 results" "$best" ms \
	tomography "${floor:-}" "< 5000 ms" "$([ "$best" -lt 5000 ] && echo ok || echo 'over target')"
bench_row pairs "accuracy: table rows meeting every target" "$ok" rows "" "" \
	"all $((ok + miss)) rows" "$([ "$miss" -eq 0 ] && echo ok || echo "$miss rows miss one")"
exit 0
