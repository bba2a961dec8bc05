"""names.py: a host bundle for every host of an evaluation fabric, so that a
pairs CSV can name the hosts as NCCL logs do, by port GID or IPoIB address
(shapes "gid" and "ip" of eval.py).

The bundles are real collections: tests/fixtures/mknode.sh gpu-ndr8 makes
one node root (8 ConnectX-7 InfiniBand HCAs mlx5_0..7 with IPoIB netdevs),
and for each host in turn the files naming the node are rewritten: its own
hostname ("node007"), machine id, HCA GUIDs and addresses:
mlx5_<r-1> carries the GUID the fabric scan has for the host's HCA on rail r
(node GUID, sys image GUID, GID 0 fe80::<GUID>, the IPoIB link-local
address), its netdev the IPv4 address 192.168.10<r-1>.<host number>; the
HCAs the fabric does not have get GUIDs of their own.  Then
`rdma-collect --root --only identity,sysfs,netdev` collects it.  Cached in CACHE under a hash of the
fabric scan, mknode.sh and this file.
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
MKNODE = os.path.join(TOP, "tests", "fixtures", "mknode.sh")
# what identifies the template node (mknode.sh gpu-ndr8)
T_HOST = "dgx-h100-07"
T_GUID = re.compile(r"\b(9c63|9e63):c003:00e1:7a([0-7])0\b")
T_HEX = re.compile(r"\b0x9c63c00300e17a([0-7])0\b")
T_IP = re.compile(r"\b(10\.40\.12|192\.168\.10[0-7])\.107\b")


def colon(g):
    """0x0123456789abcdef -> 0123:4567:89ab:cdef"""
    h = "%016x" % g
    return ":".join(h[i:i + 4] for i in range(0, 16, 4))


def guids(fab, host, k):
    """the GUIDs of HCAs mlx5_0..7 of host number K: the scan's for the
    rails it has, made up (distinct) for the others"""
    out = []
    for d in range(8):
        x = fab.hca.get((host, d))
        out.append(int(x[0], 16) if x else 0x0002c90300000000 | k << 8 | d)
    return out


def gid(fab, host, rail):
    """the port GID of HCA RAIL of HOST, compressed as NCCL prints it"""
    g = int(fab.hca[(host, rail)][0], 16)
    return "fe80::%x:%x:%x:%x" % (g >> 48, g >> 32 & 0xffff, g >> 16 & 0xffff,
                                  g & 0xffff)


def ipv4(host, rail):
    """the IPoIB address of HCA RAIL of HOST ("node007": .7)"""
    return "192.168.10%d.%d" % (rail, int(host[4:]))


def rewrite(text, host, k, g, mid):
    def guid(m):
        v = g[int(m.group(2))]
        if m.group(1) == "9e63":         # an IPoIB interface id: U/L flipped
            v ^= 0x0200000000000000
        return colon(v)
    text = T_GUID.sub(guid, text)
    text = T_HEX.sub(lambda m: "0x%016x" % g[int(m.group(1))], text)
    text = T_IP.sub(lambda m: "%s.%d" % (m.group(1), k), text)
    return text.replace(T_HOST, host).replace(mid[0], mid[1])


def host_bundles(fab, rc, cache):
    """the paths of one bundle per host of FAB (made once, cached)"""
    key = hashlib.sha256(repr(sorted(fab.hca.items())).encode())
    for f in (MKNODE, os.path.abspath(__file__)):
        key.update(open(f, "rb").read())
    d = os.path.join(cache, "hosts-" + key.hexdigest()[:12])
    paths = [os.path.join(d, h + ".rdma.tar.zst") for h in fab.hosts]
    if all(os.path.exists(p) for p in paths):
        return paths
    tmp = d + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    tpl = os.path.join(tmp, "template")
    subprocess.run(["bash", MKNODE, "gpu-ndr8", tpl], check=True,
                   stdout=subprocess.DEVNULL)
    mid = open(os.path.join(tpl, "etc", "machine-id")).read().strip()
    orig = {}
    for top, _, files in os.walk(tpl):
        for f in files:
            p = os.path.join(top, f)
            if os.path.islink(p):
                continue
            try:
                t = open(p, encoding="utf-8").read()
            except (UnicodeDecodeError, OSError):
                continue
            if (T_GUID.search(t) or T_HEX.search(t) or T_IP.search(t) or
                    T_HOST in t or mid in t):
                orig[p] = t
    # one root, its few identifying files rewritten for each host in turn
    # (a copy of the tree a host costs seconds of mkdir)
    for k, host in enumerate(fab.hosts, 1):
        g = guids(fab, host, k)
        for p, t in orig.items():
            with open(p, "w", encoding="utf-8") as out:
                out.write(rewrite(t, host, k, g, (mid, "%032x" % k)))
        out = os.path.join(tmp, host + ".rdma.tar.zst")
        r = subprocess.run([rc, "-q", "--only", "identity,sysfs,netdev",
                            "--root", tpl, "-o", out],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           universal_newlines=True)
        if r.returncode or not os.path.exists(out):
            sys.exit("names.py: rdma-collect --root %s: %s" % (tpl, r.stderr[-300:]))
    shutil.rmtree(tpl)
    shutil.rmtree(d, ignore_errors=True)
    os.rename(tmp, d)
    return paths
