# Views of the host layer: `ulimit` (as `ulimit -l` prints it: KiB or
# "unlimited") and `limits` (the "Max locked memory" row of every process
# collected, in the /proc/PID/limits layout "%-25s %-20s %-20s %-10s\n"
# of fs/proc/base.c, trailing spaces included).  Expected outputs are
# written by hand from those formats.

mknode gpu-ndr8 "$T/gpu" >/dev/null 2>&1 || fail "gpu-ndr8 fixture builds"
mknode rxe "$T/rxe" >/dev/null 2>&1 || fail "rxe fixture builds"

check_eq "ulimit: gpu-ndr8 collector memlock unlimited" \
	"$("$RC" -q --root "$T/gpu" -o "$T/g.rdma.tar.zst" >/dev/null 2>&1; "$RA" show "$T/g.rdma.tar.zst" ulimit)" "unlimited"
"$RC" -q --root "$T/rxe" -o "$T/r.rdma.tar.zst" >/dev/null 2>&1
check_eq "ulimit: rxe 8388608 bytes is 8192 KiB" \
	"$("$RA" show "$T/r.rdma.tar.zst" ulimit)" "8192"
check_eq "ulimit -l: the same" "$("$RA" show "$T/r.rdma.tar.zst" ulimit -l)" "8192"
check_eq "ulimit -Hl: the hard limit" "$("$RA" show "$T/r.rdma.tar.zst" ulimit -Hl)" "8192"
check "ulimit -a: refused (only locked memory is collected)" sh -c \
	"! '$RA' show '$T/r.rdma.tar.zst' ulimit -a 2>/dev/null"

# limits: the collector (self.json) of rxe
{
	echo '==> collector (pid 211, euid 0) <=='
	echo 'Limit                     Soft Limit           Hard Limit           Units     '
	echo 'Max locked memory         8388608              8388608              bytes     '
} >"$T/want-rxe"
"$RA" show "$T/r.rdma.tar.zst" limits >"$T/got-rxe" 2>&1
check "limits: rxe collector row, byte for byte (trailing spaces)" cmp "$T/got-rxe" "$T/want-rxe"

# a --pid process whose limits file lacks the trailing spaces (procfs's
# ttar fixtures strip them): the view prints the kernel's layout again
mkdir -p "$T/gpu/proc/31337"
{
	echo 'Limit                     Soft Limit           Hard Limit           Units'
	echo 'Max open files            1048576              1048576              files'
	echo 'Max locked memory         65536                65536                bytes'
} >"$T/gpu/proc/31337/limits"
echo trainer >"$T/gpu/proc/31337/comm"
"$RC" -q --root "$T/gpu" --pid 31337 -o "$T/p.rdma.tar.zst" >/dev/null 2>&1
{
	echo '==> collector (pid 40213, euid 0) <=='
	echo 'Limit                     Soft Limit           Hard Limit           Units     '
	echo 'Max locked memory         unlimited            unlimited            bytes     '
	echo ''
	echo '==> pid 31337 (trainer) <=='
	echo 'Limit                     Soft Limit           Hard Limit           Units     '
	echo 'Max locked memory         65536                65536                bytes     '
} >"$T/want-pid"
"$RA" show "$T/p.rdma.tar.zst" limits >"$T/got-pid" 2>&1
check "limits: collector and --pid process, kernel layout restored" cmp "$T/got-pid" "$T/want-pid"
if ! cmp -s "$T/got-pid" "$T/want-pid"; then
	diff "$T/got-pid" "$T/want-pid" | sed 's/^/#   /' | head
fi

# no limits evidence: an error, not an empty view
rm -rf "$T/gpu/rdma-collect/limits" "$T/gpu/proc/31337"
"$RC" -q --root "$T/gpu" --skip limits -o "$T/n.rdma.tar.zst" >/dev/null 2>&1
check "ulimit: without limits evidence it fails with a message" sh -c \
	"! '$RA' show '$T/n.rdma.tar.zst' ulimit 2>'$T/err' && grep -q 'limits' '$T/err'"
check "limits: without limits evidence it fails with a message" sh -c \
	"! '$RA' show '$T/n.rdma.tar.zst' limits 2>/dev/null"
