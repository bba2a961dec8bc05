# The progress bar: drawn on standard error only when it is a terminal
# (script(1) gives the command one), never with --quiet or --format json;
# --quiet also leaves out load's summary line.
cd "$T" || exit 1
if ! command -v script >/dev/null 2>&1; then
	skip "progress bar" "script (util-linux) is missing"
	exit 0
fi
mknode rxe node >/dev/null 2>&1
mkdir b
"$RC" -q --root node -o b/one.rdma.tar.zst >/dev/null
# on a terminal (the pty's output, carriage returns as newlines)
tty() { script -qec "$*" /dev/null </dev/null | tr '\r' '\n'; }
tty "'$RA' load --db a.db b" >load.out
check "load on a terminal: a progress bar" grep -q '^loading \[#*\] 1/1' load.out
check "load on a terminal: the summary line" grep -q '1 loaded, 0 already in a.db' load.out
tty "'$RA' load --quiet --db q.db b" >quiet.out
check_eq "load --quiet on a terminal: nothing at all" "$(wc -c <quiet.out)" 0
tty "'$RA' report -o r.txt b" >rt.out
check "report on a terminal: a progress bar" grep -q '^loading \[' rt.out
tty "'$RA' report -f json -o r.json b" >rj.out
check "report --format json on a terminal: no progress bar" sh -c '! grep -q "loading \[" rj.out'
tty "'$RA' report -q -o r2.txt b" >rq.out
check "report -q on a terminal: no progress bar" sh -c '! grep -q "loading \[" rq.out'
# not a terminal: never
"$RA" load --db p.db b 2>pipe.err
check "load into a pipe: no progress bar" sh -c '! grep -q "loading \[" pipe.err'
