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

# pasted evidence without the PCI functions: the kernel log's probe
# lines name the ConnectX functions; with no RDMA device at all each is
# missing its device, with some RDMA device which is whose is unknown
mkdir klog-none klog-some
printf '[    3.1] mlx5_core 0000:3b:00.0: firmware version: 28.39.1002\n[    3.4] mlx5_core 0000:3b:00.0: Port module event: module 0, Cable plugged\n' \
	>klog-none/dmesg.txt
cp klog-none/dmesg.txt klog-some/
printf "Fatal error:  device '*': sys files not found (/sys/class/infiniband/*/ports)\n" \
	>klog-none/ibstatus.txt
printf "CA 'mlx5_0'\n\tCA type: MT4129\n\tNumber of ports: 1\n\tPort 1:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n\t\tRate: 400\n\t\tLink layer: InfiniBand\n" \
	>klog-some/ibstat.txt
check_eq "dmesg probe lines, no RDMA device: the function is missing its device" \
	"$(fires klog-none)" "0000:3b:00.0 critical"
check_eq "... with an RDMA device beside them: not judged from the log" \
	"$(fires klog-some)" ""
