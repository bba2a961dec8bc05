#!/bin/sh
# tests/run.sh BUILD: run every unit test binary and every CLI test script,
# print their lines, and end with one line "N passed, N failed, N skipped".
# Exit 1 if anything failed.  TESTS="name ..." runs only those.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-build-check}" && pwd)
export TOP BUILD
export RC="$BUILD/rdma-collect" RA="$BUILD/rdma-analyze"
export FIXTURES="$TOP/tests/fixtures"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LC_ALL=C
out=$(mktemp -d "${TMPDIR:-/tmp}/rdma-tests.XXXXXX")
trap 'rm -rf "$out"' EXIT

want() {
	[ -z "${TESTS:-}" ] && return 0
	for w in $TESTS; do [ "$w" = "$1" ] && return 0; done
	return 1
}

run_one() {	# name, command...
	name=$1
	shift
	log="$out/$name.log"
	"$@" >"$log" 2>&1
	rc=$?
	echo "# $name"
	grep -E '^(ok|not ok|skip) - ' "$log" | sed 's/^/  /'
	if [ $rc -ne 0 ] && ! grep -q '^not ok - ' "$log"; then
		# a crash or an error outside any check is a failure too
		echo "not ok - $name exited with status $rc" >>"$log"
		echo "  not ok - $name exited with status $rc"
	fi
	if grep -q '^not ok - ' "$log" || [ $rc -ne 0 ]; then
		sed -n '/^not ok - \|^#   \|ERROR\|runtime error\|Sanitizer/p' "$log" |
			head -40 | sed 's/^/    | /'
	fi
	cat "$log" >>"$out/all"
}

: >"$out/all"
for t in "$BUILD"/tests/test-* "$BUILD"/tests/atest-*; do
	[ -x "$t" ] || continue
	n=$(basename "$t")
	want "$n" || continue
	run_one "$n" "$t"
done
for t in "$TOP"/tests/cli/*.sh; do
	[ -f "$t" ] || continue
	n=$(basename "$t" .sh)
	want "$n" || continue
	T=$(mktemp -d "$out/$n.XXXXXX")
	export T
	run_one "$n" sh -c '. "$TOP/tests/lib.sh"; . "$1"' sh "$t"
	rm -rf "$T"
done
pass=$(grep -c '^ok - ' "$out/all")
fail=$(grep -c '^not ok - ' "$out/all")
skipped=$(grep -c '^skip - ' "$out/all")
echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
