# redact-markers: identifying values seeded everywhere they can occur --
# sysfs (node_desc, GIDs, node_guid, netdev address), the kernel log, an
# NCCL log (--attach), the environment (a --pid process and a root's
# environ), command outputs (--commands over fake tools that print them),
# limits.conf users, the manifest -- then `--redact`: the bundle unpacked,
# every marker searched in every entry (text and binary, any case), entry
# name and link target: none is left.  Two nodes redacted with one key
# keep one key_id, and `rdma-analyze diff` pairs them with equal
# fingerprints.  Live: this machine's own hostname and addresses, printed
# by the fake commands and held in a --pid process's environment.
cd "$T" || exit 1
export SOURCE_DATE_EPOCH=1764450245
mknode roce-pfc n1 >/dev/null 2>&1 || { fail "mknode roce-pfc"; exit 0; }
# the fixture's own values (tests/fixtures/README.md) and seeded ones
HOST=roce-h12
USER1=zzmarkuser
cat >markers <<EOF2
$HOST
$USER1
192.168.10.21
192.168.11.21
fe80::ba3f:d2ff:fe4a:6c20
b8:3f:d2:4a:6c:20
b8-3f-d2-4a-6c-20
ba3f:d203:004a:6c20
0xba3fd203004a6c20
$(cat n1/etc/machine-id)
EOF2
MARKS="$HOST $USER1 192.168.10.21 fe80::ba3f:d2ff:fe4a:6c20 b8:3f:d2:4a:6c:20 0xba3fd203004a6c20"
printf '%s soft memlock unlimited\n' "$USER1" >n1/etc/security/limits.d/90-mark.conf
printf '6,900,603100000000,-;mlx5_core 0000:17:00.0: host %s user %s addr %s peer %s mac %s guid %s\n' \
	$MARKS >>n1/rdma-collect/klog/kmsg.txt
echo '6,901,603100000001,-;mlx5_core 0000:17:00.0: mac b8-3f-d2-4a-6c-20 node ba3f:d203:004a:6c20' \
	>>n1/rdma-collect/klog/kmsg.txt
printf 'NCCL_SOCKET_IFNAME=ens1f0np0\nNCCL_COMM_ID=192.168.10.21:23456\nMARK_HOST=%s\nMARK_ALL=%s\n' \
	"$HOST" "$(echo $MARKS | tr ' ' ,)" >>n1/rdma-collect/environ/self.env
mkdir -p n1/rdma-collect/commands/ofed_info
printf '%s\n' $MARKS >n1/rdma-collect/commands/ofed_info/stdout
printf '%s:1:1 [0] NCCL INFO Bootstrap : Using ens1f0np0:192.168.10.21<0> host %s user %s mac %s guid %s\n' \
	"$HOST" "$HOST" "$USER1" b8:3f:d2:4a:6c:20 0xba3fd203004a6c20 >"nccl.$HOST.log"

# every marker in every place of an unpacked bundle: contents (also
# binary), entry names and link targets, any case, as whole words the way
# the redactor bounds them (not inside [A-Za-z0-9_-]: "vm" is no leak in
# "VmRSS"; BUNDLE.md's known limits); prints "file: marker" per hit
leaks() {	# DIR BUNDLE MARKERFILE
	tar --zstd -tvf "$2" >"$1.names"
	find "$1" -type l -exec readlink {} \; >>"$1.names"
	python3 - "$1" "$1.names" "$3" <<'PY'
import os, re, sys
d, names, mf = sys.argv[1:4]
ms = [m for m in open(mf).read().split("\n") if m]
rx = re.compile(rb"(?<![A-Za-z0-9_-])(" + b"|".join(
    re.escape(m.encode()) for m in sorted(ms, key=len, reverse=True)) +
    rb")(?![A-Za-z0-9_-])", re.I)
files = [names] + [os.path.join(r, f) for r, _, fs in os.walk(d) for f in fs]
for f in files:
    if os.path.islink(f):
        continue
    for m in sorted({x.group(1).decode("latin1") for x in rx.finditer(open(f, "rb").read())}):
        print("%s: %s" % (f, m))
PY
}
# sanity: the plain bundle holds every marker (the search can fail)
mkdir -p plain xp red xr
"$RC" -q --root n1 -o plain --commands --attach "nccl.$HOST.log" >/dev/null 2>&1
tar --zstd -xf plain/*.rdma.tar.zst -C xp
check_eq "plain bundle: every marker is there to be found" \
	"$(for m in $(cat markers); do grep -rqaiF -- "$m" xp || echo "$m"; done)" ""

"$RC" -q --root n1 -o red --redact-key "$T/key" --commands --attach "nccl.$HOST.log" >red.out 2>red.err
check_eq "fixture --redact: exit 0" "$?" 0
B1=$(cat red.out)
tar --zstd -xf "$B1" -C xr
n=$(find xr -type f | wc -l)
hits=$(leaks xr "$B1" markers)
check_eq "fixture: no marker in any of $n entries, names or link targets" "$(echo "$hits" | head -10)" ""
check "fixture: the seeded places are in the bundle (klog, environ, commands, attach, limits)" \
	sh -c "grep -q 'user user-' xr/rdma-collect/klog/kmsg.txt &&
	       grep -q '^MARK_HOST=env-' xr/rdma-collect/environ/self.env &&
	       test -s xr/rdma-collect/commands/ofed_info/stdout &&
	       ls xr/rdma-collect/attach/ | grep -q 'nccl.host-' &&
	       grep -q '^user-' xr/etc/security/limits.d/90-mark.conf"

# two nodes, one key: same key_id, diff pairs them, fingerprints equal
cp -a n1 n2
echo roce-h13 >n2/proc/sys/kernel/hostname
sed -i "s/$HOST/roce-h13/g" n2/rdma-collect/environ/self.env
echo 0123456789abcdef0123456789abcdef >n2/etc/machine-id
mkdir -p red2
"$RC" -q --root n2 -o red2 --redact-key "$T/key" --commands --attach "nccl.$HOST.log" >red2.out 2>&1
B2=$(cat red2.out)
check_eq "two nodes: the same key_id" \
	"$(manifest "$B1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["redaction"]["key_id"])')" \
	"$(manifest "$B2" | python3 -c 'import json,sys; print(json.load(sys.stdin)["redaction"]["key_id"])')"
check "two nodes: different host pseudonyms" \
	test "$(basename "$B1" | cut -d- -f2)" != "$(basename "$B2" | cut -d- -f2)"
"$RA" diff --json "$B1" "$B2" >diff.json 2>diff.err
rc=$?
check "two nodes: rdma-analyze diff pairs them (exit $rc), no fingerprint attribute differs" \
	python3 - diff.json "$B1" "$B2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = json.dumps(d)
assert "host-" in s, s[:300]
# without --all, "attributes" lists only the attributes that differ
assert not d["attributes"], d["attributes"][:5]
print("pseudonyms %s and %s" % (d["a"], d["b"]) if isinstance(d["a"], str) else "paired")
PY
sed 's/^/# /' "$T/.check.out" | head -3

# live, as root: this machine's names and addresses, printed by the fake
# commands and held in a --pid process's environment
if [ "$(id -u)" -ne 0 ]; then
	skip "redact-markers: live" "not root"
	exit 0
fi
H=$(cat /proc/sys/kernel/hostname)
{
	echo "$H"
	ip -o -4 addr show scope global 2>/dev/null | awk '{ sub(/\/.*/, "", $4); print $4 }'
	for a in /sys/class/net/*/address; do
		m=$(cat "$a")
		case $m in 00:00:00:00:00:00|"") ;; *) [ ${#m} -eq 17 ] && echo "$m" ;; esac
	done
} | sort -u | grep -v '^127\.' >live.markers
mkdir -p bin
for a in ofed_info mst ibdev2netdev rdma lldpcli nvidia-smi mlxlink mlxconfig mlxfwmanager; do
	{ echo '#!/bin/sh'; sed 's/^/echo "host: /; s/$/ ok"/' live.markers; } >"bin/$a"
	chmod +x "bin/$a"
done
env NCCL_SOCKET_IFNAME=eth0 NCCL_COMM_ID="$(sed -n 2p live.markers):1234" \
	MARK_HOST="$H" sleep 60 &
spid=$!
mkdir -p live xl
"$RC" -q -o live --redact-key "$T/key" --commands --command-path "$T/bin" \
	--pid "$spid" >live.out 2>live.err
rc=$?
kill "$spid" 2>/dev/null
check_eq "live --redact: exit 0" "$rc" 0
BL=$(cat live.out)
tar --zstd -xf "$BL" -C xl
check "live: the fake commands' output and the --pid environment are in the bundle" \
	sh -c "ls xl/rdma-collect/commands/ofed_info/stdout && ls xl/rdma-collect/environ/ | grep -q ."
hits=$(leaks xl "$BL" live.markers)
check_eq "live: none of this machine's $(wc -l <live.markers) names and addresses is left" "$(echo "$hits" | head -10)" ""
