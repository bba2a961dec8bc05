# packages: make deb and make rpm build the packages from make dist's
# tarball of HEAD (what is committed: a change still in the work tree is
# not in them); what each installs, what the .debs depend on (the
# libraries linked, never rdma-core's dlopen'ed ones), the units left
# disabled, lintian clean.  Installing the .deb for real is .ci/run's.
if ! git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
	skip "packages" "not a git checkout: make dist archives HEAD"
	return 0
fi
P=$T/b

# --- Debian ---
if ! command -v dpkg-buildpackage >/dev/null || ! command -v dh >/dev/null; then
	skip "deb" "dpkg-buildpackage or debhelper absent (tests/install-deps.sh)"
else
	make -s -C "$TOP" BUILD="$P" deb >"$T/deb.log" 2>&1
	check_eq "make deb exits 0" "$?" 0
	deb() { ls "$P"/deb/"$1"_*.deb 2>/dev/null | head -n 1; }
	dc=$(deb rdma-collect)
	da=$(deb rdma-analyze)
	check "make deb writes rdma-collect_*.deb into BUILD/deb" test -f "$dc"
	check "make deb writes rdma-analyze_*.deb into BUILD/deb" test -f "$da"

	dpkg -c "$dc" 2>/dev/null | awk '{ print $1, $6 }' >"$T/c.list"
	dpkg -c "$da" 2>/dev/null | awk '{ print $1, $6 }' >"$T/a.list"
	for f in '-rwxr-xr-x ./usr/sbin/rdma-collect' \
		'-rw-r--r-- ./usr/share/man/man8/rdma-collect.8.gz' \
		'-rw-r--r-- ./lib/systemd/system/rdma-collect.service' \
		'-rw-r--r-- ./lib/systemd/system/rdma-collect.timer' \
		'drwxr-xr-x ./var/lib/rdma-collect/'; do
		check "rdma-collect.deb holds ${f#* }" grep -qxF -- "$f" "$T/c.list"
	done
	for f in '-rwxr-xr-x ./usr/bin/rdma-analyze' \
		'-rw-r--r-- ./usr/share/man/man1/rdma-analyze.1.gz' \
		'-rwxr-xr-x ./usr/libexec/rdma-analyze/rdma-healthcheck' \
		'-rwxr-xr-x ./usr/libexec/rdma-analyze/rdma-npd-check' \
		'-rw-r--r-- ./usr/share/rdma-analyze/nhc/rdma.nhc' \
		'-rw-r--r-- ./usr/share/rdma-analyze/kubernetes/rdma-npd.yaml' \
		'-rw-r--r-- ./usr/share/rdma-analyze/kubernetes/rdma-check.json' \
		'-rw-r--r-- ./usr/share/rdma-analyze/kubernetes/Dockerfile'; do
		check "rdma-analyze.deb holds ${f#* }" grep -qxF -- "$f" "$T/a.list"
	done
	check "each program is in one package only" sh -c \
		"test -s '$T/c.list' && test -s '$T/a.list' &&
		 ! grep -q rdma-analyze '$T/c.list' && ! grep -q 'rdma-collect[./]' '$T/a.list'"

	# Depends from ${shlibs:Depends}: the NEEDED libraries; libzstd1 comes
	# through libarchive13 (the collector writes zstd through libarchive)
	dep() { dpkg-deb -f "$1" Depends | tr ',' '\n' | sed 's/^ *//; s/ .*//'; }
	dep "$dc" >"$T/c.dep"
	dep "$da" >"$T/a.dep"
	for p in libarchive13 libpci3 libc6; do
		check "rdma-collect depends on $p" grep -qx "$p" "$T/c.dep"
	done
	for p in libarchive13 libsqlite3-0 libc6; do
		check "rdma-analyze depends on $p" grep -qx "$p" "$T/a.dep"
	done
	check "rdma-collect does not depend on sqlite, rdma-analyze not on libpci" \
		sh -c "test -s '$T/c.dep' && test -s '$T/a.dep' &&
		 ! grep -q sqlite '$T/c.dep' && ! grep -q libpci '$T/a.dep'"
	check "libzstd1 comes with libarchive13" sh -c \
		"dpkg-query -W -f='\${Depends}' libarchive13 | grep -q libzstd1"
	check "rdma-core's dlopen'ed libraries are not Depends" sh -c \
		"test -s '$T/c.dep' && ! grep -q '^libib' '$T/c.dep'"
	rec=$(dpkg-deb -f "$dc" Recommends)
	for p in libibverbs1 libibumad3 libibmad5 libibnetdisc5; do
		check "rdma-collect recommends $p" sh -c "echo '$rec' | grep -qw $p"
	done

	# the units are installed, never enabled or started by the package
	dpkg-deb -e "$dc" "$T/ctl"
	check "postinst enables the units only where they were enabled before" \
		sh -c "grep -q 'deb-systemd-helper debian-installed' '$T/ctl/postinst' &&
			! grep -q 'deb-systemd-invoke.*start' '$T/ctl/postinst'"
	check "prerm stops the timer on removal" \
		grep -q 'deb-systemd-invoke stop rdma-collect.timer' "$T/ctl/prerm"

	if command -v lintian >/dev/null; then
		lintian --fail-on error,warning "$P"/deb/*.changes >"$T/lintian" 2>&1
		check_eq "lintian exits 0 on the .changes" "$?" 0
		check "lintian names no error or warning" sh -c \
			"test -f '$T/lintian' && ! grep -E '^[EW]: ' '$T/lintian'"
		sed 's/^/#   lintian: /' "$T/lintian" | grep -v 'root privileges'
	else
		skip "lintian" "lintian absent (tests/install-deps.sh)"
	fi
	check "--version of the packaged collector names the commit" sh -c \
		"dpkg-deb -x '$dc' '$T/x' &&
		 '$T/x/usr/sbin/rdma-collect' --version |
			grep -q \"commit \$(git -C '$TOP' rev-parse --short=12 HEAD),\""
fi

# --- RPM ---
if ! command -v rpmbuild >/dev/null; then
	skip "rpm" "rpmbuild absent (tests/install-deps.sh: rpm)"
else
	make -s -C "$TOP" BUILD="$P" rpm >"$T/rpm.log" 2>&1
	check_eq "make rpm exits 0" "$?" 0
	rc=$(ls "$P"/rpm/RPMS/*/rdma-collect-[0-9]*.rpm 2>/dev/null | head -n 1)
	ra=$(ls "$P"/rpm/RPMS/*/rdma-analyze-[0-9]*.rpm 2>/dev/null | head -n 1)
	check "make rpm writes rdma-collect-*.rpm" test -f "$rc"
	check "make rpm writes rdma-analyze-*.rpm" test -f "$ra"
	rpm -qlp "$rc" >"$T/rc.list" 2>/dev/null
	rpm -qlp "$ra" >"$T/ra.list" 2>/dev/null
	for f in /usr/sbin/rdma-collect /usr/lib/systemd/system/rdma-collect.service \
		/usr/lib/systemd/system/rdma-collect.timer /var/lib/rdma-collect; do
		check "rdma-collect.rpm holds $f" grep -qx "$f" "$T/rc.list"
	done
	check "rdma-collect.rpm holds the man page" \
		grep -q '^/usr/share/man/man8/rdma-collect\.8' "$T/rc.list"
	check "rdma-analyze.rpm holds /usr/bin/rdma-analyze" \
		grep -qx /usr/bin/rdma-analyze "$T/ra.list"
	check "rdma-analyze.rpm holds the man page" \
		grep -q '^/usr/share/man/man1/rdma-analyze\.1' "$T/ra.list"
	for f in /usr/libexec/rdma-analyze/rdma-healthcheck \
		/usr/libexec/rdma-analyze/rdma-npd-check \
		/usr/share/rdma-analyze/nhc/rdma.nhc \
		/usr/share/rdma-analyze/kubernetes/rdma-npd.yaml; do
		check "rdma-analyze.rpm holds $f" grep -qx "$f" "$T/ra.list"
	done
	check "rdma-collect.rpm's scriptlets start and enable nothing" sh -c \
		"rpm -qp --scripts '$rc' >'$T/rc.scripts' &&
		 ! grep -E 'systemctl.* (start|enable)' '$T/rc.scripts'"
	rpm -qp --requires "$rc" >"$T/rc.req" 2>/dev/null
	check "rdma-collect.rpm requires libarchive.so.13 and libpci.so.3, no libib*" \
		sh -c "grep -q '^libarchive\.so\.13' '$T/rc.req' &&
			grep -q '^libpci\.so\.3' '$T/rc.req' && ! grep -q '^libib' '$T/rc.req'"
fi
