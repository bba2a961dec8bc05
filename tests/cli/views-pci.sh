# views-pci: `show ... lspci`, `lsmod`, `ls-infiniband` against expected
# outputs written from the formats (pciutils ls-caps.c / ls-ecaps.c, kmod's
# lsmod, GNU ls -l) for the fixtures' values.

mknode gpu-ndr8 "$T/gpu" >/dev/null 2>&1 || fail "gpu-ndr8 fixture builds"
mknode roce-pfc "$T/roce" >/dev/null 2>&1 || fail "roce-pfc fixture builds"
mknode rxe "$T/rxe" >/dev/null 2>&1 || fail "rxe fixture builds"
g=$T/g.rdma.tar.zst r=$T/r.rdma.tar.zst s=$T/s.rdma.tar.zst
"$RC" -q --root "$T/gpu" -o "$g" >/dev/null 2>&1
"$RC" -q --root "$T/roce" -o "$r" >/dev/null 2>&1
# collected_at 2024-11-20T10:55:00Z: the rxe node's devnode mtimes
# (1732100011, 1732100030) are recent, so ls prints hours and minutes
SOURCE_DATE_EPOCH=1732100100 "$RC" -q --root "$T/rxe" -o "$s" >/dev/null 2>&1

# golden NAME COMMAND...: stdout of the command against $T/NAME.want
golden() {
	name=$1
	shift
	if "$@" >"$T/$name.got" 2>"$T/$name.err" &&
	   cmp -s "$T/$name.got" "$T/$name.want"; then
		ok "view $name"
	else
		fail "view $name"
		diff "$T/$name.want" "$T/$name.got" | head -20 | sed 's/^/#   /'
		sed 's/^/#   stderr: /' "$T/$name.err" | head -3
	fi
}

# the HCA of pair 0: Gen5 x16 endpoint, PCIe capability at 0x60 (v2),
# LnkCap AOC only, LnkSta SlotClk, LnkCap2 vector 0x3e, LnkSta2 0x001e
printf '%s\n' \
'14:00.0 Infiniband controller: Mellanox Technologies MT2910 Family [ConnectX-7]' \
'	NUMA node: 0' \
'	Capabilities: [60] Express (v2) Endpoint, IntMsgNum 0' \
'		LnkCap:	Port #0, Speed 32GT/s, Width x16, ASPM not supported' \
'			ClockPM- Surprise- LLActRep- BwNot- ASPMOptComp+' \
'		LnkSta:	Speed 32GT/s, Width x16' \
'			TrErr- Train- SlotClk+ DLActive- BWMgmt- ABWMgmt-' \
'		LnkCap2: Supported Link Speeds: 2.5-32GT/s, Crosslink- Retimer- 2Retimers- DRS-' \
'		LnkSta2: Current De-emphasis Level: -6dB, EqualizationComplete+ EqualizationPhase1+' \
'			 EqualizationPhase2+ EqualizationPhase3+ LinkEqualizationRequest-' \
'			 Retimer- 2Retimers- CrosslinkRes: unsupported, FltMode-' \
'	Kernel driver in use: mlx5_core' \
'' >"$T/lspci-hca.want"
golden lspci-hca "$RA" show "$g" lspci 0000:14:00.0

# its root port: port #1, DLLA/LBNC/AOC, DLActive, ACS at 0x148 (cap
# 0x005f, control cleared)
printf '%s\n' \
'10:01.0 PCI bridge: Intel Corporation Device 352a (rev 04)' \
'	NUMA node: 0' \
'	Capabilities: [40] Express (v2) Root Port (Slot-), IntMsgNum 0' \
'		LnkCap:	Port #1, Speed 32GT/s, Width x16, ASPM not supported' \
'			ClockPM- Surprise- LLActRep+ BwNot+ ASPMOptComp+' \
'		LnkSta:	Speed 32GT/s, Width x16' \
'			TrErr- Train- SlotClk+ DLActive+ BWMgmt- ABWMgmt-' \
'		LnkCap2: Supported Link Speeds: 2.5-32GT/s, Crosslink- Retimer- 2Retimers- DRS-' \
'		LnkSta2: Current De-emphasis Level: -6dB, EqualizationComplete+ EqualizationPhase1+' \
'			 EqualizationPhase2+ EqualizationPhase3+ LinkEqualizationRequest-' \
'			 Retimer- 2Retimers- CrosslinkRes: unsupported, FltMode-' \
'	Capabilities: [148 v1] Access Control Services' \
'		ACSCap:	SrcValid+ TransBlk+ ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans+' \
'		ACSCtl:	SrcValid- TransBlk- ReqRedir- CmpltRedir- UpstreamFwd- EgressCtrl- DirectTrans-' \
'	Kernel driver in use: pcieport' \
'' >"$T/lspci-rp.want"
golden lspci-rp "$RA" show "$g" lspci 10:01.0

# function 1 of the ConnectX-6 Dx: lspci reads no LnkCap2 there
printf '%s\n' \
'17:00.1 Ethernet controller: Mellanox Technologies MT2892 Family [ConnectX-6 Dx]' \
'	NUMA node: 0' \
'	Capabilities: [60] Express (v2) Endpoint, IntMsgNum 0' \
'		LnkCap:	Port #0, Speed 16GT/s, Width x16, ASPM not supported' \
'			ClockPM- Surprise- LLActRep- BwNot- ASPMOptComp+' \
'		LnkSta:	Speed 16GT/s, Width x16' \
'			TrErr- Train- SlotClk+ DLActive- BWMgmt- ABWMgmt-' \
'		LnkSta2: Current De-emphasis Level: -6dB, EqualizationComplete+ EqualizationPhase1+' \
'			 EqualizationPhase2+ EqualizationPhase3+ LinkEqualizationRequest-' \
'			 Retimer- 2Retimers- CrosslinkRes: unsupported, FltMode-' \
'	Kernel driver in use: mlx5_core' \
'' >"$T/lspci-fn1.want"
golden lspci-fn1 "$RA" show "$r" lspci 0000:17:00.1

check_eq "lspci: every collected function, in address order" \
	"$("$RA" show "$r" lspci | grep -v '^[[:space:]]' | grep .)" \
	"$(printf '%s\n' '16:02.0 PCI bridge: Intel Corporation Device 352c (rev 04)' \
		'17:00.0 Ethernet controller: Mellanox Technologies MT2892 Family [ConnectX-6 Dx]' \
		'17:00.1 Ethernet controller: Mellanox Technologies MT2892 Family [ConnectX-6 Dx]')"

# a degraded link as lspci 3.10+ marks it (endpoint: "(downgraded)")
cp -a "$T/gpu" "$T/g1"
H=$T/g1/sys/devices/pci0000:10/0000:10:01.0/0000:11:00.0/0000:12:01.0/0000:14:00.0
printf '\204\020' | dd of="$H/config" bs=1 seek=$((0x72)) conv=notrunc 2>/dev/null
"$RC" -q --root "$T/g1" -o "$T/g1.rdma.tar.zst" >/dev/null 2>&1
check_eq "lspci: LnkSta of a downgraded endpoint" \
	"$("$RA" show "$T/g1.rdma.tar.zst" lspci 14:00.0 | grep 'LnkSta:')" \
	"$(printf '\t\tLnkSta:\tSpeed 16GT/s (downgraded), Width x8 (downgraded)')"

# non-root collection: 64 bytes, as lspci shows a non-root user
for f in $(find "$T/g1/sys/devices" -name config); do truncate -s 64 "$f"; done
"$RC" -q --root "$T/g1" -o "$T/g2.rdma.tar.zst" >/dev/null 2>&1
printf '%s\n' \
'14:00.0 Infiniband controller: Mellanox Technologies MT2910 Family [ConnectX-7]' \
'	NUMA node: 0' \
'	Capabilities: <access denied>' \
'	Kernel driver in use: mlx5_core' \
'' >"$T/lspci-64.want"
golden lspci-64 "$RA" show "$T/g2.rdma.tar.zst" lspci 14:00.0

check "lspci: an address that was not collected is an error" sh -c \
	"! '$RA' show '$g' lspci 0000:99:00.0 >/dev/null 2>&1"
check "lspci: on the rxe node (no PCI evidence) an error" sh -c \
	"! '$RA' show '$s' lspci >/dev/null 2>&1"

# lsmod: kmod's "%-19s %8lu  %d" and the users, in sysfs holders/ order
# (kernfs name hash, as a Soft-RoCE guest's real lsmod shows: tests/cli/vm.sh)
printf '%s\n' \
'Module                  Size  Used by' \
'rdma_ucm               45056  0' \
'rdma_cm               131072  1 rdma_ucm' \
'iw_cm                  49152  1 rdma_cm' \
'ib_cm                 131072  1 rdma_cm' \
'ib_umad                40960  0' \
'rdma_rxe              155648  0' \
'ib_uverbs             188416  2 rdma_rxe,rdma_ucm' \
'ib_core               430080  7 rdma_cm,rdma_rxe,iw_cm,ib_umad,rdma_ucm,ib_uverbs,ib_cm' \
'ip6_udp_tunnel         16384  1 rdma_rxe' \
'udp_tunnel             28672  1 rdma_rxe' >"$T/lsmod-rxe.want"
golden lsmod-rxe "$RA" show "$s" lsmod
check_eq "lsmod: a wide refcount and many users (gpu-ndr8 nvidia)" \
	"$("$RA" show "$g" lsmod | grep '^nvidia ')" \
	"nvidia              54976512  392 nvidia_uvm,nvidia_peermem,nvidia_modeset"

# ls -la /dev/infiniband: GNU ls widths ("231, 192", " 10, 122")
printf '%s\n' \
'total 0' \
'crw------- 1 root root 231,  64 Nov 20 10:53 issm0' \
'crw-rw-rw- 1 root root  10, 122 Nov 20 10:53 rdma_cm' \
'crw------- 1 root root 231,   0 Nov 20 10:53 umad0' \
'crw-rw-rw- 1 root root 231, 192 Nov 20 10:53 uverbs0' >"$T/ls-rxe.want"
golden ls-rxe "$RA" show "$s" ls-infiniband
# roce-pfc collected now (2026): its 2024 mtimes are older than six months
printf '%s\n' \
'total 0' \
'crw------- 1 root root 231,  64 Nov 18  2024 issm0' \
'crw------- 1 root root 231,  65 Nov 18  2024 issm1' \
'crw-rw-rw- 1 root root  10,  58 Nov 18  2024 rdma_cm' \
'crw------- 1 root root 231,   0 Nov 18  2024 umad0' \
'crw------- 1 root root 231,   1 Nov 18  2024 umad1' \
'crw-rw-rw- 1 root root 231, 192 Nov 18  2024 uverbs0' \
'crw-rw-rw- 1 root root 231, 193 Nov 18  2024 uverbs1' >"$T/ls-roce.want"
SOURCE_DATE_EPOCH=1795000000 "$RC" -q --root "$T/roce" -o "$T/r2.rdma.tar.zst" >/dev/null 2>&1
golden ls-roce "$RA" show "$T/r2.rdma.tar.zst" ls-infiniband
# without mtimes (a live SOURCE_DATE_EPOCH run): no date column at all
python3 - "$T/rxe/rdma-collect/devnodes.json" <<'PY'
import json, sys
p = sys.argv[1]
j = json.load(open(p))
for e in j["entries"]:
    e.pop("mtime", None)
json.dump(j, open(p, "w"))
PY
"$RC" -q --root "$T/rxe" -o "$T/s2.rdma.tar.zst" >/dev/null 2>&1
printf '%s\n' \
'total 0' \
'crw------- 1 root root 231,  64 issm0' \
'crw-rw-rw- 1 root root  10, 122 rdma_cm' \
'crw------- 1 root root 231,   0 umad0' \
'crw-rw-rw- 1 root root 231, 192 uverbs0' >"$T/ls-nodate.want"
golden ls-nodate "$RA" show "$T/s2.rdma.tar.zst" ls-infiniband
