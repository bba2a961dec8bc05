# readonly: rdma-collect under strace, proof that it only reads.  Every
# fixture node (with --sample, --fabric, --redact and an attachment) and
# the live machine as root (with --commands over fake allowlisted tools and
# --pid); the trace, one file per process (strace -ff -y: descriptors
# annotated with their paths), is checked by tests/tools/readonly-check.py:
#   - no open for writing, and no rename/unlink/mkdir/chmod/link/truncate,
#     outside the output folder (/dev/null excepted: the commands' stdin);
#   - no write to a descriptor on /sys, /proc or /dev;
#   - no init_module, finit_module, delete_module, no mount;
#   - no open of a PCI resource*, rom or vpd file;
#   - no execve but the collector itself and, with --commands, the
#     allowlisted programs in --command-path;
#   - no netlink request but a query, no socket ioctl but a get.
if ! command -v strace >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
	skip "read-only proof" "strace or python3 is missing (tests/install-deps.sh)"
	exit 0
fi
cd "$T" || exit 1
# LeakSanitizer needs ptrace, which strace holds
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
ALLOW="ofed_info mst ibdev2netdev rdma lldpcli nvidia-smi mlxlink mlxconfig mlxfwmanager"

# traced NAME OUT args...: the collector under strace into folder OUT;
# sets RCRC and the trace folder NAME.tr
traced() {
	n=$1 o=$2
	shift 2
	mkdir -p "$o" "$n.tr"
	strace -ff -y -s 256 -qq -o "$n.tr/t" \
		-e trace=%file,%desc,%network,%process,mount,umount2,init_module,finit_module,delete_module \
		"$RC" -q -o "$o" "$@" >"$n.out" 2>"$n.err"
	RCRC=$?
}

# verify NAME OUT [CMDPATH]: tests/tools/readonly-check.py over the trace;
# prints what it counted
verify() {
	if [ -n "${3:-}" ]; then
		python3 "$TOP/tests/tools/readonly-check.py" --command-path "$3" \
			--allow "$ALLOW" "$1.tr" "$2" "$RC"
	else
		python3 "$TOP/tests/tools/readonly-check.py" "$1.tr" "$2" "$RC"
	fi
}

# prove OUT NAME WHAT: a traced run checked; one ok line with the figures
prove() {
	if [ "$RCRC" -ne 0 ]; then
		fail "$2: rdma-collect exit $RCRC under strace"
		sed 's/^/#   /' "$2.err" | head -5
	fi
	if verify "$2" "$1" "${3:-}" >"$2.verify"; then
		ok "$2: only reads: $(head -1 "$2.verify")"
	else
		fail "$2: the trace shows a write, a module call or a forbidden open"
		sed 's/^/#   /' "$2.verify" | head -16
	fi
}

echo hello >"$T/attach.log"
for k in gpu-ndr8 roce-pfc rxe; do
	mknode "$k" "$T/$k" >/dev/null 2>&1 || { fail "mknode $k"; continue; }
	# a resource file beside a config space: it must stay unopened
	for c in $(cd "$T/$k" && find sys/devices -name config | head -3); do
		d=$(dirname "$T/$k/$c")
		printf 'x' >"$d/resource0"; printf 'x' >"$d/rom"; printf 'x' >"$d/vpd"
	done
	fab=
	[ "$k" = gpu-ndr8 ] && fab=--fabric
	traced "$k" "$T/out-$k" --root "$T/$k" --sample 1 --redact \
		--attach "$T/attach.log" --commands $fab
	prove "$T/out-$k" "$k"
done

# the live machine, as root, with --commands over fake tools that print
# and try to write where they must not be able to reach through us
if [ "$(id -u)" -ne 0 ]; then
	skip "read-only proof: live" "not root"
else
	mkdir -p "$T/bin" "$T/ibclass"
	for a in $ALLOW; do
		printf '#!/bin/sh\necho "%s $*"\n' "$a" >"$T/bin/$a"
		chmod +x "$T/bin/$a"
	done
	sleep 30 &
	spid=$!
	traced live "$T/out-live" --commands \
		--command-path "$T/bin" --pid "$spid" --sample 1 \
		--attach "$T/attach.log"
	kill "$spid" 2>/dev/null
	prove "$T/out-live" live "$T/bin"
	check "live: the fake commands ran (their execve is in the trace)" \
		grep -q "ofed_info" live.verify
fi

# one rule broken on purpose: a traced writer outside the output folder is
# caught (the check can fail)
mkdir -p "$T/out-neg" neg.tr
strace -ff -y -qq -o neg.tr/t -e trace=%file,%desc,%process \
	sh -c "exec '$RC' --version >'$T/outside'" >/dev/null 2>&1
if verify neg "$T/out-neg" >neg.verify; then
	fail "a write outside the output folder goes unnoticed"
else
	check "the checker catches a write outside the output folder" \
		grep -q 'VIOLATION .*outside' neg.verify
fi

d=$(dirname "$(find "$T/rxe/sys/devices" -name resource0 | head -1)")
mkdir -p neg2.tr
strace -ff -y -qq -o neg2.tr/t -e trace=%file,%desc,%process \
	cat "$d/resource0" >/dev/null 2>&1
verify neg2 "$T/out-neg" >neg2.verify
check "the checker catches an open of a resource file" \
	grep -q 'VIOLATION opened a forbidden file: .*resource0' neg2.verify
# the Soft-RoCE guest's own traced collection, on a real kernel with a real
# RDMA device, is checked by the same tool in tests/cli/vm.sh
