#!/usr/bin/env python3
"""topo.py HOSTS RAILS: an ibsim topology of a 2-level fat tree on stdout.

The fabrics the pairs evaluation runs on (tests/pairs-eval/README.md).  Like
tests/ibsim/fabric.sh fab_fattree, extended with rails: a host has RAILS
HCAs (1 or 2), HCA r of every host is cabled to a leaf of rail r, and every
leaf has one cable to every spine (spines are shared by the rails, as in a
rail-optimised cluster: one subnet, one SM).

  ibsim node id   h<NNN>r<R>   (SIM_HOST of a client attached there)
  NodeDescription "node<NNN> mlx5_<R-1>"
  leaves          "r<R>leaf<I>", NodeDescription "MF0;r<R>leaf<I>:MQM9700/U1"
  spines          "spine<K>",    NodeDescription "MF0;spine<K>:MQM9700/U1"

Leaf size by host count: 8 hosts a leaf up to 64 hosts, 16 up to 256, 32
above; as many spines as a leaf has hosts, halved above 64 hosts (2:1, so
that 512 hosts on two rails stay within ibsim's switch ports).  HOSTS must
be a multiple of the leaf size.  Deterministic.
"""
import sys


def geometry(hosts):
    """(hosts a leaf, spines) for a fabric of HOSTS hosts"""
    per_leaf = 8 if hosts <= 64 else 16 if hosts <= 256 else 32
    spines = per_leaf if hosts <= 64 else per_leaf // 2
    return per_leaf, spines


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: topo.py HOSTS RAILS")
    hosts, rails = int(sys.argv[1]), int(sys.argv[2])
    per_leaf, spines = geometry(hosts)
    if hosts < per_leaf or hosts % per_leaf or rails not in (1, 2):
        sys.exit("topo.py: %d hosts is not a multiple of %d, or rails "
             "not 1 or 2" % (hosts, per_leaf))
    leaves = hosts // per_leaf
    out = ["width=3", "speed=7", "extspeed=3",
           "switchguid=0x7cfe900300c00000", "caguid=0xb8cef60300d00000"]

    def hca(h, r):
        return "h%03dr%d" % (h, r)

    def leaf(r, i):
        return "r%dleaf%d" % (r, i)

    # HCAs first: a client without SIM_HOST lands on the first node
    for r in range(1, rails + 1):
        for h in range(1, hosts + 1):
            i = (h - 1) // per_leaf + 1
            j = (h - 1) % per_leaf + 1
            out += ["", "vendid=0x2c9", "devid=0x101b",
                'Hca 1 "%s" # "node%03d mlx5_%d"' % (hca(h, r), h, r - 1),
                '[1] "%s"[%d]' % (leaf(r, i), j)]
    for k in range(1, spines + 1):
        out += ["", "vendid=0x2c9", "devid=0xd2f0",
            'Switch %d "spine%d" # "MF0;spine%d:MQM9700/U1" enhanced port 0'
            % (leaves * rails, k, k)]
        for r in range(1, rails + 1):
            for i in range(1, leaves + 1):
                out.append('[%d] "%s"[%d]' % ((r - 1) * leaves + i,
                                  leaf(r, i), per_leaf + k))
    for r in range(1, rails + 1):
        for i in range(1, leaves + 1):
            out += ["", "vendid=0x2c9", "devid=0xd2f0",
                'Switch %d "%s" # "MF0;%s:MQM9700/U1" enhanced port 0'
                % (per_leaf + spines, leaf(r, i), leaf(r, i))]
            for j in range(1, per_leaf + 1):
                h = (i - 1) * per_leaf + j
                out.append('[%d] "%s"[1]' % (j, hca(h, r)))
            for k in range(1, spines + 1):
                out.append('[%d] "spine%d"[%d]' % (per_leaf + k, k,
                                   (r - 1) * leaves + i))
    print("\n".join(out))


if __name__ == "__main__":
    main()
