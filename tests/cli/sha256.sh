# SHA-256 both ways: the unit test's digests (FIPS vectors, a million 'a',
# a chain over 1,018 lengths against Python hashlib) with the CPU's SHA
# instructions when it has them, and again with the software rounds
out=$(RDMA_SHA256_SOFTWARE=1 "$BUILD/tests/test-redact" 2>/dev/null | grep 'SHA-256')
check "software rounds: every SHA-256 vector" sh -c "! printf '%s\n' \"\$1\" | grep -q '^not ok'" sh "$out"
check "software rounds were the ones used" sh -c "printf '%s\n' \"\$1\" | grep -q '1,018 lengths, software rounds'" sh "$out"
out=$("$BUILD/tests/test-redact" 2>/dev/null | grep 'SHA-256')
check "default rounds: every SHA-256 vector" sh -c "! printf '%s\n' \"\$1\" | grep -q '^not ok'" sh "$out"
if grep -qw sha_ni /proc/cpuinfo 2>/dev/null; then
	check "a CPU with SHA-NI uses it" sh -c "printf '%s\n' \"\$1\" | grep -q 'SHA-NI rounds'" sh "$out"
else
	skip "a CPU with SHA-NI uses it" "this CPU has no sha_ni flag"
fi
