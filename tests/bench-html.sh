#!/bin/sh
# tests/bench-html.sh BUILD: the HTML report of an N-node fleet (default
# 2,000): its size, the time to write it and the time headless Chromium
# takes to make it usable.  Targets: under 20 MiB, ready in under 3 s.
#
# The bundles follow tests/bench-analyze.sh's method with findings in
# them: node j is sample fleet bundle j mod 18 (samples/fleet/, faults
# injected) with its hostname and machine-id replaced in place by values
# of the same length, compressed again with zstd.  Prints figures; never
# fails on them.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-build}" && pwd) || exit 1
RA=$BUILD/rdma-analyze
RUNSTAT=$BUILD/tests/runstat
N=${N:-2000}
export LC_ALL=C
. "$TOP/tests/bench-lib.sh"
CPUS=$(nproc 2>/dev/null || echo 2)

for f in "$RA" "$RUNSTAT"; do
	[ -x "$f" ] || { echo "bench-html: $f is missing (make BUILD=... tests)" >&2; exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdma-bench-html.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/b"
python3 - "$TOP/samples/fleet" "$tmp/b" "$N" "$CPUS" <<'EOF' || { echo "bench-html: making the bundles failed" >&2; exit 1; }
import glob, json, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
src, out, n, cpus = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
base = []
for f in sorted(glob.glob(src + "/*.rdma.tar.zst")):
    tar = subprocess.run(["zstd", "-q", "-dc", f], capture_output=True, check=True).stdout
    man = json.loads(subprocess.run(["tar", "-xOf", "-", "manifest.json"], input=tar,
                                    capture_output=True, check=True).stdout)
    base.append((tar, man["hostname"].encode(), man["machine_id"].encode()))
def one(j):
    tar, host, mid = base[j % len(base)]
    name = (b"n%0*d" % (len(host) - 1, j))[:len(host)]
    newmid = (b"%0*x" % (len(mid), j * 7919 + 1))[-len(mid):]
    d = tar.replace(host, name).replace(mid, newmid)
    subprocess.run(["zstd", "-q", "-3", "-o", "%s/%s.rdma.tar.zst" % (out, name.decode())],
                   input=d, check=True)
with ThreadPoolExecutor(max_workers=cpus) as ex:
    list(ex.map(one, range(n)))
EOF
"$RA" load --db "$tmp/f.db" "$tmp/b" >/dev/null 2>&1
"$RUNSTAT" "$RA" report --db "$tmp/f.db" -f html -o "$tmp/r.html" >/dev/null 2>"$tmp/r.err"
set -- $(sed -n 's/^runstat: wall_ms=\([0-9]*\) maxrss_kib=\([0-9]*\).*/\1 \2/p' "$tmp/r.err" | tail -1)
ms=${1:-0} rss=${2:-0}
size=$(wc -c <"$tmp/r.html")
nodes=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM nodes").fetchone()[0])' "$tmp/f.db")
echo "rdma-analyze HTML report: $nodes nodes (the sample fleet's bundles, renamed)"
printf '  %-34s %8s ms   (peak RSS %s KiB)\n' "report --db -f html" "$ms" "$rss"
bench_row "html $nodes" "report --db -f html" "$ms" ms
bench_row "html $nodes" "page size" "$((size / 1024))" KiB "" "" "< 20480 KiB" \
	"$([ "$size" -lt 20971520 ] && echo ok || echo 'over target')"
printf '  %-34s %8s KiB  (target < 20480 KiB: %s)\n' "page size" "$((size / 1024))" \
	"$([ "$size" -lt 20971520 ] && echo ok || echo 'over target')"
if python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import cdp; sys.exit(0 if cdp.find_chromium() else 1)' "$TOP/tests/browser"; then
	printf '  '
	python3 "$TOP/tests/browser/check-report.py" time "$tmp/r.html" - "$tmp/shots" | tee "$tmp/time.out"
	echo "  (target: ready in < 3000 ms)"
	ready=$(sed -n 's/.*page ready in \([0-9]*\) ms.*/\1/p' "$tmp/time.out")
	[ -n "$ready" ] && bench_row "html $nodes" "page ready in Chromium" "$ready" ms "" "" "< 3000 ms" \
		"$([ "$ready" -lt 3000 ] && echo ok || echo 'over target')"
else
	echo "  browser: skipped (chromium is not installed)"
fi
exit 0
