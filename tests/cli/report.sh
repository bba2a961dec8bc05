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
# a RoCE port's Disabled is its netdev down or without carrier, not a
# port disabled on purpose: beside its Active sibling it should be up
check "a RoCE port Disabled beside its Active sibling is PORT_DOWN at warning, naming mlx5_1:1" python3 -c '
import json
r = json.load(open("r.json"))
f = [f for n in r["nodes"] if n["node"] == "bad-node" for f in n["findings"] if f["rule"] == "PORT_DOWN"]
assert f and f[0]["component"] == "mlx5_1:1" and f[0]["severity"] == "warning", f'
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
check "schema/RULES.md is what 'rules --markdown' prints (regenerate it when rules change)" \
	sh -c "'$RA' rules --markdown | diff -u '$TOP/schema/RULES.md' -"
check "every check of layers 1-6 and SOURCE_INCOMPLETE is a rule" sh -c '
	for id in HCA_MISSING PCIE_LINK_DEGRADED FW_RESET FW_MEM_ALLOC_FAILED CABLE_MODULE_ERROR LINK_FLAPPING PHY_BER_HIGH PHY_EYE_LOW SYMBOL_ERRORS PORT_RCV_ERRORS LINK_DEGRADED XMIT_DISCARDS XMIT_WAIT_HIGH MODULE_MISSING DEVNODE_MISSING SM_ABSENT SM_NOT_MASTER LID_UNASSIGNED PORT_DOWN MTU_BELOW_MAX ROCE_NO_V2_IPV4_GID ROCE_V1_ONLY NCCL_GID_INDEX_BAD BW_BELOW_LINE_RATE GDR_BW_LOW PFC_DISABLED PAUSE_STORM PAUSE_HEAVY CNP_HEAVY DROPS_IN_FLIGHT RX_BUFFER_DROPS NCCL_NO_IB NCCL_IB_HCA_MISMATCH NCCL_GDR_DISABLED NCCL_COMPLETION_ERROR PEERMEM_MISSING ACS_ENABLED IOMMU_TRANSLATING MEMLOCK_LIMITED HUGEPAGES_NONE CONTAINER_NO_RDMA SOURCE_INCOMPLETE; do
		"$RA" rules | grep -q "^$id " || { echo "missing $id"; exit 1; }
	done'
