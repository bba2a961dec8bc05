#!/bin/sh
# tests/bench-analyze.sh BUILD: speed and memory of rdma-analyze over a
# synthetic fleet of N (default 2,000) 8-HCA bundles.
#
# The gpu-ndr8 fixture is collected once (hostname gpu-00000); each other
# bundle is that tar with its hostname, machine-id, boot_id, GUIDs, MACs and
# addresses (genfleet.py's scheme) changed in
# place (same lengths, so the tar stays valid) and compressed again with
# the zstd CLI, as many at a time as CPUs: every bundle is a distinct node.
# Then, each timed with build/tests/runstat (wall ms, peak RSS):
#   - rdma-analyze load --db (bundles/s; it also runs the rules),
#   - rdma-analyze report --db, text and JSON,
#   - the floor: `tar --zstd -xOf` of every bundle (decompress and read
#     every entry, no files written), as many in parallel as CPUs.
# Targets: load >= 200 bundles/s, each report < 5 s, peak RSS < 500 MiB.
# Prints figures; never fails on them (exit 0 unless a step itself fails).
# KEEP=DIR keeps the bundles in DIR/b and reuses them when DIR/b already
# holds N (profiling, or several runs on the same fleet).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-build}" && pwd) || exit 1
RC=$BUILD/rdma-collect
RA=$BUILD/rdma-analyze
RUNSTAT=$BUILD/tests/runstat
N=${N:-2000}
: "${SOURCE_DATE_EPOCH:=1700000000}"
export SOURCE_DATE_EPOCH LC_ALL=C
. "$TOP/tests/bench-lib.sh"
CPUS=$(nproc 2>/dev/null || echo 2)

for f in "$RC" "$RA" "$RUNSTAT"; do
	[ -x "$f" ] || { echo "bench-analyze: $f is missing (make BUILD=... tests)" >&2; exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdma-bench-analyze.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
keep=${KEEP:-}

now_ms() { date +%s%3N; }
# stat FILE: "wall_ms maxrss_kib status" of a runstat line
verdict_ge() { if [ "$1" -ge "$2" ]; then echo ok; else echo "under target"; fi; }

# ---------------------------------------------------------- the bundles
# node 0 is collected from the fixture with fixed-width identity values;
# node j's bundle is that tar with the hostname, machine-id, boot_id, GUIDs,
# MACs and addresses replaced by values of the same length (tar headers stay valid: their
# checksums do not cover the data), compressed again with zstd.
t0=$(now_ms)
if [ -n "$keep" ] && [ "$(ls "$keep/b" 2>/dev/null | wc -l)" -eq "$N" ]; then
	mkdir "$tmp/one"
	ln -s "$keep/b" "$tmp/b"
	cp "$keep/base.rdma.tar.zst" "$tmp/one/"
	base=$tmp/one/base.rdma.tar.zst
else
"$TOP/tests/fixtures/mknode.sh" gpu-ndr8 "$tmp/node" || { echo "bench-analyze: mknode failed" >&2; exit 1; }
mkdir "$tmp/one" "$tmp/b"
echo gpu-00000 >"$tmp/node/proc/sys/kernel/hostname"
echo 000000004e2c6d1f4a3b4c5d00000000 >"$tmp/node/etc/machine-id"
echo 00000000-7e58-4d0b-9c61-2f8a00000000 >"$tmp/node/proc/sys/kernel/random/boot_id"
# GUIDs, MACs and IPv4 addresses in genfleet.py's fixed-width form for node
# 0, so that each node below gets its own by same-length replacement (a
# fleet of clones would make every GUID a duplicate on every node)
python3 - "$TOP/tests" "$tmp/node" <<'EOF3' || { echo "bench-analyze: addresses failed" >&2; exit 1; }
import os, re, sys
sys.path.insert(0, sys.argv[1])
from genfleet import addr_subs
rx = [(re.compile(a), b) for a, b in addr_subs("gpu", 0)]
for top in ("sys", "rdma-collect"):
    for d, _, fs in os.walk(os.path.join(sys.argv[2], top)):
        for f in fs:
            p = os.path.join(d, f)
            if os.path.islink(p):
                continue
            try:
                t = open(p).read()
            except (UnicodeDecodeError, OSError):
                continue
            u = t
            for r, b in rx:
                u = r.sub(b, u)
            if u != t:
                open(p, "w").write(u)
EOF3
"$RC" -q --root "$tmp/node" -o "$tmp/one/base.rdma.tar.zst" >/dev/null ||
	{ echo "bench-analyze: rdma-collect failed" >&2; exit 1; }
base=$tmp/one/base.rdma.tar.zst
zstd -q -dc "$base" >"$tmp/one/base.tar" || { echo "bench-analyze: zstd failed" >&2; exit 1; }
python3 - "$tmp/one/base.tar" "$tmp/b" "$N" "$CPUS" "$TOP/tests" <<'EOF2' || { echo "bench-analyze: making the bundles failed" >&2; exit 1; }
import subprocess, sys
from concurrent.futures import ThreadPoolExecutor
tar, out, n, cpus = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, sys.argv[5])
from genfleet import addr_pairs
base = open(tar, "rb").read()
def one(j):
    d = base
    for a, b in addr_pairs("gpu", 0, j):
        d = d.replace(a, b)
    d = (d.replace(b"gpu-00000", b"gpu-%05d" % j)
             .replace(b"000000004e2c6d1f4a3b4c5d00000000", b"%08x4e2c6d1f4a3b4c5d%08x" % (j, j * 7919))
             .replace(b"00000000-7e58-4d0b-9c61-2f8a00000000", b"%08x-7e58-4d0b-9c61-2f8a%08x" % (j, j)))
    subprocess.run(["zstd", "-q", "-6", "-o", "%s/gpu-%05d.rdma.tar.zst" % (out, j)], input=d, check=True)
with ThreadPoolExecutor(max_workers=cpus) as ex:
    list(ex.map(one, range(n)))
EOF2
if [ -n "$keep" ]; then
	rm -rf "$keep/b" && mkdir -p "$keep" && cp -r "$tmp/b" "$keep/b" &&
		cp "$base" "$keep/base.rdma.tar.zst"
fi
fi
gen_ms=$(($(now_ms) - t0))
nb=$(ls "$tmp/b" | wc -l)
bsize=$(wc -c <"$base")
usize=$(tar --zstd -xOf "$base" | wc -c)
entries=$(tar --zstd -tf "$base" | wc -l)

# ---------------------------------------------------------- the floor
t0=$(now_ms)
# shellcheck disable=SC2011
ls "$tmp"/b/*.rdma.tar.zst | xargs -P "$CPUS" -n 50 sh -c 'for f; do tar --zstd -xOf "$f" >/dev/null || exit 1; done' sh ||
	echo "bench-analyze: tar failed on some bundle" >&2
tar_ms=$(($(now_ms) - t0))

tar_rate=0
[ "$tar_ms" -gt 0 ] && tar_rate=$((nb * 1000 / tar_ms))
echo "rdma-analyze benchmark: $nb gpu-ndr8 bundles (8 HCAs; $((bsize / 1024)) KiB each, $((usize / 1024)) KiB and $entries entries unpacked), $CPUS CPUs"
printf '  %-34s %8s ms   (%s bundles/s with %s workers)\n' "making the bundles (zstd re-pack)" "$gen_ms" "$((gen_ms > 0 ? nb * 1000 / gen_ms : 0))" "$CPUS"
printf '  %-34s %8s ms   (%s bundles/s, %s in parallel)\n' "floor: tar --zstd -xOf, all" "$tar_ms" "$tar_rate" "$CPUS"
# ---------------------------------------------------------- the analyzer
"$RUNSTAT" "$RA" load --db "$tmp/fleet.db" "$tmp/b" >"$tmp/load.out" 2>"$tmp/load.err"
# shellcheck disable=SC2046
set -- $(stat_of "$tmp/load.err")
load_ms=${1:-0} load_rss=${2:-0} load_st=${3:-?}
"$RUNSTAT" "$RA" report --db "$tmp/fleet.db" -o "$tmp/r.txt" >/dev/null 2>"$tmp/rt.err"
# shellcheck disable=SC2046
set -- $(stat_of "$tmp/rt.err")
rt_ms=${1:-0} rt_rss=${2:-0} rt_st=${3:-?}
"$RUNSTAT" "$RA" report --db "$tmp/fleet.db" --format json -o "$tmp/r.json" >/dev/null 2>"$tmp/rj.err"
# shellcheck disable=SC2046
set -- $(stat_of "$tmp/rj.err")
rj_ms=${1:-0} rj_rss=${2:-0} rj_st=${3:-?}
dbsize=$(wc -c <"$tmp/fleet.db" 2>/dev/null || echo 0)
loaded=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM bundles").fetchone()[0])' "$tmp/fleet.db" 2>/dev/null || echo "?")

rate=0
[ "$load_ms" -gt 0 ] && rate=$((nb * 1000 / load_ms))
rss_max=$load_rss
[ "$rt_rss" -gt "$rss_max" ] && rss_max=$rt_rss
[ "$rj_rss" -gt "$rss_max" ] && rss_max=$rj_rss

printf '  %-34s %8s ms   (%s bundles/s; exit %s, %s bundles in the db, db %s MiB)\n' "load --db" "$load_ms" "$rate" "$load_st" "$loaded" "$((dbsize / 1048576))"
printf '  %-34s %8s      (target >= 200: %s)\n' "load rate, bundles/s" "$rate" "$(verdict_ge "$rate" 200)"
printf '  %-34s %8s ms   (target < 5000 ms: %s; exit %s)\n' "report --db, text" "$rt_ms" "$(verdict_lt "$rt_ms" 5000)" "$rt_st"
printf '  %-34s %8s ms   (target < 5000 ms: %s; exit %s)\n' "report --db, json" "$rj_ms" "$(verdict_lt "$rj_ms" 5000)" "$rj_st"
printf '  %-34s %8s KiB  (load %s, text %s, json %s; target < 512000 KiB: %s)\n' "peak RSS" "$rss_max" "$load_rss" "$rt_rss" "$rj_rss" "$(verdict_lt "$rss_max" 512000)"
a="analyze $nb"
bench_row "$a" "load rate" "$rate" "b/s" "tar -xOf" "$tar_rate" ">= 200 b/s" "$(verdict_ge "$rate" 200)"
bench_row "$a" "load, all bundles" "$load_ms" ms "tar -xOf" "$tar_ms"
bench_row "$a" "report --db, text" "$rt_ms" ms "" "" "< 5000 ms" "$(verdict_lt "$rt_ms" 5000)"
bench_row "$a" "report --db, json" "$rj_ms" ms "" "" "< 5000 ms" "$(verdict_lt "$rj_ms" 5000)"
bench_row "$a" "peak RSS" "$rss_max" KiB "" "" "< 512000 KiB" "$(verdict_lt "$rss_max" 512000)"
if [ "$load_st" != 0 ] && [ "$load_st" != 1 ] && [ "$load_st" != 2 ]; then
	echo "  load stderr (first lines):"
	head -5 "$tmp/load.err" | sed 's/^/    /'
fi
exit 0
