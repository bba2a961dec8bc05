#!/usr/bin/env python3
"""topo.py HOSTS RAILS | topo.py SHAPE: an ibsim topology on stdout.

The fabrics the pairs evaluation runs on (tests/pairs-eval/README.md).

topo.py HOSTS RAILS: the 2-level fat trees of issue 7 (the "ft" mix).  Like
tests/ibsim/fabric.sh fab_fattree, extended with rails: a host has RAILS
HCAs (1 or 2), HCA r of every host is cabled to a leaf of rail r, and every
leaf has one cable to every spine (spines are shared by the rails, as in a
rail-optimised cluster: one subnet, one SM).  Leaf size by host count: 8
hosts a leaf up to 64 hosts, 16 up to 256, 32 above; as many spines as a
leaf has hosts, halved above 64 hosts (2:1, so that 512 hosts on two rails
stay within ibsim's switch ports).  HOSTS must be a multiple of the leaf
size.

topo.py SHAPE: one of SHAPES below, the shapes real clusters have: 2, 4
and 8 spines, two parallel cables between a leaf and a spine, a 3-level
fat tree (leaf, aggregation, core), unequal leaves (a last leaf with fewer
hosts, a leaf missing one spine uplink).

  ibsim node id   h<NNN>r<R>   (SIM_HOST of a client attached there)
  NodeDescription "node<NNN> mlx5_<R-1>"
  leaves          "r<R>leaf<I>", NodeDescription "MF0;r<R>leaf<I>:MQM9700/U1"
  spines          "spine<K>"   (3 levels: "agg<P>_<J>", "core<K>")

Deterministic.
"""
import sys

# name: (hosts, hosts a leaf, spines, rails, cables a leaf-spine pair,
#        extra) -- extra: "3level" (pods of 2 leaves, 2 aggregation
#        switches a pod, 2 cores each), "unequal" (the last leaf cabled to
#        5 hosts, leaf 2 missing its cable to the last spine)
SHAPES = {
    "s2": (32, 8, 2, 1, 1, ""),
    "s4": (64, 8, 4, 1, 1, ""),
    "s8": (64, 8, 8, 1, 1, ""),
    "r2s4": (32, 8, 4, 2, 1, ""),
    "par2": (128, 16, 4, 1, 2, ""),
    "l3": (64, 8, 0, 1, 1, "3level"),
    "uneq": (29, 8, 4, 1, 1, "unequal"),
    # r2s4 again, the CSV naming the hosts by port GID / IPoIB address
    "gid": (32, 8, 4, 2, 1, ""),
    "ip": (32, 8, 4, 2, 1, ""),
}


def geometry(hosts):
    """(hosts a leaf, spines) for a fabric of HOSTS hosts (the ft mix)"""
    per_leaf = 8 if hosts <= 64 else 16 if hosts <= 256 else 32
    spines = per_leaf if hosts <= 64 else per_leaf // 2
    return per_leaf, spines


def hca(h, r):
    return "h%03dr%d" % (h, r)


def leaf(r, i):
    return "r%dleaf%d" % (r, i)


def hcas(out, hosts, rails, per_leaf):
    """HCAs first: a client without SIM_HOST lands on the first node"""
    for r in range(1, rails + 1):
        for h in range(1, hosts + 1):
            i = (h - 1) // per_leaf + 1
            j = (h - 1) % per_leaf + 1
            out += ["", "vendid=0x2c9", "devid=0x101b",
                    'Hca 1 "%s" # "node%03d mlx5_%d"' % (hca(h, r), h, r - 1),
                    '[1] "%s"[%d]' % (leaf(r, i), j)]


def switch(out, name, ports, cables):
    """a switch of PORTS ports; CABLES: (port, far node, far port)"""
    out += ["", "vendid=0x2c9", "devid=0xd2f0",
            'Switch %d "%s" # "MF0;%s:MQM9700/U1" enhanced port 0'
            % (ports, name, name)]
    out += ['[%d] "%s"[%d]' % c for c in sorted(cables)]


def two_level(hosts, per_leaf, spines, rails, cables=1, unequal=False):
    """leaves and spines; with CABLES > 1 parallel cables: leaf port
    per_leaf + (k-1)*cables + c to spine k's port ((r-1)*leaves + i-1)*
    cables + c (the ft mix's numbering for one cable)"""
    leaves = -(-hosts // per_leaf)
    out = ["width=3", "speed=7", "extspeed=3",
           "switchguid=0x7cfe900300c00000", "caguid=0xb8cef60300d00000"]
    hcas(out, hosts, rails, per_leaf)

    def up(r, i, k):
        # unequal: leaf 2 of each rail has no cable to the last spine
        return not (unequal and i == 2 and k == spines)

    for k in range(1, spines + 1):
        sw = []
        for r in range(1, rails + 1):
            for i in range(1, leaves + 1):
                for c in range(1, cables + 1):
                    if up(r, i, k):
                        sw.append(((((r - 1) * leaves + i - 1) * cables + c),
                                   leaf(r, i), per_leaf + (k - 1) * cables + c))
        switch(out, "spine%d" % k, leaves * rails * cables, sw)
    for r in range(1, rails + 1):
        for i in range(1, leaves + 1):
            sw = [(j, hca(h, r), 1) for j in range(1, per_leaf + 1)
                  for h in [(i - 1) * per_leaf + j] if h <= hosts]
            for k in range(1, spines + 1):
                for c in range(1, cables + 1):
                    if up(r, i, k):
                        sw.append((per_leaf + (k - 1) * cables + c, "spine%d" % k,
                                   ((r - 1) * leaves + i - 1) * cables + c))
            switch(out, leaf(r, i), per_leaf + spines * cables, sw)
    return out


def three_level(hosts, per_leaf):
    """pods of 2 leaves and 2 aggregation switches (every leaf of a pod to
    both), agg j of every pod to cores 2j-1 and 2j: leaf ports per_leaf+j
    to agg<p>_<j>, agg ports 1-2 down, 3-4 up, core port p to pod p"""
    leaves = hosts // per_leaf
    pods = leaves // 2
    out = ["width=3", "speed=7", "extspeed=3",
           "switchguid=0x7cfe900300c00000", "caguid=0xb8cef60300d00000"]
    hcas(out, hosts, 1, per_leaf)
    for k in range(1, 5):
        j = (k + 1) // 2
        switch(out, "core%d" % k, pods,
               [(p, "agg%d_%d" % (p, j), 3 + (k - 1) % 2)
                for p in range(1, pods + 1)])
    for p in range(1, pods + 1):
        for j in (1, 2):
            sw = [(m, leaf(1, 2 * (p - 1) + m), per_leaf + j) for m in (1, 2)]
            sw += [(3 + m, "core%d" % (2 * (j - 1) + m + 1), p) for m in (0, 1)]
            switch(out, "agg%d_%d" % (p, j), 4, sw)
    for i in range(1, leaves + 1):
        p = (i - 1) // 2 + 1
        sw = [(j, hca((i - 1) * per_leaf + j, 1), 1) for j in range(1, per_leaf + 1)]
        sw += [(per_leaf + j, "agg%d_%d" % (p, j), 2 - i % 2) for j in (1, 2)]
        switch(out, leaf(1, i), per_leaf + 2, sw)
    return out


def main():
    a = sys.argv[1:]
    if len(a) == 1 and a[0] in SHAPES:
        hosts, per_leaf, spines, rails, cables, extra = SHAPES[a[0]]
        if extra == "3level":
            out = three_level(hosts, per_leaf)
        else:
            out = two_level(hosts, per_leaf, spines, rails, cables,
                            extra == "unequal")
        print("\n".join(out))
        return
    if len(a) != 2:
        sys.exit("usage: topo.py HOSTS RAILS | topo.py %s" % "|".join(SHAPES))
    hosts, rails = int(a[0]), int(a[1])
    per_leaf, spines = geometry(hosts)
    if hosts < per_leaf or hosts % per_leaf or rails not in (1, 2):
        sys.exit("topo.py: %d hosts is not a multiple of %d, or rails "
                 "not 1 or 2" % (hosts, per_leaf))
    print("\n".join(two_level(hosts, per_leaf, spines, rails)))


if __name__ == "__main__":
    main()
