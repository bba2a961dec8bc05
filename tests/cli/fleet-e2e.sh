# fleet-e2e: the sample fleet (samples/fleet, made by tests/mkfleet.sh)
# loaded into a database, loaded again (nothing may change), reported as
# JSON, and the findings compared with samples/fleet/faults.tsv both ways:
# - every "required" row: a finding of that check on that node (with one
#   of the listed components when given) at no less than the check's base
#   severity (one "ok"/"not ok" line per row, so the log reads as a list
#   of which injected faults are found, by rule id);
# - every finding at warning or above is explained by a row of its node
#   and check ("required" or "implied"), else it is listed as unexpected;
# - the healthy nodes (no rows) have nothing at warning or above.
FLEET=$TOP/samples/fleet
if ! ls "$FLEET"/*.rdma.tar.zst >/dev/null 2>&1 || [ ! -f "$FLEET/faults.tsv" ]; then
	skip "fleet end to end" "no samples/fleet (make samples)"
	return 0 2>/dev/null || exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	skip "fleet end to end" "python3 is missing"
	return 0 2>/dev/null || exit 0
fi
DB=$T/fleet.db

# samples/fleet is what tests/mkfleet.sh makes now (inject.sh and the
# collector as they are): the truth file and every bundle, byte for byte
if FLEET_OUT=$T/fleet-now "$TOP/tests/mkfleet.sh" "$BUILD" >"$T/mkfleet.out" 2>&1; then
	if cmp -s "$FLEET/faults.tsv" "$T/fleet-now/faults.tsv"; then
		ok "fleet: faults.tsv is what tests/mkfleet.sh writes"
	else
		fail "fleet: samples/fleet/faults.tsv is stale (make samples)"
		diff "$FLEET/faults.tsv" "$T/fleet-now/faults.tsv" | head -10 | sed 's/^/#   /'
	fi
	stale=$( (cd "$FLEET" && sha256sum ./*.rdma.tar.zst) | (cd "$T/fleet-now" && sha256sum -c --quiet 2>/dev/null) | sed 's/: FAILED//' | tr '\n' ' ')
	if [ -z "$stale" ] && [ "$(ls "$FLEET"/*.rdma.tar.zst | wc -l)" = "$(ls "$T"/fleet-now/*.rdma.tar.zst | wc -l)" ]; then
		ok "fleet: the bundles are byte-identical to a fresh tests/mkfleet.sh"
	else
		fail "fleet: bundles differ from a fresh tests/mkfleet.sh (collector or faults changed: make samples): $stale"
	fi
else
	fail "fleet: tests/mkfleet.sh failed"
	tail -5 "$T/mkfleet.out" | sed 's/^/#   /'
fi

# every table's row count, one "table count" line each
counts() {
	python3 - "$1" <<'EOF'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for (t,) in c.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                      "AND name NOT LIKE 'sqlite_%' ORDER BY name"):
    print(t, c.execute('SELECT count(*) FROM "%s"' % t.replace('"', '""')).fetchone()[0])
EOF
}

"$RA" load --db "$DB" "$FLEET"/*.rdma.tar.zst >"$T/load1.out" 2>"$T/load1.err"
rc=$?
if [ $rc -le 2 ]; then
	ok "fleet: load --db (exit $rc)"
else
	fail "fleet: load --db exited $rc"
	sed 's/^/#   /' "$T/load1.err" | head -20
fi
n=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM bundles").fetchone()[0])' "$DB" 2>/dev/null)
check_eq "fleet: every bundle loaded" "$n" "$(ls "$FLEET"/*.rdma.tar.zst | wc -l | tr -d ' ')"
counts "$DB" >"$T/counts1"
"$RA" load --db "$DB" "$FLEET"/*.rdma.tar.zst >"$T/load2.out" 2>"$T/load2.err"
rc2=$?
counts "$DB" >"$T/counts2"
if [ $rc2 -le 2 ] && cmp -s "$T/counts1" "$T/counts2"; then
	ok "fleet: loading twice changes nothing ($(wc -l <"$T/counts1" | tr -d ' ') tables, exit $rc2)"
else
	fail "fleet: loading twice changed the database (exit $rc2)"
	diff "$T/counts1" "$T/counts2" | sed 's/^/#   /' | head -20
fi

"$RA" report --db "$DB" --format json -o "$T/report.json" 2>"$T/report.err"
rc=$?
if [ $rc -le 2 ] && [ -s "$T/report.json" ]; then
	ok "fleet: report --format json (exit $rc)"
else
	fail "fleet: report --format json exited $rc"
	sed 's/^/#   /' "$T/report.err" | head -20
fi
"$RA" rules --json >"$T/rules.json" 2>/dev/null || echo '[]' >"$T/rules.json"

python3 - "$FLEET/faults.tsv" "$T/report.json" "$T/rules.json" <<'EOF'
import json, sys
SEV = {"info": 0, "warning": 1, "critical": 2}
# the catalogue's base severities (schema/RULES.md), used until the rule
# is registered
BASE = {
    "PCIE_LINK_DEGRADED": 2, "FW_RESET": 1, "FW_MEM_ALLOC_FAILED": 2,
    "CABLE_MODULE_ERROR": 2, "LINK_FLAPPING": 1, "PHY_BER_HIGH": 2,
    "PHY_EYE_LOW": 1, "SYMBOL_ERRORS": 1, "PORT_RCV_ERRORS": 1,
    "LINK_DEGRADED": 2, "XMIT_DISCARDS": 1, "XMIT_WAIT_HIGH": 1,
    "MODULE_MISSING": 2, "DEVNODE_MISSING": 2, "SM_ABSENT": 2,
    "SM_NOT_MASTER": 1, "LID_UNASSIGNED": 2, "PORT_DOWN": 2,
    "MTU_BELOW_MAX": 1, "ROCE_NO_V2_IPV4_GID": 2, "ROCE_V1_ONLY": 1,
    "NCCL_GID_INDEX_BAD": 2, "BW_BELOW_LINE_RATE": 1, "GDR_BW_LOW": 1,
    "PFC_DISABLED": 1, "PAUSE_STORM": 2, "PAUSE_HEAVY": 1, "CNP_HEAVY": 1,
    "DROPS_IN_FLIGHT": 1, "RX_BUFFER_DROPS": 1, "NCCL_NO_IB": 2,
    "NCCL_IB_HCA_MISMATCH": 2, "NCCL_GDR_DISABLED": 1,
    "NCCL_COMPLETION_ERROR": 2, "PEERMEM_MISSING": 2, "ACS_ENABLED": 2,
    "IOMMU_TRANSLATING": 1, "MEMLOCK_LIMITED": 2, "HUGEPAGES_NONE": 0,
    "CONTAINER_NO_RDMA": 1, "SOURCE_INCOMPLETE": 0,
}
truth_p, report_p, rules_p = sys.argv[1:4]
try:
    for r in json.load(open(rules_p)):
        BASE[r["id"]] = SEV.get(r["severity"], BASE.get(r["id"], 0))
except Exception:
    pass
registered = set()
try:
    registered = {r["id"] for r in json.load(open(rules_p))}
except Exception:
    pass

rows = []
for line in open(truth_p):
    if line.startswith("#") or not line.strip():
        continue
    f = line.rstrip("\n").split("\t")
    f += [""] * (5 - len(f))
    node, check, comp, fault, need = f[:5]
    alts = [c for c in comp.split("|") if c]
    rows.append((node, check, alts, fault, need))

try:
    rep = json.load(open(report_p))
except Exception as e:
    print("not ok - fleet: the JSON report cannot be read (%s)" % e)
    sys.exit(0)
findings = {}
nodes = []
for n in rep.get("nodes", []):
    nodes.append(n["node"])
    for fd in n.get("findings", []):
        findings.setdefault(n["node"], []).append(fd)

def comp_ok(alts, c):
    return not alts or c in alts

def sevname(s):
    return [k for k, v in SEV.items() if v == s][0]

# direction 1: every required row found
found_rules, missing_rules = {}, {}
for node, check, alts, fault, need in rows:
    if need != "required":
        continue
    what = "%s %s %s (%s)" % (node, check, "|".join(alts) or "*", fault)
    if node not in nodes:
        print("not ok - fleet: %s: node not in the report" % what)
        missing_rules.setdefault(check, []).append(node)
        continue
    hits = [fd for fd in findings.get(node, [])
            if fd["rule"] == check and comp_ok(alts, fd.get("component") or "")]
    base = BASE.get(check, 0)
    if hits and max(SEV.get(h["severity"], 0) for h in hits) >= base:
        h = max(hits, key=lambda h: SEV.get(h["severity"], 0))
        print("ok - fleet: %s found: %s %s" % (what, h["severity"], h.get("component")))
        found_rules.setdefault(check, []).append(node)
    elif hits:
        print("not ok - fleet: %s found at %s, below its base severity %s" %
              (what, hits[0]["severity"], sevname(base)))
        missing_rules.setdefault(check, []).append(node)
    else:
        other = [fd for fd in findings.get(node, []) if fd["rule"] == check]
        why = "" if check in registered else " (rule not registered)"
        print("not ok - fleet: %s not found%s" % (what, why))
        for o in other:
            print("#   same rule, other component: %s %s: %s" %
                  (o["severity"], o.get("component"), o.get("summary")))
        missing_rules.setdefault(check, []).append(node)

# direction 2: every finding at warning or above explained by a row
unexpected = []
for node in nodes:
    for fd in findings.get(node, []):
        if SEV.get(fd["severity"], 0) < 1:
            continue
        ok = any(r[0] == node and r[1] == fd["rule"] and comp_ok(r[2], fd.get("component") or "")
                 for r in rows)
        if not ok:
            unexpected.append((node, fd))
if unexpected:
    print("not ok - fleet: %d finding(s) at warning or above that were not injected" % len(unexpected))
    for node, fd in unexpected:
        print("#   unexpected: %s %s %s %s: %s" % (node, fd["severity"], fd["rule"],
              fd.get("component"), fd.get("summary")))
else:
    print("ok - fleet: no finding at warning or above that was not injected")

healthy = sorted(set(nodes) - {r[0] for r in rows})
bad = [(n, fd) for n in healthy for fd in findings.get(n, []) if SEV.get(fd["severity"], 0) >= 1]
if healthy and not bad:
    print("ok - fleet: healthy nodes (%s) have no finding at warning or above" % ", ".join(healthy))
elif not healthy:
    print("not ok - fleet: no healthy node in the fleet")
else:
    print("not ok - fleet: healthy nodes with findings at warning or above: %s" %
          ", ".join(sorted({n for n, _ in bad})))

# summary by rule id
print("#   found by rule:   " + (" ".join("%s(%d)" % (k, len(v)) for k, v in sorted(found_rules.items())) or "none"))
print("#   missing by rule: " + (" ".join("%s(%d)" % (k, len(v)) for k, v in sorted(missing_rules.items())) or "none"))
EOF
