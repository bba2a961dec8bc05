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
