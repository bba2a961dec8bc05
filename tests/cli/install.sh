# make install honours PREFIX and DESTDIR
# -o all: install what the test build made, never rebuild it here
make -s -C "$TOP" -o all BUILD="$BUILD" install PREFIX=/opt/rdma DESTDIR="$T/pkg" >"$T/log" 2>&1
check_eq "make install exits 0" "$?" 0
for f in sbin/rdma-collect bin/rdma-analyze share/man/man8/rdma-collect.8 share/man/man1/rdma-analyze.1; do
	check "installed $f under DESTDIR/PREFIX" test -f "$T/pkg/opt/rdma/$f"
done
check "programs are installed executable (0755)" sh -c \
	"test \$(stat -c %a '$T/pkg/opt/rdma/sbin/rdma-collect') = 755"
