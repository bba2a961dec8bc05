# import-ib: real infiniband-diags output from the simulated fabric
# (tests/ibsim/fabric.sh), pasted into a folder and imported: sminfo and
# perfquery print again byte for byte, and what the import holds equals,
# field by field, what rdma-collect's mad and fabric sources stored for the
# same fabric at the same node; then, the SM stopped, sminfo's failure
# gives SM_ABSENT (and the folder with the SM running does not).  The
# collector's bundle is no witness there: under the shim it has no sysfs,
# so it skips SM_ABSENT
cd "$T" || exit 1
. "$TOP/tests/ibsim/fabric.sh"
if ! fab_have; then
	skip "import of real InfiniBand tool outputs" "not installed: $FAB_MISSING"
	return 0 2>/dev/null || exit 0
fi
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:suppressions=$TOP/tests/ibsim/asan-umad2sim.supp"
FAB_SOCK=rcimp$$x$RANDOM
trap fab_stop EXIT
fab_fattree 2 2 3 >fat.topo
if ! fab_start "$T/fab" fat.topo || ! fab_sm_start node001; then
	fail "simulated fabric comes up"
	return 0 2>/dev/null || exit 0
fi

# the collector and the tools at node003, one right after the other
fab_run node003 "$RC" -q --only mad,fabric --fabric -o "$T/b.rdma.tar.zst" \
	>/dev/null 2>&1
mkdir p
fab_run node003 ibstat >p/ibstat 2>/dev/null
fab_run node003 sminfo >p/sminfo 2>/dev/null
fab_run node003 perfquery >p/perfquery 2>/dev/null
fab_run node003 perfquery -x >"p/perfquery -x.txt" 2>/dev/null
fab_run node003 iblinkinfo >p/iblinkinfo 2>/dev/null
check "the tools ran" test -s p/iblinkinfo -a -s p/sminfo -a -s p/perfquery

for v in sminfo perfquery "perfquery -x"; do
	f=p/$v
	[ -f "$f" ] || f="$f.txt"
	"$RA" show p $v >"imp.out" 2>&1
	check_eq "$v: the import prints what the tool printed" \
		"$(cat imp.out)" "$(cat "$f")"
done

# field by field against the collector's documents
tar --zstd -xOf b.rdma.tar.zst rdma-collect/mad/ibsim0.1.json >mad.json
tar --zstd -xOf b.rdma.tar.zst rdma-collect/fabric/fabric.json >fabric.json
# the import's documents (atest-imp-ib --cat: an entry of an import)
"$BUILD/tests/atest-imp-ib" --cat p rdma-collect/mad/ibsim0.1.json >imad.json
"$BUILD/tests/atest-imp-ib" --cat p rdma-collect/fabric/fabric.json >ifabric.json
python3 - mad.json imad.json fabric.json ifabric.json >cmp.out <<'EOF'
import json, sys
m, im, f, fi = (json.load(open(p)) for p in sys.argv[1:5])
n = 0
def eq(what, a, b):
    global n
    n += 1
    if a != b:
        print("mismatch %s: collector %r, import %r" % (what, a, b))
for k in ("Lid", "LinkState", "PhysLinkState", "LinkWidthActive",
          "LinkSpeedActive", "LinkSpeedExtActive", "LocalPort"):
    # iblinkinfo prints the extended speed alone: LinkSpeedActive stays out
    if k == "LinkSpeedActive" and im["local"]["portinfo"].get("LinkSpeedExtActive"):
        eq("local.LinkSpeedActive absent", None, im["local"]["portinfo"].get(k))
        continue
    eq("local." + k, m["local"]["portinfo"].get(k), im["local"]["portinfo"].get(k))
for k in ("NodeType", "Guid", "PortGuid"):
    eq("local." + k, m["local"]["nodeinfo"].get(k), im["local"]["nodeinfo"].get(k))
eq("local.node_desc", m["local"]["node_desc"], im["local"]["node_desc"])
eq("peer.lid", m["peer"]["lid"], im["peer"]["lid"])
for k in ("NodeType", "NumPorts", "Guid", "LocalPort"):
    eq("peer." + k, m["peer"]["nodeinfo"].get(k), im["peer"]["nodeinfo"].get(k))
for k in ("LinkState", "PhysLinkState", "LinkWidthActive", "LinkSpeedExtActive"):
    eq("peer." + k, m["peer"]["portinfo"].get(k), im["peer"]["portinfo"].get(k))
for k in ("lid", "SmInfoGuid", "SmPriority", "SmState"):
    eq("sminfo." + k, m["sminfo"].get(k), im["sminfo"].get(k))
# fabric: switches by GUID, CAs by their port's GUID (iblinkinfo prints no
# CA node GUID)
def key(node):
    if node["type"] == 2:
        return node["guid"]
    return node["ports"][0]["guid"] if node["ports"] else node["guid"]
col = {key(x): x for x in f["nodes"]}
imp = {key(x): x for x in fi["nodes"]}
eq("fabric node set", sorted(col), sorted(imp))
guid_of = {x["guid"]: key(x) for x in f["nodes"]}
iguid_of = {x["guid"]: key(x) for x in fi["nodes"]}
for g in sorted(set(col) & set(imp)):
    a, b = col[g], imp[g]
    for k in ("type", "desc"):
        eq("%s %s" % (g, k), a[k], b[k])
    if a["type"] == 2:
        eq("%s lid" % g, a.get("lid"), b.get("lid"))
    pa = {p["port"]: p for p in a["ports"] if p["port"] > 0}
    pb = {p["port"]: p for p in b["ports"]}
    eq("%s ports" % g, sorted(pa), sorted(pb))
    for pn in sorted(set(pa) & set(pb)):
        x, y = pa[pn], pb[pn]
        for k in ("state", "phys_state"):
            eq("%s/%d %s" % (g, pn, k), x[k], y[k])
        if x["state"] > 1:
            for k in ("width_active", "speed_ext_active"):
                eq("%s/%d %s" % (g, pn, k), x[k], y[k])
        ra, rb = x.get("remote"), y.get("remote")
        eq("%s/%d remote" % (g, pn),
           ra and (guid_of.get(ra["guid"]), ra["port"]),
           rb and (iguid_of.get(rb["guid"]), rb["port"]))
print("compared", n)
EOF
check_eq "mad and fabric documents: the import equals the collector" \
	"$(grep -v '^compared' cmp.out)$(grep -c '^compared' cmp.out)" "1"
grep '^compared' cmp.out | sed 's/^/# /'

# no SM: sminfo fails as the collector's SMInfo does
rules() {
	"$RA" report --format json "$1" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join(sorted(set(f["rule"] + ":" + f["component"] for n in d["nodes"]
      for f in n["findings"] if f["rule"].startswith("SM_")))))'
}
check_eq "SM running: no SM finding" "$(rules p)" ""
fab_sm_stop
mkdir q
cp p/ibstat q/
fab_run node003 sminfo >q/sminfo 2>&1
check "no SM: sminfo says so" grep -q "iberror" q/sminfo
check_eq "no SM: SM_ABSENT on the port" "$(rules q)" "SM_ABSENT:ibsim0:1"
