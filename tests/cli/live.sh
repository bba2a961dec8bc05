# rdma-collect on this very machine (no RDMA here): it succeeds, writes one
# bundle whose first entry is the manifest, and records RDMA as absent.
cd "$T" || exit 1
"$RC" -q -o "$T" >out.txt 2>err.txt
check_eq "live run exits 0" "$?" 0
b=$(cat out.txt)
check "bundle named host-UTCtime.rdma.tar.zst" \
	sh -c "echo '$b' | grep -Eq '/[A-Za-z0-9._-]+-[0-9]{8}T[0-9]{6}Z\.rdma\.tar\.zst$'"
check "no temp file left behind" sh -c "! ls -a '$T' | grep -q '\.tmp\.'"
first=$(tar --zstd -tf "$b" | head -1)
check_eq "manifest.json is the first entry" "$first" manifest.json
check "manifest is valid JSON with format_version 1" \
	sh -c "tar --zstd -xOf '$b' manifest.json | python3 -c 'import json,sys; m=json.load(sys.stdin); assert m[\"format_version\"]==1 and m[\"format\"]==\"rdma-collect-bundle\"'"
check_eq "identity source ok" "$(src_status "$b" identity)" ok
# this machine has no RDMA: the manifest must say so, source by source
for s in sysfs devnodes verbs; do
	check_eq "no RDMA here: $s absent" "$(src_status "$b" $s)" absent
done
if ! grep -qs '0x15b3' /sys/bus/pci/devices/*/vendor; then
	check_eq "no Mellanox function here: pci absent" "$(src_status "$b" pci)" absent
fi
check "sysfs reason says there is no RDMA device" sh -c \
	"tar --zstd -xOf '$b' manifest.json | grep -q 'no RDMA device'"
check "nothing timed out or failed" sh -c \
	"! tar --zstd -xOf '$b' manifest.json | grep -q '\"status\": \"\\(timeout\\|error\\)\"'"
check "rdma-analyze lists the live bundle" sh -c "'$RA' list '$b' | grep -q 'bundle format 1'"
check "manifest libraries: each of the four rdma-core libraries probed" sh -c "
	tar --zstd -xOf '$b' manifest.json | python3 -c '
import json, sys
libs = json.load(sys.stdin)[\"libraries\"]
for n in (\"libibverbs\", \"libibumad\", \"libibmad\", \"libibnetdisc\"):
    st = libs[n][\"status\"]
    assert st == \"ok\" or st.startswith(\"absent: \"), (n, st)
'"
