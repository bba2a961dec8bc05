# The database: loading is idempotent, and the example queries of
# schema/DATABASE.md run as written in the sqlite3 shell.
db="$T/fleet.db"
"$RA" load --db "$db" "$TOP/samples" >/dev/null 2>"$T/err"
check_eq "load --db exits 0" "$?" 0
check "load prints a summary" grep -q 'loaded, .* already in' "$T/err"
counts() {
	for t in bundles nodes devices ports gids counters netdevs netdev_stats findings; do
		printf '%s=%s ' "$t" "$(sqlite3 "$db" "SELECT count(*) FROM $t")"
	done
}
before=$(counts)
"$RA" load --db "$db" "$TOP/samples" >/dev/null 2>"$T/err2"
check_eq "loading the same bundles twice changes nothing" "$(counts)" "$before"
check "the second load says they were already there" grep -q '0 loaded' "$T/err2"
check_eq "schema version is the number of migrations" "$(sqlite3 "$db" 'PRAGMA user_version')" "$(ls "$TOP"/schema/[0-9]*.sql | wc -l)"
# every query of DATABASE.md: the indented blocks after a numbered item
awk '/^ *[0-9]+\. / { if (q != "") print q; q = ""; inq = 0; next }
     /^       +[^ ]/ { sub(/^ +/, ""); q = q " " $0; next }
     END { if (q != "") print q }' "$TOP/schema/DATABASE.md" >"$T/queries"
n=0
while IFS= read -r q; do
	n=$((n + 1))
	if sqlite3 "$db" "$q" >"$T/q.out" 2>&1; then
		ok "DATABASE.md query $n runs"
	else
		fail "DATABASE.md query $n runs"
		sed 's/^/#   /' "$T/q.out" | head -3
	fi
done <"$T/queries"
check "at least ten example queries" test "$n" -ge 10
check "query 4 lists the fixture firmware" sh -c "sqlite3 '$db' \"SELECT fw_ver FROM devices\" | grep -q ."

# counters at or above 2^63 are held at INT64_MAX, never negative, in
# sysfs counters and netdev statistics alike (no reading gets there: it
# is saturated or garbage, and the rules must see it as large)
mknode rxe "$T/big" >/dev/null 2>&1
c=$(ls -d "$T"/big/sys/class/infiniband/*/ports/1/hw_counters 2>/dev/null | head -1)
s=$(ls -d "$T"/big/sys/class/net/*/statistics 2>/dev/null | head -1)
if [ -n "$c" ] && [ -n "$s" ]; then
	echo 18446744073709551000 >"$c/rcvd_pkts"
	echo 18446744073709551001 >"$s/rx_bytes"
	"$RC" -q --root "$T/big" -o "$T/big.rdma.tar.zst" >/dev/null
	"$RA" load --db "$T/big.db" "$T/big.rdma.tar.zst" >/dev/null 2>&1
	check_eq "a sysfs counter above 2^63 is stored as INT64_MAX" \
		"$(sqlite3 "$T/big.db" "SELECT value FROM counters WHERE name = 'rcvd_pkts'")" 9223372036854775807
	check_eq "a netdev statistic above 2^63 likewise" \
		"$(sqlite3 "$T/big.db" "SELECT value FROM netdev_stats WHERE source = 'sysfs' AND name = 'rx_bytes'")" 9223372036854775807
else
	fail "the rxe fixture has hw_counters and netdev statistics"
fi
