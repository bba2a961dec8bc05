# rdma-analyze report: formats, exit codes, thresholds, -o, skipped checks
cd "$T" || exit 1
mknode roce-pfc good >/dev/null 2>&1
cp -a good bad
printf '1: DOWN\n' >bad/sys/class/infiniband/mlx5_1/ports/1/state 2>/dev/null ||
	printf '1: DOWN\n' >"$(readlink -f bad/sys/class/infiniband/mlx5_1)/ports/1/state"
printf '3: Disabled\n' >"$(readlink -f bad/sys/class/infiniband/mlx5_1)/ports/1/phys_state"
echo bad-node >bad/proc/sys/kernel/hostname
export SOURCE_DATE_EPOCH=1764450245
"$RC" -q --root good -o good.rdma.tar.zst >/dev/null
"$RC" -q --root bad -o bad.rdma.tar.zst >/dev/null
"$RA" report good.rdma.tar.zst >good.txt 2>&1
rc=$?
check "healthy node: exit 0 or 1 only from info-free checks" test "$rc" -le 1
"$RA" report --format json good.rdma.tar.zst bad.rdma.tar.zst >r.json 2>err
rc=$?
check "JSON report is valid JSON with report_format 1" python3 -c '
import json; r = json.load(open("r.json")); assert r["report_format"] == 1'
check "every finding has rule, layer, severity, node, component, summary, evidence, remediation" python3 -c '
import json
r = json.load(open("r.json"))
for n in r["nodes"]:
    for f in n["findings"]:
        for k in ("rule", "layer", "severity", "node", "component", "summary", "evidence", "remediation"):
            assert k in f, (k, f)
        for e in f["evidence"]:
            assert "path" in e and "value" in e'
check "a port down on purpose (Disabled) is PORT_DOWN at info, naming mlx5_1:1" python3 -c '
import json
r = json.load(open("r.json"))
f = [f for n in r["nodes"] if n["node"] == "bad-node" for f in n["findings"] if f["rule"] == "PORT_DOWN"]
assert f and f[0]["component"] == "mlx5_1:1" and f[0]["severity"] == "info", f'
printf '2: INIT\n' >"$(readlink -f bad/sys/class/infiniband/mlx5_1)/ports/1/state"
printf '5: LinkUp\n' >"$(readlink -f bad/sys/class/infiniband/mlx5_1)/ports/1/phys_state"
"$RC" -q --root bad -o bad2.rdma.tar.zst >/dev/null
"$RA" report bad2.rdma.tar.zst >/dev/null 2>&1
check_eq "a critical finding: exit 2" "$?" 2
"$RA" report --format html -o out.html good.rdma.tar.zst bad2.rdma.tar.zst >/dev/null 2>&1
check "html written with -o, whole" sh -c 'test -s out.html && grep -q "</html>" out.html && ! ls out.html.tmp 2>/dev/null'
check "html forbids network requests (CSP default-src none)" grep -q "default-src 'none'" out.html
check "html has no external reference" sh -c "! grep -Eq '(src|href)=\"(https?:)?//' out.html"
"$RA" report --format xml good.rdma.tar.zst >/dev/null 2>&1
check_eq "unknown format: exit 3" "$?" 3
printf 'bogus_threshold 3\n' >th.txt
"$RA" report --thresholds th.txt good.rdma.tar.zst >/dev/null 2>th.err
check "an unknown threshold is refused with its line" grep -q 'th.txt:1: unknown threshold' th.err
"$RA" report good.rdma.tar.zst missing.rdma.tar.zst >out.txt 2>err.txt
check_eq "a missing bundle: exit 4, the others still reported" "$?" 4
check "the good bundle is still in the report" grep -q 'roce-h12' out.txt
"$RA" report --format json --db f.db good.rdma.tar.zst >/dev/null 2>&1
"$RA" report --format json --db f.db >db.json 2>/dev/null
check "report --db alone covers the newest bundle of each node" python3 -c '
import json; r = json.load(open("db.json")); assert [n["node"] for n in r["nodes"]] == ["roce-h12"]'
check "rules --json lists every rule with its needs" python3 -c "
import json, subprocess
r = json.loads(subprocess.check_output(['$RA', 'rules', '--json']))
assert all(set(x) >= {'id', 'layer', 'severity', 'title', 'needs', 'evidence', 'remediation'} for x in r)
assert any(x['id'] == 'PORT_DOWN' for x in r)"
