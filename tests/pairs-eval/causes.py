#!/usr/bin/env python3
"""causes.py LOG.json TABLE.txt [--coverage all,20%]: what the engine
named instead, in the cases of the rows that miss a target.

LOG.json is eval.py's --json log (PAIRS_JSON of tests/bench-pairs.sh),
TABLE.txt the run's printed tables (the rows with MISSES).  In each case
of those rows where the engine ("best") did not name every fault among
its first k suspects, each wrong suspect (right[] of the log: compared by
class, as the score is) is put in one of: a direction for its link or
the link for a direction, a host for its cable or port or the reverse, a
switch for one or more of its links or ports, another component sharing
a switch or host with a fault, an unrelated one; and a case naming fewer
suspects than faults.  Printed: each cause, its cases by shape, examples.
"""
import argparse
import collections
import json
import re
import sys


def missed_rows(path):
    """{(shape, row as in the log)} of the rows marked MISSES"""
    out, shape = set(), None
    for line in open(path):
        m = re.match(r"^## (\w+): ", line)
        if m:
            shape = m.group(1)
        if re.match(r"^[123] ", line) and "MISSES" in line:
            f = line.split()
            out.add((shape, int(f[0]), f[1], float(f[2].rstrip("%")) / 100, f[3]))
    return out


def ends(name):
    kind, rest = name.split(":", 1)
    if kind == "link":
        return kind, set(rest.split("="))
    if kind == "half":
        return kind, set(rest.split(">"))
    return kind, {rest}


def dev(end):
    """the host or switch of an end ("node007 mlx5_0/1", "r1leaf1/7")"""
    return end.split("/")[0].split()[0]


def relation(ans, faults):
    ka, ea = ends(ans)
    for f in faults:
        kf, ef = ends(f)
        if ka == "half" and kf == "link" and ea == ef:
            return "a direction named for its link"
        if ka == "link" and kf == "half" and ea == ef:
            return "the link named for one direction"
        if ka == "node" and kf in ("link", "half") and any(dev(e) in ea for e in ef):
            return "the host named for its cable/port"
        if kf == "node" and ka in ("link", "half") and any(dev(e) in ef for e in ea):
            return "a cable/port named for its host"
    if ka == "switch":
        sw = next(iter(ea))
        under = sum(1 for f in faults if ends(f)[0] in ("link", "half") and
                    any(dev(e) == sw for e in ends(f)[1]))
        if under:
            return "the switch named for %s of its links/ports" % (
                "one" if under == 1 else "two or more")
        return "a switch not at fault"
    near = {dev(e) for e in ea}
    if any(near & {dev(e) for e in ends(f)[1]} for f in faults):
        return "another component beside a fault (shares a switch or host)"
    return "an unrelated component"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("log")
    p.add_argument("table")
    p.add_argument("--coverage", help="only these coverages (all,20%%,ring)")
    a = p.parse_args()
    rows = missed_rows(a.table)
    covs = a.coverage.split(",") if a.coverage else None
    by = collections.defaultdict(list)
    for e in json.load(open(a.log)):
        r = e["row"]
        if (e["shape"], r[0], r[1], r[2], r[3]) not in rows:
            continue
        if covs and r[1] not in covs:
            continue
        b = e["best"]
        if "right" not in b:
            sys.exit("causes.py: %s has no right[] (a log of eval.py before 111ee83)" % a.log)
        if b["correct"] == b["faults"] and b["top1"]:
            continue
        k = b["faults"]
        ans, right = b["answer"][:k], b["right"][:k]
        causes = []
        if len(ans) < k:
            causes.append("fewer suspects than faults (nothing named for %d)" % (k - len(ans)))
        wrong = [x for x, ok in zip(ans, right) if not ok]
        for x in wrong[:k - b["correct"]]:
            causes.append("a suspect the harness cannot place" if x is None
                          else relation(x, e["faults"]))
        for c in set(causes):
            by[c].append((e["shape"], e["case"], "%d %s %g%% %s" % (
                r[0], r[1], r[2] * 100, r[3])))
    for c, v in sorted(by.items(), key=lambda x: (-len(x[1]), x[0])):
        shapes = collections.Counter(x[0] for x in v)
        print("%4d  %s  [%s]" % (len(v), c, ", ".join("%s %d" % kv for kv in
                                                       shapes.most_common())))
        print("      e.g. " + "; ".join("%s %d (%s)" % x for x in v[:4]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
