# hostile: bundles crafted to attack the analyzer (python3 tarfile + the
# zstd CLI): path traversal, absolute paths, symlinks out of the bundle,
# an entry larger than the per-entry limit, a decompression bomb (2 GiB of
# zeros, made in a pipeline, never on disk), truncated zstd, not zstd at
# all, an empty file, bad JSON in the manifest, a newer format_version, and
# markup in a hostname (a real collect of a fixture) that the HTML report
# must escape.  Each bundle alone: no crash, and either a safe load or one
# clear line naming the file and the reason (exit 4).  All together, with
# a good bundle: the good and the safe ones are still reported.
if ! command -v python3 >/dev/null 2>&1 || ! command -v zstd >/dev/null 2>&1; then
	skip "hostile bundles" "python3 or zstd is missing"
	return 0 2>/dev/null || exit 0
fi
H=$T/hostile
mkdir -p "$H/run/a/b/c"
GOOD=$(ls "$TOP"/samples/rxe-vm1-*.rdma.tar.zst 2>/dev/null | head -1)
if [ -z "$GOOD" ]; then
	mknode rxe "$T/rxe-good" && "$RC" -q --root "$T/rxe-good" -o "$T" >/dev/null
	GOOD=$(ls "$T"/rxe-vm1-*.rdma.tar.zst | head -1)
fi
tar --zstd -xOf "$GOOD" manifest.json >"$H/manifest.json"

# mk KIND: a tar stream on stdout (manifest first, as rdma-collect writes)
mk() {
	python3 - "$1" "$H/manifest.json" <<'EOF'
import io, json, sys, tarfile
kind, mpath = sys.argv[1], sys.argv[2]
man = json.load(open(mpath))
out = tarfile.open(fileobj=sys.stdout.buffer, mode="w|", format=tarfile.USTAR_FORMAT)

class Zeros(io.RawIOBase):
    def __init__(self, n): self.n = n
    def readable(self): return True
    def readinto(self, b):
        k = min(len(b), self.n)
        b[:k] = bytes(k)
        self.n -= k
        return k

def add(name, data=b"", typ=tarfile.REGTYPE, link="", size=None, src=None):
    t = tarfile.TarInfo(name)
    t.type, t.linkname, t.mtime, t.mode = typ, link, 1764450245, 0o644
    if typ == tarfile.DIRTYPE:
        t.mode = 0o755
    t.size = len(data) if size is None else size
    if typ != tarfile.REGTYPE:
        t.size = 0
        out.addfile(t)
    else:
        out.addfile(t, src if src is not None else io.BytesIO(data))

def manifest(m=None, raw=None):
    add("manifest.json", raw if raw is not None else (json.dumps(m if m is not None else man, indent=2) + "\n").encode())

host = kind.replace("_", "-")
man["hostname"] = "hostile-" + host
if kind == "traversal":
    manifest()
    add("../../etc/x", b"escaped\n")
    add("proc/../../../../etc/y", b"escaped\n")
    add("proc/sys/kernel/hostname", b"hostile-traversal\n")
elif kind == "absolute":
    manifest()
    add("/etc/x", b"absolute\n")
    add("/tmp/rdma-hostile-abs", b"absolute\n")
    add("proc/sys/kernel/hostname", b"hostile-absolute\n")
elif kind == "symlink":
    manifest()
    add("proc/sys/kernel/hostname", typ=tarfile.SYMTYPE, link="/etc/hostname")
    add("sys/class/infiniband", typ=tarfile.DIRTYPE)
    add("sys/class/infiniband/mlx5_0", typ=tarfile.SYMTYPE, link="../../../../../../etc")
    add("sys/class/infiniband/mlx5_1", typ=tarfile.SYMTYPE, link="/sys/class/infiniband/mlx5_1")
    add("sys/loop", typ=tarfile.SYMTYPE, link="sys/loop")
    add("etc/machine-id", typ=tarfile.LNKTYPE, link="/etc/shadow")
elif kind == "oversize":
    # one entry larger than the per-entry limit (64 MiB): 96 MiB of zeros
    manifest()
    add("proc/sys/kernel/hostname", b"hostile-oversize\n")
    add("sys/big", size=96 << 20, src=Zeros(96 << 20))
elif kind == "bomb":
    # 2 GiB of zeros in 32 entries of 64 MiB - 1 (each under the entry
    # limit, together over the total)
    manifest()
    for i in range(32):
        n = (64 << 20) - 1
        add("sys/bomb/%02d" % i, size=n, src=Zeros(n))
elif kind == "badjson":
    manifest(raw=b'{ "format": "rdma-collect-bundle", "format_version": 1, "hostname": "hostile-badjson", "sources": [ { "name": ')
    add("proc/sys/kernel/hostname", b"hostile-badjson\n")
elif kind == "newer":
    man["format_version"] = 2
    manifest()
    add("proc/sys/kernel/hostname", b"hostile-newer\n")
elif kind == "nomanifest":
    add("proc/sys/kernel/hostname", b"hostile-nomanifest\n")
    manifest()
out.close()
EOF
}

for k in traversal absolute symlink oversize bomb badjson newer nomanifest; do
	if ! mk "$k" | zstd -q -1 -T0 -o "$H/$k.rdma.tar.zst"; then
		fail "hostile: could not build the $k bundle"
	fi
done
head -c $(($(wc -c <"$GOOD") / 2)) "$GOOD" >"$H/truncated.rdma.tar.zst"
printf 'this is not a bundle\n' >"$H/garbage.rdma.tar.zst"
: >"$H/empty.rdma.tar.zst"

# markup in the hostname, through a real collect of the rxe fixture
mknode rxe "$H/node"
printf '<script>alert(1)</script>\n' >"$H/node/proc/sys/kernel/hostname"
printf '<b onmouseover=alert(2)>"x"&y</b>\n' >"$H/node/etc/hostname"
mkdir "$H/html"
"$RC" -q --root "$H/node" -o "$H/html" >/dev/null
HTMLB=$(ls "$H"/html/*.rdma.tar.zst 2>/dev/null | head -1)
if [ -n "$HTMLB" ]; then
	ok "hostile: collected a node whose hostname is markup ($(basename "$HTMLB"))"
else
	fail "hostile: collecting the markup-hostname node"
fi

# one bundle alone: rc, stderr; "safe" or "refused" as expected
one() {	# one NAME WANT(safe|refused|either)
	b=$H/$1.rdma.tar.zst
	(cd "$H/run/a/b/c" && "$RA" report --format json -o "$H/$1.json" "$b" \
		>"$H/$1.out" 2>"$H/$1.err")
	rc=$?
	lines=$(grep -c . "$H/$1.err")
	if [ $rc -ge 128 ] || [ $rc -eq 3 ]; then
		fail "hostile: $1: exit $rc"
		sed 's/^/#   /' "$H/$1.err" | head -10
	elif [ $rc -eq 4 ]; then
		if [ "$2" = safe ]; then
			fail "hostile: $1: refused, but it should load safely: $(head -1 "$H/$1.err")"
		elif [ "$lines" -eq 1 ] && grep -q "$1.rdma.tar.zst" "$H/$1.err"; then
			ok "hostile: $1: refused in one line: $(cat "$H/$1.err")"
		else
			fail "hostile: $1: refused, but not in one line naming the file"
			sed 's/^/#   /' "$H/$1.err" | head -10
		fi
	else
		if [ "$2" = refused ]; then
			fail "hostile: $1: loaded (exit $rc), but it must be refused"
		elif python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if len(d["nodes"]) == 1 else 1)' "$H/$1.json" 2>/dev/null; then
			ok "hostile: $1: loaded safely (exit $rc${lines:+, $lines stderr line(s)})"
		else
			fail "hostile: $1: exit $rc but no node in the JSON report"
		fi
	fi
}
one traversal safe
one absolute safe
one symlink either
one oversize either
one bomb refused
one truncated refused
one garbage refused
one empty refused
one badjson refused
one newer refused
one nomanifest refused

# nothing was written outside: the analyzer never extracts
check "hostile: no file escaped the bundle" \
	sh -c '! ls "$1"/run/etc/x "$1"/run/a/etc/x "$1"/etc/x /tmp/rdma-hostile-abs 2>/dev/null | grep -q .' sh "$H"

# the HTML report escapes the hostname
if [ -n "$HTMLB" ]; then
	"$RA" report --format html -o "$H/r.html" "$HTMLB" >/dev/null 2>"$H/html.err"
	rc=$?
	if [ $rc -le 2 ] && [ -s "$H/r.html" ] && ! grep -q '<script>alert' "$H/r.html" &&
		! grep -q '<b onmouseover' "$H/r.html" && grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$H/r.html"; then
		ok "hostile: the HTML report escapes markup in the hostname"
	else
		fail "hostile: markup in the hostname is not escaped in the HTML report (exit $rc)"
		grep -n 'script\|onmouseover' "$H/r.html" | head -5 | sed 's/^/#   /'
	fi
	"$RA" report --format json -o "$H/html.json" "$HTMLB" >/dev/null 2>&1
	check "hostile: the JSON report keeps the hostname as a JSON string" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["nodes"][0]["node"] == "<script>alert(1)</script>", d["nodes"][0]["node"]' "$H/html.json"
fi

refused=0
for k in traversal absolute symlink oversize bomb truncated garbage empty badjson newer nomanifest; do
	grep -q "$k.rdma.tar.zst" "$H/$k.err" && refused=$((refused + 1))
done
# all in one command: the good and the safe ones are still reported
ALL="$GOOD $H/traversal.rdma.tar.zst $H/absolute.rdma.tar.zst $H/symlink.rdma.tar.zst $H/oversize.rdma.tar.zst $H/bomb.rdma.tar.zst $H/truncated.rdma.tar.zst $H/garbage.rdma.tar.zst $H/empty.rdma.tar.zst $H/badjson.rdma.tar.zst $H/newer.rdma.tar.zst $H/nomanifest.rdma.tar.zst $HTMLB"
# shellcheck disable=SC2086
"$RA" report --format json -o "$H/all.json" $ALL >/dev/null 2>"$H/all.err"
rc=$?
got=$(grep -c 'hostile/.*\.rdma\.tar\.zst' "$H/all.err")
check_eq "hostile: all together: one line per refused bundle" "$got" "$refused"
if [ $rc -eq 4 ] && python3 - "$H/all.json" "$GOOD" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
files = [n["bundle"] for n in d["nodes"]]
assert sys.argv[2] in files, files
assert any(n["node"] == "<script>alert(1)</script>" for n in d["nodes"]), files
EOF
then
	ok "hostile: all together: exit 4, the good bundle and the markup node still reported"
else
	fail "hostile: all together: exit $rc, or the good bundle is missing from the report"
	sed 's/^/#   /' "$H/all.err" | head -20
fi
