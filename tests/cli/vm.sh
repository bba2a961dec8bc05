# vm: the real RDMA stack.  Soft-RoCE (rdma_rxe) guests under qemu, built
# from Debian's packages by tests/vm/ (no KVM needed, nothing touches the
# host's network).  One guest collects its live rxe0 and runs the real
# tools at the same moment; its fault cases follow in the same boot.  Two
# guests run ib_send_bw and ib_write_bw to each other inside a --sample
# window.  The bundles are checked here, on the host, with rdma-analyze.
#
# Compared exactly, view against tool: ibv_devinfo -v, ibstat, show_gids,
# lsmod, ls -la /dev/infiniband, rdma link show.
# ethtool -S eth0 is compared by counter name and type (an unsigned
# integer on both sides): its values move between the collector's read
# and ethtool's, the only values of the comparison that do.
#
# The read-only proof on the real stack: one more collection of the single
# guest runs under strace, and its trace passes tests/tools/readonly-check.py
# (as the fixture and live traces do in tests/cli/readonly.sh); a shell
# traced beside it that breaks each rule is caught.
#
# The library-free guest boots beside them: its initramfs holds busybox,
# the static collector $BUILD/static/rdma-collect-x86_64 (built there by
# tests/cli/static.sh earlier in the same run, or by make check-vm) and
# the static test tool tests/tools/rxe-add.c, which adds rxe0 as `rdma
# link add` would, nothing else (no shared library, no rdma-core: checked
# on the image).  It has the single guest's MAC and address, so its rxe0
# has the same GUIDs and GIDs: the views of its bundle equal the single
# guest's real tools, and its manifest says the verbs, mad and libs
# sources ran through the linked-in rdma-core.  It boots with the three,
# not after them nor in a test of its own: alone it takes ~9 s, beside
# them ~20 s, and the test ~55 s instead of ~65 s on two cores.
#
# make check-vm runs only this test; RDMA_VM_CACHE (default
# ~/.cache/rdma-collect-vm) keeps the kernel and the initramfs, VM_KEEP
# (default $BUILD/vm) the consoles, the guests' outputs and the bundles.
. "$TOP/tests/vm/vm.sh"

if ! vm_have; then
	skip "vm" "not installed: $VM_MISSING (tests/install-deps.sh)"
	return 0
fi
W=${VM_KEEP:-$BUILD/vm}
rm -rf "$W"
mkdir -p "$W"
trap 'vm_stop "$W/single" "$W/a" "$W/b" "$W/static"' EXIT

t0=$(date +%s)
if ! vm_guest "$RC" 2>"$W/build-guest.err"; then
	fail "guest kernel and initramfs built"
	sed 's/^/#   /' "$W/build-guest.err"
	return 0
fi
ok "guest kernel and initramfs built or cached ($(($(date +%s) - t0)) s)"

# the library-free guest, when the static collector was built
SC=$BUILD/static/rdma-collect-x86_64
guests="single a b"
if [ ! -x "$SC" ]; then
	skip "static guest" "no $SC (make static STATIC_DIR=$BUILD/static, or TESTS=\"static vm\")"
elif ! vm_guest "$SC" static "$BUILD/tests/rxe-add" 2>"$W/build-static.err"; then
	fail "static guest: kernel and initramfs built"
	sed 's/^/#   /' "$W/build-static.err"
else
	ok "static guest: initramfs built or cached"
	guests="$guests static"
fi

# the single node and the pair boot together: 3 guests, ~2 cores of work;
# the static guest beside them, with the single guest's MAC and address
case $guests in
*static) vm_boot "$W/static" static 10.11.0.1/24 "" 52:54:00:11:00:01 \
	"$W/static.sock" "$W/nobody.sock" "t_host=vm-static" ;;
esac
vm_boot "$W/single" single 10.11.0.1/24 "" 52:54:00:11:00:01 \
	"$W/single.sock" "$W/nobody.sock" "t_host=vm-single"
vm_cable "$W/single"
vm_boot "$W/a" server 10.12.0.1/24 10.12.0.2 52:54:00:12:00:01 \
	"$W/a.sock" "$W/b.sock" "t_host=vm-a t_sample=15"
vm_boot "$W/b" client 10.12.0.2/24 10.12.0.1 52:54:00:12:00:02 \
	"$W/b.sock" "$W/a.sock" "t_host=vm-b t_sample=15"
for d in $guests; do
	vm_wait "$W/$d"
	check_eq "guest $d powered off by itself" "$?" 0
	echo "# guest $d: $(cat "$W/$d/wall") s from boot to power off"
done
S=$W/single/out
for d in $guests; do
	check "guest $d: no step timed out" sh -c \
		"! grep 'timed out' '$W/$d/out/log.txt' && test -s '$W/$d/out/log.txt'"
done

# --- single node: the collector against the real tools -------------------

bundle() { ls "$S/$1"/*.rdma.tar.zst 2>/dev/null | head -1; }
for c in healthy memlock mtu admindown linkdown modules; do
	check_eq "$c: rdma-collect exits 0 in the guest" \
		"$(cat "$S/$c/collect.rc" 2>/dev/null)" 0
	check_eq "$c: no sanitizer or error output" \
		"$(cat "$S/$c/collect.err" 2>/dev/null)" ""
done
H=$(bundle healthy)
[ -n "$H" ] || fail "healthy: a bundle"

# view VIEW [ARGS]: the view of the healthy bundle, as a file
view() {
	local f=$W/view-$1
	"$RA" show "$H" "$@" >"$f" 2>&1
	echo "$f"
}
same() {	# what tool-output view
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		fail "$1"
		diff -u "$2" "$3" | head -40 | sed 's/^/#   /'
	fi
}
same "ibv_devinfo -v: view = tool" "$S/healthy/ibv_devinfo.txt" \
	"$(view ibv_devinfo -v)"
same "ibstat: view = tool" "$S/healthy/ibstat.txt" "$(view ibstat)"
same "show_gids: view = tool" "$S/healthy/show_gids.txt" "$(view show_gids)"
same "lsmod: view = tool" "$S/healthy/lsmod.txt" "$(view lsmod)"
same "ls -la /dev/infiniband: view = tool" "$S/healthy/ls-infiniband.txt" \
	"$(view ls-infiniband)"

same "rdma link show: view = tool" "$S/healthy/rdma-link.txt" \
	"$(view rdma link show)"

# ethtool -S: same counter names, each an unsigned integer on both sides
names() { awk '/^ +[^ ].*: / { v = $NF; sub(/:.*/, ""); sub(/^ +/, "");
	print $0, (v ~ /^[0-9]+$/ ? "uint" : "other:" v) }' "$1"; }
names "$S/healthy/ethtool.txt" >"$W/ethtool.tool"
names "$(view ethtool -S eth0)" >"$W/ethtool.view"
same "ethtool -S eth0: counter names and types" "$W/ethtool.tool" \
	"$W/ethtool.view"
check "ethtool -S eth0: the tool printed counters" test -s "$W/ethtool.tool"

# --- single node: fault cases, as findings ---------------------------------

# findings CASE|BUNDLE: "RULE component severity" of every finding at
# warning or above, and of the rules named in $2 at any severity, sorted
findings() {
	local b=$1
	[ -f "$b" ] || b=$(bundle "$1")
	"$RA" report --format json "$b" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
also = sys.argv[1].split()
for n in d["nodes"]:
    for f in n["findings"]:
        if f["severity"] != "info" or f["rule"] in also:
            print(f["rule"], f["component"], f["severity"])' "${2:-}" | sort
}
check_eq "healthy: no finding at warning or above" "$(findings healthy)" ""
check_eq "memlock: MEMLOCK_LIMITED, nothing else" "$(findings memlock)" \
	"MEMLOCK_LIMITED memlock critical"
check "memlock: the finding names the --pid process" sh -c "
	'$RA' report '$(bundle memlock)' | grep MEMLOCK_LIMITED |
	grep -q 'process $(cat "$S/memlock/pid" 2>/dev/null) '"
# the netdev at 1500 gives rxe's port 1024, as the kernel computes it:
# the netdev's setting, an info finding (rules-verbs.c)
check_eq "mtu: MTU_BELOW_MAX on rxe0:1 at info, nothing else" \
	"$(findings mtu MTU_BELOW_MAX)" "MTU_BELOW_MAX rxe0:1 info"
# rxe's port follows its netdev: set down it is Disabled, without carrier
# Polling; with no cable-plugged line in the kernel log both are down on
# purpose to the rule, an info finding
check_eq "admindown: PORT_DOWN on rxe0:1 (Disabled: info)" \
	"$(findings admindown PORT_DOWN)" "PORT_DOWN rxe0:1 info"
check_eq "linkdown: PORT_DOWN on rxe0:1 (carrier lost, Polling: info)" \
	"$(findings linkdown PORT_DOWN)" "PORT_DOWN rxe0:1 info"
check "linkdown: the port was Polling" sh -c \
	"'$RA' show '$(bundle linkdown)' ibstat | grep -q 'Physical state: Polling'"
# ib_umad only serves InfiniBand management: on a RoCE-only node its
# absence is info
check_eq "modules: MODULE_MISSING rdma_ucm and ib_umad, DEVNODE_MISSING rdma_cm" \
	"$(findings modules MODULE_MISSING)" "DEVNODE_MISSING rdma_cm critical
MODULE_MISSING ib_umad info
MODULE_MISSING rdma_ucm critical"
same "modules: lsmod view = tool after rmmod" "$S/modules/lsmod.txt" \
	"$("$RA" show "$(bundle modules)" lsmod >"$W/lsmod-modules.view" 2>&1;
	echo "$W/lsmod-modules.view")"

# --- single node: the read-only proof on the real stack -------------------

# rdma-collect ran under strace in the guest (tests/vm/init readonly_case):
# its trace is checked here as tests/cli/readonly.sh checks the fixture
# and live ones, with the guest's paths taken as written (--foreign); the
# allowlist is src-commands.c's table, of which the guest has only rdma
R=$S/readonly
ALLOW="ofed_info mst ibdev2netdev rdma lldpcli nvidia-smi mlxlink mlxconfig mlxfwmanager"
rocheck() {	# TRACE: readonly-check.py over a guest trace
	python3 "$TOP/tests/tools/readonly-check.py" --foreign \
		--command-path /usr/sbin:/usr/bin:/sbin:/bin:/opt/mellanox/bin:/usr/local/bin \
		--allow "$ALLOW" "$1" /out/readonly/out /usr/sbin/rdma-collect
}
check_eq "readonly: rdma-collect exits 0 under strace in the guest" \
	"$(cat "$R/collect.rc" 2>/dev/null)" 0
check_eq "readonly: no sanitizer or error output" \
	"$(cat "$R/collect.err" 2>/dev/null)" ""
check "readonly: a bundle" sh -c "ls '$R'/out/*.rdma.tar.zst"
if rocheck "$R/trace" >"$W/readonly.verify"; then
	ok "readonly: only reads on rxe0: $(head -1 "$W/readonly.verify"), $(cat "$R/wall") s"
else
	fail "readonly: the trace shows a write, a module call or a forbidden open"
	sed 's/^/#   /' "$W/readonly.verify" | head -16
fi
check "readonly: the allowlisted rdma ran (its execve is in the trace)" \
	grep -q '^[0-9]* processes, .* execve (rdma)$' "$W/readonly.verify"
# the trace went through the real kernel interfaces, or it proves nothing:
# every source ran to its end (a source that timed out quarantines rxe0,
# and verbs is never read), rxe0's sysfs, the verbs ioctls on its uverbs
# node, RDMA netlink
sources_done() {	# BUNDLE: every source of its manifest ok or absent
	manifest "$1" | python3 -c '
import json, sys
bad = [s["name"] + " " + s["status"] for s in json.load(sys.stdin)["sources"]
       if s["status"] not in ("ok", "absent")]
sys.exit("not ok or absent: " + ", ".join(bad) if bad else 0)'
}
check "readonly: every source ok or absent" \
	sources_done "$(ls "$R"/out/*.rdma.tar.zst 2>/dev/null | head -1)"
for p in '"/sys/devices/virtual/infiniband/rxe0/ports/1/hw_counters/' \
	 '"/sys/devices/virtual/infiniband/rxe0/ports/1/gids/' \
	 '"/dev/infiniband/uverbs0", O_RDWR' \
	 'uverbs0>, RDMA_VERBS_IOCTL, 0x[0-9a-f]+\) = 0' \
	 'socket\(AF_NETLINK, .*NETLINK_RDMA\)'; do
	check "readonly: the trace holds $p" grep -qE "$p" -r "$R/trace"
done
# the planted run: a shell, traced the same way, that does what the
# collector must not; each rule catches its part
rocheck "$R/neg" >"$W/readonly-neg.verify"
check_eq "readonly: the checker fails the planted run" "$?" 1
for v in 'open for writing outside the output: .*rxe0/ports/1/state' \
	 'wrote to /proc/[0-9]+/comm' \
	 'netlink request that is not a query \(NETLINK_ROUTE\)' \
	 'socket ioctl that is not a get: .*SIOCSIFFLAGS' \
	 'opened a forbidden file: .*/resource[0-9]' \
	 'execve outside the allowlist: /usr/sbin/ip'; do
	check "readonly: the checker catches: $v" \
		grep -qE "^VIOLATION $v" "$W/readonly-neg.verify"
done

# --- the pair: perftest results and counters across the sample ------------

for n in a b; do
	for t in ib_send_bw-1 ib_write_bw-1 ib_send_bw-2 ib_write_bw-2; do
		check_eq "pair $n: $t exits 0" \
			"$(cat "$W/$n/out/$t.txt.rc" 2>/dev/null)" 0
	done
	check_eq "pair $n: rdma-collect --sample exits 0" \
		"$(cat "$W/$n/out/pair/collect.rc" 2>/dev/null)" 0
done
db=$W/pair.db
"$RA" load --db "$db" "$W"/a/out/pair/*.rdma.tar.zst \
	"$W"/b/out/pair/*.rdma.tar.zst >/dev/null 2>"$W/load.err"
check "pair: both bundles load" test $? -le 2
q() { sqlite3 -separator ' ' "$db" "$1"; }
check_eq "pair: two nodes" "$(q 'SELECT name FROM nodes ORDER BY name' |
	tr '\n' ' ')" "vm-a vm-b "
# the BW average perftest printed (its line under "#bytes"), per node and
# test, against the analyzer's perftest_results
for n in a b; do
	host=vm-$n
	for t in ib_send_bw ib_write_bw; do
		want=$(awk 'f && NF >= 5 { print $4; exit } /^ #bytes/ { f = 1 }' \
			"$W/$n/out/$t-1.txt")
		got=$(q "SELECT r.bw_avg FROM perftest_results r
			JOIN bundles b ON b.id = r.bundle_id
			JOIN nodes n ON n.id = b.node_id
			WHERE n.name = '$host' AND r.attachment LIKE '%/$t-1.txt'")
		# SQLite's REAL prints 33.4 where perftest printed 33.40
		[ -n "$got" ] && got=$(printf '%.2f' "$got")
		check_eq "pair $n: $t average as perftest printed it" "$got" "$want"
	done
done
# round 2 ran between the two reads: 2 tests x 200 messages x 64 KiB in
# 4096-byte packets (active_mtu 4096) = 6400 data packets from b to a
pkts=$((2 * 200 * 65536 / 4096))
moved() {	# node counter: the counter's growth across the sample
	q "SELECT c.value2 - c.value FROM counters c
		JOIN bundles b ON b.id = c.bundle_id
		JOIN nodes n ON n.id = b.node_id
		WHERE n.name = 'vm-$1' AND c.name = '$2' AND c.ibdev = 'rxe0'"
}
check "pair: a received >= $pkts packets in the sample" \
	test "$(moved a rcvd_pkts)" -ge $pkts
check "pair: b sent >= $pkts packets in the sample" \
	test "$(moved b sent_pkts)" -ge $pkts
check "pair: a acknowledged (sent_pkts moved)" test "$(moved a sent_pkts)" -gt 0
"$RA" report --format json "$W"/a/out/pair/*.rdma.tar.zst \
	"$W"/b/out/pair/*.rdma.tar.zst >"$W/pair.json" 2>/dev/null
check "pair: the report holds both nodes and each one's perftest runs" \
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
names = sorted(n["node"] for n in d["nodes"])
assert names == ["vm-a", "vm-b"], names
' "$W/pair.json"

# --- the static guest: the static collector with no library at all -------

case $guests in *static) ;; *) return 0 ;; esac
G=$W/static/out
# the image: busybox, rdma-collect and rxe-add are its only executables,
# each without a program interpreter or a NEEDED entry; no shared object,
# no loader, no rdma-core file (libibverbs.d, a provider, a library)
mkdir -p "$W/static-root"
zstd -dc "$VM_INITRD_STATIC" | (cd "$W/static-root" && cpio -id --quiet)
(cd "$W/static-root" && find . ! -type d | sed 's,^\./,,' | LC_ALL=C sort) \
	>"$W/static.list"
check "static guest: no shared library, loader or rdma-core file in it" \
	sh -c "! grep -E '\\.so(\\.[0-9]+)*\$|ld-linux|libibverbs|rdmav|(^|/)lib(32|64)?/[^m]' \
		'$W/static.list'"
elfs=$(cd "$W/static-root" && for f in $(find . -type f ! -name '*.ko'); do
	readelf -hW "$f" >/dev/null 2>&1 && echo "${f#./}"; done | LC_ALL=C sort |
	tr '\n' ' ')
check_eq "static guest: its executables" "$elfs" \
	"bin/busybox usr/sbin/rdma-collect usr/sbin/rxe-add "
for f in $elfs; do
	check "static guest: $f needs no interpreter and no library" sh -c \
		"! readelf -lW '$W/static-root/$f' | grep INTERP &&
		 ! readelf -dW '$W/static-root/$f' 2>/dev/null | grep NEEDED"
done
ssz=$(stat -c %s "$VM_INITRD_STATIC")
nsz=$(stat -c %s "$VM_INITRD")
echo "# initramfs (zstd -3): static guest $ssz bytes, normal guest $nsz bytes"
ok "static guest: initramfs $((ssz / 1024)) KiB, the normal guest's $((nsz / 1024)) KiB"
rm -rf "$W/static-root"

for c in healthy sample; do
	check_eq "static $c: rdma-collect exits 0 in the guest" \
		"$(cat "$G/$c/collect.rc" 2>/dev/null)" 0
	check_eq "static $c: no error output" \
		"$(cat "$G/$c/collect.err" 2>/dev/null)" ""
	echo "# static guest: rdma-collect ($c) ran $(cat "$G/$c/wall" 2>/dev/null) s"
done
ok "static guest: $(cat "$W/static/wall") s from boot to power off," \
	"rdma-collect $(cat "$G/healthy/wall" 2>/dev/null) s," \
	"with --sample 2 $(cat "$G/sample/wall" 2>/dev/null) s"
SB=$(ls "$G/healthy"/*.rdma.tar.zst 2>/dev/null | head -1)
[ -n "$SB" ] || fail "static healthy: a bundle"

# info BUNDLE SOURCE KEY: the source's status, its reason or one of its notes
info() {
	manifest "$1" | python3 -c '
import json, sys
s = [s for s in json.load(sys.stdin)["sources"] if s["name"] == sys.argv[1]]
k = sys.argv[2]
if s:
    print(s[0][k] if k in ("status", "reason") else s[0]["notes"].get(k, ""))
' "$2" "$3"
}
linked() {	# WHAT NOTE FILE: ok when NOTE says FILE is linked in
	case $2 in
	"$3, linked in (rdma-core "[0-9]*")") ok "$1 ($2)" ;;
	*) fail "$1"; echo "#   got: '$2'" ;;
	esac
}
check "static healthy: every source ok or absent" sources_done "$SB"
check_eq "static healthy: no finding at warning or above" "$(findings "$SB")" ""
check_eq "static healthy: verbs ok" "$(info "$SB" verbs status)" ok
linked "static healthy: libibverbs linked in" "$(info "$SB" verbs libibverbs.file)" \
	libibverbs.so.1
check "static healthy: verbs/rxe0.json has port 1 ACTIVE (state 4)" python3 -c '
import json, sys, subprocess
d = json.loads(subprocess.run(["tar", "--zstd", "-xOf", sys.argv[1],
    "rdma-collect/verbs/rxe0.json"], capture_output=True, check=True).stdout)
assert d["status"] == "ok", d["status"]
assert [(p["port"], p["state"]) for p in d["ports"]] == [(1, 4)], d["ports"]
' "$SB"
# libs: each library found in the binary itself
check_eq "static healthy: libs ok" "$(info "$SB" libs status)" ok
for l in libibumad.so.3 libibmad.so.5 libibnetdisc.so.5; do
	n=${l%%.so*}
	check_eq "static healthy: libs says $n ok" "$(info "$SB" libs $n)" ok
	linked "static healthy: libs says $n linked in" "$(info "$SB" libs $n.file)" $l
done
# mad: libibumad and libibmad loaded from the binary, then no InfiniBand
# port on a RoCE device (not "cannot be loaded")
check_eq "static healthy: mad absent" "$(info "$SB" mad status)" absent
check_eq "static healthy: mad's reason: no InfiniBand port" \
	"$(info "$SB" mad reason)" "no InfiniBand port"
check_eq "static healthy: mad loaded libibumad and libibmad" \
	"$(info "$SB" mad libibumad) $(info "$SB" mad libibmad)" "ok ok"
# netlink: rtnetlink's address dump and the DCB query (rdmanet.c).  The
# RDMA netlink device dump of the linked-in libibverbs (through libnl) is
# not traced here, as this guest has no strace: verbs ok is its evidence
check "static healthy: net/addresses.json (rtnetlink) has 10.11.0.1/24 on eth0" \
	python3 -c '
import json, sys, subprocess
d = json.loads(subprocess.run(["tar", "--zstd", "-xOf", sys.argv[1],
    "rdma-collect/net/addresses.json"], capture_output=True, check=True).stdout)
assert any(a["ifname"] == "eth0" and a["address"] == "10.11.0.1" and
           a["prefixlen"] == 24 for a in d), d
' "$SB"
check "static healthy: dcb/eth0.json (rtnetlink DCB) answered: no DCB on virtio" sh -c \
	"tar --zstd -xOf '$SB' rdma-collect/dcb/eth0.json | grep -q '\"ieee\": \"EOPNOTSUPP\"'"
# the views against the single guest's real tools: the same MAC, address
# and MTU make the same rxe0
sview() {
	local f=$W/static-view-$1
	"$RA" show "$SB" "$@" >"$f" 2>&1
	echo "$f"
}
check "static healthy: rdma link show names rxe0" grep -q '^link rxe0/1 ' \
	"$(sview rdma link show)"
same "static healthy: ibv_devinfo -v view = the single guest's tool" \
	"$S/healthy/ibv_devinfo.txt" "$(sview ibv_devinfo -v)"
same "static healthy: ibstat view = the single guest's tool" \
	"$S/healthy/ibstat.txt" "$(sview ibstat)"
same "static healthy: show_gids view = the single guest's tool" \
	"$S/healthy/show_gids.txt" "$(sview show_gids)"
same "static healthy: rdma link show view = the single guest's tool" \
	"$S/healthy/rdma-link.txt" "$(sview rdma link show)"
# --sample 2: the counters read twice
SB2=$(ls "$G/sample"/*.rdma.tar.zst 2>/dev/null | head -1)
check_eq "static sample: the sample source ok" \
	"$(src_status "$SB2" sample 2>/dev/null)" ok
check "static sample: every source ok or absent" sources_done "$SB2"
