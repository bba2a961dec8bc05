# views-klog: `rdma-analyze show BUNDLE dmesg [--rdma]` prints the kernel
# log as dmesg does ("[%5lu.%06lu] text"), from either stored form; and the
# klog table the loader fills (device, category).  Expected outputs are
# written by hand from the fixtures' records and dmesg's format.
cd "$T" || exit 1

mknode roce-pfc roce >/dev/null 2>&1 || fail "roce-pfc fixture builds"
mknode rxe rxe >/dev/null 2>&1 || fail "rxe fixture builds"
"$RC" -q --root roce -o r.rdma.tar.zst >/dev/null 2>&1
"$RC" -q --root rxe -o x.rdma.tar.zst >/dev/null 2>&1

cat >want-rxe <<'EOF'
[    0.000000] Linux version 6.1.0-27-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.115-1 (2024-11-01)
[    0.088123] Kernel command line: console=ttyS0 rdinit=/init quiet
[    0.402311] pci 0000:00:03.0: [1af4:1000] type 00 class 0x020000
[   29.812004] rdma_rxe: loaded
[   29.901877] infiniband rxe0: set active
[   29.901990] infiniband rxe0: added eth0
EOF
"$RA" show x.rdma.tar.zst dmesg >got-rxe 2>err
check_eq "dmesg: rxe's log, records without their continuation lines" \
	"$(cat got-rxe)" "$(cat want-rxe)"

cat >want-roce <<'EOF'
[    2.004121] iommu: Default domain type: Passthrough (set via kernel command line)
[    3.120000] mlx5_core 0000:17:00.0: firmware version: 22.39.2048
[    3.120011] mlx5_core 0000:17:00.0: 252.048 Gb/s available PCIe bandwidth (16.0 GT/s PCIe x16 link)
[    3.139877] mlx5_core 0000:17:00.0: Port module event: module 0, Cable plugged
[    3.530000] mlx5_core 0000:17:00.1: firmware version: 22.39.2048
[    3.530011] mlx5_core 0000:17:00.1: 252.048 Gb/s available PCIe bandwidth (16.0 GT/s PCIe x16 link)
[    3.549877] mlx5_core 0000:17:00.1: Port module event: module 1, Cable plugged
[    7.800000] mlx5_core 0000:17:00.0 ens1f0np0: Link up
[    7.801000] mlx5_core 0000:17:00.1 ens1f1np1: Link up
EOF
"$RA" show r.rdma.tar.zst dmesg --rdma >got-roce 2>err
check_eq "dmesg --rdma: only the RDMA-relevant lines of roce-pfc" \
	"$(cat got-roce)" "$(cat want-roce)"
check_eq "dmesg: every record of roce-pfc (20 records in 48 lines)" \
	"$("$RA" show r.rdma.tar.zst dmesg | wc -l | tr -d ' ')" 20

# the klogctl form: "<prio>[secs.usecs] text"; seconds wider than 5 digits
cp -a roce rs
rm rs/rdma-collect/klog/kmsg.txt
printf '%s\n' '<6>[    3.120000] mlx5_core 0000:17:00.0: firmware version: 22.39.2048' \
	'<6>[    3.500000] igb 0000:03:00.0: added PHC on eth0' \
	'<6>[123456.000001] mlx5_core 0000:17:00.0 ens1f0np0: Link down' \
	'<3>[123460.25] mlx5_core 0000:17:00.0: port_module:286:(pid 0): Port module event[error]: module 0, Cable error, High Temperature' \
	>rs/rdma-collect/klog/syslog.txt
"$RC" -q --root rs -o s.rdma.tar.zst >/dev/null 2>&1
cat >want-syslog <<'EOF'
[    3.120000] mlx5_core 0000:17:00.0: firmware version: 22.39.2048
[123456.000001] mlx5_core 0000:17:00.0 ens1f0np0: Link down
[123460.250000] mlx5_core 0000:17:00.0: port_module:286:(pid 0): Port module event[error]: module 0, Cable error, High Temperature
EOF
"$RA" show s.rdma.tar.zst dmesg --rdma >got-syslog 2>err
check_eq "dmesg --rdma: the syslog.txt form" "$(cat got-syslog)" "$(cat want-syslog)"

# errors: unknown argument; no kernel log at all
"$RA" show r.rdma.tar.zst dmesg -T >/dev/null 2>err
check "dmesg: an unknown argument fails with a message" sh -c \
	"test $? -ne 0 && grep -q 'unknown argument' err"
"$RC" -q --root roce --skip klog -o n.rdma.tar.zst >/dev/null 2>&1
"$RA" show n.rdma.tar.zst dmesg >out 2>err
rc=$?
check "dmesg: a bundle without kernel log fails with one line" sh -c \
	"test $rc -ne 0 && test ! -s out && grep -q 'no kernel log' err && test \$(wc -l <err) -eq 1"

# the klog table: one row per record, device from DEVICE= or the text,
# category of each line
"$RA" load --db k.db r.rdma.tar.zst s.rdma.tar.zst >/dev/null 2>&1
check "klog table: rows, devices and categories" python3 -c '
import sqlite3
db = sqlite3.connect("k.db")
q = lambda s: db.execute(s).fetchall()
assert q("SELECT count(*) FROM klog WHERE bundle_id = 1") == [(20,)], q("SELECT count(*) FROM klog WHERE bundle_id = 1")
assert q("SELECT count(*) FROM klog WHERE bundle_id = 1 AND device = \"0000:17:00.1\"") == [(7,)]
cats = dict(q("SELECT category, count(*) FROM klog WHERE bundle_id = 1 AND category IS NOT NULL GROUP BY 1"))
assert cats == {"iommu": 1, "probe": 8}, cats
rows = q("SELECT seq, ts_us, prio, device, category FROM klog WHERE bundle_id = 2 ORDER BY rowid")
assert rows == [(None, 3120000, 6, "0000:17:00.0", "probe"), (None, 3500000, 6, "0000:03:00.0", None),
                (None, 123456000001, 6, "0000:17:00.0", "link_flap"),
                (None, 123460250000, 3, "0000:17:00.0", "cable_module")], rows
'
