#!/bin/bash
# tests/vm/build-guest.sh COLLECTOR CACHE [static RXE_ADD]: build (or find
# in CACHE) the Soft-RoCE guest: Debian's kernel plus an initramfs holding
# busybox, the rdma-core tools the test compares against, perftest, strace
# (the read-only proof) and COLLECTOR (an rdma-collect binary, any build:
# its shared libraries come along, the sanitizer runtimes of a `make check`
# build included).
#
# With `static`, the library-free guest instead: its initramfs holds
# busybox-static, the kernel modules, COLLECTOR (which must be the static
# collector of `make static`) as /usr/sbin/rdma-collect, RXE_ADD
# (tests/tools/rxe-add.c, also static) and tests/vm/init-static as /init,
# and nothing else: no program interpreter, no shared library, no
# rdma-core file.  Either static executable is refused if it names an
# interpreter.
#
# Prints two lines: the kernel image and the initramfs.  Nothing is
# installed on the host: the kernel .deb is downloaded and only what the
# guest needs is unpacked from it.
#
# Two cache layers, so that a re-run costs only the boots:
#   CACHE/kernel-<package>_<version>/    vmlinuz + the modules the guest loads
#   CACHE/initramfs-<key>.cpio.zst       key: the kernel layer, the versions
#       of every host package copied in, the collector binary, this script
#       and tests/vm/init
#   CACHE/initramfs-static-<key>.cpio.zst   the same for the static guest
#       (busybox-static's version, both static executables, init-static)
# The newest three images of each kind are kept.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
COLLECTOR=$1
CACHE=$2
MODE=${3:-}
RXE_ADD=${4:-}
ARCH_LIB=/usr/lib/x86_64-linux-gnu

# the packages whose files go into the guest (their versions key the cache)
GUEST_PKGS="busybox-static ibverbs-utils ibverbs-providers libibverbs1
infiniband-diags libibumad3 libibmad5 libibnetdisc5 iproute2 ethtool
perftest kmod coreutils strace libc6"

# the guest's programs: the tools whose output the collector's views are
# compared with, the fault injectors, perftest for the pair, and strace
# for the traced collection
GUEST_BINS="/usr/bin/ibv_devinfo /usr/sbin/ibstat /usr/bin/rdma /usr/sbin/ip
/usr/sbin/ethtool /usr/bin/ib_send_bw /usr/bin/ib_write_bw /usr/bin/kmod
/usr/bin/ls /usr/bin/strace"

# modules the guest loads, resolved with their dependencies
GUEST_MODS="virtio_pci virtio_net virtio_blk crc32_generic rdma_rxe
ib_uverbs ib_umad rdma_ucm"

die() { echo "build-guest: $*" >&2; exit 1; }

sha() { sha256sum "$@" | cut -c1-64; }

# the ABI-versioned kernel package linux-image-amd64 depends on today
kernel_package() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ { print $2; exit }'
}

# kernel layer: vmlinuz and the wanted modules with their dependencies,
# modules.dep regenerated for just those (the .deb ships none: its
# postinst runs depmod)
build_kernel() {
	local dir=$1 pkg=$2 tmp deb kver m
	tmp=$(mktemp -d "$CACHE/.kernel.XXXXXX")
	(cd "$tmp" && apt-get download -q "$pkg" >/dev/null) ||
		die "cannot download $pkg"
	deb=$(ls "$tmp"/*.deb)
	mkdir "$tmp/x"
	# only the folders that can hold what GUEST_MODS needs: the whole
	# package unpacks to ~400 MB
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/x" --wildcards \
		'./boot/vmlinuz-*' './boot/config-*' \
		'./lib/modules/*/modules.order' \
		'./lib/modules/*/modules.builtin' \
		'./lib/modules/*/modules.builtin.modinfo' \
		'./lib/modules/*/kernel/drivers/infiniband/*' \
		'./lib/modules/*/kernel/drivers/virtio/*' \
		'./lib/modules/*/kernel/drivers/net/virtio_net.ko' \
		'./lib/modules/*/kernel/drivers/net/net_failover.ko' \
		'./lib/modules/*/kernel/net/core/failover.ko' \
		'./lib/modules/*/kernel/drivers/block/virtio_blk.ko' \
		'./lib/modules/*/kernel/crypto/*' \
		'./lib/modules/*/kernel/lib/*' \
		'./lib/modules/*/kernel/net/ipv4/udp_tunnel.ko' \
		'./lib/modules/*/kernel/net/ipv6/ip6_udp_tunnel.ko' \
		'./lib/modules/*/kernel/fs/configfs/*'
	kver=$(ls "$tmp/x/lib/modules")
	depmod -b "$tmp/x" "$kver"
	mkdir -p "$tmp/k/lib/modules/$kver"
	for m in $GUEST_MODS; do
		add_module "$tmp/x/lib/modules/$kver" "$tmp/k/lib/modules/$kver" "$m"
	done
	cp "$tmp/x/lib/modules/$kver"/modules.{order,builtin,builtin.modinfo} \
		"$tmp/k/lib/modules/$kver/"
	depmod -b "$tmp/k" "$kver"
	cp "$tmp/x/boot/vmlinuz-$kver" "$tmp/k/vmlinuz"
	cp "$tmp/x/boot/config-$kver" "$tmp/k/config"
	rm -rf "$tmp/x" "$deb"
	mv "$tmp/k" "$dir"
	rm -rf "$tmp"
}

# add_module FROM TO NAME: NAME and what it depends on, from FROM's
# modules.dep (built-in modules have no line and need nothing)
add_module() {
	local from=$1 to=$2 name=$3 line path d
	if ! line=$(grep -E "(^|/)${name}\.ko(\.[a-z]+)?:" "$from/modules.dep"); then
		grep -qE "(^|/)${name}\.ko$" "$from/modules.builtin" ||
			die "kernel module $name not found"
		return 0
	fi
	path=${line%%:*}
	[ -e "$to/$path" ] && return 0
	mkdir -p "$to/$(dirname "$path")"
	cp "$from/$path" "$to/$path"
	for d in ${line#*:}; do
		d=${d##*/}
		add_module "$from" "$to" "${d%%.ko*}"
	done
}

# copy_elf ROOT FILE: FILE and the shared libraries ldd resolves for it
copy_elf() {
	local root=$1 f=$2 lib
	mkdir -p "$root$(dirname "$f")"
	cp -L "$f" "$root$f"
	for lib in $(ldd "$f" 2>/dev/null |
		     awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		[ -e "$root$lib" ] && continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}

# base ROOT KDIR: what both guests hold: the kernel's modules and busybox
# with a link for each of its applets
base() {
	local root=$1 kdir=$2 a
	cp -a "$kdir/lib/modules" "$root/lib/"
	cp /bin/busybox "$root/bin/busybox"
	for a in $(/bin/busybox --list); do
		[ -e "$root/bin/$a" ] || ln -s busybox "$root/bin/$a"
	done
}

# pack ROOT OUT: ROOT as a zstd newc initramfs at OUT (whole or not at
# all), ROOT removed
pack() {
	(cd "$1" && find . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --quiet) | zstd -q -3 -T0 >"$2.tmp"
	mv "$2.tmp" "$2"
	rm -rf "$1"
}

build_initramfs() {
	local out=$1 kdir=$2 root a lib
	root=$(mktemp -d "$CACHE/.root.XXXXXX")
	chmod 0755 "$root"
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,run,root,out,lib}
	base "$root" "$kdir"
	# the kernel's usermode helper runs /sbin/modprobe
	ln -s ../bin/busybox "$root/sbin/modprobe"
	for a in $GUEST_BINS; do
		copy_elf "$root" "$a"
	done
	# lsmod as kmod prints it, ls as coreutils prints it: the views
	# imitate those, not busybox's
	ln -s kmod "$root/usr/bin/lsmod"
	# loaded at run time, so ldd lists none of them: the rxe provider,
	# the libraries rdma-collect dlopen()s, libgcc_s (glibc's
	# pthread_cancel)
	copy_elf "$root" "$(ls $ARCH_LIB/libibverbs/librxe-rdmav*.so | head -1)"
	for lib in libibverbs.so.1 libibumad.so.3 libibmad.so.5 libibnetdisc.so.5 \
		   libgcc_s.so.1; do
		copy_elf "$root" "$(readlink -f $ARCH_LIB/$lib)"
		cp -a "$ARCH_LIB/$lib" "$root$ARCH_LIB/" 2>/dev/null || true
	done
	mkdir -p "$root/etc/libibverbs.d"
	cp /etc/libibverbs.d/rxe.driver "$root/etc/libibverbs.d/"
	mkdir -p "$root/etc/iproute2"
	cp -a /etc/iproute2/. "$root/etc/iproute2/" 2>/dev/null || true
	copy_elf "$root" "$(readlink -f "$COLLECTOR")"
	mv "$root$(readlink -f "$COLLECTOR")" "$root/usr/sbin/rdma-collect"
	echo "root:x:0:0:root:/root:/bin/sh" >"$root/etc/passwd"
	echo "rdma:x:1000:1000:memlock case:/tmp:/bin/sh" >>"$root/etc/passwd"
	echo "root:x:0:" >"$root/etc/group"
	printf '127.0.0.1 localhost\n' >"$root/etc/hosts"
	install -m 0755 "$HERE/init" "$root/init"
	pack "$root" "$out"
}

# build_static_initramfs OUT KDIR: the library-free guest's image
build_static_initramfs() {
	local out=$1 kdir=$2 root a
	root=$(mktemp -d "$CACHE/.root.XXXXXX")
	chmod 0755 "$root"
	mkdir -p "$root"/{bin,sbin,usr/sbin,etc,proc,sys,dev,tmp,root,out,lib}
	base "$root" "$kdir"
	ln -s ../bin/busybox "$root/sbin/modprobe"
	cp "$COLLECTOR" "$root/usr/sbin/rdma-collect"
	cp "$RXE_ADD" "$root/usr/sbin/rxe-add"
	echo "root:x:0:0:root:/root:/bin/sh" >"$root/etc/passwd"
	echo "root:x:0:" >"$root/etc/group"
	printf '127.0.0.1 localhost\n' >"$root/etc/hosts"
	install -m 0755 "$HERE/init-static" "$root/init"
	pack "$root" "$out"
}

# is_static FILE: an ELF executable without a program interpreter
is_static() {
	[ -x "$1" ] && readelf -hW "$1" >/dev/null 2>&1 &&
		! readelf -lW "$1" | grep INTERP >/dev/null
}

[ -x "$COLLECTOR" ] || die "no collector at '$COLLECTOR'"
case $MODE in
'') ;;
static)
	is_static "$COLLECTOR" || die "$COLLECTOR: not a static executable"
	is_static "$RXE_ADD" || die "rxe-add '$RXE_ADD': not a static executable"
	GUEST_PKGS=busybox-static
	is_static /bin/busybox || die "/bin/busybox is not busybox-static's"
	;;
*) die "unknown mode '$MODE' (static, or none)" ;;
esac
mkdir -p "$CACHE"
# one builder at a time per cache: test runs in parallel share it
exec 9>"$CACHE/.lock"
flock 9
kpkg=$(kernel_package)
[ -n "$kpkg" ] || die "cannot resolve linux-image-amd64 (apt-get update?)"
kver=$(apt-cache policy "$kpkg" | awk '/Candidate:/ { print $2 }')
kdir=$CACHE/kernel-${kpkg}_$kver
[ -f "$kdir/vmlinuz" ] || build_kernel "$kdir" "$kpkg"
# the kernel must unpack a zstd initramfs (Debian's does)
grep -q '^CONFIG_RD_ZSTD=y' "$kdir/config" || die "kernel without CONFIG_RD_ZSTD"

versions=$(dpkg-query -W -f='${Package} ${Version}\n' $GUEST_PKGS 2>&1) ||
	die "guest packages missing (tests/install-deps.sh): $versions"
if [ "$MODE" = static ]; then
	key=$({ echo "$kdir static"; echo "$versions"; sha "$COLLECTOR";
		sha "$RXE_ADD" "$HERE/init-static" "$0"; } | sha | cut -c1-16)
	kind=initramfs-static-
else
	key=$({ echo "$kdir"; echo "$versions"; sha "$(readlink -f "$COLLECTOR")";
		sha "$HERE/init" "$0"; } | sha | cut -c1-16)
	kind=initramfs-
fi
img=$CACHE/$kind$key.cpio.zst
if [ ! -f "$img" ]; then
	if [ "$MODE" = static ]; then
		build_static_initramfs "$img" "$kdir"
	else
		build_initramfs "$img" "$kdir"
	fi
	# keep the newest few images of this kind only: every collector
	# build makes one (the key is 16 hex digits: the pattern of one
	# kind does not match the other's names)
	ls -t "$CACHE/$kind"????????????????.cpio.zst | tail -n +4 |
		xargs -r rm -f
fi
echo "$kdir/vmlinuz"
echo "$img"
