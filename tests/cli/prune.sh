# prune: rdma-analyze prune --db FILE --keep N | --keep-days D, and load
# --keep.  roce-pfc fixture nodes collected day after day (SOURCE_DATE_EPOCH):
# - --keep N keeps the newest N of each node, --keep-days D those within D
#   days of the node's own newest (a node whose timer stopped keeps its last
#   days), both together what either keeps; --dry-run lists exactly what
#   goes and changes nothing;
# - the bundle before a kept bundle with history findings stays (two for
#   COUNTER_GROWING), one step only; a bundle the pairs run names stays;
# - every row of a removed bundle goes, in every table with a bundle_id
#   (read from the schema here too), the evidence of its findings, nodes
#   left with no bundle; integrity and foreign keys hold; report and
#   history still run and the newest bundles' findings are unchanged;
# - load --keep ends where load then prune ends;
# - kill -9 at many points of a prune (deleting, vacuuming): the database
#   is intact and holds the bundles of before or of after, never between;
# - hostile --db (missing, a folder, not SQLite, someone else's SQLite, a
#   newer schema, read-only) and bad numbers: one line, exit 4 or 3, the
#   file untouched.
cd "$T" || exit 1
T0=1764450000			# 2025-11-29T21:00:00Z
DAY=86400
C=sys/class/infiniband/mlx5_0/ports/1/counters
mknode roce-pfc base >/dev/null 2>&1 || fail "roce-pfc fixture builds"
mkdir out

# node NAME: a copy of the fixture as its own node
node() {
	cp -a base "$1"
	echo "$1" >"$1/proc/sys/kernel/hostname"
	printf "%032x\n" "$(printf "%s" "$1" | cksum | cut -d" " -f1)" >"$1/etc/machine-id"
}
# snap NAME DAY: a bundle of NAME at T0 + DAY days, into out/
snap() {
	SOURCE_DATE_EPOCH=$((T0 + $2 * DAY)) "$RC" -q --root "$1" -o out \
		>/dev/null 2>&1 || fail "collect $1 day $2"
}
# days DB NODE: the days (since T0) of the node's bundles, oldest first
days() {
	sqlite3 "$1" "SELECT group_concat(d, ' ') FROM (SELECT CAST(round(
		julianday(b.collected_at) - julianday('2025-11-29T21:00:00Z'))
		AS INTEGER) AS d FROM bundles b JOIN nodes n ON n.id = b.node_id
		WHERE n.name = '$2' ORDER BY b.collected_at)"
}
# orphans DB: rows of any table with a bundle_id (from the schema) whose
# bundle is gone, evidence whose finding is gone, nodes with no bundle
orphans() {
	python3 - "$1" <<'EOF'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
n = 0
for (t,) in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
    cols = [r[1] for r in c.execute("SELECT * FROM pragma_table_info(?)", (t,))]
    if "bundle_id" in cols and t != "bundles":
        n += c.execute(f'SELECT count(*) FROM "{t}" WHERE bundle_id NOT IN '
                       '(SELECT id FROM bundles)').fetchone()[0]
n += c.execute("SELECT count(*) FROM finding_evidence WHERE finding_id NOT IN "
               "(SELECT id FROM findings)").fetchone()[0]
n += c.execute("SELECT count(*) FROM nodes WHERE id NOT IN "
               "(SELECT node_id FROM bundles)").fetchone()[0]
print(n)
EOF
}
# sound DB: "ok" when integrity_check and foreign_key_check both pass
sound() {
	r=$(sqlite3 "$1" "PRAGMA integrity_check; PRAGMA foreign_key_check" 2>&1)
	[ "$r" = ok ] && echo ok || echo "$r" | head -3
}
# unshared DB: the shared sets (schema/DATABASE.md, "Storage") no bundle
# refers to, and keys or rows of sets that are gone: 0 after a prune
unshared() {
	sqlite3 "$1" "SELECT (SELECT count(*) FROM row_sets WHERE id NOT IN
		(SELECT set_id FROM bundle_sets)) + (SELECT count(*) FROM
		counter_sets WHERE id NOT IN (SELECT set_id FROM counter_bundles)) +
		(SELECT count(*) FROM netdev_stat_sets WHERE id NOT IN (SELECT
		set_id FROM netdev_stat_bundles)) + (SELECT count(*) FROM
		counter_keys WHERE set_id NOT IN (SELECT id FROM counter_sets)) +
		(SELECT count(*) FROM ports_rows WHERE set_id NOT IN (SELECT id
		FROM row_sets)) + (SELECT count(*) FROM facts_rows WHERE set_id
		NOT IN (SELECT id FROM row_sets))"
}
# newest DB: the findings of the newest bundle of each node, sorted
newest() {
	sqlite3 "$1" "SELECT n.name, f.rule, f.component, f.severity, f.summary
		FROM findings f JOIN bundles b ON b.id = f.bundle_id JOIN nodes n
		ON n.id = b.node_id WHERE b.id = (SELECT id FROM bundles WHERE
		node_id = n.id ORDER BY collected_at DESC, id DESC LIMIT 1)
		ORDER BY 1, 2, 3, 5"
}

# --- the nodes ---
# a: days 0-5, symbol_error grows between day 4 and day 5 (COUNTER_GROWING
#    on day 5, comparing with day 4 and, for the previous interval, day 3)
node a
echo 0 >a/$C/symbol_error
for d in 0 1 2 3; do snap a $d; done
echo 100 >a/$C/symbol_error
snap a 4
echo 250 >a/$C/symbol_error
snap a 5
# b: days 0-5, nothing changes; c: one bundle; s: days 0-2 only (its timer
# stopped)
node b
# b's memory is its own on days 0-4 and changes on day 5: its meminfo row
# set of days 0-4 (the other nodes share another) is the removed bundles'
# only and must go with them
sed -i 's/^MemFree: .*/MemFree:        11111111 kB/' b/proc/meminfo
for d in 0 1 2 3 4; do snap b $d; done
sed -i 's/^MemFree: .*/MemFree:        22222222 kB/' b/proc/meminfo
snap b 5
node c
snap c 2
node s
for d in 0 1 2; do snap s $d; done
"$RA" load -q --db base.db out >/dev/null 2>&1
check_eq "16 bundles of 4 nodes" "$(sqlite3 base.db 'SELECT count(*), count(DISTINCT node_id) FROM bundles')" "16|4"
check_eq "a's day 5 has COUNTER_GROWING" "$(sqlite3 base.db "SELECT count(*) FROM findings f
	JOIN bundles b ON b.id = f.bundle_id JOIN nodes n ON n.id = b.node_id
	WHERE n.name = 'a' AND f.rule = 'COUNTER_GROWING' AND b.collected_at LIKE '2025-12-04%'")" 1
check_eq "b has no history finding" "$(sqlite3 base.db "SELECT count(*) FROM findings f
	JOIN bundles b ON b.id = f.bundle_id JOIN nodes n ON n.id = b.node_id
	WHERE n.name = 'b' AND f.layer = 'history'")" 0
sqlite3 base.db "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
newest base.db >newest.before

# --- --dry-run: the list, nothing changed ---
cp base.db d.db
sqlite3 d.db .dump | sha256sum >dump.before
"$RA" prune --db d.db --keep 1 --dry-run >dry.txt 2>dry.err
check_eq "--dry-run: exit 0" "$?" 0
check_eq "--dry-run lists the 10 that would go" "$(wc -l <dry.txt | tr -d ' ')" 10
check_eq "--dry-run: b's five older days, by name" \
	"$(grep -c '^b 2025-1[12]-.*out/b-2025.*\.rdma\.tar\.zst$' dry.txt)" 5
check "--dry-run: a's days 3 and 4 are not listed (day 5's previous ones)" \
	sh -c "! grep -q '^a 2025-12-0[23]' dry.txt"
check "--dry-run: says what it would do" grep -q "would remove 10 of 16 bundles (2 kept as a finding's previous" dry.err
check "--dry-run changed nothing" sh -c 'sqlite3 d.db .dump | sha256sum | cmp -s - dump.before'
cp base.db nl.db
sqlite3 nl.db "UPDATE nodes SET name = 'b' || char(10) || 'x' || char(9) || 'y' WHERE name = 'b'"
"$RA" prune --db nl.db --keep 1 --dry-run >nl.txt 2>/dev/null
check_eq "--dry-run: a node name with a newline and a tab is one line a bundle" \
	"$(wc -l <nl.txt | tr -d ' ') $(grep -c '^b?x?y 2025' nl.txt)" "10 5"
"$RA" prune --db d.db --keep 1 --dry-run -f json >dry.json 2>/dev/null
"$RA" prune --db d.db --keep 1 --dry-run --json >dry2.json 2>/dev/null
check "--json is -f json" cmp dry.json dry2.json
check "--dry-run -f json: the same bundles, the counts" python3 -c '
import json, sys
d = json.load(open("dry.json"))
assert d["dry_run"] is True and d["bundles"] == 16 and d["removed"] == 10, d
assert d["kept_as_previous"] == 2 and d["nodes_removed"] == 0, d
got = sorted("%s %s %s" % (b["node"], b["collected_at"], b["file"])
             for b in d["removed_bundles"])
assert got == sorted(open("dry.txt").read().splitlines()), got'

# --- --keep 1 ---
cp base.db k.db
"$RA" prune --db k.db --keep 1 >out.txt 2>err.txt
check_eq "--keep 1: exit 0" "$?" 0
check_eq "--keep 1: nothing on standard output" "$(cat out.txt)" ""
check "--keep 1: one summary line" sh -c '[ $(wc -l <err.txt) -eq 1 ] && grep -q "removed 10 of 16 bundles" err.txt'
check_eq "--keep 1: a keeps day 5 and the two its COUNTER_GROWING compares with" "$(days k.db a)" "3 4 5"
check_eq "--keep 1: b keeps its newest" "$(days k.db b)" "5"
check_eq "--keep 1: c keeps its only one" "$(days k.db c)" "2"
check_eq "--keep 1: s keeps its newest" "$(days k.db s)" "2"
check_eq "--keep 1: integrity and foreign keys" "$(sound k.db)" ok
check_eq "--keep 1: no row of a removed bundle left in any table" "$(orphans k.db)" 0
check_eq "--keep 1: no shared set left that no bundle refers to" "$(unshared k.db)" 0
check_eq "--keep 1: b's meminfo set of days 0-4 went with them, day 5's stays" \
	"$(sqlite3 base.db "SELECT count(*) FROM row_sets WHERE tbl = 'meminfo'") $(sqlite3 k.db "SELECT count(*) FROM row_sets WHERE tbl = 'meminfo'")" "3 2"
check "--keep 1: the removed bundles had rows in the evidence tables" sh -c \
	'[ $(sqlite3 base.db "SELECT count(*) FROM counters") -gt $(sqlite3 k.db "SELECT count(*) FROM counters") ] &&
	 [ $(sqlite3 base.db "SELECT count(*) FROM finding_evidence") -gt $(sqlite3 k.db "SELECT count(*) FROM finding_evidence") ]'
check "--keep 1: VACUUM made the file smaller" sh -c \
	'[ $(sqlite3 k.db "PRAGMA freelist_count") -eq 0 ] && [ $(stat -c %s k.db) -lt $(stat -c %s base.db) ]'
newest k.db >newest.after
check "--keep 1: the newest bundles' findings are unchanged" cmp newest.before newest.after
"$RA" report --db k.db -f json -o r.json 2>/dev/null
check "--keep 1: report --db runs (exit 0-2) on the 4 nodes" python3 -c '
import json; d = json.load(open("r.json")); assert len(d["nodes"]) == 4'
check "--keep 1: history still runs" sh -c '"$1" history --db k.db a >/dev/null' sh "$RA"
"$RA" prune --db k.db --keep 1 2>err2.txt
check "--keep 1 again: nothing more goes" grep -q "removed 0 of 6 bundles" err2.txt

# --- --keep-days ---
cp base.db kd.db
"$RA" prune -q --db kd.db --keep-days 2
# a's day 4 has COUNTER_GROWING too (0 to 100): it keeps days 3 and 2
check_eq "--keep-days 2: a keeps days 3-5, and day 2 for day 4's finding" "$(days kd.db a)" "2 3 4 5"
check_eq "--keep-days 2: b keeps days 3-5" "$(days kd.db b)" "3 4 5"
check_eq "--keep-days 2: s, whose timer stopped, keeps its own last days" "$(days kd.db s)" "0 1 2"
cp base.db kd1.db
"$RA" prune -q --db kd1.db --keep-days 1 --no-vacuum
check_eq "--keep-days 1: s keeps days 1-2" "$(days kd1.db s)" "1 2"
check_eq "--keep-days 1: a keeps 4-5 and 2-3, their findings' previous" "$(days kd1.db a)" "2 3 4 5"
check "--no-vacuum: the freed pages stay in the file" sh -c '[ $(sqlite3 kd1.db "PRAGMA freelist_count") -gt 0 ]'
check_eq "--keep-days 1: integrity, no orphan" "$(sound kd1.db) $(orphans kd1.db)" "ok 0"
cp base.db kb.db
"$RA" prune -q --db kb.db --keep 2 --keep-days 1
check_eq "--keep 2 --keep-days 1: either keeps (b: 4-5; s: 1-2)" "$(days kb.db b); $(days kb.db s)" "4 5; 1 2"

# --- what stays however old: the pairs run's bundles; nodes with none go ---
cp base.db p.db
old=$(sqlite3 p.db "SELECT b.id FROM bundles b JOIN nodes n ON n.id = b.node_id WHERE n.name = 'b' ORDER BY b.collected_at LIMIT 1")
sqlite3 p.db "INSERT INTO pair_hosts VALUES ('b', NULL, $old); INSERT INTO nodes (name, machine_id) VALUES ('gone', 'x')"
"$RA" prune --db p.db --keep 1 2>err.txt
check_eq "the pairs run's bundle of b stays" "$(days p.db b)" "0 5"
check "the summary counts it" sh -c 'grep -q "1 for the pairs run), 1 nodes left with none" err.txt || { cat err.txt; exit 1; }'
check_eq "a node with no bundle goes" "$(sqlite3 p.db "SELECT count(*) FROM nodes WHERE name = 'gone'")" 0

# --- load --keep: the same as load, then prune ---
"$RA" load -q --db lk.db --keep 1 out 2>/dev/null
check_eq "load --keep 1: the bundles prune --keep 1 keeps" \
	"$(sqlite3 lk.db 'SELECT group_concat(sha256) FROM (SELECT sha256 FROM bundles ORDER BY 1)')" \
	"$(sqlite3 k.db 'SELECT group_concat(sha256) FROM (SELECT sha256 FROM bundles ORDER BY 1)')"
check_eq "load --keep 1: integrity, no orphan" "$(sound lk.db) $(orphans lk.db)" "ok 0"
check_eq "load --keep 1: no shared set left that no bundle refers to" "$(unshared lk.db)" 0
"$RA" load --db lk2.db --keep-days 2 out >/dev/null 2>err.txt
check "load --keep-days: the load's line, then the prune's" sh -c \
	'[ $(wc -l <err.txt) -eq 2 ] && sed -n 2p err.txt | grep -q "removed 5 of 16 bundles" || { cat err.txt; exit 1; }'
check_eq "load --keep-days 2: s keeps its own last days" "$(days lk2.db s)" "0 1 2"

# --- kill -9 while it deletes and while it vacuums ---
# a bigger database: k, 30 days
node k
for d in $(seq 0 29); do snap k "$d"; done
"$RA" load -q --db big.db out >/dev/null 2>&1
sqlite3 big.db "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
before=$(sqlite3 big.db "SELECT count(*) FROM bundles")
# killrun KEEP: prune --keep KEEP killed at 21 points from 2% to 120% of
# the time a whole one takes; $bad the kills that left a database not
# intact, or between before and after, or that report or history refuse;
# $nb those that left the bundles of before, $nd those after the deletion
# committed but before VACUUM ended (free pages left), $nv after the VACUUM
killrun() {
	cp big.db full.db
	s0=$(date +%s%N)
	"$RA" prune -q --db full.db --keep "$1"
	full_ms=$((($(date +%s%N) - s0) / 1000000))
	after=$(sqlite3 full.db "SELECT count(*) FROM bundles")
	bad=0 nb=0 nd=0 nv=0
	for pct in 2 5 10 15 20 25 30 35 40 45 50 55 60 65 70 75 80 85 90 95 120; do
		cp big.db kill.db
		rm -f kill.db-wal kill.db-shm
		ms=$((full_ms * pct / 100 + 1))
		"$RA" prune -q --db kill.db --keep "$1" &
		pid=$!
		sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
		kill -9 "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		s=$(sound kill.db)
		n=$(sqlite3 kill.db "SELECT count(*) FROM bundles")
		free=$(sqlite3 kill.db "PRAGMA freelist_count")
		if [ "$s" != ok ] || [ "$(orphans kill.db)" != 0 ] ||
		    { [ "$n" != "$before" ] && [ "$n" != "$after" ]; } ||
		    ! "$RA" history --db kill.db k >/dev/null 2>&1 ||
		    ! { "$RA" report --db kill.db -o /dev/null 2>/dev/null; [ $? -le 2 ]; }; then
			bad=$((bad + 1))
			echo "#   --keep $1 killed after $ms ms: $s, $n bundles"
		fi
		if [ "$n" = "$before" ]; then nb=$((nb + 1))
		elif [ "$free" -gt 0 ]; then nd=$((nd + 1))
		else nv=$((nv + 1)); fi
	done
}
# --keep 1: mostly deleting (29 of k's 30 bundles go, 1 is rewritten)
killrun 1
check_eq "kill -9 at 21 points of a $full_ms ms prune --keep 1: intact, before or after, report and history run" "$bad" 0
# where the kills landed depends on the machine's load: said, not checked
echo "# kill -9, --keep 1: before the commit $nb times, after it $nd (not vacuumed) and $nv (vacuumed)"
# --keep 20: mostly vacuuming (10 go, the VACUUM rewrites the other 20)
killrun 20
check_eq "kill -9 at 21 points of a $full_ms ms prune --keep 20: intact, before or after, report and history run" "$bad" 0
echo "# kill -9, --keep 20: before the commit $nb times, after it $nd (not vacuumed) and $nv (vacuumed)"

# --- hostile --db and numbers ---
# refused WHAT WANT FILE ARGS...: exit WANT, one line, FILE unchanged
refused() {
	what=$1 want=$2 f=$3
	shift 3
	sum0=$(cat "$f" 2>/dev/null | sha256sum)
	"$RA" "$@" >o 2>e
	rc=$?
	if [ "$rc" = "$want" ] && [ "$(wc -l <e)" = 1 ] && [ ! -s o ] &&
	    [ "$(cat "$f" 2>/dev/null | sha256sum)" = "$sum0" ]; then
		ok "$what: exit $want, one line, untouched"
	else
		fail "$what: exit $want, one line, untouched (exit $rc)"
		sed 's/^/#   /' e | head -3
	fi
}
refused "a --db that does not exist" 4 none.db prune --db none.db --keep 1
check "the missing --db was not made" test ! -e none.db
mkdir folder.db
refused "a --db that is a folder" 4 folder.db prune --db folder.db --keep 1
cp /etc/passwd text.db
refused "a --db that is not SQLite" 4 text.db prune --db text.db --keep 1
sqlite3 foreign.db "CREATE TABLE t (a); INSERT INTO t VALUES (1)"
refused "someone else's SQLite file" 4 foreign.db prune --db foreign.db --keep 1
check_eq "someone else's SQLite file: still its one table" "$(sqlite3 foreign.db .tables)" t
: >empty.db
refused "an empty file" 4 empty.db prune --db empty.db --keep 1
cp base.db newer.db
sqlite3 newer.db "PRAGMA user_version = 999"
refused "a newer schema" 4 newer.db prune --db newer.db --keep 1
check "a newer schema: says so" grep -q "newer than this rdma-analyze knows" e
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	d=$(mktemp -d /tmp/rdma-prune.XXXXXX)
	cp base.db "$d/ro.db"
	chmod 755 "$d"
	chmod 444 "$d/ro.db"
	sum0=$(sha256sum <"$d/ro.db")
	setpriv --reuid=65534 --regid=65534 --clear-groups "$RA" prune --db "$d/ro.db" --keep 1 >o 2>e
	rc=$?
	check_eq "a read-only --db: exit 4" "$rc" 4
	check "a read-only --db: one line saying so" sh -c '[ $(wc -l <e) -eq 1 ] && grep -q "is read-only" e'
	check_eq "a read-only --db: untouched" "$(sha256sum <"$d/ro.db")" "$sum0"
	rm -rf "$d"
else
	skip "a read-only --db" "needs root (to drop to nobody) and setpriv"
fi
# a full disk: the deletion's pages go to the write-ahead log first, which
# cannot grow; the transaction is rolled back whole
if [ "$(id -u)" -eq 0 ] && mkdir full && mount -t tmpfs -o size=$(($(stat -c %s base.db) / 1024 + 64))k tmpfs full 2>/dev/null; then
	cp base.db full/f.db
	"$RA" prune --db full/f.db --keep 1 >o 2>e
	rc=$?
	check_eq "a full disk: exit 4" "$rc" 4
	check "a full disk: one line saying so" sh -c '[ $(wc -l <e) -eq 1 ] && grep -q "disk is full" e'
	check_eq "a full disk: intact, every bundle still there" "$(sound full/f.db) $(sqlite3 full/f.db 'SELECT count(*) FROM bundles')" "ok 16"
	umount full
else
	skip "a full disk" "needs root and a tmpfs mount"
fi
for bad in 0 -1 x 1x 1e3 "" 1000001 99999999999999999999; do
	refused "--keep '$bad'" 3 base.db prune --db base.db --keep "$bad"
done
refused "--keep-days 0" 3 base.db prune --db base.db --keep-days 0
refused "neither --keep nor --keep-days" 3 base.db prune --db base.db
refused "no --db" 3 base.db prune --keep 1
refused "an argument" 3 base.db prune --db base.db --keep 1 extra
refused "load --keep 0" 3 base.db load --db nope.db --keep 0 out
check "load --keep 0 made no database" test ! -e nope.db
