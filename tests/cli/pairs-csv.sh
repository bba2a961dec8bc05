# pairs-csv: the pair results CSV read by its header (schema/PAIRS.md,
# issue 21): columns by name in any order and by their other names, RFC
# 4180 quoting, unknown columns ignored with one note, a header without
# src, dst or result refused (exit 4, one line), the HCA columns placing
# each end on one HCA of a host with several, the results left on a host
# counted, and the headerless five columns read as they always were.
# Hosts of eight HCAs without a topology (gpu-ndr8 fixtures), then a fabric
# of two rails on ibsim (tests/pairs-eval/topo.py), where the HCA columns
# turn a host answer into the cable of one HCA.
cd "$T" || exit 1

# --- four hosts of eight HCAs (mlx5_0 .. mlx5_7), no fabric scan ---
mknode gpu-ndr8 g1 >/dev/null 2>&1 || fail "pairs-csv: building the fixture node"
for n in 1 2 3 4; do
	[ -d g$n ] || cp -a g1 g$n
	printf 'gpu%02d\n' $n >g$n/proc/sys/kernel/hostname
	printf '%032d\n' $n >g$n/etc/machine-id
	"$RC" -q --root g$n -o g$n.rdma.tar.zst >/dev/null 2>&1
done
"$RA" load --db g.db g1.rdma.tar.zst g2.rdma.tar.zst g3.rdma.tar.zst \
	g4.rdma.tar.zst >/dev/null 2>&1
check_eq "four hosts of eight HCA ports loaded" \
	"$(sqlite3 g.db 'SELECT count(*) FROM ports')" 32

# every rail-aligned pair (HCA r to HCA r); gpu03's mlx5_5 fails its pairs
# each: "a b r result"
for a in 1 2 3 4; do
	for b in 1 2 3 4; do
		[ $a = $b ] && continue
		for r in 0 1 2 3 4 5 6 7; do
			s=ok
			{ [ $a = 3 ] || [ $b = 3 ]; } && [ $r = 5 ] && s=fail
			echo "gpu0$a gpu0$b $r $s"
		done
	done
done >pairs.txt
# run NAME: pairs on NAME.csv, JSON in NAME.json, stderr in NAME.err
run() {
	"$RA" pairs --db g.db --results "$1.csv" --json >"$1.json" 2>"$1.err"
	echo "rc=$?"
}
# top NAME: "rule|component" of each suspect
top() {
	python3 -c '
import json, sys
for s in json.load(open(sys.argv[1]))["suspects"]:
    print("%s|%s" % (s["rule"], s["component"]))' "$1.json"
}
# inp NAME: csv rows, used, host_only, bad_lines
inp() {
	python3 -c '
import json, sys
i = json.load(open(sys.argv[1]))["inputs"]
print(i["csv"]["rows"], i["csv"]["used"], i["csv"]["host_only"], i["bad_lines"])' "$1.json"
}

# --- a header in another order, other names, quoted fields, an extra
# column: the HCA port is the answer ---
{
	printf 'Status,Server HCA,server,client,client-hca,BW,note\n'
	awk '{ printf "%s,mlx5_%s,%s,%s,\"mlx5_%s\",390.1,\"retry, \"\"12\"\"\"\n",
		toupper($4), $3, $2, $1, $3 }' pairs.txt
} >named.csv
check_eq "header by names in another order: the HCA port, exit 2" \
	"$(run named; top named)" "rc=2
PAIR_SUSPECT_NODE|gpu03 mlx5_5 port 1"
check_eq "... every row used, none on a host alone" "$(inp named)" "96 96 0 0"
check_eq "... one note names the column ignored" \
	"$(grep -c 'ignored columns' named.err):$(grep 'ignored columns' named.err | sed 's/.*: //')" \
	"1:note"

# --- the same results by host name only: on the hosts, counted, said ---
awk '{ print $1 "," $2 "," $4 ",," }' pairs.txt >plain.csv
check_eq "host names only (headerless): no HCA port named, exit 1" \
	"$(run plain; top plain)" "rc=1
PAIR_AMBIGUOUS|gpu03"
check_eq "... every result counted as placed on a host" "$(inp plain)" "96 96 96 0"
"$RA" pairs --db g.db --results plain.csv >plain.txt 2>&1
check "... and said in the text" grep -q \
	'^# 96 results placed on a host, not an HCA' plain.txt

# one failing result: the split test suggested is between two hosts,
# never a host and its own HCA
printf 'gpu01,gpu02 mlx5_0,fail,,\n' >one.csv
"$RA" pairs --db g.db --results one.csv >one.txt 2>&1
check_eq "one failing result: the split test joins two hosts" \
	"$(sed -n 's/.*; test \(.*\) next: .*/\1/p' one.txt | head -n 1)" \
	"gpu01 <-> gpu02 mlx5_1 port 1"
check_eq "... no such line when every result has its HCA" \
	"$("$RA" pairs --db g.db --results named.csv 2>&1 | grep -c 'placed on a host')" 0

# --- one HCA column for both ends, a port column, comments, CRLF and a
# byte order mark before the header ---
{
	printf '\357\273\277# rail test\r\n\r\n'
	printf 'From,To,Outcome,Device,Port,error\r\n'
	awk '{ printf "%s,%s,%s,mlx5_%s,1,\r\n", $1, $2, $4, $3 }' pairs.txt
} >onehca.csv
check_eq "one hca column, a port column, CRLF and a BOM: the HCA port" \
	"$(run onehca; top onehca; inp onehca)" "rc=2
PAIR_SUSPECT_NODE|gpu03 mlx5_5 port 1
96 96 0 0"

# --- an HCA that is not the host's: on the host, counted, one note ---
printf 'src,dst,result,src_hca,dst_hca\ngpu01,gpu03,fail,mlx5_9,mlx5_5\ngpu01,gpu02,ok,mlx5_9,mlx5_0\ngpu02,gpu04,ok,mlx5_1,mlx5_1\n' >nohca.csv
run nohca >/dev/null
check_eq "an HCA the host does not have: its results on the host" "$(inp nohca)" "3 3 2 0"
check_eq "... one note says so" "$(grep -c 'mlx5_9 is not an HCA of gpu01' nohca.err)" 1

# --- quoting: commas and doubled quotes inside fields, every column ---
printf 'result,dst,src,error\n"fail","gpu03","gpu01","Failed status, transport retry counter exceeded (12)"\n' >q.csv
printf '"ok" , "gpu02" ,gpu01,"say ""hi"", twice"\nok,"gpu,04",gpu01,\n' >>q.csv
run q >/dev/null
check_eq "quoted fields: three results, every column read" \
	"$(inp q):$(sqlite3 g.db "SELECT ok, fail FROM pair_cells WHERE a = 'gpu01' AND b = 'gpu03'")" \
	"3 3 3 0:0|1"
check_eq "... a comma inside quotes is part of the name" \
	"$(sqlite3 g.db "SELECT count(*) FROM pair_hosts WHERE name = 'gpu,04'")" 1
printf 'src,dst,result\ngpu01,gpu02,fail\nnot a result\ngpu01,gpu02,maybe\n' >bad.csv
run bad >/dev/null
check_eq "lines that are not results are counted, as before" "$(inp bad)" "1 1 1 2"

# --- a header without src, dst or result: refused, exit 4, one line ---
printf 'src,peer_host,bw\ngpu01,gpu02,1\n' >miss.csv
"$RA" pairs --db g.db --results miss.csv >miss.out 2>miss.err
check_eq "a header without dst and result: exit 4" "$?" 4
check_eq "... one line naming the columns expected and found" \
	"$(grep -c . miss.err):$(grep -c 'has no dst or result column: want src, dst and result.*found: src, peer_host, bw$' miss.err)" "1:1"
check_eq "... nothing on stdout" "$(cat miss.out)" ""
printf 'src,source,dst,result\n' >dup.csv
"$RA" pairs --db g.db --results dup.csv >/dev/null 2>dup.err
check_eq "two columns of one meaning: exit 4, one line" \
	"$?:$(grep -c 'two columns are src' dup.err)" "4:1"

# --- the forms read before: headerless, the error last with commas, and
# a header with result third read by position ---
awk '{ print $1 "," $2 "," $4 ",1.5,error, with commas, in it" }' pairs.txt >pos.csv
{ echo "source,target,result,gbps,error"; cat pos.csv; } >oldhdr.csv
check_eq "headerless, the error with commas: as before" \
	"$(run pos; top pos; inp pos)" "rc=1
PAIR_AMBIGUOUS|gpu03
96 96 96 0"
check_eq "an old header (result third, no dst named): by position" \
	"$(run oldhdr; inp oldhdr)" "rc=1
96 96 96 0"
printf 'src,dst,error,result,\ngpu01,gpu02,,ok,\ngpu01,gpu03,x,fail,\n' >err3.csv
check_eq "a header with error third (a result word) and a trailing comma" \
	"$(run err3; inp err3; grep -c 'ignored columns' err3.err)" "rc=1
2 2 2 0
0"
printf 'gpu01,gpu03,error,,\n' >one.csv
check_eq "... and a result whose result is error is one" "$(run one; inp one)" "rc=1
1 1 1 0"
printf 'gpu01,gpu02,ok,,\n' >one.csv
check_eq "a first line that is a result is one" "$(run one; inp one)" "rc=0
1 1 1 0"

# --- two rails on ibsim: the HCA columns make the answer one cable ---
. "$TOP/tests/ibsim/fabric.sh"
if ! fab_have; then
	skip "pairs-csv on a two-rail fabric" "missing: $FAB_MISSING"
	exit 0
fi
printf 'interceptor_via_lib:libumad2sim.so\n' >"$T/asan.supp"
printf 'leak:libibnetdisc.so\nleak:libumad2sim.so\n' >"$T/lsan.supp"
export ASAN_OPTIONS="verify_asan_link_order=0:detect_leaks=1:suppressions=$T/asan.supp"
export LSAN_OPTIONS="suppressions=$T/lsan.supp"
: "${RANDOM:=0}"
B=$(sh "$TOP/tests/pairs-eval/capture.sh" "$RC" 16x2 minhop "$T/cache" 2>cap.err)
if [ ! -s "$B" ]; then
	fail "pairs-csv: the two-rail fabric is captured"
	sed 's/^/#   /' cap.err | head -5
	exit 0
fi
"$RA" load --db f.db "$B" >/dev/null 2>&1
# every rail-aligned pair; node003's HCA on rail 2 (mlx5_1) has a bad
# cable: every pair it is in fails, its rail-1 pairs pass.  The issue's
# layout: the five columns, then the HCAs
{
	echo "src,dst,result,gbps,error,src_hca,dst_hca"
	for r in 0 1; do
		for a in $(seq 1 16); do
			for b in $(seq 1 16); do
				[ "$a" -lt "$b" ] || continue
				s=ok g=391.2 e=
				if [ $r = 1 ] && { [ $a = 3 ] || [ $b = 3 ]; }; then
					s=fail g= e='"transport retry counter exceeded (12), wr_id 0"'
				fi
				printf 'node%03d,node%03d,%s,%s,%s,mlx5_%s,mlx5_%s\n' \
					$a $b $s "$g" "$e" $r $r
			done
		done
	done
} >rails.csv
"$RA" pairs --db f.db --results rails.csv --json >rails.json 2>rails.err
rc=$?
check_eq "two rails, HCA columns: the cable of node003 mlx5_1, exit 2" "$rc:$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["suspects"]
print(len(s), s[0]["rule"], s[0]["kind"], s[0]["host"], s[0]["component"].split(" <-> ")[0],
      d["inputs"]["csv"]["used"], d["inputs"]["csv"]["host_only"])' rails.json)" \
	"2:1 PAIR_SUSPECT_LINK cable node003 node003 mlx5_1 port 1 240 0"
cut -d, -f1-5 rails.csv >rails5.csv
"$RA" pairs --db f.db --results rails5.csv --json >rails5.json 2>&1
check_eq "... without them: every result on its hosts, counted, no cable named" \
	"$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["inputs"]["csv"]["host_only"], any(s["kind"] == "cable" for s in d["suspects"]))' rails5.json)" \
	"240 False"
