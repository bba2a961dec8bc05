# --redact: a node tree full of identifying values goes in; no value, in
# any spelling, comes out anywhere in the bundle (contents, entry names,
# link targets, manifest); same key, same pseudonyms; another key, others.
cd "$T" || exit 1
R=$T/root
D=$R/sys/devices/pci0000:00/0000:00:02.0/0000:b1:00.0/infiniband/mlx5_0
mkdir -p "$R/proc/sys/kernel/random" "$R/etc/security/limits.d" \
	"$R/rdma-collect/environ" "$D/ports/1/gids" \
	"$D/ports/1/gid_attrs/types" "$R/sys/class/infiniband"
echo gpu01.example.com >"$R/proc/sys/kernel/hostname"
echo gpu01 >"$R/etc/hostname"
echo 0f1e2d3c4b5a69788796a5b4c3d2e1f0 >"$R/etc/machine-id"
echo 6.1.0-27-amd64 >"$R/proc/sys/kernel/osrelease"
ln -s ../../devices/pci0000:00/0000:00:02.0/0000:b1:00.0/infiniband/mlx5_0 \
	"$R/sys/class/infiniband/mlx5_0"
echo 0e42:a1ff:fe5d:4db8 >"$D/node_guid"
echo 0002:c903:00a1:b2c3 >"$D/sys_image_guid"
echo 28.41.1000 >"$D/fw_ver"
echo "gpu01 mlx5_0" >"$D/node_desc"
echo "1: CA" >"$D/node_type"
echo "4: ACTIVE" >"$D/ports/1/state"
echo fe80:0000:0000:0000:0e42:a1ff:fe5d:4db8 >"$D/ports/1/gids/0"
echo fe80:0000:0000:0000:0e42:a1ff:fe5d:4db8 >"$D/ports/1/gids/1"
echo 0000:0000:0000:0000:0000:ffff:0a00:000a >"$D/ports/1/gids/2"
echo 0000:0000:0000:0000:0000:ffff:0a00:000a >"$D/ports/1/gids/3"
echo "IB/RoCE v1" >"$D/ports/1/gid_attrs/types/0"
printf '# memlock for the training user alice\nalice soft memlock unlimited\nalice hard memlock unlimited\n@rdma - memlock unlimited\n* soft nofile 65536\n' \
	>"$R/etc/security/limits.d/99-rdma.conf"
printf 'NCCL_IB_HCA=mlx5_0,mlx5_1\nNCCL_SOCKET_IFNAME=ens1f0np0\nNCCL_DEBUG_FILE=/home/alice/nccl.%%h.log\nNCCL_COMM_ID=10.0.0.10:23456\nOMPI_MCA_orte_hnp_uri=secret-token-xyz\n' \
	>"$R/rdma-collect/environ/self.env"
# every value of the node, in every spelling, as a log would show them
cat >nccl.gpu01.log <<'EOF'
NCCL INFO gpu01:1234:1234 [0] NET/IB : Using [0]mlx5_0:1/RoCE [RO]; OOB ens1f0np0:10.0.0.10<0>
NCCL INFO Bootstrap : Using ens1f0np0:10.0.0.10<0> peer 192.168.7.21:4791
host gpu01.example.com (GPU01) user alice machine 0f1e2d3c4b5a69788796a5b4c3d2e1f0
node guid 0x0e42a1fffe5d4db8 0E42:A1FF:FE5D:4DB8 sys image 0x0002c90300a1b2c3
mac 0c:42:a1:5d:4d:b8 0C-42-A1-5D-4D-B8 netdev enx0c42a15d4db8
gid fe80::e42:a1ff:fe5d:4db8 ::ffff:10.0.0.10 fe80::2:c903:a1:b2c3
ipoib 80:00:02:08:fe:80:00:00:00:00:00:00:00:02:c9:03:00:a1:b2:c3
 GID: 254:128:00:00:00:00:00:00:12:66:161:255:254:93:77:184
 GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:00:00:10
node description gpu01 mlx5_0
fw 28.41.1000 kernel 6.1.0-27-amd64 pci 0000:b1:00.0 at 21:04:05
EOF
# the originals, fixed strings matched without regard to case
cat >originals <<'EOF'
gpu01
example.com
alice
0f1e2d3c4b5a69788796a5b4c3d2e1f0
10.0.0.10
192.168.7.21
0a00:000a
:10:00:00:10
0e42:a1ff:fe5d:4db8
0e42a1fffe5d4db8
fe5d:4db8
5d:4d:b8
5d-4d-b8
0c42a15d4db8
93:77:184
0002:c903:00a1:b2c3
0002c90300a1b2c3
c903:a1:b2c3
a1:b2:c3
secret-token-xyz
EOF

attach=
if "$RC" --list-sources | grep -q '^attach '; then
	attach="--attach $T/nccl.gpu01.log"
else
	skip "redact: attached log" "no attach source in this build"
fi
export SOURCE_DATE_EPOCH=1764450245
mkdir -p o1 o2 o3 o4
# shellcheck disable=SC2086
"$RC" -q --root "$R" --redact-key "$T/k" -o "$T/o1" $attach >out1 2>err1
check_eq "--redact run exits 0" "$?" 0
b1=$(cat out1)
check "a missing --redact-key file is created, mode 0600, 64 hex digits" \
	sh -c "[ \"\$(stat -c %a '$T/k')\" = 600 ] &&
	       grep -Eqx '[0-9a-f]{64}' '$T/k'"
check "the key file is announced on stderr" grep -q "key written to $T/k" err1
check "bundle named after the pseudonym: host-xxxxxxxx-<time>" \
	sh -c "basename '$b1' | grep -Eq '^host-[0-9a-f]{8}-[0-9]{8}T[0-9]{6}Z\.rdma\.tar\.zst$'"

mkdir x1
tar --zstd -xf "$b1" -C x1
n=$(tar --zstd -tf "$b1" | wc -l)
echo "# bundle holds $n entries"
{
	tar --zstd -tvf "$b1"	# entry names and link targets
	find x1 -type l -exec readlink {} \;
} >names1
hits=$(grep -rail -F -f originals x1 names1)
check_eq "no original value in any entry, name or link target" \
	"$hits" ""
if [ -n "$hits" ]; then
	grep -raio -F -f originals x1 names1 | sort -u | head -20 |
		sed 's/^/#   /'
fi

check "manifest: redaction enabled, key_id = SHA-256(key)[:16]" \
	python3 -c "
import json, hashlib, sys
m = json.load(open('x1/manifest.json'))
key = bytes.fromhex(open('$T/k').read().strip())
r = m['redaction']
assert r['enabled'] is True, r
assert r['key_id'] == hashlib.sha256(key).hexdigest()[:16], r
assert m['hostname'].startswith('host-'), m['hostname']
assert m['machine_id'] is None or len(m['machine_id']) == 32
"
check "evidence kept: kernel release unchanged" \
	grep -qx 6.1.0-27-amd64 x1/proc/sys/kernel/osrelease
check "limits: '@rdma' and '*' kept, the user replaced" \
	sh -c "grep -q '^@rdma - memlock' x1/etc/security/limits.d/99-rdma.conf &&
	       grep -q '^\* soft nofile' x1/etc/security/limits.d/99-rdma.conf &&
	       grep -Eq '^user-[0-9a-f]{8} soft memlock' x1/etc/security/limits.d/99-rdma.conf"
check "machine-id: 32 hex digits" grep -Eqx '[0-9a-f]{32}' x1/etc/machine-id
if [ -f x1/rdma-collect/environ/self.env ]; then
	check "environment: allowlisted knobs kept, other values replaced" \
		sh -c "grep -qx 'NCCL_IB_HCA=mlx5_0,mlx5_1' x1/rdma-collect/environ/self.env &&
		       grep -qx 'NCCL_SOCKET_IFNAME=ens1f0np0' x1/rdma-collect/environ/self.env &&
		       grep -Eqx 'NCCL_DEBUG_FILE=env-[0-9a-f]{8}' x1/rdma-collect/environ/self.env &&
		       grep -Eqx 'NCCL_COMM_ID=env-[0-9a-f]{8}' x1/rdma-collect/environ/self.env"
else
	skip "redact: environment" "rdma-collect/environ/self.env not collected"
fi
S=sys/devices/pci0000:00/0000:00:02.0/0000:b1:00.0/infiniband/mlx5_0
if [ -f "x1/$S/node_guid" ]; then
	check "sysfs: fw_ver, state kept; node_desc a nodedesc- pseudonym" \
		sh -c "grep -qx 28.41.1000 'x1/$S/fw_ver' &&
		       grep -qx '4: ACTIVE' 'x1/$S/ports/1/state' &&
		       grep -Eqx 'nodedesc-[0-9a-f]{8}' 'x1/$S/node_desc'"
	check "sysfs: the GUID keeps its OUI and form, gids/0 holds it" \
		sh -c "g=\$(cat 'x1/$S/node_guid');
		       echo \"\$g\" | grep -Eqx '0e42:a1ff:fe[0-9a-f]{2}:[0-9a-f]{4}' &&
		       grep -qx \"fe80:0000:0000:0000:\$g\" 'x1/$S/ports/1/gids/0'"
	if [ -n "$attach" ]; then
		check "the IPv4 in the GID is the IPv4 in the log" \
			sh -c "g=\$(cat 'x1/$S/ports/1/gids/2');
			       ip=\$(python3 -c \"import ipaddress,sys; print(ipaddress.ip_address(bytes.fromhex(sys.argv[1].replace(':',''))[12:]))\" \"\$g\");
			       grep -q \"OOB ens1f0np0:\$ip<0>\" x1/rdma-collect/attach/nccl.*.log"
		check "the GUID in the GID is the GUID in the log" \
			sh -c "g=\$(cat 'x1/$S/node_guid' | tr -d :);
			       grep -q \"node guid 0x\$g \" x1/rdma-collect/attach/nccl.*.log"
	fi
	check "symlink target kept" \
		sh -c "readlink x1/sys/class/infiniband/mlx5_0 | grep -q '0000:b1:00.0/infiniband/mlx5_0$'"
else
	skip "redact: sysfs checks" "sysfs files not collected under --root"
fi
if [ -n "$attach" ]; then
	check "the attachment's name lost the hostname" \
		sh -c "ls x1/rdma-collect/attach | grep -Eqx 'nccl.host-[0-9a-f]{8}.log'"
	check "untouched evidence in the log: versions, PCI address, time" \
		grep -q 'fw 28.41.1000 kernel 6.1.0-27-amd64 pci 0000:b1:00.0 at 21:04:05' \
		x1/rdma-collect/attach/nccl.*.log
fi

# the same key: the same bundle contents
# shellcheck disable=SC2086
"$RC" -q --root "$R" --redact-key "$T/k" -o "$T/o2" $attach >out2 2>err2
b2=$(cat out2)
mkdir x2
tar --zstd -xf "$b2" -C x2
check_eq "same key: same bundle name" "$(basename "$b2")" "$(basename "$b1")"
check "same key: same pseudonyms in every entry" \
	diff -r -x manifest.json x1 x2
check "an existing key file is not announced again" sh -c "! grep -q 'key written' err2"

# another key: other pseudonyms
# shellcheck disable=SC2086
"$RC" -q --root "$R" --redact-key "$T/k3" -o "$T/o3" $attach >out3 2>err3
b3=$(cat out3)
mkdir x3
tar --zstd -xf "$b3" -C x3
check "another key: another hostname pseudonym" \
	sh -c "[ '$(basename "$b3")' != '$(basename "$b1")' ]"
check "another key: other pseudonyms in the entries" \
	sh -c "! diff -r -x manifest.json x1 x3 >/dev/null"

# no --redact-key: a new key beside the bundle as <bundle>.key
"$RC" -q --root "$R" --redact -o "$T/o4" >out4 2>err4
check_eq "--redact without a key exits 0" "$?" 0
b4=$(cat out4)
check "the default key is <bundle>.key, mode 0600, announced" \
	sh -c "[ -f '$b4.key' ] && [ \"\$(stat -c %a '$b4.key')\" = 600 ] &&
	       grep -q 'key written to $b4.key' err4 &&
	       grep -q 'do not attach it' err4"

# a broken key file: a usage error, no bundle
printf 'short' >"$T/bad"
mkdir o5
"$RC" -q --root "$R" --redact-key "$T/bad" -o "$T/o5" >out5 2>err5
check_eq "a bad key file is a usage error (exit 2)" "$?" 2
check "... with a one-line message and no bundle" \
	sh -c "[ \$(wc -l <err5) -eq 1 ] && grep -q 'redaction key file' err5 &&
	       [ -z \"\$(ls o5)\" ]"

# a whole fixture node: every address, GUID, MAC and name found in the plain
# bundle is gone from the redacted one, and nothing else changed
if [ -x "$FIXTURES/mknode.sh" ] && mknode roce-pfc "$T/rp" >/dev/null 2>&1; then
	mkdir p6 r6 xp xr
	"$RC" -q --root "$T/rp" -o "$T/p6" >out6 2>&1 &&
		"$RC" -q --root "$T/rp" --redact-key "$T/k" -o "$T/r6" >>out6 2>&1
	check_eq "fixture roce-pfc: plain and redacted runs exit 0" "$?" 0
	tar --zstd -xf p6/*.rdma.tar.zst -C xp
	tar --zstd -xf r6/*.rdma.tar.zst -C xr
	check "fixture roce-pfc: no identifying value survives, evidence intact" \
		python3 - "$T/xp" "$T/xr" <<'PY'
import ipaddress, os, re, sys
a, b = sys.argv[1], sys.argv[2]
def walk(root):
    out = {}
    for d, dirs, files in os.walk(root):
        for f in files + dirs:
            p = os.path.join(d, f)
            rel = os.path.relpath(p, root)
            if os.path.islink(p):
                out[rel] = os.readlink(p).encode()
            elif os.path.isfile(p):
                out[rel] = open(p, 'rb').read()
    return out
A, B = walk(a), walk(b)
text = b'\n'.join(v for v in A.values() if b'\0' not in v).decode('latin1')
secrets = set()
for m in re.finditer(r'(?<![\w.-])(\d{1,3}(?:\.\d{1,3}){3})(?![\w-]|\.\w)', text):
    try:
        ip = ipaddress.ip_address(m.group(1))
    except ValueError:
        continue
    if not (ip.is_loopback or ip.is_multicast or ip.is_unspecified or
            ip.is_reserved or str(ip).startswith('0.') or
            str(ip).startswith('255.')):
        secrets.add(m.group(1))
secrets |= set(re.findall(r'(?i)\b(?:[0-9a-f]{2}:){5}[0-9a-f]{2}\b', text)) - {
    '00:00:00:00:00:00', 'ff:ff:ff:ff:ff:ff'}
secrets |= {g for g in re.findall(r'(?i)\b[0-9a-f]{4}:[0-9a-f]{4}:[0-9a-f]{4}:[0-9a-f]{4}\b', text)
            if not g.startswith('0000') and not g.endswith('0000:0000')}
host = A['proc/sys/kernel/hostname'].decode().strip()
secrets.add(host)
secrets.discard('')
found = [s for s in secrets for k, v in B.items()
         if s.lower().encode() in v.lower() or s.lower() in k.lower()]
assert not found, 'left: %s' % sorted(set(found))[:10]
assert set(A) == set(B), 'entry names differ'
changed = [k for k in A if A[k] != B[k] and k != 'manifest.json']
bad = [k for k in changed if re.search(r'counters|fw_ver|state|rate|mtu|pkeys|hw_rev|'
                                         r'ethtool|dcb|modules|cmdline|os-release', k)]
assert not bad, 'evidence changed: %s' % bad[:5]
assert len(secrets) >= 5 and changed, (len(secrets), len(changed))
print('%d values hidden, %d of %d entries changed' % (len(secrets), len(changed), len(A)))
PY
	sed 's/^/# /' "$T/.check.out"
else
	skip "redact: fixture node" "tests/fixtures/mknode.sh roce-pfc not available"
fi
