# HCA_MISSING: a Mellanox function on the bus without its RDMA device, or
# fewer RDMA devices than --expect-hcas; the healthy node fires neither
cd "$T" || exit 1
mknode gpu-ndr8 good >/dev/null 2>&1
cp -a good bad
dev=$(readlink -f bad/sys/class/infiniband/mlx5_3)
fn=$(basename "$(dirname "$(dirname "$dev")")")
rm -rf "$dev" bad/sys/class/infiniband/mlx5_3
"$RC" -q --root good -o good.rdma.tar.zst >/dev/null
"$RC" -q --root bad -o bad.rdma.tar.zst >/dev/null
fires() {	# bundle [args]: the HCA_MISSING components, one a line
	b=$1
	shift
	"$RA" report --format json "$@" "$b" 2>/dev/null | python3 -c '
import json, sys
for n in json.load(sys.stdin)["nodes"]:
    for f in n["findings"]:
        if f["rule"] == "HCA_MISSING":
            print(f["component"], f["severity"])'
}
check_eq "healthy node: no HCA_MISSING" "$(fires good.rdma.tar.zst)" ""
check_eq "healthy node with --expect-hcas 8: none" "$(fires good.rdma.tar.zst --expect-hcas 8)" ""
check_eq "a function without its RDMA device: critical, naming the function" \
	"$(fires bad.rdma.tar.zst)" "$fn critical"
check_eq "--expect-hcas 9 on an 8-HCA node: critical on the node" \
	"$(fires good.rdma.tar.zst --expect-hcas 9)" "node critical"
"$RA" report --expect-hcas x good.rdma.tar.zst >/dev/null 2>err
check_eq "a bad --expect-hcas is a usage error (exit 3)" "$?" 3
check "a bad --expect-hcas is refused with its value" grep -q "invalid --expect-hcas 'x'" err
