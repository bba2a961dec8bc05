#!/usr/bin/env python3
"""bayes.py: how well any method could do: the Bayes rule of the harness.

  bayes.py --build DIR [--cache DIR] [--seed S] LOG.json
  bayes.py --build DIR --check SHAPE [--check-cases N] [--shape-engines E]

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

Two and three faults (Multi, bound(); eval.py --bayes): the posterior
over sets of K classes given the true K, sampled by Gibbs; the Bayes
rule names the K classes of highest marginal posterior, and expects a
top-1 of the largest marginal and a recall at K of the K largest summed
over K.  --check compares the sampler with exact sums: on one fault with
posterior(), on two with every pair of classes (exact2()).
"""
import argparse
import json
import math
import os
import random
import shutil
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import eval as ev  # noqa: E402

# the flaky rate's prior, as a grid (eval.py draws it uniform on 0.2 .. 0.8)
RATES = [0.2 + 0.6 * (i + 0.5) / 60 for i in range(60)]
# the multi-fault sampler's sweeps (each draws every member once) and
# the sweeps dropped first (README, "The Bayes bound": how they were chosen)
SWEEPS, BURN = 200, 20


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
    """(the class of the Bayes answer, its posterior, the truth's
    posterior, every class's posterior)"""
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
    return best, 1 / z, math.exp(post.get(truth, -math.inf) - m) / z, \
        {x: math.exp(v - m) / z for x, v in post.items()}


def exact1(setup, case, row):
    """every class's posterior of a single-fault case"""
    return posterior(setup, case, row)[3]


# the sampler's grid for a flaky rate (coarser than RATES: it is summed for
# every candidate at every step); its effect is measured against RATES on
# one fault (README, "The Bayes bound")
GRID = [0.2 + 0.6 * (i + 0.5) / 20 for i in range(20)]


def _logs(pi, e, grid):
    """per rate of GRID: log P(fail) and log P(pass) of a test whose true
    failure probability is 1 - (1 - PI)(1 - q), less the same at q = 0"""
    p0 = e + (1 - 2 * e) * pi
    a0, b0 = math.log(max(p0, 1e-300)), math.log(max(1 - p0, 1e-300))
    out = []
    for q in grid:
        p = e + (1 - 2 * e) * (1 - (1 - pi) * (1 - q))
        out.append((math.log(max(p, 1e-300)) - a0,
                    math.log(max(1 - p, 1e-300)) - b0))
    return out


class Multi:
    """the posterior over sets of K faults of one case, under the
    harness's model: each fault a class of candidates (prior: its members'
    eval.py draw probabilities, their product for a set), its rate 1
    (hard) or on GRID (flaky, uniform), each test failing when a fault
    it crosses acts, then flipped with the true noise rate.  Sampled by
    Gibbs: each step draws one member of the set and its rate jointly
    from their exact conditional given the others; the marginals are the
    conditionals averaged (Rao-Blackwell), not the draws counted.
    Candidates: the classes crossed by a test (eval.py draws no other);
    as bayes.py's single-fault rule, the likelihood leaves out eval.py's
    failing one test of a flaky fault that failed none."""

    def __init__(self, setup, case, row):
        import floor
        self.k, _, noise, mode = row
        self.e = max(noise, 1e-4)
        self.grid = [1.0] if mode == "hard" else GRID
        f = setup.fab
        pri, mask = {}, {}
        if len(case["tests"]) * 16 < f.npairs:
            # few tests (a ring): bits over the case's own tests, each
            # test's components from the model, are shorter than the
            # fabric's masks over every pair
            m = {}
            for i, (a, b, r) in enumerate(case["tests"]):
                rail = f.rails[r]
                for c in f.test_comps((f.hosts[a], rail), (f.hosts[b], rail)):
                    m[c] = m.get(c, 0) | 1 << i
            self.F = sum(1 << i for i, bad in enumerate(case["outcome"]) if bad)
            self.P = ((1 << len(case["tests"])) - 1) & ~self.F
            for c, pc in setup.prior.items():
                if c in m:
                    sig = setup.sig[c]
                    pri[sig] = pri.get(sig, 0.0) + pc
                    mask[sig] = m[c]
        else:
            s = floor.seen(f, case)
            self.F, self.P = s.failed, s.passed
            for c, pc in setup.prior.items():
                if s.m[c] & s.tested:
                    sig = setup.sig[c]
                    pri[sig] = pri.get(sig, 0.0) + pc
                    mask[sig] = s.m[c]
        self.sigs = sorted(pri)
        self.mask = [mask[x] for x in self.sigs]
        self.lprior = [math.log(pri[x]) for x in self.sigs]
        self.fs = [((m & self.F).bit_count(), (m & self.P).bit_count())
                   for m in self.mask]
        base = _logs(0.0, self.e, self.grid)
        self.l1 = [[f * a + p * b for a, b in base] for f, p in self.fs]
        self.w1 = [lp + _lmean(l) for lp, l in zip(self.lprior, self.l1)]
        self.over = {}

    def overlap(self, others):
        """for OTHERS (class indexes): the candidates crossing a test of
        theirs, each with (fails, passes) per region (which of the others
        cross the test), regions numbered by bit sets of OTHERS"""
        key = tuple(sorted(others))
        o = self.over.get(key)
        if o is not None:
            return o
        ms = [self.mask[j] for j in key]
        union = 0
        for m in ms:
            union |= m
        regions = []
        for r in range(1, 1 << len(ms)):
            x = union
            for b, m in enumerate(ms):
                x &= m if r >> b & 1 else ~m
            regions.append((r, x))
        o = {}
        for c, mc in enumerate(self.mask):
            if mc & union and c not in key:
                cnt = []
                for r, x in regions:
                    y = mc & x
                    if y:
                        cnt.append((r, (y & self.F).bit_count(),
                                    (y & self.P).bit_count()))
                o[c] = cnt
        self.over[key] = o
        return o

    def conditional(self, others, rates):
        """log weights of every candidate (and of each of its rates) as
        the member beside OTHERS (rates RATES): {c: (log w, [log w per q])}"""
        key = tuple(sorted(others))
        o = self.overlap(key)
        e, g = self.e, self.grid
        logs = {}
        base = _logs(0.0, e, g)
        for r in range(1, 1 << len(key)):
            keep = 1.0
            for b, j in enumerate(key):
                if r >> b & 1:
                    keep *= 1 - rates[j]
            la = _logs(1 - keep, e, g)
            logs[r] = [(a - a0, b - b0) for (a, b), (a0, b0) in zip(la, base)]
        out = {}
        for c, cnt in o.items():
            lq = list(self.l1[c])
            for r, f, p in cnt:
                d = logs[r]
                for i in range(len(lq)):
                    lq[i] += f * d[i][0] + p * d[i][1]
            out[c] = (self.lprior[c] + _lmean(lq), lq)
        return out

    def step(self, others, rates):
        """the conditional of a member beside OTHERS at RATES: cumulative
        weights over the candidates, each one's probability, and its rates'
        cumulative weights (made when first drawn)"""
        key = tuple(sorted(others))
        ck = (key, tuple(rates[j] for j in key))
        ent = self.cache.get(ck)
        if ent is None:
            cond = self.conditional(key, rates)
            w = list(self.w1)
            for c, (lw, _) in cond.items():
                w[c] = lw
            for j in key:
                w[j] = -math.inf
            m = max(w)
            p = [math.exp(x - m) for x in w]
            z = sum(p)
            cum, acc = [], 0.0
            for x in p:
                acc += x
                cum.append(acc)
            ent = self.cache[ck] = (cum, [x / z for x in p],
                                    {c: l for c, (_, l) in cond.items()}, {})
        return ck, ent

    def rate(self, ent, c, rng):
        if len(self.grid) == 1:
            return self.grid[0]
        cw = ent[3].get(c)
        if cw is None:
            l = ent[2].get(c, self.l1[c])
            m = max(l)
            cw, acc = [], 0.0
            for x in l:
                acc += math.exp(x - m)
                cw.append(acc)
            ent[3][c] = cw
        return rng.choices(self.grid, cum_weights=cw)[0]

    def run(self, sweeps, burn, rng):
        """marginal posterior of each class (by signature) from SWEEPS
        Gibbs sweeps after BURN; and how often each was drawn"""
        k, n = self.k, len(self.sigs)
        if n <= k:
            return {x: 1.0 for x in self.sigs}, {}
        self.cache = {}
        state, rates = [], {}
        used = {}
        drawn = [0] * n
        idx = range(n)
        for t in range(burn + sweeps):
            for i in range(k):
                others = state if t == 0 else state[:i] + state[i + 1:]
                ck, ent = self.step(others, rates)
                c = rng.choices(idx, cum_weights=ent[0])[0]
                if t == 0:
                    state.append(c)
                else:
                    state[i] = c
                rates[c] = self.rate(ent, c, rng)
                if t >= burn:
                    used[ck] = used.get(ck, 0) + 1
                    drawn[c] += 1
        acc = [0.0] * n
        for ck, u in used.items():
            for j, x in enumerate(self.cache[ck][1]):
                if x:
                    acc[j] += u * x
        # one sweep's conditionals can sum past 1 for a class (it moves
        # between positions); their mean cannot, but for sampling error
        return ({self.sigs[j]: min(1.0, acc[j] / sweeps) for j in range(n) if acc[j]},
                {self.sigs[j]: drawn[j] / sweeps for j in range(n) if drawn[j]})


def exact2(m):
    """the marginals of a two-fault Multi M by summing every pair of
    classes over the grid of both rates: what the sampler estimates"""
    e, g, lw = m.e, m.grid, {}
    n = len(m.sigs)
    for a in range(n):
        for b in range(a + 1, n):
            ma, mb = m.mask[a], m.mask[b]
            pats = [((x & m.F).bit_count(), (x & m.P).bit_count())
                    for x in (ma & ~mb, mb & ~ma, ma & mb)]
            vals = []
            for qa in g:
                for qb in g:
                    t = 0.0
                    for (f, p), pi in zip(pats, (qa, qb, 1 - (1 - qa) * (1 - qb))):
                        if f + p:
                            pr = e + (1 - 2 * e) * pi
                            t += (f * (math.log(max(pr, 1e-300)) - math.log(e)) +
                                  p * (math.log(max(1 - pr, 1e-300)) - math.log(1 - e)))
                    vals.append(t)
            lw[(a, b)] = m.lprior[a] + m.lprior[b] + _lmean(vals)
    mx = max(lw.values())
    z = sum(math.exp(v - mx) for v in lw.values())
    out = {}
    for (a, b), v in lw.items():
        p = math.exp(v - mx) / z
        out[m.sigs[a]] = out.get(m.sigs[a], 0.0) + p
        out[m.sigs[b]] = out.get(m.sigs[b], 0.0) + p
    return out


def check(args, tmp):
    """the sampler against exact sums: one fault (posterior(), finer rate
    grid) and two faults (exact2) on the cases of --check SHAPE; prints
    the largest difference of a marginal and the time of each"""
    sh = ev.Shape(args, args.check, tmp)
    worst = {1: 0.0, 2: 0.0}
    took = {1: [0.0, 0.0], 2: [0.0, 0.0]}
    n = {1: 0, 2: 0}
    for i in range(args.check_cases):
        row, setup, rng = sh.draw(args, i)
        if row[0] > 2:
            continue
        if not hasattr(setup, "prior"):
            setup.prior = prior(setup)
        case = ev.make_case(setup, row, rng)
        m = Multi(setup, case, row)
        t = time.monotonic()
        mp, _ = m.run(SWEEPS, BURN, random.Random(i))
        took[row[0]][0] += time.monotonic() - t
        t = time.monotonic()
        if row[0] == 1:
            want = exact1(setup, case, row)
        else:
            want = exact2(m)
        took[row[0]][1] += time.monotonic() - t
        d = max(abs(mp.get(x, 0.0) - want.get(x, 0.0)) for x in set(mp) | set(want))
        worst[row[0]] = max(worst[row[0]], d)
        n[row[0]] += 1
    for k in (1, 2):
        print("%d fault%s: %d cases, largest marginal difference %.4f; sampler %.2f s, "
              "exact %.2f s" % (k, "s" if k > 1 else "", n[k], worst[k], *took[k]))
    return 0


def _lmean(l):
    m = max(l)
    return m + math.log(sum(math.exp(x - m) for x in l) / len(l))


def marginals(setup, case, row, sweeps=SWEEPS, burn=BURN, seed=0):
    """every class's marginal posterior (the probability that it is one
    of the faults) on CASE: exact for one fault, sampled for more"""
    if not hasattr(setup, "prior"):
        setup.prior = prior(setup)
    if row[0] == 1:
        return posterior(setup, case, row)[3]
    return Multi(setup, case, row).run(sweeps, burn, random.Random(seed))[0]


def bound(setup, case, row, sweeps=SWEEPS, burn=BURN, seed=0, mp=None):
    """(expected top-1, expected recall at k) of the Bayes rule on CASE:
    the largest marginal, the k largest summed over k (of MP, the
    marginals, when given)"""
    if mp is None:
        mp = marginals(setup, case, row, sweeps, burn, seed)
    top = sorted(mp.values(), reverse=True)
    k = row[0]
    return (top[0] if top else 0.0), sum(top[:k]) / k


def expected(setup, case, ranked, mp):
    """(expected top-1, expected count of faults named in the first k) of
    a method's answer RANKED (model components, None for a name it
    could not place) under the marginals MP: what the answer gets right
    on average over every fault set the results allow, the figure the
    Bayes rule's E[top1] and E[R@k] are of its own answer"""
    sig = setup.sig
    k = len(case["faults"])
    top1 = mp.get(sig[ranked[0]], 0.0) if ranked and ranked[0] is not None else 0.0
    named = {sig[c] for c in ranked[:k] if c is not None}
    return top1, sum(mp.get(s, 0.0) for s in named)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", required=True)
    p.add_argument("--cache", default=os.path.expanduser(
        os.environ.get("RDMA_PAIRS_CACHE", "~/.cache/rdma-pairs-eval")))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--fabrics", default="32x1,32x2,128x1,128x2,512x1,512x2")
    p.add_argument("--engines", default="minhop,updn,ftree")
    p.add_argument("--shape-engines")
    p.add_argument("--check", metavar="SHAPE",
                   help="the sampler against exact sums on SHAPE's one- and "
                   "two-fault cases, then stop")
    p.add_argument("--check-cases", type=int, default=54, metavar="N",
                   help="the first N cases of SHAPE for --check")
    p.add_argument("log", nargs="?")
    args = p.parse_args()
    if not args.check and not args.log:
        p.error("a LOG.json, or --check SHAPE")
    args.build = os.path.abspath(args.build)
    args.ra = os.path.join(args.build, "rdma-analyze")
    args.cases = args.shape_cases = 0
    args.verbose = False
    if args.shape_engines:
        args.shape_engines = args.shape_engines.split(",")
    tmp = tempfile.mkdtemp(prefix="pairs-bayes.")
    try:
        return check(args, tmp) if args.check else run(args, tmp)
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
        best, pmax, _, _ = posterior(setup, case, row)
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
