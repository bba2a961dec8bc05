# The command-equivalent views of ports, GIDs and the Ethernet side
# (ibv_devinfo, ibstat, show_gids, ethtool -S, dcb pfc show) against
# goldens written by hand from the tools' format code (rdma-core devinfo.c
# and ibstat.c, mlnx-tools show_gids, ethtool do_gstats, iproute2
# dcb_pfc.c) and the fixture values: tests/golden/views/<kind>.<case>
cd "$T" || exit 1
G="$TOP/tests/golden/views"

for k in gpu-ndr8 roce-pfc rxe; do
	mknode "$k" "$k" >/dev/null 2>&1 || fail "$k fixture builds"
	"$RC" -q --root "$k" -o "$k.rdma.tar.zst" >/dev/null 2>&1 ||
		fail "$k collects"
done

# golden KIND CASE ARGS...: rdma-analyze show KIND.rdma.tar.zst ARGS
golden() {
	kind=$1 case=$2
	shift 2
	if "$RA" show "$kind.rdma.tar.zst" "$@" >out.txt 2>err.txt &&
	   cmp -s out.txt "$G/$kind.$case"; then
		ok "$kind: show $* matches golden $kind.$case"
	else
		fail "$kind: show $* matches golden $kind.$case"
		diff "$G/$kind.$case" out.txt | head -20 | sed 's/^/#   /'
		sed 's/^/#   stderr: /' err.txt | head -5
	fi
}

golden roce-pfc ibv_devinfo ibv_devinfo
golden roce-pfc ibv_devinfo-v-d-mlx5_1 ibv_devinfo -v -d mlx5_1
golden gpu-ndr8 ibv_devinfo-l ibv_devinfo -l
golden roce-pfc ibstat ibstat
golden gpu-ndr8 ibstat-mlx5_0-1 ibstat mlx5_0 1
golden rxe ibstat ibstat
golden roce-pfc show_gids show_gids
golden gpu-ndr8 show_gids-mlx5_0 show_gids mlx5_0
golden rxe ethtool-S-eth0 ethtool -S eth0
golden roce-pfc dcb-pfc-show-dev-ens1f1np1 dcb pfc show dev ens1f1np1
golden roce-pfc dcb-s-pfc-show-dev-ens1f1np1 dcb -s pfc show dev ens1f1np1

# -v on InfiniBand: phys_state and the IB GID in full form, no type suffix
"$RA" show gpu-ndr8.rdma.tar.zst ibv_devinfo -v -d mlx5_2 >out.txt 2>&1
check "ibv_devinfo -v: IB GID in full form without a RoCE suffix" \
	grep -Fqx "$(printf '\t\t\tGID[  0]:\t\tfe80:0000:0000:0000:9c63:c003:00e1:7a20')" out.txt
check "ibv_devinfo -v: phys_state LINK_UP (5)" \
	grep -Fqx "$(printf '\t\t\tphys_state:\t\tLINK_UP (5)')" out.txt
check "ibv_devinfo -v: active_speed of NDR per lane" \
	grep -Fqx "$(printf '\t\t\tactive_speed:\t\t100.0 Gbps (128)')" out.txt

# bad arguments and missing evidence: exit 4, one line on stderr, no output
for args in "ethtool -S nosuch0" "ethtool eth0" "dcb pfc show dev eth0" \
	"ibv_devinfo -d mlx5_9" "ibstat mlx5_9" "show_gids mlx5_9" \
	"dcb pfc show dev ../../etc"; do
	# shellcheck disable=SC2086
	"$RA" show rxe.rdma.tar.zst $args >out.txt 2>err.txt
	rc=$?
	check_eq "show $args: exit 4" "$rc" 4
	check_eq "show $args: nothing on stdout" "$(cat out.txt)" ""
done

# a stat name with a trailing space is printed as it is
python3 - roce-pfc/rdma-collect/ethtool/ens1f0np0.json <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
d["stats"] = [["tx_pause_storm_warning_events ", 0], ["rx_out_of_buffer", 18446744073709551615]]
json.dump(d, open(p, "w"))
PY
"$RC" -q --root roce-pfc -o r2.rdma.tar.zst >/dev/null 2>&1
"$RA" show r2.rdma.tar.zst ethtool -S ens1f0np0 >out.txt 2>&1
check_eq "ethtool -S: trailing space kept, u64 values" "$(cat out.txt)" \
	"$(printf 'NIC statistics:\n     tx_pause_storm_warning_events : 0\n     rx_out_of_buffer: 18446744073709551615')"
