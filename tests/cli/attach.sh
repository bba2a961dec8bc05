# The attach source (--attach FILE): bytes unchanged under
# rdma-collect/attach/<basename>, repeated names numbered, the tail kept
# past --max-file, missing and non-regular files reported, and the files
# read from the machine running the collector even under --root.

cd "$T" || exit 1
mkdir -p run1 run1/sub out1 out2 out3 out4 root/proc/sys/kernel \
	root/rdma-collect/attach
printf 'NCCL INFO Bootstrap : Using eth0\nNCCL WARN NET/IB : Got async event\n' \
	>run1/nccl.log
printf 'second\n' >run1/sub/nccl.log
head -c 800 /dev/urandom >run1/bin.dat
printf 'a\000b\377c\n' >>run1/bin.dat
{ seq 1 20000; echo LAST-LINE; } >run1/big.log
mkfifo run1/fifo

attached() { tar --zstd -xOf "$b" "rdma-collect/attach/$1"; }
mpy() {
	manifest "$b" | python3 -c "
import json, sys
m = json.load(sys.stdin)
S = {s['name']: s for s in m['sources']}
a = S['attach']
$1"
}

"$RC" -q --only attach -a run1/nccl.log -a "$T/run1/sub/nccl.log" \
	-a run1/bin.dat -a run1/big.log --max-file 1k -o out1 >out1.txt 2>&1
check_eq "attach: exits 0" "$?" 0
b=$(cat out1.txt)
check_eq "attach: status ok" "$(src_status "$b" attach)" ok
check "attach: bytes unchanged (text)" \
	sh -c "tar --zstd -xOf '$b' rdma-collect/attach/nccl.log | cmp - run1/nccl.log"
check "attach: a repeated basename gets .2" \
	sh -c "tar --zstd -xOf '$b' rdma-collect/attach/nccl.log.2 | cmp - run1/sub/nccl.log"
tail -c 1024 run1/big.log >big.tail
check "attach: the tail is kept past --max-file" \
	sh -c "tar --zstd -xOf '$b' rdma-collect/attach/big.log | cmp - big.tail"
check_eq "attach: capped at --max-file" "$(attached big.log | wc -c)" 1024
check "attach: the capped one is listed as truncated, only it" \
	mpy "assert a['truncated'] == ['rdma-collect/attach/big.log'], a['truncated']"
check "attach: binary bytes unchanged" \
	sh -c "tar --zstd -xOf '$b' rdma-collect/attach/bin.dat | cmp - run1/bin.dat"
check "attach: notes map stored names to the given paths" \
	mpy "assert a['notes']['attach/nccl.log.2'] == '$T/run1/sub/nccl.log', a['notes']"

# missing, a folder, a FIFO (never blocks): partial, each one named
"$RC" -q --only attach -a run1/nccl.log -a run1/missing.log -a run1/sub \
	-a run1/fifo --deadline 10 -o out2 >out2.txt 2>&1
check_eq "bad attachments: exits 0" "$?" 0
b=$(cat out2.txt)
check_eq "bad attachments: status partial" "$(src_status "$b" attach)" partial
check "bad attachments: the reason names each file" \
	mpy "r = a['reason']; assert 'run1/missing.log' in r and 'No such file' in r and 'run1/sub' in r and 'run1/fifo' in r and 'not a regular file' in r, r"
check_eq "bad attachments: the good one is stored" "$(attached nccl.log | head -1)" \
	"NCCL INFO Bootstrap : Using eth0"

# nothing to attach
"$RC" -q --only attach -o out3 >out3.txt 2>&1
b=$(cat out3.txt)
check_eq "no --attach: absent" "$(src_status "$b" attach)" absent
check "no --attach: the reason says how" \
	mpy "assert a['reason'] == 'nothing to attach (--attach FILE)', a['reason']"

# --root: the file comes from this machine, not from the root; the root's
# own attachments (an unpacked bundle) are kept and named around
echo rootnode >root/proc/sys/kernel/hostname
mkdir -p "root$T/run1"
echo "the root's copy" >"root$T/run1/nccl.log"
echo "stored before" >root/rdma-collect/attach/nccl.log
"$RC" -q --root root --only attach -a "$T/run1/nccl.log" -o out4 \
	>out4.txt 2>&1
b=$(cat out4.txt)
check_eq "--root: status ok" "$(src_status "$b" attach)" ok
check_eq "--root: the root's stored attachment is kept" \
	"$(attached nccl.log)" "stored before"
check "--root: the new one is read from this machine, named .2" \
	sh -c "tar --zstd -xOf '$b' rdma-collect/attach/nccl.log.2 | cmp - run1/nccl.log"
