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

if ! python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import cdp; sys.exit(0 if cdp.find_chromium() else 1)' "$TOP/tests/browser"; then
	skip "report in a browser" "chromium is not installed (tests/install-deps.sh installs it)"
	return 0 2>/dev/null || exit 0
fi
python3 "$TOP/tests/browser/check-report.py" samples s.html s.json "$SHOTS"
python3 "$TOP/tests/browser/check-report.py" hostile evil.html evil.json "$SHOTS" \
	"$H" "$FW" "$KR" "$KL"
echo "# screenshots: $SHOTS"
