#!/bin/sh
# Install what building and testing rdma-collect / rdma-analyze needs on
# Debian 12 (run as root).  Packages already present are left alone.
set -eu
pkgs="make gcc libc6-dev pkg-config tar zstd
libarchive-dev libzstd-dev libpci-dev libibverbs-dev libibumad-dev
libibmad-dev libibnetdisc-dev libsqlite3-dev sqlite3
fuse3 libfuse3-dev pciutils ethtool iproute2 util-linux python3 python3-jsonschema
python3-yaml
ibsim-utils opensm infiniband-diags
qemu-system-x86 busybox-static cpio kmod ibverbs-utils ibverbs-providers perftest systemd
chromium clang strace sosreport xz-utils
dpkg-dev autoconf automake libtool gcc-aarch64-linux-gnu qemu-user-static
build-essential debhelper lintian rpm
prometheus prometheus-node-exporter"
# python3-yaml: parses contrib/kubernetes/rdma-npd.yaml (tests/cli/npd.sh)
# prometheus: promtool, the parser and linter of `report -f prom`'s output;
# prometheus-node-exporter: the textfile collector that reads it
# (tests/cli/report-prom.sh).  Both are for the tests only: the daemon a
# package installed here enables on a systemd host is stopped and disabled
# (one that was installed before is left as it was)
daemons="prometheus prometheus-node-exporter"
# make static ARCH=aarch64 links Debian's arm64 static libraries
# (multiarch: they sit beside the amd64 ones)
arm64="libc6-dev libzstd-dev libibverbs-dev libibumad-dev libibmad-dev
libibnetdisc-dev libnl-3-dev libnl-route-3-dev"
host=$(dpkg --print-architecture)
if [ "$host" != arm64 ]; then
	for p in $arm64; do
		pkgs="$pkgs $p:arm64"
	done
fi
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "install-deps: need root to install:$missing" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	case $missing in
	*:arm64*)
		dpkg --print-foreign-architectures | grep -qx arm64 ||
			dpkg --add-architecture arm64 ;;
	esac
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
	for d in $daemons; do
		case " $missing " in
		*" $d "*)
			[ -d /run/systemd/system ] &&
				systemctl disable --now "$d.service" >/dev/null 2>&1 || : ;;
		esac
	done
fi
echo "install-deps: all build and test dependencies are installed"
