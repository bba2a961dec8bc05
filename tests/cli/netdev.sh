# the netdev source: live (no RDMA here: absent, but the addresses are
# written and match `ip`), and under --root on a small tree with two RDMA
# devices (a PCI one behind a bond, a soft rxe one)
cd "$T" || exit 1

src_field() {
	manifest "$1" | python3 -c '
import json, sys
m = json.load(sys.stdin)
s = [x for x in m["sources"] if x["name"] == sys.argv[1]][0]
print(eval(sys.argv[2]))' "$2" "$3"
}

mkdir live
"$RC" -q --only netdev -o live >out.txt 2>err.txt
check_eq "live run exits 0" "$?" 0
b=$(cat out.txt)
if [ ! -e /sys/class/infiniband ]; then
	check_eq "no RDMA here: netdev absent" "$(src_status "$b" netdev)" absent
	check_eq "reason" "$(src_field "$b" netdev 's["reason"]')" \
		"no netdev behind an RDMA port"
else
	skip "netdev absent" "this machine has RDMA devices"
fi
tar --zstd -xOf "$b" rdma-collect/net/addresses.json >addresses.json
check "addresses.json is a JSON array" \
	python3 -c 'import json; assert isinstance(json.load(open("addresses.json")), list)'
if command -v ip >/dev/null && ip -j addr >ip.json 2>/dev/null; then
	# the same (ifname, family, address, prefixlen, scope) set as ip
	check "addresses match ip -j addr" python3 -c '
import json
mine = {(a["ifname"], a["family"], a["address"], a["prefixlen"], a["scope"])
	for a in json.load(open("addresses.json"))}
ip = {(i["ifname"], x["family"], x["local"], x["prefixlen"], x["scope"])
      for i in json.load(open("ip.json")) for x in i.get("addr_info", [])
      if x["family"] in ("inet", "inet6")}
assert mine == ip, (sorted(mine ^ ip))
assert len(mine) > 0'
else
	skip "addresses match ip -j addr" "no ip (iproute2) with -j"
fi

# a node tree: mlx5_0 (PCI 0000:b1:00.0, netdev ens1f0np0, enslaved to
# bond0) and rxe0 (parent eth9)
R=$T/root
D=$R/sys/devices/pci0000:b0/0000:b0:02.0/0000:b1:00.0
mkdir -p "$D/infiniband/mlx5_0/ports/1/gid_attrs/ndevs" \
	"$D/net/ens1f0np0/statistics" "$D/net/ens1f0np0/queues/rx-0" \
	"$D/net/ens1f0np0/power" "$R/sys/devices/virtual/net/bond0/bonding" \
	"$R/sys/devices/virtual/net/eth9/statistics" \
	"$R/sys/devices/virtual/infiniband/rxe0/ports/1" \
	"$R/sys/class/infiniband" "$R/sys/class/net"
ln -s ../../devices/pci0000:b0/0000:b0:02.0/0000:b1:00.0/infiniband/mlx5_0 \
	"$R/sys/class/infiniband/mlx5_0"
ln -s ../../devices/virtual/infiniband/rxe0 "$R/sys/class/infiniband/rxe0"
ln -s ../../../0000:b1:00.0 "$D/infiniband/mlx5_0/device"
echo ens1f0np0 >"$D/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/0"
echo bond0 >"$D/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/1"
: >"$D/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/2"
echo eth9 >"$R/sys/devices/virtual/infiniband/rxe0/parent"
N=$D/net/ens1f0np0
for f in address mtu operstate carrier speed dev_port ifindex; do
	echo "$f-value" >"$N/$f"
done
echo 12345 >"$N/statistics/rx_bytes"
echo x >"$N/queues/rx-0/rps_cpus"
echo auto >"$N/power/control"
echo x >"$N/uevent"
ln -s ../../../0000:b1:00.0 "$N/device"
ln -s ../../../../virtual/net/bond0 "$N/master"
echo "802.3ad 4" >"$R/sys/devices/virtual/net/bond0/bonding/mode"
ln -s ../../pci0000:b0/0000:b0:02.0/0000:b1:00.0/net/ens1f0np0 \
	"$R/sys/devices/virtual/net/bond0/lower_ens1f0np0"
echo 9000 >"$R/sys/devices/virtual/net/eth9/mtu"
ln -s ../../devices/pci0000:b0/0000:b0:02.0/0000:b1:00.0/net/ens1f0np0 \
	"$R/sys/class/net/ens1f0np0"
ln -s ../../devices/virtual/net/bond0 "$R/sys/class/net/bond0"
ln -s ../../devices/virtual/net/eth9 "$R/sys/class/net/eth9"
mkdir -p "$R/rdma-collect/ethtool" "$R/rdma-collect/dcb" "$R/rdma-collect/net"
printf '{ "ifname": "ens1f0np0", "status": "ok", "stats": [["a  ", 1]] }\n' \
	>"$R/rdma-collect/ethtool/ens1f0np0.json"
printf '{ "ifname": "ens1f0np0", "status": "absent" }\n' \
	>"$R/rdma-collect/dcb/ens1f0np0.json"
printf '[]\n' >"$R/rdma-collect/net/addresses.json"

mkdir rooted
"$RC" -q --root "$R" --only netdev -o rooted >out.txt 2>err.txt
check_eq "--root run exits 0" "$?" 0
b=$(cat out.txt)
tar --zstd -tf "$b" >list.txt
check_eq "--root: netdev ok" "$(src_status "$b" netdev)" ok
check_eq "--root: netdevs from device/net, gid ndevs, parent, bond master" \
	"$(src_field "$b" netdev 's["notes"]["netdevs"]')" "bond0 ens1f0np0 eth9"
check "class link stored" grep -qx sys/class/net/ens1f0np0 list.txt
check "attributes mirrored" grep -qx \
	"sys/devices/pci0000:b0/0000:b0:02.0/0000:b1:00.0/net/ens1f0np0/mtu" list.txt
check "statistics mirrored" grep -q "net/ens1f0np0/statistics/rx_bytes$" list.txt
check "device and master links stored" sh -c \
	"grep -q 'net/ens1f0np0/device$' list.txt && grep -q 'net/ens1f0np0/master$' list.txt"
check "queues, power and uevent left out" sh -c \
	"! grep -q 'ens1f0np0/queues\|ens1f0np0/power\|ens1f0np0/uevent' list.txt"
check "bond master: bonding/ and lower_ link" sh -c \
	"grep -q 'virtual/net/bond0/bonding/mode$' list.txt && grep -q 'virtual/net/bond0/lower_ens1f0np0$' list.txt"
check "rxe parent netdev mirrored" grep -q "virtual/net/eth9/mtu$" list.txt
for f in ethtool/ens1f0np0.json dcb/ens1f0np0.json net/addresses.json; do
	check_eq "--root: stored $f copied unchanged" \
		"$(tar --zstd -xOf "$b" "rdma-collect/$f" | cksum)" \
		"$(cksum <"$R/rdma-collect/$f")"
done
check "nothing from the live system under --root" sh -c \
	"! grep -q 'ethtool/eth0\|dcb/eth0' list.txt"

# the same tree without its stored syscall evidence: partial, says why
rm -rf "$R/rdma-collect"
mkdir nostored
"$RC" -q --root "$R" --only netdev -o nostored >out.txt 2>err.txt
b=$(cat out.txt)
check_eq "--root without stored forms: partial" "$(src_status "$b" netdev)" partial
check_eq "--root without stored forms: reason" \
	"$(src_field "$b" netdev 's["reason"]')" \
	"no stored addresses under the root; no stored ethtool evidence under the root; no stored dcb evidence under the root"
