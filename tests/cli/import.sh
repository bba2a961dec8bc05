# tests/cli/import.sh: a sos report as rdma-analyze reads it (import.c):
# detection, the healthy report quiet, injected faults found with the
# input file named, idempotence, hostile archives, show/diff/history.
cd "$T" || exit 1
S="$FIXTURES/import/sos-healthy"
TOPD=sosreport-gpu-s07-2026-11-24-abcdefg

# a sos archive: its single top folder, xz as sos writes it
pack() {	# DIR ARCHIVE
	rm -rf "$T/pk" && mkdir -p "$T/pk" && cp -r "$1" "$T/pk/$TOPD" &&
		tar -C "$T/pk" -cJf "$2" "$TOPD"
}
findings() {	# ARCHIVE|DIR: "RULE component severity" lines, warning and up
	"$RA" report --format json "$1" 2>/dev/null | python3 -c '
import json, sys
for n in json.load(sys.stdin)["nodes"]:
    for f in n["findings"]:
        if f["severity"] != "info":
            print(f["rule"], f["component"], f["severity"])'
}

pack "$S" healthy.tar.xz
"$RA" report healthy.tar.xz >healthy.txt 2>healthy.err
check_eq "healthy sos report: exit 0" "$?" 0
check_eq "healthy sos report: nothing at warning or above" "$(findings healthy.tar.xz)" ""
check "healthy: the node is the sos report's hostname" grep -q '^== gpu-s07: ' healthy.txt
check "healthy: what a sos report lacks is skipped with the reason" \
	grep -q 'source devnodes absent: not in this sos report' healthy.txt
check_eq "healthy: no SOURCE_INCOMPLETE for an import" \
	"$("$RA" report -v healthy.tar.xz | grep -c SOURCE_INCOMPLETE)" 0

# identity from the report's own files
"$RA" load -q --db h.db healthy.tar.xz
check_eq "identity: hostname, machine-id, boot_id, kernel, time, uptime" \
	"$(sqlite3 h.db 'SELECT hostname, machine_id, boot_id, kernel_release, collected_at, uptime_s FROM bundles')" \
	"gpu-s07|3c9e5a1f7b2d4e6a8c0b1d3f5e7a9c2b|5b1f0e2a-7c3d-4e9f-a1b2-c3d4e5f60718|6.8.0-45-generic|2026-11-24T09:30:12Z|1050060.0"
check_eq "the 8 HCAs of ibstat/ibv_devinfo, each on its ConnectX function" \
	"$(sqlite3 h.db "SELECT count(*) FROM devices WHERE pci_addr LIKE '0000:%'")" 8
check_eq "provenance: the kind and the input" \
	"$(sqlite3 h.db 'SELECT kind, input FROM imports')" "sos|healthy.tar.xz"
check_eq "provenance: raw copies are raw" \
	"$(sqlite3 h.db "SELECT origin, strength FROM import_origins WHERE path = 'proc/modules'")" \
	"proc/modules|raw"
check_eq "provenance: a port's state comes from a tool's text" \
	"$(sqlite3 h.db "SELECT strength FROM import_origins WHERE path LIKE 'sys/class/infiniband/mlx5_0/ports/1/state'")" \
	"derived"

# idempotence: the same report again, and unpacked, is the same bundle
"$RA" load --db h.db healthy.tar.xz 2>again.err
mkdir unp && tar -C unp -xJf healthy.tar.xz
"$RA" load -q --db h.db "unp/$TOPD"
check "loaded twice: already there" grep -q '0 loaded, 1 already in' again.err
check_eq "archive and unpacked folder: one bundle" \
	"$(sqlite3 h.db 'SELECT count(*) FROM bundles')" 1

# --- faults a sos report carries
cp -r "$S" faulty
# a port that lost its link (ibstat and ibv_devinfo agree)
python3 - faulty <<'PY'
import re, sys
d = sys.argv[1] + "/sos_commands/"
p = d + "infiniband/ibstat"
t = open(p).read()
a = t.index("CA 'mlx5_3'"); b = t.index("CA 'mlx5_4'")
blk = t[a:b].replace("State: Active", "State: Down").replace(
    "Physical state: LinkUp", "Physical state: Polling")
open(p, "w").write(t[:a] + blk + t[b:])
p = d + "infiniband/ibv_devinfo_-v"
t = open(p).read()
a = t.index("hca_id:\tmlx5_3"); b = t.index("hca_id:\tmlx5_4")
blk = t[a:b].replace("PORT_ACTIVE (4)", "PORT_DOWN (1)").replace(
    "LINK_UP (5)", "POLLING (2)")
open(p, "w").write(t[:a] + blk + t[b:])
# the PCIe link of 0000:34:00.0 trained at half speed and width
p = d + "pci/lspci_-nnvv"
t = open(p).read()
a = t.index("\n34:00.0 "); b = t.index("\n\n", a)
blk = t[a:b].replace("LnkSta:\tSpeed 32GT/s, Width x16",
                     "LnkSta:\tSpeed 16GT/s (downgraded), Width x8 (downgraded)")
open(p, "w").write(t[:a] + blk + t[b:])
# a firmware fatal error in the kernel log
open(d + "kernel/dmesg", "a").write(
    "[86400.123456] mlx5_core 0000:14:00.0: poll_health:835:(pid 0): Fatal error 1 detected\n")
PY
printf '*       soft    memlock     65536\n*       hard    memlock     65536\n' \
	>faulty/etc/security/limits.d/99-rdma.conf
sed -i '/^rdma_ucm /d; s/rdma_ucm,//' faulty/proc/modules
sed -i '/^rdma_ucm /d; s/,rdma_ucm//; s/rdma_ucm,//' faulty/sos_commands/kernel/lsmod
pack faulty faulty.tar.xz
findings faulty.tar.xz >faulty.found
for want in "PORT_DOWN mlx5_3:1 critical" "PCIE_LINK_DEGRADED 0000:34:00.0 critical" \
	"MODULE_MISSING rdma_ucm critical" "MEMLOCK_LIMITED memlock critical" \
	"FW_RESET mlx5_0 warning"; do
	if grep -q "^$want" faulty.found; then
		ok "fault found: $want"
	else
		fail "fault found: $want"
		sed 's/^/#   /' faulty.found
	fi
done
check_eq "faulty: nothing else at warning or above" \
	"$(grep -v '^PORT_DOWN mlx5_3:1\|^PCIE_LINK_DEGRADED 0000:34:00.0\|^MODULE_MISSING rdma_ucm\|^MEMLOCK_LIMITED\|^FW_RESET mlx5_0' faulty.found)" ""
"$RA" report --format json faulty.tar.xz >faulty.json 2>/dev/null
check_eq "evidence names the input file beside the bundle path (JSON)" \
	"$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for n in d["nodes"]:
    for f in n["findings"]:
        if f["rule"] == "PORT_DOWN":
            print(" ".join(sorted({e.get("origin", "-")[:24]
                                   for e in f["evidence"]})))' faulty.json)" \
	"sos_commands/infiniband/ sos_commands/kernel/dmes"
check "evidence names the input file after the path (text)" \
	sh -c '"$RA" report faulty.tar.xz | grep -q "(from sos_commands/pci/lspci_-nnvv)"'

# --- show, diff, history on imported nodes
check "show ibstat on the archive: the port as down" \
	sh -c '"$RA" show faulty.tar.xz ibstat mlx5_3 | grep -q "State: Down"'
"$RA" load -q --db h.db faulty.tar.xz
check "show by node name from the database" \
	sh -c '"$RA" show --db h.db gpu-s07 lsmod | grep -q "^mlx5_ib "'
"$RA" diff --db h.db healthy.tar.xz faulty.tar.xz >diff.txt 2>&1
check_eq "diff: two reports of one node differ (exit 1)" "$?" 1
check "diff: the module, the PCIe link and the port" sh -c 'grep -q "module.rdma_ucm  *loaded -> absent" diff.txt && grep -q "pcie.mlx5_2.width  *x16 -> x8" diff.txt && grep -q "ports_active  *8 -> 7" diff.txt'
"$RA" diff "$S" healthy.tar.xz >diff2.txt 2>&1
check_eq "diff: the unpacked folder and its archive are the same report (exit 0)" "$?" 0
"$RA" report -f html -o h.html faulty.tar.xz >/dev/null 2>&1
check "html report of an import: the node's views are there (ibstat)" \
	sh -c '! grep -q "views not available" h.html && grep -q "CA type" h.html'
"$RA" history --db h.db gpu-s07 >hist.txt 2>&1
check_eq "history of an imported node: exit 0" "$?" 0
check_eq "history: both sos reports of gpu-s07" \
	"$(sqlite3 h.db "SELECT count(*) FROM bundles b JOIN nodes n ON n.id = b.node_id WHERE n.name = 'gpu-s07'")" 2

# --- hostile archives: refused with one line, or loaded without the bad
# names; the other inputs still load
mkdir -p hz/top/sos_commands/kernel && cp "$S/sos_commands/kernel/lsmod" hz/top/sos_commands/kernel/
python3 - hz <<'PY'
import io, sys, tarfile
d = sys.argv[1]
def tgz(name, members):
    with tarfile.open(d + "/" + name, "w:gz") as t:
        for n, data in members:
            i = tarfile.TarInfo(n); i.size = len(data)
            t.addfile(i, io.BytesIO(data))
lsmod = open(d + "/top/sos_commands/kernel/lsmod", "rb").read()
tgz("traversal.tgz", [("top/sos_commands/kernel/lsmod", lsmod),
                      ("top/../../etc/evil", b"x"), ("/etc/abs", b"y")])
# a huge entry: declared and real, in a tiny gzip
with tarfile.open(d + "/huge.tgz", "w:gz") as t:
    i = tarfile.TarInfo("top/sos_commands/kernel/lsmod"); i.size = 70 << 20
    t.addfile(i, io.BytesIO(b"\0" * i.size))
PY
"$RA" list hz/traversal.tgz >trav.out 2>trav.err
check_eq "traversal and absolute names: loaded without them" \
	"$(grep -c 'evil\|abs' trav.out)" 0
check "traversal: counted as left out" grep -q 'left out' trav.out
"$RA" load --db hz.db hz/huge.tgz healthy.tar.xz >/dev/null 2>huge.err
check_eq "a 70 MiB entry: exit 4" "$?" 4
check_eq "a 70 MiB entry: one line naming the file and the limit" \
	"$(grep -c 'huge.tgz: .*64 MiB limit' huge.err) $(wc -l <huge.err)" "1 2"
check_eq "the other input still loads" "$(sqlite3 hz.db 'SELECT count(*) FROM bundles')" 1
# too many entries: one more than the bundles' 200,000, headers written
# directly (tarfile takes 16 s for them)
python3 - hz/many.tgz 200001 <<'PY'
import gzip, sys
def hdr(name):
    h = bytearray(512)
    h[0:len(name)] = name
    h[100:108] = b"0000644\0"; h[108:116] = b"0000000\0"; h[116:124] = b"0000000\0"
    h[124:136] = b"00000000000\0"; h[136:148] = b"00000000000\0"
    h[148:156] = b"        "; h[156:157] = b"0"; h[257:263] = b"ustar\0"; h[263:265] = b"00"
    h[148:156] = b"%06o\0 " % sum(h)
    return bytes(h)
with gzip.open(sys.argv[1], "wb", compresslevel=1) as f:
    f.write(hdr(b"top/sos_commands/kernel/lsmod"))
    for k in range(int(sys.argv[2])):
        f.write(hdr(b"top/f%d" % k))
    f.write(bytes(1024))
PY
"$RA" list hz/many.tgz >/dev/null 2>many.err
check_eq "200,001 entries: exit 4, one line" "$? $(cat many.err)" \
	"4 rdma-analyze: hz/many.tgz: more than 200000 entries"
echo hello >x.txt
"$RA" report x.txt >x.out 2>x.err
check_eq "a text file no reader knows: exit 4" "$?" 4
check "... one line names it and why" grep -q \
	"^rdma-analyze: x.txt: no evidence read (1 of 1 file(s) looked at, none understood): x.txt: not recognized as any tool's output (first line: 'hello')" x.err
check "... and the report says nothing was read, never OK" \
	sh -c 'grep -q "^NO EVIDENCE: nothing was read" x.out && ! grep -q "^OK" x.out'
