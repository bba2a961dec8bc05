# names: a bundle never replaces a file.  Two collectors finishing in the
# same second into one folder both keep their bundle (the second is named
# <host>-<time>-2.rdma.tar.zst); a file the
# user named with -o that exists already is refused with exit 3 and one
# line, and left as it was.
cd "$T" || exit 1
mknode rxe rxe >/dev/null 2>&1 || fail "names: building the fixture node"
export SOURCE_DATE_EPOCH=1700000000	# every run below: the same second

mkdir same
for i in 1 2 3; do
	"$RC" -q --root "$T/rxe" -o same >"same$i.out" 2>"same$i.err" &
done
wait
check_eq "same second, 3 at once: 3 bundles" "$(ls same | grep -c '\.rdma\.tar\.zst$')" 3
check_eq "same second, 3 at once: 3 distinct names printed" \
	"$(cat same1.out same2.out same3.out | sort -u | wc -l)" 3
check_eq "same second, 3 at once: nothing on stderr" "$(cat same*.err)" ""
for f in same/*.rdma.tar.zst; do
	check "same second: $(basename "$f") is a whole bundle" \
		sh -c "tar --zstd -tf '$f' | grep -q '^manifest.json\$'"
done
check_eq "same second: no temp file left" "$(ls -A same | grep -c tmp)" 0

# one after the other, redacted with one key (the same pseudonymous host)
mkdir red
"$RC" -q --root "$T/rxe" --redact-key red.key -o red >red1.out 2>red1.err
"$RC" -q --root "$T/rxe" --redact-key red.key -o red >red2.out 2>red2.err
b2=$(cat red2.out)
check "redacted, same second: the second bundle is -2 ($b2)" \
	sh -c "case '$b2' in *-2.rdma.tar.zst) ;; *) exit 1 ;; esac"
check_eq "redacted, same second: 2 bundles" "$(ls red | wc -l)" 2

# a file the user named, which exists
printf 'not a bundle\n' >mine.rdma.tar.zst
"$RC" -q --root "$T/rxe" -o mine.rdma.tar.zst >mine.out 2>mine.err
check_eq "-o an existing file: exit 3" "$?" 3
check "-o an existing file: one line saying it is not replaced" \
	sh -c "[ \$(grep -c . mine.err) -eq 1 ] && grep -q 'exists: not replaced' mine.err"
check_eq "-o an existing file: left as it was" "$(cat mine.rdma.tar.zst)" "not a bundle"
check_eq "-o an existing file: no temp file left" "$(ls -A | grep -c '\.tmp\.')" 0
