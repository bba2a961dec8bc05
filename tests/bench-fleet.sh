#!/bin/sh
# tests/bench-fleet.sh BUILD: rdma-analyze on a synthetic fleet of NODES
# (default 2,000) nodes x SNAPS (default 5) snapshots made by
# tests/genfleet.py (real collections for the class templates and the
# faulty nodes, the rest derived from the templates' bundles).
# Each timed with build/tests/runstat (wall ms, peak RSS):
#   - rdma-analyze load --db (every bundle; it also runs the rules),
#   - rdma-analyze report --db, text and JSON (newest bundle of each node:
#     the fleet pass, once it exists, runs there),
#   - rdma-analyze diff and history, when this rdma-analyze has them,
#   - rdma-analyze merge: the same bundles loaded as two halves into two
#     databases, merged into a third (the per-rack path of the README).
# Targets: 10,000 bundles loaded in < 60 s, fleet and history analysis
# < 10 s, peak RSS < 1 GiB.  Prints figures; never fails on them (exit 0
# unless a step itself cannot run).  FLEET_DIR=DIR keeps (and reuses) the
# generated fleet there.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-build}" && pwd) || exit 1
RA=$BUILD/rdma-analyze
RUNSTAT=$BUILD/tests/runstat
NODES=${NODES:-2000}
SNAPS=${SNAPS:-5}
export LC_ALL=C
. "$TOP/tests/bench-lib.sh"
CPUS=$(nproc 2>/dev/null || echo 2)

for f in "$BUILD/rdma-collect" "$RA" "$RUNSTAT"; do
	[ -x "$f" ] || { echo "bench-fleet: $f is missing (make BUILD=... tests)" >&2; exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdma-bench-fleet.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fleet=${FLEET_DIR:-$tmp/fleet}

# the subcommand is in this build's usage (an unknown word is a bundle name)
has_cmd() { "$RA" --help 2>/dev/null | grep -q "rdma-analyze $1 "; }

t0=$(now_ms)
if [ ! -f "$fleet/bundles.tsv" ]; then
	"$TOP/tests/genfleet.py" "$BUILD" -o "$fleet" --nodes "$NODES" --snapshots "$SNAPS" \
		>"$tmp/gen.out" 2>&1 || { cat "$tmp/gen.out" >&2; echo "bench-fleet: genfleet failed" >&2; exit 1; }
fi
gen_ms=$(($(now_ms) - t0))
nb=$(ls "$fleet/bundles" | wc -l)
AREA="fleet $nb"
nreal=$(grep -c '	real	' "$fleet/bundles.tsv")
echo "rdma-analyze fleet benchmark: $NODES nodes x $SNAPS snapshots = $nb bundles ($nreal real collections, the rest derived; tests/genfleet.py), $CPUS CPUs"
printf '  %-34s %8s ms\n' "making the fleet" "$gen_ms"

db=$tmp/fleet.db
timed "load --db, all" 60000 "$RA" load --db "$db" "$fleet/bundles"
load_ms=$LAST_MS
bench_row "fleet $nb" "load rate" "$((load_ms > 0 ? nb * 1000 / load_ms : 0))" "b/s"
printf '  %-34s %8s      (bundles/s)\n' "load rate" "$((load_ms > 0 ? nb * 1000 / load_ms : 0))"
timed "report --db, text" 10000 "$RA" report --db "$db" -o "$tmp/r.txt"
timed "report --db, json" 10000 "$RA" report --db "$db" -f json -o "$tmp/r.json"
n1=$(awk -F'\t' '!/^#/ && $6 == "real" { print $1; exit }' "$fleet/bundles.tsv")
if has_cmd history; then
	timed "history --db (one node)" 10000 "$RA" history --db "$db" "$n1"
else
	printf '  %-34s %8s\n' "history" "(no 'rdma-analyze history' in this build)"
fi
if has_cmd diff; then
	n2=$(awk -F'\t' '!/^#/ && $6 ~ /^derived/ { print $1; exit }' "$fleet/bundles.tsv")
	timed "diff (two nodes)" 10000 "$RA" diff --db "$db" "$n1" "$n2"
else
	printf '  %-34s %8s\n' "diff" "(no 'rdma-analyze diff' in this build)"
fi
if has_cmd merge; then
	# two "racks": the bundle list split in two halves, loaded one after
	# the other here (in parallel on two machines), then merged
	ls "$fleet"/bundles/*.rdma.tar.zst >"$tmp/all"
	half=$((nb / 2))
	head -n "$half" "$tmp/all" >"$tmp/r1"
	tail -n +"$((half + 1))" "$tmp/all" >"$tmp/r2"
	# shellcheck disable=SC2046
	timed "load --db, rack 1 of 2" 0 "$RA" load --db "$tmp/r1.db" $(cat "$tmp/r1")
	# shellcheck disable=SC2046
	timed "load --db, rack 2 of 2" 0 "$RA" load --db "$tmp/r2.db" $(cat "$tmp/r2")
	timed "merge --db (two racks)" 0 "$RA" merge --db "$tmp/m.db" "$tmp/r1.db" "$tmp/r2.db"
fi
bench_row "fleet $nb" "peak RSS, any step" "$RSS_MAX" KiB "" "" "< 1048576 KiB" "$(verdict_lt "$RSS_MAX" 1048576)"
printf '  %-34s %8s KiB  (target < 1048576 KiB: %s)\n' "peak RSS, any step" "$RSS_MAX" "$(verdict_lt "$RSS_MAX" 1048576)"
exit 0
