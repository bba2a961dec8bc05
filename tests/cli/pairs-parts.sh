# pairs-parts: a whole switch against the set of its own parts, and a
# second fault beside one that carries most of its pairs (issue 21 item 3).  A hand-built fat tree (tests/fixtures/mkfabric.py: 2 spines, 4
# leaves of 8 hosts), routes worked out here from its LFT rule and held to
# `rdma-analyze path` for one pair; the pair results drawn with a fixed
# seed.  Three flaky cables of one spine on 20% of the pairs: the three
# cables, not the spine (the pairs through its fourth cable pass); a dead
# spine (every cable of it): the spine, on all pairs and on 20%; a flaky
# cable of a spine and a flaky host whose failing pairs nearly all cross
# it: both.
. "$TOP/tests/fabric-lib.sh"
cd "$T" || exit 1

mknode gpu-ndr8 g >/dev/null 2>&1 || fail "gpu-ndr8 fixture builds"
python3 "$MKFABRIC" fabric g/rdma-collect/fabric/fabric.json 2 4 8
mad_bundle g f.rdma.tar.zst || fail "a bundle with a fabric scan"
"$RA" load --db f.db f.rdma.tar.zst >/dev/null 2>&1

# the route of node001 -> node012 as the generator below has it
check_eq "the generator's route is the scan's" \
	"$("$RA" path --db f.db node001 node012 2>/dev/null |
		sed -n '/^# node001 mlx5_0 -> node012/,/^To /s/^\[\([0-9]*\)\] -> .*}\[\([0-9]*\)\].*"\(MF0;\)\{0,1\}\([a-z0-9]*\)[: ].*/\1>\4:\2/p' |
		tr '\n' ' ')" "1>leaf1:1 9>spine1:1 2>leaf2:9 4>node012:1 "

# gen OUT SEED COVERAGE RATE HOP...: the pair results of faults on HOPs
# ("leaf1:9>spine1:1"), each failing the tests crossing it (either way) at
# its own rate (0: drawn from 0.2 .. 0.8), 1% of the outcomes flipped
gen() {
	python3 - "$@" <<'EOF'
import random, sys
out, seed, cov, fixed = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
faults = sys.argv[5:]

def hops(a, b):
    # host n on leaf (n-1)/8+1 port (n-1)%8+1; leaf i port 8+k to spine k
    # port i; up to spine (destination LID % 2) + 1, the LID the host's number
    la, lb, pa, pb = (a - 1) // 8 + 1, (b - 1) // 8 + 1, (a - 1) % 8 + 1, (b - 1) % 8 + 1
    h = ["node%03d:1>leaf%d:%d" % (a, la, pa)]
    if la != lb:
        k = b % 2 + 1
        h += ["leaf%d:%d>spine%d:%d" % (la, 8 + k, k, la),
              "spine%d:%d>leaf%d:%d" % (k, lb, lb, 8 + k)]
    return h + ["leaf%d:%d>node%03d:1" % (lb, pb, b)]

rng = random.Random(seed)
rate = {f: fixed or rng.uniform(0.2, 0.8) for f in faults}
with open(out, "w") as f:
    f.write("src,dst,result,gbps,error\n")
    for a in range(1, 33):
        for b in range(1, 33):
            if a == b or rng.random() >= cov:
                continue
            path = set(hops(a, b) + hops(b, a))
            bad = any(h in path and rng.random() < rate[h] for h in faults)
            if rng.random() < 0.01:
                bad = not bad
            f.write("node%03d,node%03d,%s,,\n" % (a, b, "fail" if bad else "ok"))
EOF
}
# cable LEAF: both directions of leaf LEAF's cable to spine1
cable() { echo "leaf$1:9>spine1:$1 spine1:$1>leaf$1:9"; }
# suspects CSV: "kind component" of each suspect, short switch names
suspects() {
	"$RA" pairs --db f.db --results "$1" --json 2>/dev/null | python3 -c '
import json, sys
for s in json.load(sys.stdin)["suspects"]:
    print(s["kind"], s["component"].replace("MF0;", "").replace(":MQM9700/U1", ""))'
}

# --- three flaky cables of spine1, 20% of the pairs: the cables ---
gen three.csv 1 0.2 0 $(cable 1) $(cable 2) $(cable 3)
suspects three.csv >three.out
check_eq "three flaky cables of a spine: no switch named" \
	"$(grep -c '^switch' three.out)" 0
check_eq "... the three cables, each named once (a link or one direction)" \
	"$(sed -n 's/^\(link\|half\) .*leaf\([0-9]\) port 9.*/\2/p; s/^\(link\|half\) spine1 port \([0-9]\) .*/\2/p' three.out |
		sort -u | tr '\n' ' ')$(wc -l <three.out)" "1 2 3 3"

# --- a dead spine: every test through it fails ---
gen dead.csv 3 1 1 $(cable 1) $(cable 2) $(cable 3) $(cable 4)
check_eq "a dead spine, all pairs: the switch" "$(suspects dead.csv)" "switch spine1"
gen dead20.csv 3 0.2 1 $(cable 1) $(cable 2) $(cable 3) $(cable 4)
check_eq "a dead spine, 20% of the pairs: the switch" "$(suspects dead20.csv)" "switch spine1"

# --- a flaky spine cable and a flaky host below it: 13 of node002's 14
# tests fail, 12 of them through the cable; once the cable explains
# those, greedy sees one failure of node002 left ---
gen beside.csv 7 0.2 0 $(cable 1) node002:1\>leaf1:2 leaf1:2\>node002:1
check_eq "a flaky cable and a flaky host whose pairs cross it: both" \
	"$(suspects beside.csv | sed 's/ mlx5_0 port 1 <-> leaf1 port 2$//')" "link leaf1 port 9 <-> spine1 port 1
node node002"
