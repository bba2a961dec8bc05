# The analyzer reads the tar inside a bundle itself (analyze/breader.c):
# every tar dialect a bundle may come in -- POSIX ustar, pax, GNU (long
# names and link targets) -- must read the same: names, sizes, symlink
# targets and file bytes, whatever the size's place in the 512-byte blocks
# (0, 511, 512, 1024, 1025).  Hard links, devices and FIFOs are left out and
# counted; a broken header checksum and a size past the end are errors.
# Bundles are made with Python's tarfile, an independent writer.
cd "$T" || exit 1
if ! command -v python3 >/dev/null 2>&1 || ! command -v zstd >/dev/null 2>&1; then
	skip "tar dialects" "python3 or zstd is missing"
	exit 0
fi
mknode rxe node >/dev/null 2>&1
"$RC" -q --root node -o good.rdma.tar.zst >/dev/null
tar --zstd -xOf good.rdma.tar.zst manifest.json >manifest.json
python3 - <<'PY' || fail "making the tar dialects"
import io, tarfile
man = open("manifest.json", "rb").read()
long_dir = "sys/" + "/".join(["d%02d_%s" % (i, "x" * 20) for i in range(12)])
# /proc/modules of exactly 1024 bytes: its last line ends on a block edge
mods, i = "", 0
while True:
    line = "mod%03d 16384 0 - Live 0x0000000000000000\n" % i
    if len(mods) + len(line) > 1024:
        break
    mods += line
    i += 1
pad = 1024 - len(mods)
mods = mods[:-1] + " " * pad + "\n" if pad else mods
files = [("manifest.json", man)]
files += [("proc/modules", mods.encode())]
for n in (0, 511, 512, 1024, 1025):
    files.append(("sys/sizes/f%d" % n, bytes((65 + k % 26) for k in range(n))))
files.append((long_dir + "/leaf", b"deep\n"))
def build(fmt, name):
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w", format=fmt) as t:
        for path, data in files:
            ti = tarfile.TarInfo(path); ti.size = len(data); ti.mtime = 1700000000
            t.addfile(ti, io.BytesIO(data))
        d = tarfile.TarInfo("sys/dir/"); d.type = tarfile.DIRTYPE; t.addfile(d)
        d = tarfile.TarInfo("./sys/dot/file"); d.size = 3; t.addfile(d, io.BytesIO(b"dot"))
        s = tarfile.TarInfo("sys/link"); s.type = tarfile.SYMTYPE
        s.linkname = "../" + long_dir + "/leaf"; t.addfile(s)
        h = tarfile.TarInfo("sys/hard"); h.type = tarfile.LNKTYPE; h.linkname = "proc/modules"; t.addfile(h)
        f = tarfile.TarInfo("sys/fifo"); f.type = tarfile.FIFOTYPE; t.addfile(f)
        c = tarfile.TarInfo("sys/chr"); c.type = tarfile.CHRTYPE; c.devmajor = 1; c.devminor = 3; t.addfile(c)
    open(name, "wb").write(bio.getvalue())
build(tarfile.PAX_FORMAT, "pax.tar")
build(tarfile.GNU_FORMAT, "gnu.tar")
PY
for k in pax gnu; do
	zstd -q -f "$k.tar" -o "$k.rdma.tar.zst" || fail "zstd $k"
	"$RA" list "$k.rdma.tar.zst" >"$k.list" 2>"$k.err"
	check_eq "$k: list exits 0" "$?" 0
	# what tar(1) itself reads, in the analyzer's form
	# (sorted by path, as the analyzer sorts)
	tar -tvf "$k.tar" | awk '
		$1 ~ /^-/ { sub(/^\.\//, "", $6); printf "%s\t  - %10d  %s\n", $6, $3, $6 }
		$1 ~ /^d/ { n = $6; sub(/\/$/, "", n); printf "%s\t  d %10d  %s\n", n, 0, n }
		$1 ~ /^l/ { printf "%s\t  l %10s  %s -> %s\n", $6, "", $6, $8 }' |
		LC_ALL=C sort -t "$(printf '\t')" -k1,1 | cut -f2- >"$k.want"
	grep '^  ' "$k.list" >"$k.got"
	check "$k: every name, size and link target as tar reads them" diff -u "$k.want" "$k.got"
	check "$k: the hard link, the FIFO and the device are left out and counted" \
		grep -q "^$k.rdma.tar.zst: 11 entries, 3 left out" "$k.list"
	"$RA" show "$k.rdma.tar.zst" lsmod >"$k.lsmod" 2>&1
	check_eq "$k: a file ending on a block edge is read whole (lsmod)" \
		"$(grep -c '^mod' "$k.lsmod")" "$(tar -xOf "$k.tar" proc/modules | grep -c "^mod")"
done

# a header whose checksum is wrong, and an entry longer than the archive
python3 - <<'PY'
import tarfile
t = bytearray(open("pax.tar", "rb").read())
second = tarfile.open("pax.tar").getmembers()[1].offset
b = bytearray(t); b[second + 10] ^= 0x55        # a byte of its name field
open("badsum.tar", "wb").write(b)
# cut inside the data of the last big file
open("short.tar", "wb").write(t[: len(t) // 2 + 100])
PY
zstd -q -f badsum.tar -o badsum.rdma.tar.zst
zstd -q -f short.tar -o short.rdma.tar.zst
"$RA" list badsum.rdma.tar.zst >/dev/null 2>badsum.err
check_eq "a broken header checksum: exit 4" "$?" 4
check "a broken header checksum: one line naming it" \
	grep -q '^rdma-analyze: badsum.rdma.tar.zst: corrupt tar header after [0-9]* entries' badsum.err
"$RA" list short.rdma.tar.zst >/dev/null 2>short.err
check_eq "an archive cut short: exit 4" "$?" 4
check "an archive cut short: one line naming it" \
	grep -q '^rdma-analyze: short.rdma.tar.zst: \(truncated or corrupt\|corrupt tar header\)' short.err
