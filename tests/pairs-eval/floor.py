"""floor.py: the floor of the pairs evaluation, the textbook method written
plainly and apart from the engine: Boolean network tomography with greedy
set cover.

  1. every component on the path of a passing test is cleared (a working
     test proves its whole path works);
  2. of the components left, the one on the paths of the most failing
     tests not yet explained is named, and its failing tests are explained;
     again until every failing test is explained or no component explains
     one (ties: the component named first in the fabric model).

No rate, no threshold, no constant: nothing here is tuned on the cases.
A failing test all of whose components are cleared (noise, a flaky fault
seen passing) stays unexplained.  What a test crosses is the harness's
model (fabric.py test_comps: both hosts and the route both ways).
"""


def floor(fab, case):
    """the components named, in order, for CASE (eval.py make_case) on
    the fabric model FAB"""
    passed, failed = set(), []
    for (a, b, r), bad in zip(case["tests"], case["outcome"]):
        if bad:
            failed.append((a, b, r))
        else:
            passed.add(fab.pair_id(a, b, r))
    cover = {}
    for i, (a, b, r) in enumerate(failed):
        rail = fab.rails[r]
        for c in fab.test_comps((fab.hosts[a], rail), (fab.hosts[b], rail)):
            cover.setdefault(c, set()).add(i)
    live = {c: s for c, s in cover.items() if passed.isdisjoint(fab.crossing[c])}
    left = set().union(*live.values()) if live else set()
    named = []
    while left and live:
        c = max(live, key=lambda x: (len(live[x] & left), -x))
        if not live[c] & left:
            break
        named.append(c)
        left -= live.pop(c)
    return named
