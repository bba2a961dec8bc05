# rdma-analyze's text report on a terminal: the verdict first, 100 columns,
# colour only on a terminal (script(1) gives it one) and never with NO_COLOR
cd "$T" || exit 1
S="$TOP/samples"
"$RA" report "$S"/*.rdma.tar.zst "$S"/fleet/*.rdma.tar.zst >r.txt 2>/dev/null
"$RA" report -f json "$S"/*.rdma.tar.zst "$S"/fleet/*.rdma.tar.zst >r.json 2>/dev/null
want=$(python3 -c '
import json
r = json.load(open("r.json"))
w = [n["worst"] for n in r["nodes"]]
c, x = w.count("critical"), w.count("warning")
print("%s: %d of %d node(s) critical, %d warning, %d without either" % (
    "CRITICAL" if c else "WARNING", c, len(w), x, len(w) - c - x))')
check_eq "the first line is the verdict, counted as the JSON report counts" "$(head -1 r.txt)" "$want"
check_eq "no line is wider than 100 columns" \
	"$(LC_ALL=C.UTF-8 awk 'length($0) > 100' r.txt | head -3)" ""
check "every finding of the JSON report is in the text" python3 -c '
import json
r = json.load(open("r.json"))
t = open("r.txt").read()
for n in r["nodes"]:
    for f in n["findings"]:
        assert f["rule"] in t and f["summary"].split()[0] in t, f["rule"]'
check "piped: no escape sequence" sh -c '! grep -q "$(printf "\033")" r.txt'
if ! command -v script >/dev/null 2>&1; then
	skip "colour on a terminal" "script(1) (util-linux) is missing"
	return 0 2>/dev/null || exit 0
fi
one=$(ls "$S"/fleet/roce-b04-*.rdma.tar.zst)
NO_COLOR= script -qec "'$RA' report '$one'" /dev/null >tty.txt 2>&1 </dev/null
check "on a terminal: severities in colour" grep -q "$(printf '\033')\[1;31mcritical" tty.txt
NO_COLOR=1 script -qec "'$RA' report '$one'" /dev/null >nc.txt 2>&1 </dev/null
check "on a terminal with NO_COLOR=1: no escape sequence" sh -c '! grep -q "$(printf "\033")" nc.txt'
check "and the same words" sh -c 'grep -q "^CRITICAL: 1 of 1 node" nc.txt'
