# fuzz: every libFuzzer target (tests/fuzz/) built with clang and
# ASan/UBSan, run FUZZ_CI_SECONDS (15) from its committed corpus, and
# every input of tests/fuzz/regress/<target>/ (the crashes found so far)
# replayed once through its target
secs=${FUZZ_CI_SECONDS:-15}
rt=$(ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a \
	2>/dev/null | head -n 1)
if ! command -v clang >/dev/null 2>&1 || [ -z "$rt" ]; then
	skip "fuzz targets" "clang with libFuzzer (libclang-rt-14-dev) is not installed"
	return 0 2>/dev/null || exit 0
fi
fb="$BUILD/fuzz-build"
if ! make -C "$TOP" --no-print-directory FUZZ_BUILD="$fb" fuzz-build \
	>"$T/build.log" 2>&1; then
	fail "fuzz targets build"
	grep -i 'error' "$T/build.log" | head -20 | sed 's/^/#   /'
	return 0 2>/dev/null || exit 0
fi
ok "fuzz targets build"
for src in "$TOP"/tests/fuzz/fuzz-*.c; do
	t=$(basename "$src" .c)
	t=${t#fuzz-}
	bin="$fb/fuzz/fuzz-$t"
	mkdir -p "$T/corpus-$t"
	# the committed corpus is read, never written: new inputs go to $T
	if "$bin" -max_total_time="$secs" -close_fd_mask=3 \
		-artifact_prefix="$T/crash-$t-" "$T/corpus-$t" \
		"$TOP/tests/fuzz/corpus/$t" >"$T/$t.log" 2>&1; then
		ok "fuzz $t: $secs s, $(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$T/$t.log") runs, no crash"
	else
		fail "fuzz $t: a crash in $secs s"
		grep -A12 'ERROR\|runtime error\|deadly signal' "$T/$t.log" |
			head -30 | sed 's/^/#   /'
		ls "$T"/crash-"$t"-* 2>/dev/null | sed 's/^/#   input: /'
	fi
	for f in "$TOP/tests/fuzz/regress/$t"/*; do
		[ -f "$f" ] || continue
		if "$bin" "$f" >"$T/$t.regress.log" 2>&1; then
			ok "fuzz $t: regression input $(basename "$f")"
		else
			fail "fuzz $t: regression input $(basename "$f")"
			grep -A12 'ERROR\|runtime error' "$T/$t.regress.log" |
				head -30 | sed 's/^/#   /'
		fi
	done
done
