# genfleet: the synthetic fleet generator (tests/genfleet.py) itself.
# - a 30-node x 3-snapshot fleet with every fault kind: N x S bundles,
#   bundles.tsv lists each once, truth.tsv names only fleet nodes;
# - the truth agrees with the bundles, read from the tar files (not through
#   the analyzer): counter series at the named port, boot_id and uptime at
#   a reboot, the same boot_id and counters that went down at a reload or a
#   firmware reset, firmware before and after, driver versions, the missing
#   HCA, the lowered MTU, kernel lines new at the snapshot named; healthy
#   nodes are their template's bundles with only the identity changed;
#   no two nodes share a GUID, a MAC or an IPv4 address;
# - rdma-analyze loads every bundle, with the hostname, boot_id and time
#   bundles.tsv gives;
# - the same seed gives the same files byte for byte (an 8-node fleet made
#   twice); another seed another plan.
if ! command -v python3 >/dev/null 2>&1 || ! command -v zstd >/dev/null 2>&1; then
	skip "genfleet" "python3 or zstd is missing"
	return 0 2>/dev/null || exit 0
fi
GEN=$TOP/tests/genfleet.py
ARGS="--nodes 30 --snapshots 3 --seed 7 --faulty 17"

# shellcheck disable=SC2086
if "$GEN" "$BUILD" -o "$T/a" $ARGS >"$T/gen.out" 2>&1; then
	ok "genfleet: $(sed -n 's/^genfleet: //p' "$T/gen.out")"
else
	fail "genfleet: the generator failed"
	sed 's/^/#   /' "$T/gen.out" | tail -10
	return 0 2>/dev/null || exit 0
fi
check_eq "genfleet: 90 bundles" "$(ls "$T/a/bundles" | wc -l | tr -d ' ')" 90

python3 - "$T/a" <<'EOF'
import io, json, os, posixpath, subprocess, sys, tarfile
OUT = sys.argv[1]
FW = {"gpu": ("28.41.1000", "28.39.1002"), "roce": ("22.39.2048", "22.38.1002")}
OFED_NEW, OFED_OLD = "24.10-1.1.4", "24.07-0.6.1"

def ok(what, cond, why=""):
    print(("ok - " if cond else "not ok - ") + "genfleet: " + what)
    if not cond and why:
        print("#   " + str(why)[:400])

def rows(p):
    return [l.rstrip("\n").split("\t") for l in open(p) if not l.startswith("#")]

bundles = rows(os.path.join(OUT, "bundles.tsv"))
truth = rows(os.path.join(OUT, "truth.tsv"))
files = sorted(os.listdir(os.path.join(OUT, "bundles")))
ok("bundles.tsv lists every bundle once", sorted(b[6] for b in bundles) == files)
nodes = {}
for b in bundles:
    nodes.setdefault(b[0], {})[int(b[2])] = b
ok("30 nodes, each with snapshots 0-2",
   len(nodes) == 30 and all(sorted(v) == [0, 1, 2] for v in nodes.values()))
ok("truth names only fleet nodes", all(r[0] in nodes for r in truth),
   [r[0] for r in truth if r[0] not in nodes])
kinds = {r[2] for r in truth}
want = {"drift", "accel", "reboot", "reload", "sat16", "sat32", "wrap64",
        "fwup", "fw-old", "driver", "hca-fewer", "mtu", "klog"}
ok("every fault kind is in the truth", want <= kinds, want - kinds)
ok("every truth row has a known need",
   all(r[6] in ("required", "implied", "absent") for r in truth))

class Bundle:
    """a bundle's regular files and links, read with zstd and tarfile"""
    def __init__(self, node, snap):
        b = nodes[node][snap]
        self.row = b
        raw = subprocess.run(["zstd", "-q", "-dc", os.path.join(OUT, "bundles", b[6])],
                             stdout=subprocess.PIPE, check=True).stdout
        self.raw = raw
        self.m = {}
        with tarfile.open(fileobj=io.BytesIO(raw)) as t:
            for e in t:
                name = e.name.rstrip("/")
                if e.issym():
                    self.m[name] = ("l", e.linkname)
                elif e.isfile():
                    self.m[name] = ("f", t.extractfile(e).read().decode(errors="replace"))
    def resolve(self, p):
        parts, out = p.split("/"), []
        for i, c in enumerate(parts):
            out.append(c)
            cur = "/".join(out)
            if cur in self.m and self.m[cur][0] == "l":
                tgt = posixpath.normpath(posixpath.join(posixpath.dirname(cur), self.m[cur][1]))
                return self.resolve("/".join([tgt] + parts[i + 1:]))
        return "/".join(out)
    def get(self, p):
        e = self.m.get(self.resolve(p))
        return e[1] if e and e[0] == "f" else None
    def ibdevs(self):
        return sorted(p.split("/")[3] for p in self.m
                      if p.startswith("sys/class/infiniband/") and p.count("/") == 3)

cache = {}
def B(node, snap):
    if (node, snap) not in cache:
        cache[(node, snap)] = Bundle(node, snap)
    return cache[(node, snap)]

def counter(node, snap, dev, name):
    for sub in ("counters", "hw_counters"):
        v = B(node, snap).get("sys/class/infiniband/%s/ports/1/%s/%s" % (dev, sub, name))
        if v is not None:
            return int(v)
    return None

def fw(node, snap):
    b = B(node, snap)
    return sorted({b.get("sys/class/infiniband/%s/fw_ver" % d).strip() for d in b.ibdevs()})

def boot(node, snap):
    return B(node, snap).get("proc/sys/kernel/random/boot_id").strip()

def uptime(node, snap):
    return float(B(node, snap).get("proc/uptime").split()[0])

S = range(3)
for r in truth:
    node, snap, event, comp, detail, check, need = r
    k = 0 if snap == "*" else int(snap)
    dev = comp.split("|")[-1] if comp else ""
    what = "%s %s at %s: %s" % (node, event, snap, check)
    if event in ("drift", "accel", "sat16", "sat32", "wrap64") and detail and \
            not detail.startswith("critical"):
        name, vals = detail.split()[0], [int(x) for x in detail.split()[1].split(",")]
        got = [counter(node, s, dev, name) for s in S]
        ok("%s: %s %s in the bundles" % (what, dev, name), got == vals, got)
        if event in ("drift", "accel"):
            ok("%s grows" % what, all(b > a for a, b in zip(got, got[1:])), got)
        if event == "accel":
            d = [b - a for a, b in zip(got, got[1:])]
            ok("%s: the last step is 8x the one before" % what, d[-1] >= 3 * d[-2], d)
        if event == "wrap64":
            ok("%s: wraps past 2^64 at snapshot %d" % (what, k),
               got[k - 1] > 2**63 and got[k] < got[k - 1], got)
            ok("%s: same boot across the wrap" % what, boot(node, k - 1) == boot(node, k))
    elif event == "reboot":
        ok("%s: a new boot_id at snapshot %d only" % (what, k),
           [boot(node, s) != boot(node, s - 1) for s in range(1, 3)] ==
           [s == k for s in range(1, 3)])
        ok("%s: uptime 10800 s at the reboot" % what, uptime(node, k) == 10800.0, uptime(node, k))
        ok("%s: bundles.tsv has the boot_ids" % what,
           all(nodes[node][s][4] == boot(node, s) for s in S))
        ok("%s: traffic counters restart" % what,
           counter(node, k, "mlx5_3" if node.startswith("gpu") else "mlx5_0", "port_xmit_data") <
           counter(node, k - 1, "mlx5_3" if node.startswith("gpu") else "mlx5_0", "port_xmit_data"))
    elif event in ("reload", "fwup") and check == "COUNTER_GROWING":
        dv = "mlx5_3" if node.startswith("gpu") else "mlx5_0"
        ok("%s: same boot_id, uptime goes on" % what,
           len({boot(node, s) for s in S}) == 1 and uptime(node, k) > uptime(node, k - 1))
        ok("%s: counters went down at snapshot %d" % (what, k),
           counter(node, k, dv, "port_xmit_data") < counter(node, k - 1, dv, "port_xmit_data"))
    FW_NEW, FW_OLD = FW[node.split("-")[0]]
    if False:
        pass
    elif event == "fwup" and check == "CONFIG_CHANGED":
        got = [fw(node, s) for s in S]
        ok("%s: %s before %d, %s from it" % (what, FW_OLD, k, FW_NEW),
           got == [[FW_OLD] if s < k else [FW_NEW] for s in S], got)
    elif event == "fw-old":
        got = [fw(node, s) for s in S]
        ok("%s: %s in every snapshot" % (what, FW_OLD), got == [[FW_OLD]] * 3, got)
    elif event == "driver":
        got = {B(node, s).get("sys/module/mlx5_core/version").strip() for s in S}
        ok("%s: mlx5_core %s" % (what, OFED_OLD), got == {OFED_OLD}, got)
    elif event == "hca-fewer" and check == "HCA_COUNT_OUTLIER":
        got = [B(node, s).ibdevs() for s in S]
        ok("%s: 7 devices, no mlx5_7" % what,
           all(len(g) == 7 and "mlx5_7" not in g for g in got), got)
        v = json.loads(B(node, 0).get("rdma-collect/verbs/devices.json"))
        ok("%s: verbs lists 7 devices" % what, len(v["devices"]) == 7, v)
    elif event == "mtu" and check == "CONFIG_OUTLIER" and dev:
        d = json.loads(B(node, 0).get("rdma-collect/verbs/%s.json" % dev))
        mtu = [p.get("active_mtu") for p in d.get("ports", [])]
        ok("%s: %s active_mtu 3 (1024)" % (what, dev), mtu[:1] == [3], mtu)
    elif event == "klog" and check == "NEW_KERNEL_EVENTS":
        has = ["health compromised" in B(node, s).get("rdma-collect/klog/kmsg.txt") for s in S]
        ok("%s: fw-reset lines from snapshot %d on" % (what, k), has == [s >= k for s in S], has)

# healthy nodes: their template's bundle with the identity changed in place
tpl = {b[0] for b in bundles if b[5] == "real" and not any(r[0] == b[0] for r in truth)}
derived = sorted({b[0] for b in bundles if b[5].startswith("derived:")})
ok("two templates (%s) and %d derived nodes" % (" ".join(sorted(tpl)), len(derived)),
   len(tpl) == 2 and derived)
bad = []
for n in derived[:4]:
    t = nodes[n][0][5].split(":")[1]
    for s in S:
        a, b = B(n, s), B(t, s)
        if len(a.raw) != len(b.raw) or sorted(a.m) != sorted(b.m):
            bad.append("%s %d: other entries or sizes" % (n, s))
            continue
        for p in a.m:
            if len(a.m[p][1]) != len(b.m[p][1]):
                bad.append("%s %d %s: another size" % (n, s, p))
        if a.get("proc/sys/kernel/hostname").strip() != n or boot(n, s) == boot(t, s) or \
                boot(n, s) != nodes[n][s][4] or \
                a.get("etc/machine-id") == b.get("etc/machine-id"):
            bad.append("%s %d: identity" % (n, s))
        if a.get("proc/uptime") != b.get("proc/uptime") or \
                a.get("rdma-collect/klog/kmsg.txt") != b.get("rdma-collect/klog/kmsg.txt"):
            bad.append("%s %d: uptime or kernel log differ" % (n, s))
ok("derived nodes: their template's entries, sizes, uptime and kernel log, their own identity",
   not bad, bad[:5])
EOF

"$RA" load --db "$T/f.db" "$T/a/bundles" >"$T/load.out" 2>&1
rc=$?
check_eq "genfleet: rdma-analyze loads the fleet (exit 0)" "$rc" 0
python3 - "$T/f.db" "$T/a/bundles.tsv" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
got = sorted(db.execute("SELECT hostname, collected_at, boot_id FROM bundles"))
want = sorted((r[0], r[3], r[4]) for r in
              (l.rstrip("\n").split("\t") for l in open(sys.argv[2]) if not l.startswith("#")))
print(("ok" if got == want else "not ok") + " - genfleet: the database has bundles.tsv's "
      "hostname, time and boot_id of each of the %d bundles" % len(want))
if got != want:
    print("#   first difference: %s" % next(((a, b) for a, b in zip(got, want) if a != b), None))
# every node its own GUIDs, MACs and global IPv4 addresses (no duplicates)
for what, col, table, where in (
        ("node GUIDs", "node_guid", "devices", "1"),
        ("port GIDs", "gid", "gids", "gid NOT LIKE '0000:0000:0000:0000:0000:0000:%'"),
        ("MACs", "address", "netdevs", "address NOT LIKE '00:00:00:00:00:00%'"),
        ("IPv4 addresses", "address", "addresses", "family = 'inet' AND address NOT LIKE '127.%'")):
    dup = db.execute("SELECT x.%s, count(DISTINCT b.node_id) FROM %s x JOIN bundles b ON "
                     "b.id = x.bundle_id WHERE %s GROUP BY 1 HAVING count(DISTINCT b.node_id) > 1"
                     % (col, table, where)).fetchall()
    n = db.execute("SELECT count(DISTINCT %s) FROM %s WHERE %s" % (col, table, where)).fetchone()[0]
    print(("ok" if n > 30 and not dup else "not ok") + " - genfleet: %d %s, none on two nodes" % (n, what))
    if dup:
        print("#   %d shared, e.g. %s" % (len(dup), dup[:3]))
EOF

# the findings against the truth, both ways: every required row is
# reported (a state in the report of each node's newest bundle; an event
# of an earlier snapshot in `history` at that snapshot), no absent row is,
# and every warning or critical finding is a required or implied row.  A
# finding on the whole node ("node", "fleet") answers a row naming one of
# its devices (the fleet rules compare nodes, not ports).
"$RA" report --db "$T/f.db" -f json -o "$T/f.json" >/dev/null 2>&1
check_eq "genfleet: report --db on the fleet (exit 2: critical findings)" "$?" 2
python3 - "$T/f.json" "$T/a" "$RA" "$T/f.db" <<'EOF'
import json, os, subprocess, sys
rep, out, ra, db = sys.argv[1:5]
rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(out, "truth.tsv"))
        if not l.startswith("#")]
snaps = {}
for l in open(os.path.join(out, "bundles.tsv")):
    if not l.startswith("#"):
        f = l.split("\t")
        snaps[f[0]] = max(snaps.get(f[0], 0), int(f[2]))
last = max(snaps.values())
fs = [f for n in json.load(open(rep))["nodes"] for f in n["findings"]]
EVENTS = {"NEW_KERNEL_EVENTS", "CONFIG_CHANGED"}
bad = []

def comp_ok(alts, c):
    return not alts or c in ("node", "fleet") or c in alts.split("|")

def reported(node, check, alts):
    return [f for f in fs if f["node"] == node and f["rule"] == check and comp_ok(alts, f["component"])]

hist = {}
def history(node):
    if node not in hist:
        hist[node] = json.loads(subprocess.run([ra, "history", "--db", db, node, "--json"],
                                               capture_output=True, text=True).stdout)[0]["snapshots"]
    return hist[node]

nreq = nabs = 0
for node, snap, event, alts, detail, check, need in rows:
    if need == "required":
        nreq += 1
        if check in EVENTS and snap not in ("*", str(last)):
            s = history(node)[int(snap)]
            got = s.get("kernel_events") if check == "NEW_KERNEL_EVENTS" else s.get("changes")
            if not got:
                bad.append("missed: %s %s at snapshot %s (history has nothing there)" % (node, check, snap))
        elif not reported(node, check, alts):
            bad.append("missed: %s %s %s (%s)" % (node, check, alts, detail))
    elif need == "absent":
        nabs += 1
        if reported(node, check, alts):
            bad.append("false: %s %s %s (%s)" % (node, check, alts, detail))
allowed = {(r[0], r[5]) for r in rows if r[6] in ("required", "implied")}
extra = sorted({(f["node"], f["rule"], f["component"]) for f in fs
                if f["severity"] in ("warning", "critical") and (f["node"], f["rule"]) not in allowed})
bad += ["extra: %s %s %s" % e for e in extra]
nw = sum(1 for f in fs if f["severity"] in ("warning", "critical"))
print(("ok" if not bad else "not ok") + " - genfleet: findings = truth both ways "
      "(%d required rows found, %d absent rows silent, %d warning/critical findings all expected)"
      % (nreq, nabs, nw))
for b in bad[:20]:
    print("#   " + b)
EOF

# the same seed: the same bytes (a small fleet, generated twice)
SMALL="--nodes 8 --snapshots 2 --seed 3 --faulty 3"
# shellcheck disable=SC2086
"$GEN" "$BUILD" -o "$T/b" $SMALL >/dev/null 2>&1
# shellcheck disable=SC2086
"$GEN" "$BUILD" -o "$T/c" $SMALL >/dev/null 2>&1
same() { (cd "$1" && sha256sum truth.tsv bundles.tsv bundles/*); }
same "$T/b" >"$T/b.sum"
same "$T/c" >"$T/c.sum" 2>&1
if [ "$(wc -l <"$T/b.sum")" -eq 18 ] && cmp -s "$T/b.sum" "$T/c.sum"; then
	ok "genfleet: the same seed gives the same 18 files, byte for byte"
else
	fail "genfleet: two runs with the same seed differ"
	diff "$T/b.sum" "$T/c.sum" | head -5 | sed 's/^/#   /'
fi
# shellcheck disable=SC2086
p7=$("$GEN" --plan -o - $ARGS)
p8=$("$GEN" --plan -o - --nodes 30 --snapshots 3 --seed 8 --faulty 17)
if [ "$p7" != "$p8" ] && [ "$p7" = "$("$GEN" --plan -o - $ARGS)" ]; then
	ok "genfleet: seed 8 plans another fleet than seed 7 (and seed 7 the same one twice)"
else
	fail "genfleet: the seed does not decide the plan"
fi
