"""floor.py: the floor of the pairs evaluation, the textbook methods written
plainly and apart from the engine, on the harness's model (fabric.py
test_comps: a test crosses both hosts and the route both ways).  Each
names components in order; none has a constant fitted to the cases.

  strict  Boolean network tomography with greedy set cover: every
          component on the path of a passing test is cleared (a working
          test proves its whole path works); of the rest, the one on the
          most failing tests not yet explained is named, and so on until
          every failing test is explained or none of the rest explains
          one.  No constant.
  cover   greedy set cover of the failing tests, passing tests ignored
          (no component is cleared): the component on the most failing
          tests not yet explained, ties to the one with the fewest passing
          tests through it.  No constant.
  score   SCORE's hit-ratio greedy (Kompella et al., "IP fault
          localization via risk modeling", NSDI 2005): a component is a
          candidate when at least half of the tests through it failed
          (its hit ratio >= 1/2: a majority, the one constant, not fitted);
          greedy by failing tests explained, ties to the higher hit ratio.
  vote    007's vote (Arzani et al., "007: democratically finding the
          cause of packet drops", NSDI 2018): each failing test gives 1/h
          of a vote to each of the h components it crosses; the component
          with the most votes is named, the votes of its failing tests
          withdrawn, and so on until every failing test is explained.
          No constant.

Remaining ties: the component first in the fabric model.  Tests and
components are bit sets over test keys (2 * pair + direction): the
per-fabric masks are made once (masks()).
"""


import heapq


def masks(fab):
    """for every component of FAB, the test keys crossing it, as an int"""
    m = getattr(fab, "_tmask", None)
    if m is not None:
        return m
    size = (2 * fab.npairs + 7) // 8 + 1
    m = []
    for arr in fab.crossing:
        if not len(arr):
            m.append(0)
            continue
        ba = bytearray(size)
        for p in arr:
            ba[p >> 2] |= 3 << ((p & 3) * 2)
        m.append(int.from_bytes(ba, "little"))
    fab._tmask = m
    return m


def key(fab, a, b, r):
    return 2 * fab.pair_id(a, b, r) + (a > b)


def bits(keys, nkeys):
    ba = bytearray(nkeys // 8 + 2)
    for k in keys:
        ba[k >> 3] |= 1 << (k & 7)
    return int.from_bytes(ba, "little")


def seen(fab, case):
    """the Seen of CASE, made once for every variant"""
    s = case.get("_seen")
    if s is None:
        s = case["_seen"] = Seen(fab, case)
    return s


class Seen:
    """one case's tests as bit sets: tested, failed, passed; each
    component's failing and passing counts"""

    def __init__(self, fab, case):
        self.fab = fab
        self.m = masks(fab)
        self.fkeys = []
        tk = []
        for (a, b, r), bad in zip(case["tests"], case["outcome"]):
            k = key(fab, a, b, r)
            tk.append(k)
            if bad:
                self.fkeys.append(((a, b, r), k))
        n = 2 * fab.npairs
        self.tested = bits(tk, n)
        self.failed = bits([k for _, k in self.fkeys], n)
        self.passed = self.tested & ~self.failed
        # components on at least one failing test: (fails, passes)
        self.on = {}
        for c, mc in enumerate(self.m):
            f = mc & self.failed
            if f:
                self.on[c] = (f, (mc & self.passed).bit_count())


def greedy(live, left, tie):
    """name components of LIVE (c -> failing tests) by failing tests of
    LEFT explained, ties by TIE(c) (higher first), then model order.
    Lazily: a component's count only falls as tests are explained, so a
    count taken earlier bounds it, and the first of the heap whose count
    is still current is the one the plain loop would pick"""
    heap = [(-(f & left).bit_count(), -tie(c), c) for c, f in live.items()]
    heapq.heapify(heap)
    named = []
    while left and heap:
        _, t, c = heapq.heappop(heap)
        n = (live[c] & left).bit_count()
        if not n:
            continue
        if heap and (-n, t, c) > heap[0]:
            heapq.heappush(heap, (-n, t, c))
            continue
        named.append(c)
        left &= ~live[c]
    return named


def strict(fab, case):
    s = seen(fab, case)
    live = {c: f for c, (f, p) in s.on.items() if not p}
    left = 0
    for f in live.values():
        left |= f
    return greedy(live, left, lambda c: 0)


def cover(fab, case):
    s = seen(fab, case)
    live = {c: f for c, (f, p) in s.on.items()}
    return greedy(live, s.failed, lambda c: -s.on[c][1])


def score(fab, case):
    s = seen(fab, case)
    hit = {c: f.bit_count() / (f.bit_count() + p) for c, (f, p) in s.on.items()}
    live = {c: f for c, (f, p) in s.on.items() if hit[c] >= 0.5}
    return greedy(live, s.failed, lambda c: hit[c])


def vote(fab, case):
    s = seen(fab, case)
    votes, crosses = {}, {}
    for (a, b, r), k in s.fkeys:
        rail = fab.rails[r]
        cs = fab.test_comps((fab.hosts[a], rail), (fab.hosts[b], rail))
        crosses[k] = cs
        for c in cs:
            votes[c] = votes.get(c, 0.0) + 1.0 / len(cs)
    left = set(crosses)
    named = []
    while left and votes:
        c = max(votes, key=lambda x: (votes[x], -x))
        named.append(c)
        for k in [k for k in left if c in crosses[k]]:
            left.discard(k)
            for x in crosses[k]:
                votes[x] -= 1.0 / len(crosses[k])
        del votes[c]
    return named


VARIANTS = {"strict": strict, "cover": cover, "score": score, "vote": vote}
