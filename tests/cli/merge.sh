# merge: rdma-analyze merge --db OUT DB... (per-rack databases into one).
# Two "racks" share the bundles of a small synthetic fleet (tests/genfleet.py:
# 6 nodes x 3 snapshots with a drifting and an accelerating counter, the
# snapshots of one node split across the racks) and the sample fleet, with
# one bundle in both.  Loading A and B apart and merging them must equal
# loading A+B into one database: every table's rows, with ids replaced by
# what they stand for (a bundle's SHA-256, a node's name and machine-id, a
# finding's content), and so the same findings.  Merging again changes
# nothing; a file that is not a database fails alone (exit 4).
if ! command -v python3 >/dev/null 2>&1 || ! command -v zstd >/dev/null 2>&1; then
	skip "merge" "python3 or zstd is missing"
	return 0 2>/dev/null || exit 0
fi
if ! "$TOP/tests/genfleet.py" "$BUILD" -o "$T/g" --nodes 6 --snapshots 3 --faulty 2 \
	--seed 5 >"$T/gen.out" 2>&1; then
	fail "merge: tests/genfleet.py failed"
	tail -5 "$T/gen.out" | sed 's/^/#   /'
	return 0 2>/dev/null || exit 0
fi
G=$T/g/bundles
# rack A: snapshots 0 and 2, half the sample fleet; rack B: snapshot 1,
# the other half and one bundle of A again
ls "$G"/*-20251129T*.rdma.tar.zst "$G"/*-20251201T*.rdma.tar.zst >"$T/a.list"
ls "$TOP"/samples/fleet/*.rdma.tar.zst | head -n 9 >>"$T/a.list"
ls "$G"/*-20251130T*.rdma.tar.zst >"$T/b.list"
ls "$TOP"/samples/fleet/*.rdma.tar.zst | tail -n +10 >>"$T/b.list"
head -n 1 "$T/a.list" >>"$T/b.list"
nall=$(sort -u "$T/a.list" "$T/b.list" | wc -l | tr -d ' ')

# shellcheck disable=SC2046
"$RA" load --db "$T/a.db" $(cat "$T/a.list") >/dev/null 2>&1
# shellcheck disable=SC2046
"$RA" load --db "$T/b.db" $(cat "$T/b.list") >/dev/null 2>&1
# shellcheck disable=SC2046
"$RA" load --db "$T/one.db" $(sort -u "$T/a.list" "$T/b.list") >/dev/null 2>&1
"$RA" merge --db "$T/m.db" "$T/a.db" "$T/b.db" >"$T/m.out" 2>"$T/m.err"
rc=$?
check_eq "merge: exit 0" "$rc" 0
check_eq "merge: what it says" "$(sed 's/ in .*m\.db/ in OUT/' "$T/m.err")" \
	"rdma-analyze: $nall bundles merged, 1 already in OUT, 0 databases failed; 24 nodes, $nall bundles in the database"

# canon DB: every table's rows with the ids replaced, sorted, one line each
canon() {
	python3 - "$1" <<'EOF'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
sha = dict(c.execute("SELECT id, sha256 FROM bundles"))
node = {i: "%s/%s" % (n, m) for i, n, m in c.execute("SELECT id, name, machine_id FROM nodes")}
fnd = {r[0]: "%s/%s/%s/%s/%s" % (sha[r[1]], r[2], r[3], r[4], r[5]) for r in
       c.execute("SELECT id, bundle_id, rule, severity, component, summary FROM findings")}
# the shared sets (schema/012) by their digests, not their ids
sets = {p: {i: d.hex() for i, d in c.execute("SELECT id, digest FROM %s" % t)}
        for p, t in (("counter_", "counter_sets"), ("netdev_stat_", "netdev_stat_sets"),
                     ("", "row_sets"))}
def set_of(t, v):
    m = sets["counter_" if t.startswith("counter_") else
             "netdev_stat_" if t.startswith("netdev_stat_") else ""]
    return m.get(v, "?%s" % v)
# the tables, and the views over their storage (the rows as every query
# sees them; not evidence_origins, which shows finding_evidence's rowids)
for (t,) in c.execute("SELECT name FROM sqlite_master WHERE (type = 'table' "
                      "OR type = 'view' AND name <> 'evidence_origins') AND "
                      "name NOT LIKE 'sqlite_%' ORDER BY name"):
    cols = [r[1] for r in c.execute('PRAGMA table_info("%s")' % t)]
    rows = []
    for r in c.execute('SELECT * FROM "%s"' % t):
        out = []
        for k, v in zip(cols, r):
            if (t, k) in (("bundles", "id"), ("nodes", "id"), ("findings", "id"),
                          ("bundles", "loaded_at")) or (t.endswith("_sets") and
                                                        k == "id"):
                continue
            if k == "set_id":
                v = set_of(t, v)
            elif k == "rowid":
                # schema/014's views: (bundle_id << 32) + the row's place
                v = "%s %d" % (sha.get(v >> 32, "?%s" % (v >> 32)), v & 0xffffffff)
            elif k == "bundle_id":
                v = sha.get(v, "?%s" % v)
            elif k == "node_id":
                v = node.get(v, "?%s" % v)
            elif k == "finding_id":
                v = fnd.get(v, "?%s" % v)
            out.append(repr(v))
        rows.append(t + "\t" + "\t".join(out))
    for r in sorted(rows):
        print(r)
EOF
}
canon "$T/one.db" >"$T/one.txt"
canon "$T/m.db" >"$T/m.txt"
ntab=$(cut -f1 "$T/one.txt" | sort -u | wc -l | tr -d ' ')
if [ -s "$T/one.txt" ] && cmp -s "$T/one.txt" "$T/m.txt"; then
	ok "merge: A and B merged equal A+B loaded together ($(wc -l <"$T/one.txt" | tr -d ' ') rows in $ntab tables)"
else
	fail "merge: A and B merged differ from A+B loaded together"
	diff "$T/one.txt" "$T/m.txt" | cut -c1-200 | head -10 | sed 's/^/#   /'
fi
f1=$(grep -c '^findings	' "$T/one.txt")
fm=$(grep -c '^findings	' "$T/m.txt")
grow=$(grep '^findings	' "$T/m.txt" | grep -c "'COUNTER_GROWING'")
if [ "$f1" -gt 0 ] && [ "$f1" = "$fm" ] && [ "$grow" -gt 0 ]; then
	ok "merge: the same $f1 findings, $grow of them COUNTER_GROWING across the racks"
else
	fail "merge: findings: $f1 loaded together, $fm merged, $grow COUNTER_GROWING"
fi
check_eq "merge: evidence rows of rack A's bundle in both racks once" \
	"$(grep -c '^gids	' "$T/m.txt")" "$(grep -c '^gids	' "$T/one.txt")"

# again: nothing changes
cp "$T/m.txt" "$T/m1.txt"
"$RA" merge --db "$T/m.db" "$T/a.db" "$T/b.db" >/dev/null 2>"$T/m2.err"
rc=$?
canon "$T/m.db" >"$T/m2.txt"
if [ $rc = 0 ] && cmp -s "$T/m1.txt" "$T/m2.txt" && grep -q " 0 bundles merged, $((nall + 1)) already" "$T/m2.err"; then
	ok "merge: merging again changes nothing"
else
	fail "merge: merging again changed the database (exit $rc)"
	sed 's/^/#   /' "$T/m2.err"
fi

# a file that is not a database, one that does not exist: they fail alone
printf 'not a database\n' >"$T/junk.db"
"$RA" merge --db "$T/m3.db" "$T/junk.db" "$T/a.db" "$T/none.db" >/dev/null 2>"$T/m3.err"
rc=$?
n3=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM bundles").fetchone()[0])' "$T/m3.db" 2>/dev/null)
na=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM bundles").fetchone()[0])' "$T/a.db" 2>/dev/null)
if [ $rc = 4 ] && [ "$n3" = "$na" ] && grep -q "2 databases failed" "$T/m3.err"; then
	ok "merge: a junk file and a missing one fail alone (exit 4, rack A's $na bundles merged)"
else
	fail "merge: bad inputs: exit $rc, $n3 bundles (want 4, $na)"
	sed 's/^/#   /' "$T/m3.err"
fi
"$RA" merge --db "$T/m4.db" >/dev/null 2>&1
check_eq "merge: no input database is a usage error" "$?" 3
