# Command-line errors: one clear line, documented exit codes, nothing left.
cd "$T" || exit 1
expect() {	# what, want-exit, stderr-pattern, args...
	what=$1 want=$2 pat=$3
	shift 3
	"$RC" "$@" >out 2>err
	rc=$?
	if [ "$rc" = "$want" ] && grep -q -- "$pat" err; then
		ok "$what"
	else
		fail "$what (exit $rc)"
		sed 's/^/#   /' err | head -5
	fi
}
expect "unknown option: exit 2" 2 "unrecognized option" --bogus
expect "bad --sample: exit 2" 2 "invalid --sample '0'" --sample 0
expect "bad --sample text: exit 2" 2 "invalid --sample 'x'" --sample x
expect "bad --pid: exit 2" 2 "invalid --pid" --pid -3
expect "unknown source in --only: exit 2" 2 "unknown source 'nope'" --only nope
expect "--root not a folder: exit 2" 2 "is not a folder" --root /nonexistent
expect "stray argument: exit 2" 2 "unexpected argument 'foo'" foo
expect "bad --max-file: exit 2" 2 "invalid --max-file" --max-file 12Q
expect "output folder missing: exit 3" 3 "does not exist" -q -o /nonexistent/dir
check "--help documents every long option" sh -c '
	"$RC" --help >help.txt
	for o in $(grep -o "{ \"[a-z-]*\"" "$TOP/collect/main.c" | cut -d\" -f2); do
		grep -q -- "--$o" help.txt || { echo "missing --$o"; exit 1; }
	done'
check "the man page documents every long option" sh -c '
	for o in $(grep -o "{ \"[a-z-]*\"" "$TOP/collect/main.c" | cut -d\" -f2); do
		sed "s/\\\\//g" "$TOP/collect/rdma-collect.8" | grep -q -- "--$o" || { echo "missing --$o"; exit 1; }
	done'
check "--list-sources names every source" sh -c '"$RC" --list-sources | grep -q "^sysfs "'
check "--version prints the bundle format" sh -c '"$RC" --version | grep -q "bundle format 1"'
check "no temp file or bundle left by failed runs" sh -c '! ls -a | grep -q "tmp\|rdma.tar.zst"'
check "--version names the commit and the linkage" sh -c \
	'"$RC" --version | grep -Eq "; commit ([0-9a-f]{12}(-dirty)?|unknown), (dynamic|static)\)$" &&
	 "$RA" --version | grep -Eq "; commit ([0-9a-f]{12}(-dirty)?|unknown), (dynamic|static)\)$"'
