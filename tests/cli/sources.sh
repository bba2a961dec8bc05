# Each source against the fixture nodes: the evidence it must store, where,
# with which bytes.  (Formats of the fixtures: tests/fixtures/README.md.)
x() { tar --zstd -xOf "$1" "$2" 2>/dev/null; }
has() { tar --zstd -tf "$1" | grep -qx -- "$2"; }
count() { tar --zstd -tf "$1" | grep -c -- "$2"; }

mknode gpu-ndr8 "$T/gpu" >/dev/null 2>&1 || fail "gpu-ndr8 fixture builds"
mknode roce-pfc "$T/roce" >/dev/null 2>&1 || fail "roce-pfc fixture builds"
mknode rxe "$T/rxe" >/dev/null 2>&1 || fail "rxe fixture builds"
printf 'NCCL INFO NET/IB : Using [0]mlx5_0:1/IB\n' >"$T/nccl.log"
g="$T/g.rdma.tar.zst" r="$T/r.rdma.tar.zst" s="$T/s.rdma.tar.zst"
"$RC" -q --root "$T/gpu" -a "$T/nccl.log" -a "$T/nccl.log" -o "$g" >/dev/null
"$RC" -q --root "$T/roce" --sample 1 -o "$r" >/dev/null
"$RC" -q --root "$T/rxe" -o "$s" >/dev/null

# identity
check_eq "identity: hostname stored byte for byte" \
	"$(x "$g" proc/sys/kernel/hostname)" "$(cat "$T/gpu/proc/sys/kernel/hostname")"
check "identity: manifest hostname and kernel from the files" sh -c \
	"tar --zstd -xOf '$g' manifest.json | grep -q '\"kernel_release\": \"$(cat "$T/gpu/proc/sys/kernel/osrelease")\"'"

# pci
check_eq "pci: ok on the GPU node" "$(src_status "$g" pci)" ok
n=$(tar --zstd -tvf "$g" | awk '$NF ~ /\/config$/ && $3 == 4096' | wc -l)
want=$(for d in "$T"/gpu/sys/bus/pci/devices/*; do
	v=$(cat "$d/vendor"); c=$(cat "$d/class")
	case "$v:$c" in 0x15b3:*|0x10de:0x03*) echo "$d";; esac; done | wc -l)
check "pci: 4096-byte config space of every HCA, GPU and bridge ($n >= $want + bridges)" \
	test "$n" -gt "$want"
for f in current_link_speed current_link_width max_link_speed numa_node; do
	check "pci: $f of the HCAs stored" sh -c "test \$(tar --zstd -tf '$g' | grep -c '/$f\$') -ge 8"
done
check "pci: no resource, rom or vpd file" sh -c "! tar --zstd -tf '$g' | grep -Eq '/(resource[0-9_a-z]*|rom|vpd)\$'"
check "pci: bus links are relative symlinks" sh -c \
	"tar --zstd -tvf '$g' | grep 'sys/bus/pci/devices/' | grep -q -- '-> ../../../devices/pci'"
check_eq "pci: absent on the rxe node" "$(src_status "$s" pci)" absent

# modules
check "modules: /proc/modules and mlx5_core's version" sh -c \
	"tar --zstd -tf '$g' | grep -qx proc/modules && tar --zstd -tf '$g' | grep -qx sys/module/mlx5_core/version"
check "modules: rdma_rxe on the rxe node" sh -c "tar --zstd -tf '$s' | grep -q '^sys/module/rdma_rxe/'"

# devnodes (syscall: copied from the root's stored form)
check_eq "devnodes: stored form copied unchanged" \
	"$(x "$g" rdma-collect/devnodes.json | cksum)" "$(cksum <"$T/gpu/rdma-collect/devnodes.json")"

# sysfs
check_eq "sysfs: port state as the kernel prints it" \
	"$(x "$g" sys/class/infiniband/mlx5_0/ports/1/state 2>/dev/null ||
	   tar --zstd -xf "$g" -C "$T" && cat "$T/sys/class/infiniband/mlx5_0/ports/1/state")" "4: ACTIVE"
check_eq "sysfs: 8 devices" "$(tar --zstd -tf "$g" | grep -c '^sys/class/infiniband/mlx5_[0-9]$')" 8
check "sysfs: hw_counters/lifespan read, counters and GIDs stored" sh -c \
	"tar --zstd -tf '$g' | grep -q 'hw_counters/lifespan\$' && tar --zstd -tf '$g' | grep -q 'ports/1/counters/symbol_error\$' && tar --zstd -tf '$g' | grep -q 'ports/1/gids/0\$'"
check "sysfs: uverbs and umad classes" sh -c \
	"tar --zstd -tf '$g' | grep -q '^sys/class/infiniband_verbs/uverbs0\$' && tar --zstd -tf '$g' | grep -q '^sys/class/infiniband_mad/umad0\$'"
check "sysfs: no power/ or uevent" sh -c "! tar --zstd -tf '$g' | grep -q '/power/\|/uevent\$'"
check "ibdev2netdev: the GPU node's 8 ports map to IPoIB netdevs" sh -c \
	"test \$(tar --zstd -xOf '$g' rdma-collect/ibdev2netdev.json | grep -c '\"how\": \"device/net\"') -eq 8"
check "ibdev2netdev: RoCE ports by dev_port" sh -c \
	"tar --zstd -xOf '$r' rdma-collect/ibdev2netdev.json | tr -d ' \n' | grep -q '\"ibdev\":\"mlx5_1\",\"port\":1,\"netdev\":\"ens1f1np1\"'"
check "ibdev2netdev: rxe through parent" sh -c \
	"tar --zstd -xOf '$s' rdma-collect/ibdev2netdev.json | tr -d ' \n' | grep -q '\"ibdev\":\"rxe0\",\"port\":1,\"netdev\":\"eth0\",\"how\":\"parent\"'"
check_eq "sysfs: unused GID slots are not errors" \
	"$(manifest "$s" | tr -d ' \n' | grep -o '"name":"sysfs","status":"[a-z]*"')" '"name":"sysfs","status":"ok"'

# netdev
check "netdev: the RoCE netdevs' ethtool and dcb stored forms" sh -c \
	"tar --zstd -tf '$r' | grep -qx rdma-collect/ethtool/ens1f0np0.json && tar --zstd -tf '$r' | grep -qx rdma-collect/dcb/ens1f0np0.json"
check "netdev: statistics mirrored" sh -c \
	"tar --zstd -tf '$r' | grep -q 'net/ens1f0np0/statistics/rx_bytes\$'"

# klog, limits, iommu, nccl
check "klog: kernel log copied" sh -c "tar --zstd -tf '$g' | grep -qx rdma-collect/klog/kmsg.txt"
check "limits: limits.d, meminfo and huge pages" sh -c \
	"tar --zstd -tf '$g' | grep -qx etc/security/limits.d/99-rdma.conf && tar --zstd -tf '$g' | grep -qx proc/meminfo && tar --zstd -tf '$g' | grep -q '^sys/kernel/mm/hugepages/'"
check "iommu: the HCAs' groups with their type" sh -c \
	"tar --zstd -tf '$g' | grep -q '^sys/kernel/iommu_groups/[0-9]*/type\$'"
check "nccl: /etc/nccl.conf" sh -c "tar --zstd -tf '$g' | grep -qx etc/nccl.conf"

# attach
check_eq "attach: bytes unchanged" "$(x "$g" rdma-collect/attach/nccl.log)" "$(cat "$T/nccl.log")"
check "attach: a repeated name gets .2" sh -c "tar --zstd -tf '$g' | grep -qx rdma-collect/attach/nccl.log.2"

# sample
check_eq "sample: ok with --sample under a root" "$(src_status "$r" sample)" ok
check "sample: second pass of port counters and netdev statistics" sh -c \
	"tar --zstd -tf '$r' | grep -q '^rdma-collect/sample/sys/class/infiniband/mlx5_0/ports/1/counters/' && tar --zstd -tf '$r' | grep -q '^rdma-collect/sample/sys/class/net/ens1f0np0/statistics/'"
first=$(x "$r" rdma-collect/sample/sample.json | tr -d ' \n' | sed 's/.*"first_ms":\([0-9]*\).*/\1/')
second=$(x "$r" rdma-collect/sample/sample.json | tr -d ' \n' | sed 's/.*"second_ms":\([0-9]*\).*/\1/')
check "sample: the second pass is at least the interval after the first ($first ms, $second ms)" \
	test $((second - first)) -ge 1000
