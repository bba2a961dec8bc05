# load-fabric: the mad and fabric documents into the database
# (analyze/load-fabric.c): what is loaded matches the JSON, and hostile
# documents (wrong types, huge or negative values, garbage, forged sizes)
# load what is sound and never crash.
. "$TOP/tests/fabric-lib.sh"
cd "$T" || exit 1

mknode gpu-ndr8 g >/dev/null 2>&1 || fail "gpu-ndr8 fixture builds"
python3 "$MKFABRIC" mad g
python3 "$MKFABRIC" fabric g/rdma-collect/fabric/fabric.json 2 3 3
mad_bundle g m.rdma.tar.zst || fail "a bundle with mad and fabric documents"
"$RA" load --db m.db m.rdma.tar.zst 2>/dev/null
check_eq "load exits 0" "$?" 0
q() { sqlite3 m.db "$1"; }

check_eq "one mad_ports row per IB port" "$(q 'SELECT count(*) FROM mad_ports')" 8
check_eq "local and peer PortInfo of each" \
	"$(q "SELECT group_concat(side) FROM (SELECT DISTINCT side FROM mad_portinfo ORDER BY 1)")" \
	"local,peer"
check_eq "local LID as sysfs has it (0x4a3)" \
	"$(q "SELECT lid FROM mad_portinfo WHERE ibdev = 'mlx5_2' AND side = 'local'")" 1187
check_eq "the peer: switch, its LID (port 0's), the port the cable enters" \
	"$(q "SELECT node_type, lid, port_num, node_guid, node_desc FROM mad_portinfo WHERE ibdev = 'mlx5_2' AND side = 'peer'")" \
	"2|16|3|0x7cfe900300c0aa00|MF0;ib-leaf07:MQM9700/U1"
check_eq "widths and speeds as raw masks" \
	"$(q "SELECT width_enabled, width_supported, width_active, speed_ext_enabled, speed_ext_active FROM mad_portinfo WHERE ibdev = 'mlx5_0' AND side = 'peer'")" \
	"3|3|2|15|8"
check_eq "SMInfo: master at LID 1" \
	"$(q "SELECT sm_lid, state, priority, guid, error IS NULL FROM mad_sminfo WHERE ibdev = 'mlx5_0'")" \
	"1|3|15|0x7cfe900300c0ff01|1"
check_eq "PMA counters of both ends, both groups" \
	"$(q "SELECT count(DISTINCT side || grp) FROM mad_counters")" 4
check_eq "fabric scan counts: 14 nodes, 5 switches, 35 ports, 15 links" \
	"$(q 'SELECT status, nodes, switches, ports, links, lft_entries, dropped FROM fabric_scans')" \
	"ok|14|5|35|15|70|0"
check_eq "fabric ports: the remote end of a cable" \
	"$(q "SELECT remote_guid, remote_port FROM fabric_ports WHERE guid = '0xb8cef60300d00008'")" \
	"0x7cfe900300c10002|1"
check_eq "LFT: leaf2 sends LID 4 (its first HCA) down port 1" \
	"$(q "SELECT port FROM fabric_lft WHERE guid = '0x7cfe900300c10002' AND lid = 4")" 1
check_eq "LFT: no row for LID 0 (255: no route)" \
	"$(q "SELECT count(*) FROM fabric_lft WHERE lid = 0")" 0
check_eq "lft_top: the table's length" \
	"$(q "SELECT lft_top FROM fabric_nodes WHERE guid = '0x7cfe900300c10001'")" 15
check_eq "fabric counters of active ports" \
	"$(q "SELECT count(*) FROM fabric_counters WHERE name = 'SymbolErrorCounter'")" 30

# --- hostile documents ---
cp -a g h
setjson h/rdma-collect/mad/mlx5_0.1.json '
d["port"] = "x"; d["local"]["portinfo"]["Lid"] = -5
d["local"]["portinfo"]["LinkWidthActive"] = 1e300
d["local"]["nodeinfo"]["NodeGuid"] = "0xnothex"
d["peer"]["pma"]["PortCounters"]["SymbolErrorCounter"] = 18446744073709551615
d["peer"]["pma"]["PortCounters"]["PortRcvErrors"] = -1
d["peer"]["pma"]["PortCounters"]["LinkDownedCounter"] = "12"
d["peer"]["node_desc"] = ["not", "a", "string"]
d["sminfo"] = "master"'
setjson h/rdma-collect/mad/mlx5_1.1.json 'd.clear(); d.update({"local": 7, "peer": [], "errors": [1, 2]})'
printf '{"ibdev": "mlx5_2", "port": 1, "local": {' >h/rdma-collect/mad/mlx5_2.1.json
printf '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[' \
	>h/rdma-collect/mad/mlx5_3.1.json
setjson h/rdma-collect/fabric/fabric.json '
n = d["nodes"]
n[0]["guid"] = 12345; n[1]["guid"] = None; n[2]["ports"] = "none"
n[3]["ports"][0]["port"] = 999; n[4]["ports"][0]["remote"] = "x"
n[9]["lft"] = [255] * 3 + ["a", -1, 7.5, 300, 2 ** 70]
n[10]["lft"] = [1] * 70000
d["errors"] = ["e%d" % i for i in range(100000)]
d["nodes"].append("a node"); d["status"] = {"x": 1}; d["from"] = None'
mad_bundle h h.rdma.tar.zst || fail "a hostile bundle"
"$RA" load --db h.db h.rdma.tar.zst >/dev/null 2>h.err
check_eq "a hostile mad/fabric bundle loads (exit 0)" "$?" 0
check "no sanitizer report" sh -c '! grep -q "runtime error\|Sanitizer" h.err'
qh() { sqlite3 h.db "$1"; }
check_eq "port from the file name when the member is bad; bad values NULL" \
	"$(qh "SELECT port, lid IS NULL, width_active IS NULL, node_guid IS NULL FROM mad_portinfo WHERE ibdev = 'mlx5_0' AND side = 'local'")" \
	"1|1|1|1"
check_eq "a 64-bit counter past 2^63 is clamped, a negative one dropped, a string one dropped" \
	"$(qh "SELECT group_concat(name || '=' || value) FROM mad_counters WHERE ibdev = 'mlx5_0' AND side = 'peer' AND grp = 'PortCounters' AND name IN ('SymbolErrorCounter', 'PortRcvErrors', 'LinkDownedCounter')")" \
	"SymbolErrorCounter=9223372036854775807"
check_eq "sminfo of the wrong type: no state, a reason" \
	"$(qh "SELECT state IS NULL, error FROM mad_sminfo WHERE ibdev = 'mlx5_0'")" \
	"1|no SMInfo in the bundle"
check_eq "an emptied document still names its port" \
	"$(qh "SELECT count(*) FROM mad_ports WHERE ibdev = 'mlx5_1'")" 1
check_eq "truncated and over-deep documents are skipped" \
	"$(qh "SELECT count(*) FROM mad_ports WHERE ibdev IN ('mlx5_2', 'mlx5_3')")" 0
check_eq "a numeric GUID is taken, a null one drops its node" \
	"$(qh "SELECT count(*) FROM fabric_nodes WHERE guid = '0x0000000000003039'") $(qh 'SELECT nodes FROM fabric_scans')" \
	"1 13"
check_eq "only sound LFT entries (ports 0-254)" \
	"$(qh "SELECT group_concat(lid || ':' || port) FROM fabric_lft WHERE guid = (SELECT guid FROM fabric_nodes WHERE desc = 'MF0;leaf1:MQM9700/U1')")" ""
check_eq "an LFT past the last unicast LID is cut and counted" \
	"$(qh "SELECT count(*) FROM fabric_lft WHERE guid = '0x7cfe900300c10002'") $(qh 'SELECT dropped FROM fabric_scans')" \
	"49152 20848"
check_eq "error lines are counted, their text capped" \
	"$(qh 'SELECT errors, length(error_text) < 5000 FROM fabric_scans')" "100000|1"
