# import-equiv: the same faults as a bundle and as a folder of pasted
# command outputs give the same findings (issue 10).  Every sample bundle
# (samples/, samples/fleet/) is written out as a user pastes it into a
# ticket -- rdma-analyze show's views under the command's name, the files
# no view prints as cat shows them, what uptime prints -- and imported;
# the findings (rule, node, component) and the skipped checks of both are
# compared, and what differs must be exactly the listed differences
# (tests/fixtures/import/equiv/expected.tsv, each with its reason).  Then
# the fixes the comparison needed, each on its own: perfquery's local
# counters, an import without sminfo, iblinkinfo's node order.
cd "$T" || exit 1
EXP=$FIXTURES/import/equiv/expected.tsv

# paste BUNDLE DIR: the bundle's evidence as pasted command outputs
paste() {
	b=$1 d=$2
	mkdir -p "$d"
	tar --zstd -tf "$b" >names
	v() {	# FILE VIEW...: a view into FILE, kept when it printed
		f=$1
		shift
		if ! "$RA" show "$b" "$@" >"$d/$f" 2>/dev/null || ! [ -s "$d/$f" ]
		then
			rm -f "$d/$f"
		fi
	}
	v "ibv_devinfo -v" ibv_devinfo -v
	v ibstat ibstat
	v show_gids show_gids
	v ibdev2netdev ibdev2netdev
	v "lspci -vvv" lspci
	v lsmod lsmod
	v dmesg dmesg
	v "ulimit -l" ulimit -l
	v "ulimit -Hl" ulimit -Hl
	v sminfo sminfo
	v perfquery perfquery
	v iblinkinfo iblinkinfo
	v "ls -la dev infiniband" ls-infiniband
	# no /dev/infiniband: what ls says then
	if ! [ -f "$d/ls -la dev infiniband" ] &&
	    "$RA" show "$b" ls-infiniband 2>&1 | grep -q ': absent$'; then
		echo "ls: cannot access '/dev/infiniband': No such file or directory" \
			>"$d/ls -la dev infiniband"
	fi
	for i in $(sed -n 's,^rdma-collect/ethtool/\(.*\)\.json$,\1,p' names); do
		v "ethtool -S $i" ethtool -S "$i"
	done
	for i in $(sed -n 's,^rdma-collect/dcb/\(.*\)\.json$,\1,p' names); do
		v "dcb pfc show dev $i" dcb pfc show dev "$i"
	done
	# what no view prints, as cat shows it
	x() { tar --zstd -xOf "$b" "$1" >"$d/$2" 2>/dev/null || rm -f "$d/$2"; }
	x proc/meminfo meminfo
	x proc/cmdline cmdline
	x etc/security/limits.conf limits.conf
	x etc/nccl.conf nccl.conf
	x proc/sys/kernel/hostname hostname
	for a in $(sed -n 's,^rdma-collect/attach/\([^/]*\)$,\1,p' names); do
		x "rdma-collect/attach/$a" "$a"
	done
	for c in $(sed -n 's,^rdma-collect/commands/mlxlink-\([^/]*\)/stdout$,\1,p' names); do
		x "rdma-collect/commands/mlxlink-$c/stdout" "mlxlink -d $c"
	done
	# uptime as procps prints it, from /proc/uptime
	tar --zstd -xOf "$b" proc/uptime 2>/dev/null | awk '{
		s = int($1); d = int(s / 86400); h = int(s % 86400 / 3600)
		m = int(s % 3600 / 60); up = ""
		if (d) up = sprintf("%d day%s, ", d, d > 1 ? "s" : "")
		up = up (h ? sprintf("%2d:%02d", h, m) : sprintf("%d min", m))
		printf " 21:04:05 up %s,  1 user,  load average: 0.00, 0.00, 0.00\n", up
	}' >"$d/uptime"
	[ -s "$d/uptime" ] || rm -f "$d/uptime"
}

# facts REPORT.json: "node sign kind rule component" lines of a report
facts() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for n in d["nodes"]:
    for f in n["findings"]:
        print("finding", f["rule"], f["component"])
    for s in n.get("skipped", []):
        print("skipped", s["rule"], "-")' "$1" | sort -u
}

mkdir p
: >diffs
for b in "$TOP"/samples/*.rdma.tar.zst "$TOP"/samples/fleet/*.rdma.tar.zst; do
	n=$(basename "$b" .rdma.tar.zst)
	n=${n%-*}
	paste "$b" "p/$n"
	"$RA" report --format json "$b" >"$n.b.json" 2>/dev/null
	# (report exits 1 or 2 on findings)
	"$RA" report --format json "p/$n" >"$n.i.json" 2>"$n.err"
	if [ $? -gt 2 ] || [ -s "$n.err" ]; then
		fail "$n: the pasted folder imports"
		sed 's/^/#   /' "$n.err"
		continue
	fi
	facts "$n.b.json" >"$n.b"
	facts "$n.i.json" >"$n.i"
	comm -23 "$n.b" "$n.i" | sed "s/^/$n - /" >>diffs
	comm -13 "$n.b" "$n.i" | sed "s/^/$n + /" >>diffs
done
check_eq "21 samples pasted" "$(ls p | wc -l)" 21
check_eq "the pasted folders hold 466 files" "$(find p -type f | wc -l)" 466

# against DIFFS: every difference expected, every expected one seen on
# each node its glob names
expect() {
	python3 - "$EXP" "$1" p <<'EOF'
import fnmatch, os, sys
exp = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])
       if l.strip() and not l.startswith("#")]
got = set(tuple(l.split()) for l in open(sys.argv[2]))
nodes = sorted(os.listdir(sys.argv[3]))
bad = 0
seen = set()
for e in exp:
    globs, sign, kind, rule, comp = e[:5]
    for n in nodes:
        if not any(fnmatch.fnmatch(n, g) for g in globs.split(",")):
            continue
        k = (n, sign, kind, rule, comp)
        if k in got:
            seen.add(k)
        else:
            print("expected, not seen: %s %s %s %s %s (%s)" % (k + (e[5],)))
            bad += 1
for k in sorted(got - seen):
    print("not expected: %s %s %s %s %s" % k)
    bad += 1
print("differences", len(got), "expected lines", len(exp), "wrong", bad)
EOF
}
expect diffs >cmp.out
check_eq "bundle and pasted outputs: the differences are the listed ones" \
	"$(grep -v '^differences' cmp.out)" ""
grep -v '^differences' cmp.out | head -20 | sed 's/^/#   /'
grep '^differences' cmp.out | sed 's/^/# /'
# the faults of samples/fleet/faults.tsv that both find
check_eq "every required fault not in the list is found from the pasted folders" \
	"$(awk -F'\t' '$5 == "required" { print $1, $2 }' "$TOP/samples/fleet/faults.tsv" |
	while read -r n r; do
		grep -q "^finding $r " "$n.i" || echo "$n $r"
	done | grep -v -e 'gpu-a05 SYMBOL_ERRORS' -e 'gpu-a06 PORT_RCV_ERRORS' \
		-e 'gpu-a08 XMIT_' -e 'gpu-a09 IOMMU_TRANSLATING' \
		-e 'gpu-a11 DEVNODE_MISSING' -e 'gpu-a12 CONTAINER_NO_RDMA' \
		-e 'gpu-a12 SOURCE_INCOMPLETE' -e 'roce-b04 CNP_HEAVY' \
		-e 'roce-b04 DROPS_IN_FLIGHT')" ""
check_eq "every skip names what would carry the evidence" \
	"$("$RA" report --format json p/gpu-a05 | python3 -c '
import json, sys
d = json.load(sys.stdin)
print([s["reason"] for s in d["nodes"][0]["skipped"] if s["rule"] == "SYMBOL_ERRORS"][0])')" \
	"no port counters in this folder of command outputs (perfquery, ibdiagnet's PM_INFO or copies of sys/class/infiniband/*/ports/*/counters carry them)"

# the comparison can fail, both ways: a pasted file less (the kernel log
# of gpu-a05: its firmware reset and cable error), and a listed
# difference that no longer happens
grep -v '^gpu-a05 - finding SYMBOL_ERRORS ' diffs >diffs.1
printf 'gpu-a05 - finding FW_RESET mlx5_1\n' >>diffs.1
expect diffs.1 >cmp.1
check_eq "a new difference and a vanished one are both reported" \
	"$(grep -v '^differences' cmp.1)" \
	"expected, not seen: gpu-a05 - finding SYMBOL_ERRORS mlx5_6:1 (sysfs symbol_error: no port counters pasted)
not expected: gpu-a05 - finding FW_RESET mlx5_1"
mv p/gpu-a05/dmesg gpu-a05.dmesg
"$RA" report --format json p/gpu-a05 >a05.json 2>/dev/null
facts a05.json >a05
check "without the dmesg file FW_RESET is lost, which the list would catch" \
	sh -c '! grep -q "^finding FW_RESET" a05 && grep -q "^finding FW_RESET" gpu-a05.b'
mv gpu-a05.dmesg p/gpu-a05/dmesg

# --- perfquery: a local port's counters are its sysfs counters ---
# "perfquery -C DEV -P PORT" as infiniband-diags prints it, from the
# bundle's sysfs counters of every active IB port of gpu-a05, a06 and a08
pq() {	# BUNDLE DIR
	rm -rf x && mkdir x && tar --zstd -xf "$1" -C x 2>/dev/null
	for pd in x/sys/class/infiniband/*/ports/*; do
		dev=${pd#x/sys/class/infiniband/}
		dev=${dev%%/*}
		port=${pd##*/}
		[ "$(cat "$pd/link_layer" 2>/dev/null)" = InfiniBand ] || continue
		[ "$(cat "$pd/state")" = "4: ACTIVE" ] || continue
		python3 - "$pd" >"$2/perfquery -C $dev -P $port" <<'EOF'
import os, sys
pd = sys.argv[1]
def c(n):
    return int(open(os.path.join(pd, "counters", n)).read())
f = [("PortSelect", int(os.path.basename(pd))), ("CounterSelect", "0x0000")]
for k, n in (("SymbolErrorCounter", "symbol_error"),
             ("LinkErrorRecoveryCounter", "link_error_recovery"),
             ("LinkDownedCounter", "link_downed"),
             ("PortRcvErrors", "port_rcv_errors"),
             ("PortRcvRemotePhysicalErrors", "port_rcv_remote_physical_errors"),
             ("PortRcvSwitchRelayErrors", "port_rcv_switch_relay_errors"),
             ("PortXmitDiscards", "port_xmit_discards"),
             ("PortXmitConstraintErrors", "port_xmit_constraint_errors"),
             ("PortRcvConstraintErrors", "port_rcv_constraint_errors")):
    f.append((k, c(n)))
f.append(("CounterSelect2", "0x00"))
for k, n in (("LocalLinkIntegrityErrors", "local_link_integrity_errors"),
             ("ExcessiveBufferOverrunErrors", "excessive_buffer_overrun_errors"),
             ("VL15Dropped", "VL15_dropped")):
    f.append((k, c(n)))
# the 32-bit PortCounters saturate
for k, n in (("PortXmitData", "port_xmit_data"), ("PortRcvData", "port_rcv_data"),
             ("PortXmitPkts", "port_xmit_packets"), ("PortRcvPkts", "port_rcv_packets"),
             ("PortXmitWait", "port_xmit_wait")):
    f.append((k, min(c(n), 4294967295)))
lid = int(open(os.path.join(pd, "lid")).read(), 0)
print("# Port counters: Lid %d port %s (CapMask: 0x5A00)" % (lid, os.path.basename(pd)))
for k, v in f:
    print("%s:%s%s" % (k, "." * (32 - len(k)), v))
EOF
	done
}
for n in gpu-a05 gpu-a06 gpu-a08; do
	pq "$TOP/samples/fleet/$n-"*.rdma.tar.zst "p/$n"
	"$RA" report --format json "p/$n" >"$n.pq.json" 2>/dev/null
	facts "$n.pq.json" >"$n.pq"
done
check_eq "perfquery pasted for every active IB port" \
	"$(ls p/gpu-a05 p/gpu-a06 p/gpu-a08 | grep -c '^perfquery -C')" 22
check_eq "the counter faults are found from perfquery as from sysfs" \
	"$(grep -h -e '^finding SYMBOL_ERRORS' -e '^finding PORT_RCV_ERRORS' \
		-e '^finding XMIT_' gpu-a05.pq gpu-a06.pq gpu-a08.pq)" \
	"$(grep -h -e '^finding SYMBOL_ERRORS' -e '^finding PORT_RCV_ERRORS' \
		-e '^finding XMIT_' gpu-a05.b gpu-a06.b gpu-a08.b)"
check_eq "... and the counter checks are no longer skipped" \
	"$(grep -c -e '^skipped SYMBOL_ERRORS' -e '^skipped XMIT_' gpu-a08.pq)" 0
# perfquery makes the mad source ok, but without sminfo the SM is unknown,
# not absent: no SM_ABSENT where the bundle has none, SM_NOT_MASTER skipped
check_eq "perfquery without sminfo: SM_ABSENT as in the bundle" \
	"$(grep -h '^finding SM_ABSENT' gpu-a05.pq gpu-a06.pq gpu-a08.pq)" \
	"$(grep -h '^finding SM_ABSENT' gpu-a05.b gpu-a06.b gpu-a08.b)"
check_eq "... and SM_NOT_MASTER is skipped for want of SMInfo" \
	"$("$RA" report --format json p/gpu-a06 | python3 -c '
import json, sys
d = json.load(sys.stdin)
print([s["reason"] for s in d["nodes"][0]["skipped"] if s["rule"] == "SM_NOT_MASTER"][0])')" \
	"no SMInfo in this folder of command outputs (sminfo)"
# a remote port's counters (perfquery LID PORT) are not the local port's
sed -i 's/^# Port counters: Lid [0-9]* port/# Port counters: Lid 999 port/' \
	"p/gpu-a05/perfquery -C mlx5_6 -P 1"
"$RA" report --format json p/gpu-a05 >a05r.json 2>/dev/null
facts a05r.json >a05r
check "a LID that is not the port's: its counters are not the port's" \
	sh -c '! grep -q "^finding SYMBOL_ERRORS mlx5_6:1" a05r'

# --- iblinkinfo: the pasted node order is the printed one ---
# a fabric document without directed routes (an import of iblinkinfo)
# sorted its nodes by comparing hop arrays never filled
mkdir il
cat >il/iblinkinfo <<'EOF'
CA: node-b HCA-1:
      0x0002c903000c0002      7    1[  ] ==( 4X          10.0 Gbps Active/  LinkUp)==>       2    4[  ] "sw-z" ( )
CA: node-a HCA-1:
      0x0002c903000c0001      5    1[  ] ==( 4X          10.0 Gbps Active/  LinkUp)==>       2    1[  ] "sw-z" ( )
Switch: 0x0002c9020046c588 sw-z:
           2    1[  ] ==( 4X          10.0 Gbps Active/  LinkUp)==>       5    1[  ] "node-a HCA-1" ( )
           2    2[  ] ==(                Down/ Polling)==>             [  ] "" ( )
           2    4[  ] ==( 4X          10.0 Gbps Active/  LinkUp)==>       7    1[  ] "node-b HCA-1" ( )
EOF
order() { grep -E '^(CA|Switch):' "$1"; }
"$RA" show il iblinkinfo >il.out 2>il.err
check_eq "iblinkinfo of an import prints its nodes in the pasted order" \
	"$(order il.out)" "$(order il/iblinkinfo)"
if command -v valgrind >/dev/null; then
	valgrind -q --error-exitcode=9 "$BUILD/rdma-analyze" show il iblinkinfo \
		>/dev/null 2>vg.err
	rc=$?
	if grep -q 'Sanitizer\|ASan' vg.err; then
		skip "iblinkinfo sort under valgrind" "a sanitized build"
	else
		check_eq "... reading no uninitialised memory (valgrind)" "$rc" 0
	fi
else
	skip "iblinkinfo sort under valgrind" "valgrind not installed"
fi
