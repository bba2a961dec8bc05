# terminal: no byte from outside reaches a terminal as a control.  A node
# whose firmware version, node description, hostname, module names and
# kernel log hold ESC sequences, an OSC title, C1 controls (U+009B, and a
# raw 0x9b byte), a right-to-left override and invalid UTF-8; a bundle file
# name with an escape in it.  Every command's standard output and standard
# error (text report, show views, diff, history, path, errors naming the
# file) must be valid UTF-8 with no control but tab and newline, no C1 and
# no bidirectional override (include/term.c).
cd "$T" || exit 1
mknode roce-pfc n >/dev/null 2>&1 || fail "terminal: building the fixture node"
E=$(printf 'x\033[2J\033]0;pwned\007\302\2332J\233y\342\200\256z\377')
ib=$(ls n/sys/class/infiniband | head -1)
printf '%s\n' "28.39.1002$E" >"n/sys/class/infiniband/$ib/fw_ver"
printf '%s\n' "node$E" >"n/sys/class/infiniband/$ib/node_desc"
printf '%s\n' "host$E" >n/proc/sys/kernel/hostname
printf 'mlx5_ib%s 483328 0 - Live 0x0000000000000000\n' "$E" >>n/proc/modules
"$RC" -q --root n -o "n.rdma.tar.zst" >/dev/null 2>&1
check "the node's bundle" test -s n.rdma.tar.zst
cp n.rdma.tar.zst "$(printf 'evil\033[31m.rdma.tar.zst')"
printf 'not a bundle' >"$(printf 'bad\033]0;t\007\233.rdma.tar.zst')"
"$RA" load -q --db n.db n.rdma.tar.zst >/dev/null 2>&1
host=$(sqlite3 n.db "SELECT hostname FROM bundles LIMIT 1")

i=0
clean() {	# what, then the command: its stdout and stderr are clean
	what=$1 i=$((i + 1))
	shift
	"$@" >"t$i.out" 2>&1
	check "$what: no control byte, C1, override or bad UTF-8" python3 -c '
import sys
b = open(sys.argv[1], "rb").read()
t = b.decode("utf-8")
bad = [c for c in t if (ord(c) < 0x20 and c not in "\t\n") or 0x7f <= ord(c) <= 0x9f
       or 0x202a <= ord(c) <= 0x202e or 0x2066 <= ord(c) <= 0x2069]
assert not bad, "found %r" % bad[:5]
assert len(t) > 0, "no output at all"' "t$i.out"
}
clean "report" "$RA" n.rdma.tar.zst
clean "report -v" "$RA" -v n.rdma.tar.zst
clean "show ibv_devinfo -v" "$RA" show n.rdma.tar.zst ibv_devinfo -v
clean "show ibstat" "$RA" show n.rdma.tar.zst ibstat
clean "show show_gids" "$RA" show n.rdma.tar.zst show_gids
clean "show lsmod" "$RA" show n.rdma.tar.zst lsmod
clean "show ls-infiniband" "$RA" show n.rdma.tar.zst ls-infiniband
clean "show dmesg" "$RA" show n.rdma.tar.zst dmesg
clean "show rdma link" "$RA" show n.rdma.tar.zst rdma link
clean "list" "$RA" list n.rdma.tar.zst
clean "diff of two bundles" "$RA" diff n.rdma.tar.zst samples-none.rdma.tar.zst
clean "history" "$RA" history --db n.db "$host"
clean "path" "$RA" path --db n.db "$host" "$host"
clean "a file name with an escape, in the report" "$RA" "$(printf 'evil\033[31m.rdma.tar.zst')"
clean "a bad bundle's name in the error line" "$RA" "$(printf 'bad\033]0;t\007\233.rdma.tar.zst')"
clean "rdma-collect: an error naming a path" "$RC" -q --root "$(printf 'no\033[2Jsuch')" -o .
check "the report still names the node (escapes made '?', text kept)" \
	grep -q 'host' t1.out
