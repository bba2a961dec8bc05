# lock: a --keep folder takes one collector at a time.  A held
# .rdma-collect.lock (flock from util-linux, or another collector) refuses
# the run at once, before it collects, with one line naming the folder
# and the holder's pid, exit 5, nothing written or removed; a lock file
# nobody holds does not block; a symlink or FIFO in its place is refused
# (exit 3) without being followed or blocking; without --keep nothing
# is locked or created.
cd "$T" || exit 1
mknode rxe rxe >/dev/null 2>&1 || fail "lock: building the fixture node"
if ! command -v flock >/dev/null; then
	skip "lock" "flock (util-linux) is not installed"
	exit 0
fi
now_ms() { date +%s%3N; }
L=.rdma-collect.lock

# --- a held lock: exit 5 at once, nothing touched ---
mkdir s
"$RC" -q --root "$T/rxe" -o s >/dev/null 2>&1	# one bundle already there
# -o: the lock is flock's own, not its child's, so killing it frees it
flock -o s/$L sleep 60 &
holder=$!
for i in 1 2 3 4 5 6 7 8 9 10; do
	grep -q "FLOCK.* $holder " /proc/locks && break
	sleep 0.2
done
ls -A s >s.before
t0=$(now_ms)
"$RC" -q --root "$T/rxe" --sample 30 --keep 1 -o s >held.out 2>held.err
rc=$?
ms=$(($(now_ms) - t0))
echo "# refused in $ms ms"
check_eq "held lock: exit 5" "$rc" 5
check_eq "held lock: one line naming the folder and the holder's pid" \
	"$(cat held.err)" "rdma-collect: another rdma-collect is writing into s (pid $holder)"
check "held lock: refused before collecting (--sample 30; $ms ms)" test "$ms" -lt 5000
check_eq "held lock: nothing on stdout" "$(cat held.out)" ""
ls -A s >s.after
check_eq "held lock: the folder is as it was (the old bundle not removed)" \
	"$(cat s.after)" "$(cat s.before)"
"$RC" -q --root "$T/rxe" -o s >/dev/null 2>&1
check_eq "held lock: a run without --keep is not blocked" "$?" 0
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null

# --- a lock file nobody holds does not block; it stays, empty ---
"$RC" -q --root "$T/rxe" --keep 1 -o s >stale.out 2>stale.err
check_eq "stale lock file: exit 0" "$?" 0
check "stale lock file: an empty regular file left in place" \
	sh -c "test -f s/$L && ! test -L s/$L && ! test -s s/$L"
check_eq "stale lock file: --keep 1 left one bundle" \
	"$(ls s | grep -c '\.rdma\.tar\.zst$')" 1

# --- two collectors: the second is refused while the first runs, with the
# first's pid; the first finishes its bundle ---
mkdir c
"$RC" -q --root "$T/rxe" --sample 3 --keep 2 -o c >first.out 2>first.err &
first=$!
for i in 1 2 3 4 5 6 7 8 9 10; do
	grep -q "FLOCK.* $first " /proc/locks && break
	sleep 0.2
done
"$RC" -q --root "$T/rxe" --keep 2 -o c >second.out 2>second.err
check_eq "second collector: exit 5" "$?" 5
check_eq "second collector: names the first's pid" \
	"$(cat second.err)" "rdma-collect: another rdma-collect is writing into c (pid $first)"
wait "$first"
check_eq "first collector: exit 0" "$?" 0
check_eq "first collector: its bundle" "$(ls c | grep -c '\.rdma\.tar\.zst$')" 1
ino=$(stat -c %i c/$L)
check "first collector: once it ends, nothing holds the lock" \
	sh -c "! awk '{ print \$6 }' /proc/locks | grep -q ':$ino\$'"
"$RC" -q --root "$T/rxe" --keep 2 -o c >third.out 2>third.err
check_eq "after the first: a new run takes the lock" "$?" 0

# --- no lock without --keep ---
mkdir n
"$RC" -q --root "$T/rxe" -o n >/dev/null 2>&1
check_eq "without --keep: the bundle and nothing else" \
	"$(ls -A n | grep -vc '\.rdma\.tar\.zst$')" 0

# --- a symlink, a FIFO, a folder where the lock goes: exit 3 ---
mkdir y f d
ln -s "$T/victim" y/$L
mkfifo f/$L
mkdir d/$L
for k in y f d; do
	timeout 20 "$RC" -q --root "$T/rxe" --keep 1 -o $k >$k.out 2>$k.err
	rc=$?
	check_eq "lock path not a file ($k): exit 3" "$rc" 3
	check "lock path not a file ($k): one line naming it" \
		sh -c "[ \$(grep -c . $k.err) -eq 1 ] && grep -q '^rdma-collect: cannot lock .$k/$L' $k.err"
	check_eq "lock path not a file ($k): no bundle" \
		"$(ls -A $k | grep -c '\.rdma\.tar\.zst')" 0
done
check "the symlink's target was not created" test ! -e "$T/victim"

# --- a folder that does not exist: exit 3, as without --keep ---
"$RC" -q --root "$T/rxe" --keep 1 -o "$T/nope" >/dev/null 2>nope.err
check_eq "missing folder: exit 3" "$?" 3
check "missing folder: said so" grep -q "output folder .*nope' does not exist" nope.err
