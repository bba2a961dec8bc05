# report-prom: `report -f prom`, the metrics node_exporter's textfile
# collector reads.  The three samples, the sample fleet and bundles whose
# hostname is hostile (quotes, backslash, newline, a fake sample line,
# UTF-8, bytes that are not UTF-8) must pass promtool's parser and linter
# (`promtool check metrics`, Debian's prometheus package) and a stricter
# check here of what promtool lets through but node_exporter refuses or
# Prometheus mishandles: a timestamp, a family's samples split, HELP/TYPE
# twice or after a sample, the same series twice, a missing final newline.
# -o replaces a file whole or not at all (a read-only folder, a file
# system that fills up: exit 4, the old file byte-identical, no temp file
# left).  The counters and findings written are the database's.
if ! command -v python3 >/dev/null 2>&1 || ! command -v zstd >/dev/null 2>&1; then
	skip "report-prom" "python3 or zstd is missing"
	return 0 2>/dev/null || exit 0
fi
cd "$T" || exit 1
SAMPLES=$(ls "$TOP"/samples/*.rdma.tar.zst)
GPU=$(ls "$TOP"/samples/dgx-h100-07-*.rdma.tar.zst)
ROCE=$(ls "$TOP"/samples/roce-h12-*.rdma.tar.zst)

# strict.py: the format as node_exporter needs it (shared with check-state)
cp "$TOP/tests/tools/prom-strict.py" strict.py

cat >parse.py <<'EOF'
# parse.py FILE: one "family<TAB>label=value,...<TAB>value" line per
# sample, label values unescaped (\n shown as \n), sorted
import re, sys
out = []
for line in open(sys.argv[1], encoding="utf-8"):
    if line.startswith("#"):
        continue
    m = re.match(r"([^{ ]+)(?:\{(.*)\})? (\S+)$", line.rstrip("\n"))
    labels = re.findall(r'([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"', m.group(2) or "")
    def unesc(v):
        return re.sub(r"\\(.)", lambda x: {"n": "\n", "\\": "\\", '"': '"'}[x.group(1)], v)
    out.append("%s\t%s\t%s" % (m.group(1), ",".join("%s=%s" % (k, unesc(v).replace("\n", "\\n"))
                                                  for k, v in labels), m.group(3)))
for l in sorted(out):
    print(l)
EOF

# valid NAME FILE: promtool's parser and linter, then strict.py
valid() {
	if command -v promtool >/dev/null 2>&1; then
		check "$1: promtool check metrics" sh -c "promtool check metrics <'$2'"
	else
		skip "$1: promtool check metrics" "promtool missing (Debian package prometheus)"
	fi
	check "$1: strict format (no timestamp, families whole, no series twice)" \
		python3 strict.py "$2"
}

# --- the samples, one at a time and together; the fleet ---
for b in $SAMPLES; do
	n=$(basename "$b" | sed 's/-2025.*//')
	"$RA" report -q -f prom "$b" >"$n.prom" 2>"$n.err"
	rc=$?
	check "$n: exit 0-2 and nothing on stderr" sh -c "[ $rc -le 2 ] && [ ! -s '$n.err' ]"
	valid "$n" "$n.prom"
done
start=$(date +%s%N)
"$RA" report -q -f prom -o gpu.prom "$GPU" 2>/dev/null
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "# the gpu-ndr8 sample (dgx-h100-07): $(stat -c %s gpu.prom) bytes," \
	"$(grep -vc '^#' gpu.prom) samples, $ms ms"
check_eq "gpu-ndr8: -o gives the stdout bytes" "$(cksum <gpu.prom)" "$(cksum <dgx-h100-07.prom)"
# shellcheck disable=SC2086
"$RA" report -q -f prom $SAMPLES >three.prom 2>/dev/null
valid "three samples together" three.prom
check_eq "three samples: three nodes" \
	"$(grep -c '^rdma_node_worst_severity{' three.prom)" 3
"$RA" report -q -f prom "$TOP/samples/fleet" >fleet.prom 2>/dev/null
check_eq "fleet: exit 2 (it holds critical findings)" "$?" 2
valid "fleet" fleet.prom
check_eq "fleet: 18 nodes" "$(grep -c '^rdma_node_worst_severity{' fleet.prom)" 18

# --- findings and counters are the database's ---
"$RA" load -q --db f.db "$TOP/samples/fleet" $SAMPLES >/dev/null 2>&1
"$RA" report -q --db f.db -f prom -o db.prom 2>/dev/null
"$RA" report -q --db f.db -f json -o db.json 2>/dev/null
valid "the database's newest bundles" db.prom
cat >values.py <<'EOF'
# values.py PROM DB JSON: every counter sample is the database's last read,
# every finding of the JSON report is a rdma_finding sample, every port's
# state and rate are the database's, the worst severity the report's
import json, re, sqlite3, sys
prom, db, rep = sys.argv[1], sqlite3.connect(sys.argv[2]), json.load(open(sys.argv[3]))
got = {}
for line in open(prom, encoding="utf-8"):
    if line.startswith("#"):
        continue
    m = re.match(r"([^{ ]+)\{(.*)\} (\S+)$", line.rstrip("\n"))
    labels = tuple(re.findall(r'([a-z_]+)="((?:[^"\\]|\\.)*)"', m.group(2)))
    got[(m.group(1), labels)] = float(m.group(3))
newest = {}
for bid, host in db.execute("SELECT b.id, b.hostname FROM bundles b WHERE b.id = (SELECT "
                            "b2.id FROM bundles b2 WHERE b2.node_id = b.node_id ORDER BY "
                            "b2.collected_at DESC, b2.id DESC LIMIT 1)"):
    newest[bid] = host
want = {}
fam = {"pma": "rdma_port_stat_total", "hw": "rdma_port_hw_stat_total", "hw_dev": "rdma_device_hw_stat_total"}
for bid, host in newest.items():
    for dev, port, kind, name, v in db.execute("SELECT ibdev, port, kind, name, coalesce(value2, "
                                               "value) FROM counters WHERE bundle_id = ? AND "
                                               "coalesce(value2, value) IS NOT NULL", (bid,)):
        lab = (("node", host), ("device", dev)) + ((("port", str(port)),) if kind != "hw_dev" else ()) + (("counter", name),)
        want[(fam[kind], lab)] = float(v)
    for nd, src, name, v, dev, port in db.execute(
            "SELECT s.netdev, s.source, s.name, coalesce(s.value2, s.value), coalesce(d.ibdev, ''), "
            "coalesce(d.port, '') FROM netdev_stats s LEFT JOIN netdevs d ON d.bundle_id = "
            "s.bundle_id AND d.name = s.netdev WHERE s.bundle_id = ? AND coalesce(s.value2, s.value) "
            "IS NOT NULL", (bid,)):
        f = "rdma_netdev_ethtool_stat_total" if src == "ethtool" else "rdma_netdev_stat_total"
        want[(f, (("node", host), ("netdev", nd), ("device", dev), ("port", str(port)), ("counter", name)))] = float(v)
    for dev, port, st, ps, rate in db.execute("SELECT ibdev, port, state, phys_state, rate_gbps "
                                              "FROM ports WHERE bundle_id = ?", (bid,)):
        lab = (("node", host), ("device", dev), ("port", str(port)))
        for f, v in (("rdma_port_state", st), ("rdma_port_phys_state", ps), ("rdma_port_rate_gbps", rate)):
            if v is not None:
                want[(f, lab)] = float(v)
sev = {"info": 0, "warning": 1, "critical": 2}
for n in rep["nodes"]:
    want[("rdma_node_worst_severity", (("node", n["node"]),))] = float(max(
        [sev[f["severity"]] for f in n["findings"] if f["severity"] != "info"] or [0]))
    for f in n["findings"]:
        k = ("rdma_finding", (("node", n["node"]), ("check", f["rule"]), ("severity", f["severity"]),
                              ("component", f["component"])))
        want[k] = want.get(k, 0) + 1
bad = [(k, v, got.get(k)) for k, v in want.items() if got.get(k) != v]
extra = [k for k in got if k[0] in set(f for f, _ in want) and k not in want]
for b in bad[:10] + extra[:10]:
    print(b)
print("# %d samples compared with the database and the JSON report" % len(want))
sys.exit(1 if bad or extra else 0)
EOF
check "db: every counter, port, finding and worst severity is the database's" \
	python3 values.py db.prom f.db db.json
python3 values.py db.prom f.db db.json | grep '^# '
# a few by hand
h=dgx-h100-07
for q in "pma|mlx5_0|1|symbol_error" "pma|mlx5_3|1|port_xmit_data" "hw|mlx5_2|1|out_of_sequence" \
	"hw_dev|mlx5_0|0|local_ack_timeout_err"; do
	IFS='|' read -r kind dev port name <<EOT
$q
EOT
	v=$(sqlite3 f.db "SELECT coalesce(value2, value) FROM counters c JOIN bundles b ON
		b.id = c.bundle_id WHERE b.hostname = '$h' AND kind = '$kind' AND ibdev = '$dev'
		AND port = $port AND name = '$name'")
	[ -n "$v" ] || { fail "db: $q is not in the database"; continue; }
	case $kind in
	pma) f="rdma_port_stat_total{node=\"$h\",device=\"$dev\",port=\"$port\"" ;;
	hw) f="rdma_port_hw_stat_total{node=\"$h\",device=\"$dev\",port=\"$port\"" ;;
	*) f="rdma_device_hw_stat_total{node=\"$h\",device=\"$dev\"" ;;
	esac
	check_eq "db: $dev:$port $kind $name" "$(grep -F "$f,counter=\"$name\"}" db.prom | cut -d' ' -f2)" "$v"
done

# --- hostile hostnames: the roce sample with its manifest's hostname
# replaced (the loader takes it from there) ---
# hostile NAME: NAME.host (the JSON value, quotes included, as bytes) as
# the hostname of NAME.rdma.tar.zst
hostile() {
	python3 - "$ROCE" "$1" <<'EOF'
import io, json, sys, tarfile, subprocess
raw = subprocess.run(["zstd", "-dc", sys.argv[1]], capture_output=True, check=True).stdout
host = open(sys.argv[2] + ".host", "rb").read().rstrip(b"\n")
src = tarfile.open(fileobj=io.BytesIO(raw))
out = io.BytesIO()
dst = tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT)
for m in src.getmembers():
    data = src.extractfile(m).read() if m.isfile() else None
    if m.name == "manifest.json":
        j = json.loads(data)
        j["hostname"] = "@HOST@"
        data = json.dumps(j, indent=2).encode().replace(b'"@HOST@"', host) + b"\n"
    if data is not None:
        m.size = len(data)
        dst.addfile(m, io.BytesIO(data))
    else:
        dst.addfile(m)
dst.close()
z = subprocess.run(["zstd", "-q", "-c"], input=out.getvalue(), capture_output=True, check=True)
open(sys.argv[2] + ".rdma.tar.zst", "wb").write(z.stdout)
EOF
}
cat >quotes.host <<'EOF'
"ro\"ce\\h12\nrdma_node_worst_severity{node=\"x\"} 9 \u00e9\u6f22"
EOF
printf '"bad\377\300\200\355\240\200-\342\202utf8"\n' >badutf8.host
echo '"roce-h12"' >same.host
for n in quotes badutf8 same; do
	hostile $n || fail "hostile: making the $n bundle"
done
"$RA" report -q -f json quotes.rdma.tar.zst 2>/dev/null |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["nodes"][0]["node"].encode("unicode_escape").decode())' >quotes.want
check_eq "hostile: the hostname has quotes, a backslash, a newline and UTF-8" \
	"$(cat quotes.want)" 'ro"ce\\h12\nrdma_node_worst_severity{node="x"} 9 \xe9\u6f22'
for n in quotes badutf8; do
	"$RA" report -q -f prom "$n.rdma.tar.zst" >"$n.prom" 2>"$n.err"
	check_eq "hostile $n: exit 0 (a healthy node)" "$?" 0
	valid "hostile $n" "$n.prom"
done
check_eq "hostile quotes: one node, its label the hostname, unescaped" \
	"$(python3 parse.py quotes.prom | awk -F'\t' '$1 == "rdma_node_worst_severity"')" \
	"$(printf 'rdma_node_worst_severity\tnode=ro"ce\\h12\\nrdma_node_worst_severity{node="x"} 9 \303\251\346\274\242\t0')"
check_eq "hostile quotes: the same samples as the clean sample, but the node" \
	"$(python3 parse.py quotes.prom | cut -f1,3 | sort | cksum)" \
	"$(python3 parse.py roce-h12.prom | cut -f1,3 | sort | cksum)"
check "hostile badutf8: the bytes that are not UTF-8 are U+FFFD" \
	grep -q "node=\"bad$(printf '\357\277\275')" badutf8.prom

# --- two bundles of the same hostname: the newest only ---
"$RA" report -q -f prom "$ROCE" same.rdma.tar.zst "$GPU" >two.prom 2>/dev/null
valid "two bundles of roce-h12 and one of dgx-h100-07" two.prom
check_eq "two bundles of roce-h12: two nodes" \
	"$(grep -c '^rdma_node_worst_severity{' two.prom)" 2

# --- -o: the old file replaced whole, or untouched ---
mkdir out
printf 'old metrics\n' >out/rdma.prom
chmod 0644 out/rdma.prom
(umask 022 && "$RA" report -q -f prom -o out/rdma.prom "$GPU" 2>o.err)
check_eq "-o over a file: exit 0" "$?" 0
check_eq "-o over a file: replaced whole by the report" "$(cksum <out/rdma.prom)" "$(cksum <gpu.prom)"
check_eq "-o: mode 0644 (umask 022), readable by node_exporter's user" \
	"$(stat -c %a out/rdma.prom)" 644
check_eq "-o: nothing else in the folder" "$(ls -A out)" rdma.prom

if [ "$(id -u)" -ne 0 ]; then
	mkdir ro && cp gpu.prom ro/rdma.prom && chmod 0555 ro
	RO=ok
else
	MNTS=
	trap 'for m in $MNTS; do umount "$m" 2>/dev/null; done' EXIT
	mkdir ro && cp three.prom ro/rdma.prom
	if mount --bind ro ro 2>/dev/null && MNTS="$T/ro $MNTS" &&
		mount -o remount,bind,ro ro 2>/dev/null; then
		RO=ok
	else
		RO=
	fi
fi
if [ -n "$RO" ]; then
	cp ro/rdma.prom ro.before
	"$RA" report -q -f prom -o ro/rdma.prom "$GPU" >ro.out 2>ro.err
	check_eq "-o into a read-only folder: exit 4" "$?" 4
	check "-o into a read-only folder: one line naming the file" \
		sh -c "[ \$(grep -c . ro.err) -eq 1 ] && grep -q \"cannot write 'ro/rdma.prom'\" ro.err"
	check_eq "-o into a read-only folder: the old file untouched" \
		"$(cksum <ro/rdma.prom)" "$(cksum <ro.before)"
	check_eq "-o into a read-only folder: no temp file" "$(ls -A ro)" rdma.prom
else
	skip "-o into a read-only folder" "mount --bind / remount,ro not allowed here"
fi

# a file system that fills up in the middle of the write: the fleet's
# metrics are larger than the room left beside the old file
if [ "$(id -u)" -eq 0 ] && mkdir full && mount -t tmpfs -o size=256k,mode=0755 tmpfs full 2>/dev/null; then
	MNTS="$T/full $MNTS"
	cp gpu.prom full/rdma.prom
	"$RA" report -q -f prom -o full/rdma.prom "$TOP/samples/fleet" >full.out 2>full.err
	check_eq "-o, the file system fills up: exit 4" "$?" 4
	check "-o, the file system fills up: the reason" grep -q 'No space left on device' full.err
	check_eq "-o, the file system fills up: the old file untouched" \
		"$(cksum <full/rdma.prom)" "$(cksum <gpu.prom)"
	check_eq "-o, the file system fills up: no temp file" "$(ls -A full)" rdma.prom
else
	skip "-o, the file system fills up" "needs root to mount a small tmpfs"
fi

# --- node_exporter itself (Debian's prometheus-node-exporter): its
# textfile collector reads the samples, the fleet and the hostile nodes
# from one folder, as on a node, without a scrape error ---
NE=$(command -v prometheus-node-exporter || command -v node_exporter)
if [ -n "$NE" ]; then
	mkdir tf
	cp three.prom tf/samples.prom && cp fleet.prom tf/fleet.prom &&
		cp quotes.prom tf/quotes.prom && cp badutf8.prom tf/badutf8.prom
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	"$NE" --collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$T/tf" \
		--web.listen-address="127.0.0.1:$port" >ne.log 2>&1 &
	nepid=$!
	python3 - "$port" >scrape.txt 2>scrape.err <<'EOF'
import sys, time, urllib.request
for i in range(100):
    try:
        sys.stdout.write(urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=10).read().decode())
        break
    except OSError:
        time.sleep(0.1)
EOF
	kill "$nepid" 2>/dev/null
	wait "$nepid" 2>/dev/null
	check_eq "node_exporter: textfile scrape error 0" \
		"$(grep '^node_textfile_scrape_error ' scrape.txt)" "node_textfile_scrape_error 0"
	check_eq "node_exporter: the four files read" \
		"$(grep -c '^node_textfile_mtime_seconds{' scrape.txt)" 4
	check_eq "node_exporter: every sample of the files exposed" \
		"$(grep -c '^rdma_' scrape.txt)" \
		"$(cat tf/*.prom | grep -c '^rdma_')"
	check "node_exporter: the hostile node's label as written" \
		grep -qF 'rdma_node_worst_severity{node="ro\"ce\\h12\nrdma_node_worst_severity{node=\"x\"} 9' scrape.txt
else
	skip "node_exporter" "prometheus-node-exporter is not installed"
fi

# --- MAD PMA counters of both ends of each InfiniBand cable (a bundle
# with mad documents: tests/fabric-lib.sh) ---
. "$TOP/tests/fabric-lib.sh"
if mknode gpu-ndr8 mg >/dev/null 2>&1 && python3 "$MKFABRIC" mad mg &&
	mad_bundle mg mad.rdma.tar.zst; then
	"$RA" load -q --db mad.db mad.rdma.tar.zst >/dev/null 2>&1
	"$RA" report -q --db mad.db -f prom -o mad.prom 2>/dev/null
	valid "a bundle with MAD counters" mad.prom
	python3 - mad.prom mad.db >mad.cmp <<'EOF2'
import re, sqlite3, sys
got = {}
for line in open(sys.argv[1], encoding="utf-8"):
    m = re.match(r'rdma_mad_port_stat_total\{node="[^"]*",device="([^"]*)",port="([^"]*)",'
                 r'side="([^"]*)",group="([^"]*)",counter="([^"]*)"\} (\S+)$', line)
    if m:
        got[m.groups()[:5]] = int(m.group(6))
want = {(d, str(p), s, g, n): v for d, p, s, g, n, v in sqlite3.connect(sys.argv[2]).execute(
    "SELECT ibdev, port, side, grp, name, value FROM mad_counters WHERE value IS NOT NULL")}
print(len(want), len(got), sum(1 for k in want if got.get(k) == want[k]),
      sorted(set(k[2] for k in got)), sorted(set(k[3] for k in got)))
EOF2
	read -r nw ng nsame sides groups <mad.cmp
	check "MAD: counters of both sides and both groups in the file" sh -c \
		"grep -q \"'local', 'peer'\" mad.cmp && grep -q \"'PortCounters', 'PortCountersExtended'\" mad.cmp"
	check "MAD: every sample is the database's counter, none more ($nw rows)" \
		sh -c "[ '$nw' -gt 100 ] && [ '$nw' = '$ng' ] && [ '$nw' = '$nsame' ]"
	check "MAD: the peer switch port's SymbolErrorCounter of mlx5_0:1" \
		grep -q '^rdma_mad_port_stat_total{node="[^"]*",device="mlx5_0",port="1",side="peer",group="PortCounters",counter="SymbolErrorCounter"} [0-9]' mad.prom
else
	fail "a bundle with MAD documents builds"
fi

# --- strict.py itself refuses what it is there to refuse ---
H='# HELP a_total x
# TYPE a_total counter
'
for bad in "${H}a_total{node=\"n\"} 1 1764450245" \
	"${H}a_total{node=\"n\"} 1
a_total{node=\"n\"} 2" \
	"${H}a_total{node=\"n\"} 1
# HELP b x
# TYPE b gauge
b{node=\"n\"} 1
a_total{node=\"m\"} 1" \
	"a_total{node=\"n\"} 1" \
	"${H}a_total{node=\"a
b\"} 1" \
	"${H}# TYPE a_total counter
a_total{node=\"n\"} 1"; do
	printf '%s\n' "$bad" >bad.prom
	if python3 strict.py bad.prom >bad.out 2>&1; then
		fail "strict.py accepts: $(tr '\n' '|' <bad.prom)"
	else
		ok "strict.py refuses: $(head -1 bad.out)"
	fi
done
