# real: the corpus of outputs real tools printed on real nodes (tests/real,
# each case with its SOURCE and an EXPECT written from the evidence before
# the tool ran): every case through rdma-analyze (or rdma-collect --root
# for the sysfs trees), its expectation held to the JSON report.  A case
# in tests/real/KNOWN-GAPS that fails is a skip naming the gap; one that
# passes there, or fails unlisted, is a failure.
cd "$T" || exit 1
python3 "$TOP/tests/real/run.py" "$RA" "$RC" >real.out 2>&1
rc=$?
cat real.out
check_eq "the corpus runner ran" "$rc" 0
n=$(ls "$TOP"/tests/real/*/EXPECT | wc -l)
check "at least 80 real cases ($n)" test "$n" -ge 80
check_eq "every case gave one result" \
	"$(grep -c '^\(ok\|not ok\|skip\) - real/' real.out)" "$n"
