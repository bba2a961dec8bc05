#!/usr/bin/env python3
"""repro.py LOG.json...: issue 21's table of its independent evaluation
(fabric x faults: top-1 / recall at k, all pairs and 20% together), from
eval.py --json logs, for every method in them, apart for no noise and
for 1% and 5% noise; then by kind (hard, flaky).  The run that issue
21's floor is compared with (tests/pairs-eval/README.md, "The floor"):

  eval.py --shapes s2 --shape-engines minhop --rows '^. (all|20%) ' ...
"""
import json
import sys

METHODS = ("best", "strict", "cover", "score", "vote", "floor", "tomography")


def fig(cases, m):
    c = [e[m] for e in cases if m in e]
    if not c:
        return None
    return (sum(x["top1"] for x in c) / len(c),
            sum(x["correct"] for x in c) / sum(x["faults"] for x in c), len(c))


def main():
    log = [e for f in sys.argv[1:] for e in json.load(open(f))
           if e["row"][1] in ("all", "20%")]
    have = [m for m in METHODS if any(m in e for e in log)]
    fabs = sorted({e["fabric"] for e in log})
    for title, pick in (("no noise", lambda e: e["row"][2] == 0),
                        ("1% and 5% noise", lambda e: e["row"][2] > 0)):
        print("## %s (top-1 / recall at k)" % title)
        print("%-14s %-6s %4s | %s" % ("fabric", "faults", "n",
                                       " | ".join("%-11s" % m for m in have)))
        groups = [(f, "%d" % k, [e for e in log if e["fabric"] == f and
                                 e["row"][0] == k and pick(e)])
                  for f in fabs for k in (1, 2, 3)]
        groups += [("all", kind, [e for e in log if e["row"][3] == kind and pick(e)])
                   for kind in ("hard", "flaky")]
        groups += [("all", "all", [e for e in log if pick(e)])]
        for f, k, cases in groups:
            if not cases:
                continue
            cells = []
            for m in have:
                x = fig(cases, m)
                cells.append("%.2f / %.2f" % x[:2] if x else "-")
            print("%-14s %-6s %4d | %s" % (f, k, len(cases),
                                           " | ".join("%-11s" % c for c in cells)))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
