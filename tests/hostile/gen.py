#!/usr/bin/env python3
"""gen.py OUTDIR BASE: write the hostile-bundle corpus into OUTDIR.

BASE is a good bundle (a sample made from a fixture node: roce-b06 of
samples/fleet, whose report prints a hostname, ibdev and netdev names, node
descriptions and NCCL lines).  Every bundle is made here, at test time, with
Python's tarfile (or raw headers where tarfile will not lie) and the zstd
CLI; nothing big is ever written uncompressed.  OUTDIR/expect.tsv lists one
"KIND<TAB>WANT<TAB>WHAT" per bundle, WANT being safe (loads), refused (one
line naming the file, exit 4), noted (loads, each line naming the file and
what was not read) or either.  Markup strings are written to
OUTDIR/markers, one per line (JSON-escaped), for the report checks.
"""
import gzip, io, json, lzma, os, subprocess, sys, tarfile

out, base = sys.argv[1], sys.argv[2]
MTIME = 1764450245
expect = []

def zstd(raw, name):
    with open(os.path.join(out, name + ".rdma.tar.zst"), "wb") as f:
        subprocess.run(["zstd", "-q", "-1", "-c"], input=raw, stdout=f,
                       check=True)

def read_base():
    raw = subprocess.run(["zstd", "-dqc", base], stdout=subprocess.PIPE,
                         check=True).stdout
    ents = []
    with tarfile.open(fileobj=io.BytesIO(raw), mode="r:") as t:
        for ti in t:
            data = t.extractfile(ti).read() if ti.isfile() else b""
            ents.append((ti, data))
    return raw, ents

BASE_TAR, BASE = read_base()
MAN = json.loads(BASE[0][1])

def ti(name, typ=tarfile.REGTYPE, link="", size=0):
    t = tarfile.TarInfo(name)
    t.type, t.linkname, t.mtime, t.size = typ, link, MTIME, size
    t.mode = 0o755 if typ == tarfile.DIRTYPE else 0o644
    return t

def pack(ents, fmt=tarfile.PAX_FORMAT):
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w", format=fmt, encoding="utf-8",
                      errors="surrogateescape") as t:
        for info, data in ents:
            if info.isfile():
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
            else:
                t.addfile(info)
    return bio.getvalue()

def manifest(host):
    m = dict(MAN, hostname=host)
    return (ti("manifest.json"), (json.dumps(m, indent=2) + "\n").encode())

def based(host, drop=()):
    """the base bundle under another hostname, without paths in drop"""
    return [manifest(host)] + [(i, d) for i, d in BASE[1:]
                               if i.name not in drop]

def emit(kind, want, what, raw):
    zstd(raw, kind)
    expect.append((kind, want, what))

def f(name, data):
    return (ti(name), data)

def link(name, target, typ=tarfile.SYMTYPE):
    return (ti(name, typ, target), b"")

# -- raw tar blocks: headers that lie, pax records tarfile would not write --
def hdr(name, size, typ=b"0", lname=b""):
    h = bytearray(512)
    h[0:len(name)] = name
    h[100:108] = b"0000644\0"
    h[108:116] = h[116:124] = b"0000000\0"
    h[124:136] = b"%011o\0" % size
    h[136:148] = b"%011o\0" % MTIME
    h[148:156] = b" " * 8
    h[156:157] = typ
    h[157:157 + len(lname)] = lname
    h[257:265] = b"ustar\x0000"
    h[148:156] = b"%06o\0 " % sum(h)
    return bytes(h)

def pad(data):
    return data + bytes(-len(data) % 512)

def rawfile(name, data):
    return hdr(name, len(data)) + pad(data)

def pax(records, name, data, typ=b"0"):
    """a pax 'x' header whose records are given as bytes (key, value)"""
    body = b""
    for k, v in records:
        r = b" " + k + b"=" + v + b"\n"
        n = len(r) + 1
        while len(b"%d" % n) + len(r) != n:
            n += 1
        body += b"%d" % n + r
    return (hdr(b"PaxHeaders/x", len(body), b"x") + pad(body) +
            hdr(name, len(data), typ) + pad(data))

END = bytes(1024)
MRAW = rawfile(b"manifest.json", manifest("hostile-raw")[1])

# -- the corpus --
emit("traversal", "safe", "../ parts and a climbing path",
     pack(based("hostile-traversal") + [
         f("../../etc/x", b"escaped\n"),
         f("sys/../../../../etc/y", b"escaped\n"),
         f("sys/class/infiniband/../../../../../tmp/z", b"escaped\n")]))
emit("absolute", "safe", "absolute paths",
     pack(based("hostile-absolute") + [
         f("/etc/x", b"absolute\n"), f("//tmp/rdma-hostile-abs", b"abs\n")]))
emit("devices", "safe", "character, block and FIFO entries, also where "
     "the loader reads files",
     pack(based("hostile-devices", drop=("proc/sys/kernel/hostname",
                                         "rdma-collect/klog/kmsg.txt")) + [
         (ti("dev/infiniband/uverbs0", tarfile.CHRTYPE), b""),
         (ti("dev/sda", tarfile.BLKTYPE), b""),
         (ti("proc/sys/kernel/hostname", tarfile.FIFOTYPE), b""),
         (ti("rdma-collect/klog/kmsg.txt", tarfile.CHRTYPE), b""),
         link("sys/hard", "proc/modules", tarfile.LNKTYPE)]))

# symlink loops where the loader follows links: the device links of
# both ibdevs point at each other, a netdev link at itself, the kernel
# release through a chain of 100 links (more than the 40 followed)
dev0 = [i for i, _ in BASE if i.name == "sys/class/infiniband/mlx5_0"]
chain = [link("sys/chain/l%03d" % k, "l%03d" % (k + 1)) for k in range(99)]
chain.append(link("sys/chain/l099", "../../proc/sys/kernel/osrelease.real"))
emit("symloops", "safe", "a->b->a, self-links, a chain of 100 links",
     pack(based("hostile-symloops", drop=(
         "sys/class/infiniband/mlx5_0", "sys/class/infiniband/mlx5_1",
         "sys/class/net/ens1f0np0", "proc/sys/kernel/osrelease")) + [
         link("sys/class/infiniband/mlx5_0", "mlx5_1"),
         link("sys/class/infiniband/mlx5_1", "mlx5_0"),
         link("sys/class/net/ens1f0np0", "ens1f0np0"),
         link("sys/self", "."), link("sys/up", ".."),
         f("proc/sys/kernel/osrelease.real", b"6.1.0-27-amd64\n"),
         link("proc/sys/kernel/osrelease", "../../../sys/chain/l000")]
          + chain))
assert dev0, "the base bundle has no mlx5_0"

emit("tiny10k", "safe", "10,000 tiny entries",
     pack(based("hostile-tiny10k") +
          [f("sys/tiny/%05d" % k, b"%d\n" % (k % 10)) for k in range(10000)],
          tarfile.USTAR_FORMAT))

# a header declaring 4 GiB followed by 1 KiB: in the size field, and in a
# pax size record
emit("liar4g", "refused", "an entry declaring 4 GiB, 1 KiB of data",
     MRAW + hdr(b"sys/big", 4 << 30) + bytes(1024) + END)
emit("liar4g-pax", "refused", "a pax size record of 4 GiB, 1 KiB of data",
     MRAW + pax([(b"size", b"%d" % (4 << 30))], b"sys/big", b"") +
     bytes(1024) + END)

# a zstd bomb: one entry of 1,400 MiB of zeros (beyond the 1,024 MiB total
# limit and the tar headers' allowance), streamed into zstd, never held
def bomb(name, mib):
    p = subprocess.Popen(["zstd", "-q", "-1", "-c"], stdin=subprocess.PIPE,
                         stdout=open(os.path.join(out, name + ".rdma.tar.zst"),
                                     "wb"))
    p.stdin.write(MRAW + hdr(b"sys/bomb", mib << 20))
    z = bytes(1 << 20)
    for _ in range(mib):
        p.stdin.write(z)
    p.stdin.write(END)
    p.stdin.close()
    if p.wait():
        sys.exit("zstd failed")
bomb("zbomb", 1400)
expect.append(("zbomb", "refused", "one entry of 1,400 MiB of zeros in %d KiB "
               "of zstd" % (os.path.getsize(os.path.join(
                   out, "zbomb.rdma.tar.zst")) >> 10)))

# the bomb after the archive: a whole (tiny) bundle, its end mark, then
# 1,400 MiB of zeros in the same zstd stream; tar -x stops at the end mark,
# and so does the reader (a few blocks after it, never the whole tail)
p = subprocess.Popen(["zstd", "-q", "-1", "-c"], stdin=subprocess.PIPE,
                     stdout=open(os.path.join(out, "zbomb-tail.rdma.tar.zst"), "wb"))
p.stdin.write(MRAW + END)
z = bytes(1 << 20)
for _ in range(1400):
    p.stdin.write(z)
p.stdin.close()
if p.wait():
    sys.exit("zstd failed")
expect.append(("zbomb-tail", "safe", "a whole bundle, then 1,400 MiB of zeros "
               "after its end mark in %d KiB of zstd" % (os.path.getsize(
                   os.path.join(out, "zbomb-tail.rdma.tar.zst")) >> 10)))

# truncated: the base bundle cut at several points
good = open(base, "rb").read()
for at in (4, 13, 200, len(good) // 4, len(good) // 2, len(good) * 3 // 4,
           len(good) - 4, len(good) - 1):
    n = "trunc-%d" % at
    open(os.path.join(out, n + ".rdma.tar.zst"), "wb").write(good[:at])
    expect.append((n, "refused", "cut after %d of %d bytes" % (at, len(good))))

# wrong magic: a flipped byte, gzip, xz, a plain tar, a skippable frame only
flip = bytearray(good)
flip[0] ^= 0xff
open(os.path.join(out, "magic-flip.rdma.tar.zst"), "wb").write(flip)
expect.append(("magic-flip", "refused", "the zstd magic's first byte flipped"))
for n, data in (("magic-gzip", gzip.compress(BASE_TAR, mtime=0)),
                ("magic-xz", lzma.compress(BASE_TAR)),
                ("magic-tar", BASE_TAR),
                ("magic-skippable", b"\x50\x2a\x4d\x18" +
                 (8).to_bytes(4, "little") + bytes(8))):
    open(os.path.join(out, n + ".rdma.tar.zst"), "wb").write(data)
    expect.append((n, "refused", n[6:] + " instead of a zstd frame"))

# duplicate paths: the kernel log twice (show dmesg tells which one won),
# and a second manifest at the end with another hostname
klog = [d for i, d in BASE if i.name == "rdma-collect/klog/kmsg.txt"][0]
emit("dup", "safe", "one path twice, the manifest twice",
     pack(based("hostile-dup-first", drop=("rdma-collect/klog/kmsg.txt",)) + [
         f("rdma-collect/klog/kmsg.txt",
           klog + b"4,900,603100000000,-;DUP-FIRST copy of the kernel log\n"),
         f("rdma-collect/klog/kmsg.txt",
           klog + b"4,900,603100000000,-;DUP-LAST copy of the kernel log\n"),
         manifest("hostile-dup-last")]))

# invalid UTF-8: in entry names, file contents and the manifest
bad = b"\xff\xfe\xc3\x28\xe2\x82"
badname = ("sys/class/net/bad" + bad.decode("utf-8", "surrogateescape")
           + "/mtu")
m = (json.dumps(dict(MAN, hostname="HOSTUTF8"), indent=2) + "\n").encode()
emit("utf8", "either", "invalid UTF-8 in names, contents and the manifest",
     pack([(ti("manifest.json"), m.replace(b"HOSTUTF8", b"utf8-" + bad))] +
          [(i, d) for i, d in BASE[1:] if i.name not in (
              "proc/sys/kernel/hostname",)] + [
          f(badname, b"1500\n"),
          f("proc/sys/kernel/hostname", b"utf8-" + bad + b"\n"),
          f("rdma-collect/klog/bad" + bad.decode("utf-8", "surrogateescape"),
            b"x\n")], tarfile.USTAR_FORMAT))

# NUL bytes in pax path and linkpath records: a name cut at the NUL would
# be another name (here: the hostname file, the passwd file)
files = b"".join(rawfile(i.name.encode(), d) for i, d in BASE[1:]
                 if i.isfile() and len(i.name) < 100)
emit("nul-path", "refused", "a NUL byte inside a pax path record",
     MRAW + files +
     pax([(b"path", b"proc/sys/kernel/hostname\0../../../../etc/passwd")],
         b"x", b"nul-in-name\n") + END)
emit("nul-link", "refused", "a NUL byte inside a pax linkpath record",
     MRAW + files +
     pax([(b"path", b"sys/nul-link"), (b"linkpath", b"/etc/\0passwd")],
         b"z", b"", b"2") + END)

# markup in every string the report prints: hostname, ibdev, netdev and
# node description (one substitution over names, link targets and
# contents), a kernel log line, an NCCL line, a module name
H = "roce<script>alert('host')</script>&\"x"
IB = "mlx5_<b onclick='x'>&\"0"
ND = "ens1f0<svg onload=alert(3)>&np0"
KL = "<script>alert('klog')</script>&\"'\x1b[2J\x1b]0;title\x07"
NC = "<img src=x onerror=alert('nccl')>&\""
MOD = "<iframe>evil&\""
old = MAN["hostname"]
subs = [(old, H), ("mlx5_0", IB), ("ens1f0np0", ND)]
def sub(s, js=False):
    for a, b in subs:
        s = s.replace(a, json.dumps(b)[1:-1] if js else b)
    return s
ents = []
for i, d in BASE:
    n = ti(sub(i.name), i.type, sub(i.linkname))
    n.mode = i.mode
    if i.isfile():
        js = i.name.endswith(".json")
        d = sub(d.decode("latin1"), js).encode("latin1")
        if i.name == "rdma-collect/klog/kmsg.txt":
            for k, txt in enumerate((
                    "mlx5_core 0000:17:00.0 ens1f0np0: Link down",
                    "mlx5_core 0000:17:00.0 ens1f0np0: Link up",
                    "mlx5_core 0000:17:00.0 ens1f0np0: Link down",
                    "mlx5_core 0000:17:00.0 ens1f0np0: Link up",
                    "mlx5_core 0000:17:00.0: Port module event[error]: "
                    "module 0, Cable error, Bus stuck (I2C or data "
                    "shorted) " + KL)):
                d += ("3,%d,%d,-;%s\n" % (900 + k, 603100000000 + k * 1000000,
                                          sub(txt))).encode("latin1")
        if i.name == "proc/modules":
            d += (MOD + " 16384 0 - Live 0x0000000000000000\n").encode()
        if i.name.startswith("rdma-collect/attach/"):
            d += (sub(old) + ":60233:60318 [3] transport/net_ib.cc:1696 "
                  "NCCL WARN NET/IB: Got completion from peer "
                  "192.168.10.38<45322> with status=5 opcode=0 len=0 "
                  "vendor err 244 (Recv) localGid ::ffff:192.168.10.36 "
                  "remoteGids::ffff:192.168.10.38 hca " + IB + " " + NC +
                  "\n").encode()
    ents.append((n, d))
emit("markup", "safe", "markup in the hostname, ibdev, netdev, node "
     "description, kernel log, NCCL log and module names", pack(ents))
# a join made quadratic: 100,000 wanted ethtool statistics, their --sample
# copy in reverse order (a linear search of the copy per statistic took
# 60 s on a 75 KB bundle)
ST = [["x%d_err" % k, k] for k in range(100000)]
def ethj(stats):
    return json.dumps({"ifname": "ens1f0np0", "status": "ok",
                       "stats": stats}).encode()
emit("stats-reversed", "safe", "100,000 ethtool statistics, the sample's "
     "copy in reverse order",
     pack(based("hostile-stats", drop=(
         "rdma-collect/ethtool/ens1f0np0.json",)) + [
         f("rdma-collect/ethtool/ens1f0np0.json", ethj(ST)),
         f("rdma-collect/sample/ethtool/ens1f0np0.json", ethj(ST[::-1]))]))

# another join made quadratic: 50,000 netdevs and an ibdev2netdev map of
# 50,000 rows, each netdev's row searched in the whole map (and each
# port's), 2.5 billion comparisons
NDS = ["nd%05d" % k for k in range(50000)]
emit("netdevs-map", "safe", "50,000 netdevs and an ibdev2netdev map of "
     "50,000 rows",
     pack(based("hostile-netdevs", drop=("rdma-collect/ibdev2netdev.json",)) +
          [(ti("sys/class/net/" + n, tarfile.DIRTYPE), b"") for n in NDS] +
          [f("rdma-collect/ibdev2netdev.json", json.dumps(
              [{"ibdev": "mlx5_0", "port": 1, "netdev": n, "how": "x"}
               for n in NDS]).encode())]))

# a JSON bomb: an ethtool document and its --sample copy, each an array
# of 31 million zeros (62 MiB, two bytes a value; ~100 bytes of tree a
# value took 5 GB): past the 4,000,000 values a document may hold, each is
# named not read, and the rest of the bundle loads
def zeros_doc():
    return (b'{"ifname": "ens1f0np0", "status": "ok", "stats": [' +
            b"0," * (31 << 20) + b"0]}")
Z = zeros_doc()
emit("json-zeros", "noted", "an ethtool document and its sample copy, "
     "each 31 million zeros",
     pack(based("hostile-json", drop=(
         "rdma-collect/ethtool/ens1f0np0.json",)) + [
         f("rdma-collect/ethtool/ens1f0np0.json", Z),
         f("rdma-collect/sample/ethtool/ens1f0np0.json", Z)]))
del Z

with open(os.path.join(out, "markers"), "w") as fm:
    for s in (H, IB, ND, KL, NC, MOD):
        fm.write(json.dumps(s) + "\n")

with open(os.path.join(out, "expect.tsv"), "w") as fe:
    for k, w, what in expect:
        fe.write("%s\t%s\t%s\n" % (k, w, what))
