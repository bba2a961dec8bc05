# readonly: rdma-collect under strace, proof that it only reads.  Every
# fixture node (with --sample, --fabric, --redact and an attachment) and
# the live machine as root (with --commands over fake allowlisted tools and
# --pid); the trace, one file per process (strace -ff -y: descriptors
# annotated with their paths), is checked here:
#   - no open for writing, and no rename/unlink/mkdir/chmod/link/truncate,
#     outside the output folder (/dev/null excepted: the commands' stdin);
#   - no write to a descriptor on /sys, /proc or /dev;
#   - no init_module, finit_module, delete_module, no mount;
#   - no open of a PCI resource*, rom or vpd file;
#   - no execve but the collector itself and, with --commands, the
#     allowlisted programs in --command-path.
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
		-e trace=%file,%desc,%process,mount,umount2,init_module,finit_module,delete_module \
		"$RC" -q -o "$o" "$@" >"$n.out" 2>"$n.err"
	RCRC=$?
}

# verify NAME OUT [CMDPATH]: the checks above over the trace; prints what
# it counted
verify() {
	python3 - "$1.tr" "$2" "$RC" "${3:-}" "$ALLOW" <<'PY'
import os, re, sys
tr, out, rc, cmdpath, allow = sys.argv[1:6]
out = os.path.realpath(out)
allow = {os.path.join(cmdpath, a) for a in allow.split()} if cmdpath else set()
WFLAGS = re.compile(r"O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND")
OPEN = re.compile(r'^(open|openat|openat2|creat)\((?:(?:AT_FDCWD|\d+)(?:<([^>]*)>)?, )?"((?:[^"\\]|\\.)*)"(?:, ([A-Z_|0-9]+))?')
MUT = re.compile(r'^(rename|renameat2?|unlink|unlinkat|mkdir|mkdirat|rmdir|link|linkat|symlink|symlinkat|chmod|fchmodat|chown|lchown|fchownat|truncate|mknod|mknodat|utimensat|setxattr|lsetxattr|removexattr)\(')
WRITE = re.compile(r'^(write|pwrite64|writev|pwritev2?|ftruncate|fallocate|sendfile)\(\d+<([^>]*)>')
BAD = re.compile(r"/(resource\d*(_wc)?|rom|vpd)$")
under = lambda p: p == out or p.startswith(out + "/")
v, n, opens, execs = [], 0, 0, []
for f in sorted(os.listdir(tr)):
    for line in open(os.path.join(tr, f), errors="replace"):
        n += 1
        line = line.rstrip("\n")
        m = OPEN.match(line)
        if m:
            opens += 1
            base, path, flags = m.group(2), m.group(3), m.group(4) or ""
            if not path.startswith("/") and base:
                path = os.path.join(base, path)
            path = os.path.normpath(path)
            if BAD.search(path):
                v.append("opened a forbidden file: " + line)
            if WFLAGS.search(flags) and not under(path) and path != "/dev/null":
                v.append("open for writing outside the output: " + line)
            continue
        m = MUT.match(line)
        if m:
            paths = [os.path.normpath(os.path.join(b or "/", p)) for b, p in
                     re.findall(r'(?:(?:AT_FDCWD|\d+)<([^>]*)>, )?"((?:[^"\\]|\\.)*)"', line)]
            if not all(under(p) for p in paths):
                v.append("changed a file outside the output: " + line)
            continue
        m = WRITE.match(line)
        if m and re.match(r"/(sys|proc|dev)/", m.group(2)) and m.group(2) != "/dev/null":
            v.append("wrote to " + m.group(2) + ": " + line)
            continue
        if re.match(r"(init_module|finit_module|delete_module|mount|umount2)\(", line):
            v.append("module or mount call: " + line)
            continue
        m = re.match(r'execve\("([^"]*)"', line)
        if m:
            execs.append(m.group(1))
# the first execve is the collector itself
if not execs or os.path.realpath(execs[0]) != os.path.realpath(rc):
    v.append("the first execve is not the collector: %s" % execs[:1])
for e in execs[1:]:
    if e not in allow:
        v.append("execve outside the allowlist: " + e)
print("%d processes, %d syscalls, %d opens, %d execve (%s)" % (
    len(os.listdir(tr)), n, opens, len(execs),
    " ".join(sorted({os.path.basename(e) for e in execs[1:]})) or "none after the collector"))
for x in v[:15]:
    print("VIOLATION", x[:300])
sys.exit(1 if v else 0)
PY
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
skip "read-only proof: Soft-RoCE VM" "strace is not in the guest image (tests/vm/build-guest.sh's GUEST_BINS, not this test's to change); the fixture and live traces stand for it"
