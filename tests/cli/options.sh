# rdma-analyze's command line, command by command: standard output checked
# once after the command (a full disk is exit 4 and one line).
cd "$T" || exit 1
cp "$TOP/samples/rxe-vm1-20251129T210405Z.rdma.tar.zst" rxe.rdma.tar.zst
S=rxe.rdma.tar.zst

# --- standard output: every command that prints, to a full disk ---
if [ -c /dev/full ]; then
	for args in "report $S" "report -f json $S" "rules" "rules --json" \
	    "show --list" "show $S ibstat" "list $S" "diff $S $S" \
	    "diff --json $S $S" "--help" "--version" "pairs --help"; do
		# shellcheck disable=SC2086
		"$RA" $args >/dev/full 2>err
		rc=$?
		if [ "$rc" = 4 ] && [ "$(wc -l <err)" = 1 ] &&
		    grep -q '^rdma-analyze: cannot write to standard output' err; then
			ok "$args to a full disk: exit 4, one line"
		else
			fail "$args to a full disk: exit 4, one line (exit $rc)"
			sed 's/^/#   /' err | head -5
		fi
	done
else
	skip "output to a full disk" "no /dev/full"
fi
