# diskfull: the bundle cannot be written -- an output folder the user may
# not write (as nobody), a read-only mount (root ignores modes), a full
# file system, one that fills up in the middle of the write, the same with
# --redact (the new key file beside the bundle) -- each gives exit 3 (the
# documented "the bundle could not be written"), one line naming the
# reason, and leaves nothing behind: no bundle, no .tmp file, no key.
# A --keep spool that is full, or fills up, keeps every bundle it had.
cd "$T" || exit 1
mknode rxe rxe >/dev/null 2>&1 && mknode gpu-ndr8 gpu >/dev/null 2>&1 ||
	fail "diskfull: building the fixture nodes"

# run NAME OUTDIR [args]: collect the rxe node into OUTDIR; sets RCRC
run() {
	n=$1 o=$2
	shift 2
	"$RC" -q --root "$T/rxe" -o "$o" "$@" >"$n.out" 2>"$n.err"
	RCRC=$?
}
# expect NAME OUTDIR REASON: exit 3, one stderr line with REASON, OUTDIR
# left as it was (listing in NAME.before)
expect() {
	check_eq "$1: exit 3" "$RCRC" 3
	check "$1: one line naming the reason ($3)" \
		sh -c "[ \$(grep -c . '$1.err') -eq 1 ] && grep -q '^rdma-collect: .*$3' '$1.err'"
	sed 's/^/#   /' "$1.err"
	check_eq "$1: nothing left behind" "$(ls -A "$2")" "$(cat "$1.before" 2>/dev/null)"
	check_eq "$1: nothing on stdout" "$(cat "$1.out")" ""
}

# --- a folder nobody may write, as nobody ---
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	d=$(mktemp -d /tmp/rdma-diskfull.XXXXXX)
	chmod 755 "$d"
	cp "$RC" "$d/rdma-collect"
	cp -a "$T/rxe" "$d/root"
	chmod -R a+rX "$d/root"
	mkdir -m 0555 "$d/out"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$d/rdma-collect" -q --root "$d/root" -o "$d/out" >nobody.out 2>nobody.err
	RCRC=$?
	: >nobody.before
	expect nobody "$d/out" 'Permission denied'
	rm -rf "$d"
else
	skip "diskfull: unwritable folder" "needs root (to run as nobody) and setpriv"
fi

if [ "$(id -u)" -ne 0 ]; then
	skip "diskfull: mounts" "not root: no read-only bind mount or small tmpfs"
	exit 0
fi
MNTS=
cleanup() { for m in $MNTS; do umount "$m" 2>/dev/null; done; }
trap cleanup EXIT
# tmpfs DIR SIZE: a small file system at DIR
tmpfs() {
	mkdir -p "$1" && mount -t tmpfs -o "size=$2,mode=0755" tmpfs "$1" &&
		MNTS="$1 $MNTS"
}

# --- a read-only mount (root writes through modes) ---
mkdir ro
if mount --bind ro ro 2>/dev/null && MNTS="$T/ro $MNTS" &&
	mount -o remount,bind,ro ro 2>/dev/null; then
	: >ro.before
	run ro "$T/ro"
	expect ro "$T/ro" 'Read-only file system'
else
	skip "diskfull: read-only folder" "mount --bind / remount,ro not allowed here"
fi

if ! tmpfs full 64k 2>mount.err; then
	skip "diskfull: full file systems" "cannot mount a tmpfs: $(head -1 mount.err)"
	exit 0
fi

# --- a file system already full ---
dd if=/dev/zero of=full/filler bs=4k 2>/dev/null
ls -A full >full.before
run full "$T/full"
expect full "$T/full" 'No space left on device'

# --- full in the middle of the write: the 8-HCA node's bundle is larger
# than the 32 KiB free ---
"$RC" -q --root "$T/gpu" -o "$T/gpu.rdma.tar.zst" >/dev/null 2>&1
size=$(stat -c %s gpu.rdma.tar.zst 2>/dev/null || echo 0)
echo "# the gpu-ndr8 bundle: $size bytes, into 32 KiB"
check "mid-write: the bundle is larger than the file system" test "$size" -gt 32768
tmpfs mid 32k
: >mid.before
"$RC" -q --root "$T/gpu" -o "$T/mid" >mid.out 2>mid.err
RCRC=$?
expect mid "$T/mid" 'No space left on device'
check "mid-write: the write had started (the message names the .tmp file)" \
	grep -q "mid/\..*\.tmp\." mid.err
check_eq "mid-write: the file system is empty again" \
	"$(df --output=used -k "$T/mid" | tail -1 | tr -d ' ')" 0

# --- the same with --redact: the new key beside the bundle goes too ---
tmpfs mid2 32k
: >mid2.before
"$RC" -q --root "$T/gpu" --redact -o "$T/mid2" >mid2.out 2>mid2.err
RCRC=$?
expect mid2 "$T/mid2" 'No space left on device'

# --- and a file system with room: the same run works (the test can tell) ---
tmpfs room 4m
"$RC" -q --root "$T/gpu" -o "$T/room" >room.out 2>room.err
check_eq "with room: exit 0" "$?" 0
check "with room: the bundle and nothing else" \
	sh -c "[ \$(ls -A '$T/room' | wc -l) -eq 1 ] && ls '$T/room' | grep -q '\.rdma\.tar\.zst$'"

# --- a --keep spool on a full disk loses no bundle: the new one fails
# (exit 3, its temp file gone) and the retention never runs; the same
# when the disk fills in the middle of the new bundle.  The bundles there
# are the same host's, so --keep 1 would remove them all ---
tmpfs spool 512k
for i in 0 1 2; do
	SOURCE_DATE_EPOCH=$((1000000000 + i * 86400)) "$RC" -q --root "$T/gpu" \
		--keep 5 -o "$T/spool" >/dev/null 2>&1
done
check_eq "spool: three bundles of the node to lose" \
	"$(ls spool | grep -c '^dgx-h100-07-.*\.rdma\.tar\.zst$')" 3
(cd spool && sha256sum -- *.rdma.tar.zst) >spool.sums
dd if=/dev/zero of=spool/filler bs=4k 2>/dev/null
ls -A spool >spool.before
"$RC" -q --root "$T/gpu" --keep 1 -o "$T/spool" >spool.out 2>spool.err
RCRC=$?
expect spool "$T/spool" 'No space left on device'
check "spool, full: every bundle byte-identical" \
	sh -c "cd '$T/spool' && sha256sum -c --quiet '$T/spool.sums'"
# the filler less 32 KiB: room for part of the new bundle, not all of it
rm spool/filler
free=$(df --output=avail -k "$T/spool" | tail -1 | tr -d ' ')
dd if=/dev/zero of=spool/filler bs=1k count=$((free - 32)) 2>/dev/null
ls -A spool >spool2.before
"$RC" -q --root "$T/gpu" --keep 1 -o "$T/spool" >spool2.out 2>spool2.err
RCRC=$?
expect spool2 "$T/spool" 'No space left on device'
check "spool, mid-write: the write had started" grep -q "spool/\..*\.tmp\." spool2.err
check "spool, mid-write: every bundle byte-identical" \
	sh -c "cd '$T/spool' && sha256sum -c --quiet '$T/spool.sums'"
# with room again the same run works, and only then are the others gone
rm spool/filler
"$RC" -q --root "$T/gpu" --keep 1 -o "$T/spool" >/dev/null 2>&1
check_eq "spool with room: exit 0" "$?" 0
check_eq "spool with room: --keep 1 leaves the new bundle alone" \
	"$(ls spool | grep -c '\.rdma\.tar\.zst$')" 1
