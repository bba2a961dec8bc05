# verdict-schema: the node verdict (each node of `report -f json`,
# analyze/verdict.c) against its published schema,
# schema/node-verdict.schema.json, with python3-jsonschema (Debian's, draft
# 2020-12): the schema is a valid schema whose $id carries the version;
# every node of the samples, of samples/fleet, of fixture nodes with a few
# injected faults, of the import fixtures and of tests/real's inputs is
# valid, also against a strict copy that forbids fields the schema does not
# name (a field added to verdict.c but not to the schema fails here); the
# rules' ids, layers and severities fit it; and verdicts with a required
# field missing, a bad severity, a bad layer or another version fail.
cd "$T" || exit 1
SCHEMA=$TOP/schema/node-verdict.schema.json
PY=
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import jsonschema; jsonschema.Draft202012Validator' >/dev/null 2>&1; then
		PY=$p
		break
	fi
done
if [ -z "$PY" ]; then
	skip "verdict schema" "python3-jsonschema is not installed (tests/install-deps.sh installs it)"
	return 0 2>/dev/null || exit 0
fi
export SOURCE_DATE_EPOCH=1764450245
mkdir r

# report NAME INPUT...: the JSON report of the inputs into NAME.json
report() {
	n=$1
	shift
	"$RA" report -f json "$@" >"r/$n.json" 2>"$n.err"
	[ $? -le 2 ] || fail "verdict: report $n: $(head -1 "$n.err")"
}
# an input that may hold no evidence (exit 4: a report without a node)
report_maybe() {
	n=$1
	shift
	"$RA" report -f json "$@" >"r/$n.json" 2>"$n.err"
	case $? in
	0 | 1 | 2) ;;
	4) rm -f "r/$n.json" ;;
	*) fail "verdict: report $n: $(head -1 "$n.err")" ;;
	esac
}

for s in "$TOP"/samples/*.rdma.tar.zst; do
	[ -f "$s" ] && report "sample-$(basename "$s" .rdma.tar.zst)" "$s"
done
ls "$TOP"/samples/fleet/*.rdma.tar.zst >/dev/null 2>&1 &&
	report fleet "$TOP"/samples/fleet/*.rdma.tar.zst

# faults KIND FAULT...: a fixture node of KIND with the FAULTs injected,
# collected and reported (one tree a kind: building one takes seconds)
faults() {
	d=$1
	shift
	mknode "$d" "$d" >/dev/null 2>&1 || { fail "verdict: fixture $d"; return; }
	for f in "$@"; do
		"$FIXTURES/inject.sh" "$f" "$d" >/dev/null 2>"$d.inject.err" ||
			{ fail "verdict: inject $f into $d"; return; }
	done
	mkdir "$d.out"
	if ! "$RC" -q --root "$d" -o "$d.out" >/dev/null 2>"$d.err"; then
		fail "verdict: collect $d"
		return
	fi
	report "fault-$d" "$d".out/*.rdma.tar.zst
}
faults gpu-ndr8 pcie-degraded fw-reset nccl-completion-error
faults roce-pfc pfc-disabled source-absent
faults rxe port-down

for d in "$FIXTURES"/import/*/; do
	report_maybe "import-$(basename "$d")" "$d"
done
for d in "$TOP"/tests/real/*/in; do
	[ -d "$d" ] && report_maybe "real-$(basename "$(dirname "$d")")" "$d"
done
"$RA" rules --json >rules.json 2>/dev/null || fail "verdict: rules --json"

"$PY" - "$SCHEMA" rules.json r/*.json <<'PYEOF' ||
import copy, json, os, sys
import jsonschema

V = jsonschema.Draft202012Validator
schema = json.load(open(sys.argv[1]))
rules = json.load(open(sys.argv[2]))
reports = sys.argv[3:]


def result(ok, what, detail=()):
    print(("ok - " if ok else "not ok - ") + what)
    if not ok:
        for d in list(detail)[:5]:
            print("#   " + str(d)[:300])


try:
    V.check_schema(schema)
    result(True, "verdict: the schema is a valid draft 2020-12 schema")
except jsonschema.SchemaError as e:
    result(False, "verdict: the schema is a valid draft 2020-12 schema", [e.message])
    sys.exit(0)
version = schema["properties"]["verdict_version"]["const"]
result(schema.get("$id", "").endswith(":%d" % version),
       "verdict: the schema's $id ends with its verdict_version (%d)" % version,
       [schema.get("$id")])


def strict(s):
    """a copy where objects allow only the members the schema names"""
    if isinstance(s, dict):
        s = {k: strict(v) for k, v in s.items()}
        if "properties" in s and "additionalProperties" not in s:
            s["additionalProperties"] = False
        return s
    if isinstance(s, list):
        return [strict(v) for v in s]
    return s


loose, tight = V(schema), V(strict(schema))
nodes = []
for f in sorted(reports):
    try:
        nodes_f = json.load(open(f))["nodes"]
    except (ValueError, KeyError) as e:
        result(False, "verdict: %s is a JSON report" % os.path.basename(f), [e])
        continue
    errs = ["%s: %s at %s" % (n.get("node"), e.message, "/".join(map(str, e.path)))
            for n in nodes_f for v in (loose, tight) for e in v.iter_errors(n)]
    name = os.path.basename(f)[:-5]
    result(not errs and nodes_f, "verdict: %s: %d node(s) valid" % (name, len(nodes_f)),
           errs or ["no node"])
    nodes += nodes_f
findings = [fi for n in nodes for fi in n["findings"]]
print("# %d verdicts, %d findings, %d with inputs, %d evidence with origin" % (
    len(nodes), len(findings), sum("inputs" in n for n in nodes),
    sum("origin" in e for fi in findings for e in fi["evidence"])))
result(len(nodes) >= 20 and {f["severity"] for f in findings} == {"info", "warning", "critical"},
       "verdict: the verdicts cover every severity (%d nodes)" % len(nodes))

# every rule the analyzer has fits the schema
fd = schema["$defs"]["finding"]["properties"]
rule_id = V({"$defs": schema["$defs"], "$ref": "#/$defs/rule"})
bad = [r["id"] for r in rules
       if not rule_id.is_valid(r["id"])
       or r["layer"] not in fd["layer"]["enum"]
       or r["severity"] not in schema["$defs"]["severity"]["enum"]]
result(rules and not bad, "verdict: the %d rules' ids, layers and severities fit the schema"
       % len(rules), bad)

# what must fail
base = next(n for n in nodes if n["findings"] and n["skipped"])


def mutant(edit):
    n = copy.deepcopy(base)
    edit(n)
    return n


cases = {
    "no worst": lambda n: n.pop("worst"),
    "no verdict_version": lambda n: n.pop("verdict_version"),
    "verdict_version 2": lambda n: n.update(verdict_version=2),
    "worst 'fatal'": lambda n: n.update(worst="fatal"),
    "a finding's severity 'error'": lambda n: n["findings"][0].update(severity="error"),
    "a finding's severity 2": lambda n: n["findings"][0].update(severity=2),
    "a finding without rule": lambda n: n["findings"][0].pop("rule"),
    "a finding without remediation": lambda n: n["findings"][0].pop("remediation"),
    "a finding without evidence": lambda n: n["findings"][0].pop("evidence"),
    "a finding's layer 'disk'": lambda n: n["findings"][0].update(layer="disk"),
    "a rule id in lower case": lambda n: n["findings"][0].update(rule="pcie_link"),
    "evidence without its path": lambda n: n["findings"][0]["evidence"].append({"value": "1"}),
    "a skipped check without reason": lambda n: n["skipped"][0].pop("reason"),
    "sha256 not hex": lambda n: n.update(sha256="xyz"),
    "node null": lambda n: n.update(node=None),
    "findings not an array": lambda n: n.update(findings={}),
}
for what, edit in cases.items():
    errs = list(loose.iter_errors(mutant(edit)))
    result(errs, "verdict: fails validation: %s (%s)" % (what, errs[0].message[:60] if errs else "valid"))
# fields are added within a version: the published schema lets a reader
# ignore one it does not know, the strict copy (this test's) does not
extra = mutant(lambda n: n["findings"][0].update(new_field=1))
result(not list(loose.iter_errors(extra)) and list(tight.iter_errors(extra)),
       "verdict: an unknown field passes the schema, fails its strict copy")
PYEOF
	fail "verdict: the validator ran to its end"
