# tests/fixtures/mknode.sh: every kind builds, deterministically, with the
# exact sysfs/procfs formats the kernel writes (tests/fixtures/README.md
# names the sources), PCI config spaces that
# lspci decodes as intended, and the stored forms BUNDLE.md describes.
cd "$T" || exit 1

for k in gpu-ndr8 roce-pfc rxe; do
	check "mknode $k builds" mknode "$k" "$T/$k"
done
check "mknode refuses an unknown kind" sh -c "! '$FIXTURES/mknode.sh' nope '$T/nope' 2>/dev/null"

# deterministic: a second build is identical (contents, links, modes)
sig() {
	(cd "$1" && find . -printf '%y %m %p %l\n' | sort &&
		find . -type f -print0 | sort -z | xargs -0 cat | cksum)
}
mknode gpu-ndr8 "$T/again" >/dev/null 2>&1
check_eq "gpu-ndr8 is deterministic" "$(sig "$T/again" | cksum)" "$(sig "$T/gpu-ndr8" | cksum)"
rm -rf "$T/again"
check "no dangling links in any tree" sh -c "[ -z \"\$(find '$T/gpu-ndr8' '$T/roce-pfc' '$T/rxe' -xtype l)\" ]"

G=$T/gpu-ndr8 RO=$T/roce-pfc X=$T/rxe
IB=$G/sys/class/infiniband/mlx5_0
P=$IB/ports/1
check_eq "IB state" "$(cat "$P/state")" "4: ACTIVE"
check_eq "IB phys_state" "$(cat "$P/phys_state")" "5: LinkUp"
check_eq "IB rate" "$(cat "$P/rate")" "400 Gb/sec (4X NDR)"
check_eq "IB link_layer" "$(cat "$P/link_layer")" InfiniBand
check "IB lid/sm_lid are 0x%x" sh -c "grep -Eqx '0x[1-9a-f][0-9a-f]*' '$P/lid' && grep -qx 0x1 '$P/sm_lid'"
check "cap_mask is 0x%08x" grep -Eqx '0x[0-9a-f]{8}' "$P/cap_mask"
check "node_guid is %04x:%04x:%04x:%04x" grep -Eqx '([0-9a-f]{4}:){3}[0-9a-f]{4}' "$IB/node_guid"
check "gids/0 is fe80 + port GUID, 8 groups" sh -c "[ \"\$(cat '$P/gids/0')\" = \"fe80:0000:0000:0000:\$(cat '$IB/node_guid')\" ]"
check_eq "IB gid type" "$(cat "$P/gid_attrs/types/0")" "IB/RoCE v1"
check "IB has no ndevs entries" sh -c "[ -z \"\$(ls '$P/gid_attrs/ndevs')\" ]"
check_eq "pkeys/0" "$(cat "$P/pkeys/0")" 0xffff
check_eq "pkeys/1 is 0x%04x" "$(cat "$P/pkeys/1")" 0x0000
check_eq "128 pkeys" "$(ls "$P/pkeys" | wc -l)" 128
check_eq "hca_type is MT + decimal device id" "$(cat "$IB/hca_type")" MT4129
check "fw_ver is maj.min.%04d" grep -Eqx '[0-9]+\.[0-9]+\.[0-9]{4}' "$IB/fw_ver"
check_eq "21 PMA counters (ext table) incl. port_xmit_wait" \
	"$(ls "$P/counters" | wc -l) $(cat "$P/counters/port_xmit_wait" | grep -c '^[0-9]*$')" "21 1"
check "hw_counters: mlx5 IB names and lifespan" sh -c "cd '$P/hw_counters' && ls out_of_sequence local_ack_timeout_err req_rnr_retries_exceeded lifespan"
check "no pause counters in hw_counters" sh -c "! ls '$P/hw_counters' | grep -q pause"
check_eq "8 HCAs" "$(ls "$G/sys/class/infiniband" | tr '\n' ' ')" "mlx5_0 mlx5_1 mlx5_2 mlx5_3 mlx5_4 mlx5_5 mlx5_6 mlx5_7 "
check "class link resolves into the PCI function" sh -c "cd '$IB/device' && [ \"\$(cat vendor device class)\" = \"\$(printf '0x15b3\n0x1021\n0x020700')\" ]"
check_eq "PCIe speed string" "$(cat "$IB/device/current_link_speed")" "32.0 GT/s PCIe"
check_eq "PCIe width" "$(cat "$IB/device/current_link_width")" 16
check_eq "umad0 maps to mlx5_0 port 1" "$(cat "$G/sys/class/infiniband_mad/umad0/ibdev" "$G/sys/class/infiniband_mad/umad0/port" | tr '\n' ' ')" "mlx5_0 1 "
check_eq "uverbs0 dev" "$(cat "$G/sys/class/infiniband_verbs/uverbs0/dev")" 231:192
N=$G/sys/class/net/ibp20s0
check_eq "IPoIB netdev type/addr_len/mtu" "$(cat "$N/type" "$N/addr_len" "$N/mtu" | tr '\n' ' ')" "32 20 4092 "
check "IPoIB address is 20 bytes" grep -Eqx '([0-9a-f]{2}:){19}[0-9a-f]{2}' "$N/address"
check "netdev device link is the HCA" sh -c "[ \"\$(cd '$N/device' && pwd -P)\" = \"\$(cd '$IB/device' && pwd -P)\" ]"
GPU=$G/sys/bus/pci/devices/0000:13:00.0
check_eq "GPU ids and class" "$(cat "$GPU/vendor" "$GPU/device" "$GPU/class" | tr '\n' ' ')" "0x10de 0x2330 0x030200 "
check "GPU and HCA share a switch upstream port" sh -c "[ \"\$(cd -P '$GPU' && cd ../.. && pwd -P)\" = \"\$(cd -P '$IB/device' && cd ../.. && pwd -P)\" ]"
check_eq "iommu group type" "$(cat "$G/sys/bus/pci/devices/0000:14:00.0/iommu_group/type")" identity
check "iommu group lists the function" test -L "$G/sys/bus/pci/devices/0000:14:00.0/iommu_group/devices/0000:14:00.0"
check "dmar units" test -L "$G/sys/class/iommu/dmar0"
check "cmdline has iommu=pt" grep -q ' iommu=pt ' "$G/proc/cmdline"
check "proc/modules lines: name size refcnt deps state offset" sh -c \
	"grep -Evq '^[a-z0-9_]+ [0-9]+ [0-9]+ (-|([a-z0-9_]+,)+) Live 0x[0-9a-f]{16}( \\([A-Z]+\\))?$' '$G/proc/modules' && exit 1; exit 0"
check "the 9 RDMA modules + nvidia, nvidia_peermem are loaded" sh -c \
	"for m in mlx5_core mlx5_ib ib_core ib_uverbs ib_cm rdma_cm rdma_ucm ib_umad ib_ipoib nvidia nvidia_peermem; do grep -q \"^\$m \" '$G/proc/modules' || exit 1; done"
check_eq "module version" "$(cat "$G/sys/module/mlx5_core/version")" 24.10-1.1.4
check "holders are links" test -L "$G/sys/module/ib_core/holders/mlx5_ib"
check "meminfo HugePages block" sh -c "grep -qx 'HugePages_Total:   16384' '$G/proc/meminfo' && grep -qx 'Hugepagesize:       2048 kB' '$G/proc/meminfo'"
check_eq "hugepages sysfs" "$(cat "$G/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages")" 16384
check "memlock unlimited in limits.d" grep -Eq '^\*[[:space:]]+hard[[:space:]]+memlock[[:space:]]+unlimited' "$G/etc/security/limits.d/99-rdma.conf"
check "self.limits keeps the trailing spaces" sh -c \
	"grep -qx 'Max locked memory         unlimited            unlimited            bytes     ' '$G/rdma-collect/limits/self.limits' && grep -qx 'Max nice priority         0                    0                    ' '$G/rdma-collect/limits/self.limits'"
check "kmsg records are prio,seq,usec,flags;text" sh -c \
	"grep -v '^ ' '$G/rdma-collect/klog/kmsg.txt' | grep -Evq '^[0-9]+,[0-9]+,[0-9]+,[-c];' && exit 1; exit 0"
check "kmsg has the firmware and PCIe bandwidth lines" sh -c \
	"grep -q 'mlx5_core 0000:14:00.0: firmware version: 28.41.1000' '$G/rdma-collect/klog/kmsg.txt' && grep -q '504.112 Gb/s available PCIe bandwidth (32.0 GT/s PCIe x16 link)' '$G/rdma-collect/klog/kmsg.txt'"
check "nvidia-peermem is silent in the log" sh -c "! grep -qi peermem '$G/rdma-collect/klog/kmsg.txt'"
check_eq "devnodes: 8 uverbs, 8 umad, 8 issm, rdma_cm" \
	"$(grep -o '"name": "[a-z_]*' "$G/rdma-collect/devnodes.json" | sed 's/[0-9]*$//' | sort | uniq -c | tr -s ' ' | tr '\n' ' ')" \
	" 8 \"name\": \"issm  1 \"name\": \"rdma_cm  8 \"name\": \"umad  8 \"name\": \"uverbs "

# RoCE
R0=$RO/sys/class/infiniband/mlx5_0/ports/1
check_eq "RoCE link_layer/lid/rate" "$(cat "$R0/link_layer" "$R0/lid" "$R0/rate" | tr '\n' '|')" "Ethernet|0x0|100 Gb/sec (4X EDR)|"
check_eq "RoCE GID types" "$(cat "$R0/gid_attrs/types/0" "$R0/gid_attrs/types/1" "$R0/gid_attrs/types/3" | tr '\n' '|')" "IB/RoCE v1|RoCE v2|RoCE v2|"
check_eq "IPv4-mapped v2 GID" "$(cat "$R0/gids/3")" "0000:0000:0000:0000:0000:ffff:c0a8:0a15"
check "IPv4 of the GID is an address of the netdev" grep -q '"ifname": "ens1f0np0", "ifindex": 4, "family": "inet", "address": "192.168.10.21"' "$RO/rdma-collect/net/addresses.json"
check_eq "ndevs name the netdev" "$(cat "$R0/gid_attrs/ndevs/0")" ens1f0np0
check "unused GID: zero gid file, no types/ndevs file" sh -c \
	"grep -qx '0000:0000:0000:0000:0000:0000:0000:0000' '$R0/gids/4' && [ ! -e '$R0/gid_attrs/types/4' ] && [ ! -e '$R0/gid_attrs/ndevs/4' ]"
check_eq "255 GIDs" "$(ls "$R0/gids" | wc -l)" 255
check "RoCE hw_counters names" sh -c "cd '$R0/hw_counters' && ls np_cnp_sent rp_cnp_handled np_ecn_marked_roce_packets out_of_sequence rx_icrc_encapsulated lifespan"
check_eq "CX-6 Dx hca_type" "$(cat "$RO/sys/class/infiniband/mlx5_1/hca_type")" MT4125
check_eq "MTU 9000" "$(cat "$RO/sys/class/net/ens1f1np1/mtu")" 9000
E=$RO/rdma-collect/ethtool/ens1f0np0.json
check "mlx5e PFC/pause/discard names" sh -c "for n in rx_prio3_pause rx_prio3_pause_duration rx_prio3_pause_transition tx_prio3_pause tx_prio3_pause_duration rx_pause_ctrl_phy tx_pause_storm_warning_events rx_discards_phy rx_out_of_buffer rx_symbol_err_phy rx_ecn_mark rx_prio3_marked; do grep -q \"\\\"\$n\\\"\" '$E' || { echo missing \$n; exit 1; }; done"
check "no guide-only names (_us suffix, rx_symbol_error_phy)" sh -c "! grep -Eq 'pause_duration_us|rx_symbol_error_phy|rx_bits_phy' '$E'"
check "only prio3 has PFC counters" sh -c "! grep -Eq 'prio[0-24-7]_pause' '$E'"
check "dcb: PFC on priority 3, DSCP apps" sh -c "grep -q '\"pfc_en\": 8' '$RO/rdma-collect/dcb/ens1f0np0.json' && grep -q '\"selector\": 5, \"priority\": 3, \"protocol\": 26' '$RO/rdma-collect/dcb/ens1f0np0.json'"

# rxe
XR=$X/sys/class/infiniband/rxe0
check "rxe has no device link, hca_type, board_id" sh -c "[ ! -e '$XR/device' ] && [ ! -e '$XR/hca_type' ] && [ ! -e '$XR/board_id' ]"
check_eq "rxe fw_ver is an empty line" "$(od -An -c "$XR/fw_ver" | tr -d ' ')" '\n'
check_eq "rxe parent" "$(cat "$XR/parent")" eth0
check_eq "rxe: 1024 gids, 2 typed" "$(ls "$XR/ports/1/gids" | wc -l) $(ls "$XR/ports/1/gid_attrs/types" | wc -l)" "1024 2"
check_eq "rxe GIDs are RoCE v2 only" "$(cat "$XR"/ports/1/gid_attrs/types/* | sort -u)" "RoCE v2"
check_eq "rxe: 16 hw_counters names (lifespan included)" "$(ls "$XR/ports/1/hw_counters" | wc -l)" 16
check_eq "rxe rate" "$(cat "$XR/ports/1/rate")" "2.5 Gb/sec (1X SDR)"
check "rxe active_mtu 4096 (5) in verbs, with eth0 at MTU 9000" grep -q '"active_mtu": 5,' "$X/rdma-collect/verbs/rxe0.json"
check "rdma_rxe, ib_umad and rdma_ucm loaded (as the rxe VM's init does)" sh -c "grep -q '^rdma_rxe ' '$X/proc/modules' && grep -q '^ib_umad ' '$X/proc/modules' && grep -q '^rdma_ucm ' '$X/proc/modules'"
check "umad0 of rxe0 port 1 in sysfs and /dev/infiniband" sh -c "grep -q '\"umad0\"' '$X/rdma-collect/devnodes.json' && test \"\$(cat '$X/sys/class/infiniband_mad/umad0/ibdev')\" = rxe0"

# stored forms: valid JSON, ethtool stats counts
if command -v python3 >/dev/null 2>&1; then
	check "every stored .json is valid JSON" python3 -c '
import json, sys, glob
for f in glob.glob(sys.argv[1] + "/*/rdma-collect/**/*.json", recursive=True):
    json.load(open(f))' "$T"
	check "gpu-ndr8: more than 1,000 ethtool stats per RDMA netdev, n_stats matches" python3 -c '
import json, sys, glob
fs = glob.glob(sys.argv[1] + "/rdma-collect/ethtool/*.json")
assert len(fs) == 8, fs
for f in fs:
    j = json.load(open(f)); n = len(j["stats"])
    assert n > 1000 and n == j["drvinfo"]["n_stats"], (f, n)
    names = [s[0] for s in j["stats"]]
    assert len(set(names)) == n, f + ": duplicate names"' "$G"
	check "roce-pfc: n_stats matches, names unique" python3 -c '
import json, sys, glob
for f in glob.glob(sys.argv[1] + "/rdma-collect/ethtool/*.json"):
    j = json.load(open(f)); names = [s[0] for s in j["stats"]]
    assert len(names) == j["drvinfo"]["n_stats"] == len(set(names)), f' "$RO"
else
	skip "stored JSON checks" "no python3"
fi

# config space: 4096 bytes everywhere, decoded by lspci from an -xxxx dump
check "every PCI config file of gpu-ndr8 is 4096 bytes" sh -c \
	"for f in '$G'/sys/bus/pci/devices/*/config; do [ \$(wc -c <\"\$f\") -eq 4096 ] || { echo \$f; exit 1; }; done"
# dump ROOT BDF...: the lspci -xxxx form of the config files
dump() {
	r=$1
	shift
	for b in "$@"; do
		echo "$b Class: fixture"
		od -An -tx1 -v -w16 "$r/sys/bus/pci/devices/$b/config" |
			awk '{ printf "%03x:%s\n", (NR - 1) * 16, $0 }'
		echo
	done
}
if command -v lspci >/dev/null 2>&1; then
	dump "$G" 0000:10:01.0 0000:11:00.0 0000:12:00.0 0000:12:01.0 0000:13:00.0 0000:14:00.0 >gpu.dump
	lspci -vvv -F gpu.dump >gpu.lspci 2>/dev/null
	check_eq "lspci: 6 functions decoded" "$(grep -c '^[0-9a-f][0-9a-f]:' gpu.lspci)" 6
	check_eq "lspci: LnkCap Gen5 x16 on all 6" "$(grep -c 'LnkCap:.*Speed 32GT/s, Width x16' gpu.lspci)" 6
	check_eq "lspci: LnkSta Gen5 x16 on all 6" "$(grep -Ec 'LnkSta:.*Speed 32GT/s( \(ok\))?, Width x16' gpu.lspci)" 6
	check_eq "lspci: LnkCap2 up to 32GT/s" "$(grep -c 'LnkCap2: Supported Link Speeds: 2.5-32GT/s' gpu.lspci)" 6
	check_eq "lspci: ACS on root port + 2 downstream ports, all cleared" \
		"$(grep -c 'ACSCtl:.SrcValid- TransBlk- ReqRedir- CmpltRedir- UpstreamFwd- EgressCtrl- DirectTrans-' gpu.lspci) $(grep -c 'ACSCtl:' gpu.lspci)" "3 3"
	check "lspci: port types" sh -c "grep -q 'Express (v2) Root Port' gpu.lspci && grep -q 'Express (v2) Upstream Port' gpu.lspci && grep -c 'Express (v2) Downstream Port' gpu.lspci | grep -qx 2 && grep -c 'Express (v2) Endpoint' gpu.lspci | grep -qx 2"
	check "lspci: bus numbers of the switch" grep -q 'Bus: primary=12, secondary=14, subordinate=14' gpu.lspci
	check "lspci: HCA serial number from the node GUID" grep -q 'Device Serial Number 9c-63-c0-03-00-e1-7a-00' gpu.lspci
	check "lspci: ConnectX-7 and H100 ids" sh -c "grep -q '^14:00.0 .*15b3\\|^14:00.0 .*ConnectX-7' gpu.lspci && grep -q '^13:00.0 .*\\(GH100\\|10de\\)' gpu.lspci"
	dump "$RO" 0000:16:02.0 0000:17:00.0 0000:17:00.1 >roce.dump
	lspci -vvv -F roce.dump >roce.lspci 2>/dev/null
	check_eq "lspci: CX-6 Dx functions at Gen4 x16" "$(grep -Ec 'LnkSta:.*Speed 16GT/s( \(ok\))?, Width x16' roce.lspci)" 3
	check_eq "lspci: two serial numbers" "$(grep -c 'Device Serial Number' roce.lspci)" 2
else
	skip "lspci decoding of the config spaces" "lspci (pciutils) is not installed"
fi

# the collector reads every tree without errors
if [ -x "$RC" ]; then
	for k in gpu-ndr8 roce-pfc rxe; do
		mkdir -p "out-$k"
		SOURCE_DATE_EPOCH=1700000000 "$RC" --root "$T/$k" -q -o "out-$k" >/dev/null 2>"out-$k.err"
		check_eq "rdma-collect --root $k exits 0" "$?" 0
		b=$(ls "out-$k"/*.rdma.tar.zst 2>/dev/null | head -1)
		if [ -n "$b" ] && command -v python3 >/dev/null 2>&1; then
			check "$k: no source in error or partial" sh -c "tar --zstd -xOf '$b' manifest.json | python3 -c '
import json, sys
bad = [(s[\"name\"], s[\"status\"], s[\"reason\"]) for s in json.load(sys.stdin)[\"sources\"] if s[\"status\"] in (\"error\", \"partial\", \"timeout\", \"denied\")]
assert not bad, bad'"
		fi
	done
fi
