# import-fabric: the fabric tools' outputs pasted alone, with no local port
# to attach them to (analyze/imp-ib.c, imp-fabric-text.c): a perfquery of
# a remote LID is that port's counters and reaches the fabric checks; a
# lone sminfo is the subnet's SM, answering or not; a redacted SM GUID and
# a mail-wrapped, cexec'd sminfo still read.
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
