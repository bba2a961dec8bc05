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
trap 'vm_stop "$W/single" "$W/a" "$W/b"' EXIT

t0=$(date +%s)
if ! vm_guest "$RC" 2>"$W/build-guest.err"; then
	fail "guest kernel and initramfs built"
	sed 's/^/#   /' "$W/build-guest.err"
	return 0
fi
ok "guest kernel and initramfs built or cached ($(($(date +%s) - t0)) s)"

# the single node and the pair boot together: 3 guests, ~2 cores of work
vm_boot "$W/single" single 10.11.0.1/24 "" 52:54:00:11:00:01 \
	"$W/single.sock" "$W/nobody.sock" "t_host=vm-single"
vm_cable "$W/single"
vm_boot "$W/a" server 10.12.0.1/24 10.12.0.2 52:54:00:12:00:01 \
	"$W/a.sock" "$W/b.sock" "t_host=vm-a t_sample=15"
vm_boot "$W/b" client 10.12.0.2/24 10.12.0.1 52:54:00:12:00:02 \
	"$W/b.sock" "$W/a.sock" "t_host=vm-b t_sample=15"
for d in single a b; do
	vm_wait "$W/$d"
	check_eq "guest $d powered off by itself" "$?" 0
	echo "# guest $d: $(cat "$W/$d/wall") s from boot to power off"
done
S=$W/single/out
for d in single a b; do
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

# findings CASE: "RULE component severity" of every finding at warning or
# above, and of the rules named in $2 at any severity, sorted
findings() {
	"$RA" report --format json "$(bundle "$1")" 2>/dev/null | python3 -c '
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
