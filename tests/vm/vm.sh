# tests/vm/vm.sh: Soft-RoCE guests under qemu (TCG, no KVM needed).  Source it.
#
#   vm_have || skip "..."                  # what is missing, in $VM_MISSING
#   vm_guest COLLECTOR                     # kernel + initramfs (cached)
#   vm_guest COLLECTOR static RXE_ADD      # the library-free guest's
#   vm_boot DIR ROLE IP PEER MAC LSOCK RSOCK [APPEND]   # in the background
#                                          # (ROLE static: that guest)
#   vm_cable DIR                           # pull/plug its cable on request
#   vm_wait DIR                            # qemu's exit; results in DIR/out
#   vm_stop DIR...                         # kill what is still running
#
# A guest's NIC is a qemu dgram netdev on unix sockets: the pair's two
# sockets are cross-connected, a single guest sends to a socket nobody
# binds (its carrier is up all the same, so rxe0 goes ACTIVE).  Nothing
# reaches the host's network.  Results come back as a tar archive the
# guest writes onto a raw disk (tests/vm/init, tests/vm/init-static).

VM_DIR=$TOP/tests/vm
VM_CACHE=${RDMA_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdma-collect-vm}
VM_TOOLS="qemu-system-x86_64 busybox cpio zstd depmod apt-get dpkg-deb
ibv_devinfo ibstat rdma ethtool ib_send_bw ib_write_bw kmod strace"

vm_have() {
	local t
	VM_MISSING=
	for t in $VM_TOOLS; do
		command -v "$t" >/dev/null 2>&1 ||
			[ -x "/sbin/$t" ] || [ -x "/usr/sbin/$t" ] ||
			VM_MISSING="$VM_MISSING $t"
	done
	VM_MISSING=${VM_MISSING# }
	[ -z "$VM_MISSING" ]
}

# vm_guest COLLECTOR: sets VM_KERNEL and VM_INITRD; vm_guest COLLECTOR
# static RXE_ADD: VM_KERNEL and VM_INITRD_STATIC
vm_guest() {
	local out
	out=$(PATH=$PATH:/sbin:/usr/sbin "$VM_DIR/build-guest.sh" "$1" \
		"$VM_CACHE" ${2:+"$2" "$3"}) || return 1
	VM_KERNEL=$(echo "$out" | sed -n 1p)
	if [ "${2:-}" = static ]; then
		VM_INITRD_STATIC=$(echo "$out" | sed -n 2p)
	else
		VM_INITRD=$(echo "$out" | sed -n 2p)
	fi
}

vm_boot() {
	local dir=$1 role=$2 ip=$3 peer=$4 mac=$5 lsock=$6 rsock=$7 extra=${8:-}
	local initrd=$VM_INITRD
	[ "$role" = static ] && initrd=$VM_INITRD_STATIC
	mkdir -p "$dir"
	rm -f "$dir/out.img" "$lsock"
	truncate -s 64M "$dir/out.img"
	# the monitor on two FIFOs (qemu opens both read-write: no blocking)
	rm -f "$dir/mon.in" "$dir/mon.out"
	mkfifo "$dir/mon.in" "$dir/mon.out"
	rm -f "$dir/end" "$dir/rc" "$dir/qemu.pid"
	date +%s.%N >"$dir/start"
	# q35 puts the NIC behind a PCIe root port: the guest sees a PCIe
	# link like a real HCA's netdev would have
	(
		timeout -k 5 "${VM_TIMEOUT:-600}" qemu-system-x86_64 \
			-M q35 -accel tcg -cpu qemu64 -smp 1 -m 512 \
			-nodefaults -no-user-config -nographic -no-reboot \
			-pidfile "$dir/qemu.pid" \
			-serial stdio -chardev pipe,id=mon,path="$dir/mon" \
			-mon chardev=mon,mode=readline \
			-kernel "$VM_KERNEL" -initrd "$initrd" \
			-append "console=ttyS0 panic=-1 quiet loglevel=4 t_role=$role t_ip=$ip t_peer=$peer $extra" \
			-device pcie-root-port,id=rp1,bus=pcie.0,chassis=1,slot=1 \
			-netdev dgram,id=n0,local.type=unix,local.path="$lsock",remote.type=unix,remote.path="$rsock" \
			-device virtio-net-pci,netdev=n0,mac="$mac",bus=rp1,romfile= \
			-drive file="$dir/out.img",format=raw,if=virtio,cache=unsafe \
			>"$dir/console.log" 2>&1 </dev/null
		echo $? >"$dir/rc"
		date +%s.%N >"$dir/end"
	) &
	echo $! >"$dir/job.pid"
}

# vm_wait DIR: qemu's status; the guest's /out unpacked into DIR/out, the
# seconds from boot to power off in DIR/wall
vm_wait() {
	local dir=$1
	wait "$(cat "$dir/job.pid")"
	rm -f "$dir/job.pid" "$dir/qemu.pid"
	awk -v s="$(cat "$dir/start")" -v e="$(cat "$dir/end")" \
		'BEGIN { printf "%.1f\n", e - s }' >"$dir/wall"
	rm -rf "$dir/out"
	mkdir -p "$dir/out"
	tar -xf "$dir/out.img" -C "$dir/out" 2>/dev/null
	rm -f "$dir/out.img"
	return "$(cat "$dir/rc")"
}

# vm_cable DIR: in the background, pull the guest's cable when its console
# says "cable out, please" and plug it back on "cable in, please" (qemu's
# set_link: carrier lost, the netdev itself stays up)
vm_cable() {
	local dir=$1
	(
		for step in "cable out:off" "cable in:on"; do
			while ! grep -q "@@ .* ${step%:*}, please" "$dir/console.log"; do
				[ -f "$dir/end" ] && exit 0
				sleep 0.5
			done
			echo "set_link n0 ${step#*:}" >"$dir/mon.in"
		done
		# qemu answers on mon.out: drain it, nobody else reads it
		timeout 1 cat "$dir/mon.out" >/dev/null
	) &
}

vm_stop() {
	local d
	for d in "$@"; do
		[ -f "$d/qemu.pid" ] && kill "$(cat "$d/qemu.pid")" 2>/dev/null
		rm -f "$d/qemu.pid"
	done
	return 0
}
