# root-links: `rdma-collect --root TREE` reads nothing outside TREE.  A
# tree (an unpacked customer bundle, say) whose files are symlinks to a
# file outside it, absolute or climbing with "..", and whose folders link
# out: the PCI config space (read by libpci before), a sysfs attribute, a
# port's counters folder, /proc/modules, /proc/cmdline, /proc/meminfo,
# the hostname, os-release, nccl.conf, a netdev's mtu, an IOMMU group's
# type.  No byte of the outside file reaches the bundle, with openat2
# (RESOLVE_IN_ROOT) and with the walk by hand that kernels before 5.6 get
# (RDMA_COLLECT_TEST_NO_OPENAT2).
cd "$T" || exit 1
mknode gpu-ndr8 tree >/dev/null 2>&1 || fail "root-links: building the fixture node"
mkdir -p outside/ports/1/counters
CANARY=CANARY-outside-the-root-7f3a
# 4 KiB of it: as long as a config space (libpci reads 64 bytes or none)
i=0
while [ $i -lt 128 ]; do printf '%s\n' "$CANARY"; i=$((i + 1)); done >outside/secret
printf '%s\n' "$CANARY" >outside/ports/1/state
printf '%s\n' "$CANARY" >outside/ports/1/counters/symbol_error
SECRET=$T/outside/secret

# plant REL-PATH: the file at REL-PATH (its real place in the tree) is a
# link to the secret: absolute for even calls, climbing for odd ones
n=0
plant() {
	f=$(cd tree && readlink -f "$1") || return
	case $f in "$T/tree/"*) ;; *) fail "root-links: $1 is outside the tree"; return ;; esac
	rm -f "$f"
	if [ $((n % 2)) -eq 0 ]; then
		ln -s "$SECRET" "$f"
	else
		up=$(dirname "${f#"$T"/}" | sed 's|[^/][^/]*|..|g')
		ln -s "$up/outside/secret" "$f"
	fi
	n=$((n + 1))
}
bdf=$(ls tree/sys/bus/pci/devices | sort | tail -1)
plant "sys/bus/pci/devices/$bdf/config"
plant sys/class/infiniband/mlx5_0/fw_ver
plant sys/class/infiniband/mlx5_0/node_desc
plant proc/modules
plant proc/cmdline
plant proc/meminfo
plant proc/sys/kernel/hostname
plant etc/os-release
plant etc/nccl.conf
nd=$(ls tree/sys/class/net | grep -v '^lo$' | head -1)
plant "sys/class/net/$nd/mtu"
grp=$(ls tree/sys/kernel/iommu_groups | head -1)
[ -f "tree/sys/kernel/iommu_groups/$grp/type" ] && plant "sys/kernel/iommu_groups/$grp/type"
ports=$(cd tree && readlink -f sys/class/infiniband/mlx5_1/ports)
rm -rf "$ports"
ln -s "$T/outside/ports" "$ports"
check "the tree holds $((n + 1)) links out of it" test $n -ge 10

for mode in openat2 walk; do
	if [ $mode = walk ]; then
		export RDMA_COLLECT_TEST_NO_OPENAT2=1
	else
		unset RDMA_COLLECT_TEST_NO_OPENAT2
	fi
	"$RC" -q --root tree -o "$mode.rdma.tar.zst" >"$mode.out" 2>"$mode.err"
	check_eq "$mode: the collector exits 0" "$?" 0
	check_eq "$mode: no byte of the outside file in the bundle" \
		"$(zstd -dcq "$mode.rdma.tar.zst" | grep -ac "$CANARY")" 0
	check "$mode: the rest of the tree is still collected (mlx5_0's board_id)" \
		sh -c "tar --zstd -tf '$mode.rdma.tar.zst' | grep -q 'infiniband/mlx5_0/board_id\$'"
done
unset RDMA_COLLECT_TEST_NO_OPENAT2
check "both ways store the same entries" \
	sh -c "[ \"\$(tar --zstd -tf openat2.rdma.tar.zst | sort)\" = \"\$(tar --zstd -tf walk.rdma.tar.zst | sort)\" ]"
