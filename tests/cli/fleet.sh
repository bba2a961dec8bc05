# fleet: the fleet checks on small fleets of roce-pfc fixture nodes, each
# node with its own identity (hostname, machine-id, GUIDs, MACs, IPs):
# a uniform fleet has no fleet finding; a fleet of three uniform nodes and
# six odd ones has each odd node named by its check, with its value and the
# majority's; --baseline as a bundle and as a file; rdma-analyze diff.
cd "$T" || exit 1
export SOURCE_DATE_EPOCH=1764450245
INJ=$FIXTURES/inject.sh
FLEET_RULES="FW_VERSION_OUTLIER DRIVER_OUTLIER CONFIG_OUTLIER HCA_COUNT_OUTLIER DUPLICATE_GUID DUPLICATE_ADDRESS COUNTER_OUTLIER HCA_MISSING"

mknode roce-pfc base >/dev/null 2>&1 || fail "roce-pfc fixture builds"

# node NAME INDEX [same-guids]: a copy of the fixture with its own identity
# (the GUID, MAC, link-local and RoCE address bytes 4a/15 become INDEX's)
node() {
	local n=$1 i=$2 R=$T/$1 g x
	cp -a base "$R"
	echo "$n" >"$R/proc/sys/kernel/hostname"
	echo "$n" >"$R/etc/hostname"
	printf '%s' "$n" | sha256sum | cut -c1-32 >"$R/etc/machine-id"
	g=$(printf '%02x' $((0x49 + i)))
	x=$(printf '%02x' $((0x14 + i)))
	[ "${3:-}" = same-guids ] ||
		grep -rlI 'd203:004a:\|d2:4a:6c\|fe4a:6c2' "$R/sys" "$R/rdma-collect" |
			xargs -r sed -i "s/d203:004a:/d203:00$g:/g; s/d2:4a:6c/d2:$g:6c/g; s/fe4a:6c2/fe$g:6c2/g"
	sed -i "s/\(192\.168\.1[01]\)\.21\"/\1.$((20 + i))\"/; s/10\.20\.1\.12\"/10.20.1.$((10 + i))\"/" \
		"$R/rdma-collect/net/addresses.json"
	sed -i "s/c0a8:0a15/c0a8:0a$x/; s/c0a8:0b15/c0a8:0b$x/" \
		"$R"/sys/class/infiniband/*/ports/1/gids/2 \
		"$R"/sys/class/infiniband/*/ports/1/gids/3 \
		"$R"/rdma-collect/verbs/mlx5_*.json
}

# collect NAME DIR: the node's bundle into DIR
collect() {
	mkdir -p "$2"
	(cd "$T" && "$RC" -q --root "$1" -o "$2" >/dev/null 2>"$T/$1.err") ||
		fail "collect $1"
}

# fleet findings of a report: "node RULE component | summary" lines
findings() {
	"$RA" report --format json "$@" 2>"$T/report.err" | python3 -c '
import json, sys
rules = set(sys.argv[1].split())
d = json.load(sys.stdin)
for n in d["nodes"]:
    for f in n["findings"]:
        if f["rule"] in rules and (f["layer"] == "fleet" or f["component"] == "fleet"):
            print(n["node"], f["rule"], f["component"], "|", f["summary"])
' "$FLEET_RULES" | sort
}

for i in 1 2 3; do
	node "n0$i" "$i"
	collect "n0$i" uniform
	cp uniform/n0$i-*.rdma.tar.zst "$T/"
done
node n04 4
collect n04 uniform

findings uniform/*.rdma.tar.zst >uniform.out
check_eq "a uniform fleet of four has no fleet finding" "$(cat uniform.out)" ""

# the odd nodes, one difference each
mkdir -p odd
cp uniform/n0[123]-*.rdma.tar.zst odd/
node odd-fw 5
sed -i 's/^22\.39\.2048$/22.38.1002/' "$(readlink -f odd-fw/sys/class/infiniband/mlx5_1)/fw_ver"
sed -i 's/"22\.39\.2048"/"22.38.1002"/' odd-fw/rdma-collect/verbs/mlx5_1.json
node odd-drv 6
"$INJ" module-missing odd-drv rdma_ucm >/dev/null
node odd-cfg 7
"$INJ" pfc-disabled odd-cfg ens1f0np0 >/dev/null
node odd-port 8
"$INJ" port-down odd-port mlx5_1 >/dev/null
node odd-cnt 9
"$INJ" rx-buffer-drops odd-cnt ens1f1np1 >/dev/null
node odd-dup 10 same-guids
# a card gone from the bus: its function, RDMA device and netdev
node odd-hca 11
f=$(readlink -f odd-hca/sys/class/infiniband/mlx5_1/device)
rm -rf "$f" odd-hca/sys/bus/pci/devices/"${f##*/}" odd-hca/sys/class/infiniband/mlx5_1 \
	odd-hca/sys/class/net/ens1f1np1 odd-hca/rdma-collect/verbs/mlx5_1.json
for n in odd-fw odd-drv odd-cfg odd-port odd-cnt odd-dup odd-hca; do
	collect "$n" odd
done
findings odd/*.rdma.tar.zst >odd.out
has() {	# has "what" NODE RULE COMPONENT SUMMARY-REGEX
	if awk -v n="$2" -v r="$3" -v c="$4" '$1 == n && $2 == r && $3 == c' odd.out |
		grep -qE -- "$5"; then
		ok "$1"
	else
		fail "$1"
		sed 's/^/#   /' odd.out | head -30
	fi
}
has "FW_VERSION_OUTLIER names the node, its firmware and the majority's" \
	odd-fw FW_VERSION_OUTLIER mlx5_1 \
	'odd-fw: fw 22\.38\.1002 on mlx5_1 \(8 other nodes: 22\.39\.2048\)'
has "DRIVER_OUTLIER: a stack module the others load" \
	odd-drv DRIVER_OUTLIER node 'module.rdma_ucm absent \(9 other nodes: loaded\)'
has "CONFIG_OUTLIER: PFC off where the others have priority 3" \
	odd-cfg CONFIG_OUTLIER mlx5_0:1 'pfc none on mlx5_0:1 \(9 other nodes: 3\)'
has "HCA_COUNT_OUTLIER: fewer active ports" \
	odd-port HCA_COUNT_OUTLIER node 'ports_active 1 \(8 other nodes: 2\)'
has "COUNTER_OUTLIER: discards far above the class median, with the figures" \
	odd-cnt COUNTER_OUTLIER ens1f1np1 'ethtool rx_discards_phy: [0-9.e+]+ per hour of uptime; class MT4125/Ethernet median 0, MAD 0 over 9 nodes'
has "DUPLICATE_GUID names the GUID and the other node" \
	odd-dup DUPLICATE_GUID node 'node guid ba3f:d203:004a:6c20 of mlx5_0 is also on 1 other node: n01'
has "DUPLICATE_GUID on the other node too" \
	n01 DUPLICATE_GUID node 'is also on 1 other node: odd-dup'
has "DUPLICATE_ADDRESS: the MAC" \
	odd-dup DUPLICATE_ADDRESS node 'mac b8:3f:d2:4a:6c:20 of ens1f0np0 is also on 1 other node: n01'
has "HCA_MISSING (fleet): a function fewer than the class" \
	odd-hca HCA_MISSING fleet 'hca_functions 1 \(9 other nodes: 2\)'
has "HCA_COUNT_OUTLIER: an RDMA device fewer" \
	odd-hca HCA_COUNT_OUTLIER node 'hcas 1 \(9 other nodes: 2\)'
check_eq "the uniform nodes of the odd fleet have no fleet finding but the duplicate" \
	"$(awk '$1 ~ /^n0/ && $2 != "DUPLICATE_GUID" && $2 != "DUPLICATE_ADDRESS"' odd.out)" ""
check_eq "no fleet check fires where it should not" \
	"$(awk '!($1 ~ /^n0/ || $1 == "odd-fw" && $2 == "FW_VERSION_OUTLIER" ||
		$1 == "odd-drv" && $2 == "DRIVER_OUTLIER" ||
		$1 == "odd-cfg" && $2 == "CONFIG_OUTLIER" ||
		$1 == "odd-port" && $2 == "HCA_COUNT_OUTLIER" ||
		$1 == "odd-cnt" && $2 == "COUNTER_OUTLIER" ||
		$1 == "odd-dup" && $2 ~ /^DUPLICATE_/ ||
		$1 == "odd-hca" && ($2 == "HCA_MISSING" || $2 == "HCA_COUNT_OUTLIER") ||
		$1 == "odd-port" && $2 == "CONFIG_OUTLIER" ||
		$1 == "odd-hca" && $2 == "CONFIG_OUTLIER")' odd.out)" ""

# two nodes cannot outvote each other
findings uniform/n01-*.rdma.tar.zst odd/odd-fw-*.rdma.tar.zst >two.out
check_eq "no majority in a class of two" "$(grep -c OUTLIER two.out)" 0

# --baseline BUNDLE: a known-good node (here the odd one, to see it used)
fw_base=$(ls odd/odd-fw-*.rdma.tar.zst)
findings --baseline "$fw_base" uniform/*.rdma.tar.zst >base.out
check_eq "--baseline BUNDLE: every node differs from it" \
	"$(grep -c 'FW_VERSION_OUTLIER mlx5_1 | n0[1-4]: fw 22.39.2048 on mlx5_1 (baseline odd-fw: 22.38.1002)' base.out)" 4
check_eq "--baseline BUNDLE: the baseline is not a node of the report" \
	"$(grep -c '^odd-fw' base.out)" 0
# --baseline FILE
printf '# expected\nhca.*.fw 22.39.2048\nmemlock unlimited\n' >good.txt
findings --baseline good.txt uniform/*.rdma.tar.zst >f1.out
check_eq "--baseline FILE that matches: silent" "$(cat f1.out)" ""
printf 'hca.*.fw 22.41.1000\nclass MT4125/Ethernet\nport.*.1.mtu 4096\nport.mlx5_1.1.mtu 1024\n' >new.txt
findings --baseline new.txt uniform/n01-*.rdma.tar.zst >f2.out
check "--baseline FILE: a glob, with the baseline value in the message" \
	grep -q 'n01 FW_VERSION_OUTLIER node | n01: fw 22.39.2048 on mlx5_0, mlx5_1 (baseline: 22.41.1000)' f2.out
check "--baseline FILE: a later line wins, within its class" \
	grep -q 'n01 CONFIG_OUTLIER mlx5_1:1 | n01: mtu 4096 on mlx5_1:1 (baseline: 1024)' f2.out
printf 'class Other/InfiniBand\nhca.*.fw 1.2.3\n' >other.txt
findings --baseline other.txt uniform/n01-*.rdma.tar.zst >f3.out
check_eq "--baseline FILE: lines of another class do not apply" "$(cat f3.out)" ""
printf 'hca.*.fw\n' >bad.txt
"$RA" report --baseline bad.txt uniform/n01-*.rdma.tar.zst >/dev/null 2>bad.err
check_eq "--baseline FILE: a line without a value is refused (exit 4)" "$?" 4
check "--baseline FILE: ... naming the line" grep -q 'bad.txt:1: expected' bad.err

# the fleet findings of a database are those of its newest bundles, and a
# second report replaces them rather than adding to them
"$RA" load --db "$T/f.db" odd >/dev/null 2>&1
"$RA" report --db "$T/f.db" >/dev/null 2>&1
"$RA" report --db "$T/f.db" >/dev/null 2>&1
check_eq "report --db twice: the fleet findings are not duplicated" \
	"$(sqlite3 "$T/f.db" "SELECT count(*) FROM findings WHERE layer = 'fleet' OR component = 'fleet'")" \
	"$(findings odd/*.rdma.tar.zst | wc -l)"

# rdma-analyze diff
a=$(ls uniform/n01-*.rdma.tar.zst) b=$(ls uniform/n02-*.rdma.tar.zst)
"$RA" diff "$a" "$a" >self.out
check_eq "diff of a bundle with itself: exit 0" "$?" 0
check_eq "... and no difference" "$(tail -1 self.out)" "0 differences"
"$RA" diff "$a" "$b" >same.out
check_eq "diff of two uniform nodes: exit 0 (GUIDs and addresses are not configuration)" "$?" 0
"$RA" diff --all "$a" "$b" >all.out
check_eq "diff --all of two uniform nodes: exit 1" "$?" 1
check "diff --all shows the GUIDs" grep -q '^unique  guid.mlx5_0 *ba3f:d203:004a:6c20 -> ba3f:d203:004b:6c20$' all.out
"$RA" diff "$a" odd/odd-fw-*.rdma.tar.zst >fw.out
check_eq "diff with the odd firmware: exit 1" "$?" 1
check_eq "... one difference, the firmware" "$(sed -n '3,$p' fw.out)" "fw      hca.mlx5_1.fw                    22.39.2048 -> 22.38.1002
1 difference"
"$RA" diff --json "$a" odd/odd-cnt-*.rdma.tar.zst >cnt.json
check_eq "diff --json with the discarding node: exit 1" "$?" 1
check_eq "... the counter with both values" "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["differences"], [(c["component"], c["counter"], c["a"], c["b"]) for c in d["counters"]], d["attributes"], d["b"]["node"])' cnt.json)" \
	"1 [('ens1f1np1', 'ethtool rx_discards_phy', 0, 39022)] [] odd-cnt"
"$RA" diff --db "$T/f.db" n01 odd-drv >db.out
check_eq "diff --db NODE NODE: exit 1" "$?" 1
check "... the missing module" grep -q '^driver  module.rdma_ucm *loaded -> absent$' db.out
"$RA" diff --db "$T/f.db" n01 "$a" >mixed.out
check_eq "diff --db of a node with a bundle (its own): exit 0" "$?" 0
"$RA" diff "$a" >/dev/null 2>&1
check_eq "diff with one argument: exit 3" "$?" 3
"$RA" diff "$a" nosuchnode >/dev/null 2>err.out
check_eq "diff with a node name but no --db: exit 4" "$?" 4
printf 'not a bundle' >junk.rdma.tar.zst
"$RA" diff "$a" junk.rdma.tar.zst >/dev/null 2>&1
check_eq "diff with a bad bundle: exit 4" "$?" 4

# the majority is "absent" (a NULL value, counted as a value of its own
# by the majority's hash table): three nodes without rdma_ucm, one with it
mkdir -p absent
for i in 1 2 3; do
	node "m0$i" $((20 + i))
	"$INJ" module-missing "m0$i" rdma_ucm >/dev/null
	collect "m0$i" absent
done
cp uniform/n04-*.rdma.tar.zst absent/
findings absent/*.rdma.tar.zst >absent.out
check "a module loaded where the majority lacks it: DRIVER_OUTLIER on that node" \
	grep -qE '^n04 DRIVER_OUTLIER node \| n04: module\.rdma_ucm loaded \(3 other nodes: absent\)' absent.out
check_eq "... and on no other node" "$(grep -c DRIVER_OUTLIER absent.out)" 1
