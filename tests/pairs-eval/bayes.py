#!/usr/bin/env python3
"""bayes.py: how well any method could do on the single-fault rows.

  bayes.py --build DIR [--cache DIR] [--seed S] LOG.json

LOG.json is eval.py's --json log (eval.py --bayes computes the same
figures during the run).  Each single-fault case is made again
(the same generator, seeded with (seed, i)) and answered by the
Bayes-optimal rule of the harness's own generative model, which no method
knows as well: the fault is one of the candidates eval.py draws from (a
kind uniformly, then a component of it uniformly), its rate 1 (hard) or
uniform on 0.2 .. 0.8 (flaky), the true noise rate.  The posterior of a
class (the components no pair of the fabric tells apart, eval.py's
scoring) is its members' prior times the likelihood of every outcome; the
answer is the class with the highest.  Printed per row: the Bayes rule's
top-1, the mean of its highest posterior (what it expects to get right,
a steadier figure than 20 cases give) and the engine's top-1 from the log.
"""
import argparse
import json
import math
import os
import random
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import eval as ev  # noqa: E402

# the flaky rate's prior, as a grid (eval.py draws it uniform on 0.2 .. 0.8)
RATES = [0.2 + 0.6 * (i + 0.5) / 60 for i in range(60)]


def marginal(f, s, e, mode):
    """log P(f fail, s pass of the tests crossing the fault), over its rate"""
    out = []
    for q in ([1.0] if mode == "hard" else RATES):
        p = min(max(e + (1 - 2 * e) * q, 1e-12), 1 - 1e-12)
        out.append(f * math.log(p) + s * math.log(1 - p))
    m = max(out)
    return m + math.log(sum(math.exp(v - m) for v in out) / len(out))


def prior(setup):
    """each candidate's prior: a kind uniformly, then one of its components"""
    p = {}
    for kind in ev.FAULT_KINDS:
        for c in setup.cand[kind]:
            p[c] = p.get(c, 0) + 1.0 / len(ev.FAULT_KINDS) / len(setup.cand[kind])
    return p


def posterior(setup, case, row):
    """(the class of the Bayes answer, its posterior, the truth's posterior)"""
    f = setup.fab
    seen = {}
    for (a, b, r), bad in zip(case["tests"], case["outcome"]):
        x = seen.setdefault(f.pair_id(a, b, r), [0, 0])
        x[0 if bad else 1] += 1
    e = max(row[2], 1e-4)
    cls = {}
    for c, pc in setup.prior.items():
        fc = sc = 0
        for p in f.crossing[c]:
            x = seen.get(p)
            if x:
                fc += x[0]
                sc += x[1]
        if not fc + sc:
            continue
        # relative to "every outcome is noise": the tests no candidate
        # crosses are common to all
        lp = (math.log(pc) + marginal(fc, sc, e, row[3]) -
              fc * math.log(e) - sc * math.log(1 - e))
        cls.setdefault(setup.sig[c], []).append(lp)
    post = {}
    for sig, v in cls.items():
        m = max(v)
        post[sig] = m + math.log(sum(math.exp(x - m) for x in v))
    m = max(post.values())
    z = sum(math.exp(v - m) for v in post.values())
    best = max(post, key=post.get)
    truth = setup.sig[case["faults"][0]]
    return best, 1 / z, math.exp(post.get(truth, -math.inf) - m) / z


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", required=True)
    p.add_argument("--cache", default=os.path.expanduser(
        os.environ.get("RDMA_PAIRS_CACHE", "~/.cache/rdma-pairs-eval")))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--fabrics", default="32x1,32x2,128x1,128x2,512x1,512x2")
    p.add_argument("--engines", default="minhop,updn,ftree")
    p.add_argument("--shape-engines")
    p.add_argument("log")
    args = p.parse_args()
    args.build = os.path.abspath(args.build)
    args.ra = os.path.join(args.build, "rdma-analyze")
    args.cases = args.shape_cases = 0
    args.verbose = False
    if args.shape_engines:
        args.shape_engines = args.shape_engines.split(",")
    tmp = tempfile.mkdtemp(prefix="pairs-bayes.")
    try:
        return run(args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run(args, tmp):
    shapes, rows = {}, {}
    for entry in json.load(open(args.log)):
        i = entry["case"]
        name = entry.get("shape", "ft")
        row = ev.ROWS[i % len(ev.ROWS)]
        if row[0] != 1:
            continue
        if name not in shapes:
            shapes[name] = ev.Shape(args, name, tmp)
        row, setup, rng = shapes[name].draw(args, i)
        if setup.name != entry["fabric"]:
            sys.exit("bayes.py: case %d is on %s, the log says %s: another seed?"
                     % (i, setup.name, entry["fabric"]))
        if not hasattr(setup, "prior"):
            setup.prior = prior(setup)
        case = ev.make_case(setup, row, rng)
        best, pmax, _ = posterior(setup, case, row)
        r = rows.setdefault((name, row), [0, 0, 0.0, 0])
        r[0] += 1
        r[1] += best == setup.sig[case["faults"][0]]
        r[2] += pmax
        r[3] += bool(entry.get("best", {}).get("top1"))
    print("%-6s %-6s %-5s %-5s %-5s %4s | %5s %7s | %6s" % (
        "shape", "faults", "cov", "noise", "mode", "n", "bayes", "E[max]", "engine"))
    for name in shapes:
        for row in ev.ROWS:
            if (name, row) in rows:
                n, ok, pm, eng = rows[(name, row)]
                print("%-6s %-6d %-5s %-5s %-5s %4d | %5.3f %7.3f | %6.3f" % (
                    name, row[0], row[1], "%g%%" % (row[2] * 100), row[3], n,
                    ok / n, pm / n, eng / n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
