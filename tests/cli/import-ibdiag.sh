# import of an ibdiagnet output folder (analyze/import/imp-ibdiag.c): the same
# simulated fabric (tests/ibsim/fabric.sh) written once by rdma-collect
# --fabric and once as ibdiagnet2.db_csv + ibdiagnet2.fdbs from what
# ibnetdiscover, smpquery, perfquery and ibroute print (tests/mkibdiag.py);
# both loaded, their fabric tables compared; then a bad link; then hostile
# db_csv files.
. "$TOP/tests/ibsim/fabric.sh"
MK="python3 $TOP/tests/mkibdiag.py"

# --- hostile db_csv files: no fabric needed ---

mkdir -p "$T/h1" "$T/h2" "$T/h3"
python3 - "$T" <<'EOF'
import sys
t = sys.argv[1]
node = '"n%d",%s,1,1,1,0x%016x,0x%016x,0x%016x,4123,8,0,713,0\n'
with open(t + "/h1/ibdiagnet2.db_csv", "w") as f:
    # absurd counts: 99999 ports, type 7, a port 300, a counter past 2^64
    f.write("START_NODES\nNodeDesc,NumPorts,NodeType,ClassVersion,BaseVersion,"
            "SystemImageGUID,NodeGUID,PortGUID,DeviceID,PartitionCap,revision,"
            "VendorID,LocalPortNum\n")
    f.write(node % (1, "99999", 1, 1, 1))
    f.write('"bad",1,7,1,1,0x2,0x2,0x2,1,1,1,1,1\n')
    f.write("END_NODES\nSTART_PORTS\nNodeGuid,PortGuid,PortNum,LID,PortState\n"
            "0x1,0x1,1,5,4\n0x1,0x1,300,6,4\n0x1,0x1,2,999999,4\nEND_PORTS\n"
            "START_LINKS\nNodeGuid1,PortNum1,NodeGuid2,PortNum2\nEND_LINKS\n"
            "START_PM_INFO\nNodeGUID,PortGUID,PortNumber,SymbolErrorCounter,"
            "PortRcvErrors\n0x1,0x1,1,99999999999999999999999,7\nEND_PM_INFO\n")
with open(t + "/h2/ibdiagnet2.db_csv", "w") as f:
    # a section never ended, another opened inside it, then EOF
    f.write("START_NODES\nNodeDesc,NumPorts,NodeType,ClassVersion,BaseVersion,"
            "SystemImageGUID,NodeGUID,PortGUID,DeviceID,PartitionCap,revision,"
            "VendorID,LocalPortNum\n")
    f.write(node % (1, "1", 1, 1, 1))
    f.write("START_PORTS\nNodeGuid,PortGuid,PortNum,LID\n0x1,0x1,1,5\n")
with open(t + "/h3/ibdiagnet2.db_csv", "w") as f:
    # a 1 MiB line, 10,000 columns, then one good node
    f.write("START_NODES\n" + "x" * (1 << 20) + "\n")
    f.write(",".join("c%d" % i for i in range(10000)) + "\nEND_NODES\n")
    f.write("START_NODES\nNodeDesc,NumPorts,NodeType,NodeGUID\n"
            '"ok",1,1,0x42\nEND_NODES\n')
EOF
for h in h1 h2 h3; do
	"$RA" load -q --db "$T/$h.db" "$T/$h" >"$T/$h.out" 2>&1
	check_eq "hostile $h: loads" "$?" 0
done
check_eq "absurd values are left out, the rest kept" \
	"$(sqlite3 "$T/h1.db" "SELECT count(*), sum(num_ports IS NULL), sum(type IS NULL) FROM fabric_nodes; SELECT group_concat(port || ':' || coalesce(lid, 'null')) FROM fabric_ports; SELECT group_concat(name || '=' || value) FROM fabric_counters")" \
	"2|1|1
1:5,2:null
PortRcvErrors=7"
check_eq "an unterminated section: partial, the reason names it" \
	"$(sqlite3 "$T/h2.db" "SELECT status, reason, nodes, ports FROM fabric_scans")" \
	"partial|section NODES not terminated; section PORTS not terminated; no LINKS section: links unknown|1|1"
check_eq "a huge line and too many columns: skipped and said" \
	"$(sqlite3 "$T/h3.db" "SELECT status, reason, nodes FROM fabric_scans")" \
	"partial|section NODES: too many columns; no LINKS section: links unknown; 1 lines over 64 KiB skipped|1"

if ! fab_have; then
	skip "ibdiagnet import on ibsim" "missing: $FAB_MISSING"
	exit 0
fi
export ASAN_OPTIONS="verify_asan_link_order=0:detect_leaks=1:suppressions=$TOP/tests/ibsim/asan-umad2sim.supp"
export LSAN_OPTIONS="suppressions=$TOP/tests/ibsim/lsan-ibnetdisc.supp"

# 2 spines, 3 leaves, 4 HCAs a leaf; node006's cable is 1X
fab_fattree 2 3 4 | sed '/^\[2\] "node006"\[1\]$/s/$/ w=1/' >"$T/fat.topo"
FAB_SOCK=rcimp$$
if ! fab_start "$T/fab" "$T/fat.topo"; then
	fail "ibsim starts"
	exit 0
fi
trap 'fab_stop' EXIT
check "opensm sweeps once" fab_sm_once node001
fab_cmd 'PerformanceSet "leaf2"[5] PortCounters.SymbolErrorCounter=123' >/dev/null
fab_cmd 'PerformanceSet "node005"[1] PortCounters.PortRcvErrors=77' >/dev/null

# ibdiag NAME: the ibdiagnet folder $T/NAME from the tools' answers
ibdiag() {
	mkdir -p "$T/$1.q" "$T/$1"
	fab_run node001 ibnetdiscover >"$T/$1.ibnd" 2>/dev/null
	$MK plan "$T/$1.ibnd" | while read -r k lid port; do
		case $k in
		pi) fab_run node001 smpquery portinfo "$lid" "$port" ;;
		pq) fab_run node001 perfquery "$lid" "$port"
		    fab_run node001 perfquery -x "$lid" "$port" \
			>"$T/$1.q/pqx.$lid.$port" ;;
		rt) fab_run node001 ibroute "$lid" ;;
		esac >"$T/$1.q/$k.$lid${port:+.$port}" 2>/dev/null
	done
	$MK write "$T/$1.ibnd" "$T/$1.q" "$T/$1"
}
check "the ibdiagnet folder is written" ibdiag diag
fab_run node001 "$RC" -q --only fabric --fabric -o "$T/b.rdma.tar.zst" \
	>/dev/null 2>"$T/rc.err"
check_eq "rdma-collect --fabric exits 0" "$?" 0
fab_reap >/dev/null
fab_stop
trap - EXIT

"$RA" load -q --db "$T/i.db" "$T/diag" >"$T/li.out" 2>&1
check_eq "the ibdiagnet folder loads" "$?" 0
"$RA" load -q --db "$T/b.db" "$T/b.rdma.tar.zst" >"$T/lb.out" 2>&1
check_eq "the bundle loads" "$?" 0

# tab DB QUERY: the rows, sorted
tab() { sqlite3 "$1" "$2" | sort; }
NODES="SELECT guid, type, desc, num_ports, lid, system_guid, vendor_id, device_id FROM fabric_nodes"
# the fastest speed of a port, whichever field holds it (db_csv carries
# the active extended speed alone)
PORTS="SELECT guid, port, port_guid, lid, lmc, state, phys_state, width_enabled, width_supported, width_active, speed_enabled, speed_supported, CASE WHEN speed_ext_active > 0 THEN 'x' || speed_ext_active ELSE speed_active END, speed_ext_enabled, speed_ext_supported, remote_guid, remote_port FROM fabric_ports"
# error counters and PortXmitWait (not the selectors, nor QP1Dropped, which
# ibdiagnet does not write): data and packet counters move while
# the tools read them
CNT="SELECT guid, port, grp, name, value FROM fabric_counters WHERE name NOT LIKE '%Data' AND name NOT LIKE '%Pkts' AND name NOT LIKE '%Select%' AND name <> 'QP1Dropped'"
LFT="SELECT guid, lid, port FROM fabric_lft"
SCAN="SELECT nodes, switches, ports, links, lft_entries FROM fabric_scans"
for q in NODES PORTS CNT LFT SCAN; do
	eval "sql=\$$q"
	tab "$T/i.db" "$sql" >"$T/i.$q"
	tab "$T/b.db" "$sql" >"$T/b.$q"
	if diff "$T/b.$q" "$T/i.$q" >"$T/d.$q"; then
		ok "fabric $q: the import equals the bundle ($(wc -l <"$T/b.$q") rows)"
	else
		fail "fabric $q: the import equals the bundle"
		head -10 "$T/d.$q" | sed 's/^/#   /'
	fi
done
check_eq "17 nodes, 5 switches, 41 ports, 18 links" "$(cat "$T/i.SCAN")" \
	"17|5|41|18|85"
check_eq "the injected symbol errors, in both" \
	"$(grep -c '|PortCounters|SymbolErrorCounter|123$' "$T/i.CNT") $(grep -c '|PortCounters|SymbolErrorCounter|123$' "$T/b.CNT")" \
	"1 1"
check_eq "the 1X cable: width_active 1 at both ends, in both" \
	"$(awk -F'|' '$10 == 1' "$T/i.PORTS" | wc -l) $(awk -F'|' '$10 == 1' "$T/b.PORTS" | wc -l)" \
	"2 2"

# the comparison can fail: one counter changed in the db_csv
sed 's/^\(0x7cfe900300c00003,0x7cfe900300c00003,5,[0-9]*,[0-9]*,\)123,/\1124,/' \
	"$T/diag/ibdiagnet2.db_csv" >"$T/bad.csv"
check_eq "one line changed" \
	"$(diff "$T/diag/ibdiagnet2.db_csv" "$T/bad.csv" | grep -c '^>')" 1
mkdir -p "$T/bad" && cp "$T/bad.csv" "$T/bad/ibdiagnet2.db_csv"
"$RA" load -q --db "$T/bad.db" "$T/bad" >/dev/null 2>&1
check "the counter comparison sees it" sh -c \
	"! sqlite3 '$T/bad.db' \"$CNT\" | sort | diff -q '$T/b.CNT' - >/dev/null"

# the same fabric findings from both (the rules fire on what both hold)
finds() {
	"$RA" report --format json "$1" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
for n in d["nodes"]:
    for f in n["findings"]:
        if f["rule"] in ("LINK_DEGRADED", "SYMBOL_ERRORS", "PORT_RCV_ERRORS"):
            print(f["rule"], f["severity"], f["component"])' | sort
}
check_eq "the same fabric findings from the import and the bundle" \
	"$(finds "$T/diag")" "$(finds "$T/b.rdma.tar.zst")"

# the folder's files it read are listed as read, by their readers
check_eq "the db_csv is listed as read by the ibdiagnet reader" \
	"$(sqlite3 "$T/i.db" "SELECT file, reader, status FROM import_inputs
		WHERE file LIKE '%db_csv'")" "ibdiagnet2.db_csv|ibdiagnet|read"
