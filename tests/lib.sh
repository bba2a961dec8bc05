# tests/lib.sh: sourced by every tests/cli/*.sh.  Each check prints one line
# that tests/run.sh counts: "ok - what", "not ok - what", "skip - what: why".
#
# Provided: $TOP (source tree), $BUILD (absolute build dir), $RC
# (rdma-collect), $RA (rdma-analyze), $T (a scratch folder of this test,
# removed afterwards), $FIXTURES (tests/fixtures).

ok() { echo "ok - $*"; }
fail() { echo "not ok - $*"; }
skip() { echo "skip - $1: $2"; }

# check "what" command...: ok if the command succeeds
check() {
	local what=$1
	shift
	if "$@" >"$T/.check.out" 2>&1; then
		ok "$what"
	else
		fail "$what"
		sed 's/^/#   /' "$T/.check.out" | head -20
	fi
}

# check_eq "what" got want
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		fail "$1"
		echo "#   got:  '$2'"
		echo "#   want: '$3'"
	fi
}

# the manifest of a bundle, on stdout
manifest() { tar --zstd -xOf "$1" manifest.json; }

# a source's status in a bundle: src_status BUNDLE NAME
src_status() {
	manifest "$1" | awk -v n="\"$2\"" '
		$1 == "\"name\":" && $2 == n"," { hit = 1; next }
		hit && $1 == "\"status\":" { gsub(/[",]/, "", $2); print $2; exit }'
}

# build a fixture node tree: mknode KIND DIR (see tests/fixtures/README.md)
mknode() { "$FIXTURES/mknode.sh" "$1" "$2"; }

# --- helpers of the rule tests (tests/cli/rules-*.sh) ---
# sev BUNDLE RULE COMPONENT: the severities of the rule's findings on the
# component ("none" when it did not fire)
sev() {
	"$RA" report --format json "$1" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
r = [f["severity"] for n in d["nodes"] for f in n["findings"]
     if f["rule"] == sys.argv[1] and f["component"] == sys.argv[2]]
print(",".join(r) if r else "none")' "$2" "$3"
}
# summary BUNDLE RULE COMPONENT
summary() {
	"$RA" report --format json "$1" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print("|".join(f["summary"] for n in d["nodes"] for f in n["findings"]
      if f["rule"] == sys.argv[1] and f["component"] == sys.argv[2]))' "$2" "$3"
}
# loud BUNDLE: the findings at warning or above of the rules in $MINE, one
# "RULE component severity" a line
loud() {
	"$RA" report --format json "$1" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
mine = sys.argv[1].split()
for n in d["nodes"]:
    for f in n["findings"]:
        if f["rule"] in mine and f["severity"] != "info":
            print(f["rule"], f["component"], f["severity"])' "$MINE"
}
# collect TREE BUNDLE: rdma-collect --root TREE --sample 1
# (a bundle never replaces a file: the one a test collects again goes first)
collect() { rm -f "$2"; "$RC" -q --root "$1" --sample 1 -o "$2" >/dev/null 2>&1; }
# setjson FILE PYTHON [ARGS]: edit a stored JSON form (d), ARGS in argv[3:]
setjson() {
	local f=$1 code=$2
	shift 2
	python3 -c '
import json, sys
p = sys.argv[1]
d = json.load(open(p))
exec(sys.argv[2])
json.dump(d, open(p, "w"))' "$f" "$code" "$@"
}
