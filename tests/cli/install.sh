# make install honours PREFIX and DESTDIR
# -o all: install what the test build made, never rebuild it here
make -s -C "$TOP" -o all BUILD="$BUILD" install PREFIX=/opt/rdma DESTDIR="$T/pkg" >"$T/log" 2>&1
check_eq "make install exits 0" "$?" 0
for f in sbin/rdma-collect bin/rdma-analyze share/man/man8/rdma-collect.8 share/man/man1/rdma-analyze.1; do
	check "installed $f under DESTDIR/PREFIX" test -f "$T/pkg/opt/rdma/$f"
done
for f in libexec/rdma-analyze/rdma-healthcheck libexec/rdma-analyze/rdma-npd-check; do
	check "installed contrib's $f executable (0755)" sh -c \
		"test \$(stat -c %a '$T/pkg/opt/rdma/$f') = 755"
done
for f in nhc/rdma.nhc kubernetes/rdma-npd.yaml kubernetes/rdma-check.json \
	kubernetes/Dockerfile; do
	check "installed contrib's $f under share/rdma-analyze (0644)" sh -c \
		"test \$(stat -c %a '$T/pkg/opt/rdma/share/rdma-analyze/$f') = 644"
done
check "programs are installed executable (0755)" sh -c \
	"test \$(stat -c %a '$T/pkg/opt/rdma/sbin/rdma-collect') = 755"
for u in rdma-collect.service rdma-collect.timer; do
	check "installed $u under DESTDIR/PREFIX/lib/systemd/system (0644)" sh -c \
		"test \$(stat -c %a '$T/pkg/opt/rdma/lib/systemd/system/$u') = 644"
done
# a package puts the units where its systemd looks, whatever PREFIX is
make -s -C "$TOP" -o all BUILD="$BUILD" install PREFIX=/usr \
	SYSTEMDUNITDIR=/lib/systemd/system DESTDIR="$T/deb" >"$T/log" 2>&1
check_eq "make install SYSTEMDUNITDIR= exits 0" "$?" 0
check "SYSTEMDUNITDIR places the units" \
	test -f "$T/deb/lib/systemd/system/rdma-collect.timer"
