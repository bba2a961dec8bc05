# import-fabric: the fabric tools' outputs pasted alone, with no local port
# to attach them to (analyze/imp-ib.c, imp-fabric-text.c): a perfquery of
# a remote LID is that port's counters and reaches the fabric checks.
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

