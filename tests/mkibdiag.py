#!/usr/bin/env python3
"""mkibdiag.py: an ibdiagnet output folder (ibdiagnet2.db_csv and
ibdiagnet2.fdbs) written from what the infiniband-diags tools print on a
fabric, so the import of ibdiagnet folders can be checked against
rdma-collect --fabric on the same simulated fabric (tests/cli/import-ibdiag.sh).

  mkibdiag.py plan IBNETDISCOVER.out
      the queries to run, one a line: "pi LID PORT" (smpquery portinfo),
      "pq LID PORT" (perfquery and perfquery -x), "rt LID" (ibroute)
  mkibdiag.py write IBNETDISCOVER.out DIR OUT
      DIR holds the answers as pi.LID.PORT, pq.LID.PORT, pqx.LID.PORT and
      rt.LID; OUT gets ibdiagnet2.db_csv and ibdiagnet2.fdbs

The db_csv has the sections and column names of analyze/import/imp-ibdiag.c's
top comment; speeds are written in ibutils2's IBLinkSpeed encoding
(base bits, extended bits << 8), as ibdiagnet writes them.
"""
import os
import re
import sys

WIDTH = {"1X": 1, "4X": 2, "8X": 4, "12X": 8, "2X": 16}
SPEED = {"2.5": 1, "5.0": 2, "10.0": 4}
SPEED_EXT = {"14.0625": 1, "25.78125": 2, "53.125": 4, "106.25": 8,
             "212.5": 16}
STATE = {"Down": 1, "Initialize": 2, "Armed": 3, "Active": 4}
PHYS = {"Sleep": 1, "Polling": 2, "Disabled": 3, "PortConfigurationTraining": 4,
        "LinkUp": 5, "LinkErrorRecovery": 6, "PhyTest": 7}
TYPE = {"Switch": 2, "Ca": 1, "Rt": 3}
PM_COLS = ["LinkDownedCounter", "LinkErrorRecoveryCounter",
           "SymbolErrorCounter", "PortRcvRemotePhysicalErrors",
           "PortRcvErrors", "PortXmitDiscards", "PortRcvSwitchRelayErrors",
           "ExcessiveBufferOverrunErrors", "LocalLinkIntegrityErrors",
           "PortRcvConstraintErrors", "PortXmitConstraintErrors",
           "VL15Dropped", "PortXmitData", "PortRcvData", "PortXmitPkts",
           "PortRcvPkts", "PortXmitWait"]
PMX_COLS = ["PortXmitData", "PortRcvData", "PortXmitPkts", "PortRcvPkts",
            "PortUnicastXmitPkts", "PortUnicastRcvPkts",
            "PortMulticastXmitPkts", "PortMulticastRcvPkts"]


def topology(path):
    """nodes {guid: {type, ports, desc, vendor, device, sys, lid, links}}"""
    nodes, cur, ids = {}, None, {}
    for line in open(path):
        m = re.match(r"(vendid|devid|sysimgguid)=0x([0-9a-f]+)", line)
        if m:
            ids[m.group(1)] = int(m.group(2), 16)
            continue
        m = re.match(r'(Switch|Ca|Rt)\s+(\d+)\s+"[SHR]-([0-9a-f]+)"\s+#\s+"(.*?)"'
                     r'(?:.*\blid (\d+))?', line)
        if m:
            cur = {"type": TYPE[m.group(1)], "ports": int(m.group(2)),
                   "desc": m.group(4), "vendor": ids.get("vendid", 0),
                   "device": ids.get("devid", 0),
                   "sys": ids.get("sysimgguid", 0), "lid": m.group(5),
                   "links": {}, "lids": {}, "pguid": {}}
            nodes[int(m.group(3), 16)] = cur
            ids = {}
            continue
        m = re.match(r'\[(\d+)\](?:\(([0-9a-f]+)\))?\s+"[SHR]-([0-9a-f]+)"\[(\d+)\]'
                     r'(?:\([0-9a-f]+\))?\s+#(?:\s+lid (\d+))?', line)
        if m and cur is not None:
            port = int(m.group(1))
            cur["links"][port] = (int(m.group(3), 16), int(m.group(4)))
            if m.group(2):
                cur["pguid"][port] = int(m.group(2), 16)
            if m.group(5):
                cur["lids"][port] = int(m.group(5))
    return nodes


def queries(nodes):
    """(kind, lid, port) of every query; a switch's ports by its LID"""
    out = []
    for g in sorted(nodes):
        n = nodes[g]
        if n["type"] == 2:
            lid = int(n["lid"])
            out += [("pi", lid, p) for p in range(n["ports"] + 1)]
            out += [("pq", lid, p) for p in sorted(n["links"])]
            out.append(("rt", lid, None))
        else:
            for p, lid in sorted(n["lids"].items()):
                out += [("pi", lid, p), ("pq", lid, p)]
    return out


def dotted(path):
    """the "Name:.....value" lines of smpquery or perfquery"""
    d = {}
    if not os.path.exists(path):
        return d
    for line in open(path):
        m = re.match(r"(\w+):\.+(.*)$", line.strip())
        if m:
            d[m.group(1)] = m.group(2).strip()
    return d


def mask(text, table):
    return sum(v for k, v in table.items()
               if re.search(r"(^|\s)" + re.escape(k) + r"( Gbps)?(\s|$)", text))


def speed(pi, which):
    base = mask(pi.get("LinkSpeed" + which, ""), SPEED)
    ext = mask(pi.get("LinkSpeedExt" + which, ""), SPEED_EXT)
    if which == "Active" and ext:
        return ext << 8
    return base | ext << 8


def num(s):
    return int(s, 16) if s.startswith("0x") else int(s)


def write(ibnd, d, out):
    nodes = topology(ibnd)
    rows = {"nodes": [], "ports": [], "links": [], "pm": []}
    for g in sorted(nodes):
        n = nodes[g]
        rows["nodes"].append('"%s",%d,%d,1,1,0x%016x,0x%016x,0x%016x,%d,8,0,%d,%d' % (
            n["desc"], n["ports"], n["type"], n["sys"], g,
            min(n["pguid"].values(), default=g), n["device"],
            n["vendor"], 0))
        lid_of = (lambda p: int(n["lid"])) if n["type"] == 2 else n["lids"].get
        ports = range(n["ports"] + 1) if n["type"] == 2 else sorted(n["lids"])
        for p in ports:
            lid = lid_of(p)
            pi = dotted(os.path.join(d, "pi.%d.%d" % (lid, p)))
            if not pi:
                continue
            rows["ports"].append(",".join(str(x) for x in [
                "0x%016x" % g, "0x%016x" % n["pguid"].get(p, g), p,
                num(pi["Lid"]),
                num(pi["CapMask"]), mask(pi["LinkWidthActive"], WIDTH),
                mask(pi["LinkWidthSupported"], WIDTH),
                mask(pi["LinkWidthEnabled"], WIDTH),
                speed(pi, "Enabled"), speed(pi, "Active"), num(pi["LMC"]),
                PHYS.get(pi["PhysLinkState"], 0),
                STATE.get(pi["LinkState"], 0), speed(pi, "Supported")]))
            if p in n["links"]:
                rg, rp = n["links"][p]
                if (g, p) < (rg, rp):
                    rows["links"].append("0x%016x,%d,0x%016x,%d" % (g, p, rg, rp))
                pq = dotted(os.path.join(d, "pq.%d.%d" % (lid, p)))
                pqx = dotted(os.path.join(d, "pqx.%d.%d" % (lid, p)))
                if pq:
                    rows["pm"].append(",".join(
                        ["0x%016x" % g, "0x%016x" % n["pguid"].get(p, g),
                         str(p)] +
                        [pq.get(c, "N/A") for c in PM_COLS] +
                        [pqx.get(c, "N/A") for c in PMX_COLS]))
    with open(os.path.join(out, "ibdiagnet2.db_csv"), "w") as f:
        def section(name, header, body):
            f.write("START_%s\n%s\n" % (name, header))
            f.writelines(r + "\n" for r in body)
            f.write("END_%s\n\n" % name)
        section("NODES", "NodeDesc,NumPorts,NodeType,ClassVersion,BaseVersion,"
                "SystemImageGUID,NodeGUID,PortGUID,DeviceID,PartitionCap,"
                "revision,VendorID,LocalPortNum", rows["nodes"])
        section("PORTS", "NodeGuid,PortGuid,PortNum,LID,CapMsk,LinkWidthActv,"
                "LinkWidthSup,LinkWidthEn,LinkSpeedEn,LinkSpeedActv,LMC,"
                "PortPhyState,PortState,LinkSpeedSup", rows["ports"])
        section("LINKS", "NodeGuid1,PortNum1,NodeGuid2,PortNum2", rows["links"])
        section("PM_INFO", "NodeGUID,PortGUID,PortNumber," + ",".join(PM_COLS) +
                "," + ",".join(c + "Extended" if c.endswith(("Data", "Pkts")) and
                               not c.startswith(("PortUni", "PortMulti")) else c
                               for c in PMX_COLS), rows["pm"])
    with open(os.path.join(out, "ibdiagnet2.fdbs"), "w") as f:
        for g in sorted(nodes):
            n = nodes[g]
            if n["type"] != 2:
                continue
            f.write("osm_ucast_mgr_dump_ucast_routes: Switch 0x%016x\n" % g)
            f.write("LID    : Port : Hops : Optimal\n")
            rt = os.path.join(d, "rt.%s" % n["lid"])
            for line in open(rt) if os.path.exists(rt) else []:
                m = re.match(r"(0x[0-9a-f]+)\s+(\d+)\s+:", line)
                if m:
                    f.write("%s : %03d  : 00   : yes\n" % (m.group(1), int(m.group(2))))
            f.write("\n")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "plan":
        for kind, lid, port in queries(topology(sys.argv[2])):
            print(kind, lid, "" if port is None else port)
    elif len(sys.argv) == 5 and sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
