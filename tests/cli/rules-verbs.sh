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
check_eq "rxe at the Ethernet default MTU 1500: active_mtu 1024 is what 1500 gives: info" \
	"$(sev rx1500.rdma.tar.zst MTU_BELOW_MAX rxe0:1)" info
check "rxe: the info names the netdev MTU and jumbo frames" sh -c \
	"echo '$(summary rx1500.rdma.tar.zst MTU_BELOW_MAX rxe0:1)' | grep -q 'netdev eth0 MTU 1500 limits the RDMA MTU of rxe0:1 to 1024.*as configured; jumbo frames'"
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
check "PORT_DOWN: no cable says so and is no reason to look at cables" sh -c \
	"'$RA' report --format json g2.rdma.tar.zst | grep -q 'mlx5_2:1 is 1: DOWN, physical state 2: Polling (no cable or module'"
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

# --- PORT_DOWN: Polling is judged by what says the port should be up
# drop_plug TREE BDF: the kernel log without the function's module lines
drop_plug() {
	python3 - "$1/rdma-collect/klog/kmsg.txt" "$2" <<'PY'
import sys
p, bdf = sys.argv[1], sys.argv[2]
out, skip = [], False
for l in open(p).read().splitlines():
    if l.startswith(" "):
        if not skip:
            out.append(l)
        continue
    skip = ("mlx5_core " + bdf + ": Port module event") in l
    if not skip:
        out.append(l)
open(p, "w").write("\n".join(out) + "\n")
PY
}
# poll TREE DEV: the port Down/Polling (sysfs and verbs)
poll() {
	printf '1: DOWN\n' >"$1/sys/class/infiniband/$2/ports/1/state"
	printf '2: Polling\n' >"$1/sys/class/infiniband/$2/ports/1/phys_state"
	setjson "$1/rdma-collect/verbs/$2.json" 'd["ports"][0]["state"] = 1; d["ports"][0]["phys_state"] = 2'
}
pci_of() { basename "$(readlink -f "$1/sys/class/infiniband/$2/device")"; }
# gpu-ndr8: mlx5_4 Polling, no module line for it, its 7 siblings Active
cp -a gpu-ndr8 p1
poll p1 mlx5_4
drop_plug p1 "$(pci_of p1 mlx5_4)"
collect p1 p1.rdma.tar.zst
check_eq "PORT_DOWN: Polling while the node's other ports are Active is a warning" \
	"$(sev p1.rdma.tar.zst PORT_DOWN mlx5_4:1)" warning
check "PORT_DOWN: the warning says the siblings are Active" sh -c \
	"'$RA' report --format json p1.rdma.tar.zst | grep -q '7 other ports of the node Active: it should be up'"
# roce-pfc: both ports Polling, no module lines: nothing says they should
# be up (info); a module error event on mlx5_0 says it should (warning)
cp -a roce-pfc p2
poll p2 mlx5_0
poll p2 mlx5_1
drop_plug p2 0000:17:00.0
drop_plug p2 0000:17:00.1
collect p2 p2.rdma.tar.zst
check_eq "PORT_DOWN: Polling with nothing saying it should be up is info" \
	"$(sev p2.rdma.tar.zst PORT_DOWN mlx5_0:1),$(sev p2.rdma.tar.zst PORT_DOWN mlx5_1:1)" info,info
printf '3,900,9000000000,-;mlx5_core 0000:17:00.0: port_module:286:(pid 0): Port module event[error]: module 0, Cable error, High Temperature\n SUBSYSTEM=pci\n DEVICE=+pci:0000:17:00.0\n' \
	>>p2/rdma-collect/klog/kmsg.txt
collect p2 p2e.rdma.tar.zst
check_eq "PORT_DOWN: Polling after a module error event is a warning" \
	"$(sev p2e.rdma.tar.zst PORT_DOWN mlx5_0:1)" warning
check_eq "PORT_DOWN: ... and only on that port" "$(sev p2e.rdma.tar.zst PORT_DOWN mlx5_1:1)" info
# the fleet: three healthy roce-pfc nodes have mlx5_1:1 Active; on a
# fourth, both ports Polling with no module lines: the class says it
# should be up (warning) -- one report over the four
for i in 1 2 3; do
	cp -a roce-pfc f$i
	printf 'roce-h2%s\n' $i >f$i/proc/sys/kernel/hostname
	printf '00000000000000000000000000000f0%s\n' $i >f$i/etc/machine-id
	collect f$i f$i.rdma.tar.zst
done
check_eq "PORT_DOWN: Polling while the same port is Active on the class's other nodes is a warning" \
	"$("$RA" report --format json f1.rdma.tar.zst f2.rdma.tar.zst f3.rdma.tar.zst p2.rdma.tar.zst 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(",".join(f["severity"] for n in d["nodes"] for f in n["findings"] if f["rule"] == "PORT_DOWN" and f["component"] == "mlx5_1:1"))')" warning
# SR-IOV: a VF (15b3:101e, physfn 0000:17:00.0) with its own RDMA device
# mlx5_2; its port follows its PF's and is never critical alone
vf_add() {	# vf_add TREE: 0000:17:00.2 -> mlx5_2, a VF of 0000:17:00.0
	local r=$1 d=$1/sys/devices/pci0000:16/0000:16:02.0
	cp -a "$d/0000:17:00.0" "$d/0000:17:00.2"
	rm -rf "$d/0000:17:00.2/net" "$d/0000:17:00.2/infiniband_verbs" "$d/0000:17:00.2/infiniband_mad"
	mv "$d/0000:17:00.2/infiniband/mlx5_0" "$d/0000:17:00.2/infiniband/mlx5_2"
	printf '0x101e\n' >"$d/0000:17:00.2/device"
	printf 'MT4126\n' >"$d/0000:17:00.2/infiniband/mlx5_2/hca_type"
	ln -s ../0000:17:00.0 "$d/0000:17:00.2/physfn"
	ln -s ../../../devices/pci0000:16/0000:16:02.0/0000:17:00.2 "$r/sys/bus/pci/devices/0000:17:00.2"
	ln -s ../../devices/pci0000:16/0000:16:02.0/0000:17:00.2/infiniband/mlx5_2 "$r/sys/class/infiniband/mlx5_2"
	sed 's/"mlx5_0"/"mlx5_2"/; s/"vendor_part_id": 4125/"vendor_part_id": 4126/' \
		"$r/rdma-collect/verbs/mlx5_0.json" >"$r/rdma-collect/verbs/mlx5_2.json"
	setjson "$r/rdma-collect/verbs/devices.json" 'd["devices"].append("mlx5_2")'
}
cp -a roce-pfc v1
vf_add v1
printf '2: INIT\n' >v1/sys/class/infiniband/mlx5_2/ports/1/state
setjson v1/rdma-collect/verbs/mlx5_2.json 'd["ports"][0]["state"] = 2'
collect v1 v1.rdma.tar.zst
check_eq "PORT_DOWN: a VF's port down while its PF is up is a warning at most" \
	"$(sev v1.rdma.tar.zst PORT_DOWN mlx5_2:1)" warning
cp -a roce-pfc v2
vf_add v2
poll v2 mlx5_0
poll v2 mlx5_2
collect v2 v2.rdma.tar.zst
check_eq "PORT_DOWN: the PF down (a cable plugged): critical on the PF" \
	"$(sev v2.rdma.tar.zst PORT_DOWN mlx5_0:1)" critical
check_eq "PORT_DOWN: ... and its VF follows it: info" \
	"$(sev v2.rdma.tar.zst PORT_DOWN mlx5_2:1)" info
check "PORT_DOWN: the VF's finding names its PF" sh -c \
	"'$RA' report --format json v2.rdma.tar.zst | grep -q 'an SR-IOV VF: its port follows its PF.s (mlx5_0:1 down'"

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
check_eq "MTU_BELOW_MAX RoCE: netdev MTU 1500 allows only 1024: info, the netdev's setting" \
	"$(sev $b MTU_BELOW_MAX mlx5_0:1)" info
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

# --- another vendor's RoCE (tests/fixtures/mkbnxt.sh): the generic checks
"$FIXTURES/mkbnxt.sh" bnxt || fail "mkbnxt.sh builds"
collect bnxt bnxt.rdma.tar.zst
check_eq "healthy bnxt_re node: nothing at warning or above from the verbs/sm rules" \
	"$(loud bnxt.rdma.tar.zst)" ""
poll bnxt bnxt_re1
collect bnxt bnxt2.rdma.tar.zst
check_eq "bnxt_re node: PORT_DOWN Polling beside an Active port is a warning" \
	"$(sev bnxt2.rdma.tar.zst PORT_DOWN bnxt_re1:1)" warning
