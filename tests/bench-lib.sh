# tests/bench-lib.sh: sourced by the bench scripts.  bench_row records one
# figure for the summary table `make bench` prints at the end
# (tests/bench-table.sh), in $BENCH_TSV when it is set:
#
#   bench_row AREA FIGURE OURS UNIT [PEER_NAME PEER_VALUE] [TARGET VERDICT]
#
# AREA groups rows ("collect", "analyze 2,000"), OURS and PEER_VALUE are
# numbers in UNIT, TARGET is text ("< 500 ms"), VERDICT "ok" or what
# missed.  Empty arguments are allowed; tabs and newlines are not.
bench_row() {
	[ -n "${BENCH_TSV:-}" ] || return 0
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" \
		"${5:-}" "${6:-}" "${7:-}" "${8:-}" >>"$BENCH_TSV"
}

# The scripts' common steps.  now_ms: the clock in ms.  stat_of FILE: "wall
# maxrss status" from build/tests/runstat's last line in FILE.  verdict_lt
# and verdict_le A B: "ok" or "over target".
now_ms() { date +%s%3N; }
stat_of() {
	sed -n 's/^runstat: wall_ms=\([0-9]*\) maxrss_kib=\([0-9]*\) status=\([0-9]*\).*/\1 \2 \3/p' "$1" | tail -1
}
verdict_lt() { if [ "$1" -lt "$2" ]; then echo ok; else echo "over target"; fi; }
verdict_le() { if [ "$1" -le "$2" ]; then echo ok; else echo "over target"; fi; }

# timed NAME TARGET_MS CMD...: run CMD under $RUNSTAT (output in $tmp/out,
# $tmp/err), print one line (name padded to $BENCH_W, default 34), record
# the time and the peak RSS as rows of $AREA, keep the largest RSS in
# RSS_MAX and the time in LAST_MS.  TARGET_MS 0: no target.
RSS_MAX=0
timed() {
	name=$1 target=$2
	shift 2
	"$RUNSTAT" "$@" >"$tmp/out" 2>"$tmp/err"
	# shellcheck disable=SC2046
	set -- $(stat_of "$tmp/err")
	ms=${1:-0} rss=${2:-0} st=${3:-?}
	[ "$rss" -gt "$RSS_MAX" ] && RSS_MAX=$rss
	if [ "$target" -gt 0 ]; then
		printf "  %-${BENCH_W:-34}s %8s ms   (target < %s ms: %s; exit %s, %s MiB)\n" "$name" "$ms" \
			"$target" "$(verdict_lt "$ms" "$target")" "$st" "$((rss / 1024))"
		bench_row "$AREA" "$name" "$ms" ms "" "" "< $target ms" "$(verdict_lt "$ms" "$target")"
	else
		printf "  %-${BENCH_W:-34}s %8s ms   (exit %s, %s MiB)\n" "$name" "$ms" "$st" "$((rss / 1024))"
		bench_row "$AREA" "$name" "$ms" ms
	fi
	bench_row "$AREA" "$name, peak RSS" "$rss" KiB
	case $st in 0|1|2) ;; *) head -3 "$tmp/err" | grep -v '^runstat' | sed 's/^/    /' ;; esac
	LAST_MS=$ms
}
