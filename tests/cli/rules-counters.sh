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

# counters at or past 2^63: 2^64 - 1 (a saturated 64-bit value) in a 16-bit
# field and a 64-bit one, 2^63 exactly, and past 2^64 (no u64 holds it):
# stored at INT64_MAX, never negative, so the error checks see them and
# COUNTER_SATURATED names each
mknode gpu-ndr8 big >/dev/null
c=big/sys/class/infiniband/mlx5_0/ports/1/counters
echo 18446744073709551615 >$c/symbol_error
echo 18446744073709551615 >$c/port_rcv_errors
echo 9223372036854775808 >$c/link_error_recovery
echo 99999999999999999999999 >$c/port_xmit_discards
"$RC" -q --root big -o big.rdma.tar.zst >/dev/null 2>&1
"$RA" load --db big.db big.rdma.tar.zst >/dev/null 2>&1
check_eq "counters past 2^63: stored at INT64_MAX, none negative" \
	"$(sqlite3 big.db "SELECT name || '=' || value FROM counters WHERE ibdev = 'mlx5_0' AND port = 1 AND name IN ('symbol_error', 'port_rcv_errors', 'link_error_recovery', 'port_xmit_discards') ORDER BY name" | tr '\n' ' ')" \
	"link_error_recovery=9223372036854775807 port_rcv_errors=9223372036854775807 port_xmit_discards=9223372036854775807 symbol_error=9223372036854775807 "
rules_of() {	# the components of rule $1's findings in big.rdma.tar.zst
	"$RA" report -f json big.rdma.tar.zst 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join(sorted(f["component"] for n in d["nodes"] for f in n["findings"]
      if f["rule"] == sys.argv[1])))' "$1"
}
check_eq "SYMBOL_ERRORS sees 2^64 - 1" "$(rules_of SYMBOL_ERRORS)" "mlx5_0:1"
check_eq "PORT_RCV_ERRORS sees 2^64 - 1" "$(rules_of PORT_RCV_ERRORS)" "mlx5_0:1"
check_eq "COUNTER_SATURATED: one finding for each of the four" \
	"$("$RA" report -f json big.rdma.tar.zst 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join(sorted(f["summary"].split()[0] for n in d["nodes"] for f in n["findings"]
      if f["rule"] == "COUNTER_SATURATED")))')" \
	"link_error_recovery port_rcv_errors port_xmit_discards symbol_error"
