# Layer 3 (sm) and 4 (verbs) rules: each fault injected into a fixture
# tree, collected, diagnosed; the healthy fixtures fire nothing at warning
# or above from these rules
cd "$T" || exit 1

MINE="PORT_DOWN MTU_BELOW_MAX ROCE_NO_V2_IPV4_GID ROCE_V1_ONLY NCCL_GID_INDEX_BAD SM_ABSENT SM_NOT_MASTER LID_UNASSIGNED"


for k in gpu-ndr8 roce-pfc rxe; do
	mknode "$k" "$k" >/dev/null 2>&1 || fail "$k fixture builds"
	collect "$k" "$k.rdma.tar.zst"
	check_eq "healthy $k: nothing at warning or above from the verbs/sm rules" \
		"$(loud "$k.rdma.tar.zst")" ""
done
check_eq "healthy roce-pfc: netdev MTU 9000, active_mtu 4096: no MTU finding" \
	"$(sev roce-pfc.rdma.tar.zst MTU_BELOW_MAX mlx5_0:1)" none
check_eq "healthy rxe: netdev MTU 9000, active_mtu 4096: no MTU finding" \
	"$(sev rxe.rdma.tar.zst MTU_BELOW_MAX rxe0:1)" none
cp -a rxe rx1500
printf '1500\n' >rx1500/sys/class/net/eth0/mtu
setjson rx1500/rdma-collect/verbs/rxe0.json 'd["ports"][0]["active_mtu"] = 3'
collect rx1500 rx1500.rdma.tar.zst
check_eq "rxe at the Ethernet default MTU 1500: active_mtu 1024 < 4096: warning" \
	"$(sev rx1500.rdma.tar.zst MTU_BELOW_MAX rxe0:1)" warning
check "rxe: the warning names the netdev MTU and jumbo frames" sh -c \
	"echo '$(summary rx1500.rdma.tar.zst MTU_BELOW_MAX rxe0:1)' | grep -q 'netdev eth0 MTU 1500 limits the RDMA MTU of rxe0:1 to 1024.*jumbo frames'"
"$RA" report --format json gpu-ndr8.rdma.tar.zst 2>/dev/null >rep.json
check "SM_NOT_MASTER is skipped: no MAD evidence in bundles" python3 -c '
import json, sys
d = json.load(open("rep.json"))
s = [x for n in d["nodes"] for x in n["skipped"] if x["rule"] == "SM_NOT_MASTER"]
assert s and "mad" in s[0]["reason"], s'

# --- InfiniBand faults on gpu-ndr8: one port each
cp -a gpu-ndr8 g
S=g/sys/class/infiniband
printf '1: DOWN\n' >$S/mlx5_1/ports/1/state
printf '3: Disabled\n' >$S/mlx5_1/ports/1/phys_state
printf '1: DOWN\n' >$S/mlx5_2/ports/1/state
printf '2: Polling\n' >$S/mlx5_2/ports/1/phys_state
printf '2: INIT\n' >$S/mlx5_3/ports/1/state
printf '0x0\n' >$S/mlx5_5/ports/1/sm_lid
printf '0x0\n' >$S/mlx5_6/ports/1/lid
printf '1: DOWN\n' >$S/mlx5_0/ports/1/state
printf '1: Sleep\n' >$S/mlx5_0/ports/1/phys_state
setjson g/rdma-collect/verbs/mlx5_7.json 'd["ports"][0]["active_mtu"] = 4'
collect g g.rdma.tar.zst
b=g.rdma.tar.zst
check_eq "PORT_DOWN: Disabled is info" "$(sev $b PORT_DOWN mlx5_1:1)" info
check_eq "PORT_DOWN: Down/Polling with a cable plugged (kernel log) is critical" \
	"$(sev $b PORT_DOWN mlx5_2:1)" critical
# the same port after "Cable unplugged": no cable, down on purpose
pci2=$(basename "$(readlink -f g/sys/class/infiniband/mlx5_2/device)")
printf '6,9999,99000000,-;mlx5_core %s: Port module event: module 0, Cable unplugged\n SUBSYSTEM=pci\n DEVICE=+pci:%s\n' \
	"$pci2" "$pci2" >>g/rdma-collect/klog/kmsg.txt
collect g g2.rdma.tar.zst
check_eq "PORT_DOWN: Down/Polling after Cable unplugged is info" \
	"$(sev g2.rdma.tar.zst PORT_DOWN mlx5_2:1)" info
check_eq "PORT_DOWN: INIT is critical" "$(sev $b PORT_DOWN mlx5_3:1)" critical
check_eq "PORT_DOWN: Down/Sleep is critical" "$(sev $b PORT_DOWN mlx5_0:1)" critical
check_eq "PORT_DOWN: ACTIVE ports do not fire" "$(sev $b PORT_DOWN mlx5_4:1)" none
check_eq "SM_ABSENT: port stuck in INIT" "$(sev $b SM_ABSENT mlx5_3:1)" critical
check_eq "SM_ABSENT: ACTIVE with sm_lid 0" "$(sev $b SM_ABSENT mlx5_5:1)" critical
check_eq "SM_ABSENT: a disabled port is not an SM problem" "$(sev $b SM_ABSENT mlx5_1:1)" none
check_eq "LID_UNASSIGNED: ACTIVE with LID 0" "$(sev $b LID_UNASSIGNED mlx5_6:1)" critical
check_eq "LID_UNASSIGNED: healthy port" "$(sev $b LID_UNASSIGNED mlx5_4:1)" none
check_eq "MTU_BELOW_MAX: InfiniBand active_mtu 2048 < 4096 is warning" \
	"$(sev $b MTU_BELOW_MAX mlx5_7:1)" warning
check_eq "MTU_BELOW_MAX: IB ports with 4096 do not fire" "$(sev $b MTU_BELOW_MAX mlx5_4:1)" none

# --- RoCE: MTU, GIDs, NCCL_IB_GID_INDEX on roce-pfc
cp -a roce-pfc r
S=r/sys/class/infiniband
printf '1500\n' >r/sys/class/net/ens1f0np0/mtu
setjson r/rdma-collect/verbs/mlx5_0.json 'd["ports"][0]["active_mtu"] = 3'
setjson r/rdma-collect/verbs/mlx5_1.json 'd["ports"][0]["active_mtu"] = 3'
# mlx5_0: the RoCE v2 IPv4 GID (index 3) gone; mlx5_1: all GIDs RoCE v1
printf '0000:0000:0000:0000:0000:0000:0000:0000\n' >$S/mlx5_0/ports/1/gids/3
rm -f $S/mlx5_0/ports/1/gid_attrs/types/3 $S/mlx5_0/ports/1/gid_attrs/ndevs/3
printf 'IB/RoCE v1\n' >$S/mlx5_1/ports/1/gid_attrs/types/1
printf 'IB/RoCE v1\n' >$S/mlx5_1/ports/1/gid_attrs/types/3
printf 'NCCL_IB_GID_INDEX=-1\nNCCL_IB_TC=106\n' >r/rdma-collect/environ/self.env
collect r r.rdma.tar.zst
b=r.rdma.tar.zst
check_eq "MTU_BELOW_MAX RoCE: netdev MTU 1500 allows only 1024: warning (CHECKS.md)" \
	"$(sev $b MTU_BELOW_MAX mlx5_0:1)" warning
check_eq "MTU_BELOW_MAX RoCE: MTU 9000 allows 4096, active 1024: warning" \
	"$(sev $b MTU_BELOW_MAX mlx5_1:1)" warning
check "MTU_BELOW_MAX RoCE warning says what the netdev allows" sh -c \
	"echo '$(summary $b MTU_BELOW_MAX mlx5_1:1)' | grep -q 'below the 4096 that netdev ens1f1np1 MTU 9000 allows'"
check_eq "ROCE_NO_V2_IPV4_GID: v2 IPv4 GID missing" \
	"$(sev $b ROCE_NO_V2_IPV4_GID mlx5_0:1)" critical
check_eq "ROCE_NO_V2_IPV4_GID: only v1 GIDs" "$(sev $b ROCE_NO_V2_IPV4_GID mlx5_1:1)" critical
check_eq "ROCE_V1_ONLY: only v1 GIDs" "$(sev $b ROCE_V1_ONLY mlx5_1:1)" warning
check_eq "ROCE_V1_ONLY: a port with a v2 GID does not fire" "$(sev $b ROCE_V1_ONLY mlx5_0:1)" none
check_eq "healthy roce-pfc: ROCE_NO_V2_IPV4_GID silent" \
	"$(sev roce-pfc.rdma.tar.zst ROCE_NO_V2_IPV4_GID mlx5_0:1)" none

# rxe: netdev MTU below the Ethernet default
cp -a rxe x
printf '1400\n' >x/sys/class/net/eth0/mtu
setjson x/rdma-collect/verbs/rxe0.json 'd["ports"][0]["active_mtu"] = 3'
collect x x.rdma.tar.zst
check_eq "MTU_BELOW_MAX RoCE: netdev MTU 1400 (< 1500): warning" \
	"$(sev x.rdma.tar.zst MTU_BELOW_MAX rxe0:1)" warning

# NCCL_IB_GID_INDEX: the environment table is loaded by the app area's
# extractor; skip while it is not there
"$RA" load --db env.db r.rdma.tar.zst >/dev/null 2>&1
n=$(python3 -c '
import sqlite3
print(sqlite3.connect("env.db").execute("SELECT count(*) FROM environment WHERE name = ?", ("NCCL_IB_GID_INDEX",)).fetchone()[0])' 2>/dev/null)
if [ "${n:-0}" -gt 0 ]; then
	check_eq "NCCL_GID_INDEX_BAD: index 3 is empty / RoCE v1 on the ports" \
		"$(sev $b NCCL_GID_INDEX_BAD NCCL_IB_GID_INDEX)" critical
	s=$(summary $b NCCL_GID_INDEX_BAD NCCL_IB_GID_INDEX)
	check "NCCL_GID_INDEX_BAD names nccl.conf and both ports ($s)" sh -c \
		"echo '$s' | grep -q '(nccl.conf)' && echo '$s' | grep -q 'mlx5_0:1 GID 3 empty' && echo '$s' | grep -q 'mlx5_1:1 GID 3 IB/RoCE v1'"
	check "NCCL_GID_INDEX_BAD: -1 (auto) in self.env is fine" sh -c \
		"! echo '$s' | grep -q '(self)'"
	check_eq "healthy roce-pfc: NCCL_IB_GID_INDEX=3 is a v2 IPv4 GID" \
		"$(sev roce-pfc.rdma.tar.zst NCCL_GID_INDEX_BAD NCCL_IB_GID_INDEX)" none
else
	skip "NCCL_GID_INDEX_BAD" "the environment table is not loaded yet (app extractor)"
fi
