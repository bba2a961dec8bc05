# rules-klog-extra: DRIVER_PROBE_FAILED, FW_CMD_FAILED and KERNEL_OOPS
# (analyze/rules-klog-extra.c) on pasted kernel logs, each with an input
# that fires it and one that does not.

findings() {	# findings DIR RULE: "component severity" lines
	"$RA" report --format json "$1" 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)
for n in r["nodes"]:
    for f in n["findings"]:
        if f["rule"] == sys.argv[1]:
            print(f["component"], f["severity"])' "$2"
}
klog() {	# klog NAME: stdin as NAME/dmesg.txt
	mkdir -p "$T/$1"
	cat >"$T/$1/dmesg.txt"
}

# a healthy probe: none of the three
klog healthy <<'K'
[    5.100000] mlx5_core 0000:3b:00.0: firmware version: 16.35.2000
[    5.200000] mlx5_core 0000:3b:00.0: 126.016 Gb/s available PCIe bandwidth (8.0 GT/s PCIe x16 link)
[    6.000000] mlx5_core 0000:3b:00.0 ens1f0np0: Link up
[    7.000000] WARNING: CPU: 3 PID: 1 at fs/proc/generic.c:381 proc_register+0x1/0x2
[    7.000001] Modules linked in: mlx5_ib ib_uverbs ib_core mlx5_core
[    7.000002] RIP: 0010:proc_register+0x1/0x2
[    7.000003] ---[ end trace 0000000000000000 ]---
K
for r in DRIVER_PROBE_FAILED FW_CMD_FAILED KERNEL_OOPS; do
	check_eq "$r: quiet on a healthy probe (a WARNING outside RDMA code too)" \
		"$(findings "$T/healthy" $r)" ""
done

# a failed command that makes the probe fail: one finding, the probe's
klog probe <<'K'
[   92.471247] mlx5_core 0000:0b:00.0: mlx5_cmd_check:744:(pid 13): CREATE_EQ(0x301) op_mod(0x0) failed, status bad parameter(0x3), syndrome (0x8fef)
[   94.866908] mlx5_core 0000:0b:00.0: init_one:1329:(pid 13): mlx5_load_one failed with error code -22
[   94.879657] mlx5_core: probe of 0000:0b:00.0 failed with error -22
[   95.017012] mlx5_core 0000:0b:00.1: firmware version: 14.21.1000
[  110.734351] mlx5_core 0000:0b:00.1: mlx5_cmd_out_err:808:(pid 650): CREATE_TIS(0x912) op_mod(0x0) failed, status bad parameter(0x3), syndrome (0x595b5d), err(-22)
[  110.749146] mlx5_core.eth: probe of mlx5_core.eth.2 failed with error -22
[  120.000000] mlx5_core 0000:0b:00.2: wait_func_handle_exec_timeout:1062:(pid 1416): cmd[0]: CREATE_EQ(0x301) recovered after timeout
K
check_eq "DRIVER_PROBE_FAILED: each function whose probe failed, an auxiliary driver's on the function before it" \
	"$(findings "$T/probe" DRIVER_PROBE_FAILED | tr '\n' ' ')" \
	"0000:0b:00.0 critical 0000:0b:00.1 critical "
check_eq "FW_CMD_FAILED: only where the probe did not fail (a timeout)" \
	"$(findings "$T/probe" FW_CMD_FAILED | tr '\n' ' ')" "0000:0b:00.2 warning "

# an oops whose trace runs through mlx5: critical; a WARNING: warning
klog oops <<'K'
<6>[ 1246.605901] mlx5_core 0000:4b:00.1: Shutdown was called
<4>[ 1246.608811] general protection fault, probably for non-canonical address 0xb028ffa964bb3e4b: 0000 [#1] SMP
<4>[ 1246.635401] Workqueue: mlx5_cmd_0000:4b:00.0 cmd_work_handler [mlx5_core]
<4>[ 1246.642459] RIP: 0010:mlx5_cmd_comp_handler+0xda/0x490 [mlx5_core]
<4>[ 1246.700000] ---[ end trace 0000000000000000 ]---
<4>[ 1300.000000] WARNING: CPU: 1 PID: 150 at drivers/infiniband/core/cma.c:1 cma_x+0x1/0x2 [rdma_cm]
<4>[ 1300.000001] RIP: 0010:cma_x+0x1/0x2 [rdma_cm]
K
check_eq "KERNEL_OOPS: a GPF in mlx5 code is critical, a WARNING in rdma_cm a warning" \
	"$(findings "$T/oops" KERNEL_OOPS | tr '\n' ' ')" "kernel critical kernel warning "
