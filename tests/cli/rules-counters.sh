# rules-counters: COUNTER_SATURATED on a fixture node whose counters sit at
# their field's maximum (8-bit link_downed, 16-bit symbol_error, 32-bit
# port_xmit_wait), and not one below it or on a 64-bit data counter
cd "$T" || exit 1
mknode gpu-ndr8 node >/dev/null
c=node/sys/class/infiniband/mlx5_0/ports/1/counters
echo 255 >$c/link_downed
echo 65535 >$c/symbol_error
echo 4294967295 >$c/port_xmit_wait
c=node/sys/class/infiniband/mlx5_1/ports/1/counters
echo 254 >$c/link_downed
echo 65534 >$c/symbol_error
echo 4294967295 >$c/port_xmit_data
"$RC" -q --root node -o b.rdma.tar.zst >/dev/null 2>&1
check "the node's bundle" test -s b.rdma.tar.zst
check_eq "saturated counters: one finding each, at warning, on their port" \
	"$("$RA" report -f json b.rdma.tar.zst 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join(sorted(f["component"] + ":" + f["summary"].split()[0] + ":" + f["severity"]
      for n in d["nodes"] for f in n["findings"] if f["rule"] == "COUNTER_SATURATED")))')" \
	"mlx5_0:1:link_downed:warning mlx5_0:1:port_xmit_wait:warning mlx5_0:1:symbol_error:warning"
