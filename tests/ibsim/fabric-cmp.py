#!/usr/bin/env python3
"""fabric-cmp.py: compare rdma-collect's fabric.json with what the real
infiniband-diags tools printed on the same simulated fabric.  Each command
prints the differences and exits 1 when there are any, 0 when none.

  fabric-cmp.py nodes  FABRIC.json IBNETDISCOVER.out   every node: GUID, type,
                                                      ports, description, ids
  fabric-cmp.py links  FABRIC.json IBNETDISCOVER-p.out every link, both ends:
                                                      LIDs, ports, width, speed
  fabric-cmp.py lft    FABRIC.json GUID IBROUTE.out    every LFT entry
  fabric-cmp.py pma    FABRIC.json GUID PORT PQ.out [PQX.out]
                       every counter perfquery (-x) printed, except the
                       data and packet counters the scan itself moves, and
                       the CapMask (CapMask2) of its header as the node's
                       PMA ClassPortInfo
  fabric-cmp.py port   FABRIC.json GUID PORT FIELD     print one port field
  fabric-cmp.py count  FABRIC.json                     nodes, switches, links
  fabric-cmp.py switches FABRIC.json                   "GUID LID" of each switch
"""
import json
import re
import sys

WIDTH = {1: "1x", 2: "4x", 4: "8x", 8: "12x", 16: "2x"}
SPEED = {1: "SDR", 2: "DDR", 4: "QDR"}
SPEED_EXT = {1: "FDR", 2: "EDR", 4: "HDR", 8: "NDR", 16: "XDR", 32: "XDR"}
TYPE = {"Switch": 2, "Ca": 1, "Rt": 3, "SW": 2, "CA": 1, "RT": 3}
MOVING = re.compile(r"(Data|Pkts)$")


def load(path):
    with open(path) as f:
        return json.load(f)


def nodes_by_guid(d):
    return {int(n["guid"], 16): n for n in d["nodes"]}


def rate(p):
    """the "4x EDR" of ibnetdiscover -p"""
    w = WIDTH.get(p["width_active"], "?")
    if p["cap_mask"] & (1 << 14) and p["speed_ext_active"]:
        return w, SPEED_EXT.get(p["speed_ext_active"], "?")
    return w, SPEED.get(p["speed_active"], "?")


def cmd_nodes(fab, out):
    mine = nodes_by_guid(load(fab))
    theirs = {}
    ids = {}
    for line in open(out):
        m = re.match(r"(vendid|devid|sysimgguid)=0x([0-9a-f]+)", line)
        if m:
            ids[m.group(1)] = int(m.group(2), 16)
            continue
        m = re.match(r'(Switch|Ca|Rt)\s+(\d+)\s+"[SHR]-([0-9a-f]+)"\s+#\s+"(.*?)"',
                     line)
        if m:
            theirs[int(m.group(3), 16)] = (TYPE[m.group(1)], int(m.group(2)),
                                           m.group(4), dict(ids))
            ids = {}
    bad = []
    if set(mine) != set(theirs):
        bad.append("node GUIDs differ: only rdma-collect %s, only ibnetdiscover %s"
                   % (sorted(hex(g) for g in set(mine) - set(theirs)),
                      sorted(hex(g) for g in set(theirs) - set(mine))))
    for g in sorted(set(mine) & set(theirs)):
        n, (t, np, desc, i) = mine[g], theirs[g]
        got = (n["type"], n["num_ports"], n["desc"], n["vendor_id"],
               n["device_id"], int(n["system_guid"], 16))
        want = (t, np, desc, i.get("vendid"), i.get("devid"),
                i.get("sysimgguid"))
        if got != want:
            bad.append("node %#x: rdma-collect %s, ibnetdiscover %s"
                       % (g, got, want))
    print("%d nodes compared" % len(theirs))
    return bad


def my_links(d):
    """per link end: (type, lid, port, port GUID, width, speed) of it and
    (type, lid, port, port GUID) of the far end"""
    nodes = nodes_by_guid(d)
    ends = {}
    for n in d["nodes"]:
        for p in n["ports"]:
            if not p["remote"]:
                continue
            far = nodes.get(int(p["remote"]["guid"], 16))
            fp = None
            if far:
                fp = next((q for q in far["ports"]
                           if q["port"] == p["remote"]["port"]), None)
            if fp is None:
                ends[(int(p["guid"], 16), p["port"])] = None
                continue
            ends[(int(p["guid"], 16), p["port"])] = (
                (n["type"], p["lid"], p["port"], int(p["guid"], 16)) + rate(p),
                (far["type"], fp["lid"], fp["port"], int(fp["guid"], 16)))
    return ends


def cmd_links(fab, out):
    mine = my_links(load(fab))
    theirs = {}
    # each line: this end with its width and speed, then the far end
    end = r"(CA|SW|RT)\s+(\d+)\s+(\d+)\s+0x([0-9a-f]+)"
    for line in open(out):
        m = re.match(end + r"\s+(\d+x)\s+(\S+)\s+-\s+" + end, line)
        if not m:
            continue
        g = m.groups()
        a = (TYPE[g[0]], int(g[1]), int(g[2]), int(g[3], 16), g[4], g[5])
        b = (TYPE[g[6]], int(g[7]), int(g[8]), int(g[9], 16))
        theirs[(a[3], a[2])] = (a, b)
    bad = []
    if set(mine) != set(theirs):
        bad.append("link ends differ: only rdma-collect %s, only ibnetdiscover %s"
                   % (sorted(set(mine) - set(theirs)),
                      sorted(set(theirs) - set(mine))))
    for k in sorted(set(mine) & set(theirs)):
        if mine[k] != theirs[k]:
            bad.append("link at %#x[%d]: rdma-collect %s, ibnetdiscover %s"
                       % (k[0], k[1], mine[k], theirs[k]))
    print("%d link ends compared" % len(theirs))
    return bad


def cmd_lft(fab, guid, out):
    n = nodes_by_guid(load(fab))[int(guid, 16)]
    lft = n["lft"]
    theirs = {}
    top = None
    for line in open(out):
        m = re.match(r"Unicast lids \[0x([0-9a-f]+)-0x([0-9a-f]+)\]", line)
        if m:
            top = int(m.group(2), 16)
        m = re.match(r"0x([0-9a-f]+) (\d+) :", line)
        if m:
            theirs[int(m.group(1), 16)] = int(m.group(2))
    bad = []
    if top is None or len(lft) != top + 1:
        bad.append("LFT length %d, ibroute's range ends at %s" % (len(lft), top))
    mine = {lid: port for lid, port in enumerate(lft) if port != 255}
    if mine != theirs:
        for lid in sorted(set(mine) | set(theirs)):
            if mine.get(lid) != theirs.get(lid):
                bad.append("LID %d: rdma-collect %s, ibroute %s"
                           % (lid, mine.get(lid), theirs.get(lid)))
    print("%d LFT entries compared" % len(theirs))
    return bad


def perfquery(path):
    vals = {}
    for line in open(path):
        m = re.match(r"(\w+):\.+(\S+)$", line.strip())
        if m:
            vals[m.group(1)] = int(m.group(2), 0)
    return vals


def find_port(d, guid, port):
    n = nodes_by_guid(d)[int(guid, 16)]
    return next(p for p in n["ports"] if p["port"] == int(port))


def capmasks(path):
    """{"CapabilityMask": .., "CapabilityMask2": ..} of perfquery's header
    "# Port counters: Lid 3 port 2 (CapMask: 0x5A00[ CapMask2: 0x...])"""
    for line in open(path):
        m = re.match(r"# Port (extended )?counters: .*\(CapMask: (0x[0-9A-F]+)"
                     r"(?: CapMask2: (0x[0-9A-F]+))?\)$", line.rstrip("\n"))
        if m:
            r = {"CapabilityMask": int(m.group(2), 16)}
            if m.group(3):
                r["CapabilityMask2"] = int(m.group(3), 16)
            return r
    return {}


def cmd_pma(fab, guid, port, pq, pqx=None):
    d = load(fab)
    p = find_port(d, guid, port)
    cpi = nodes_by_guid(d)[int(guid, 16)].get("pma", {}).get("ClassPortInfo", {})
    bad = []
    n = 0
    for path in (pq, pqx):
        if not path:
            continue
        caps = capmasks(path)
        if not caps:
            bad.append("%s: no CapMask in perfquery's header" % path)
        for k, v in caps.items():
            n += 1
            if cpi.get(k) != v:
                bad.append("%s ClassPortInfo %s: rdma-collect %s, perfquery %s"
                           % (guid, k, cpi.get(k), v))
    for group, path in (("PortCounters", pq), ("PortCountersExtended", pqx)):
        if not path:
            continue
        mine = p.get("pma", {}).get(group)
        if mine is None:
            bad.append("%s[%s]: no %s" % (guid, port, group))
            continue
        for k, v in perfquery(path).items():
            if MOVING.search(k):
                continue
            n += 1
            if mine.get(k) != v:
                bad.append("%s[%s] %s %s: rdma-collect %s, perfquery %s"
                           % (guid, port, group, k, mine.get(k), v))
    print("%d counters compared" % n)
    if not n:
        bad.append("nothing compared")
    return bad


def cmd_port(fab, guid, port, field):
    p = find_port(load(fab), guid, port)
    v = p
    for k in field.split("."):
        v = v.get(k) if isinstance(v, dict) else None
    print(json.dumps(v))
    return []


def cmd_switches(fab):
    for n in load(fab)["nodes"]:
        if n["type"] == 2:
            print(n["guid"], n["lid"])
    return []


def cmd_count(fab):
    d = load(fab)
    sw = sum(1 for n in d["nodes"] if n["type"] == 2)
    ends = sum(1 for n in d["nodes"] for p in n["ports"] if p["remote"])
    print("%d %d %d" % (len(d["nodes"]), sw, ends // 2))
    return []


def main():
    cmds = {"nodes": cmd_nodes, "links": cmd_links, "lft": cmd_lft,
            "pma": cmd_pma, "port": cmd_port, "count": cmd_count,
            "switches": cmd_switches}
    if len(sys.argv) < 3 or sys.argv[1] not in cmds:
        sys.stderr.write(__doc__)
        return 2
    bad = cmds[sys.argv[1]](*sys.argv[2:])
    for b in bad[:40]:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
