# units: systemd/rdma-collect.service and .timer -- `systemd-analyze
# verify` finds nothing to say about them (run on copies whose ExecStart
# is the built collector, with the man page on MANPATH for
# Documentation=), and they carry what the man page promises: a daily,
# spread, persistent timer; a oneshot service writing into its
# StateDirectory with a retention, hardened without hiding what the
# collector reads.
svc=$TOP/systemd/rdma-collect.service
tim=$TOP/systemd/rdma-collect.timer

# has FILE KEY=VALUE: the unit sets KEY to exactly VALUE
has() { grep -qx "$2" "$1"; }
# lacks FILE KEY: the unit does not set KEY
lacks() { ! grep -q "^$2=" "$1"; }

for kv in OnCalendar=daily RandomizedDelaySec=1h Persistent=true \
	WantedBy=timers.target Documentation=man:rdma-collect\(8\); do
	check "timer: $kv" has "$tim" "$kv"
done
for kv in Type=oneshot StateDirectory=rdma-collect ProtectSystem=strict \
	ProtectHome=read-only NoNewPrivileges=yes IOSchedulingClass=idle \
	Nice=19 TimeoutStartSec=5min Documentation=man:rdma-collect\(8\); do
	check "service: $kv" has "$svc" "$kv"
done
check "service: ExecStart writes into the StateDirectory, quietly" \
	grep -q '^ExecStart=/usr/sbin/rdma-collect -q -o /var/lib/rdma-collect\( \|$\)' "$svc"
check "service: ExecStart keeps a history (--keep)" \
	grep -q '^ExecStart=.* --keep [0-9]' "$svc"
# the collector takes ExecStart's options: run them on a fixture node,
# into a folder standing for the StateDirectory
mknode rxe "$T/rxe" >/dev/null 2>&1
mkdir "$T/var"
args=$(sed -n 's#^ExecStart=/usr/sbin/rdma-collect ##p' "$svc" |
	sed "s#/var/lib/rdma-collect#$T/var#")
# shellcheck disable=SC2086
"$RC" $args --root "$T/rxe" >"$T/exec.out" 2>"$T/exec.err"
check_eq "service: the collector runs ExecStart's options (exit 0)" "$?" 0
check_eq "service: ExecStart's run is quiet, one bundle in the spool" \
	"$(cat "$T/exec.err"; ls "$T/var" | grep -c '\.rdma\.tar\.zst$')" 1
# these would hide /dev/infiniband, /dev/kmsg or the kernel log
for k in PrivateDevices ProtectKernelLogs ProtectClock DevicePolicy DeviceAllow; do
	check "service: no $k (the collector reads devices and the kernel log)" \
		lacks "$svc" "$k"
done
check "service: no [Install] (the timer starts it)" sh -c "! grep -q '^\[Install\]' '$svc'"

if ! command -v systemd-analyze >/dev/null; then
	skip "units: systemd-analyze verify" "systemd-analyze is not installed"
	exit 0
fi
mkdir -p "$T/u" "$T/man/man8"
cp "$TOP/collect/rdma-collect.8" "$T/man/man8/"
sed "s#^ExecStart=/usr/sbin/rdma-collect#ExecStart=$RC#" "$svc" >"$T/u/rdma-collect.service"
cp "$tim" "$T/u/"
check "the copy runs the built collector" grep -q "^ExecStart=$RC " "$T/u/rdma-collect.service"
MANPATH=$T/man SYSTEMD_LOG_LEVEL=notice systemd-analyze verify \
	"$T/u/rdma-collect.service" "$T/u/rdma-collect.timer" >"$T/verify" 2>&1
check_eq "systemd-analyze verify exits 0" "$?" 0
sed 's/^/#   /' "$T/verify"
check_eq "systemd-analyze verify says nothing" "$(cat "$T/verify")" ""
