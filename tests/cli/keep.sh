# keep: --keep N and --keep Nd make the output folder a node's history.
# The oldest of this host's bundles go only after the new one is in place
# (an interrupted run removes nothing); the order is the UTC time in the
# names; other hosts' bundles, files that only look like bundles,
# folders, symlinks and what they point to are never touched; a bundle's
# .key goes with it; a removal that fails is a warning, not a failed run.
cd "$T" || exit 1
mknode rxe rxe >/dev/null 2>&1 || fail "keep: building the fixture node"
DAY=86400
E0=1000000000	# 2001-09-09T01:46:40Z

# at EPOCH DIR [args]: collect the node into DIR as if at EPOCH; the
# bundle's path in $B, the exit status in $RCRC, stderr in at.err
at() {
	e=$1 d=$2
	shift 2
	B=$(SOURCE_DATE_EPOCH=$e "$RC" -q --root "$T/rxe" -o "$d" "$@" 2>at.err)
	RCRC=$?
}
# sums DIR: every entry's name and type, and each regular file's sha256
# (but the lock file, tests/cli/lock.sh's)
sums() {
	(cd "$1" && for f in $(ls -A | grep -vx '\.rdma-collect\.lock'); do
		if [ -L "$f" ]; then echo "$f -> $(readlink "$f")"
		elif [ -d "$f" ]; then echo "$f/"
		else echo "$f $(sha256sum <"$f" | cut -c1-16)"; fi
	done)
}

# --- a spool of five days of this host, and everything else ---
mkdir s
for i in 0 1 2 3 4; do
	at $((E0 + i * DAY)) s
done
H=$(basename "$B" | sed 's/-[0-9]\{8\}T[0-9]\{6\}Z\.rdma\.tar\.zst$//')
echo "# host in the names: $H"
check_eq "five bundles" "$(ls s | grep -c '\.rdma\.tar\.zst$')" 5
OLD=$H-20010909T014640Z.rdma.tar.zst	# the oldest, E0
echo secret >"s/$OLD.key"
echo secret >"s/$H-20010913T014640Z.rdma.tar.zst.key"
echo outside >outside.rdma.tar.zst
for f in other-20010101T000000Z.rdma.tar.zst \
	"$H-x-20010101T000000Z.rdma.tar.zst" \
	"$H-20010101T000000Z.rdma.tar.zst.bak" \
	"$H-20011399T000000Z.rdma.tar.zst" \
	"$H-20010101T000000Z-1.rdma.tar.zst" \
	"$H-20010101T000000Z-02.rdma.tar.zst" \
	"$H-20010101T000000Z.rdma.tar.zst.key" \
	".$H-20010101T000000Z.rdma.tar.zst.tmp.AbCdEf" notes.txt; do
	echo keep-me >"s/$f"
done
ln -s ../outside.rdma.tar.zst "s/$H-20010102T000000Z.rdma.tar.zst"
ln -s /nonexistent "s/$H-20010103T000000Z.rdma.tar.zst"
mkdir "s/$H-20010104T000000Z.rdma.tar.zst"
echo inside >"s/$H-20010104T000000Z.rdma.tar.zst/f"
sums s >before
NOTMINE=$(ls -A s | grep -v "^$H-2001091[0-3]T014640Z\.rdma\.tar\.zst\(\.key\)\?$" | grep -vx "$OLD" | grep -vx "$OLD.key")

# --- an interrupted run removes nothing ---
SOURCE_DATE_EPOCH=$((E0 + 5 * DAY)) "$RC" -q --root "$T/rxe" --sample 30 \
	--keep 1 -o s >/dev/null 2>int.err &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
check_eq "interrupted --keep 1: exit 4" "$?" 4
sums s >after
check_eq "interrupted --keep 1: the folder is as it was" "$(cat after)" "$(cat before)"

# --- --keep 3: the new bundle and the two newest before it stay ---
B=$(SOURCE_DATE_EPOCH=$((E0 + 5 * DAY)) "$RC" -v --root "$T/rxe" --keep 3 \
	-o s 2>k3.err)
check_eq "--keep 3: exit 0" "$?" 0
grep '^rdma-collect: removed' k3.err | sed 's/^/#   /'
check_eq "--keep 3: this host's bundles left, newest first" \
	"$(ls -r s | grep "^$H-200109[0-9][0-9]T014640Z\.rdma\.tar\.zst$")" \
	"$(printf '%s\n' "$H-20010914T014640Z.rdma.tar.zst" \
		"$H-20010913T014640Z.rdma.tar.zst" \
		"$H-20010912T014640Z.rdma.tar.zst")"
check_eq "--keep 3: the new bundle is the one printed" "$B" \
	"s/$H-20010914T014640Z.rdma.tar.zst"
check_eq "--keep 3: -v says each removal (3)" \
	"$(grep -c "^rdma-collect: removed s/$H-200109[0-9][0-9]T014640Z\.rdma\.tar\.zst (--keep 3)$" k3.err)" 3
check "--keep 3: the oldest bundle's .key went with it" \
	sh -c "! test -e 's/$OLD.key' && grep -q '^rdma-collect: removed s/$OLD.key$' k3.err"
check "--keep 3: a kept bundle's .key stays" \
	test -f "s/$H-20010913T014640Z.rdma.tar.zst.key"
sums s >after
check_eq "--keep 3: the kept bundles are byte-identical" \
	"$(grep "^$H-2001091[23]T" after)" "$(grep "^$H-2001091[23]T" before)"
for f in $NOTMINE; do
	grep -F -x "$(grep -F "$f" before | head -1)" after >/dev/null ||
		echo "$f" >>touched
done
check_eq "--keep 3: nothing else touched (other hosts, look-alikes, symlinks, folder, temp, notes)" \
	"$(cat touched 2>/dev/null)" ""
check_eq "--keep 3: the symlink's target is untouched" "$(cat outside.rdma.tar.zst)" outside
check "--keep 3: the symlinks are still there" \
	sh -c "test -L 's/$H-20010102T000000Z.rdma.tar.zst' && test -L 's/$H-20010103T000000Z.rdma.tar.zst'"
check_eq "--keep 3: nothing on stderr but -v lines" \
	"$(grep -v '^rdma-collect: \(removed\|wrote\|[a-z]*: \)' k3.err)" ""

# --- the same second twice: the -2 name is the newer ---
at $((E0 + 5 * DAY)) s --keep 1
check_eq "same second: the new bundle is named -2" "$B" \
	"s/$H-20010914T014640Z-2.rdma.tar.zst"
check_eq "same second, --keep 1: only it is left of this host's" \
	"$(ls s | grep "^$H-200109[0-9][0-9]T014640Z\(-[0-9]*\)\?\.rdma\.tar\.zst$")" \
	"$H-20010914T014640Z-2.rdma.tar.zst"

# --- --keep Nd: by the time in the names, from the new bundle's time ---
mkdir d
for i in 0 1 2 3; do
	at $((E0 + i * DAY)) d
done
touch -d '2030-01-01' d/*	# mtimes say the opposite: they are not used
touch -d '2000-01-01' "d/$H-20010912T014640Z.rdma.tar.zst"
at $((E0 + 4 * DAY)) d --keep 2d
check_eq "--keep 2d: exit 0" "$RCRC" 0
check_eq "--keep 2d: bundles of the last two days (the one exactly 2 days old too)" \
	"$(ls d | tr '\n' ' ')" \
	"$H-20010911T014640Z.rdma.tar.zst $H-20010912T014640Z.rdma.tar.zst $H-20010913T014640Z.rdma.tar.zst "
at $((E0 + 40 * DAY)) d --keep 1d
check_eq "--keep 1d, a month later: the new bundle alone" \
	"$(ls d)" "$(basename "$B")"

# --- usage errors: exit 2, nothing written ---
mkdir u
for args in "--keep 0" "--keep x" "--keep 3x" "--keep 1d2" "--keep 100001" \
	"--keep 36501d" "--keep -1" "--keep 3 -o u/a.rdma.tar.zst" \
	"--keep 3 --redact"; do
	# shellcheck disable=SC2086
	"$RC" -q --root "$T/rxe" -o u $args >/dev/null 2>u.err
	rc=$?
	check "usage $args: exit 2, one line" \
		sh -c "[ $rc -eq 2 ] && grep -q '^rdma-collect: .*--keep' u.err"
done
check_eq "usage errors: nothing written" "$(ls -A u)" ""
at $E0 u --keep 2 --redact-key "$T/fleet.key"
check_eq "--keep with --redact-key: exit 0" "$RCRC" 0

# --- a removal that fails is a warning, not a failed bundle: a sticky
# folder where nobody may not remove root's bundles ---
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	p=$(mktemp -d /tmp/rdma-keep.XXXXXX)
	chmod 755 "$p"
	cp "$RC" "$p/rdma-collect"
	cp -a "$T/rxe" "$p/root"
	chmod -R a+rX "$p/root"
	mkdir -m 1777 "$p/out"
	for i in 0 1; do
		SOURCE_DATE_EPOCH=$((E0 + i * DAY)) "$p/rdma-collect" -q \
			--root "$p/root" -o "$p/out" >/dev/null 2>&1
	done
	SOURCE_DATE_EPOCH=$((E0 + 2 * DAY)) setpriv --reuid=65534 \
		--regid=65534 --clear-groups "$p/rdma-collect" -q \
		--root "$p/root" --keep 1 -o "$p/out" >nobody.out 2>nobody.err
	check_eq "failed removals: exit 0" "$?" 0
	sed 's/^/#   /' nobody.err
	check_eq "failed removals: one warning each" \
		"$(grep -c '^rdma-collect: warning: cannot remove .*Operation not permitted' nobody.err)" 2
	check_eq "failed removals: all three bundles there" \
		"$(ls "$p/out" | grep -c '\.rdma\.tar\.zst$')" 3
	check "failed removals: the new bundle is printed" \
		sh -c "grep -q '20010911T014640Z' nobody.out"
	rm -rf "$p"
else
	skip "keep: failed removals" "needs root (to run as nobody) and setpriv"
fi
