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
