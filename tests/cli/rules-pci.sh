# rules-pci: PCIE_LINK_DEGRADED, ACS_ENABLED, IOMMU_TRANSLATING against the
# fixture nodes, healthy and with faults written into their config spaces
# (printf + dd conv=notrunc), sysfs link files, IOMMU groups and cmdline.

# findings of RULE in a bundle: "component severity layer" lines
findings() {	# findings BUNDLE RULE
	"$RA" report --format json "$1" 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)
for n in r["nodes"]:
    for f in n["findings"]:
        if f["rule"] == sys.argv[1]:
            print(f["component"], f["severity"], f["layer"])' "$2"
}
# the summary and evidence of RULE's findings, one line each
details() {
	"$RA" report --format json "$1" 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)
for n in r["nodes"]:
    for f in n["findings"]:
        if f["rule"] == sys.argv[1]:
            print(f["summary"])
            for e in f["evidence"]: print(e["path"], e["value"])' "$2"
}
collect() { rm -f "$2"; "$RC" -q --root "$1" -o "$2" >/dev/null 2>&1; }
# write bytes at OFFSET of FILE: poke FILE OFFSET HEX... (octal escapes:
# POSIX printf has no \x)
poke() {
	_f=$1 _o=$2 _s=""
	shift 2
	for _x in "$@"; do _s="$_s$(printf '\\%03o' "0x$_x")"; done
	printf "$_s" | dd of="$_f" bs=1 seek=$((_o)) conv=notrunc 2>/dev/null
}
# a line of text among lines: has_line TEXT LINE
has_line() { printf '%s\n' "$1" | grep -qxF -- "$2"; }

mknode gpu-ndr8 "$T/gpu" >/dev/null 2>&1 || fail "gpu-ndr8 fixture builds"
mknode roce-pfc "$T/roce" >/dev/null 2>&1 || fail "roce-pfc fixture builds"
mknode rxe "$T/rxe" >/dev/null 2>&1 || fail "rxe fixture builds"
for k in gpu roce rxe; do collect "$T/$k" "$T/$k.rdma.tar.zst"; done

# healthy: none of these rules fires at all
for k in gpu roce rxe; do
	for r in PCIE_LINK_DEGRADED ACS_ENABLED IOMMU_TRANSLATING; do
		check_eq "healthy $k: no $r" "$(findings "$T/$k.rdma.tar.zst" $r)" ""
	done
done

# --- PCIE_LINK_DEGRADED on the HCA: LnkSta 16GT/s x8 (0x1084) at 0x60+0x12
P=$T/gpu/sys/devices/pci0000:10/0000:10:01.0/0000:11:00.0
H=$P/0000:12:01.0/0000:14:00.0
cp -a "$T/gpu" "$T/g1"
G1=$T/g1/sys/devices/pci0000:10/0000:10:01.0/0000:11:00.0/0000:12:01.0/0000:14:00.0
poke "$G1/config" 0x72 84 10
echo "16.0 GT/s PCIe" >"$G1/current_link_speed"
echo 8 >"$G1/current_link_width"
# the switch downstream port above sees the same link: not reported twice
poke "$T/g1/sys/devices/pci0000:10/0000:10:01.0/0000:11:00.0/0000:12:01.0/config" 0x52 84 30
collect "$T/g1" "$T/g1.rdma.tar.zst"
check_eq "degraded HCA link: one critical finding on 0000:14:00.0" \
	"$(findings "$T/g1.rdma.tar.zst" PCIE_LINK_DEGRADED)" "0000:14:00.0 critical hca"
d=$(details "$T/g1.rdma.tar.zst" PCIE_LINK_DEGRADED)
check "degraded HCA link: summary names mlx5_0 and both values" has_line "$d" \
	"PCIe link of HCA 0000:14:00.0 (mlx5_0) runs at 16GT/s x8, capable of 32GT/s x16"
check "degraded HCA link: config path and decoded registers as evidence" has_line "$d" \
	"sys/devices/pci0000:10/0000:10:01.0/0000:11:00.0/0000:12:01.0/0000:14:00.0/config LnkCap: Speed 32GT/s, Width x16; LnkSta: Speed 16GT/s, Width x8"
check "degraded HCA link: sysfs width as evidence" has_line "$d" \
	"sys/devices/pci0000:10/0000:10:01.0/0000:11:00.0/0000:12:01.0/0000:14:00.0/current_link_width 8"

# --- a bridge on the path: the switch upstream port trained at x4 (its
# PCIe capability at 0x40; the root port above shows the same link)
cp -a "$T/gpu" "$T/g2"
U=$T/g2/sys/devices/pci0000:10/0000:10:01.0/0000:11:00.0
poke "$U/config" 0x52 45 10
echo 4 >"$U/current_link_width"
poke "$T/g2/sys/devices/pci0000:10/0000:10:01.0/config" 0x52 45 30
collect "$T/g2" "$T/g2.rdma.tar.zst"
check_eq "degraded switch uplink: reported on the upstream port 0000:11:00.0" \
	"$(findings "$T/g2.rdma.tar.zst" PCIE_LINK_DEGRADED)" "0000:11:00.0 critical hca"
check "degraded switch uplink: names the HCA below" has_line \
	"$(details "$T/g2.rdma.tar.zst" PCIE_LINK_DEGRADED)" \
	"PCIe link of Upstream Port 0000:11:00.0 above HCA 0000:14:00.0 (mlx5_0) runs at 32GT/s x4, capable of 32GT/s x16"

# --- a degraded GPU link is not an HCA path: not this rule
cp -a "$T/gpu" "$T/g3"
poke "$T/g3/sys/devices/pci0000:10/0000:10:01.0/0000:11:00.0/0000:12:00.0/0000:13:00.0/config" 0x72 84 10
collect "$T/g3" "$T/g3.rdma.tar.zst"
check_eq "degraded GPU link: no PCIE_LINK_DEGRADED" \
	"$(findings "$T/g3.rdma.tar.zst" PCIE_LINK_DEGRADED)" ""

# --- collected as non-root: 64-byte config spaces are "no data", not
# degraded; the sysfs link files still tell
cp -a "$T/gpu" "$T/g4"
for f in $(find "$T/g4/sys/devices" -name config); do truncate -s 64 "$f"; done
collect "$T/g4" "$T/g4.rdma.tar.zst"
check_eq "64-byte config spaces: no finding" \
	"$(findings "$T/g4.rdma.tar.zst" PCIE_LINK_DEGRADED)" ""
G4=$T/g4/sys/devices/pci0000:a0/0000:a0:01.0/0000:a1:00.0/0000:a2:01.0/0000:a4:00.0
echo 8 >"$G4/current_link_width"
collect "$T/g4" "$T/g4b.rdma.tar.zst"
check_eq "64-byte config, sysfs width 8 of 16: fires from sysfs" \
	"$(findings "$T/g4b.rdma.tar.zst" PCIE_LINK_DEGRADED)" "0000:a4:00.0 critical hca"

# --- the mlx5 probe line "limited by" (klog table, category pcie_bw)
cp -a "$T/roce" "$T/r1"
printf '%s\n' "6,9000,9000000,-;mlx5_core 0000:17:00.0: 126.016 Gb/s available PCIe bandwidth, limited by 8.0 GT/s PCIe x16 link at 0000:16:02.0 (capable of 252.048 Gb/s with 16.0 GT/s PCIe x16 link)" \
	" SUBSYSTEM=pci" " DEVICE=+pci:0000:17:00.0" >>"$T/r1/rdma-collect/klog/kmsg.txt"
collect "$T/r1" "$T/r1.rdma.tar.zst"
got=$(findings "$T/r1.rdma.tar.zst" PCIE_LINK_DEGRADED)
rm -f "$T/k.db"
"$RA" load --db "$T/k.db" "$T/r1.rdma.tar.zst" >/dev/null 2>&1
nk=$(python3 -c 'import sqlite3, sys
try: print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM klog WHERE category = ?", ("pcie_bw",)).fetchone()[0])
except Exception: print(0)' "$T/k.db")
if [ "$nk" = 0 ]; then
	skip "kernel log 'limited by' line" "the klog table has no pcie_bw rows (klog extractor not there yet)"
else
	check_eq "kernel log 'limited by' line: critical on 0000:17:00.0" "$got" "0000:17:00.0 critical hca"
fi

# --- ACS_ENABLED: SrcValid+ ReqRedir+ CmpltRedir+ on the HCA's switch
# downstream port (ACS at 0x148: ACSCtl at 0x14e)
cp -a "$T/gpu" "$T/a1"
poke "$T/a1/sys/devices/pci0000:10/0000:10:01.0/0000:11:00.0/0000:12:01.0/config" 0x14e 0d 00
collect "$T/a1" "$T/a1.rdma.tar.zst"
check_eq "ACS redirect on the HCA's downstream port: critical, layer app" \
	"$(findings "$T/a1.rdma.tar.zst" ACS_ENABLED)" "0000:12:01.0 critical app"
d=$(details "$T/a1.rdma.tar.zst" ACS_ENABLED)
tab=$(printf '\t')
check "ACS: ACSCtl line as lspci prints it, with the config path" has_line "$d" \
	"sys/devices/pci0000:10/0000:10:01.0/0000:11:00.0/0000:12:01.0/config [148] ACSCtl:${tab}SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd- EgressCtrl- DirectTrans-"
check "ACS: summary names the bits, the HCA and the GPU" has_line "$d" \
	"ACS ReqRedir+ CmpltRedir+ SrcValid+ on PCIe Downstream Port 0000:12:01.0 between HCA 0000:14:00.0 (mlx5_0) and GPU 0000:13:00.0: peer-to-peer (GPUDirect RDMA) traffic is redirected through the root complex"
# on the GPU's side of the same switch: also between them
cp -a "$T/gpu" "$T/a2"
poke "$T/a2/sys/devices/pci0000:b0/0000:b0:01.0/0000:b1:00.0/0000:b2:00.0/config" 0x14e 04 00
collect "$T/a2" "$T/a2.rdma.tar.zst"
check_eq "ACS ReqRedir on the GPU's downstream port: fires" \
	"$(findings "$T/a2.rdma.tar.zst" ACS_ENABLED)" "0000:b2:00.0 critical app"
# above the common switch (root port) or only TransBlk/UpstreamFwd: not
cp -a "$T/gpu" "$T/a3"
poke "$T/a3/sys/devices/pci0000:10/0000:10:01.0/config" 0x14e 0d 00
poke "$T/a3/sys/devices/pci0000:20/0000:20:01.0/0000:21:00.0/0000:22:01.0/config" 0x14e 12 00
collect "$T/a3" "$T/a3.rdma.tar.zst"
check_eq "ACS on the root port above the shared switch, or TransBlk/UpstreamFwd only: no finding" \
	"$(findings "$T/a3.rdma.tar.zst" ACS_ENABLED)" ""

# --- IOMMU_TRANSLATING: the HCA's group translates (type DMA-FQ)
cp -a "$T/gpu" "$T/i1"
grp=$(basename "$(readlink "$T/i1/sys/bus/pci/devices/0000:a4:00.0/iommu_group")")
echo DMA-FQ >"$T/i1/sys/kernel/iommu_groups/$grp/type"
collect "$T/i1" "$T/i1.rdma.tar.zst"
check_eq "HCA's IOMMU group DMA-FQ: warning on iommu" \
	"$(findings "$T/i1.rdma.tar.zst" IOMMU_TRANSLATING)" "iommu warning app"
# a GPU's group translating is not the HCAs' problem
cp -a "$T/gpu" "$T/i2"
grp=$(basename "$(readlink "$T/i2/sys/bus/pci/devices/0000:a3:00.0/iommu_group")")
echo DMA >"$T/i2/sys/kernel/iommu_groups/$grp/type"
collect "$T/i2" "$T/i2.rdma.tar.zst"
check_eq "GPU's group DMA only: no finding" "$(findings "$T/i2.rdma.tar.zst" IOMMU_TRANSLATING)" ""
# no group types: the command line decides (last occurrence wins)
for c in "ro quiet:iommu warning app" \
	 "ro iommu=pt iommu.passthrough=0:iommu warning app" \
	 "ro iommu.passthrough=0 iommu=pt:" \
	 "ro iommu=nopt iommu.passthrough=1:" \
	 "ro quiet -- iommu=pt:iommu warning app"; do
	rm -rf "$T/i3"
	cp -a "$T/roce" "$T/i3"
	rm -f "$T"/i3/sys/kernel/iommu_groups/*/type
	echo "BOOT_IMAGE=/boot/vmlinuz-6.1.0-27-amd64 ${c%%:*}" >"$T/i3/proc/cmdline"
	collect "$T/i3" "$T/i3.rdma.tar.zst"
	check_eq "cmdline '${c%%:*}' without group types" \
		"$(findings "$T/i3.rdma.tar.zst" IOMMU_TRANSLATING)" "${c#*:}"
done

# a ConnectX bound to mlx5_core without an RDMA device, on a node whose
# RDMA devices are another driver's (bnxt_re): an Ethernet NIC, info
"$FIXTURES/mkbnxt.sh" "$T/bnxtk" keep-mlx5 || fail "mkbnxt.sh keep-mlx5 builds"
collect "$T/bnxtk" "$T/bnxtk.rdma.tar.zst"
check_eq "HCA_MISSING: a ConnectX beside another vendor's RDMA devices is info" \
	"$(findings "$T/bnxtk.rdma.tar.zst" HCA_MISSING)" "0000:17:00.0 info hca"
# another vendor's RDMA only (bnxt_re): the PCI checks read only what
# the pci source collects
"$FIXTURES/mkbnxt.sh" "$T/bnxt" || fail "mkbnxt.sh builds"
collect "$T/bnxt" "$T/bnxt.rdma.tar.zst"
check "bnxt_re node: the PCI checks are skipped with the reason, not passed" python3 -c '
import json, subprocess, sys
d = json.loads(subprocess.run([sys.argv[1], "report", "--format", "json", sys.argv[2]],
                              capture_output=True, text=True).stdout)
s = {x["rule"]: x["reason"] for n in d["nodes"] for x in n["skipped"]}
for r in ("PCIE_LINK_DEGRADED", "ACS_ENABLED", "IOMMU_TRANSLATING"):
    assert r in s, (r, s)
' "$RA" "$T/bnxt.rdma.tar.zst"

# --- PCIE_LINK_DEGRADED from mlxlink --port_type PCIE (phy_pcie): the
# HCA's own Link Speed/Width Active (Enabled), the function named by mst
# status, by the PCI address mlxlink ran on, or by a bare command line
mlxpcie() {	# mlxpcie SPEED WIDTH [DEPTH]: the output's text
	printf '\nPCIe Operational (Enabled) Info\n-------------------------------\n'
	printf 'Depth, pcie index, node         : %s, 0, 0\n' "${3:-0}"
	printf 'Link Speed Active (Enabled)     : %s\n' "$1"
	printf 'Link Width Active (Enabled)     : %s\n' "$2"
}
mkdir -p "$T/mx1" "$T/mx2" "$T/mx3" "$T/mx4" "$T/mx5"
{
	echo '[root@node ~]# mst status'
	printf 'MST modules:\n------------\n    MST PCI configuration module loaded\n\n'
	printf 'MST devices:\n------------\n'
	echo '/dev/mst/mt4125_pciconf0         - PCI configuration cycles access.'
	echo '                                   domain:bus:dev.fn=0000:41:00.0 addr.reg=88 data.reg=92 cr_bar.gw_offset=-1'
	echo '[root@node ~]# mlxlink -d /dev/mst/mt4125_pciconf0 --port_type PCIE'
	mlxpcie "16G-Gen 4 (16G-Gen 4)" "8X (16X)"
} >"$T/mx1/ticket.txt"
check_eq "mlxlink PCIe x8 of x16, mst status names 0000:41:00.0: critical" \
	"$(findings "$T/mx1" PCIE_LINK_DEGRADED)" "0000:41:00.0 critical hca"
d=$(details "$T/mx1" PCIE_LINK_DEGRADED)
check "mlxlink PCIe: the evidence is the output's two lines" has_line "$d" \
	"rdma-collect/commands/mlxlink-mt4125_pciconf0/stdout Link Width Active (Enabled): 8X (16X)"
{ echo 'mlxlink -d 0000:81:00.0 --port_type PCIE -e'; mlxpcie "32G-Gen 5 (32G PAM-4 Gen6)" "16X (16X)"; } >"$T/mx2/mlxlink.txt"
check_eq "bare 'mlxlink -d <bdf>' first line, Gen5 of Gen6: fires on the address" \
	"$(findings "$T/mx2" PCIE_LINK_DEGRADED)" "0000:81:00.0 critical hca"
{ echo 'mlxlink -d 0000:81:00.0 --port_type PCIE'; mlxpcie "32G PAM-4 Gen6 (32G PAM-4 Gen6)" "16X (16X)"; } >"$T/mx3/mlxlink.txt"
check_eq "mlxlink PCIe Gen6 x16 of Gen6 x16: no finding" \
	"$(findings "$T/mx3" PCIE_LINK_DEGRADED)" ""
check "mlxlink PCIe healthy: the check ran (not skipped) and the file is read" python3 -c '
import json, subprocess, sys
d = json.loads(subprocess.run([sys.argv[1], "report", "--format", "json", sys.argv[2]],
                              capture_output=True, text=True).stdout)
s = [x["rule"] for n in d["nodes"] for x in n["skipped"]]
assert "PCIE_LINK_DEGRADED" not in s, s
' "$RA" "$T/mx3"
# a link below the HCA's internal switch (BlueField JBoF, depth 3) is not
# the host's link
{ echo 'mlxlink -d 0000:81:00.0 --port_type PCIE --depth 3 --pcie_index 0 --node 4'; mlxpcie "8G-Gen 3 (16G-Gen 4)" "4X (4X)" 3; } >"$T/mx4/mlxlink.txt"
check_eq "mlxlink PCIe depth 3: not judged" "$(findings "$T/mx4" PCIE_LINK_DEGRADED)" ""
# the network link's output beside it is read as before (phy)
{ echo 'mlxlink -d 0000:81:00.0 --port_type PCIE'; mlxpcie "16G-Gen 4 (16G-Gen 4)" "16X (16X)"
  printf '\n$ mlxlink -d 0000:81:00.0 -c\n\nOperational Info\n----------------\nState                           : Active\n'
  printf 'Physical state                  : LinkUp\nSpeed                           : IB-HDR\nWidth                           : 4x\n\n'
  printf 'Physical Counters and BER Info\n------------------------------\nEffective Physical Errors       : 7\n'
  printf 'Effective Physical BER          : 1E-10\nRaw Physical BER                : 2E-6\n'; } >"$T/mx5/ticket.txt"
check_eq "mlxlink PCIe and network outputs of one device: PHY_BER_HIGH still reads the network one" \
	"$(findings "$T/mx5" PHY_BER_HIGH | cut -d' ' -f1)" \
	"rdma-collect/commands/mlxlink-0000:81:00.0/stdout"
