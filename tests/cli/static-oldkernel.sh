# static-oldkernel: the collector on a kernel as old as 3.10 (RHEL 7),
# where the static build is meant to run: every system call younger than
# 3.10 that it or glibc may make fails with ENOSYS (strace's fault
# injection), and the collector still writes the same bundle.  The calls:
# renameat2 (3.15), getrandom (3.17), memfd_create (3.17), statx (4.11),
# pidfd_open (5.3), clone3 (5.3), openat2 (5.6), faccessat2 (5.8),
# close_range (5.9), copy_file_range (4.5); generous deadlines, so that
# strace's slowing never times a source out.  Runs the dynamic build and
# the static one of this machine's architecture (built into
# $BUILD/static as tests/cli/static.sh builds it).
cd "$T" || exit 1
if ! command -v strace >/dev/null; then
	skip "old kernel" "no strace (tests/install-deps.sh)"
	return 0
fi
NEW=renameat2,getrandom,memfd_create,statx,pidfd_open,clone3,openat2,faccessat2,close_range,copy_file_range
if ! strace -f -qq -e trace=$NEW -e inject=$NEW:error=ENOSYS true 2>/dev/null; then
	skip "old kernel" "this strace cannot inject ENOSYS into $NEW"
	return 0
fi
# LeakSanitizer cannot run under ptrace (a make check build): the leak
# checks are the other tests' job
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
mknode gpu-ndr8 node >/dev/null 2>&1 || fail "old kernel: the fixture node builds"
printf '%064d\n' 0 | tr 0 7 >fixed.key

bins="dynamic:$RC"
# the static collector of this build (tests/cli/static.sh's, made here
# when this test runs first: make is a no-op once it exists)
S=$BUILD/static/rdma-collect-$(uname -m)
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TOP" static \
	STATIC_DIR="$BUILD/static" >"$T/make.log" 2>&1 && [ -x "$S" ]; then
	bins="$bins static:$S"
else
	skip "old kernel: the static collector" "make static failed: $(grep static/deps.sh "$T/make.log" | head -1)"
fi
for nb in $bins; do
	n=${nb%%:*}
	mkdir -p "$n/bin"
	cp "${nb#*:}" "$n/bin/rdma-collect"
	# the same command line both times (the manifest records it)
	run() {	# out-name [strace...]
		o=$1
		shift
		(cd "$n" && rm -f b.rdma.tar.zst b.rdma.tar.zst.key &&
		 SOURCE_DATE_EPOCH=1700000000 "$@" bin/rdma-collect -q --root ../node --deadline 600 --timeout 300 \
			--redact --redact-key ../fixed.key -o b.rdma.tar.zst \
			>"../$n-$o.out" 2>"../$n-$o.err"; rc=$?; mv b.rdma.tar.zst "$o.rdma.tar.zst";
		 exit $rc)
	}
	run new
	check_eq "$n: collects the fixture node" "$?" 0
	run old strace -f -qq -o "$T/$n.trace" -e trace=$NEW -e inject=$NEW:error=ENOSYS
	check_eq "$n: collects it with every call younger than 3.10 failing ENOSYS" "$?" 0
	check "$n: the same bundle, byte for byte" cmp "$n/new.rdma.tar.zst" "$n/old.rdma.tar.zst"
	# not vacuous: the calls were made, and failed
	check "$n: renameat2 was tried and failed (the bundle's placing)" \
		grep -q 'renameat2(.*ENOSYS.*INJECTED' "$T/$n.trace"
	check_eq "$n: nothing on standard error" "$(cat "$n-old.err" 2>/dev/null)" ""

	# a new redaction key comes from getrandom, or /dev/urandom without it
	mkdir -p "$n/k"
	strace -f -qq -o "$T/$n.ktrace" -e trace=$NEW -e inject=$NEW:error=ENOSYS \
		"$n/bin/rdma-collect" -q --root node --redact -o "$n/k" >/dev/null 2>"$n/k.err"
	check_eq "$n: --redact makes its key without getrandom" "$?" 0
	check "$n: ... getrandom was tried and failed" \
		grep -q 'getrandom(.*ENOSYS.*INJECTED' "$T/$n.ktrace"
	check "$n: the key is 64 hex digits beside the bundle" sh -c \
		"grep -Eqx '[0-9a-f]{64}' '$n'/k/*.rdma.tar.zst.key"

	# live, this machine: exits 0 with the same sources ok
	mkdir -p "$n/l1" "$n/l2"
	"$n/bin/rdma-collect" -q -o "$n/l1" >/dev/null 2>&1
	strace -f -qq -o "$T/$n.ltrace" -e trace=$NEW -e inject=$NEW:error=ENOSYS \
		"$n/bin/rdma-collect" -q -o "$n/l2" >/dev/null 2>"$n/l2.err"
	check_eq "$n: a live collection exits 0 with them failing" "$?" 0
	echo "# $n, live: $(grep -o '^[0-9]* [a-z_0-9]*(' "$T/$n.ltrace" | sed 's/^[0-9]* //; s/($//' | sort | uniq -c | tr -s ' ' | tr '\n' ',') failed with ENOSYS"
	st() { tar -xOf "$1"/*.rdma.tar.zst manifest.json 2>/dev/null |
		grep -A1 '"name":' | grep -o '"status": "[a-z]*"' | tr '\n' ' '; }
	check_eq "$n: the live sources end as they do with them" "$(st "$n/l2")" "$(st "$n/l1")"
done
