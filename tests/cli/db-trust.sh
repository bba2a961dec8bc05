# db-trust: a database file is someone else's.  One whose schema is not
# exactly the one rdma-analyze makes (a trigger on findings, a recursive
# trigger that never ends, a view or table of its own, a table redefined
# without its NOT NULL) is refused by every command that opens it, with one
# line and exit 4, in bounded time; nothing in it runs.  Concurrent loads
# into one database, new or not, all land, each bundle once.
cd "$T" || exit 1
FLEET=$(ls "$TOP"/samples/fleet/*.rdma.tar.zst)
"$RA" load --db base.db $FLEET >/dev/null 2>&1 || true
check "a database of the sample fleet" test -s base.db
sqlite3 base.db "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null

# craft NAME SQL: a copy of base.db with SQL run on it
craft() {
	cp base.db "$1.db"
	sqlite3 "$1.db" "$2" >/dev/null 2>&1
}
craft trigger "CREATE TABLE log(x); CREATE TRIGGER t AFTER INSERT ON findings BEGIN INSERT INTO log VALUES (1); END;"
craft recursive "CREATE TRIGGER r AFTER INSERT ON findings BEGIN SELECT count(*) FROM (WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c) SELECT i FROM c); END;"
craft view "CREATE VIEW mine AS SELECT * FROM nodes"
craft extra "CREATE TABLE extra(x)"
craft notnull "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = replace(sql, 'NOT NULL', '') WHERE name = 'nodes'"
check "the redefined table is really redefined" \
	sh -c "! sqlite3 notnull.db 'SELECT sql FROM sqlite_master WHERE name = \"nodes\"' | grep -q 'NOT NULL'"

node=$(sqlite3 base.db "SELECT name FROM nodes LIMIT 1")
for db in trigger recursive view extra notnull; do
	for cmd in "report" "report -f html" "history $node" "pairs" "path $node $node" "load $TOP/samples/fleet/$(ls "$TOP"/samples/fleet | head -1)"; do
		set -- $cmd
		c=$1
		shift
		timeout 20 "$RA" "$c" --db "$db.db" "$@" >out 2>err
		rc=$?
		check_eq "$db.db, $cmd: exit 4 (124: it hung)" "$rc" 4
		check "$db.db, $cmd: one line saying it is refused" \
			sh -c "[ \$(grep -c . err) -eq 1 ] && grep -q \"database '$db.db' is not as rdma-analyze makes it\" err"
	done
done
check_eq "the trigger never fired" "$(sqlite3 trigger.db 'SELECT count(*) FROM log')" 0
timeout 20 "$RA" merge --db merged.db trigger.db >out 2>err
check_eq "merge of a crafted database: exit 4" "$?" 4
check "merge: the source is named refused" grep -q "database 'trigger.db' is not as rdma-analyze makes it" err

# --- someone else's file is refused before anything is written to it:
# no table of ours created in it, its journal mode left, the bytes as
# they were; a file that is not SQLite: one line ---
sqlite3 other.db "CREATE TABLE t (a); INSERT INTO t VALUES (1)"
sqlite3 other5.db "CREATE TABLE nodes (x); PRAGMA user_version = 5"
cp "$TOP/README.md" text.db
for db in other other5 text; do
	sum=$(cksum <"$db.db")
	for cmd in "report" "load $TOP/samples/fleet/$(ls "$TOP"/samples/fleet | head -1)" "prune --keep 1"; do
		set -- $cmd
		c=$1
		shift
		timeout 20 "$RA" "$c" --db "$db.db" "$@" >out 2>err
		check_eq "$db.db, $cmd: exit 4" "$?" 4
		check "$db.db, $cmd: one line" sh -c "[ \$(grep -c . err) -eq 1 ]"
		check_eq "$db.db, $cmd: the file as it was" "$(cksum <"$db.db")" "$sum"
		check "$db.db, $cmd: no -wal or -shm left beside it" \
			sh -c "[ ! -s '$db.db-wal' ] && [ ! -e '$db.db-shm' ] || [ ! -s '$db.db-wal' ]"
	done
done
check "other.db: refused as not made by rdma-analyze" \
	sh -c "'$RA' report --db other.db 2>&1 | grep -q \"database 'other.db' is not as rdma-analyze makes it at its version 0 (table 't')\""
check "other5.db: its version 5 is not ours either" \
	sh -c "'$RA' report --db other5.db 2>&1 | grep -q \"is not as rdma-analyze makes it at its version 5\""
check_eq "other.db: still its one table, journal mode delete" \
	"$(sqlite3 other.db .tables 'PRAGMA journal_mode')" "t
delete"
check "text.db: not an SQLite database" \
	sh -c "'$RA' report --db text.db 2>&1 | grep -qx \"rdma-analyze: 'text.db' is not an SQLite database\""

# --- concurrent writers ---
set -- $FLEET
a="$1 $2 $3 $4" b="$5 $6 $7 $8" c="$9 ${10} ${11} ${12}"
for i in 1 2 3; do
	eval "set -- \$$(echo a b c | cut -d' ' -f$i)"
	"$RA" load --db new.db "$@" >"new$i.out" 2>"new$i.err" &
done
wait
check_eq "3 loads at once into a new database: none says it is locked or exists" \
	"$(cat new1.err new2.err new3.err | grep -ci 'locked\|already exists')" 0
check_eq "... all 12 bundles landed" "$(sqlite3 new.db 'SELECT count(*) FROM bundles')" 12
for i in 1 2 3; do
	"$RA" load --db new.db $a $b >"same$i.out" 2>"same$i.err" &
done
wait
check_eq "3 loads of the same 8 bundles at once: each once" \
	"$(sqlite3 new.db 'SELECT count(*), count(DISTINCT sha256) FROM bundles')" "12|12"
check_eq "... none failed" "$(cat same1.err same2.err same3.err | grep -c ' [1-9][0-9]* failed')" 0
