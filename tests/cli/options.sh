# rdma-analyze's command line, command by command (analyze/cmd-*.c):
# standard output checked once after the command (a full disk is exit 4 and
# one line); an option a command does not take refused (exit 3, one line
# naming it and the command); -f/--format and --json alike everywhere; and
# each command's option table, its --help and its section of the man page
# listing the same options.
cd "$T" || exit 1
cp "$TOP/samples/rxe-vm1-20251129T210405Z.rdma.tar.zst" rxe.rdma.tar.zst
S=rxe.rdma.tar.zst

# --- standard output: every command that prints, to a full disk ---
if [ -c /dev/full ]; then
	for args in "report $S" "report -f json $S" "rules" "rules --json" \
	    "show --list" "show $S ibstat" "list $S" "diff $S $S" \
	    "diff --json $S $S" "--help" "--version" "pairs --help"; do
		# shellcheck disable=SC2086
		"$RA" $args >/dev/full 2>err
		rc=$?
		if [ "$rc" = 4 ] && [ "$(wc -l <err)" = 1 ] &&
		    grep -q '^rdma-analyze: cannot write to standard output' err; then
			ok "$args to a full disk: exit 4, one line"
		else
			fail "$args to a full disk: exit 4, one line (exit $rc)"
			sed 's/^/#   /' err | head -5
		fi
	done
else
	skip "output to a full disk" "no /dev/full"
fi

# --- an option a command does not take: exit 3, one line naming both ---
# refuse "what" CMD OPTION ARGS...: the refusal must name CMD and OPTION
refuse() {
	what=$1 cmd=$2 opt=$3
	shift 3
	"$RA" "$@" >out 2>err
	rc=$?
	if [ "$rc" = 3 ] && [ "$(wc -l <err)" = 1 ] && [ ! -s out ] &&
	    grep -q "^rdma-analyze: $cmd: .*'$opt'" err; then
		ok "$what: exit 3, one line"
	else
		fail "$what: exit 3, one line (exit $rc)"
		sed 's/^/#   /' err | head -5
	fi
}
refuse "rules --baseline" rules --baseline \
	rules --baseline x --format xml -o /nonexistent
refuse "load --format" load --format load --db x.db --format html "$S"
refuse "load -o" load -o load --db x.db -o r.txt "$S"
refuse "show --format" show --format show --format json "$S" ibstat
refuse "path --all" path --all path --db x.db --all a b
refuse "merge --all" merge --all merge --db x.db --all y.db
refuse "prune --all" prune --all prune --db x.db --keep 1 --all
refuse "diff --baseline" diff --baseline diff --baseline x "$S" "$S"
refuse "history --results" history --results history --db x.db --results f n
refuse "pairs --all" pairs --all pairs --db x.db --all
refuse "list --db" list --db list --db x.db "$S"
refuse "report --markdown" report --markdown report --markdown "$S"
refuse "the default command: --list" report --list --list "$S"
refuse "a short option: report -x" report -x report -x "$S"
refuse "a flag given a value: rules --json=1" rules --json rules --json=1
refuse "no argument: report --db" report --db report --db
refuse "no argument: report -f" report -f report -f
refuse "an unknown format: diff -f xml" diff xml diff -f xml "$S" "$S"
refuse "an unknown format: report -f xml" report xml report -f xml "$S"
check "nothing was written by the refusals" sh -c '! ls | grep -q "\.db\|r\.txt"'

# --- -f/--format, and --json for -f json, in every command that prints ---
"$RA" report -f json "$S" >a.json 2>/dev/null
"$RA" report --json "$S" >b.json 2>/dev/null
check "report: --json is -f json" cmp a.json b.json
"$RA" rules --format json >a.json
"$RA" rules --json >b.json
check "rules: --json is --format json" cmp a.json b.json
"$RA" rules -f markdown >a.md
"$RA" rules --markdown >b.md
check "rules: --markdown is -f markdown" cmp a.md b.md
check "rules --thresholds --json: JSON" sh -c \
	'"$1" rules --thresholds --json | python3 -c "import json, sys; d = json.load(sys.stdin); assert d[0][\"name\"] and \"default\" in d[0]"' sh "$RA"
check "rules --thresholds -f markdown: a table" sh -c \
	'"$1" rules --thresholds -f markdown | head -1 | grep -q "^| name | default | meaning | read by |$"' sh "$RA"
"$RA" diff -f json "$S" "$S" >a.json
"$RA" diff --json "$S" "$S" >b.json
check "diff: --json is -f json" cmp a.json b.json
check "list -f json: the entries of the bundle" sh -c \
	'"$1" list -f json "$2" | python3 -c "import json, sys; d = json.load(sys.stdin); assert d[0][\"bundle\"] == sys.argv[1] and any(e[\"path\"] == \"manifest.json\" for e in d[0][\"entries\"])" "$2"' sh "$RA" "$S"
"$RA" load -q --db f.db "$S" 2>/dev/null
"$RA" history --db f.db -f json rxe-vm1 >a.json
"$RA" history --db f.db --json rxe-vm1 >b.json
check "history: --json is -f json" sh -c 'cmp a.json b.json && python3 -m json.tool a.json >/dev/null'
"$RA" pairs --db f.db --format json 2>/dev/null | grep -v '"load"\|"localize"' >a.json
"$RA" pairs --db f.db --json 2>/dev/null | grep -v '"load"\|"localize"' >b.json
check "pairs: --format json is --json" sh -c 'cmp a.json b.json && grep -q "\"version\": 1" a.json'

# --- the tables, --help and the man page agree, command by command ---
# the long options of a command's table (cmd-NAME.c), --help left out
table() {
	grep -o '{ "[a-z-]*", [a-z_]*argument' "$TOP/analyze/cmd-$1.c" |
		cut -d'"' -f2 | grep -v '^help$' | sort -u
}
# the options a command's --help lists: its lines "  -x, --name" or "  --name"
helpopts() {
	"$RA" "$1" --help | sed -n 's/^  *\(-[a-zA-Z], \)\{0,1\}--\([a-z-]*\).*/\2/p' |
		sort -u
}
# the man page's section of a command: from ".TP/.B NAME" to the next
# command or .SH
mansection() {
	awk -v c="$1" '
		/^\.SH/ && on { exit }
		prev == ".TP" && /^\.B [a-z]+$/ { if (on) exit; on = ($0 == ".B " c) }
		on { print }
		{ prev = $0 }' "$TOP/analyze/rdma-analyze.1"
}
# the options it lists as items (.TP or .TQ, then the option)
manopts() {
	mansection "$1" | awk '
		(prev == ".TP" || prev == ".TQ") && /^\.B[IR]? \\-/ {
			l = $0
			gsub(/\\/, "", l)
			if (match(l, /--[a-z-]+/))
				print substr(l, RSTART + 2, RLENGTH - 2)
		}
		{ prev = $0 }' | sort -u
}
for c in report load show rules list path diff history merge prune pairs check; do
	table "$c" >t.$c
	helpopts "$c" >h.$c
	manopts "$c" >m.$c
	check_eq "$c: --help lists the options of its table" \
		"$(cat h.$c | tr '\n' ' ')" "$(cat t.$c | tr '\n' ' ')"
	check_eq "$c: the man page lists the options of its table" \
		"$(cat m.$c | tr '\n' ' ')" "$(cat t.$c | tr '\n' ' ')"
	check "$c: --help and the man page name it" sh -c '
		"$1" --help | grep -q "^$2 \|rdma-analyze $2 " &&
		test -n "$(cat "$3")"' sh "$RA" "$c" m.$c
done
check "every command of main.c's table has its cmd-NAME.c" sh -c '
	for c in $(sed -n "s/^	{ \"\([a-z]*\)\", cmd_[a-z]* },.*/\1/p" "$1/analyze/main.c"); do
		test -f "$1/analyze/cmd-$c.c" || { echo "no cmd-$c.c"; exit 1; }
	done' sh "$TOP"
