# import-host: the host parsers of import (analyze/import/imp-host*.c).
# 1. Round trip: each sample bundle's views (lspci, lsmod, dmesg,
#    ethtool -S, dcb -s pfc show, ulimit -l/-Hl; ethtool -i written from
#    the stored drvinfo in ethtool's layout) pasted into a folder,
#    imported: the same views, and the same database rows (PCI functions
#    and ACS, modules, kernel log, netdev stats, PFC, memlock).
# 2. This machine's own lspci -vvv / -xxxx, lsmod, dmesg, ip addr, ulimit
#    -l against its /sys and /proc.
# 3. Faults pasted the same way give the findings the fixture bundle
#    gives.
cd "$T" || exit 1

# paste BUNDLE DIR: the tool outputs a user would paste into a ticket
paste_views() {
	local b=$1 d=$2 ifn
	mkdir -p "$d"
	"$RA" show "$b" lspci >"$d/lspci -vvv.txt" 2>/dev/null
	"$RA" show "$b" lsmod >"$d/lsmod.txt" 2>/dev/null
	"$RA" show "$b" dmesg >"$d/dmesg.txt" 2>/dev/null
	"$RA" show "$b" ulimit -l >"$d/ulimit -l.txt" 2>/dev/null
	"$RA" show "$b" ulimit -Hl >"$d/ulimit -Hl.txt" 2>/dev/null
	# the InfiniBand side (imp-ib.c) names the ports behind the netdevs
	"$RA" show "$b" ibstat >"$d/ibstat.txt" 2>/dev/null
	"$RA" show "$b" ibdev2netdev >"$d/ibdev2netdev.txt" 2>/dev/null
	"$RA" show "$b" ibv_devinfo -v >"$d/ibv_devinfo -v.txt" 2>/dev/null
	for ifn in $(tar --zstd -tf "$b" | sed -n 's|^rdma-collect/ethtool/\(.*\)\.json$|\1|p'); do
		"$RA" show "$b" ethtool -S "$ifn" >"$d/ethtool -S $ifn.txt" 2>/dev/null
		# ethtool -i as ethtool's dump_drvinfo prints it
		tar --zstd -xOf "$b" "rdma-collect/ethtool/$ifn.json" | python3 -c '
import json, sys
d = json.load(sys.stdin).get("drvinfo", {})
print("driver: %s\nversion: %s\nfirmware-version: %s\nexpansion-rom-version: %s\nbus-info: %s\nsupports-statistics: yes" % (
    d.get("driver", ""), d.get("version", ""), d.get("fw_version", ""), d.get("erom_version", ""), d.get("bus_info", "")))' \
			>"$d/ethtool -i $ifn.txt"
		"$RA" show "$b" dcb -s pfc show dev "$ifn" >"$d/dcb -s pfc show dev $ifn.txt" 2>/dev/null ||
			rm -f "$d/dcb -s pfc show dev $ifn.txt"
	done
	find "$d" -size 0 -delete
}

# rows DB: the rows the host parsers feed, one "table|values" a line
rows() {
	python3 - "$1" <<'EOF'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
q = {
 "pci": "SELECT addr, vendor, device, class, kind, parent_addr, driver, numa_node, cur_link_speed, cur_link_width, max_link_speed, max_link_width, lnkcap_speed, lnkcap_width, lnksta_speed, lnksta_width, pcie_port_type, path, lnkcap2 FROM pci_functions",
 "acs": "SELECT addr, cap, ctrl FROM pci_acs",
 "modules": "SELECT name, size, refcnt, state, used_by FROM modules WHERE state != 'builtin'",
 "klog": "SELECT ts_us, device, text, category FROM klog",
 "stats": "SELECT netdev, name, value FROM netdev_stats WHERE source = 'ethtool'",
 "pfc": "SELECT netdev, status, pfc_cap, pfc_en, delay, mbc FROM pfc WHERE status != 'absent'",
 "limits": "SELECT who, item, type, value FROM limits WHERE who = 'collector'",
}
for t, sql in q.items():
    out = []
    for r in c.execute(sql):
        r = list(r)
        if t == "modules":	# lsmod lists users in sysfs order
            r[4] = ",".join(sorted((r[4] or "").split(",")))
        # lspci shows no LnkCap2 of an endpoint that is not function 0
        # (reserved before PCIe r3.0): not known from the text
        if t == "pci" and r[16] == "Endpoint" and not r[0].endswith(".0"):
            r[18] = "?"
        out.append(t + "|" + "|".join(str(x) for x in r))
    for line in sorted(out):
        print(line)
EOF
}

for b in "$TOP"/samples/*.rdma.tar.zst; do
	n=$(basename "$b" .rdma.tar.zst)
	n=${n%-*}
	paste_views "$b" "$T/$n"
	ok=1
	for v in lspci lsmod dmesg "ulimit -l" "ulimit -Hl" $(cd "$T/$n" && ls | sed -n 's/^ethtool -S \(.*\)\.txt$/ethtool_-S_\1/p; s/^dcb -s pfc show dev \(.*\)\.txt$/dcb_-s_pfc_show_dev_\1/p'); do
		set -- $(echo "$v" | tr _ ' ')
		"$RA" show "$b" "$@" 2>&1 | sed "s|$b|X|" >"$T/want"
		"$RA" show "$T/$n" "$@" 2>&1 | sed "s|$T/$n|X|" >"$T/got"
		if ! cmp -s "$T/want" "$T/got"; then
			ok=0
			echo "#   show $*:"
			diff "$T/want" "$T/got" | head -6 | sed 's/^/#   /'
		fi
	done
	[ $ok = 1 ] && ok "$n: views of the pasted outputs equal the bundle's" ||
		fail "$n: views of the pasted outputs equal the bundle's"
	rm -f "$T/a.db" "$T/b.db"
	"$RA" load -q --db "$T/a.db" "$b" >/dev/null 2>&1
	"$RA" load -q --db "$T/b.db" "$T/$n" >/dev/null 2>&1
	rows "$T/a.db" >"$T/$n.want"
	rows "$T/b.db" >"$T/$n.got"
	if [ -s "$T/$n.want" ] && cmp -s "$T/$n.want" "$T/$n.got"; then
		ok "$n: database rows of the import equal the bundle's ($(wc -l <"$T/$n.want") rows: $(cut -d'|' -f1 "$T/$n.want" | sort | uniq -c | awk '{printf "%s%s %s", s, $1, $2; s=", "}'))"
	else
		fail "$n: database rows of the import equal the bundle's"
		diff "$T/$n.want" "$T/$n.got" | head -10 | sed 's/^/#   /'
	fi
done

# a value changed in the paste shows up as a difference (the check can fail)
cp -r "$T/roce-h12" "$T/changed"
sed -i '0,/Width x16$/s//Width x8 (downgraded)/' "$T/changed/lspci -vvv.txt"
sed -i 's/^     rx_discards_phy: 0$/     rx_discards_phy: 5/' "$T/changed/ethtool -S ens1f0np0.txt"
rm -f "$T/c.db"
"$RA" load -q --db "$T/c.db" "$T/changed" >/dev/null 2>&1
rows "$T/c.db" >"$T/changed.got"
check_eq "an edited paste changes the rows (LnkSta width, rx_discards_phy)" \
	"$(diff "$T/roce-h12.want" "$T/changed.got" | grep -c '^>')" 2

# --- 2. this machine ---
m=$T/machine
mkdir -p "$m"
lspci -vvv >"$m/lspci -vvv.txt" 2>/dev/null
lspci -nn -vvv >"$m/lspci -nnvvv.txt" 2>/dev/null
lsmod >"$m/lsmod.txt" 2>/dev/null
dmesg >"$m/dmesg.txt" 2>/dev/null
ip addr >"$m/ip addr.txt" 2>/dev/null
(ulimit -l) >"$m/ulimit -l.txt" 2>/dev/null
for i in /sys/class/net/*; do
	i=${i##*/}
	ethtool -S "$i" >"$T/es" 2>/dev/null && grep -q '^     ' "$T/es" &&
		cp "$T/es" "$m/ethtool -S $i.txt" && eth=$i
done
find "$m" -size 0 -delete
rm -f "$T/m.db"
if ! "$RA" load -q --db "$T/m.db" "$m" >"$T/m.err" 2>&1; then
	fail "this machine's outputs import"
	sed 's/^/#   /' "$T/m.err" | head -5
fi
python3 - "$T/m.db" "$m" "${eth:-}" <<'EOF'
import ipaddress, json, os, re, sqlite3, subprocess, sys
c = sqlite3.connect(sys.argv[1])
def res(ok, what):
    print(("ok - " if ok else "not ok - ") + what)
# PCI: the ids lspci -nn printed are sysfs' own, every function
fn = {r[0]: r[1:] for r in c.execute(
    "SELECT addr, vendor, device, class, cur_link_speed, cur_link_width FROM pci_functions")}
sysdev = sorted(os.listdir("/sys/bus/pci/devices"))
bad = []
for a in sysdev:
    rd = lambda f: open("/sys/bus/pci/devices/%s/%s" % (a, f)).read().strip()
    if a not in fn:
        bad.append(a + " missing")
        continue
    v, d, k, cs, cw = fn[a]
    if (v, d, k) != (int(rd("vendor"), 16), int(rd("device"), 16), int(rd("class"), 16)):
        bad.append("%s ids %s" % (a, (v, d, k)))
    if os.path.exists("/sys/bus/pci/devices/%s/current_link_speed" % a) and cs is not None:
        if cs != rd("current_link_speed") or cw != int(rd("current_link_width")):
            bad.append("%s link %s x%s" % (a, cs, cw))
res(not bad and len(fn) == len(sysdev),
    "lspci -vvv: %d functions, vendor/device/class equal sysfs%s" % (len(fn), (": " + ", ".join(bad[:3])) if bad else ""))
links = sum(1 for a in sysdev if os.path.exists("/sys/bus/pci/devices/%s/current_link_speed" % a))
if not links:
    print("skip - lspci link speed against sysfs: no PCIe link on this machine (a VM without PCI Express capabilities)")
# modules: /proc/modules' names and sizes
if os.path.exists("/proc/modules"):
    want = sorted(l.split()[:2] for l in open("/proc/modules"))
    got = sorted([r[0], str(r[1])] for r in c.execute("SELECT name, size FROM modules WHERE state != 'builtin'"))
    res(want == got, "lsmod: %d modules, names and sizes equal /proc/modules" % len(want))
else:
    print("skip - lsmod against /proc/modules: this kernel has no loadable modules (no /proc/modules)")
# dmesg: every record, its time and text
dm = subprocess.run(["dmesg"], capture_output=True, text=True).stdout.splitlines()
recs = [l for l in dm if re.match(r"^\[ *\d+\.\d+\] ", l)]
kl = c.execute("SELECT count(*), min(ts_us), max(ts_us) FROM klog").fetchone()
res(kl[0] >= len(recs) > 0 or (not recs and kl[0] == 0),
    "dmesg: %d records imported for %d printed" % (kl[0], len(recs)))
# ip addr: the addresses ip -j reports
j = json.loads(subprocess.run(["ip", "-j", "addr"], capture_output=True, text=True).stdout)
want = sorted((i["ifname"], a["family"], a["local"], a["prefixlen"]) for i in j for a in i.get("addr_info", []))
got = sorted(tuple(r) for r in c.execute("SELECT netdev, family, address, prefixlen FROM addresses"))
res(want == got, "ip addr: %d addresses equal ip -j addr" % len(want))
# ulimit -l: KiB -> bytes
u = subprocess.run(["sh", "-c", "ulimit -l"], capture_output=True, text=True).stdout.strip()
v = c.execute("SELECT value FROM limits WHERE who = 'collector' AND type = 'soft'").fetchone()
res(v is not None and v[0] == (u if u == "unlimited" else str(int(u) * 1024)),
    "ulimit -l: %s KiB is %s bytes" % (u, v[0] if v else None))
# ethtool -S: every statistic of a real interface (the database keeps
# the ones checks read)
eth = sys.argv[3]
if eth:
    real = open(os.path.join(sys.argv[2], "ethtool -S %s.txt" % eth)).read()
    shown = subprocess.run([os.environ["RA"], "show", sys.argv[2], "ethtool", "-S", eth],
                           capture_output=True, text=True).stdout
    res(real == shown, "ethtool -S %s: its %d statistics shown back byte for byte" %
        (eth, real.count("\n") - 1))
else:
    print("skip - ethtool -S of a real interface: none has statistics here")
EOF

# lspci -xxxx: the dump is the configuration space (as root)
if [ "$(id -u)" = 0 ]; then
	python3 - "$T" "$RA" <<'EOF'
import os, subprocess, sys
t, ra = sys.argv[1], sys.argv[2]
good = 0
devs = sorted(os.listdir("/sys/bus/pci/devices"))
for a in devs:
    d = os.path.join(t, "hx-" + a)
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "lspci -xxxx.txt"), "w").write(
        subprocess.run(["lspci", "-xxxx", "-s", a], capture_output=True, text=True).stdout)
    db = os.path.join(t, "hx.db")
    if os.path.exists(db):
        os.remove(db)
    subprocess.run([ra, "load", "-q", "--db", db, d], capture_output=True)
    import sqlite3
    r = sqlite3.connect(db).execute("SELECT config_bytes, vendor, device, class FROM pci_functions WHERE addr = ?", (a,)).fetchone()
    real = open("/sys/bus/pci/devices/%s/config" % a, "rb").read()
    rd = lambda f: int(open("/sys/bus/pci/devices/%s/%s" % (a, f)).read(), 16)
    if r and r[0] == len(real) and r[1:] == (rd("vendor"), rd("device"), rd("class")):
        good += 1
    else:
        print("#   %s: %s, sysfs %d bytes" % (a, r, len(real)))
print(("ok - " if good == len(devs) else "not ok - ") +
      "lspci -xxxx: %d of %d functions' configuration spaces imported whole (%s bytes each as sysfs has them)" % (good, len(devs), "/".join(sorted({str(len(open('/sys/bus/pci/devices/%s/config' % a, 'rb').read())) for a in devs}))))
EOF
else
	skip "lspci -xxxx" "not root (the dump needs the full configuration space)"
fi

# --- 3. faults: a bundle and its pasted outputs find the same ---
# rule ids of a report, restricted to the rules the pasted outputs feed
HOSTRULES="PCIE_LINK_DEGRADED ACS_ENABLED FW_RESET PFC_DISABLED RX_BUFFER_DROPS MEMLOCK_LIMITED MODULE_MISSING"
found() {
	"$RA" report --format json "$1" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
mine = sys.argv[1].split()
print(" ".join(sorted({f["rule"] + ":" + f["component"] for n in d["nodes"] for f in n["findings"] if f["rule"] in mine})))' "$HOSTRULES"
}

# fault NAME KIND RULE [inject ARG]: inject into a fixture, collect,
# paste, and compare the findings of RULE
fault() {
	local name=$1 kind=$2 rule=$3 tree=$T/f-$1
	shift 3
	mknode "$kind" "$tree" >/dev/null 2>&1 || { fail "$name: fixture"; return; }
	case $name in
	memlock-64k)
		setjson "$tree/rdma-collect/limits/self.json" "d['memlock'] = {'soft': 65536, 'hard': 65536}" ;;
	cqe-error)
		"$FIXTURES/inject.sh" fw-reset "$tree" mlx5_0 >/dev/null 2>&1
		k=$tree/rdma-collect/klog/kmsg.txt
		last=$(grep -E '^[0-9]+,[0-9]+,[0-9]+,' "$k" | tail -1 | cut -d, -f2,3)
		printf '3,%d,%d,-;infiniband mlx5_0: dump_cqe:272:(pid 4711): WC error: 12, Message: transport retry counter exceeded\n' \
			$((${last%,*} + 1)) $((${last#*,} + 1000)) >>"$k" ;;
	*)
		"$FIXTURES/inject.sh" "$name" "$tree" "$@" >/dev/null 2>&1 ||
			{ fail "$name: inject"; return; } ;;
	esac
	"$RC" -q --root "$tree" -o "$T/$name.rdma.tar.zst" >/dev/null 2>&1
	paste_views "$T/$name.rdma.tar.zst" "$T/p-$name"
	a=$(found "$T/$name.rdma.tar.zst" | tr ' ' '\n' | grep "^$rule:" | tr '\n' ' ')
	b=$(found "$T/p-$name" | tr ' ' '\n' | grep "^$rule:" | tr '\n' ' ')
	rm -f "$T/fa.db" "$T/fb.db"
	"$RA" load -q --db "$T/fa.db" "$T/$name.rdma.tar.zst" >/dev/null 2>&1
	"$RA" load -q --db "$T/fb.db" "$T/p-$name" >/dev/null 2>&1
	rows "$T/fa.db" >"$T/fa.rows"
	rows "$T/fb.db" >"$T/fb.rows"
	if [ -s "$T/fa.rows" ] && cmp -s "$T/fa.rows" "$T/fb.rows"; then
		ok "$name: the faulty paste's database rows equal the bundle's"
	else
		fail "$name: the faulty paste's database rows equal the bundle's"
		diff "$T/fa.rows" "$T/fb.rows" | head -6 | sed 's/^/#   /'
	fi
	if [ -z "$a" ]; then
		fail "$name: the bundle finds $rule"
	elif [ "$a" = "$b" ]; then
		ok "$name: pasted outputs find what the bundle finds: $a"
	else
		fail "$name: pasted outputs find what the bundle finds"
		echo "#   bundle: $a"
		echo "#   pasted: $b"
	fi
}

fault pcie-degraded roce-pfc PCIE_LINK_DEGRADED mlx5_0
fault acs-enabled gpu-ndr8 ACS_ENABLED mlx5_0
fault cqe-error roce-pfc FW_RESET
fault rx-buffer-drops roce-pfc RX_BUFFER_DROPS ens1f0np0
fault memlock-64k roce-pfc MEMLOCK_LIMITED
fault module-missing roce-pfc MODULE_MISSING rdma_ucm
# the completion error lines are kernel log rows of their category
rm -f "$T/q.db"
"$RA" load -q --db "$T/q.db" "$T/p-cqe-error" >/dev/null 2>&1
check_eq "cqe-error: the mlx5_ib WC error line is a cqe_error kernel event" \
	"$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM klog WHERE category = \"cqe_error\"").fetchone()[0])' "$T/q.db")" 1
# PFC_DISABLED needs the RoCE ports: the pasted ibstat and ibdev2netdev
# (imp-ib.c) name them
fault pfc-disabled roce-pfc PFC_DISABLED ens1f0np0

# kernel logs as tickets carry them: each form becomes the record
# klog.c reads (the klog table's text and category)
klogcase() {
	local name=$1 want=$2
	mkdir -p "$T/kl-$name"
	cat >"$T/kl-$name/$3"
	rm -f "$T/kl.db"
	"$RA" load -q --db "$T/kl.db" "$T/kl-$name" >/dev/null 2>&1
	check_eq "kernel log, $name" "$(python3 -c 'import sqlite3,sys
print("|".join("%s %s %s" % r for r in sqlite3.connect(sys.argv[1]).execute("SELECT coalesce(ts_us, -1), coalesce(category, \"-\"), text FROM klog ORDER BY rowid")))' "$T/kl.db")" "$want"
}
# a mail client's wrap at 72 columns: the rest joined, so "Cable
# plugged" is not cut off into a "Port module event" of no kind
printf '%s\n' '$ dmesg | egrep mlx' \
	'[   23.555901] mlx5_core 0000:af:00.0: Port module event: module 0,' \
	'Cable plugged' \
	'[   23.6] mlx5_core 0000:af:00.0: mlx5_cmd_eq_recover:245:(pid 1416):' \
	'Recovered 1 EQEs on cmd_eq' |
	klogcase wrapped "23555901 probe mlx5_core 0000:af:00.0: Port module event: module 0, Cable plugged|23600000 - mlx5_core 0000:af:00.0: mlx5_cmd_eq_recover:245:(pid 1416): Recovered 1 EQEs on cmd_eq" output.txt
# a line longer than a mail client wraps is whole: the next is other text
printf '%s\n' '[    1.000000] mlx5_core 0000:af:00.0: firmware version: 16.35.2000 and a long tail of words' \
	'Cable plugged' '[    2.000000] b' |
	klogcase unwrapped "1000000 probe mlx5_core 0000:af:00.0: firmware version: 16.35.2000 and a long tail of words|2000000 - b" dmesg.txt
# "# modprobe" and "host ~ # journalctl" prompts inside the file,
# another program's journal record, a pstore header and file names
printf '%s\n' '# modprobe mlx5_core' 'store01 ~ # journalctl -b | grep mlx5' \
	'Nov 17 01:25:23 store01 smc-tests: test started' \
	'Nov 17 01:25:23 store01 kernel: mlx5_core 0000:01:00.0: firmware version: 12.28.1002' \
	'Panic#1 Part1' \
	'/sys/fs/pstore/dmesg-erst-7134256182317219841:<6>[    5.100000] mlx5_core 0000:01:00.0: Shutdown was called' |
	klogcase prompts "-1 probe mlx5_core 0000:01:00.0: firmware version: 12.28.1002|5100000 - mlx5_core 0000:01:00.0: Shutdown was called" journal.txt
# kmsg/pstore "<N>[ts]" records with blank lines between, and a remote
# syslog: receive time, a tab, the syslog date, the sender, then [ts]
printf '<6>[ 1246.605901] mlx5_core 0000:4b:00.1: Shutdown was called\r\n\r\n%s\t%s\r\n' \
	'2024-06-04T11:25:54+02:00' 'Jun  4 09:25:54 10.211.164.109 [ 2993.151247] mlx5_core 0000:82:00.0: firmware version: 16.35.2000' |
	klogcase remote "1246605901 - mlx5_core 0000:4b:00.1: Shutdown was called|2993151247 probe mlx5_core 0000:82:00.0: firmware version: 16.35.2000" oops1.log

# bad input: foreign text under a tool's name is not taken
mkdir -p "$T/bad"
printf 'hello\nworld\n' >"$T/bad/lspci -vvv.txt"
printf 'NIC statistics:\n     rx_packets: 12x\n' >"$T/bad/ethtool -S eth9.txt"
printf 'not a kernel log\n' >"$T/bad/dmesg.txt"
printf 'Module Size Used by\nfoo 12 0\n' >"$T/bad/lsmod.txt"
"$RA" list "$T/bad" >"$T/bad.list" 2>&1
check_eq "foreign text under tool names adds no PCI, klog or module entry" \
	"$(grep -cE 'sys/bus/pci/devices/|klog/syslog.txt' "$T/bad.list")" 0
