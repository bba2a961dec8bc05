# rdma-collect never hangs: a small node tree served through hangfs
# (tests/tools/hangfs.c, FUSE) whose chosen files block forever, fail with
# EIO or never end (a counter, a GID, the PCI config space, /proc/uptime);
# a source killed by a signal; a folder of 100,000
# entries; SIGINT while a source is stuck.
#
# A stuck reader keeps the files it inherited open, so the collector's
# output goes to files here, never to a pipe or $(...).

HANGFS=$BUILD/tests/hangfs
MNT=$T/mnt
HPID=

if [ ! -c /dev/fuse ]; then
	skip "hang tests" "no /dev/fuse (FUSE not available here)"
	exit 0
fi
if ! command -v fusermount3 >/dev/null 2>&1; then
	skip "hang tests" "fusermount3 is not installed (Debian: fuse3)"
	exit 0
fi
if [ ! -x "$HANGFS" ]; then
	skip "hang tests" "$HANGFS was not built"
	exit 0
fi

mounted() { awk -v m="$1" '$5 == m { f = 1 } END { exit !f }' /proc/self/mountinfo; }

# mount_hangfs SRC hangfs-options...: serve SRC at $MNT (in the foreground)
mount_hangfs() {
	src=$1
	shift
	mkdir -p "$MNT"
	"$HANGFS" "$src" "$MNT" -f "$@" >"$T/hangfs.log" 2>&1 &
	HPID=$!
	n=0
	while ! mounted "$MNT"; do
		n=$((n + 1))
		if [ $n -gt 50 ] || ! kill -0 "$HPID" 2>/dev/null; then
			unmount_hangfs
			return 1
		fi
		sleep 0.1
	done
}

# end hangfs: that releases the readers stuck in it and unmounts
unmount_hangfs() {
	if [ -n "$HPID" ]; then
		kill -TERM "$HPID" 2>/dev/null
		wait "$HPID" 2>/dev/null
		HPID=
	fi
	if mounted "$MNT"; then
		fusermount3 -u -z "$MNT" 2>/dev/null
	fi
}
trap unmount_hangfs EXIT

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# collect OUT args...: run the collector into folder OUT; sets RCRC, WALL, B
collect() {
	out=$1
	shift
	mkdir -p "$out"
	t0=$(now_ms)
	"$RC" -q "$@" -o "$out" >"$out.stdout" 2>"$out.stderr"
	RCRC=$?
	WALL=$(($(now_ms) - t0))
	B=$(cat "$out.stdout")
}

# mpy BUNDLE CODE: run python CODE with m (the manifest) and S (the sources
# by name); it prints the answer
mpy() {
	manifest "$1" | python3 -c "
import json, sys
m = json.load(sys.stdin)
S = {s['name']: s for s in m['sources']}
$2"
}

has() { tar --zstd -tf "$1" | grep -q -- "$2"; }

# a small node: identity files, two RDMA devices on their PCI functions
mkroot() {
	r=$1
	mkdir -p "$r/proc/sys/kernel/random" "$r/etc" "$r/sys/class/infiniband" \
		"$r/sys/devices/system/node/node0"
	echo hangnode >"$r/proc/sys/kernel/hostname"
	echo 6.1.0-27-amd64 >"$r/proc/sys/kernel/osrelease"
	echo '#1 SMP PREEMPT_DYNAMIC Debian 6.1.115-1' >"$r/proc/sys/kernel/version"
	echo 4f1c2d3e-0000-4000-8000-00000000abcd >"$r/proc/sys/kernel/random/boot_id"
	echo 0 >"$r/proc/sys/kernel/tainted"
	echo '12345.67 23456.78' >"$r/proc/uptime"
	echo 'BOOT_IMAGE=/vmlinuz-6.1.0-27-amd64 root=/dev/sda1 ro' >"$r/proc/cmdline"
	printf 'cpu  1 2 3 4\nbtime 1764450000\n' >"$r/proc/stat"
	printf 'processor\t: 0\nmodel name\t: Test CPU\n\n' >"$r/proc/cpuinfo"
	echo 'Linux version 6.1.0-27-amd64' >"$r/proc/version"
	echo 'mlx5_ib 479232 0 - Live 0x0000000000000000' >"$r/proc/modules"
	echo 9a8b7c6d5e4f00112233445566778899 >"$r/etc/machine-id"
	echo 'ID=debian' >"$r/etc/os-release"
	echo 0 >"$r/sys/devices/system/node/online"
	echo 0-1 >"$r/sys/devices/system/node/node0/cpulist"
	for spec in mlx5_0:02.0:b1 mlx5_1:03.0:b2; do
		dev=${spec%%:*}
		rest=${spec#*:}
		port=${rest%%:*}
		bus=${rest#*:}
		pci=sys/devices/pci0000:00/0000:00:$port/0000:$bus:00.0
		d=$r/$pci/infiniband/$dev
		mkdir -p "$d/ports/1/counters" "$d/ports/1/gids"
		echo 0x15b3 >"$r/$pci/vendor"
		echo 0x1021 >"$r/$pci/device"
		echo 0x020700 >"$r/$pci/class"
		mkdir -p "$r/sys/bus/pci/devices"
		ln -s "../../../devices/pci0000:00/0000:00:$port/0000:$bus:00.0" \
			"$r/sys/bus/pci/devices/0000:$bus:00.0"
		# the config space's first 64 bytes: ids, a network controller
		python3 -c 'import sys; h = bytearray(64); h[0:4] = b"\xb3\x15\x21\x10"; h[9:12] = b"\x00\x07\x02"; sys.stdout.buffer.write(h)' >"$r/$pci/config"
		ln -s "../../../0000:$bus:00.0" "$d/device"
		ln -s "../../${pci#sys/}/infiniband/$dev" "$r/sys/class/infiniband/$dev"
		echo 28.41.1000 >"$d/fw_ver"
		echo 0080:e1ff:feab:cd01 >"$d/node_guid"
		echo 1 >"$d/ports/1/counters/link_downed"
		echo 1000 >"$d/ports/1/counters/port_rcv_data"
		echo 2000 >"$d/ports/1/counters/port_xmit_data"
		echo 7 >"$d/ports/1/counters/symbol_error"
		echo '4: ACTIVE' >"$d/ports/1/state"
		echo 'fe80:0000:0000:0000:0080:e1ff:feab:cd01' >"$d/ports/1/gids/0"
	done
}

mkroot "$T/root"
if ! mount_hangfs "$T/root" --hang /proc/uptime; then
	skip "hang tests" "hangfs could not mount: $(head -c 300 "$T/hangfs.log")"
	exit 0
fi

# --- a read that never returns: /proc/uptime (the identity source) ---
collect "$T/o1" --root "$MNT" --timeout 2 --deadline 20
echo "# hang on /proc/uptime: wall time ${WALL} ms (--timeout 2 --deadline 20)"
check_eq "hung read: exits 0" "$RCRC" 0
check "hung read: finishes within the deadline (${WALL} ms)" test "$WALL" -lt 20000
check "hung read: the bundle exists" test -f "$B"
check_eq "hung read: identity is timeout" "$(src_status "$B" identity)" timeout
check "hung read: the reason names the hung path" \
	sh -c "tar --zstd -xOf '$B' manifest.json | grep -q '\"reason\": \".*/proc/uptime'"
check_eq "hung read: only identity is timeout" \
	"$(mpy "$B" "print(' '.join(n for n, s in S.items() if s['status'] == 'timeout'))")" \
	identity
check "hung read: identity's files read before the hang are kept" \
	has "$B" '^proc/sys/kernel/hostname$'
check_eq "hung read: the manifest has the hostname" \
	"$(mpy "$B" "print(m['hostname'])")" hangnode
check "hung read: the other sources' evidence is there (proc/modules)" \
	has "$B" '^proc/modules$'
check_eq "hung read: nothing is quarantined (no device key)" \
	"$(mpy "$B" "print(len(m['quarantined']))")" 0
check "hung read: no temp file left" sh -c "! ls -a '$T/o1' | grep -q tmp"
unmount_hangfs

# --- a counter read that hangs (the sysfs source) ---
if "$RC" --list-sources | grep -q '^sysfs'; then
	mount_hangfs "$T/root" --hang \
		/sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error
	collect "$T/o2" --root "$MNT" --timeout 2 --deadline 20
	echo "# hang on mlx5_0 symbol_error: wall time ${WALL} ms"
	echo "# sysfs: $(mpy "$B" "print(S['sysfs']['status'] + ': ' + S['sysfs']['reason'])")"
	check_eq "hung counter: exits 0" "$RCRC" 0
	check "hung counter: finishes within the deadline (${WALL} ms)" \
		test "$WALL" -lt 20000
	check_eq "hung counter: only sysfs is timeout" \
		"$(mpy "$B" "print(' '.join(n for n, s in S.items() if s['status'] == 'timeout'))")" \
		sysfs
	check "hung counter: the reason names the counter and the device" \
		mpy "$B" "r = S['sysfs']['reason']; assert 'counters/symbol_error' in r and 'mlx5_0' in r, r"
	check "hung counter: mlx5_0 is quarantined" \
		mpy "$B" "assert 'mlx5_0' in m['quarantined'], m['quarantined']"
	check "hung counter: mlx5_1's counters are there" \
		has "$B" 'infiniband/mlx5_1/ports/1/counters/symbol_error$'
	check "hung counter: mlx5_0's files read before the hang are there" \
		sh -c "tar --zstd -tf '$B' | grep -q 'infiniband/mlx5_0/fw_ver\$' &&
		       tar --zstd -tf '$B' | grep -q 'infiniband/mlx5_0/ports/1/counters/link_downed\$'"
	unmount_hangfs
else
	skip "hung counter" "no sysfs source in this build"
fi

# --- a GID read and a config-space read that hang: the device's source is
# timeout, that device (and only it) is quarantined, the other device's
# evidence is whole
hang_dev() {	# WHAT PATH SOURCE KEY OTHER-EVIDENCE-REGEX
	mount_hangfs "$T/root" --hang "$2"
	collect "$T/o-$1" --root "$MNT" --timeout 2 --deadline 20
	echo "# hang on $2: wall time ${WALL} ms"
	check_eq "hung $1: exits 0" "$RCRC" 0
	check "hung $1: finishes within the deadline (${WALL} ms)" test "$WALL" -lt 20000
	check_eq "hung $1: only $3 is timeout" \
		"$(mpy "$B" "print(' '.join(n for n, s in S.items() if s['status'] == 'timeout'))")" "$3"
	check "hung $1: $4 is quarantined" \
		mpy "$B" "assert '$4' in m['quarantined'], m['quarantined']"
	check "hung $1: the other device's evidence is there" has "$B" "$5"
	unmount_hangfs
}
if "$RC" --list-sources | grep -q '^sysfs'; then
	hang_dev gid /sys/class/infiniband/mlx5_0/ports/1/gids/0 sysfs mlx5_0 \
		'infiniband/mlx5_1/ports/1/gids/0$'
fi
if "$RC" --list-sources | grep -q '^pci'; then
	hang_dev config /sys/devices/pci0000:00/0000:00:02.0/0000:b1:00.0/config pci \
		0000:b1:00.0 '0000:b2:00.0/config$'
fi

# --- EIO and an endless file ---
mount_hangfs "$T/root" --eio /proc/cmdline --endless /proc/cpuinfo
collect "$T/o3" --root "$MNT" --timeout 5 --deadline 20 --max-file 64k
echo "# EIO and endless file: wall time ${WALL} ms"
check_eq "EIO/endless: exits 0" "$RCRC" 0
check "EIO: identity is ok or partial" \
	mpy "$B" "assert S['identity']['status'] in ('ok', 'partial'), S['identity']"
check "EIO: error_list names proc/cmdline with EIO" \
	mpy "$B" "assert {'path': 'proc/cmdline', 'errno': 'EIO'} in S['identity']['error_list'], S['identity']['error_list']"
check_eq "endless: proc/cpuinfo is cut at --max-file" \
	"$(tar --zstd -xOf "$B" proc/cpuinfo | wc -c)" 65536
check "endless: proc/cpuinfo is listed as truncated" \
	mpy "$B" "assert 'proc/cpuinfo' in S['identity']['truncated'], S['identity']['truncated']"
check "endless: no source is timeout" \
	mpy "$B" "assert not [n for n, s in S.items() if s['status'] == 'timeout']"
unmount_hangfs

# --- a source killed by a signal ---
export RDMA_COLLECT_TEST_CRASH=modules
collect "$T/o4" --root "$T/root" --deadline 20
unset RDMA_COLLECT_TEST_CRASH
check_eq "crash: exits 0" "$RCRC" 0
check "crash: the bundle exists" test -f "$B"
check_eq "crash: modules is error" "$(src_status "$B" modules)" error
check "crash: the reason names the signal" \
	mpy "$B" "r = S['modules']['reason']; assert 'signal 11' in r and 'Segmentation' in r, r"
check_eq "crash: identity is still ok" "$(src_status "$B" identity)" ok

# --- a folder of 100,000 entries ---
mkroot "$T/big"
g=$T/big/sys/devices/pci0000:00/0000:00:02.0/0000:b1:00.0/infiniband/mlx5_0/ports/1/gids
n=$T/big/sys/devices/system/node
(cd "$g" && seq 1 100004 | xargs touch) &&
(cd "$n" && seq -f 'x%06g' 1 100004 | xargs touch)
check_eq "big folders: 100,005 entries made" "$(ls -f "$g" | grep -vc '^\.\.\?$')" 100005
collect "$T/o5" --root "$T/big" --deadline 20
echo "# 100,005-entry folders: wall time ${WALL} ms"
check_eq "big folders: exits 0" "$RCRC" 0
check "big folders: finishes within the deadline (${WALL} ms)" test "$WALL" -lt 20000
check "big folders: identity records the capped listing (E2BIG)" \
	mpy "$B" "assert [e for e in S['identity']['error_list'] if e['errno'] == 'E2BIG' and e['path'].lstrip('/') == 'sys/devices/system/node'], S['identity']"
if "$RC" --list-sources | grep -q '^sysfs'; then
	check "big folders: sysfs stores at most 100,000 of the gids" \
		sh -c "c=\$(tar --zstd -tf '$B' | grep -c 'mlx5_0/ports/1/gids/.'); echo \$c; [ \$c -gt 0 ] && [ \$c -le 100000 ]"
	check "big folders: sysfs records the capped listing (E2BIG)" \
		mpy "$B" "assert [e for e in S['sysfs']['error_list'] if e['errno'] == 'E2BIG' and e['path'].endswith('gids')], S['sysfs']"
fi
rm -rf "$T/big" "$T/o5"

# --- SIGINT while a source is stuck ---
mount_hangfs "$T/root" --hang /proc/uptime
mkdir -p "$T/o6"
"$RC" -q --root "$MNT" --timeout 10 --deadline 20 -o "$T/o6" \
	>"$T/o6.stdout" 2>"$T/o6.stderr" &
pid=$!
sleep 1.5
t0=$(now_ms)
kill -INT "$pid"
wait "$pid"
rc=$?
WALL=$(($(now_ms) - t0))
echo "# SIGINT during a hang: exited ${WALL} ms after the signal"
check_eq "SIGINT: exits 4" "$rc" 4
check "SIGINT: exits promptly (${WALL} ms)" test "$WALL" -lt 3000
check_eq "SIGINT: no bundle and no temp file" "$(ls -A "$T/o6")" ""
unmount_hangfs

# --- SIGKILL while a source is stuck: the source does not outlive it ---
# (a stuck source reparented to init would go on reading the node, and
# hold the node's files, after the collector is gone)
mount_hangfs "$T/root" --hang /proc/uptime
mkdir -p "$T/o7"
"$RC" -q --root "$MNT" --timeout 10 --deadline 20 -o "$T/o7" \
	>"$T/o7.stdout" 2>"$T/o7.stderr" &
pid=$!
sleep 1.5
kids=$(cat /proc/"$pid"/task/*/children 2>/dev/null)
kill -KILL "$pid"
wait "$pid" 2>/dev/null
# alive: a process that is neither gone, nor a zombie, nor killed (a read
# stuck in FUSE ends only when hangfs answers: until then the process
# waits with SIGKILL pending, bit 9 of SigPnd)
alive() {
	for k in "$@"; do
		st=$(awk '{ print $3 }' /proc/"$k"/stat 2>/dev/null)
		[ -n "$st" ] && [ "$st" != Z ] || continue
		pnd=$(awk '$1 == "SigPnd:" { print $2 }' /proc/"$k"/status 2>/dev/null)
		[ -n "$pnd" ] && [ $((0x$pnd & 0x100)) -ne 0 ] && continue
		echo "$k"
	done
}
n=0
while [ -n "$(alive $kids)" ] && [ $n -lt 30 ]; do
	sleep 0.1
	n=$((n + 1))
done
check "SIGKILL: a source was running when the collector was killed" \
	test -n "$kids"
check_eq "SIGKILL: no source outlives the collector" "$(alive $kids)" ""
unmount_hangfs
