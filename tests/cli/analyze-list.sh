# rdma-analyze list: a good bundle lists; a truncated, foreign or newer one
# gives one line naming the file and the reason, and the others still list.
cd "$T" || exit 1
mknode rxe node >/dev/null 2>&1
"$RC" -q --root node -o good.rdma.tar.zst >/dev/null
head -c 2000 good.rdma.tar.zst >trunc.rdma.tar.zst
printf 'not an archive at all' >junk.rdma.tar.zst
mkdir other && echo hi >other/x && tar --zstd -cf foreign.rdma.tar.zst -C other x
mkdir newer && tar --zstd -xf good.rdma.tar.zst -C newer manifest.json &&
	sed -i 's/"format_version": 1/"format_version": 99/' newer/manifest.json &&
	tar --zstd -cf newer.rdma.tar.zst -C newer manifest.json
"$RA" list good.rdma.tar.zst trunc.rdma.tar.zst junk.rdma.tar.zst \
	foreign.rdma.tar.zst newer.rdma.tar.zst >out 2>err
check_eq "exit 4 when a bundle is unreadable" "$?" 4
check "the good bundle is still listed in full" sh -c \
	"grep -q '^good.rdma.tar.zst: [0-9]* entries' out"
check_eq "one error line per bad bundle" "$(wc -l <err)" 4
check "truncated: named with the reason" grep -q '^rdma-analyze: trunc.rdma.tar.zst: .*[Tt]runcated' err
check "junk: named with the reason" grep -q "^rdma-analyze: junk.rdma.tar.zst: not a zstd-compressed tar" err
check "foreign tar: not an rdma-collect bundle" grep -q "foreign.rdma.tar.zst: not an rdma-collect bundle (first entry is 'x'" err
check "newer format refused" grep -q 'newer.rdma.tar.zst: bundle format 99 is newer than this rdma-analyze reads (1)' err
"$RA" bogus >/dev/null 2>&1
check_eq "unknown command: exit 3" "$?" 3
check "--help and the man page name every subcommand" sh -c '
	for c in report load show rules list; do
		"$RA" --help | grep -q "rdma-analyze $c\|^$c " || { echo "help: $c"; exit 1; }
		grep -q "^.B $c\$\|^.B rdma-analyze $c" "$TOP/analyze/rdma-analyze.1" || { echo "man: $c"; exit 1; }
	done'
# every option, command by command: tests/cli/options.sh
# an empty folder is no evidence: exit 4, and one line says so (UBSan: no
# qsort of an empty list)
mkdir empty
"$RA" load --db empty.db empty >/dev/null 2>empty.err
check_eq "an empty folder: exit 4" "$?" 4
check "an empty folder: one line names it" grep -q \
	'^rdma-analyze: empty: no evidence read: nothing in it' empty.err
check "an empty folder: 0 loaded, 1 failed" grep -q \
	'0 loaded, 0 already in empty.db, 1 failed' empty.err
