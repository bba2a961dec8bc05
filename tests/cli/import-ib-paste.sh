# import-ib-paste: InfiniBand host evidence as people paste it (issue 17,
# tests/real): a copy of sys/class/infiniband outside its tree, ibstat
# dying on a device (DEVICE_VANISHED), plain ls of /dev/infiniband beside
# ls of /sys/class/infiniband (DEVNODE_MISSING by count), and a command
# that printed nothing because it worked.  Each with the input that must
# not fire.
cd "$T" || exit 1

findings() {	# INPUT: "RULE component severity" lines
	"$RA" report --format json "$1" 2>/dev/null | python3 -c '
import json, sys
for n in json.load(sys.stdin)["nodes"]:
    for f in n["findings"]:
        print(f["rule"], f["component"], f["severity"])'
}

# --- a copy of the class folder (cp -r: device folders as plain dirs)
port() {	# DIR N STATE
	mkdir -p "$1/ports/$2/counters"
	echo "$3" >"$1/ports/$2/state"
	echo "5: LinkUp" >"$1/ports/$2/phys_state"
	echo "40 Gb/sec (4X QDR)" >"$1/ports/$2/rate"
	echo 0 >"$1/ports/$2/counters/symbol_error"
}
for form in sys/class/infiniband class/infiniband infiniband .; do
	d="copy-$(echo "$form" | tr / _)"
	mkdir -p "$d/$form/mlx4_0"
	echo 2.31.5050 >"$d/$form/mlx4_0/fw_ver"
	port "$d/$form/mlx4_0" 1 "4: ACTIVE"
	"$RA" report "$d" >"$d.out" 2>&1
	check_eq "sysfs copy at '$form': read, healthy" "$?" 0
	check_eq "sysfs copy at '$form': nothing unread" \
		"$(findings "$d" | grep -c INPUT_UNREAD)" 0
done
# the device's own folder alone
mkdir -p devonly/mlx4_0 && port devonly/mlx4_0 1 "1: DOWN"
check_eq "a device folder alone: its port read" \
	"$(findings devonly | grep -c '^PORT_DOWN mlx4_0:1')" 1
# a folder of outputs that holds no ports/ is no device folder
mkdir -p notes/node1 && printf 'CA type: x\n' >notes/node1/fw_ver
check "a folder without ports/ is not taken for sysfs" \
	sh -c '! "$RA" report notes >/dev/null 2>&1'

# --- DEVICE_VANISHED
printf "ibpanic: [769778] main: stat of IB device 'mlx5_an0' failed: No such file or directory\n" >ibstat.txt
check_eq "ibpanic: DEVICE_VANISHED on the device" "$(findings ibstat.txt)" \
	"DEVICE_VANISHED mlx5_an0 critical"
cat >ok.txt <<'EOF'
CA 'mlx5_0'
	CA type: MT4124
	Number of ports: 1
	Port 1:
		State: Active
		Physical state: LinkUp
		Rate: 200
		Base lid: 13
		SM lid: 1
		Port GUID: 0x00155dfffd3411eb
		Link layer: InfiniBand
EOF
check_eq "a whole ibstat: no DEVICE_VANISHED" \
	"$(findings ok.txt | grep -c DEVICE_VANISHED)" 0

# --- DEVNODE_MISSING from two plain ls
cat >half.txt <<'EOF'
# ls /sys/class/infiniband
mlx5_0  mlx5_1  mlx5_2  mlx5_3

# ls /dev/infiniband/
rdma_cm  ucm0  ucm2  uverbs0  uverbs2
EOF
check_eq "4 devices, 2 uverbs: DEVNODE_MISSING" \
	"$(findings half.txt | grep DEVNODE_MISSING)" "DEVNODE_MISSING uverbs critical"
sed 's/uverbs0  uverbs2/uverbs0  uverbs1  uverbs2  uverbs3/' half.txt >all.txt
check_eq "4 devices, 4 uverbs: none" "$(findings all.txt | grep -c DEVNODE_MISSING)" 0

# --- a command that printed nothing because it worked
cat >quiet.txt <<'EOF'
$ sudo rmmod ib_uverbs
$ rdma link show
link siw0/1 state ACTIVE physical_state LINK_UP netdev enp0s31f6
EOF
check_eq "rmmod's silence is not an unread input" \
	"$(findings quiet.txt | grep -c INPUT_UNREAD)" 0
printf '$ ibstat\n$ rdma link show\nlink siw0/1 state ACTIVE physical_state LINK_UP netdev enp0s31f6\n' >quiet2.txt
check_eq "ibstat's silence still is" \
	"$(findings quiet2.txt | grep -c INPUT_UNREAD)" 1
