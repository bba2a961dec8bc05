# import-fabric: the fabric tools' outputs pasted alone, with no local port
# to attach them to (analyze/import/imp-ib.c, imp-fabric-text.c): a perfquery of
# a remote LID is that port's counters and reaches the fabric checks;
# ibnetdiscover (-p and the topology) and ibswitches give the nodes; a
# lone sminfo is the subnet's SM, answering or not; a redacted SM GUID and
# a mail-wrapped, cexec'd sminfo still read; ibqueryerrors' switch sum
# ("port ALL") and port 0 are kept.
cd "$T" || exit 1

# perfquery -x of a switch port, no ibstat: XMIT_DISCARDS and
# LINK_FLAPPING on that port, named by its LID
mkdir pq
cat >pq/perfquery.txt <<'EOF'
# Port extended counters: Lid 2052 port 1 (CapMask: 0x5300 CapMask2: 0x0000002)
PortSelect:......................1
PortXmitData:....................178791657177235
LinkDownedCounter:...............1
PortXmitDiscards:................20046
PortXmitWait:....................41864608
# Port extended counters: Lid 2052 port 2 (CapMask: 0x5300 CapMask2: 0x0000002)
PortSelect:......................2
PortXmitData:....................1000
SymbolErrorCounter:..............0
EOF
check_eq "lone perfquery: XMIT_DISCARDS on the switch port" \
	"$(sev pq XMIT_DISCARDS 'LID 2052 port 1')" warning
check_eq "lone perfquery: LINK_FLAPPING from its LinkDownedCounter" \
	"$(sev pq LINK_FLAPPING 'LID 2052 port 1')" warning
check_eq "lone perfquery: the clean second port stays quiet" \
	"$(sev pq SYMBOL_ERRORS 'LID 2052 port 2')" none
"$RA" pq >pq.out 2>&1
check "lone perfquery: read, and not OK for want of evidence" \
	grep -q "1 read, 0 not" pq.out

# a lone sminfo: a STANDBY SM answering is SM_NOT_MASTER; a failure is
# SM_ABSENT on the subnet's SM; a master is no finding and not skipped
mkdir sb ab ms
printf 'sminfo: sm lid 2 sm guid 0x2c90200259201, activity count 6881 priority 0 state 2 SMINFO_STANDBY\n' >sb/sminfo.txt
printf 'sminfo: iberror: failed: query\n' >ab/sminfo.txt
# cexec banners, mail-wrapped state, a redacted GUID in the second answer
cat >ms/sminfo.txt <<'EOF'
************************* oscar_cluster *************************
--------- n01---------
sminfo: sm lid 2 sm guid 0x2c90200259201, activity count 6881 priority 0 
state 3 SMINFO_MASTER
--------- n02---------
sminfo: sm lid 2 sm guid 0x2c90200259201, activity count 6882 priority 0 
state 3 SMINFO_MASTER
EOF
check_eq "lone sminfo: a STANDBY SM" "$(sev sb SM_NOT_MASTER sm)" warning
check_eq "lone sminfo: no SM answers" "$(sev ab SM_ABSENT sm)" critical
check_eq "lone sminfo, wrapped, cexec'd: the master is no finding" \
	"$(sev ms SM_NOT_MASTER sm)" none
"$RA" ms >ms.out 2>&1
check "lone sminfo, wrapped: read whole, SM_NOT_MASTER not skipped" \
	sh -c '! grep -q "SM_NOT_MASTER" ms.out && grep -q "1 read, 0 not" ms.out'
mkdir rd
printf '$ sminfo\nsminfo: sm lid 1 sm guid 0xe89e4903003xxxxx, activity count 6306612 priority 15 state 2 SMINFO_STANDBY\n' >rd/notes.txt
check_eq "sminfo with a redacted GUID: still an SM" \
	"$(sev rd SM_NOT_MASTER sm)" warning

# ibnetdiscover -p: both ends of each link, the peerless "4x ???" port;
# the topology format; ibswitches with redacted GUIDs known by LID
mkdir nd
cat >nd/ibnetdiscover-p.txt <<'EOF2'
CA   134  1 0x7cfe9003003b4bde 4x EDR - SW  1719 10 0x7cfe9003009ce5b0 ( 'o0001 HCA-1' - 'ib-i1l1s01' )
SW  1719 10 0x7cfe9003009ce5b0 4x EDR - CA   134  1 0x7cfe9003003b4bde ( 'ib-i1l1s01' - 'o0001 HCA-1' )
SW  2052 37 0x506b4b03005c2740 4x ???                                    'ib-i4l1s01'
EOF2
fab_q() {	# fab_q DIR SQL: a query of the import's database
	rm -f "$T/fq.db"
	"$RA" --db "$T/fq.db" "$1" >/dev/null 2>&1
	sqlite3 "$T/fq.db" "$2" 2>/dev/null
}
if command -v sqlite3 >/dev/null 2>&1; then
	check_eq "ibnetdiscover -p: the nodes, switches with their LIDs" \
		"$(fab_q nd "SELECT group_concat(type || ':' || coalesce(lid, '-') || ':' || desc, ' ') FROM (SELECT * FROM fabric_nodes ORDER BY guid)")" \
		"2:2052:ib-i4l1s01 1:-:o0001 HCA-1 2:1719:ib-i1l1s01"
	check_eq "ibnetdiscover -p: the link's far end, the unlinked port has none" \
		"$(fab_q nd "SELECT group_concat(port || '>' || coalesce(remote_guid, 'none'), ' ') FROM (SELECT * FROM fabric_ports WHERE guid IN ('0x7cfe9003009ce5b0', '0x506b4b03005c2740') ORDER BY guid, port)")" \
		"37>none 10>0x7cfe9003003b4bde"
else
	skip "ibnetdiscover -p: the database" "no sqlite3"
fi
"$RA" nd >nd.out 2>&1
check "ibnetdiscover -p: read whole" grep -q "1 read, 0 not" nd.out

mkdir tp
cat >tp/ibnetdiscover.txt <<'EOF2'
#
# Topology file: generated on Tue Jul  6 11:02:06 2010
#
vendid=0x2c9
devid=0xbd36
sysimgguid=0x2c90200419c63
switchguid=0x2c90200419c60(2c90200419c60)
Switch	24 "S-0002c90200419c60"		# "MT47396 Infiniscale-III Mellanox Technologies" base port 0 lid 2 lmc 0
[1]	"H-0002c9020025874a"[1](2c9020025874b) 		# "node01 HCA-1" lid 3 4xDDR
[2]	"H-0002c90200258f7c"[1](2c90200258f7d) 		# "node02 HCA-1" lid 4 4xSDR

vendid=0x2c9
devid=0x6274
sysimgguid=0x2c9020025874d
caguid=0x2c9020025874a
Ca	2 "H-0002c9020025874a"		# "node01 HCA-1"
[1](2c9020025874b) 	"S-0002c90200419c60"[1]		# lid 3 lmc 0 "MT47396 Infiniscale-III Mellanox Technologies" lid 2 4xDDR
EOF2
if command -v sqlite3 >/dev/null 2>&1; then
	check_eq "ibnetdiscover topology: the switch's ports, DDR and SDR, and the CA's" \
		"$(fab_q tp "SELECT group_concat(n.type || '/' || p.port || '/' || coalesce(p.speed_active, '-') || '/' || coalesce(p.remote_port, '-'), ' ') FROM (SELECT * FROM fabric_ports ORDER BY guid, port) p JOIN fabric_nodes n ON n.guid = p.guid")" \
		"2/1/2/1 2/2/1/1 1/1/2/1"
fi
"$RA" tp >tp.out 2>&1
check "ibnetdiscover topology: read whole" grep -q "1 read, 0 not" tp.out

mkdir sw
printf '%s\n' 'Switch : 0xfc6a1c0300xxxxxx ports 65 "Quantum-2 Mellanox Technologies" base port 0 lid 6 lmc 0' \
	'Switch : 0xfc6a1c0300xxxxxx ports 65 "Quantum-2 Mellanox Technologies" base port 0 lid 5 lmc 0' >sw/ibswitches.txt
if command -v sqlite3 >/dev/null 2>&1; then
	check_eq "ibswitches, redacted GUIDs: two switches, by LID" \
		"$(fab_q sw "SELECT group_concat(guid || '=' || num_ports, ' ') FROM (SELECT * FROM fabric_nodes ORDER BY guid)")" \
		"LID 5=65 LID 6=65"
fi

# ibswitches quoted under its bare command line (a README's "> Returns:"),
# in a fenced block: the switch is read, the frame is no loss
mkdir swq
printf '%s\n' '```sh' 'ibswitches' '> Returns:' \
	'> Switch	: 0x248a070300f88040 ports 36 "MF0;sw1:MSB7700/U1" enhanced port 0 lid 1 lmc 0' \
	'```' >swq/ibswitches.txt
"$RA" swq >swq.out 2>&1
check "ibswitches quoted with '>': read whole" grep -q "1 read, 0 not" swq.out
if command -v sqlite3 >/dev/null 2>&1; then
	check_eq "ibswitches quoted with '>': the switch and its LID" \
		"$(fab_q swq "SELECT guid || '/' || lid FROM fabric_nodes")" \
		"0x248a070300f88040/1"
fi

# ibqueryerrors: a switch's "port ALL" (its ports summed, AllPortSelect) is
# kept as port 255 and named so; a counter one of its ports shows too is
# reported on that port only; port 0 (the management port) is read
mkdir qe
cat >qe/ibqueryerrors.txt <<'EOF2'
Errors for 0x7cfe9003009ce5b0 "ib-i1l1s01"
   GUID 0x7cfe9003009ce5b0 port ALL: [LinkDownedCounter == 25 (25.000)] [PortXmitDiscards == 2846 (2.779K)]
   GUID 0x7cfe9003009ce5b0 port 0: [VL15Dropped == 3]
   GUID 0x7cfe9003009ce5b0 port 3: [PortXmitDiscards == 2846 (2.779K)]

## Summary: 1 nodes checked, 1 bad nodes found
##          37 ports checked, 2 ports have errors beyond threshold
EOF2
check_eq "ibqueryerrors port ALL: LINK_FLAPPING on the switch's ports summed" \
	"$(sev qe LINK_FLAPPING 'ib-i1l1s01 port ALL (all ports summed)')" warning
check_eq "ibqueryerrors port ALL: the discards are port 3's" \
	"$(sev qe XMIT_DISCARDS 'ib-i1l1s01 port 3')" warning
check_eq "ibqueryerrors port ALL: and not said again for the sum" \
	"$(sev qe XMIT_DISCARDS 'ib-i1l1s01 port ALL (all ports summed)')" none
if command -v sqlite3 >/dev/null 2>&1; then
	check_eq "ibqueryerrors: the sum is port 255's counters, no port of its own" \
		"$(fab_q qe "SELECT (SELECT group_concat(port, ' ') FROM (SELECT DISTINCT port FROM fabric_counters ORDER BY port)) || '/' || (SELECT group_concat(port, ' ') FROM (SELECT port FROM fabric_ports ORDER BY port)) || '/' || (SELECT type FROM fabric_nodes)")" \
		"0 3 255/0 3/2"
fi
"$RA" qe >qe.out 2>&1
check "ibqueryerrors: port ALL and port 0 read whole" grep -q "1 read, 0 not" qe.out
