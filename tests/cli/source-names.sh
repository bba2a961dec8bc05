# source-names: one table of the collector's sources (include/sources.h).
# The collector runs exactly its rows, in its order (tests/unit/test-
# sources.c holds each descriptor's name to it); every name the analyzer
# spells -- a rule's needs, SQL asking the sources table for one, a
# loader asking the manifest -- is one of them; the man page and the
# README list them in the table's order.
names=$(sed -n 's/^	X([A-Z_]*, \([a-z_]*\)).*/\1/p' "$TOP/include/sources.h")
check "the table: 17 sources or more" test "$(echo "$names" | wc -l)" -ge 17
check_eq "rdma-collect --list-sources: the table, in its order" \
	"$("$RC" --list-sources | awk '{ print $1 }')" "$names"

known() {	# what, name...
	w=$1
	shift
	bad=
	for n in "$@"; do
		echo "$names" | grep -qx -- "$n" || bad="$bad $n"
	done
	check_eq "$w: every source name is in the table ($# names)" "$bad" ""
}

known "rules' needs" $("$RA" rules --json |
	sed -n 's/.*"needs": "\(.*\)",*$/\1/p' | tr ',|' '\n\n' | sort -u)

# the analyzer's C and SQL (analyze/rules/*.sql) on one line, blanks
# squeezed, each run of C string literals joined (printf: dash's echo
# would read the backslashes)
c=$(find "$TOP/analyze/" \( -name '*.c' -o -name '*.sql' \) -exec cat {} + |
	tr -s '\n\t ' '   ' | sed 's/" "//g')
q="FROM sources\( [a-z]\)\? WHERE [^;']\{0,80\}name = '"
check "SQL on the sources table: the known queries found" \
	test "$(printf '%s\n' "$c" | grep -o "$q" | wc -l)" -ge 5
known "SQL on the sources table" $(printf '%s\n' "$c" |
	grep -o "$q[a-z_]*'" | sed "s/.*'\([a-z_]*\)'$/\1/" | sort -u)
known "the loaders' source_status()" $(printf '%s\n' "$c" |
	grep -o 'source_status([a-z]*, "[a-z_]*")' |
	sed 's/.*"\(.*\)")$/\1/' | sort -u)

# the lists the man page and README.md give, in the table's order
check_eq "rdma-collect.8's SOURCES: the table, in its order" \
	"$(sed -n '/^\.SH SOURCES/,/\.$/p' "$TOP/collect/rdma-collect.8" |
	   sed 1d | tr ',.' '\n\n' | tr -d ' ' | grep .)" "$names"
check_eq "README.md's sources: the table, in its order" \
	"$(sed -n '/^Sources (in the order they run): /,/)\. /p' "$TOP/README.md" |
	   sed 's/^Sources (in the order they run)://; s/([^)]*)//g; s/\. .*//' |
	   tr ',' '\n' | tr -d ' ' | grep .)" "$names"
