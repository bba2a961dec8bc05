#!/bin/sh
# tests/fuzz/mkseeds.sh BUILD OUT: seed inputs for every fuzz target, in
# OUT/<target>/, from real evidence: the fixture nodes with their faults
# injected (mlxlink, perftest and NCCL attachments, kernel logs), bundles
# rdma-collect makes of them, the shipped samples and the real outputs of
# tests/real/*/in (tool outputs, NCCL logs, kernel logs found in public
# sources, tests/real/README.md).
# The committed corpus (tests/fuzz/corpus/) is these seeds minimised with
# libFuzzer's -merge=1 (tests/fuzz/README.md).
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "$1" && pwd)
OUT=$2
W=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-seeds.XXXXXX")
trap 'rm -rf "$W"' EXIT
mkdir -p "$OUT"

# fixture nodes, each fault that leaves text for a parser injected
"$TOP/tests/fixtures/mknode.sh" gpu-ndr8 "$W/gpu" >/dev/null
for f in phy-ber eye-low fw-reset link-flap cable-error fw-mem \
	pcie-degraded acs-enabled nccl-completion-error nccl-no-ib \
	nccl-gdr-disabled nccl-hca-mismatch bw-below-line-rate gdr-bw-low; do
	"$TOP/tests/fixtures/inject.sh" $f "$W/gpu" >/dev/null 2>&1 ||
		echo "mkseeds: $f not injected" >&2
done
"$TOP/tests/fixtures/mknode.sh" roce-pfc "$W/roce" >/dev/null
for f in pfc-disabled pause-storm phy-ber nccl-gid-index-bad link-flap; do
	"$TOP/tests/fixtures/inject.sh" $f "$W/roce" >/dev/null 2>&1 ||
		echo "mkseeds: $f not injected (roce)" >&2
done
"$TOP/tests/fixtures/mknode.sh" rxe "$W/rxe" >/dev/null
for n in gpu roce rxe; do
	"$BUILD/rdma-collect" -q --root "$W/$n" -o "$W/$n.rdma.tar.zst" \
		>/dev/null 2>&1 || echo "mkseeds: no bundle of $n" >&2
	zstd -qdc "$W/$n.rdma.tar.zst" >"$W/$n.tar"
done

python3 - "$TOP" "$W" "$OUT" <<'PY'
import glob, hashlib, io, os, re, sys, tarfile
top, w, out = sys.argv[1:4]

def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    if not data:
        return
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb").write(data)

def files(pattern):
    return sorted(p for p in glob.glob(pattern)
                  if os.path.isfile(p) and not os.path.islink(p))

def walk(root, name):
    """files called name under root, links not followed (sysfs loops)"""
    found = []
    for d, _, fs in os.walk(root):
        if name in fs and not os.path.islink(os.path.join(d, name)):
            found.append(os.path.join(d, name))
    return sorted(found)

def real_texts():
    """what real tools printed: the files of tests/real/<case>/in/ (not
    the sysfs trees below it)"""
    return [open(p, errors="replace").read()
            for p in files(os.path.join(top, "tests/real/*/in/*"))]

nodes = [os.path.join(w, n) for n in ("gpu", "roce", "rxe")]
real = real_texts()

for n in nodes:
    for p in files(n + "/rdma-collect/commands/mlxlink-*/stdout"):
        put("mlxlink", open(p, "rb").read())
    for p in files(n + "/rdma-collect/attach/*"):
        b = open(p, "rb").read()
        put("nccl" if b"NCCL" in b else "perftest", b)
    for p in files(n + "/rdma-collect/klog/kmsg.txt"):
        b = open(p, "rb").read()
        for i in range(0, len(b), 8192):	# the tail is what matters
            put("klog", b"\0" + b[i:i + 8192])
    for p in walk(n + "/sys/devices", "config"):
        put("pcicfg", open(p, "rb").read())
    for p in files(n + "/rdma-collect/*.json") + files(n + "/rdma-collect/*/*.json"):
        b = open(p, "rb").read()
        if len(b) <= 65536:
            put("json", b)
    for p in files(n + "/rdma-collect/ethtool/*.json")[:2] + \
            files(n + "/rdma-collect/dcb/*.json")[:2] + \
            files(n + "/rdma-collect/net/addresses.json"):
        put("ethtool", open(p, "rb").read())
for e in real:
    if re.search(r"Info\s*\n-{4,}", e):
        put("mlxlink", e)
    if re.search(r"BW Test|Latency Test|#bytes", e):
        put("perftest", e)
for p in files(os.path.join(top, "tests/golden/*.manifest.json")):
    put("json", open(p, "rb").read())

# NCCL: the real logs' lines, in chunks
for e in real:
    if "NCCL" not in e:
        continue
    t = e.splitlines()
    for i in range(0, len(t), 40):
        put("nccl", "\n".join(t[i:i + 40]))
# kernel log: the real logs' dmesg lines as klogctl records ("<prio>[ts] text")
lines = ["<3>" + l for e in real for l in e.splitlines()
         if re.match(r"\[\s*\d+\.\d+\] ", l)]
for i in range(0, len(lines), 40):
    put("klog", "\1" + "\n".join(lines[i:i + 40]))

# pairs: the CSV forms schema/PAIRS.md documents
put("pairs", "src,dst,result,gbps,error\nnode001,node007,ok,391.2,\n"
    "node001 mlx5_1,node007 mlx5_1,fail,,transport retry counter exceeded\n")
put("pairs", "# all pairs\nnode001,node002,pass\n\"node003\",\"node004\",FAILED,,"
    "error, with, commas\n0x0002c90300a1b2c3,0x0002c90300a1b2c4,degraded\n"
    "17,0x12,slow\n10.0.0.2<4321>,fe80::1%ib0,error\n\n")

# import: each text of a tool's output behind parser row bytes (the target
# takes the row from the first byte, modulo the rows it has): the mlxlink,
# perftest and NCCL seeds behind all 48, the other real outputs behind every
# fourth, in turn (all behind all 48 made 10,000 seeds, 40 MB).  The
# parsers are line by line: short texts reach as far.
def short(ts):
    ts = [t.encode() if isinstance(t, str) else t for t in ts]
    return [t for t in ts if len(t) <= 3000]

typed = short(open(p, "rb").read() for t in ("mlxlink", "perftest", "nccl")
              for p in files(os.path.join(out, t, "*")))
for t in typed:
    for i in range(48):
        put("import", bytes([i]) + t)
for j, t in enumerate(short(real)):
    for i in range(j % 4, 48, 4):
        put("import", bytes([i]) + t)

# bundles: the tars of rdma-collect's bundles, cut into small ones (the
# manifest and one part of the tree each), in ustar, pax and GNU forms
groups = [r"^rdma-collect/(dcb|ethtool|net|ibdev2netdev)", r"^rdma-collect/verbs",
          r"^rdma-collect/(klog|limits|environ|devnodes)", r"^rdma-collect/(commands|attach)",
          r"^rdma-collect/sample", r"^sys/class/infiniband", r"^sys/class/net",
          r"^sys/(bus|devices/pci)", r"^proc|^etc", r"^sys/module|^sys/kernel"]
forms = [tarfile.USTAR_FORMAT, tarfile.PAX_FORMAT, tarfile.GNU_FORMAT]

def cut(members, src, g, form, cap):
    buf = io.BytesIO()
    dst = tarfile.open(fileobj=buf, mode="w", format=form)
    size = 0
    for m in members:
        if m.name != "manifest.json" and not re.search(g, m.name):
            continue
        if size > cap:
            break
        data = src.extractfile(m).read() if m.isfile() else None
        if data is not None and len(data) > 8192:
            if m.name.endswith(".json"):
                continue	# a cut document is only a syntax error
            data = data[-4096:]	# the tail of a log is what is read
            m.size = len(data)
        dst.addfile(m, io.BytesIO(data) if data is not None else None)
        size += 512 + (len(data) if data else 0)
    dst.close()
    return buf.getvalue()

# the reader needs little of each (its paths are the same in every part);
# the extractors need more of a part to reach its rows
k = 0
for n in nodes:
    try:
        src = tarfile.open(n + ".tar", "r")
    except FileNotFoundError:
        continue
    members = src.getmembers()
    for g in groups:
        put("bundle", cut(members, src, g, forms[k % 3], 12 * 1024))
        put("load", cut(members, src, g, forms[k % 3], 48 * 1024))
        k += 1
# one bundle whole and compressed, for the zstd path
for p in sorted(glob.glob(os.path.join(w, "*.rdma.tar.zst")))[-1:]:
    put("bundle", open(p, "rb").read())
PY
