# Layer 5 (perf) rules: PFC, pause, CNPs, packets lost in flight, buffer
# drops.  Faults are written into roce-pfc trees (dcb and ethtool stored
# forms, hw_counters files); counter growth during --sample is made by
# changing a file while the collector waits between its two passes.
cd "$T" || exit 1

MINE="PFC_DISABLED PAUSE_STORM PAUSE_HEAVY CNP_HEAVY DROPS_IN_FLIGHT RX_BUFFER_DROPS"

# setstat FILE NAME VALUE: set (or add) an ethtool stat in a stored form
setstat() {
	setjson "$1" '
for kv in d["stats"]:
    if kv[0] == sys.argv[3]:
        kv[1] = int(sys.argv[4])
        break
else:
    d["stats"].append([sys.argv[3], int(sys.argv[4])])' "$2" "$3"
}

# with_sample TREE: give a tree a stored second read (a root's own
# rdma-collect/sample/ is copied instead of reading twice): the sysfs
# second pass of a real --sample run, plus ethtool second reads equal to
# the first ones (the collector reads no ethtool under --root)
with_sample() {
	"$RC" -q --root "$1" --sample 1 -o "$1.tmp.rdma.tar.zst" >/dev/null 2>&1
	tar --zstd -xf "$1.tmp.rdma.tar.zst" -C "$1" rdma-collect/sample
	rm -f "$1.tmp.rdma.tar.zst"
	mkdir -p "$1/rdma-collect/sample/ethtool"
	for f in "$1"/rdma-collect/ethtool/*.json; do
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
json.dump({"ifname": d["ifname"], "status": d["status"], "stats": d.get("stats", []),
           "errors": {}}, open(sys.argv[2], "w"))' "$f" "$1/rdma-collect/sample/ethtool/${f##*/}"
	done
}

for k in gpu-ndr8 roce-pfc rxe; do
	mknode "$k" "$k" >/dev/null 2>&1 || fail "$k fixture builds"
	with_sample "$k"
done
for k in gpu-ndr8 roce-pfc rxe; do
	collect "$k" "$k.rdma.tar.zst"
	check_eq "healthy $k (--sample): nothing at warning or above from the perf rules" \
		"$(loud "$k.rdma.tar.zst")" ""
done
# counts from before the sample that did not grow: info
cp -a roce-pfc old
for d in old/sys/class/infiniband/mlx5_0/ports/1/hw_counters \
	 old/rdma-collect/sample/sys/class/infiniband/mlx5_0/ports/1/hw_counters; do
	printf '2\n' >"$d/out_of_sequence"
	printf '1\n' >"$d/duplicate_request"
done
for f in old/rdma-collect/ethtool/ens1f0np0.json old/rdma-collect/sample/ethtool/ens1f0np0.json; do
	setstat "$f" rx_out_of_buffer 17
done
collect old old.rdma.tar.zst
check_eq "since-boot sequence errors not growing: info" \
	"$(sev old.rdma.tar.zst DROPS_IN_FLIGHT mlx5_0:1)" info
check_eq "since-boot rx_out_of_buffer not growing: info" \
	"$(sev old.rdma.tar.zst RX_BUFFER_DROPS ens1f0np0)" info
check_eq "healthy roce-pfc: PFC on priority 3" "$(sev roce-pfc.rdma.tar.zst PFC_DISABLED ens1f0np0)" none
check_eq "rxe (no DCB): PFC_DISABLED does not guess" "$(sev rxe.rdma.tar.zst PFC_DISABLED eth0)" none

# --- one read (no --sample): since-boot values and rates over uptime
cp -a roce-pfc r
rm -rf r/rdma-collect/sample
E=r/rdma-collect/ethtool
H=r/sys/class/infiniband
setjson r/rdma-collect/dcb/ens1f0np0.json 'd["pfc"]["pfc_en"] = 0'
setstat $E/ens1f1np1.json tx_pause_storm_error_events 3
# the older drivers' name, with a trailing space
setjson $E/ens1f0np0.json '
for kv in d["stats"]:
    if kv[0] == "tx_pause_storm_warning_events":
        kv[0] = "tx_pause_storm_warning_events "
        kv[1] = 2'
# uptime 604811 s: 1% is 6048 s of pause = 6.05e9 us
setstat $E/ens1f1np1.json rx_prio3_pause_duration 9000000000
setstat $E/ens1f0np0.json rx_discards_phy 12
# CNP: 10,000/s over 604811 s is 6.05e9
printf '9000000000\n' >$H/mlx5_0/ports/1/hw_counters/np_cnp_sent
printf '5\n' >$H/mlx5_1/ports/1/hw_counters/local_ack_timeout_err
"$RC" -q --root r -o r.rdma.tar.zst >/dev/null 2>&1
b=r.rdma.tar.zst
check_eq "PFC_DISABLED: pfc_en 0 on a RoCE netdev" "$(sev $b PFC_DISABLED ens1f0np0)" warning
check_eq "PFC_DISABLED: the other port keeps PFC" "$(sev $b PFC_DISABLED ens1f1np1)" none
check_eq "PAUSE_STORM: error events" "$(sev $b PAUSE_STORM ens1f1np1)" critical
check_eq "PAUSE_STORM: warning events named with a trailing space" \
	"$(sev $b PAUSE_STORM ens1f0np0)" critical
check_eq "PAUSE_HEAVY: pause 1.5% of uptime" "$(sev $b PAUSE_HEAVY ens1f1np1)" warning
check "PAUSE_HEAVY says the share of uptime" sh -c \
	"echo '$(summary $b PAUSE_HEAVY ens1f1np1)' | grep -q 'for 1.5% of the uptime (604811 s)'"
check_eq "PAUSE_HEAVY: healthy pause duration" "$(sev $b PAUSE_HEAVY ens1f0np0)" none
check_eq "CNP_HEAVY: np_cnp_sent 14881/s over uptime" "$(sev $b CNP_HEAVY mlx5_0:1)" warning
check_eq "CNP_HEAVY: healthy port" "$(sev $b CNP_HEAVY mlx5_1:1)" none
check_eq "DROPS_IN_FLIGHT: one read, local_ack_timeout_err 5: warning" \
	"$(sev $b DROPS_IN_FLIGHT mlx5_1:1)" warning
check "DROPS_IN_FLIGHT on RoCE points at PFC" sh -c \
	"echo '$(summary $b DROPS_IN_FLIGHT mlx5_1:1)' | grep -q 'local_ack_timeout_err 5.*on RoCE: PFC misconfigured'"
check_eq "RX_BUFFER_DROPS: rx_discards_phy 12" "$(sev $b RX_BUFFER_DROPS ens1f0np0)" warning

# --- growth during --sample (the stored second read of the tree)
cp -a roce-pfc s
E=s/rdma-collect/sample/ethtool
setstat $E/ens1f0np0.json rx_prio3_pause_duration 600000
setstat $E/ens1f1np1.json rx_discards_phy 40
printf '7\n' >s/rdma-collect/sample/sys/class/infiniband/mlx5_0/ports/1/hw_counters/packet_seq_err
# mlx5_1 np_cnp_sent is 1985: +20000 in the ~1 s interval
printf '21985\n' >s/rdma-collect/sample/sys/class/infiniband/mlx5_1/ports/1/hw_counters/np_cnp_sent
# mlx5_1: out_of_sequence 3 before and after: not growing
printf '3\n' >s/sys/class/infiniband/mlx5_1/ports/1/hw_counters/out_of_sequence
printf '3\n' >s/rdma-collect/sample/sys/class/infiniband/mlx5_1/ports/1/hw_counters/out_of_sequence
"$RC" -q --root s --sample 1 -o s.rdma.tar.zst >/dev/null 2>&1
b=s.rdma.tar.zst
check_eq "PAUSE_HEAVY: ~0.6 s of pause in a ~1 s sample" "$(sev $b PAUSE_HEAVY ens1f0np0)" warning
check "PAUSE_HEAVY says the share of the sample" sh -c \
	"echo '$(summary $b PAUSE_HEAVY ens1f0np0)' | grep -q '% of the [0-9.]* s sample'"
check_eq "RX_BUFFER_DROPS: rx_discards_phy grew during the sample" \
	"$(sev $b RX_BUFFER_DROPS ens1f1np1)" warning
check_eq "DROPS_IN_FLIGHT: packet_seq_err grew during the sample" \
	"$(sev $b DROPS_IN_FLIGHT mlx5_0:1)" warning
check_eq "CNP_HEAVY: 20000 CNPs in the ~1 s sample" "$(sev $b CNP_HEAVY mlx5_1:1)" warning
check_eq "CNP_HEAVY: the other port's CNPs did not grow" "$(sev $b CNP_HEAVY mlx5_0:1)" none
check_eq "DROPS_IN_FLIGHT: not growing on the other port: info" \
	"$(sev $b DROPS_IN_FLIGHT mlx5_1:1)" info

# InfiniBand wording
cp -a gpu-ndr8 g
printf '4\n' >g/sys/class/infiniband/mlx5_5/ports/1/hw_counters/local_ack_timeout_err
rm -rf g/rdma-collect/sample
# no per-priority or global pause durations on IPoIB: the pause frame
# count at the largest quanta bounds the pause time
setstat g/rdma-collect/ethtool/ibp20s0.json rx_pause_ctrl_phy 1000000000000
"$RC" -q --root g -o g.rdma.tar.zst >/dev/null 2>&1
check "DROPS_IN_FLIGHT on InfiniBand points at the link" sh -c \
	"echo '$(summary g.rdma.tar.zst DROPS_IN_FLIGHT mlx5_5:1)' | grep -q 'on InfiniBand: a bad link'"
check_eq "PAUSE_HEAVY from rx_pause_ctrl_phy (upper bound)" \
	"$(sev g.rdma.tar.zst PAUSE_HEAVY ibp20s0)" warning
check "PAUSE_HEAVY from frames says it is an upper bound" sh -c \
	"echo '$(summary g.rdma.tar.zst PAUSE_HEAVY ibp20s0)' | grep -q 'at most'"
check_eq "PAUSE_HEAVY: other IPoIB netdevs without pause" \
	"$(sev g.rdma.tar.zst PAUSE_HEAVY ibp36s0)" none

# --- another vendor's RoCE (tests/fixtures/mkbnxt.sh: bnxt_re on bnxt_en):
# the counters only mlx5 names are skipped with the reason, not passed;
# PFC (DCB netlink) is generic and judged
"$FIXTURES/mkbnxt.sh" bnxt || fail "mkbnxt.sh builds"
setjson bnxt/rdma-collect/dcb/ens1f0np0.json 'd["pfc"]["pfc_en"] = 0'
"$RC" -q --root bnxt -o bnxt.rdma.tar.zst >/dev/null 2>&1
"$RA" report --format json bnxt.rdma.tar.zst >bnxt.json 2>/dev/null
check "bnxt_re node: DROPS_IN_FLIGHT, RX_BUFFER_DROPS, PAUSE_STORM, PAUSE_HEAVY skipped: no mlx5 device" python3 -c '
import json
d = json.load(open("bnxt.json"))
s = {x["rule"]: x["reason"] for n in d["nodes"] for x in n["skipped"]}
for r in ("DROPS_IN_FLIGHT", "RX_BUFFER_DROPS", "PAUSE_STORM", "PAUSE_HEAVY"):
    assert s.get(r, "").startswith("no mlx5 device (RDMA devices: bnxt_re0 bnxt_re1)"), (r, s.get(r))
'
check_eq "bnxt_re node: PFC_DISABLED is judged (generic)" \
	"$(sev bnxt.rdma.tar.zst PFC_DISABLED ens1f0np0)" warning
check_eq "rxe: RX_BUFFER_DROPS skipped (no mlx5 device), not passed" \
	"$("$RA" report --format json rxe.rdma.tar.zst 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print([x["reason"][:14] for n in d["nodes"] for x in n["skipped"] if x["rule"] == "RX_BUFFER_DROPS"])')" "['no mlx5 device']"

# --- ethtool_stats.pl's per-second rates (netdev_stats 'ethtool-rate'),
# written here in its format: judged as growth over a 1 s sample, with no
# uptime; two rounds, the highest rate kept; a wrapped line joined; a
# line whose two numbers disagree and a negative rate left out
mkdir -p rates
cat >rates/ethtool_stats.txt <<'R'
Show adapter(s) (ens1f0np0) statistics (ONLY that changed!)
Ethtool(ens1f0np0) stat:       100000 (        100,000) <= rx_prio3_pause_duration /sec
Ethtool(ens1f0np0) stat:         5000 (          5,000) <= rx_cnp_pkts /sec

Show adapter(s) (ens1f0np0) statistics (ONLY that changed!)
Ethtool(ens1f0np0) stat:       300000 (        300,000) <= 
rx_prio3_pause_duration /sec
Ethtool(ens1f0np0) stat:        20000 (         20,000) <= rx_cnp_pkts /sec
Ethtool(ens1f0np0) stat:            1 (              1) <= tx_pause_storm_warning_events /sec
Ethtool(ens1f0np0) stat:          999 (          1,000) <= rx_discards_phy /sec
Ethtool(ens1f0np0) stat:          -20 (            -20) <= rx_out_of_buffer /sec
R
check_eq "rates: PAUSE_HEAVY from rx_prio3_pause_duration 300000 us/s (30%)" \
	"$(sev rates PAUSE_HEAVY ens1f0np0)" warning
check "rates: ... the highest round, said to be ethtool_stats.pl's" sh -c \
	"echo '$(summary rates PAUSE_HEAVY ens1f0np0)' | grep -q '30.0% of a second at most (ethtool_stats.pl'"
check_eq "rates: CNP_HEAVY from rx_cnp_pkts 20000/s" "$(sev rates CNP_HEAVY ens1f0np0)" warning
check_eq "rates: PAUSE_STORM from the warning events growing" \
	"$(sev rates PAUSE_STORM ens1f0np0)" critical
check_eq "rates: a line whose numbers disagree and a negative rate are not drops" \
	"$(sev rates RX_BUFFER_DROPS ens1f0np0)" none

# a paste of ibdev2netdev and mlnx_qos only: no port facts, but a netdev
# of an RDMA port with DCB is Ethernet (IPoIB has none) and, its link up,
# an ACTIVE RoCE port; a link down, or a netdev of no RDMA port, is not
mkdir qos
{
	printf '$ ibdev2netdev\nmlx5_0 port 1 ==> ens1 (Up)\nmlx5_1 port 1 ==> ens2 (Down)\n'
	for i in ens1 ens2 eth9; do
		printf '$ mlnx_qos -i %s\nPriority trust state: pcp\nPFC configuration:\n' "$i"
		printf '        priority    0   1   2   3   4   5   6   7\n'
		printf '        enabled     0   0   0   0   0   0   0   0   \n'
	done
} >qos/t.txt
check_eq "PFC_DISABLED: ibdev2netdev and mlnx_qos alone, link up" \
	"$(sev qos PFC_DISABLED ens1)" warning
check_eq "... the link down: not judged" "$(sev qos PFC_DISABLED ens2)" none
check_eq "... a netdev of no RDMA port: not judged" "$(sev qos PFC_DISABLED eth9)" none
