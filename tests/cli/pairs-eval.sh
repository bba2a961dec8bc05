# pairs-eval: the accuracy harness of `rdma-analyze pairs` (issues 7 and
# 21, tests/pairs-eval/) in small: fat trees of 32 hosts on one and two
# rails (LFTs from opensm's minhop, updn and ftree), and the other shapes
# with one or two engines each (2 spines, parallel cables, 3 levels,
# unequal leaves, hosts named by IPoIB address), on ibsim, scanned with the
# collector under test.  The harness's routes must be the ones `rdma-analyze
# path` prints (which path-ibsim.sh holds to ibtracert); a sample of one
# case per row of the table, scored for both methods and for the floor
# (floor.py); loose bounds only (make bench runs the full table,
# tests/bench-pairs.sh).
. "$TOP/tests/ibsim/fabric.sh"

if ! fab_have; then
	skip "pairs evaluation on ibsim" "missing: $FAB_MISSING"
	exit 0
fi
if ! command -v python3 >/dev/null; then
	skip "pairs evaluation on ibsim" "no python3"
	exit 0
fi
if ! "$RA" pairs --help >/dev/null 2>&1; then
	skip "pairs evaluation on ibsim" "rdma-analyze has no pairs subcommand"
	exit 0
fi
printf 'interceptor_via_lib:libumad2sim.so\n' >"$T/asan.supp"
printf 'leak:libibnetdisc.so\nleak:libumad2sim.so\n' >"$T/lsan.supp"
export ASAN_OPTIONS="verify_asan_link_order=0:detect_leaks=1:suppressions=$T/asan.supp"
export LSAN_OPTIONS="suppressions=$T/lsan.supp"
cd "$T" || exit 1
EVAL="python3 $TOP/tests/pairs-eval/eval.py --build $BUILD --cache $T/cache"
FABRICS="--shapes ft --fabrics 32x1,32x2 --engines minhop,updn,ftree"

$EVAL $FABRICS --check-routes 10 >routes.out 2>&1
rc=$?
check_eq "the harness's routes are rdma-analyze path's (6 fabrics, 120 routes)" \
	"$rc $(grep -c ': 20 of 20 routes' routes.out)" "0 6"
[ $rc -eq 0 ] || sed 's/^/#   /' routes.out | head -10

$EVAL $FABRICS --cases 54 --seed 7 --methods best,tomography,floor \
	--json log.json >table.out 2>err.out
rc=$?
check_eq "54 cases run, one a row of the table" \
	"$rc $(grep -c '^[123] .* | ' table.out)" "0 54"
[ $rc -eq 0 ] || sed 's/^/#   /' err.out | tail -5

# figures over the sample, from the per-case log
python3 - log.json >sums.out <<'EOF'
import json, sys
log = json.load(open(sys.argv[1]))
def agg(method, pick):
    c = [e[method] for e in log if pick(e["row"])]
    return (sum(x["correct"] for x in c), sum(x["faults"] for x in c),
            sum(x["top1"] for x in c), len(c))
easy = lambda r: r[0] == 1 and r[1] == "all" and r[2] == 0 and r[3] == "hard"
hard0 = lambda r: r[1] == "all" and r[2] == 0 and r[3] == "hard"
for m in ("best", "tomography", "strict", "score"):
    print(m, "easy", *agg(m, easy))
    print(m, "hard0", *agg(m, hard0))
    print(m, "all", *agg(m, lambda r: True))
EOF
field() { awk -v m="$1" -v w="$2" '$1 == m && $2 == w { print $'"$3"' }' sums.out; }
check_eq "best: the single hard fault, all pairs, no noise, is the first suspect" \
	"$(field best easy 5)" "$(field best easy 6)"
check_eq "tomography (the floor) gets it too" \
	"$(field tomography easy 5)" "$(field tomography easy 6)"
check_eq "all pairs, hard faults, no noise: the floor finds every fault, as the harness's strict floor does" \
	"$(field tomography hard0 3) $(field strict hard0 3)" "$(field best hard0 4) $(field best hard0 4)"
check_eq "the single hard fault, all pairs, no noise: SCORE's hit ratio names it first" \
	"$(field score easy 5)" "$(field score easy 6)"
b=$(field best all 3) t=$(field tomography all 3) n=$(field best all 4)
if [ -n "$b" ] && [ "$b" -ge "$t" ] && [ $((b * 2)) -ge "$n" ]; then
	ok "best finds at least as many faults as the floor and half of all ($b, floor $t, of $n)"
else
	fail "best finds at least as many faults as the floor and half of all ($b, floor $t, of $n)"
fi

# deterministic for a seed
$EVAL --shapes ft --fabrics 32x2 --engines ftree --cases 6 --seed 3 --json a.json >/dev/null 2>&1
$EVAL --shapes ft --fabrics 32x2 --engines ftree --cases 6 --seed 3 --json b.json >/dev/null 2>&1
check "the same seed gives the same cases and answers" cmp a.json b.json
$EVAL --shapes ft --fabrics 32x2 --engines ftree --cases 6 --seed 4 --json c.json >/dev/null 2>&1
check "another seed gives other cases" sh -c '! cmp -s a.json c.json'

# --rows runs the same cases as the whole table, only fewer
$EVAL $FABRICS --cases 54 --seed 7 --methods best,tomography,floor \
	--rows '^2 20% 1% ' --json rows.json >/dev/null 2>&1
check_eq "--rows: the cases of the row it names, as the whole table has them" \
	"$(python3 -c 'import json, sys
a = {e["case"]: e for e in json.load(open(sys.argv[1]))}
b = json.load(open(sys.argv[2]))
print(len(b), all(a[e["case"]] == e for e in b))' log.json rows.json)" "2 True"

# the other shapes: each captured, routed, its routes those of path; a
# sample of one case a row on four of them
$EVAL --shapes s2,par2,l3,uneq --shape-engines ftree,dfsssp --check-routes 5 \
	>shroutes.out 2>&1
check_eq "other shapes: ftree refuses the unequal leaves, the routes are path's (7 fabrics)" \
	"$? $(grep -c ': 10 of 10 routes' shroutes.out) $(grep -c '^uneq-ftree' shroutes.out)" "0 7 0"
$EVAL --shapes s2,l3,uneq,ip --shape-engines ftree,dfsssp --shape-cases 54 \
	--bayes --json shapes.json >shapes.out 2>err.out
rc=$?
check_eq "other shapes: 216 cases, a table each and the floor's variants, uneq without ftree" \
	"$rc $(grep -c '^## ' shapes.out) $(grep -c '^[123] .* | ' shapes.out) $(grep -c '^## uneq: .*engines dfsssp; refused by opensm: ftree$' shapes.out)" "0 6 216 1"
[ $rc -eq 0 ] || sed 's/^/#   /' err.out | tail -5
check_eq "hosts named by IPoIB address: every CSV name resolved, every hard fault found" \
	"$(python3 -c 'import json, sys
log = [e for e in json.load(open(sys.argv[1])) if e["shape"] == "ip"]
hard = [e for e in log if e["row"][3] == "hard" and e["row"][1] == "all" and e["row"][2] == 0]
print(len(log), sum(e["unresolved"] or 0 for e in log),
      sum(e["best"]["correct"] == e["best"]["faults"] for e in hard) == len(hard))' shapes.json)" "54 0 True"
check_eq "the Bayes rule beside every case (216), its own answer on the single-fault ones (72)" \
	"$(python3 -c 'import json, sys
log = json.load(open(sys.argv[1]))
print(sum("bayes" in e for e in log), sum(e["bayes"]["top1"] is not None for e in log),
      all(0 < e["bayes"]["erk"] <= e["bayes"]["etop1"] + 1e-9 <= 1 + 1e-9 for e in log))' shapes.json)" "216 72 True"
check_eq "every answer scored in expectation too, none expecting more than the Bayes rule's own" \
	"$(python3 -c 'import json, sys
log = json.load(open(sys.argv[1]))
ms = ("best", "strict", "cover", "score", "vote")
x = [(e[m], e["bayes"], len(e["faults"])) for e in log for m in ms]
print(len(x), all(0 <= a["e_top1"] <= b["etop1"] + 1e-4 and
                  0 <= a["e_correct"] / k <= b["erk"] + 1e-4 for a, b, k in x),
      sum(a["e_top1"] < b["etop1"] - 1e-4 for a, b, k in x) > 0)' shapes.json)" "1080 True True"

# the multi-fault sampler against exact sums over every set (s2, minhop)
python3 "$TOP/tests/pairs-eval/bayes.py" --build "$BUILD" --cache "$T/cache" \
	--check s2 --shape-engines minhop --check-cases 30 >check.out 2>&1
check_eq "the Bayes sampler agrees with the exact posterior (1 and 2 faults, within 0.03)" \
	"$? $(awk '/^[12] fault/ { sub(/;/, "", $8); print ($8 <= 0.03) }' check.out | tr -d '\n')" "0 11"
[ "$(cat check.out | wc -l)" -eq 2 ] || sed 's/^/#   /' check.out
