# named-paths: a path the user names is read bounded.  --thresholds, pairs
# --results and a bundle given by name, each pointed at /dev/zero, a FIFO
# nobody writes, a file over the size cap: one line naming the path and
# why, the documented exit status, and no hang (each run is given 10 s).
# An import refused for its size fails the run (exit 4).
# --thresholds refuses nan, inf and negative values.
cd "$T" || exit 1
S=$(ls "$TOP"/samples/rxe-vm1-*.rdma.tar.zst | head -1)
mkfifo fifo fifo.rdma.tar.zst
"$RA" load --db p.db "$S" >/dev/null 2>&1 || fail "named-paths: loading a sample"

# run NAME WANT-RC WANT-TEXT cmd...: bounded to 10 s; one stderr line
i=0
run() {
	n=$1 want=$2 text=$3 i=$((i + 1))
	shift 3
	timeout 10 "$@" >"run$i.out" 2>"run$i.err"
	got=$?
	check_eq "$n: exit $want (124 is a hang)" "$got" "$want"
	check "$n: one line: $text" \
		sh -c "[ \$(grep -c '^rdma-analyze: ' run$i.err) -eq 1 ] && grep -q -- \"\$0\" run$i.err" "$text"
}

run "--thresholds /dev/zero" 4 "'/dev/zero': not a regular file" \
	"$RA" --thresholds /dev/zero "$S"
run "--thresholds a FIFO" 4 "'fifo': not a regular file" \
	"$RA" --thresholds fifo "$S"
head -c 70000 /dev/zero | tr '\0' '#' >big.txt
run "--thresholds over 64 KiB" 4 "larger than 64 KiB" \
	"$RA" --thresholds big.txt "$S"
for v in nan inf -inf -1; do
	printf 'pause_ratio %s\n' "$v" >"th$v.txt"
	run "--thresholds pause_ratio $v" 4 "must be a finite number, 0 or more" \
		"$RA" --thresholds "th$v.txt" "$S"
done
printf 'pause_ratio 0.2\n' >th-good.txt
timeout 10 "$RA" --thresholds th-good.txt "$S" >/dev/null 2>&1
check "--thresholds with a good value still loads (exit 0 or 1)" test $? -le 1

run "pairs --results /dev/zero" 4 "'/dev/zero': not a regular file" \
	"$RA" pairs --db p.db --results /dev/zero
run "pairs --results a FIFO" 4 "'fifo': not a regular file" \
	"$RA" pairs --db p.db --results fifo
run "a FIFO named as a bundle" 4 "fifo.rdma.tar.zst: not a regular file" \
	"$RA" fifo.rdma.tar.zst
run "a FIFO named as an import" 4 "fifo: not a regular file" \
	"$RA" fifo

# an import refused for its size is a failed input: exit 4, also beside a
# good bundle (before: the folder was rescanned as one of bundles, found
# none, and the run said OK)
mkdir big
truncate -s 10G big/dmesg.txt
run "a folder with a 10 GB sparse dmesg.txt" 4 "big: entry 'dmesg.txt' has" \
	"$RA" big
timeout 10 "$RA" big "$S" >big2.out 2>big2.err
check_eq "... beside a good bundle: exit 4 still" "$?" 4
check "... the good bundle is still reported" grep -q "rxe-vm1" big2.out
run "the 10 GB file itself" 4 "larger than" "$RA" big/dmesg.txt

# standard input over the 64 MiB cap: refused in one line, exit 4 (before:
# the report ran without its thresholds table and died, exit 127)
head -c 70000000 /dev/zero | timeout 30 "$RA" - >stdin.out 2>stdin.err
check_eq "standard input over 64 MiB: exit 4" "$?" 4
check "standard input over 64 MiB: one line says so" \
	sh -c "[ \$(grep -c '^rdma-analyze: ' stdin.err) -eq 1 ] && grep -q 'standard input: larger than 64 MiB' stdin.err"
