#!/bin/sh
# tests/bench-history.sh BUILD: what history costs in the database (issue 23).
#   - bytes of database a bundle adds: a FIRST snapshot of the gpu-ndr8
#     fixture (8 NDR HCAs) and a NEXT snapshot of the same unchanged node
#     (collected again a day later with --root), 8 such nodes each with
#     its own identity; bytes used (dbstat, after VACUUM) and the file's
#     growth;
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
# cannot run).  FLEET_DIR=DIR keeps (and reuses) the generated fleet,
# FLEET_DB=FILE keeps the fleet's database (a new file).
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

BENCH_W=36
AREA=history
# size DB: the file's bytes once compacted (VACUUM; the WAL folded in)
size() {
	sqlite3 "$1" 'VACUUM; PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null || return 1
	stat -c %s "$1"
}

# --- 8 nodes: a first and a next snapshot each ---
# 8 nodes of the gpu-ndr8 fixture with their own hostnames, machine ids,
# GUIDs and MACs, each collected twice a day apart with nothing changed
# but the uptime. A first snapshot: what nodes 2-8 add to a database
# holding node 1; a next one: what the 8 second snapshots add. Bytes used
# (dbstat: the pages less their free bytes, VACUUMed), and the file's
# growth beside it: the file moves a page at a time for each of ~90
# tables and indexes, which 8 bundles cannot average out (a fleet's
# bytes a bundle, below, is the file's).
"$TOP/tests/fixtures/mknode.sh" gpu-ndr8 "$tmp/root" >/dev/null 2>"$tmp/gen.err" ||
	{ cat "$tmp/gen.err" >&2; echo "bench-history: mknode.sh gpu-ndr8 failed" >&2; exit 1; }
mkdir "$tmp/s1" "$tmp/s2"
for i in 1 2 3 4 5 6 7 8; do
	n=$tmp/n$i
	cp -a "$tmp/root" "$n"
	echo "gpu-h0$i" >"$n/proc/sys/kernel/hostname"
	printf "%032x\n" "$i" >"$n/etc/machine-id"
	grep -rlI 'c003:00e1:\|c0:03:00:e1:\|3c:ec:ef:5a:' "$n/sys" "$n/rdma-collect" |
		xargs sed -i "s/c003:00e1:/c003:00e$i:/g; s/c0:03:00:e1:/c0:03:00:e$i:/g
			s/3c:ec:ef:5a:/3c:ec:ef:5$i:/g"
	echo "1000.00 1000.00" >"$n/proc/uptime"
	SOURCE_DATE_EPOCH=1700000000 "$RC" -q --root "$n" -o "$tmp/s1" >/dev/null 2>"$tmp/c.err" &&
	echo "87400.00 1000.00" >"$n/proc/uptime" &&
	SOURCE_DATE_EPOCH=1700086400 "$RC" -q --root "$n" -o "$tmp/s2" >/dev/null 2>"$tmp/c.err" ||
		{ cat "$tmp/c.err" >&2; echo "bench-history: rdma-collect failed" >&2; exit 1; }
done
# used DB: bytes the pages hold, VACUUMed
used() {
	sqlite3 "$1" "SELECT sum(pgsize - unused) FROM dbstat"
}
one=$tmp/one.db
if ! { "$RA" load -q --db "$one" "$tmp"/s1/gpu-h01-* && size "$one" >"$tmp/f0" && u0=$(used "$one") &&
	"$RA" load -q --db "$one" "$tmp/s1" && size "$one" >"$tmp/f1" && u1=$(used "$one") &&
	"$RA" load -q --db "$one" "$tmp/s2" && size "$one" >"$tmp/f2" && u2=$(used "$one"); }; then
	echo "bench-history: loading the gpu-ndr8 snapshots failed" >&2
	exit 1
fi
[ "$(sqlite3 "$one" 'SELECT count(*) FROM bundles')" = 16 ] ||
	{ echo "bench-history: the 16 snapshots are not 16 bundles" >&2; exit 1; }
f0=$(cat "$tmp/f0") f1=$(cat "$tmp/f1") f2=$(cat "$tmp/f2")
first=$(((u1 - u0) / 7)) next=$(((u2 - u1) / 8))
ffirst=$(((f1 - f0) / 7)) fnext=$(((f2 - f1) / 8))
echo "rdma-analyze history benchmark: database bytes per bundle (gpu-ndr8 x 8 nodes, $(stat -c %s "$(ls "$tmp"/s1/gpu-h01-*)") byte bundle)"
printf '  %-36s %8s B    (%s KiB used, %s KiB of file; target <= 100 KiB: %s)\n' "first snapshot of a node" "$first" \
	"$((first / 1024))" "$((ffirst / 1024))" "$(verdict_le "$first" 102400)"
printf '  %-36s %8s B    (%s KiB used, %s KiB of file; target <= 20 KiB: %s)\n' "next snapshot, node unchanged" "$next" \
	"$((next / 1024))" "$((fnext / 1024))" "$(verdict_le "$next" 20480)"
bench_row "$AREA" "first snapshot (gpu-ndr8), used" "$first" B "" "" "<= 102400 B" "$(verdict_le "$first" 102400)"
bench_row "$AREA" "first snapshot (gpu-ndr8), file" "$ffirst" B
bench_row "$AREA" "next snapshot, unchanged, used" "$next" B "" "" "<= 20480 B" "$(verdict_le "$next" 20480)"
bench_row "$AREA" "next snapshot, unchanged, file" "$fnext" B

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
# the first snapshots and the later ones as two folders (load takes a
# folder: 290,000 names do not fit on a command line), of hard links, or
# copies where the fleet is on another file system (a folder of symbolic
# links is not read as bundles: import's detector takes no links)
fdir=$(cd "$fleet/bundles" && pwd) || exit 1
mkdir "$tmp/first" "$tmp/later"
link=ln
f1=$(awk -F'\t' '!/^#/ { print $7; exit }' "$fleet/bundles.tsv")
ln "$fdir/$f1" "$tmp/probe" 2>/dev/null || link=cp
rm -f "$tmp/probe"
awk -F'\t' -v d="$fdir" '!/^#/ && $3 == 0 { print d "/" $7 }' "$fleet/bundles.tsv" |
	xargs -r $link -t "$tmp/first" || exit 1
awk -F'\t' -v d="$fdir" '!/^#/ && $3 != 0 { print d "/" $7 }' "$fleet/bundles.tsv" |
	xargs -r $link -t "$tmp/later" || exit 1
n1=$(ls "$tmp/first" | wc -l) n2=$(ls "$tmp/later" | wc -l)
echo "fleet: $nn nodes x $((nb / (nn > 0 ? nn : 1))) snapshots = $nb bundles (tests/genfleet.py), $(nproc) CPUs"
printf '  %-36s %8s ms\n' "making the fleet" "$gen_ms"

db=${FLEET_DB:-$tmp/fleet.db}
[ -e "$db" ] && { echo "bench-history: $db exists" >&2; exit 1; }
timed "load, first snapshots ($n1)" 0 "$RA" load -q --db "$db" "$tmp/first"
ms1=$LAST_MS
timed "load, later snapshots ($n2)" 0 "$RA" load -q --db "$db" "$tmp/later"
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
if [ "$r1" -gt 0 ] && [ "$r2" -gt 0 ] && [ "$nb" -lt 300000 ]; then
	est_s=$((10000 / r1 + 290000 / r2))
	printf '  %-36s %8s s    (estimate from the rates above: 10,000 first + 290,000 later)\n' \
		"10,000 x 30 load would take" "$est_s"
	printf '  %-36s %8s GiB  (estimate: %s B a bundle x 300,000)\n' \
		"10,000 x 30 database would be" "$((per * 300000 / 1073741824))" "$per"
fi
exit 0
