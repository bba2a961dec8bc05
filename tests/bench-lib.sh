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
