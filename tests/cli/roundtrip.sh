# Under --root: collect a fixture node, unpack the bundle, collect the
# unpacked tree with --root: the same evidence.  With SOURCE_DATE_EPOCH the
# same root gives a byte-identical bundle.  Goldens: the entry listing and
# the manifest of each fixture node (UPDATE=1 rewrites them).
export SOURCE_DATE_EPOCH=1764450245
for kind in gpu-ndr8 roce-pfc rxe; do
	if ! mknode "$kind" "$T/$kind" >"$T/mk.log" 2>&1; then
		fail "$kind: fixture builds"
		sed 's/^/#   /' "$T/mk.log" | head
		continue
	fi
	# the same command line twice (it is in the manifest), two folders
	mkdir "$T/$kind-r1" "$T/$kind-r2"
	(cd "$T/$kind-r1" && "$RC" -q --root "$T/$kind" -o b.rdma.tar.zst \
		>/dev/null 2>"$T/err")
	check_eq "$kind: collect --root exits 0" "$?" 0
	(cd "$T/$kind-r2" && "$RC" -q --root "$T/$kind" -o b.rdma.tar.zst \
		>/dev/null 2>&1)
	a="$T/$kind-r1/b.rdma.tar.zst"
	check "$kind: same root and SOURCE_DATE_EPOCH give a byte-identical bundle" \
		cmp "$a" "$T/$kind-r2/b.rdma.tar.zst"
	mkdir "$T/$kind-u"
	tar --zstd -xf "$a" -C "$T/$kind-u"
	b="$T/$kind-b.rdma.tar.zst"
	"$RC" -q --root "$T/$kind-u" -o "$b" >/dev/null 2>&1
	mkdir "$T/$kind-v"
	tar --zstd -xf "$b" -C "$T/$kind-v"
	rm "$T/$kind-u/manifest.json" "$T/$kind-v/manifest.json"
	check "$kind: collect, unpack, collect --root the unpacked tree: same evidence" \
		diff -r --no-dereference "$T/$kind-u" "$T/$kind-v"
	# source statuses must survive the round trip too
	sa=$(manifest "$a" | grep -A1 '"name":' | grep -o '"status": "[a-z]*"' | tr '\n' ' ')
	sb=$(manifest "$b" | grep -A1 '"name":' | grep -o '"status": "[a-z]*"' | tr '\n' ' ')
	check_eq "$kind: same source statuses after the round trip" "$sb" "$sa"
	# goldens: listing (type, mode, size, path) and the manifest with the
	# test's own folder names replaced
	# (the manifest's size depends on the path of the collector, which it
	# records: its content is compared below, path-independent)
	tar --zstd -tvf "$a" | awk '{ $2 = ""; $4 = ""; $5 = "";
		if ($6 == "manifest.json") $3 = "*"; print }' >"$T/$kind.list"
	manifest "$a" | sed "s|$RC|@RC@|g; s|$T|@T@|g" >"$T/$kind.manifest.json"
	for g in list manifest.json; do
		gold="$TOP/tests/golden/$kind.$g"
		if [ "${UPDATE:-0}" = 1 ]; then
			cp "$T/$kind.$g" "$gold"
		fi
		if [ -f "$gold" ]; then
			check "$kind: $g matches tests/golden/$kind.$g" \
				diff -u "$gold" "$T/$kind.$g"
		else
			fail "$kind: golden tests/golden/$kind.$g exists (make check UPDATE=1)"
		fi
	done
done
