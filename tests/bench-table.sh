#!/bin/sh
# tests/bench-table.sh FILE: the figures the bench scripts recorded
# (tests/bench-lib.sh) as one table: ours, the peer beside it where this
# machine has one (tar + zstd, ibnetdiscover, the tomography floor), the
# ratio ours / peer, and the target.
set -u
[ -s "${1:-}" ] || { echo "bench-table: no figures recorded" >&2; exit 0; }
awk -F'\t' '
function num(s) { return s ~ /^-?[0-9.]+$/ }
BEGIN {
	printf "\n%-14s %-36s %12s %-6s %-24s %9s  %s\n", "area", "figure", "ours", "unit",
		"peer", "ours/peer", "target"
	for (i = 0; i < 124; i++) line = line "-"
	print line
}
{
	peer = $5 != "" ? sprintf("%s %s", $5, $6) : ""
	ratio = ""
	if ($5 != "" && num($3) && num($6) && $6 + 0 != 0)
		ratio = sprintf("%.2f", $3 / $6)
	tgt = $7 != "" ? sprintf("%s: %s", $7, $8) : ""
	printf "%-14s %-36s %12s %-6s %-24s %9s  %s\n", $1, $2, $3, $4, peer, ratio, tgt
}' "$1"
