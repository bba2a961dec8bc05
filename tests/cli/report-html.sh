# rdma-analyze -f html: the page's structure, CSP and data against the JSON
# report (always), then the page in headless Chromium (tests/browser/:
# the DevTools protocol over a pipe; skipped when chromium is missing):
# the samples report and a report of hostile strings.  Screenshots are kept
# in $SHOTS (default $BUILD/report-html-shots).
cd "$T" || exit 1
SHOTS=${SHOTS:-$BUILD/report-html-shots}
rm -rf "$SHOTS"
mkdir -p "$SHOTS"
S="$TOP/samples"
"$RA" report -f html -o s.html "$S"/*.rdma.tar.zst "$S"/fleet/*.rdma.tar.zst 2>s.err
check_eq "html report of the samples: exit 2 (critical findings), nothing on stderr" "$?:$(cat s.err)" "2:"
"$RA" report -f json -o s.json "$S"/*.rdma.tar.zst "$S"/fleet/*.rdma.tar.zst 2>/dev/null

# the static checks: what the browser is given
cat >static.py <<'EOF'
import base64, hashlib, json, re, sys
html = open(sys.argv[1], encoding="utf-8", errors="replace").read()
rep = json.load(open(sys.argv[2]))
what = sys.argv[3]
csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html).group(1)
scripts = re.findall(r"<script( [^>]*)?>(.*?)</script>", html, re.S)
styles = re.findall(r"<style>(.*?)</style>", html, re.S)
def h(s):
    return "'sha256-%s'" % base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()
if what == "csp":
    code = [s for a, s in scripts if not a]
    assert "default-src 'none'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp, csp
    assert len(code) == 1 and "script-src %s;" % h(code[0]) in csp + ";", "script hash"
    assert len(styles) == 1 and "style-src %s;" % h(styles[0]) in csp + ";", "style hash"
    assert not re.search(r"\sstyle=", html), "a style attribute (needs unsafe-inline)"
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html), "an external reference"
elif what == "json":
    for a, s in scripts:
        if a:
            assert "<" not in s and ">" not in s, "markup characters inside an inline JSON"
            json.loads(s)
elif what == "data":
    d = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S).group(1))
    got = sorted((d["nodes"][f[0]][0], f[3], f[4], ["info", "warning", "critical"][f[1]], d["layers"][f[2]])
                 for f in d["f"])
    want = sorted((n["node"], f["rule"], f["component"], f["severity"], f["layer"])
                  for n in rep["nodes"] for f in n["findings"])
    assert got == want, (len(got), len(want))
    ev = sum(len(f[6]) for f in d["f"])
    assert ev == sum(len(f["evidence"]) for n in rep["nodes"] for f in n["findings"]), ev
    assert len(d["sk"]) == sum(len(n["skipped"]) for n in rep["nodes"])
EOF
check "CSP: default-src 'none', the script and style allowed by their hashes only, no style attribute, nothing external" \
	python3 static.py s.html s.json csp
check "inline JSON: no '<' or '>' left inside, and it parses" python3 static.py s.html s.json json
check "the page's data hold the JSON report's findings, evidence and skipped checks" \
	python3 static.py s.html s.json data
check "views embedded: ibstat of a node as text" grep -q '"ibstat","CA' s.html

# a node whose strings are markup and script, in every context: hostname
# (HTML text, attributes, URL fragment, JSON), firmware and kernel release
# (SVG), node description (views), a kernel-log line (evidence)
mknode roce-pfc evil >/dev/null 2>&1
H='evil<img src=x onerror=pwned=1>"'"'"'&amp;#?%/x'
printf '%s\n' "$H" >evil/proc/sys/kernel/hostname
FW='<svg onload=pwned=2>'
KR='6.1<b onclick=pwned=5>bold</b>'
printf '%s\n' "$KR" >evil/proc/sys/kernel/osrelease
dev=$(readlink -f evil/sys/class/infiniband/mlx5_0)
printf '%s\n' "$FW" >"$dev/fw_ver"
printf '%s\n' '<script>pwned=3</script>' >"$dev/node_desc"
"$FIXTURES/inject.sh" cable-error evil mlx5_0 >/dev/null
KL='</script><script>pwned=4</script><!--'
sed -i "s|Bad or shorted cable/module|Bad or shorted cable/module $KL|" evil/rdma-collect/klog/kmsg.txt
SOURCE_DATE_EPOCH=1764450245 "$RC" -q --root evil -o evil.rdma.tar.zst >/dev/null 2>&1
"$RA" report -f html -o evil.html evil.rdma.tar.zst >/dev/null 2>&1
"$RA" report -f json -o evil.json evil.rdma.tar.zst >/dev/null 2>&1
check "the hostile node is in the report under its own name" python3 -c '
import json, sys
r = json.load(open("evil.json"))
assert r["nodes"][0]["node"] == sys.argv[1], r["nodes"][0]["node"]
assert any("pwned=4" in e["value"] for f in r["nodes"][0]["findings"] for e in f["evidence"])' "$H"
check "hostile: the CSP and inline JSON hold" sh -c 'python3 static.py evil.html evil.json csp && python3 static.py evil.html evil.json json'
check "hostile: no bundle string appears raw in the page" python3 -c '
import sys
html = open("evil.html", encoding="utf-8", errors="replace").read()
for s in sys.argv[1:]:
    assert s not in html, s
assert html.count("<script") == 3' '<img src=x' "$FW" '<b onclick' '<script>pwned' "$KL" 'pwned=3'

# pictures: a fabric scan (tests/fixtures/mkfabric.py: 2 spines, 3 leaves,
# 12 hosts; a spine link with symbol errors, another at 1X), a pairs run
# on it (every pair of node007 fails) and a node with four snapshots
. "$TOP/tests/fabric-lib.sh"
mknode gpu-ndr8 g >/dev/null 2>&1 || fail "gpu-ndr8 fixture builds"
python3 "$MKFABRIC" mad g
python3 "$MKFABRIC" fabric g/rdma-collect/fabric/fabric.json 2 3 4
# leaf2 port 6 (to spine2) counts symbol errors; leaf3 port 5 (to spine1)
# runs 1X of 4X
setjson g/rdma-collect/fabric/fabric.json '
for n in d["nodes"]:
    for q in n["ports"]:
        if n["desc"].startswith("MF0;leaf2") and q["port"] == 6:
            q["pma"]["PortCounters"]["SymbolErrorCounter"] = 42
        if n["desc"].startswith("MF0;leaf3") and q["port"] == 5:
            q["width_active"] = 1'
mad_bundle g scan.rdma.tar.zst || fail "a bundle with the fabric scan"
# history: one node, three snapshots, errors and pause frames growing
mknode roce-pfc hist >/dev/null 2>&1 || fail "roce-pfc fixture builds"
echo hist-node >hist/proc/sys/kernel/hostname
C=sys/class/infiniband/mlx5_0/ports/1/counters
E=rdma-collect/ethtool/ens1f0np0.json
mkdir -p snaps
i=0
for v in 0 100 1300 1400; do
	echo $v >hist/$C/symbol_error
	setjson hist/$E '
for kv in d["stats"]:
    if kv[0] in ("rx_prio3_pause", "tx_prio3_pause"):
        kv[1] = int(sys.argv[3]) * 50' $v
	printf '%s 1000.00\n' $(( (i + 1) * 86400 )) >hist/proc/uptime
	SOURCE_DATE_EPOCH=$((1764450000 + i * 86400)) "$RC" -q --root hist -o snaps >/dev/null 2>&1 || fail "snapshot $i"
	i=$((i + 1))
done
"$RA" load --db p.db scan.rdma.tar.zst snaps >/dev/null 2>&1
# pairs: node007's pairs all fail (a cross), two degraded, some untested
{
	echo "src,dst,result,gbps,error"
	for a in $(seq 1 12); do for b in $(seq 1 12); do
		[ $a -lt $b ] || continue
		[ $a = 2 ] && [ $b -gt 9 ] && continue
		r=ok
		[ $a = 7 ] || [ $b = 7 ] && r=fail
		[ $a = 3 ] && [ $b = 11 ] && r=degraded
		printf 'node%03d,node%03d,%s,,\n' $a $b $r
	done; done
} >p.csv
"$RA" pairs --db p.db --results p.csv >pairs.out 2>&1
check_eq "pairs: node007 is the suspect, exit 2" "$?:$(grep -c '^critical PAIR_SUSPECT_NODE *node007$' pairs.out)" "2:1"
check_eq "pairs keeps its run: one suspect, a cell per tested pair of hosts, the finding on the scan's node" \
	"$(sqlite3 p.db "SELECT count(*) FROM pair_suspects; SELECT count(*) FROM pair_cells; SELECT b.hostname || ' ' || f.rule || ' ' || f.component FROM findings f JOIN bundles b ON b.id = f.bundle_id WHERE f.layer = 'pairs'")" \
	"$(printf '1\n63\ndgx-h100-07 PAIR_SUSPECT_NODE node007')"
"$RA" pairs --db p.db --results p.csv >/dev/null 2>&1
check_eq "a second run replaces the first" \
	"$(sqlite3 p.db "SELECT count(*) FROM findings WHERE layer = 'pairs'; SELECT count(*) FROM pair_runs")" "$(printf '1\n1')"
"$RA" report --db p.db -f html -o p.html 2>p.err
check_eq "html report of the database: exit 2, nothing on stderr" "$?:$(cat p.err)" "2:"
"$RA" report --db p.db -f json -o p.json 2>/dev/null
check "pictures: CSP and inline JSON hold" sh -c 'python3 static.py p.html p.json csp && python3 static.py p.html p.json json && python3 static.py p.html p.json data'
check "pictures: the heatmap (node007's 22 failing cells), the fabric and the timelines are drawn" python3 -c '
html = open("p.html", encoding="utf-8").read()
for i in ("id=\"heatmap\"", "id=\"fabric\"", "id=\"tl-"):
    assert i in html, i
n = html.count("node007 \u00d7 ") + html.count("\u00d7 node007:")
assert n == 22, n'

if ! python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import cdp; sys.exit(0 if cdp.find_chromium() else 1)' "$TOP/tests/browser"; then
	skip "report in a browser" "chromium is not installed (tests/install-deps.sh installs it)"
	return 0 2>/dev/null || exit 0
fi
python3 "$TOP/tests/browser/check-report.py" samples s.html s.json "$SHOTS"
python3 "$TOP/tests/browser/check-report.py" hostile evil.html evil.json "$SHOTS" \
	"$H" "$FW" "$KR" "$KL"
python3 "$TOP/tests/browser/check-report.py" pics p.html p.json "$SHOTS" node007
echo "# screenshots: $SHOTS"
