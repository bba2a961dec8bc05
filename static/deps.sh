#!/bin/sh
# static/deps.sh: the two static libraries Debian does not ship, built from
# Debian's own source packages for `make static`:
#
#   libpci.a      pciutils' library (Debian ships libpci.so only); built
#                 without zlib, DNS, libkmod and udev's hwdb: the collector
#                 reads config space through sysfs and never names a device
#   libarchive.a  Debian's libarchive.a needs libxml2, ICU, nettle, lzma,
#                 bz2 and zlib, because its format table pulls every writer
#                 in; this one is configured with zstd alone, so the pax
#                 writer and the zstd filter the collector uses are all that
#                 links
#
# usage: static/deps.sh SRCDIR OUTDIR TRIPLET
#   SRCDIR   where the source packages are (downloaded there through apt
#            from this machine's configured Debian archive when absent;
#            put the .dsc and its tarballs there by hand on a machine
#            without one)
#   OUTDIR   gets lib/libpci.a, lib/libarchive.a and include/
#   TRIPLET  the target, x86_64-linux-gnu or aarch64-linux-gnu
#
# The source packages carry Debian's patches (security fixes included):
# dpkg-source applies them.  apt checks the downloads against the archive's
# signed index.  Nothing outside SRCDIR and OUTDIR is written.
set -eu

src=$1 out=$2 triplet=$3
pkgs="pciutils libarchive"

die() { echo "static/deps.sh: $*" >&2; exit 1; }

for t in dpkg-source autoreconf libtoolize make; do
	command -v $t >/dev/null || die "$t not found (./tests/install-deps.sh installs it)"
done
mkdir -p "$src" "$out/lib" "$out/include" "$out/work"
src=$(cd "$src" && pwd) out=$(cd "$out" && pwd)

# --- fetch: deb-src entries derived from this machine's deb entries, in a
# private apt state under SRCDIR (the system's apt configuration is left
# as it is) ---
fetch() {
	a=$src/apt
	# only the distribution's own entries: its codename, -updates, -security
	c=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	[ -n "$c" ] || die "no VERSION_CODENAME in /etc/os-release"
	mkdir -p "$a/lists/partial" "$a/parts"
	: >"$a/sources.list"
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk -v c="$c" '$1 == "deb" {
			for (i = 2; i <= NF; i++) if ($i !~ /^\[/) break
			s = $(i + 1)
			if (s == c || s == c "-updates" || s == c "-security") {
				$1 = "deb-src"; print } }' "$f" >>"$a/sources.list"
	done
	: >"$a/parts/src.sources"
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk -v c="$c" 'BEGIN { RS = ""; ORS = "\n\n" } {
			n = split($0, l, "\n"); deb = 0; ok = 0
			for (i = 1; i <= n; i++) {
				if (l[i] ~ /^Types:/ && l[i] ~ /[ \t]deb([ \t]|$)/) deb = 1
				if (l[i] ~ /^Suites:/) {
					m = split(l[i], w, /[ \t]+/)
					for (j = 2; j <= m; j++)
						if (w[j] == c || w[j] == c "-updates" ||
						    w[j] == c "-security") ok = 1
				}
			}
			if (!deb || !ok) next
			sub(/Types:[^\n]*/, "Types: deb-src"); print }' "$f" >>"$a/parts/src.sources"
	done
	[ -s "$a/sources.list" ] || [ -s "$a/parts/src.sources" ] ||
		die "no $c entry in this machine's apt sources to fetch sources from"
	set -- -o Dir::Etc::SourceList="$a/sources.list" \
		-o Dir::Etc::SourceParts="$a/parts" \
		-o Dir::State::Lists="$a/lists" -o Debug::NoLocking=1 \
		-o APT::Sandbox::User=root
	# a failed index among several is not fatal: the download says
	apt-get -q "$@" update >"$a/update.log" 2>&1 || :
	(cd "$src" && apt-get -q "$@" source --download-only $pkgs) \
		>"$a/source.log" 2>&1 ||
		die "cannot download the source packages $pkgs (see $a/source.log)"
}

dsc() { ls "$src/$1"_*.dsc 2>/dev/null | sort -V | tail -n 1; }

for p in $pkgs; do
	[ -n "$(dsc "$p")" ] || { fetch; break; }
done
for p in $pkgs; do
	[ -n "$(dsc "$p")" ] || die "no $p source package in $src"
done

unpack() {
	rm -rf "$out/work/$1"
	dpkg-source -q -x "$(dsc "$1")" "$out/work/$1" >"$out/work/$1.log" 2>&1 ||
		die "dpkg-source -x $(dsc "$1") failed (see $out/work/$1.log)"
}

host=$triplet
case $triplet in
x86_64-linux-gnu) cross= ;;
*) cross=$triplet- ;;
esac
jobs=$(nproc 2>/dev/null || echo 2)

# --- libpci ---
if [ ! -f "$out/lib/libpci.a" ]; then
	unpack pciutils
	make -s -C "$out/work/pciutils" -j"$jobs" lib/libpci.a \
		CROSS_COMPILE="$cross" HOST="${triplet%%-*}-linux" \
		ZLIB=no DNS=no LIBKMOD=no HWDB=no SHARED=no \
		OPT="-O2 -fno-strict-aliasing" >"$out/work/pciutils.build.log" 2>&1 ||
		die "building libpci failed (see $out/work/pciutils.build.log)"
	mkdir -p "$out/include/pci"
	for h in config.h header.h pci.h types.h; do
		cp "$out/work/pciutils/lib/$h" "$out/include/pci/$h"
	done
	cp "$out/work/pciutils/lib/libpci.a" "$out/lib/libpci.a.tmp"
	mv "$out/lib/libpci.a.tmp" "$out/lib/libpci.a"
fi

# --- libarchive ---
if [ ! -f "$out/lib/libarchive.a" ]; then
	unpack libarchive
	# regenerated with this machine's autotools, as Debian's build does
	# (the tarball's ltmain.sh is older than its aclocal.m4)
	(cd "$out/work/libarchive" && sh build/autogen.sh &&
	 ./configure --host="$host" --disable-shared --enable-static \
		--disable-bsdtar --disable-bsdcat --disable-bsdcpio \
		--disable-acl --disable-xattr --disable-posix-regex-lib \
		--without-zlib --without-bz2lib --without-libb2 --without-iconv \
		--without-lz4 --without-lzma --without-cng --without-openssl \
		--without-xml2 --without-expat --with-zstd \
		CC="${cross}gcc" CFLAGS="-O2" &&
	 make -j"$jobs" libarchive.la) >"$out/work/libarchive.build.log" 2>&1 ||
		die "building libarchive failed (see $out/work/libarchive.build.log)"
	grep -q '^#define HAVE_ZSTD_H 1' "$out/work/libarchive/config.h" ||
		die "libarchive was configured without zstd (libzstd-dev for $triplet?)"
	for h in archive.h archive_entry.h; do
		cp "$out/work/libarchive/libarchive/$h" "$out/include/$h"
	done
	cp "$out/work/libarchive/.libs/libarchive.a" "$out/lib/libarchive.a.tmp"
	mv "$out/lib/libarchive.a.tmp" "$out/lib/libarchive.a"
fi
rm -rf "$out/work"
echo "static/deps.sh: $out/lib/libpci.a $out/lib/libarchive.a ($triplet)"
