# rule-cases: every rule id has a firing case and a quiet case.  The table
# tests/cli/rule-cases.tsv names, per rule of `rdma-analyze rules`, an input
# whose report holds a finding of the rule and one whose report does not;
# each input is built once here, reported as JSON and checked: "ok - ID
# fires on INPUT", "ok - ID quiet on INPUT".  A rule without a row, a row
# naming no rule or a rule twice is a failure; so is a row whose input is
# "none"; "gap" (a known gap) is a skip with its reason.
cd "$T" || exit 1
. "$TOP/tests/fabric-lib.sh"
export SOURCE_DATE_EPOCH=1764450245
TABLE=$TOP/tests/cli/rule-cases.tsv
INJ=$FIXTURES/inject.sh
FLEET=$TOP/samples/fleet
mkdir -p base w b json

# every input the table names, once; name INPUT: its file name under json/
specs=$(awk -F'\t' '!/^#/ && NF >= 3 && $2 != "none" && $2 != "gap" { print $2 }
	!/^#/ && NF >= 3 { print $3 }' "$TABLE" | sort -u)
name() { echo "$1" | tr '/+:' '___'; }

# report NAME BUNDLE...: the JSON report into json/NAME.json; an exit
# status other than 0-2 (findings) or no report into json/NAME.err
report() {
	local n=$1
	shift
	"$RA" report -f json "$@" >"json/$n.json" 2>"json/$n.stderr"
	judge "$n" $?
}
judge() {	# judge NAME STATUS
	if [ "$2" -gt 2 ] || ! [ -s "json/$1.json" ]; then
		echo "exit $2: $(head -3 "json/$1.stderr")" >"json/$1.err"
	fi
}
# node_collect TREE BUNDLE: rdma-collect as tests/mkfleet.sh runs it
node_collect() {
	rm -f "$2"
	"$RC" -q --commands --root "$1" -o "$2" >/dev/null 2>&1
}

# reset_tree TREE BASE: TREE as BASE again, rewriting only what differs (a
# cp -a of a gpu-ndr8 tree, 3,400 files, takes seconds here; this a tenth)
reset_tree() {
	python3 - "$1" "$2" <<'PY'
import os, shutil, stat, sys

def same(a, b):
    try:
        x, y = os.lstat(a), os.lstat(b)
    except FileNotFoundError:
        return False
    if stat.S_IFMT(x.st_mode) != stat.S_IFMT(y.st_mode):
        return False
    if stat.S_ISLNK(x.st_mode):
        return os.readlink(a) == os.readlink(b)
    return (x.st_size, x.st_mtime_ns, x.st_mode) == (y.st_size, y.st_mtime_ns, y.st_mode)

def remove(p):
    if os.path.isdir(p) and not os.path.islink(p):
        shutil.rmtree(p)
    elif os.path.lexists(p):
        os.unlink(p)

def sync(t, b):
    names = set(os.listdir(b))
    for n in os.listdir(t):
        if n not in names:
            remove(os.path.join(t, n))
    for n in sorted(names):
        tp, bp = os.path.join(t, n), os.path.join(b, n)
        st = os.lstat(bp)
        if stat.S_ISDIR(st.st_mode):
            if os.path.islink(tp) or not os.path.isdir(tp):
                remove(tp)
                shutil.copytree(bp, tp, symlinks=True)
            else:
                sync(tp, bp)
                os.chmod(tp, stat.S_IMODE(st.st_mode))
        elif not same(tp, bp):
            remove(tp)
            if stat.S_ISLNK(st.st_mode):
                os.symlink(os.readlink(bp), tp)
            else:
                shutil.copy2(bp, tp)

sync(sys.argv[1], sys.argv[2])
PY
}
# worktree KIND SLOT: w/KIND.SLOT, a working copy of the fixture tree
worktree() {
	[ -d "w/$1.$2" ] || cp -a "base/$1" "w/$1.$2"
}

# fixture SPEC DIR: the input KIND or KIND+FAULT[:ARG] made in DIR (a
# working copy of KIND), collected and reported
fixture() {
	local s=$1 d=$2 n fault arg
	n=$(name "$s")
	fault="" arg=""
	case $s in *+*) fault=${s#*+} ;; esac
	case $fault in *:*) arg=${fault#*:} fault=${fault%%:*} ;; esac
	if [ -n "$fault" ] && ! "$INJ" "$fault" "$d" $arg >"w/$n.inj" 2>&1; then
		echo "inject.sh $fault $arg: $(head -3 "w/$n.inj")" >"json/$n.err"
	elif node_collect "$d" "b/$n.rdma.tar.zst"; then
		report "$n" "b/$n.rdma.tar.zst"
	else
		echo "rdma-collect failed" >"json/$n.err"
	fi
}
# worker KIND SLOT INPUT...: the inputs of KIND one after the other in the
# working copy w/KIND.SLOT, reset to the fixture after each
worker() {
	local k=$1 slot=$2 s
	shift 2
	if ! [ -d "base/$k" ] || ! worktree "$k" "$slot"; then
		for s; do echo "no fixture tree $k" >"json/$(name "$s").err"; done
		return
	fi
	for s; do
		fixture "$s" "w/$k.$slot"
		reset_tree "w/$k.$slot" "base/$k"
	done
}

# --- the fixture trees, each built once ---
kinds() {
	printf '%s\n' $specs | sed -n 's/^\(gpu-ndr8\|roce-pfc\|rxe\)\(+.*\)\{0,1\}$/\1/p'
	case $specs in *fleet/twin* | *mad/* | *pairs/*) echo gpu-ndr8 ;; esac
	case $specs in *history/*) echo roce-pfc ;; esac
}
KINDS=$(kinds | sort -u)
for k in $KINDS; do
	mknode "$k" "base/$k" >"base/$k.log" 2>&1 &
done
wait

# --- the fixture inputs: two workers a kind ---
for k in $KINDS; do
	l1="" l2="" i=0
	for s in $specs; do
		case $s in "$k" | "$k"+*) ;; *) continue ;; esac
		if [ $((i % 2)) -eq 0 ]; then l1="$l1 $s"; else l2="$l2 $s"; fi
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	[ -n "$l1" ] && worker "$k" 1 $l1 &
	# shellcheck disable=SC2086
	[ -n "$l2" ] && worker "$k" 2 $l2 &
done
wait

# --- fleet/*: the sample fleet (tests/mkfleet.sh), and twins ---
if ls "$FLEET"/*.rdma.tar.zst >/dev/null 2>&1 && [ -f "$FLEET/faults.tsv" ]; then
	report fleet_sample "$FLEET"/*.rdma.tar.zst
	set --
	for f in "$FLEET"/*.rdma.tar.zst; do
		h=${f##*/}
		h=${h%-*}
		grep -q "^$h	" "$FLEET/faults.tsv" || set -- "$@" "$f"
	done
	report fleet_sample-healthy "$@"
else
	echo "no samples/fleet (make samples)" >json/fleet_sample.skip
	cp json/fleet_sample.skip json/fleet_sample-healthy.skip
fi
# twin: the healthy gpu-ndr8 node, and the same under another hostname
twin() {
	local d=w/gpu-ndr8.1
	worktree gpu-ndr8 1 || return 1
	[ -f b/gpu-ndr8.rdma.tar.zst ] || node_collect "$d" b/gpu-ndr8.rdma.tar.zst || return 1
	echo gpu-twin >"$d/proc/sys/kernel/hostname"
	echo gpu-twin >"$d/etc/hostname"
	printf '%s' gpu-twin | sha256sum | cut -c1-32 >"$d/etc/machine-id"
	node_collect "$d" b/twin.rdma.tar.zst || return 1
	reset_tree "$d" base/gpu-ndr8
	report fleet_twin b/gpu-ndr8.rdma.tar.zst b/twin.rdma.tar.zst
}
case $specs in *fleet/twin*) twin || echo "fleet/twin not built" >json/fleet_twin.err ;; esac

# --- history/*: two snapshots of one roce-pfc node, a day apart ---
# snap DIR OUT DAY: a bundle of DIR into OUT/ at day DAY (uptime: DAY + 1)
snap() {
	printf '%s 1000.00\n' $((($3 + 1) * 86400)) >"$1/proc/uptime"
	SOURCE_DATE_EPOCH=$((1764450000 + $3 * 86400)) "$RC" -q --commands \
		--root "$1" -o "$2" >/dev/null 2>&1
}
hist() {	# hist grown|steady
	local d=w/roce-pfc.1 fw
	worktree roce-pfc 1 || return 1
	mkdir -p "b/$1"
	echo "hist-$1" >"$d/proc/sys/kernel/hostname"
	printf '%s' "hist-$1" | sha256sum | cut -c1-32 >"$d/etc/machine-id"
	snap "$d" "b/$1" 0 || return 1
	if [ "$1" = grown ]; then
		"$INJ" symbol-errors "$d" mlx5_0 >/dev/null &&
			"$INJ" link-flap "$d" mlx5_1 >/dev/null || return 1
		fw=$(readlink -f "$d/sys/class/infiniband/mlx5_1")/fw_ver
		sed -i 's/^22\.39\.2048$/22.38.1002/' "$fw"
		sed -i 's/"22\.39\.2048"/"22.38.1002"/' "$d/rdma-collect/verbs/mlx5_1.json"
	fi
	snap "$d" "b/$1" 1 || return 1
	reset_tree "$d" base/roce-pfc
	report "history_$1" "b/$1"
}
for h in grown steady; do
	case $specs in *history/$h*) hist $h || echo "history/$h not built" >"json/history_$h.err" ;; esac
done

# --- mad/*: MAD evidence and a fabric scan (2 spines, 3 leaves, 3 HCAs
# a leaf: HCA LIDs 1-9, 1-3 on leaf1; up to spine (dlid % 2) + 1) ---
mad() {
	local d=w/gpu-ndr8.1 f
	worktree gpu-ndr8 1 || return 1
	python3 "$MKFABRIC" mad "$d" &&
		python3 "$MKFABRIC" fabric "$d/rdma-collect/fabric/fabric.json" 2 3 3 &&
		mad_bundle "$d" b/mad_master.rdma.tar.zst || return 1
	report mad_master b/mad_master.rdma.tar.zst
	for f in "$d"/rdma-collect/mad/*.json; do setjson "$f" 'd["sminfo"]["SmState"] = 2'; done
	mad_bundle "$d" b/mad_standby.rdma.tar.zst || return 1
	reset_tree "$d" base/gpu-ndr8
	report mad_standby b/mad_standby.rdma.tar.zst
}
case $specs in *mad/* | *pairs/*) mad || echo "mad/* not built" >json/mad_master.err ;; esac
rm -rf w

# --- pairs/*: `rdma-analyze pairs` on mad/master's fabric ---
leaf() { echo $((($1 - 1) / 3 + 1)); }
# pr_NAME A B: the result of the pair A < B when ...
pr_pass() { echo ok; }			# ... nothing is wrong
pr_node() { [ "$1" = 1 ] && echo fail || echo ok; }	# ... LID 1 is bad
pr_switch() {				# ... leaf2 is bad
	{ [ "$(leaf "$1")" = 2 ] || [ "$(leaf "$2")" = 2 ]; } && echo fail || echo ok
}
pr_link() {				# ... the cable leaf1-spine1 is bad
	if [ "$(leaf "$1")" = 1 ] && [ "$(leaf "$2")" != 1 ] &&
		{ [ $(($2 % 2)) = 0 ] || [ $(($1 % 2)) = 0 ]; }; then
		echo fail
	else
		echo ok
	fi
}
pairs_csv() {	# pairs_csv NAME: the results of every pair of the 9 HCAs
	local a b
	echo src,dst,result
	if [ "$1" = ambiguous ]; then	# one failing pair, two passing
		printf '1,9,fail\n1,2,ok\n9,8,ok\n'
		return
	fi
	for a in 1 2 3 4 5 6 7 8 9; do
		for b in 1 2 3 4 5 6 7 8 9; do
			[ "$a" -lt "$b" ] && echo "$a,$b,$("pr_$1" "$a" "$b")"
		done
	done
}
if [ -f b/mad_master.rdma.tar.zst ] &&
	"$RA" load --db pairs.db b/mad_master.rdma.tar.zst >/dev/null 2>&1; then
	for p in $(printf '%s\n' $specs | sed -n 's|^pairs/||p'); do
		pairs_csv "$p" >"$p.csv"
		"$RA" pairs --db pairs.db --results "$p.csv" -f json \
			>"json/pairs_$p.json" 2>"json/pairs_$p.stderr"
		judge "pairs_$p" $?
	done
fi

# --- real/*: tests/real cases, run as tests/real/run.py runs them ---
# shellcheck disable=SC2046
python3 - "$TOP/tests/real" "$RA" "$RC" $(printf '%s\n' $specs | sed -n 's|^real/||p') <<'PY'
import json, os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import run
for c in sys.argv[4:]:
    out = "json/real_" + c.replace("/", "_").replace("+", "_").replace(":", "_")
    if not os.path.isfile(os.path.join(sys.argv[1], c, "EXPECT")):
        open(out + ".err", "w").write("no case tests/real/%s\n" % c)
        continue
    run.run_case.last = None
    e, errs, code = run.run_case(c, sys.argv[2], sys.argv[3])
    if run.run_case.last is None:
        open(out + ".err", "w").write("; ".join(errs) + "\n")
    elif code not in (0, 1, 2) and str(code) != e.get("exit"):
        open(out + ".err", "w").write("exit %s\n" % code)
    else:
        json.dump(run.run_case.last, open(out + ".json", "w"))
PY

# --- the checks, row by row, then the rules without a row ---
"$RA" rules -f json >rules.json 2>rules.err || fail "rdma-analyze rules -f json"
python3 - "$TABLE" rules.json <<'PY'
import json, os, sys

def name(s):
    return s.replace("/", "_").replace("+", "_").replace(":", "_")

def fired(spec):
    """the rules that fired on the input, or None and why it was not
    built, or "skip" and why it cannot be built here"""
    p = "json/" + name(spec)
    if os.path.exists(p + ".skip"):
        return "skip", open(p + ".skip").read().strip()
    if os.path.exists(p + ".err"):
        return None, open(p + ".err").read().strip()
    try:
        d = json.load(open(p + ".json"))
    except (OSError, ValueError) as e:
        return None, "no report: %s" % e
    r = {f["rule"] for n in d.get("nodes", []) for f in n["findings"]}
    r |= {s["rule"] for s in d.get("suspects", [])}
    return r, None

rules = [r["id"] for r in json.load(open(sys.argv[2]))]
rows = set()
for ln, line in enumerate(open(sys.argv[1]), 1):
    if line.startswith("#") or not line.strip():
        continue
    f = line.rstrip("\n").split("\t")
    if len(f) < 3:
        print("not ok - rule-cases.tsv line %d: not RULE<TAB>FIRES-ON<TAB>QUIET-ON" % ln)
        continue
    rid, fire, quiet = f[0], f[1], f[2]
    note = f[3] if len(f) > 3 else "no reason given"
    if rid in rows:
        print("not ok - %s: a second row in rule-cases.tsv (line %d)" % (rid, ln))
        continue
    rows.add(rid)
    if rid not in rules:
        print("not ok - %s: a row of rule-cases.tsv, but no such rule in "
              "`rdma-analyze rules`" % rid)
        continue
    if fire == "gap":
        print("skip - %s: no firing case: %s" % (rid, note))
    elif fire == "none":
        print("not ok - %s: no firing case (%s)" % (rid, note))
    for spec, want, verb in ((fire, True, "fires"), (quiet, False, "quiet")):
        if spec in ("gap", "none"):
            continue
        got, why = fired(spec)
        if got == "skip":
            print("skip - %s %s on %s: %s" % (rid, verb, spec, why))
        elif got is None:
            print("not ok - %s %s on %s" % (rid, verb, spec))
            print("#   input not built: %s" % why[:300])
        elif (rid in got) == want:
            print("ok - %s %s on %s" % (rid, verb, spec))
        else:
            print("not ok - %s %s on %s" % (rid, verb, spec))
            print("#   its findings: %s" % (" ".join(sorted(got)) or "none"))
missing = [r for r in rules if r not in rows]
for r in missing:
    print("not ok - %s: no row in tests/cli/rule-cases.tsv" % r)
if not missing:
    print("ok - every rule of `rdma-analyze rules` (%d) has a row" % len(rules))
PY
