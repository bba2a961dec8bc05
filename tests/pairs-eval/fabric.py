"""fabric.py: the model of one evaluation fabric, read from the fabric scan
of a bundle (rdma-collect --fabric, schema/BUNDLE.md "### fabric"): every
HCA port, every cable, every switch, and the route of every rail-aligned
pair in both directions, followed through the scanned forwarding tables
exactly as the switches forward (the LFTs opensm's routing engine wrote,
asymmetric where the engine made them so).

Components are small integers; comp_name() gives their stable text form:
  node:<host>                    a host (all its HCAs)
  link:<a>/<p>=<b>/<q>           a cable, by both ends (NodeDescription and
                                 port number; ends sorted); a switch port
                                 is the cable it carries (no pair test can
                                 tell them apart)
  half:<a>/<p>><b>/<q>           one direction of a cable, from a/p to
                                 b/q (a switch port's transmitter, say)
  switch:<desc>                  a switch
comp_ends[c] holds the physical ends ((guid, port), ...) of each: both ends
of a link (sorted), the sending end then the receiving one of a half, the
switch or host GUIDs (port 0) of a switch or node.
"""
import array
import collections
import hashlib
import json
import subprocess


def read_scan(bundle):
    """the fabric.json document of BUNDLE"""
    out = subprocess.run(["tar", "--zstd", "-xOf", bundle,
                          "rdma-collect/fabric/fabric.json"],
                         check=True, stdout=subprocess.PIPE).stdout
    return json.loads(out)


def short(desc):
    """the leaf or spine name in a switch NodeDescription (MF0;leaf2:...)"""
    if desc.startswith("MF0;") and ":" in desc:
        return desc[4:desc.index(":")]
    return desc


class Fabric:
    def __init__(self, bundle):
        scan = read_scan(bundle)
        if scan.get("status") != "ok":
            raise ValueError("%s: fabric scan is not ok" % bundle)
        self.bundle = bundle
        self.nodes = {n["guid"]: n for n in scan["nodes"]}
        self.remote = {}                # (guid, port) -> (guid, port)
        for n in scan["nodes"]:
            for p in n["ports"]:
                r = p.get("remote")
                if r and p["port"] and p.get("state", 0) >= 4:
                    self.remote[(n["guid"], p["port"])] = (r["guid"], r["port"])
        # HCAs: (host, rail) -> (guid, lid); desc "node007 mlx5_1"
        self.hca = {}
        for n in scan["nodes"]:
            if n["type"] != 1:
                continue
            host, dev = n["desc"].split()
            rail = int(dev.rsplit("_", 1)[1])
            port = n["ports"][0]
            self.hca[(host, rail)] = (n["guid"], port["lid"], port["port"])
        self.hosts = sorted({h for h, _ in self.hca})
        self.rails = sorted({r for _, r in self.hca})
        self.lft = {g: n.get("lft") or [] for g, n in self.nodes.items()
                    if n["type"] == 2}
        self.comp_ids = {}
        self.comp_names = []
        self.comp_kind = []
        self.comp_ends = []
        for h in self.hosts:
            self.comp("node:" + h, "node",
                      tuple(sorted((self.hca[(h, r)][0], 0) for r in self.rails
                                   if (h, r) in self.hca)))
        self.node_comp = {h: self.comp_ids["node:" + h] for h in self.hosts}
        self._hops = {}
        self._memo = {}

    # --- components ---
    def comp(self, name, kind, ends):
        i = self.comp_ids.get(name)
        if i is None:
            i = self.comp_ids[name] = len(self.comp_names)
            self.comp_names.append(name)
            self.comp_kind.append(kind)
            self.comp_ends.append(ends)
        return i

    def end(self, guid, port):
        n = self.nodes[guid]
        name = n["desc"] if n["type"] == 1 else short(n["desc"])
        return "%s/%d" % (name, port)

    def link_name(self, a, b):
        ends = sorted([self.end(*a), self.end(*b)])
        return "link:%s=%s" % tuple(ends)

    def link(self, a, b):
        """the component of the cable between ends A and B"""
        kind = "cable" if (self.nodes[a[0]]["type"] == 1 or
                           self.nodes[b[0]]["type"] == 1) else "isl"
        return self.comp(self.link_name(a, b), kind, tuple(sorted([a, b])))

    def half(self, a, b):
        """the component of the direction from end A to end B of a cable"""
        return self.comp("half:%s>%s" % (self.end(*a), self.end(*b)), "half",
                         (a, b))

    def switch(self, guid):
        return self.comp("switch:" + short(self.nodes[guid]["desc"]),
                         "switch", ((guid, 0),))

    def links(self, kind):
        """every cable of KIND (cable: host to leaf; isl: leaf to spine)"""
        out = set()
        for a, b in self.remote.items():
            c = self.link(a, b)
            if self.comp_kind[c] == kind:
                out.add(c)
        return sorted(out)

    def halves(self, kind):
        """both directions of every cable of KIND"""
        return sorted(self.half(a, b) for a, b in self.remote.items()
                      if self.comp_kind[self.link(a, b)] == kind)

    # --- routes ---
    def _hop(self, here):
        """(far end, its cable, the direction crossed, the far switch or
        None) of the cable leaving port HERE; None when it has none"""
        h = self._hops.get(here)
        if h is None and here in self.remote:
            there = self.remote[here]
            sw = (self.switch(there[0])
                  if self.nodes[there[0]]["type"] == 2 else None)
            h = self._hops[here] = (there, self.link(here, there),
                                    self.half(here, there), sw)
        return h

    def _from_switch(self, guid, dst, depth=0):
        """components from switch GUID to HCA DST, or None"""
        key = (guid, dst)
        if key in self._memo:
            return self._memo[key]
        dg, dlid, _ = self.hca[dst]
        lft = self.lft[guid]
        out = lft[dlid] if dlid < len(lft) else None
        r = None
        h = self._hop((guid, out)) if out not in (None, 255) else None
        if h is not None and depth < 16:
            there, link, half, sw = h
            if there[0] == dg:
                r = (link, half)
            elif sw is not None:
                rest = self._from_switch(there[0], dst, depth + 1)
                if rest is not None:
                    r = (link, half, sw) + rest
        self._memo[key] = r
        return r

    def route(self, src, dst):
        """components of the route from HCA SRC to HCA DST ((host, rail)
        each), following the LFTs; None when it does not arrive"""
        sg, _, sp = self.hca[src]
        h = self._hop((sg, sp))
        if h is None or h[3] is None:
            return None
        rest = self._from_switch(h[0][0], dst)
        return None if rest is None else (h[1], h[2], h[3]) + rest

    def test_comps(self, src, dst):
        """what a pair test from SRC to DST crosses: both hosts, the route
        there (the data) and the route back (the acknowledgements: a
        reliable connection fails when either direction does)"""
        there, back = self.route(src, dst), self.route(dst, src)
        if there is None or back is None:
            raise ValueError("no route between %s and %s" % (src, dst))
        return set(there).union(back, (self.node_comp[src[0]],
                                       self.node_comp[dst[0]]))

    # --- pairs and what crosses what ---
    def pair_id(self, a, b, rail):
        """the index of the rail-aligned pair of hosts A and B (indexes
        into self.hosts, either order)"""
        if a > b:
            a, b = b, a
        n = len(self.hosts)
        return (rail * n * (n - 1) // 2 + a * (2 * n - a - 1) // 2 +
                (b - a - 1))

    def build_index(self):
        """self.crossing[c]: the ids of the pairs crossing component c
        (sorted), over every rail-aligned pair of the fabric"""
        n = len(self.hosts)
        lists = collections.defaultdict(lambda: array.array("I"))
        t = 0
        for ri, r in enumerate(self.rails):
            for i in range(n):
                a = (self.hosts[i], r)
                for j in range(i + 1, n):
                    for c in self.test_comps(a, (self.hosts[j], r)):
                        lists[c].append(t)
                    t += 1
        self.npairs = t
        self.crossing = [lists.get(c, array.array("I"))
                         for c in range(len(self.comp_names))]

    def signatures(self):
        """a fingerprint per component of the set of pairs crossing it:
        two components with the same fingerprint cannot be told apart by
        any pair test, so an answer naming either is right for both"""
        return [(len(x), hashlib.sha1(x.tobytes()).hexdigest())
                for x in self.crossing]
