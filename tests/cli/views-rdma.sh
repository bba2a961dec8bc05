# views-rdma: `show ... rdma link show` against iproute2's format
# (rdma/link.c) for the fixtures' sysfs values: an InfiniBand port has its
# subnet prefix (GID 0), LID 0x4a1 = 1185, SM LID and LMC; an Ethernet
# port its netdev; every field ends with a space.  A live Soft-RoCE guest
# compares it with the real tool (tests/cli/vm.sh).

mknode gpu-ndr8 "$T/gpu" >/dev/null 2>&1 || fail "gpu-ndr8 fixture builds"
mknode roce-pfc "$T/roce" >/dev/null 2>&1 || fail "roce-pfc fixture builds"
mknode rxe "$T/rxe" >/dev/null 2>&1 || fail "rxe fixture builds"
g=$T/g.rdma.tar.zst r=$T/r.rdma.tar.zst s=$T/s.rdma.tar.zst
"$RC" -q --root "$T/gpu" -o "$g" >/dev/null 2>&1
"$RC" -q --root "$T/roce" -o "$r" >/dev/null 2>&1
"$RC" -q --root "$T/rxe" -o "$s" >/dev/null 2>&1

check_eq "rdma link: an InfiniBand port" \
	"$("$RA" show "$g" rdma link show mlx5_0)" \
	"link mlx5_0/1 subnet_prefix fe80:0000:0000:0000 lid 1185 sm_lid 1 lmc 0 state ACTIVE physical_state LINK_UP "
check_eq "rdma link: every port of the 8-HCA node, in device order" \
	"$("$RA" show "$g" rdma link | cut -d' ' -f2 | tr '\n' ' ')" \
	"mlx5_0/1 mlx5_1/1 mlx5_2/1 mlx5_3/1 mlx5_4/1 mlx5_5/1 mlx5_6/1 mlx5_7/1 "
check_eq "rdma link: RoCE ports with their netdevs" "$("$RA" show "$r" rdma link)" \
"link mlx5_0/1 state ACTIVE physical_state LINK_UP netdev ens1f0np0 
link mlx5_1/1 state ACTIVE physical_state LINK_UP netdev ens1f1np1 "
check_eq "rdma link show DEV/PORT: the rxe node" \
	"$("$RA" show "$s" rdma link show rxe0/1)" \
	"link rxe0/1 state ACTIVE physical_state LINK_UP netdev eth0 "
check "rdma link show: a port that is not there is an error" sh -c \
	"! '$RA' show '$s' rdma link show rxe0/2 >/dev/null 2>&1"
check "rdma: only link is a view" sh -c \
	"! '$RA' show '$s' rdma dev >/dev/null 2>&1"
