# History: several bundles of one node over time.  A roce-pfc fixture is
# collected several times (SOURCE_DATE_EPOCH gives each snapshot its time,
# proc/uptime its uptime, proc/sys/kernel/random/boot_id its boot) with
# counter files, firmware and the kernel log changed in between; every
# scenario is its own node (hostname + machine id) in one database.
cd "$T" || exit 1

MINE="COUNTER_GROWING CONFIG_CHANGED NEW_KERNEL_EVENTS"
T0=1764450000			# 2025-11-29T21:00:00Z
DAY=86400

mknode roce-pfc base >/dev/null 2>&1 || fail "roce-pfc fixture builds"
C=sys/class/infiniband/mlx5_0/ports/1/counters
H=sys/class/infiniband/mlx5_0/ports/1/hw_counters
E=rdma-collect/ethtool/ens1f0np0.json

# node NAME: a copy of the fixture as its own node
node() {
	cp -a base "$1"
	echo "$1" >"$1/proc/sys/kernel/hostname"
	printf "%032x\n" "$(printf "%s" "$1" | cksum | cut -d" " -f1)" >"$1/etc/machine-id"
}
# snap NAME DAYS UPTIME_S: a bundle of NAME at T0 + DAYS days, into out/
snap() {
	printf '%s 1000.00\n' "$3" >"$1/proc/uptime"
	SOURCE_DATE_EPOCH=$((T0 + $2 * DAY)) "$RC" -q --root "$1" -o out \
		>/dev/null 2>&1 || fail "collect $1 day $2"
}
setstat() {
	setjson "$1" '
for kv in d["stats"]:
    if kv[0] == sys.argv[3]:
        kv[1] = int(sys.argv[4])
        break
else:
    d["stats"].append([sys.argv[3], int(sys.argv[4])])' "$2" "$3"
}
# hist DB NODE RULE [DAY]: "severity component summary" of the rule's
# findings on the node's bundle of that day (default: the newest)
hist() {
	python3 - "$@" <<'EOF'
import sqlite3, sys
db, node, rule = sys.argv[1:4]
day = sys.argv[4] if len(sys.argv) > 4 else None
c = sqlite3.connect(db)
b = c.execute("SELECT b.id, b.collected_at FROM bundles b JOIN nodes n ON "
              "n.id = b.node_id WHERE n.name = ? ORDER BY b.collected_at",
              (node,)).fetchall()
bid = b[int(day)][0] if day is not None else b[-1][0]
sev = ["info", "warning", "critical"]
for s, comp, summ in c.execute("SELECT severity, component, summary FROM "
                               "findings WHERE bundle_id = ? AND rule = ? "
                               "ORDER BY component", (bid, rule)):
    print(sev[s], comp, summ)
EOF
}
# layer DB NODE: every history finding of every bundle of the node
layer() {
	python3 - "$@" <<'EOF'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for r in c.execute("SELECT f.rule, f.component, f.summary FROM findings f "
                   "JOIN bundles b ON b.id = f.bundle_id JOIN nodes n ON "
                   "n.id = b.node_id WHERE n.name = ? AND f.layer = "
                   "'history' ORDER BY b.collected_at", (sys.argv[2],)):
    print(*r)
EOF
}
# timeline DB NODE PYTHON: evaluate PYTHON over the history JSON (t)
timeline() {
	"$RA" history --db "$1" "$2" --json | python3 -c '
import json, sys
t = json.load(sys.stdin)[0]
print(eval(sys.argv[1]))' "$3"
}
mkdir -p out

# --- steady growth: warning with the rate
node grow
snap grow 0 $DAY
echo 100 >grow/$C/symbol_error
snap grow 1 $((2 * DAY))
echo 200 >grow/$C/symbol_error
snap grow 2 $((3 * DAY))

# --- acceleration: 100 in the first day, 1200 in the second
node accel
snap accel 0 $DAY
echo 100 >accel/$C/symbol_error
snap accel 1 $((2 * DAY))
echo 1300 >accel/$C/symbol_error
snap accel 2 $((3 * DAY))

# --- resets: a driver reload (same boot, value down), then a reboot
node reset
echo 500 >reset/$C/symbol_error
echo 50 >reset/$H/out_of_sequence
snap reset 0 $DAY
echo 3 >reset/$H/out_of_sequence
snap reset 1 $((2 * DAY))
echo 0 >reset/$C/symbol_error
echo 0 >reset/$H/out_of_sequence
echo 9d1e0c4a-5b7f-4c2e-8a3d-1f6e2b9c0d5a >reset/proc/sys/kernel/random/boot_id
snap reset 2 7200

# --- saturation: a 16-bit error counter and 32-bit counters at their
# maximum stay there
node sat
echo 100 >sat/$C/symbol_error
echo 1000 >sat/$C/port_xmit_wait
snap sat 0 $DAY
echo 65535 >sat/$C/symbol_error
echo 4294967295 >sat/$C/port_xmit_wait
echo 4294967295 >sat/$C/port_rcv_data
snap sat 1 $((2 * DAY))
snap sat 2 $((3 * DAY))

# --- 64-bit wraps: ethtool counters near 2^64 come back small
node wrap
setstat wrap/$E rx_bytes 18446744073709550616
setstat wrap/$E rx_discards_phy 18446744073709550616
snap wrap 0 $DAY
setstat wrap/$E rx_bytes 1000
setstat wrap/$E rx_discards_phy 18446744073709551516
snap wrap 1 $((2 * DAY))
setstat wrap/$E rx_discards_phy 50
snap wrap 2 $((3 * DAY))

# --- a firmware upgrade
node fw
snap fw 0 $DAY
for f in fw/sys/class/infiniband/mlx5_0/fw_ver fw/rdma-collect/verbs/mlx5_0.json; do
	sed -i 's/22\.39\.2048/22.41.1000/' "$f"
done
snap fw 1 $((2 * DAY))

# --- nccl.conf edited: a fingerprint attribute the settings list lacks
node nccl
snap nccl 0 $DAY
sed -i 's/^NCCL_IB_GID_INDEX=3$/NCCL_IB_GID_INDEX=1/' nccl/etc/nccl.conf
echo NCCL_IB_QPS_PER_CONNECTION=4 >>nccl/etc/nccl.conf
snap nccl 1 $((2 * DAY))

# --- the kernel log: the ring buffer lost its first records and gained
# two events and a normal line; then the same records in a new boot
node klog
snap klog 0 $DAY
K=klog/rdma-collect/klog/kmsg.txt
awk 'BEGIN { skip = 1 } /^[0-9]/ && ++n > 3 { skip = 0 } !skip' $K >$K.new
cat >>$K.new <<'EOF'
3,16,90000000,-;mlx5_core 0000:17:00.0: Port module event: module 0, Cable unplugged
 SUBSYSTEM=pci
 DEVICE=+pci:0000:17:00.0
3,17,90000100,-;mlx5_core 0000:17:00.0: Fatal error 1 detected
 SUBSYSTEM=pci
 DEVICE=+pci:0000:17:00.0
6,18,91000000,-;mlx5_core 0000:17:00.0: Port module event: module 0, Cable plugged
EOF
mv $K.new $K
snap klog 1 $((2 * DAY))
echo 9d1e0c4a-5b7f-4c2e-8a3d-1f6e2b9c0d5a >klog/proc/sys/kernel/random/boot_id
snap klog 2 $((3 * DAY))

# --- nothing changes but the time
node flat
for d in 0 1 2; do snap flat $d $(((d + 1) * DAY)); done

"$RA" load --db h.db out >/dev/null 2>&1
check_eq "all bundles load" "$(python3 -c '
import sqlite3; print(sqlite3.connect("h.db").execute("SELECT count(*) FROM bundles").fetchone()[0])')" 25

check_eq "steady growth: warning with the per-hour rate and the trend" \
	"$(hist h.db grow COUNTER_GROWING)" \
	"warning mlx5_0:1 mlx5_0:1: symbol_error +100 in 24.0 h (4.2/h), previous interval 4.2/h, since boot 2.8/h: steady"
check_eq "growth in the first interval: warning, no trend yet" \
	"$(hist h.db grow COUNTER_GROWING 1)" \
	"warning mlx5_0:1 mlx5_0:1: symbol_error +100 in 24.0 h (4.2/h)"
check_eq "acceleration (12x the previous interval): critical" \
	"$(hist h.db accel COUNTER_GROWING)" \
	"critical mlx5_0:1 mlx5_0:1: symbol_error +1200 in 24.0 h (50.0/h), previous interval 4.2/h, since boot 18.1/h: accelerating"
check_eq "a driver reload (value down in the same boot): no growth" \
	"$(hist h.db reset COUNTER_GROWING 1)" ""
check_eq "a reboot (counters back to 0): no growth" \
	"$(hist h.db reset COUNTER_GROWING 2)" ""
check_eq "timeline: the reset and the reboot" \
	"$(timeline h.db reset '[c["status"] for c in t["snapshots"][1]["counters"]], t["snapshots"][2]["reboot"], t["boots"]')" \
	"(['reset'], True, 2)"
check_eq "one bundle: since-boot rate over the uptime" \
	"$(timeline h.db reset '[(c["name"], round(c["per_hour"], 2)) for c in t["snapshots"][0]["since_boot"] if c["kind"] == "pma"]')" \
	"[('symbol_error', 20.83)]"
check_eq "growing to saturation: at least, no rate" \
	"$(hist h.db sat COUNTER_GROWING 1)" \
	"warning mlx5_0:1 mlx5_0:1: symbol_error at its 16-bit maximum 65535: at least +65435 since the previous snapshot (saturated, no rate)"
check_eq "saturated in both snapshots: no growth" \
	"$(hist h.db sat COUNTER_GROWING 2)" ""
check_eq "timeline: 32-bit counters at their maximum are saturated, without a rate" \
	"$(timeline h.db sat '[(c["name"], c["bits"], c["status"], c["per_hour"]) for c in t["snapshots"][1]["counters"] if c["name"] != "symbol_error"]')" \
	"[('port_rcv_data', 32, 'saturated', None), ('port_xmit_wait', 32, 'saturated', None)]"
# (a value of 2^63 or more is held at INT64_MAX: no reading gets there, so
# the counter is saturated, and a lower value after it a reset, not a wrap
# through 2^64; a database of an older version, with such values stored
# as their two's complement, still reads them as wraps)
check_eq "timeline: a 64-bit counter held at 2^63 and lower later is no wrap" \
	"$(timeline h.db wrap '[c["name"] for s in t["snapshots"] for c in s.get("counters", []) if c["status"] == "wrap"]')" \
	"[]"
check_eq "a 64-bit error counter held at 2^63 and lower later: no growth claimed" \
	"$(hist h.db wrap COUNTER_GROWING 2)" ""
check_eq "firmware upgrade: CONFIG_CHANGED (info) from, to, when" \
	"$(hist h.db fw CONFIG_CHANGED)" \
	"info mlx5_0 fw_ver changed from 22.39.2048 to 22.41.1000 (between 2025-11-29T21:00:00Z and 2025-11-30T21:00:00Z)"
check_eq "firmware upgrade: nothing else changed" "$(layer h.db fw | wc -l)" 1
check_eq "nccl.conf edited: CONFIG_CHANGED names the value changed and the one added" \
	"$(hist h.db nccl CONFIG_CHANGED | cut -d'(' -f1)" \
	"info nccl.conf.NCCL_IB_GID_INDEX nccl.conf.NCCL_IB_GID_INDEX changed from 3 to 1 
info nccl.conf.NCCL_IB_QPS_PER_CONNECTION nccl.conf.NCCL_IB_QPS_PER_CONNECTION changed from absent to 4 "
check_eq "ring buffer overlap: only the two new events" \
	"$(hist h.db klog NEW_KERNEL_EVENTS 1)" \
	"warning klog 2 RDMA-relevant kernel log events since the previous snapshot (2025-11-29T21:00:00Z): 1 fw_reset, 1 link_flap"
check_eq "the same records in a new boot are new events" \
	"$(hist h.db klog NEW_KERNEL_EVENTS 2 | cut -d: -f1-4)" \
	"warning klog 2 RDMA-relevant kernel log events since the previous snapshot (2025-11-30T21:00:00Z, before a reboot): 1 fw_reset, 1 link_flap"
check_eq "the first bundle of a node has no history findings" \
	"$(hist h.db klog NEW_KERNEL_EVENTS 0)" ""
check_eq "a uniform series is silent" "$(layer h.db flat)" ""
check_eq "a uniform series: the timeline shows no change" \
	"$(timeline h.db flat 'sum(len(s.get("counters", [])) + len(s.get("changes", [])) + len(s.get("kernel_events", [])) for s in t["snapshots"])')" 0

# the newest bundle's report carries its history findings
check_eq "report --db: the accelerating counter is critical" \
	"$("$RA" report --db h.db -f json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print([f["severity"] for n in d["nodes"] if n["node"] == "accel"
       for f in n["findings"] if f["rule"] == "COUNTER_GROWING"])')" "['critical']"

# loaded out of order: the newest first, the older ones later
"$RA" load --db late.db out/accel-20251201T210000Z.rdma.tar.zst >/dev/null 2>&1
check_eq "one bundle: no history finding" "$(hist late.db accel COUNTER_GROWING)" ""
"$RA" load --db late.db out/accel-2025113*.rdma.tar.zst out/accel-20251129*.rdma.tar.zst >/dev/null 2>&1
check_eq "older bundles loaded later: the newest is diagnosed again" \
	"$(hist late.db accel COUNTER_GROWING | cut -d' ' -f1)" critical

# the command
"$RA" history --db h.db grow >hist.out 2>&1
check_eq "history: exit 0" $? 0
check "history: one line per snapshot, with boot and uptime" \
	grep -q '^2025-11-30T21:00:00Z  boot c2a9e4f1  up 48.0 h  24.0 h after the previous' hist.out
check "history: the counter's delta and rate" \
	grep -q 'error     mlx5_0:1 pma symbol_error: 100 -> 200 (+100, 4.2/h)' hist.out
"$RA" history --db h.db reset >hist.out 2>&1
check "history: a reboot is shown" grep -q 'after the previous, rebooted' hist.out
check "history: a reset is shown without a rate" \
	grep -q 'out_of_sequence: 50 -> 3 (reset: cleared or driver reloaded, no rate)' hist.out
"$RA" history --db h.db nosuch >/dev/null 2>&1
check_eq "history: an unknown node is exit 4" $? 4
"$RA" history --db missing.db grow >/dev/null 2>&1
check_eq "history: a missing database is exit 4" $? 4
"$RA" history --db h.db >/dev/null 2>&1
check_eq "history: no NODE is a usage error (exit 3)" $? 3
"$RA" history --db h.db grow --json | python3 -c 'import json, sys; json.load(sys.stdin)' 2>/dev/null
check_eq "history --json is JSON" $? 0
