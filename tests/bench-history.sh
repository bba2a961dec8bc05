#!/bin/sh
# tests/bench-history.sh BUILD: what history costs in the database (issue 23).
#   - bytes of database a bundle adds: a FIRST snapshot of the gpu-ndr8
#     fixture (8 NDR HCAs) and a NEXT snapshot of the same unchanged node
#     (collected again a day later with --root), each the growth of the
#     file after VACUUM (free pages left out);
#   - a fleet of NODES (default 200) x SNAPS (default 10) snapshots made
#     by tests/genfleet.py: load time and rate of the first snapshots
#     (one load) and of the later ones (a second load), database size and
#     bytes per bundle, `history NODE` of one node, `diff` of two
#     snapshots of one node and `report --db` (the newest bundle of each
#     node), each timed with build/tests/runstat (wall ms, peak RSS);
#     then `prune --keep` half the snapshots, without and with VACUUM.
# Targets (issue 23, for 10,000 x 30): next snapshot <= 20 KiB, first
# <= 100 KiB, database < 20 GB (scaled here by bundles: 20 GB / 300,000
# = 69,905 bytes a bundle), first-snapshot load rate no lower than today's,
# history < 1 s, report < 10 s, peak RSS < 1 GiB.  The full scale also
# prints what it would take at the measured rates (an estimate, labelled
# so).  Prints figures; never fails on them (exit 0 unless a step itself
# cannot run).  FLEET_DIR=DIR keeps (and reuses) the generated fleet.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-build}" && pwd) || exit 1
RA=$BUILD/rdma-analyze
RC=$BUILD/rdma-collect
RUNSTAT=$BUILD/tests/runstat
NODES=${NODES:-200}
SNAPS=${SNAPS:-10}
export LC_ALL=C
. "$TOP/tests/bench-lib.sh"

for f in "$RC" "$RA" "$RUNSTAT"; do
	[ -x "$f" ] || { echo "bench-history: $f is missing (make BUILD=... tests)" >&2; exit 1; }
done
command -v sqlite3 >/dev/null ||
	{ echo "bench-history: sqlite3 is missing (tests/install-deps.sh)" >&2; exit 1; }
[ "$SNAPS" -ge 2 ] || { echo "bench-history: SNAPS must be 2 or more" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdma-bench-history.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fleet=${FLEET_DIR:-$tmp/fleet}

now_ms() { date +%s%3N; }
stat_of() { sed -n 's/^runstat: wall_ms=\([0-9]*\) maxrss_kib=\([0-9]*\) status=\([0-9]*\).*/\1 \2 \3/p' "$1" | tail -1; }
verdict_lt() { if [ "$1" -lt "$2" ]; then echo ok; else echo "over target"; fi; }
verdict_le() { if [ "$1" -le "$2" ]; then echo ok; else echo "over target"; fi; }
RSS_MAX=0
AREA=history
# timed NAME TARGET_MS CMD...: run, print one line, remember the RSS
timed() {
	name=$1 target=$2
	shift 2
	"$RUNSTAT" "$@" >"$tmp/out" 2>"$tmp/err"
	# shellcheck disable=SC2046
	set -- $(stat_of "$tmp/err")
	ms=${1:-0} rss=${2:-0} st=${3:-?}
	[ "$rss" -gt "$RSS_MAX" ] && RSS_MAX=$rss
	if [ "$target" -gt 0 ]; then
		printf '  %-36s %8s ms   (target < %s ms: %s; exit %s, %s MiB)\n' "$name" "$ms" \
			"$target" "$(verdict_lt "$ms" "$target")" "$st" "$((rss / 1024))"
		bench_row "$AREA" "$name" "$ms" ms "" "" "< $target ms" "$(verdict_lt "$ms" "$target")"
	else
		printf '  %-36s %8s ms   (exit %s, %s MiB)\n' "$name" "$ms" "$st" "$((rss / 1024))"
		bench_row "$AREA" "$name" "$ms" ms
	fi
	bench_row "$AREA" "$name, peak RSS" "$rss" KiB
	case $st in 0|1|2) ;; *) head -3 "$tmp/err" | grep -v '^runstat' | sed 's/^/    /' ;; esac
	LAST_MS=$ms
}
# size DB: the file's bytes once compacted (VACUUM; the WAL folded in)
size() {
	sqlite3 "$1" 'VACUUM; PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null || return 1
	stat -c %s "$1"
}

# --- one node: a first and a next snapshot ---
"$TOP/tests/fixtures/mknode.sh" gpu-ndr8 "$tmp/root" >/dev/null 2>"$tmp/gen.err" ||
	{ cat "$tmp/gen.err" >&2; echo "bench-history: mknode.sh gpu-ndr8 failed" >&2; exit 1; }
mkdir "$tmp/b"
for e in 1700000000 1700086400; do
	SOURCE_DATE_EPOCH=$e "$RC" -q --root "$tmp/root" -o "$tmp/b" >"$tmp/b.$e" 2>"$tmp/c.err" ||
		{ cat "$tmp/c.err" >&2; echo "bench-history: rdma-collect failed" >&2; exit 1; }
done
b1=$(cat "$tmp/b.1700000000") b2=$(cat "$tmp/b.1700086400")
[ "$b1" != "$b2" ] || { echo "bench-history: the two collections are one bundle" >&2; exit 1; }
one=$tmp/one.db
# the schema alone: a load of an empty folder makes the database (and
# fails: no evidence read)
mkdir "$tmp/empty"
"$RA" load -q --db "$one" "$tmp/empty" 2>/dev/null
if ! { s0=$(size "$one") &&
	"$RA" load -q --db "$one" "$b1" && s1=$(size "$one") &&
	"$RA" load -q --db "$one" "$b2" && s2=$(size "$one"); }; then
	echo "bench-history: loading the gpu-ndr8 snapshots failed" >&2
	exit 1
fi
[ "$(sqlite3 "$one" 'SELECT count(*) FROM bundles')" = 2 ] ||
	{ echo "bench-history: the two snapshots are not two bundles" >&2; exit 1; }
first=$((s1 - s0)) next=$((s2 - s1))
echo "rdma-analyze history benchmark: database bytes per bundle (gpu-ndr8, $(stat -c %s "$b1") byte bundle; empty database $s0 bytes)"
printf '  %-36s %8s B    (%s KiB; target <= 100 KiB: %s)\n' "first snapshot of a node" "$first" \
	"$((first / 1024))" "$(verdict_le "$first" 102400)"
printf '  %-36s %8s B    (%s KiB; target <= 20 KiB: %s)\n' "next snapshot, node unchanged" "$next" \
	"$((next / 1024))" "$(verdict_le "$next" 20480)"
bench_row "$AREA" "first snapshot (gpu-ndr8)" "$first" B "" "" "<= 102400 B" "$(verdict_le "$first" 102400)"
bench_row "$AREA" "next snapshot, unchanged" "$next" B "" "" "<= 20480 B" "$(verdict_le "$next" 20480)"

# --- the fleet ---
t0=$(now_ms)
if [ ! -f "$fleet/bundles.tsv" ]; then
	"$TOP/tests/genfleet.py" "$BUILD" -o "$fleet" --nodes "$NODES" --snapshots "$SNAPS" \
		>"$tmp/gen.out" 2>&1 || { cat "$tmp/gen.out" >&2; echo "bench-history: genfleet failed" >&2; exit 1; }
fi
gen_ms=$(($(now_ms) - t0))
# the fleet's own shape (FLEET_DIR may hold another)
nb=$(awk -F'\t' '!/^#/' "$fleet/bundles.tsv" | wc -l)
nn=$(awk -F'\t' '!/^#/ { print $1 }' "$fleet/bundles.tsv" | sort -u | wc -l)
AREA="history $nn x $((nb / (nn > 0 ? nn : 1)))"
awk -F'\t' -v d="$fleet/bundles" '!/^#/ && $3 == 0 { print d "/" $7 }' "$fleet/bundles.tsv" >"$tmp/first"
awk -F'\t' -v d="$fleet/bundles" '!/^#/ && $3 != 0 { print d "/" $7 }' "$fleet/bundles.tsv" >"$tmp/later"
n1=$(wc -l <"$tmp/first") n2=$(wc -l <"$tmp/later")
echo "fleet: $nn nodes x $((nb / (nn > 0 ? nn : 1))) snapshots = $nb bundles (tests/genfleet.py), $(nproc) CPUs"
printf '  %-36s %8s ms\n' "making the fleet" "$gen_ms"

db=$tmp/fleet.db
# shellcheck disable=SC2046
timed "load, first snapshots ($n1)" 0 "$RA" load -q --db "$db" $(cat "$tmp/first")
ms1=$LAST_MS
# shellcheck disable=SC2046
timed "load, later snapshots ($n2)" 0 "$RA" load -q --db "$db" $(cat "$tmp/later")
ms2=$LAST_MS
r1=$((ms1 > 0 ? n1 * 1000 / ms1 : 0)) r2=$((ms2 > 0 ? n2 * 1000 / ms2 : 0))
printf '  %-36s %8s      (bundles/s)\n' "load rate, first snapshots" "$r1"
printf '  %-36s %8s      (bundles/s)\n' "load rate, later snapshots" "$r2"
bench_row "$AREA" "load rate, first snapshots" "$r1" "b/s"
bench_row "$AREA" "load rate, later snapshots" "$r2" "b/s"
loaded=$(sqlite3 "$db" 'SELECT count(*) FROM bundles')
[ "$loaded" = "$nb" ] || echo "  (only $loaded of $nb bundles are in the database)"
raw=$(stat -c %s "$db")
[ -f "$db-wal" ] && raw=$((raw + $(stat -c %s "$db-wal")))
dbsize=$(size "$db")
per=$((loaded > 0 ? dbsize / loaded : 0))
printf '  %-36s %8s MiB  (%s MiB as loaded; %s B a bundle, target < 69905: %s)\n' \
	"database after VACUUM" "$((dbsize / 1048576))" "$((raw / 1048576))" "$per" \
	"$(verdict_lt "$per" 69905)"
bench_row "$AREA" "database after VACUUM" "$dbsize" B
bench_row "$AREA" "database per bundle" "$per" B "" "" "< 69905 B" "$(verdict_lt "$per" 69905)"

# a real gpu node (faulty, or the template): 8 HCAs, its own counters
node=$(awk -F'\t' '!/^#/ && $6 == "real" && $3 == 0 && $2 == "gpu" { print $1 }' "$fleet/bundles.tsv" | tail -1)
timed "history $node" 1000 "$RA" history --db "$db" "$node"
fa=$(awk -F'\t' -v n="$node" -v d="$fleet/bundles" '!/^#/ && $1 == n && $3 == 0 { print d "/" $7 }' "$fleet/bundles.tsv")
fb=$(awk -F'\t' -v n="$node" -v d="$fleet/bundles" '!/^#/ && $1 == n { f = d "/" $7 } END { print f }' "$fleet/bundles.tsv")
timed "diff, first and last snapshot" 1000 "$RA" diff --db "$db" "$fa" "$fb"
timed "report --db (newest of each node)" 10000 "$RA" report --db "$db" -o "$tmp/r.txt"
# prune to half the snapshots: the deletion alone, then with its VACUUM
# (on copies; `load --keep` is the first, `prune` the second)
keep=$(((nb / (nn > 0 ? nn : 1) + 1) / 2))
if "$RA" --help 2>/dev/null | grep -q "rdma-analyze prune "; then
	cp "$db" "$tmp/p1.db" && cp "$db" "$tmp/p2.db"
	timed "prune --keep $keep --no-vacuum" 0 "$RA" prune -q --db "$tmp/p1.db" --keep "$keep" --no-vacuum
	timed "prune --keep $keep (VACUUM)" 0 "$RA" prune -q --db "$tmp/p2.db" --keep "$keep"
	printf '  %-36s %8s MiB  (%s bundles left)\n' "database after the prune" \
		"$(($(stat -c %s "$tmp/p2.db") / 1048576))" "$(sqlite3 "$tmp/p2.db" 'SELECT count(*) FROM bundles')"
	rm -f "$tmp"/p1.db* "$tmp"/p2.db*
fi
bench_row "$AREA" "peak RSS, any step" "$RSS_MAX" KiB "" "" "< 1048576 KiB" "$(verdict_lt "$RSS_MAX" 1048576)"
printf '  %-36s %8s KiB  (target < 1048576 KiB: %s)\n' "peak RSS, any step" "$RSS_MAX" "$(verdict_lt "$RSS_MAX" 1048576)"

# what 10,000 x 30 would take at these rates: an estimate, not a figure
if [ "$r1" -gt 0 ] && [ "$r2" -gt 0 ]; then
	est_s=$((10000 / r1 + 290000 / r2))
	printf '  %-36s %8s s    (estimate from the rates above: 10,000 first + 290,000 later)\n' \
		"10,000 x 30 load would take" "$est_s"
	printf '  %-36s %8s GiB  (estimate: %s B a bundle x 300,000)\n' \
		"10,000 x 30 database would be" "$((per * 300000 / 1073741824))" "$per"
fi
exit 0
