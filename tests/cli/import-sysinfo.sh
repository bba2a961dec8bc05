# tests/cli/import-sysinfo.sh: a sysinfo-snapshot as rdma-analyze reads it
# (imp-sysinfo.c).  The snapshots are written here the way
# sysinfo-snapshot.py 3.7 writes them (commands_txt_output/ with its
# "Invoked Command:" line, the page's sections, pcie_files/, firmware/,
# other_system_files) from a fixture node: the tools' text is what
# rdma-analyze show prints from the node's own bundle and what lspci -F
# decodes from its config spaces, so snapshot and bundle describe one
# node.  Checked: the healthy node quiet and lined up with its bundle in
# diff; injected faults found by rule id; the page alone (3.1's layout);
# hostile archives.
if ! command -v python3 >/dev/null 2>&1 || ! command -v lspci >/dev/null 2>&1; then
	skip "sysinfo-snapshot import" "needs python3 and lspci (pciutils)"
	return 0 2>/dev/null || exit 0
fi
cd "$T" || exit 1
TOPD=sysinfo-snapshot-v3.7.8-dgx-h100-07-20251124-093012
PAGE=dgx-h100-07-20251124-093012.html

# mksis TREE BUNDLE OUT [memlock-KiB] [page-only]: the snapshot folder
mksis() {
	local tree=$1 b=$2 o=$3 memlock=${4:-unlimited} only=${5:-}
	rm -rf "$o.cmd" && mkdir -p "$o.cmd"
	"$RA" show "$b" ibstat >"$o.cmd/ibstat"
	"$RA" show "$b" ibv_devinfo -v >"$o.cmd/ibv_devinfo -v"
	"$RA" show "$b" ibdev2netdev >"$o.cmd/ibdev2netdev"
	"$RA" show "$b" lsmod >"$o.cmd/lsmod"
	"$RA" show "$b" dmesg >"$o.cmd/dmesg"
	# lspci -vvvxxxx as lspci decodes the node's config spaces
	for f in "$tree"/sys/bus/pci/devices/*; do
		echo "$(basename "$f") Class: fixture"
		od -An -tx1 -v -w16 "$f/config" | awk '{ printf "%03x:%s\n", (NR - 1) * 16, $0 }'
		echo
	done >"$o.dump"
	lspci -vvvxxxx -F "$o.dump" >"$o.cmd/lspci" 2>/dev/null
	python3 - "$tree" "$o" "$memlock" "$only" <<'PY'
import os, re, sys
tree, o, memlock, only = sys.argv[1:5]
cmd = o + ".cmd/"
rd = lambda p: open(p, errors="replace").read()
host = rd(tree + "/proc/sys/kernel/hostname").strip()
rel = rd(tree + "/proc/sys/kernel/osrelease").strip()
outs = {}	# command -> output, as sysinfo-snapshot keeps them
outs["hostname"] = host + "\n"
outs["date"] = "Mon Nov 24 09:30:12 UTC 2025\n"
outs["uname"] = "Linux %s %s #71-Ubuntu SMP x86_64 x86_64 x86_64 GNU/Linux\n" % (host, rel)
for c in ("ibstat", "ibv_devinfo -v", "ibdev2netdev", "lsmod"):
    outs[c] = rd(cmd + c)
outs["ulimit -a"] = ("core file size          (blocks, -c) 0\n"
    "max locked memory       (kbytes, -l) %s\n"
    "open files                      (-n) 1024\n" % memlock)
# ibdev2pcidev and mst status -v from the node's links
pci = {}
for d in sorted(os.listdir(tree + "/sys/class/infiniband")):
    t = os.readlink(tree + "/sys/class/infiniband/%s/device" % d)
    pci[d] = os.path.basename(t)
outs["ibdev2pcidev"] = "".join("%s ==> %s\n" % (d, b) for d, b in pci.items())
outs["mst status -v"] = "MST modules:\n------------\n    MST PCI module is not loaded\n    MST PCI configuration module loaded\nPCI devices:\n------------\nDEVICE_TYPE             MST                           PCI       RDMA            NET                                     NUMA\n" + "".join(
    "ConnectX7(rev:0)        /dev/mst/mt4129_pciconf%d       %s   %s          net-x                                   %d\n"
    % (i, b[5:], d, i // 4) for i, (d, b) in enumerate(pci.items()))
# the devices' own sysfs: find /sys | grep infini | grep -v uevent
recs = []
for root, dirs, files in os.walk(tree + "/sys/devices"):
    for f in sorted(files):
        p = os.path.join(root, f)
        sp = p[len(tree):]
        if "infini" not in sp or "uevent" in sp or os.path.islink(p):
            continue
        recs.append("File: %s: %s" % (sp, rd(p)))
recs.sort()
files = {"/proc/meminfo": rd(tree + "/proc/meminfo"),
         "/proc/cmdline": rd(tree + "/proc/cmdline"),
         "/proc/version": "Linux version %s (buildd@lcy02) #71-Ubuntu SMP\n" % rel,
         "/etc/security/limits.conf": "# /etc/security/limits.conf\n*\tsoft\tmemlock\t%s\n*\thard\tmemlock\t%s\n" % (memlock, memlock)}
def esc(t):
    return re.sub(r"[^\x00-\x7F]+", " ", t.replace("\t", "&nbsp;" * 4).replace(
        "<", "&lt;").replace(">", "&gt;").replace("\n", "<br/>"))
def name(c):	# add_txt_command_output's file name
    return re.sub(r'[/:*?"<|-]', "", c).replace("\\", "").replace(" ", "_").replace("__", "_") + ".txt"
os.makedirs(o, exist_ok=True)
page = ['<html><head><title>%s</title></head><body><pre><a name="index"></a>'
        '<h1>Mellanox Technologies</h1><br/><a name="index"></a><h2>Version: 3.7.8</h2><br/><hr/>'
        '<h2>1. Server Commands: </h2><table cols="4"><tr><td><a href="#sec1101">ibstat</a></td></tr></table>' % o]
sec = 1101
items = sorted(outs.items())
if only:	# 3.1: every output in the page, the lspci and sysfs too
    items += [("lspci_xxxvvv", rd(cmd + "lspci"))]
items += sorted(files.items())
page.append("<p>")
for t, text in items:
    page.append('<a name="sec%d"></a><small><a href="#index">[back to index]</a></small> '
                "<h2>%s</h2><p>%s</p>" % (sec, t, esc(text)))
    sec += 1
page.append("</p>")
if only:
    page.append('<p><a name="systemfiles"></a><small><a href="#index">[back to index]</a></small> '
                "<h2>System Files</h2>%s<br/><br/><small>[back]</small> </p>" % esc("".join(recs)))
page.append("</body></pre></html>")
open(o + "/" + os.environ["PAGE"], "w").write("".join(page))
if only:
    sys.exit(0)
os.makedirs(o + "/commands_txt_output")
for c, text in outs.items():
    open(o + "/commands_txt_output/" + name(c), "w").write("Invoked Command: " + c + "\n" + text)
open(o + "/commands_txt_output/other_system_files", "w").write(
    "".join(recs) + "\n -------------------------------------------------------- \n"
    "Cannot open the following files: \n")
os.makedirs(o + "/pcie_files")
open(o + "/pcie_files/lspci_vvvxxxxx", "w").write(rd(cmd + "lspci"))
open(o + "/dmesg", "w").write(rd(cmd + "dmesg"))
os.makedirs(o + "/firmware")
fw = rd(tree + "/sys/class/infiniband/mlx5_0/fw_ver").strip()
psid = rd(tree + "/sys/class/infiniband/mlx5_0/board_id").strip()
dev = "/dev/mst/mt4129_pciconf0"
flat = dev.replace(":", "").replace(".", "").replace("/", "")
open(o + "/firmware/flint_%s_q" % flat, "w").write(
    "flint -d %s q\nImage type:            FS4\nFW Version:            %s\n"
    "FW Release Date:       2.10.2024\nDescription:           UID                GuidsNumber\n"
    "Base GUID:             9c63c00300e17a00        4\nImage VSD:             N/A\n"
    "Device VSD:            N/A\nPSID:                  %s\nSecurity Attributes:   N/A\n" % (dev, fw, psid))
open(o + "/firmware/mlxconfig_%s" % flat, "w").write(
    "mlxconfig -d %s -e  q\n\nDevice #1:\n----------\n\nDevice type:        ConnectX7\n"
    "Name:               MCX75310AAS-NEA_Ax\nDevice:             %s\n\n"
    "Configurations:                                          Default         Current         Next Boot\n"
    "        SRIOV_EN                                    False(0)        False(0)        False(0)\n" % (dev, dev))
PY
}
pack() {	# DIR ARCHIVE: the .tgz sysinfo-snapshot.py leaves
	rm -rf pk && mkdir pk && cp -r "$1" "pk/$TOPD" && tar -C pk -czf "$2" "$TOPD"
}
findings() {	# ARCHIVE: "RULE component severity", warning and up
	"$RA" report --format json "$1" 2>/dev/null | python3 -c '
import json, sys
for n in json.load(sys.stdin)["nodes"]:
    for f in n["findings"]:
        if f["severity"] != "info":
            print(f["rule"], f["component"], f["severity"])'
}
export PAGE

mknode gpu-ndr8 node >/dev/null
"$RC" -q --root node -o b.rdma.tar.zst >/dev/null 2>&1
check "the node's bundle" test -s b.rdma.tar.zst
mksis node b.rdma.tar.zst sis
pack sis healthy.tgz

# --- the healthy node
check_eq "detected as a sysinfo-snapshot" \
	"$("$RA" list healthy.tgz 2>/dev/null | grep -c 'kind.*sysinfo-snapshot' || true)$("$RA" load -q --db h.db healthy.tgz && sqlite3 h.db 'SELECT kind FROM imports')" \
	"0sysinfo-snapshot"
"$RA" report healthy.tgz >healthy.txt 2>&1
check_eq "healthy: report exits 0" "$?" 0
check_eq "healthy: nothing at warning or above" "$(findings healthy.tgz)" ""
check_eq "identity: hostname, kernel, time (date said UTC)" \
	"$(sqlite3 h.db 'SELECT hostname, kernel_release, collected_at FROM bundles')" \
	"dgx-h100-07|5.15.0-1063-nvidia|2025-11-24T09:30:12Z"
check_eq "8 HCAs, each on its ConnectX function, 8 ports active" \
	"$(sqlite3 h.db "SELECT count(*), count(DISTINCT pci_addr) FROM devices WHERE pci_addr LIKE '0000:%'") $(sqlite3 h.db 'SELECT count(*) FROM ports WHERE state = 4')" \
	"8|8 8"
check_eq "a port counter is the raw sysfs copy from other_system_files" \
	"$(sqlite3 h.db "SELECT strength, origin FROM import_origins WHERE path = 'sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error'")" \
	"raw|commands_txt_output/other_system_files"
check_eq "the page's /proc/meminfo is the file byte for byte" \
	"$("$BUILD/tests/atest-imp-sysinfo" --cat healthy.tgz proc/meminfo | cmp - node/proc/meminfo && echo same)" same
check_eq "a command's output comes from its commands_txt_output file" \
	"$(sqlite3 h.db "SELECT origin FROM import_origins WHERE path = 'rdma-collect/verbs/mlx5_0.json'")" \
	"commands_txt_output/ibv_devinfo_v.txt/ibv_devinfo -v"
check_eq "flint q and mlxconfig: the firmware folder read" \
	"$(sqlite3 h.db "SELECT count(*) FROM import_origins WHERE origin LIKE 'firmware/mlxconfig_%'")" 1

# the snapshot and the bundle of one node line up
"$RA" diff --json b.rdma.tar.zst healthy.tgz >diff.json 2>diff.err
python3 - diff.json >diff.out <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(d["a"]["node"], d["b"]["node"])
for a in d.get("attributes", []):
    # lsmod names a module without its version: "loaded" is no difference
    if a["attribute"].startswith("module.") and a["b"] == "loaded" and a["a"]:
        continue
    print("attr", a["attribute"], a["a"], a["b"])
PY
check_eq "diff: bundle and snapshot name one node" "$(head -1 diff.out)" "dgx-h100-07 dgx-h100-07"
check_eq "diff: same firmware, HCAs, PCIe links, ports, kernel and modules" \
	"$(grep -E '^attr (hca\.|hcas|hca_functions|ports_active|kernel|driver|module\.|pcie\.|port\.[^ ]*\.(state|rate|width|speed|lid))' diff.out)" ""

# --- faults: a port down, a PCIe link trained down, a firmware fatal
# error in the kernel log, memlock at 64 MiB
cp -a node faulty
bash "$FIXTURES/inject.sh" port-down faulty mlx5_3 >/dev/null
bash "$FIXTURES/inject.sh" pcie-degraded faulty mlx5_2 >/dev/null
bash "$FIXTURES/inject.sh" fw-reset faulty mlx5_0 >/dev/null
"$RC" -q --root faulty -o f.rdma.tar.zst >/dev/null 2>&1
mksis faulty f.rdma.tar.zst fsis 65536
pack fsis faulty.tgz
findings faulty.tgz >faulty.found
for want in "PORT_DOWN mlx5_3:1 critical" "PCIE_LINK_DEGRADED " \
	"FW_RESET mlx5_0 " "MEMLOCK_LIMITED memlock critical"; do
	if grep -q "^$want" faulty.found; then
		ok "fault found: $want"
	else
		fail "fault found: $want"
		sed 's/^/#   /' faulty.found
	fi
done

# --- the page alone (3.1: no commands_txt_output, the sysfs as the
# page's System Files): the same node, the same quiet report
mksis node b.rdma.tar.zst html unlimited page-only
pack html html.tgz
check_eq "page only: nothing at warning or above" "$(findings html.tgz)" ""
"$RA" load -q --db p.db html.tgz
check_eq "page only: hostname, 8 HCAs on their functions, 8 active ports" \
	"$(sqlite3 p.db "SELECT hostname FROM bundles") $(sqlite3 p.db "SELECT count(DISTINCT pci_addr) FROM devices") $(sqlite3 p.db 'SELECT count(*) FROM ports WHERE state = 4')" \
	"dgx-h100-07 8 8"
check_eq "page only: a section's origin names the page" \
	"$(sqlite3 p.db "SELECT origin FROM import_origins WHERE path = 'rdma-collect/verbs/mlx5_0.json'")" \
	"$PAGE/ibv_devinfo -v"

# --- hostile snapshots
mkdir hz
python3 - hz sis "$TOPD" "$PAGE" <<'PY'
import io, os, sys, tarfile
d, src, top, page = sys.argv[1:5]
def tgz(name, members):
    with tarfile.open(d + "/" + name, "w:gz") as t:
        for n, data in members:
            i = tarfile.TarInfo(n); i.size = len(data)
            t.addfile(i, io.BytesIO(data))
ib = open(src + "/commands_txt_output/ibstat.txt", "rb").read()
tgz("traversal.tgz", [(top + "/commands_txt_output/ibstat.txt", ib),
                      (top + "/../../etc/evil", b"x"), ("/etc/abs", b"y"),
                      (top + "/commands_txt_output/evil.txt",
                       b"Invoked Command: ibstat\x1b[2J\nCA 'x'\n")])
html = open(src + "/" + page, "rb").read()
# one section of 9 MiB (over the 8 MiB a section may have), the others kept
big = html.replace(b"<h2>date</h2><p>", b"<h2>date</h2><p>" + b"A" * (9 << 20))
tgz("big.tgz", [(top + "/" + page, big)])
# the page cut in the middle of a section
cut = html[:html.index(b"<h2>lsmod</h2>") + 200]
tgz("cut.tgz", [(top + "/" + page, cut)])
PY
"$RA" list hz/traversal.tgz >trav.out 2>&1
check_eq "traversal and absolute names: imported without them" \
	"$(grep -c 'evil\|abs' trav.out)" 0
check "traversal: counted as left out" grep -q 'left out' trav.out
"$BUILD/tests/atest-imp-sysinfo" --cat hz/big.tgz manifest.json >big.json
check_eq "a 9 MiB section: the import still reads (exit 0)" "$?" 0
check "a 9 MiB section: left out with a note naming it" \
	grep -q "section 'date' has 943721[0-9] bytes, more than 8 MiB: left out" big.json
check_eq "a 9 MiB section: the other sections read (8 HCAs)" \
	"$("$RA" load -q --db big.db hz/big.tgz; sqlite3 big.db 'SELECT count(*) FROM devices')" 8
"$BUILD/tests/atest-imp-sysinfo" --cat hz/cut.tgz manifest.json >cut.json
check_eq "a cut page: exit 0" "$?" 0
check "a cut page: the cut section named in a note" \
	grep -q "section 'lsmod' has no end (a cut page): left out" cut.json
check_eq "a cut page: what came before it read (8 HCAs)" \
	"$("$RA" load -q --db cut.db hz/cut.tgz; sqlite3 cut.db 'SELECT count(*) FROM devices')" 8
