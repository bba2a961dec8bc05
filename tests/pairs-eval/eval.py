#!/usr/bin/env python3
"""eval.py: the measured accuracy of `rdma-analyze pairs` (issues 7, 21).

  eval.py --build DIR [--cache DIR] [--cases N] [--shape-cases M] [--seed S]
          [--shapes ft,s2,...] [--fabrics 32x1,128x2,...]
          [--engines minhop,updn,ftree] [--methods best,floor]
          [--bayes] [--speed] [--json FILE]

A shape is a set of fabrics (tests/pairs-eval/topo.py), each routed by
every opensm routing engine that accepts it: "ft" is issue 7's mix (fat
trees of --fabrics HOSTSxRAILS, --engines, N cases), the others one fabric
each (topo.py SHAPES; gid and ip name the hosts in the CSV by port GID or
IPoIB address, names.py), every engine of ENGINES that routes it, M cases.
For each fabric and engine capture.sh makes one bundle with rdma-collect
--fabric on ibsim (cached); it is loaded into a database once.  Then the
random cases of each shape, each: 1 to 3 faults drawn from the fabric's real
components (host cables, switch ports, inter-switch links, hosts), hard
(every pair crossing one fails) or flaky (each crossing test fails with the
fault's own rate), a coverage (every ordered pair of every rail, a random
20% of them, or the ring neighbours an NCCL ring tests) and a noise rate
(0, 1% or 5% of outcomes flipped).  Each pair's outcome comes from the
ground truth and the routes the scanned LFTs give in both directions
(fabric.py); the results go to a CSV, `rdma-analyze pairs` localizes with
each method, and the answer is scored.

Scoring: an answer is right when it names a component that no pair test
could tell from the fault (crossed by exactly the same pairs of the
fabric: a host's only cable and the host, a cable and its directions).
  top-1       the first suspect is one of the faults
  precision   distinct faults among the first k suspects / suspects
              reported among the first k (k = the number of faults),
              summed over the cases of a row
  recall      distinct faults among the first k suspects / faults
  found-all   every fault is among the candidates: the suspects, their
              equivalents and alternatives, and the components on the
              path of each failing result listed as unexplained
  split       of the cases whose answer is ambiguous (a suspect with
              alternatives, or a result listed unexplained), those with
              a suggested next pair test
The floor (floor.py) is four textbook methods beside the engine, scored
the same way; the table's strict column is issue 21's floor (Boolean
tomography and greedy set cover), the one target F holds the engine to,
its floor column the strongest of the four per row and figure, and <4
the engine's figures below that one (information).  --bayes adds the Bayes rule of the harness's model
(bayes.py): its top-1 on single-fault rows, its expected top-1 and
recall at k on every row (sampled for two and three faults).  Beside
each row, issue 21's targets.  Deterministic for a seed: case i of a shape uses its own generator,
seeded with (seed, i) for ft (the cases of issue 7's table) and (seed,
shape, i) for the others.  The row of case i is i modulo the number of
rows, so every row of a shape's table gets the same number of cases.
"""
import argparse
import array
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fabric  # noqa: E402
import floor as textbook  # noqa: E402
import names  # noqa: E402
import topo  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FAULT_KINDS = ("cable", "port", "isl", "host")
COVERAGES = ("all", "20%", "ring")
NOISES = (0.0, 0.01, 0.05)
MODES = ("hard", "flaky")
ROWS = [(k, cov, noise, mode) for k in (1, 2, 3) for cov in COVERAGES
        for noise in NOISES for mode in MODES]
# host counts are drawn with these weights: the large fabrics cost seconds
# a case, the small ones milliseconds
SIZE_WEIGHT = {32: 4, 64: 3, 128: 3, 256: 2, 512: 1}
# the routing engines tried on every shape but ft (capture.sh fails when
# opensm falls back from one: that shape runs without it)
ENGINES = ("minhop", "updn", "ftree", "dor", "lash", "dfsssp")
SHAPE_TEXT = {
    "ft": "issue 7's fat trees, 8 or 16 spines",
    "s2": "32 hosts, 4 leaves, 2 spines",
    "s4": "64 hosts, 8 leaves, 4 spines",
    "s8": "64 hosts, 8 leaves, 8 spines",
    "r2s4": "32 hosts x 2 rails, 8 leaves, 4 spines",
    "par2": "128 hosts, 8 leaves, 4 spines, 2 cables a leaf-spine pair",
    "l3": "64 hosts, 3 levels: 8 leaves, 4 pods of 2 aggregation, 4 cores",
    "uneq": "29 hosts, 4 leaves (the last 5 hosts), leaf 2 lacks spine 4",
    "gid": "r2s4, the CSV naming HCAs by port GID",
    "ip": "r2s4, the CSV naming HCAs by IPoIB address",
}


# --- the fabrics ---
class Refused(RuntimeError):
    """capture.sh failed: opensm did not route with the engine, or worse"""


class Setup:
    """one fabric x routing engine: its bundle, database and model"""

    def __init__(self, args, spec, engine, tmp):
        """SPEC: HOSTSxRAILS (the ft mix) or a shape of topo.py"""
        if "x" in spec:
            self.hosts, self.rails = (int(x) for x in spec.split("x"))
        else:
            self.hosts, _, _, self.rails, _, _ = topo.SHAPES[spec]
        self.engine = engine
        self.naming = spec if spec in ("gid", "ip") else None
        self.name = "%s-%s" % (spec, engine)
        rc = os.path.join(args.build, "rdma-collect")
        out = subprocess.run(["sh", os.path.join(HERE, "capture.sh"), rc,
                              spec, engine, args.cache],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True)
        if out.returncode:
            raise Refused("capture %s: %s" % (self.name, out.stderr.strip()))
        self.bundle = out.stdout.strip()
        self.fab = fabric.Fabric(self.bundle)
        bundles = [self.bundle]
        if self.naming:
            bundles += names.host_bundles(self.fab, rc, args.cache)
        self.db = os.path.join(tmp, self.name + ".db")
        load = subprocess.run([args.ra, "load", "--db", self.db] + bundles,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True)
        if load.returncode:
            raise RuntimeError("load %s: %s" % (self.name, load.stdout.strip()))
        self.fab.build_index()
        self.sig = self.fab.signatures()
        self.cand = {kind: self.candidates(kind) for kind in FAULT_KINDS}
        # a cable no route uses (dor, lash and dfsssp leave some on these
        # shapes; issue 7's fabrics have none) has no pair crossing it: no
        # method sees it fail, and it is no candidate
        f = self.fab
        unused = len(f.comp_names) - len(f.crossing)
        f.crossing += [array.array("I") for _ in range(unused)]
        self.sig = f.signatures()
        self.cand = {kind: [c for c in v if f.crossing[c]]
                     for kind, v in self.cand.items()}
        self.unused = sum(1 for c in range(len(f.comp_names))
                          if f.comp_kind[c] == "isl" and not f.crossing[c])

    def candidates(self, kind):
        f = self.fab
        if kind == "cable":
            return f.links("cable")
        if kind == "isl":
            return f.links("isl")
        if kind == "host":
            return [f.node_comp[h] for h in f.hosts]
        # a switch port: its transmitter, one direction of its cable
        return [c for c in f.halves("cable") + f.halves("isl")
                if f.nodes[f.comp_ends[c][0][0]]["type"] == 2]

    def ep_name(self, host, rail):
        """how the CSV names one end of a test"""
        if self.naming == "gid":
            return names.gid(self.fab, host, rail)
        if self.naming == "ip":
            return names.ipv4(host, rail)
        if self.rails == 1:
            return host
        return "%s mlx5_%d" % (host, rail)


# --- one case ---
def tests_of(setup, cov, rng):
    """the directed tests of a coverage: (host index, host index, rail)"""
    n = len(setup.fab.hosts)
    out = []
    for r in range(len(setup.fab.rails)):
        if cov == "ring":
            # an NCCL ring over the job's hosts in rank order: each
            # rank sends to the next
            out += [(i, (i + 1) % n, r) for i in range(n)]
            continue
        for a in range(n):
            for b in range(n):
                if a != b and (cov == "all" or rng.random() < 0.2):
                    out.append((a, b, r))
    return out


def make_case(setup, row, rng):
    """faults, tests and their outcomes of one case"""
    k, cov, noise, mode = row
    f = setup.fab
    tests = tests_of(setup, cov, rng)
    tested = {f.pair_id(a, b, r) for a, b, r in tests}
    faults = []
    for _ in range(1000):
        faults = []
        while len(faults) < k:
            c = rng.choice(setup.cand[rng.choice(FAULT_KINDS)])
            if all(setup.sig[c] != setup.sig[x] for x in faults):
                faults.append(c)
        # a fault no tested pair crosses cannot be seen by any method
        if all(tested.intersection(f.crossing[c]) for c in faults):
            break
    else:
        raise RuntimeError("%s: no detectable faults for %s" % (setup.name, row))
    rate = {c: 1.0 if mode == "hard" else rng.uniform(0.2, 0.8) for c in faults}
    crossing = {c: set(f.crossing[c]) for c in faults}
    outcome = []
    for a, b, r in tests:
        p = f.pair_id(a, b, r)
        bad = any(p in crossing[c] and rng.random() < rate[c] for c in faults)
        outcome.append(bad)
    # a flaky fault that failed no test is not a fault anyone reports:
    # one test crossing it fails
    for c in faults:
        hit = [i for i, (a, b, r) in enumerate(tests)
               if f.pair_id(a, b, r) in crossing[c]]
        if not any(outcome[i] for i in hit):
            outcome[rng.choice(hit)] = True
    truth = list(outcome)
    for i in range(len(outcome)):
        if rng.random() < noise:
            outcome[i] = not outcome[i]
    return {"faults": faults, "tests": tests, "outcome": outcome,
            "truth": truth, "rate": rate}


def write_csv(setup, case, path):
    f = setup.fab
    with open(path, "w") as out:
        out.write("src,dst,result,gbps,error\n")
        for (a, b, r), bad in zip(case["tests"], case["outcome"]):
            rail = f.rails[r]
            out.write("%s,%s,%s,,%s\n" % (
                setup.ep_name(f.hosts[a], rail), setup.ep_name(f.hosts[b], rail),
                "fail" if bad else "ok", "retry exceeded" if bad else ""))


# --- the answer ---
def run_pairs(args, setup, csv, method):
    """rdma-analyze pairs: (its JSON, wall seconds)"""
    t = time.monotonic()
    out = subprocess.run([args.ra, "pairs", "--db", setup.db, "--results", csv,
                          "--method", method, "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True)
    wall = time.monotonic() - t
    if out.returncode not in (0, 1, 2):
        raise RuntimeError("pairs %s: exit %d: %s" % (setup.name, out.returncode,
                                                     out.stderr.strip()[:300]))
    return json.loads(out.stdout), wall


def comp_of(setup, s):
    """the model's component for one suspect of the JSON, or None"""
    f = setup.fab
    kind = s.get("kind")
    ends = [(e["guid"], int(e.get("port") or 0)) for e in s.get("ends") or []]
    if kind == "node":
        return f.node_comp.get(s.get("host") or s.get("name", "").split()[0])
    if kind == "switch" and ends:
        return f.comp_ids.get("switch:" + fabric.short(f.nodes[ends[0][0]]["desc"])) \
            if ends[0][0] in f.nodes else None
    if kind == "half" and len(ends) == 2 and ends[0] in f.remote:
        return f.half(ends[0], ends[1])
    if kind in ("cable", "link", "hca") and ends and ends[0] in f.remote:
        return f.link(ends[0], f.remote[ends[0]])
    return None


def answer_of(setup, doc):
    """(ranked suspects, every candidate, ambiguous, split suggested) of
    the JSON (schema/PAIRS.md): suspects in rank order, each with its
    equivalents and its alternatives; then the components on the path of
    each failing result no suspect explains (`unexplained`: noise, or a
    fault too weak to name), candidates too"""
    ranked, cands, ambiguous, split = [], [], False, False
    for s in doc.get("suspects") or []:
        c = comp_of(setup, s)
        ranked.append(c)
        cands.append(c)
        for a in (s.get("equivalent") or []) + (s.get("alternatives") or []):
            cands.append(comp_of(setup, a))
        if s.get("alternatives") or s.get("rule") == "PAIR_AMBIGUOUS":
            ambiguous = True
        if s.get("split"):
            split = True
    for u in doc.get("unexplained") or []:
        cands += [comp_of(setup, a) for a in u.get("components") or []]
        ambiguous = True
        if u.get("split"):
            split = True
    return ranked, cands, ambiguous, split


def score(setup, case, answer, mp=None):
    """the answer's figures on CASE; with MP, the marginal posteriors
    of the Bayes rule (--bayes), also what it gets right in expectation
    (e_top1, e_correct: bayes.expected())"""
    ranked, cands, ambiguous, split = answer
    sig = setup.sig
    want = {sig[c] for c in case["faults"]}
    k = len(case["faults"])
    top = [sig[c] if c is not None else None for c in ranked[:k]]
    hit = {s for s in top if s in want}
    named = {sig[c] for c in cands if c is not None}
    found = named >= want
    out = {"top1": bool(ranked) and ranked[0] is not None and sig[ranked[0]] in want,
           "correct": len(hit), "reported": len(top), "faults": k,
           "found_all": found, "cands": len(named), "ambiguous": ambiguous,
           "split": split}
    if mp is not None:
        import bayes
        t1, c = bayes.expected(setup, case, ranked, mp)
        out["e_top1"], out["e_correct"] = round(t1, 6), round(c, 6)
    return out


# --- the table ---
TARGETS = """\
targets (issue 21; B and FL need --bayes):
  B   single fault: top-1 >= the Bayes rule's expected top-1 - 0.02
  F   never below the floor (issue 21's: Boolean tomography and greedy
      set cover, floor.py's strict variant) in top-1, precision or recall;
      "<4": the figures (t top-1, p precision, r recall) below the
      strongest of the four variants (the floor column), information only
  FL  flaky faults, all pairs or 20%: recall at k >= 0.90, or within
      0.03 of the Bayes rule's expected recall at k
  R   ring: every fault among the candidates in >= 0.90 of the cases,
      a split test suggested for every ambiguous answer; per row here,
      and over every ring case of a shape on the shape's line (a row
      of 5 cases passes at 5 of 5 only)
  H   (per shape) hard faults, all pairs and 20%: top-1 >= 0.98 and
      recall at k >= 0.97
  S   512 hosts, all pairs: under 5 s (the speed line)
found: every fault among the candidates (the suspects, their
equivalents and alternatives, the components on the paths of the failing
results listed unexplained); cands: the candidates an answer names, in
classes no test tells apart, on average (what found costs); split: of
the ambiguous answers, those suggesting the next pair test ("-": none);
E[top1], E[R@k]: the Bayes rule's expected top-1 and recall at k
(bayes.py: exact for one fault, sampled for two and three); "E best",
"E strict": those methods' figures in expectation, each name counted
as the posterior probability that it is a fault; with --bayes, B and FL
compare these, not the counted ones"""


def bayes_of(results, shape, rows):
    """(Bayes rule's top-1 or None, expected top-1, expected recall at k)
    over the cases of ROWS, or None"""
    b = [x for r in rows for x in results.get((shape, r, "bayes"), [])]
    if not b:
        return None
    ok = [x[0] for x in b if x[0] is not None]
    return (sum(ok) / len(ok) if len(ok) == len(b) else None,
            sum(x[1] for x in b) / len(b), sum(x[2] for x in b) / len(b))


def below(m, floor):
    """the figures of M below FLOOR's: t top-1, p precision (where the
    floor named something), r recall; "" none"""
    return (("t" if m["top1"] < floor["top1"] else "") +
            ("p" if floor["reported"] and m["prec"] < floor["prec"] else "") +
            ("r" if m["rec"] < floor["rec"] else ""))


def expect(m):
    """M's figures in expectation over the posterior where the Bayes rule
    ran (metrics()), else as counted"""
    return m.get("E", m) if m else m


def targets(row, m, floor, bay=None):
    """the targets a row has and the ones it misses: (names, missed);
    FLOOR is the target floor's metrics (strict), or None.  B and FL
    compare figures in expectation where the Bayes rule ran (README,
    "Scores"): the Bayes rule's figures they are held to are
    expectations, and a row of 5 cases counted moves by 0.2 a case; F
    compares counted figures with counted ones, on the same cases"""
    k, cov, noise, mode = row
    have, miss = [], []
    em = expect(m)

    def need(name, ok):
        have.append(name)
        if not ok and name not in miss:
            miss.append(name)
    if k == 1 and bay:
        need("B", em["top1"] >= bay[1] - 0.02)
    if floor is not None:
        # an empty answer has no false positive: the floor's precision
        # counts only where it named something
        need("F", not below(m, floor))
    if mode == "flaky" and cov != "ring" and bay:
        need("FL", em["rec"] >= 0.90 or em["rec"] >= bay[2] - 0.03)
    if cov == "ring":
        need("R", m["found"] >= 0.90 and m["split"] >= 1.0)
    return have, miss


def row_name(row):
    k, cov, noise, mode = row
    return "%d %s %g%% %s" % (k, cov, noise * 100, mode)


def metrics(scores):
    n = len(scores)
    if not n:
        return None
    rep = sum(s["reported"] for s in scores)
    amb = [s for s in scores if s["ambiguous"]]
    k = sum(s["faults"] for s in scores)
    out = {"n": n, "reported": rep, "ambiguous": len(amb),
           "top1": sum(s["top1"] for s in scores) / n,
           "prec": sum(s["correct"] for s in scores) / rep if rep else 1.0,
           "rec": sum(s["correct"] for s in scores) / k,
           "found": sum(s["found_all"] for s in scores) / n,
           "cands": sum(s.get("cands", 0) for s in scores) / n,
           "split": sum(s["split"] for s in amb) / len(amb) if amb else 1.0}
    if all("e_top1" in s for s in scores):
        # in expectation over the posterior (score()): "E" beside a figure
        ec = sum(s["e_correct"] for s in scores)
        out["E"] = {"top1": sum(s["e_top1"] for s in scores) / n,
                    "prec": ec / rep if rep else 1.0, "rec": ec / k,
                    "reported": rep}
    return out


FLOORS = tuple(textbook.VARIANTS)


def mget(results, shape, rows, m):
    """metrics of method M over the cases of ROWS; "floor" is the
    strongest floor variant there in each of top-1, precision and recall
    (precision among the variants that named something)"""
    if m != "floor":
        return metrics([x for r in rows for x in results.get((shape, r, m), [])])
    per = [x for x in (mget(results, shape, rows, v) for v in FLOORS) if x]
    if not per:
        return None
    named = [x for x in per if x["reported"]] or per
    return {"n": per[0]["n"], "reported": max(x["reported"] for x in per),
            "top1": max(x["top1"] for x in per), "rec": max(x["rec"] for x in per),
            "prec": max(x["prec"] for x in named),
            "found": max(x["found"] for x in per), "ambiguous": 0, "split": 1.0,
            "cands": min(x["cands"] for x in per)}


def floor_of(methods):
    """the method F is scored against: issue 21's floor, floor.py's
    strict variant, when the floor ran; else the engine's tomography"""
    return ("strict" if "floor" in methods else
            "tomography" if "tomography" in methods else None)


def columns(methods):
    """the table's methods: the floor as its strict variant (the target)
    and the strongest of its variants (floor, information)"""
    out = []
    for m in methods:
        out += ["strict", "floor"] if m == "floor" else [m]
    return out


def bay_cells(b):
    if not b:
        return " | %5s %7s %6s" % ("-", "-", "-")
    return " | %5s %7.3f %6.3f" % ("%5.3f" % b[0] if b[0] is not None else "-",
                                   b[1], b[2])


def table(results, methods, shape):
    """the table of SHAPE as text, and whether every row meets its
    targets; the Bayes rule beside each row when it was computed
    (--bayes): its top-1 (one fault), expected top-1 and recall at k"""
    lines = []
    bay = any(k[2] == "bayes" and k[0] == shape for k in results)
    strongest = "floor" in methods
    methods = columns(methods)
    head = "%-6s %-5s %-5s %-5s %4s" % ("faults", "cov", "noise", "mode", "n")
    for m in methods:
        head += " | %-10s %5s %5s %5s" % (m, "top1", "prec", "rec")
        if m == methods[0]:
            head += " %5s %5s %5s" % ("found", "cands", "split")
    floor = floor_of(methods)
    exp = [m for m in (methods[0], floor) if m]
    if bay:
        head += " | %5s %7s %6s" % ("bayes", "E[top1]", "E[R@k]")
        for m in exp:
            head += " | %-10s %5s %5s %5s" % ("E " + m, "top1", "prec", "rec")
    if strongest:
        head += " | %3s" % "<4"
    head += " | targets"
    lines.append(head)
    lines.append("-" * len(head))
    all_ok = True
    for row in ROWS:
        per = {m: mget(results, shape, [row], m) for m in methods}
        if not per[methods[0]]:
            continue
        k, cov, noise, mode = row
        line = "%-6d %-5s %-5s %-5s %4d" % (k, cov, "%g%%" % (noise * 100), mode,
                                           per[methods[0]]["n"])
        for m in methods:
            x = per[m]
            line += " | %-10s %5.3f %5.3f %5.3f" % ("", x["top1"], x["prec"], x["rec"])
            if m == methods[0]:
                line += " %5.3f %5.1f %5s" % (x["found"], x["cands"], "%5.3f" % x["split"]
                                              if x["ambiguous"] else "-")
        b = bayes_of(results, shape, [row])
        if bay:
            line += bay_cells(b)
            for m in exp:
                x = per[m].get("E") if per.get(m) else None
                line += (" | %-10s %5.3f %5.3f %5.3f" % ("", x["top1"], x["prec"], x["rec"])
                         if x else " | %-10s %5s %5s %5s" % ("", "-", "-", "-"))
        if strongest:
            line += " | %3s" % (below(per[methods[0]], per["floor"]) or "-")
        have, miss = targets(row, per[methods[0]],
                             per[floor] if floor and methods[0] != floor else None, b)
        if miss:
            all_ok = False
        line += " | %s%s" % (",".join(have) or "-",
                             (": MISSES " + ",".join(miss)) if miss else (" ok" if have else ""))
        lines.append(line)
    return "\n".join(lines), all_ok


def summary(results, methods, shapes):
    """per shape, faults, kind and coverage (every noise together): the
    engine beside the floor and the Bayes rule's expected top-1 and
    recall at k; the rows of the full table missing each target; the
    hard-fault target (H) of the shape"""
    floor = floor_of(methods)
    shown = [methods[0]] + ([floor] if floor and floor != methods[0] else [])
    if "floor" in methods:
        shown.append("floor")
    head = "%-6s %-6s %-5s %-5s %5s" % ("shape", "faults", "mode", "cov", "n")
    for m in shown:
        head += " | %-10s %5s %5s %5s" % (m, "top1", "prec", "rec")
    head += " | %7s %6s | %-10s %5s %5s" % ("E[top1]", "E[R@k]", "E " + methods[0],
                                            "top1", "rec")
    lines = [head, "-" * len(head)]
    for sh in shapes:
        for k in (1, 2, 3):
            for mode in MODES:
                for cov in COVERAGES:
                    rows = [r for r in ROWS if r[0] == k and r[3] == mode and r[1] == cov]
                    per = {m: mget(results, sh.name, rows, m) for m in shown}
                    if not per[methods[0]]:
                        continue
                    line = "%-6s %-6d %-5s %-5s %5d" % (sh.name, k, mode, cov,
                                                        per[methods[0]]["n"])
                    for m in shown:
                        x = per[m]
                        line += " | %-10s %5.3f %5.3f %5.3f" % ("", x["top1"], x["prec"],
                                                               x["rec"])
                    b = bayes_of(results, sh.name, rows)
                    line += (" | %7.3f %6.3f" % (b[1], b[2]) if b else
                             " | %7s %6s" % ("-", "-"))
                    x = per[methods[0]].get("E")
                    line += (" | %-10s %5.3f %5.3f" % ("", x["top1"], x["rec"]) if x else
                             " | %-10s %5s %5s" % ("", "-", "-"))
                    lines.append(line)
        # the targets over the shape's rows
        miss, nrows, below4 = {}, 0, 0
        for row in ROWS:
            e = mget(results, sh.name, [row], methods[0])
            if not e:
                continue
            nrows += 1
            f = mget(results, sh.name, [row], floor) if floor and floor != methods[0] else None
            for t in targets(row, e, f, bayes_of(results, sh.name, [row]))[1]:
                miss[t] = miss.get(t, 0) + 1
            if "floor" in methods and below(e, mget(results, sh.name, [row], "floor")):
                below4 += 1
        hard = mget(results, sh.name, [r for r in ROWS if r[3] == "hard" and
                                       r[1] != "ring"], methods[0])
        h = ""
        if hard:
            h = "; H (hard, all and 20%%: top-1 %.3f, recall %.3f) %s" % (
                hard["top1"], hard["rec"],
                "ok" if hard["top1"] >= 0.98 and hard["rec"] >= 0.97 else "MISSES")
        ring = mget(results, sh.name, [r for r in ROWS if r[1] == "ring"], methods[0])
        if ring:
            h += "; R over its %d ring cases (found %.3f, split %.3f) %s" % (
                ring["n"], ring["found"], ring["split"],
                "ok" if ring["found"] >= 0.90 and ring["split"] >= 1.0 else "MISSES")
        s4 = ("; below the strongest floor variant (<4, information): %d" % below4
              if "floor" in methods else "")
        lines.append("%s: rows missing a target (of %d): %s%s%s" % (
            sh.name, nrows, ", ".join("%s %d" % x for x in sorted(miss.items())) or "none",
            h, s4))
    return "\n".join(lines)


def floors(results, shapes):
    """per shape, faults and kind: each floor variant's top-1, precision
    and recall, and the rows of the shape where it is the strongest in
    top-1 (ties count for each)"""
    head = "%-6s %-6s %-5s %5s" % ("shape", "faults", "mode", "n")
    for v in FLOORS:
        head += " | %-6s %5s %5s %5s" % (v, "top1", "prec", "rec")
    lines = [head, "-" * len(head)]
    for sh in shapes:
        if not any(results.get((sh.name, r, FLOORS[0])) for r in ROWS):
            continue
        for k in (1, 2, 3):
            for mode in MODES:
                rows = [r for r in ROWS if r[0] == k and r[3] == mode]
                per = {v: mget(results, sh.name, rows, v) for v in FLOORS}
                if not per[FLOORS[0]]:
                    continue
                line = "%-6s %-6d %-5s %5d" % (sh.name, k, mode, per[FLOORS[0]]["n"])
                for v in FLOORS:
                    x = per[v]
                    line += " | %-6s %5.3f %5.3f %5.3f" % ("", x["top1"], x["prec"], x["rec"])
                lines.append(line)
        best = {v: 0 for v in FLOORS}
        n = 0
        for r in ROWS:
            per = {v: mget(results, sh.name, [r], v) for v in FLOORS}
            if not per[FLOORS[0]]:
                continue
            n += 1
            top = max(x["top1"] for x in per.values())
            for v in FLOORS:
                best[v] += per[v]["top1"] == top
        lines.append("%-6s rows where each is the strongest in top-1 (of %d): %s" % (
            sh.name, n, ", ".join("%s %d" % (v, best[v]) for v in FLOORS)))
    return "\n".join(lines)


class Shape:
    """a shape's fabrics (one Setup per fabric and engine), their draw
    weights, its number of cases and the engines opensm refused on it"""

    def __init__(self, args, name, tmp):
        self.name, self.refused, self.setups = name, [], []
        if name == "ft":
            specs = [(f, e) for f in args.fabrics.split(",")
                     for e in args.engines.split(",")]
            self.cases = args.cases
        else:
            specs = [(name, e) for e in (args.shape_engines or ENGINES)]
            self.cases = args.shape_cases
        for spec, engine in specs:
            try:
                self.setups.append(Setup(args, spec, engine, tmp))
            except Refused as e:
                if name == "ft":
                    raise
                self.refused.append(engine)
                if args.verbose:
                    print(e, file=sys.stderr)
        if not self.setups:
            raise RuntimeError("%s: no routing engine routes it" % name)
        self.weights = [SIZE_WEIGHT.get(s.hosts, 1) if name == "ft" else 1
                        for s in self.setups]

    def draw(self, args, i):
        """(row, fabric, generator) of case I"""
        if self.name == "ft":
            rng = random.Random("%d:%d" % (args.seed, i))
        else:
            rng = random.Random("%d:%s:%d" % (args.seed, self.name, i))
        return ROWS[i % len(ROWS)], rng.choices(self.setups, self.weights)[0], rng


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", required=True)
    p.add_argument("--cache", default=os.path.expanduser(
        os.environ.get("RDMA_PAIRS_CACHE", "~/.cache/rdma-pairs-eval")))
    p.add_argument("--cases", type=int, default=1080,
                   help="cases of the ft shape")
    p.add_argument("--shape-cases", type=int, default=162,
                   help="cases of every other shape")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--shapes", default="ft," + ",".join(topo.SHAPES))
    p.add_argument("--fabrics", default="32x1,32x2,128x1,128x2,512x1,512x2",
                   help="the fabrics of the ft shape")
    p.add_argument("--engines", default="minhop,updn,ftree",
                   help="the routing engines of the ft shape")
    p.add_argument("--shape-engines", help="the engines tried on the other "
                   "shapes (default: %s)" % ",".join(ENGINES))
    p.add_argument("--methods", default="best,floor",
                   help="best, tomography (the engine's methods), floor "
                   "(floor.py)")
    p.add_argument("--bayes", action="store_true",
                   help="the Bayes rule beside every row (its own top-1 on "
                   "single-fault rows, its expected top-1 and recall at k)")
    p.add_argument("--speed", action="store_true",
                   help="time pairs on 512 hosts, all pairs")
    p.add_argument("--json", help="write every case's score here")
    p.add_argument("--rows", metavar="REGEX",
                   help="run only the cases of the rows matching REGEX, as "
                   "'faults cov noise mode' (\"^1 20%% .* flaky\"): the same "
                   "cases the full run has in those rows")
    p.add_argument("--check-routes", type=int, default=0, metavar="N",
                   help="compare N random routes of each fabric with "
                   "rdma-analyze path, then stop")
    p.add_argument("-v", "--verbose", action="store_true")
    a = p.parse_args()
    a.build = os.path.abspath(a.build)
    a.ra = os.path.join(a.build, "rdma-analyze")
    a.methods = a.methods.split(",")
    a.shapes = a.shapes.split(",")
    if a.shape_engines:
        a.shape_engines = a.shape_engines.split(",")
    for sh in a.shapes:
        if sh != "ft" and sh not in topo.SHAPES:
            p.error("--shapes: no shape %s (ft, %s)" % (sh, ", ".join(topo.SHAPES)))
    return a


def main():
    args = parse_args()
    tmp = tempfile.mkdtemp(prefix="pairs-eval.", dir=os.environ.get("TMPDIR"))
    try:
        return run(args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def one_case(args, shape, i, csv, results, walls):
    """case I of SHAPE: its log entry, its scores into RESULTS"""
    row, setup, rng = shape.draw(args, i)
    case = make_case(setup, row, rng)
    write_csv(setup, case, csv)
    f = setup.fab
    want = {setup.sig[c] for c in case["faults"]}
    entry = {"case": i, "shape": shape.name, "fabric": setup.name,
             "row": list(row), "faults": [f.comp_names[c] for c in case["faults"]],
             "rates": [round(case["rate"][c], 3) for c in case["faults"]]}
    mp = None
    if args.bayes:
        import bayes
        # the sampler's own generator, apart from the case's
        mp = bayes.marginals(setup, case, row, seed="%d:%s:%d" % (
            args.seed, shape.name, i))
    for m in args.methods:
        if m == "floor":
            for v in FLOORS:
                t = time.monotonic()
                named = textbook.VARIANTS[v](f, case)
                walls[v].append(time.monotonic() - t)
                sc = score(setup, case, (named, list(named), False, False), mp)
                results.setdefault((shape.name, row, v), []).append(sc)
                entry[v] = dict(sc, answer=[f.comp_names[c] for c in named[:5]],
                                right=[setup.sig[c] in want for c in named[:5]])
            continue
        else:
            doc, wall = run_pairs(args, setup, csv, m)
            ans = answer_of(setup, doc)
            if m == args.methods[0]:
                # CSV names the engine could not place (GID, IP forms)
                entry["unresolved"] = doc.get("inputs", {}).get("unresolved")
        walls[m].append(wall)
        sc = score(setup, case, ans, mp)
        results.setdefault((shape.name, row, m), []).append(sc)
        entry[m] = dict(sc, answer=[f.comp_names[c] if c is not None
                                    else None for c in ans[0][:5]],
                        right=[c is not None and setup.sig[c] in want
                               for c in ans[0][:5]])
    if args.bayes:
        t1, rk = bayes.bound(setup, case, row, mp=mp)
        ok = None
        if row[0] == 1:
            ok = max(mp, key=mp.get) == setup.sig[case["faults"][0]]
        x = (ok, t1, rk)
        results.setdefault((shape.name, row, "bayes"), []).append(x)
        entry["bayes"] = {"top1": x[0], "etop1": round(x[1], 4),
                          "erk": round(x[2], 4)}
    return entry


def run(args, tmp):
    t0 = time.monotonic()
    shapes = [Shape(args, sh, tmp) for sh in args.shapes]
    if args.check_routes:
        return check_routes(args, [s for sh in shapes for s in sh.setups])
    prep = time.monotonic() - t0
    results, log = {}, []
    walls = {m: [] for m in list(args.methods) + list(FLOORS)}
    csv = os.path.join(tmp, "pairs.csv")
    ncases = 0
    for sh in shapes:
        for i in range(sh.cases):
            if args.rows and not re.search(args.rows, row_name(ROWS[i % len(ROWS)])):
                continue
            entry = one_case(args, sh, i, csv, results, walls)
            ncases += 1
            log.append(entry)
            if args.verbose:
                print(json.dumps(entry), file=sys.stderr)
    print("rdma-analyze pairs: %d cases, seed %d, %d shapes" % (
        ncases, args.seed, len(shapes)))
    for sh in shapes:
        text, ok = table(results, args.methods, sh.name)
        fabs = (args.fabrics if sh.name == "ft" else sh.name)
        print("\n## %s: %s (%s); %d cases; engines %s%s" % (
            sh.name, SHAPE_TEXT.get(sh.name, ""), fabs, sh.cases,
            ",".join(sorted({s.engine for s in sh.setups}, key=lambda e:
                            (ENGINES + (e,)).index(e))),
            "; refused by opensm: " + ",".join(sh.refused) if sh.refused else ""))
        print(text)
    print("\n## by shape, faults, kind and coverage (every noise): engine, floor, Bayes rule")
    print(summary(results, args.methods, shapes))
    if "floor" in args.methods:
        print("\n## the floor's variants (floor.py), every coverage and noise")
        print(floors(results, shapes))
    print(TARGETS)
    for m in walls:
        w = sorted(walls[m])
        if w:
            print("%s: median %.3f s, max %.3f s a case" % (m, w[len(w) // 2], w[-1]))
    print("fabrics ready in %.1f s, cases in %.1f s" % (prep, time.monotonic() - t0 - prep))
    if args.speed:
        speed(args, tmp)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(log, out, indent=0)
    return 0


def path_hops(text, head):
    """the hops of one direction of `rdma-analyze path`: "a/p>b/q" each"""
    hops, on, prev = [], False, None
    for line in text.splitlines():
        if line == head:
            on = True
            continue
        if not on:
            continue
        if not line:
            break
        desc = fabric.short(line.rsplit('"', 2)[1]) if line.endswith('"') else None
        if line.startswith("From "):
            prev = desc
        elif line.startswith("["):
            out = int(line[1:line.index("]")])
            inp = int(line[line.index("}[") + 2:line.index("]", line.index("}["))])
            hops.append("%s/%d>%s/%d" % (prev, out, desc, inp))
            prev = desc
    return hops


def check_routes(args, setups):
    """the model's routes against rdma-analyze path (which path-ibsim.sh
    holds to ibtracert): one line per fabric, exit 1 on a difference"""
    bad = 0
    for setup in setups:
        f = setup.fab
        rng = random.Random("%d:routes:%s" % (args.seed, setup.name))
        diff = 0
        for _ in range(args.check_routes):
            r = rng.choice(f.rails)
            a, b = rng.sample(f.hosts, 2)
            src, dst = "%s mlx5_%d" % (a, r), "%s mlx5_%d" % (b, r)
            out = subprocess.run([args.ra, "path", "--db", setup.db, src, dst],
                                 stdout=subprocess.PIPE, universal_newlines=True)
            for x, y, head in ((a, b, "# %s -> %s" % (src, dst)),
                               (b, a, "# %s -> %s" % (dst, src))):
                mine = [f.comp_names[c][5:] for c in f.route((x, r), (y, r))
                        if f.comp_kind[c] == "half"]
                if path_hops(out.stdout, head) != mine:
                    diff += 1
                    print("  %s: %s differs: path %s, model %s" % (
                        setup.name, head, path_hops(out.stdout, head), mine))
        print("%s: %d of %d routes as rdma-analyze path prints them"
              % (setup.name, 2 * args.check_routes - diff, 2 * args.check_routes))
        bad += diff
    return 1 if bad else 0


def speed(args, tmp):
    """rdma-analyze pairs on 512 hosts, one rail, every ordered pair"""
    setup = Setup(args, "512x1", "minhop", tmp)
    rng = random.Random("%d:speed" % args.seed)
    case = make_case(setup, (1, "all", 0.01, "hard"), rng)
    csv = os.path.join(tmp, "speed.csv")
    write_csv(setup, case, csv)
    for m in (m for m in args.methods if m != "floor"):
        runs = [run_pairs(args, setup, csv, m) for _ in range(3)]
        walls = sorted(w for _, w in runs)
        doc = runs[0][0]
        print("speed: pairs --method %s on 512 hosts, %d results (%d used): "
              "%.2f s wall, median of 3 (target 5 s); engine: load %d ms, "
              "localize %d ms" % (m, len(case["tests"]), doc["results"]["total"],
                                  walls[1], doc["timing_ms"]["load"],
                                  doc["timing_ms"]["localize"]))


if __name__ == "__main__":
    sys.exit(main())
