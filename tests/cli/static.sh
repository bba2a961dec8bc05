# static: `make static` and `make static ARCH=aarch64` (the collector with
# no shared library at all, for any node), built here into $BUILD/static
# from a fresh start like a fresh clone would:
#   - no program interpreter, no NEEDED entry (readelf), --version says
#     static and the rdma-core linked in;
#   - the bundle of every fixture node is byte for byte the dynamic
#     collector's (same command line, SOURCE_DATE_EPOCH), for both
#     architectures, aarch64 under qemu-user;
#   - the --root tests (fixture trees and their goldens, links out of the
#     root, the views of what was collected) pass again with each static binary in
#     place of the dynamic one, aarch64 under qemu-user;
#   - a live collection of this machine with the x86_64 binary opens no
#     shared object (strace) and names rdma-core as linked in.
# The source packages static/deps.sh needs are downloaded from this
# machine's Debian archive (apt); without it the builds are skipped.
cd "$T" || exit 1
S=$BUILD/static
host=$(uname -m)
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TOP" static \
		STATIC_DIR="$S" "$@"
}

archs=
for a in x86_64 aarch64; do
	[ "$a" = "$host" ] || [ "$host" = x86_64 ] || continue
	t0=$(date +%s)
	if mk ARCH=$a >"$T/make-$a.log" 2>&1; then
		ok "make static ARCH=$a ($(($(date +%s) - t0)) s, $(stat -c %s "$S/rdma-collect-$a") bytes)"
		archs="$archs $a"
	elif grep -q 'cannot download\|no .* source package' "$T/make-$a.log"; then
		skip "make static ARCH=$a" "$(grep static/deps.sh "$T/make-$a.log" | head -1)"
	else
		fail "make static ARCH=$a"
		tail -n 15 "$T/make-$a.log" | sed 's/^/#   /'
	fi
done
[ -n "$archs" ] || return 0

# how each binary runs here: natively, or under qemu-user
runner() {
	case $1 in
	"$host") echo "" ;;
	aarch64) command -v qemu-aarch64-static || command -v qemu-aarch64 ;;
	esac
}

for a in $archs; do
	f=$S/rdma-collect-$a
	check "$a: no program interpreter (statically linked)" \
		sh -c "! readelf -lW '$f' | grep -q 'INTERP'"
	check "$a: no shared library needed" \
		sh -c "! readelf -dW '$f' 2>/dev/null | grep -q NEEDED"
	check "$a: the machine is $a" sh -c \
		"readelf -hW '$f' | grep -q '$( [ $a = aarch64 ] && echo AArch64 || echo X86-64)'"
	q=$(runner "$a")
	if [ "$a" != "$host" ] && [ -z "$q" ]; then
		skip "$a: runs" "no qemu-aarch64-static (tests/install-deps.sh)"
		continue
	fi
	v=$($q "$f" --version 2>&1)
	check "$a: --version says static and the rdma-core in it ($v)" sh -c \
		"echo '$v' | grep -Eq '^rdma-collect [0-9.]+ .*, static, rdma-core [0-9]'"

	# one command line for both builds: the manifest records it
	for k in gpu-ndr8 roce-pfc rxe; do
		[ -d "$T/$k" ] || mknode "$k" "$T/$k" >/dev/null 2>&1
		for b in dyn "$a"; do
			mkdir -p "$T/run-$b/bin"
			if [ $b = dyn ]; then
				cp "$RC" "$T/run-$b/bin/rdma-collect"
				r=
			else
				cp "$f" "$T/run-$b/bin/rdma-collect"
				r=$q
			fi
			(cd "$T/run-$b" && rm -f out.rdma.tar.zst &&
			 SOURCE_DATE_EPOCH=1700000000 $r bin/rdma-collect -q \
				--root "../$k" -o out.rdma.tar.zst &&
			 mv out.rdma.tar.zst "$k.rdma.tar.zst") >/dev/null 2>&1
		done
		check "$a: the $k bundle is the dynamic build's, byte for byte" \
			cmp "$T/run-dyn/$k.rdma.tar.zst" "$T/run-$a/$k.rdma.tar.zst"
	done

	# the --root tests again, with this binary as the collector
	# (argv[0] is the name the test runs: the manifest records it)
	if [ -z "$q" ]; then
		ln -sf "$f" "$T/rc-$a"
	else
		printf '#!/bin/sh\nexec %s -0 "$0" "%s" "$@"\n' "$q" "$f" >"$T/rc-$a"
		chmod +x "$T/rc-$a"
	fi
	for t in roundtrip root-links views-pci views-klog views-rdma netdev \
		 rules-inventory names; do
		[ -f "$TOP/tests/cli/$t.sh" ] || { fail "$a: no test $t"; continue; }
		mkdir -p "$T/t-$a-$t"
		t0=$(date +%s)
		rc=$T/rc-$a
		T="$T/t-$a-$t" RC=$rc sh -c \
			'cd "$T" && . "$TOP/tests/lib.sh" && . "$1"' sh \
			"$TOP/tests/cli/$t.sh" >"$T/t-$a-$t.log" 2>&1
		n=$(grep -c '^ok - ' "$T/t-$a-$t.log")
		s=$(($(date +%s) - t0))
		if grep -q '^not ok - ' "$T/t-$a-$t.log" || [ "$n" -eq 0 ]; then
			fail "$a: $t passes with the static collector ($n ok, $s s)"
			grep -A3 '^not ok - ' "$T/t-$a-$t.log" | head -20 | sed 's/^/#   /'
		else
			ok "$a: $t passes with the static collector ($n checks, $s s)"
		fi
		rm -rf "$T/t-$a-$t"
	done
done

# live, on this machine: no shared object opened, rdma-core linked in
f=$S/rdma-collect-$host
if ! command -v strace >/dev/null; then
	skip "live static collection" "no strace"
elif [ -x "$f" ]; then
	mkdir -p "$T/live"
	strace -f -qq -e trace=open,openat,openat2,execve -o "$T/live.trace" \
		"$f" -q -o "$T/live" >/dev/null 2>"$T/live.err"
	check_eq "live: the static collector exits 0" "$?" 0
	check "live: no shared object opened or program run" sh -c \
		"! grep -E '\\.so([.\"]|$)' '$T/live.trace' &&
		 [ \$(grep -c 'execve(' '$T/live.trace') -eq 1 ]"
	b=$(ls "$T/live"/*.rdma.tar.zst 2>/dev/null | head -1)
	tar -xOf "$b" manifest.json >"$T/live.manifest" 2>/dev/null
	check "live: the manifest names libibumad as linked in" \
		grep -q 'libibumad.so.3, linked in (rdma-core ' "$T/live.manifest"
fi
