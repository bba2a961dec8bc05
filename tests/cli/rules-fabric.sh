# rules-fabric: the checks MAD evidence makes possible (analyze/rules-hca.c's
# far side, rules-sm.c, rules-fleet.c's fabric_fw_mixed)
# on the gpu-ndr8 fixture with hand-built mad documents (each port cabled to
# a leaf switch) and a fabric scan of a 2x3x3 fat tree: each fires on the
# right component and side with an injected fault, and stays quiet when
# healthy; a port seen both in mad and in the fabric scan is reported once.
. "$TOP/tests/fabric-lib.sh"
cd "$T" || exit 1

MINE="SM_ABSENT SM_NOT_MASTER LINK_DEGRADED SYMBOL_ERRORS PORT_RCV_ERRORS LINK_FLAPPING XMIT_DISCARDS XMIT_WAIT_HIGH"
LEAF="MF0;ib-leaf07:MQM9700/U1"

# rows "RULE severity component" of $MINE, and "RULE|component|summary"
rows() {
	"$RA" report --format json "$1" 2>/dev/null | python3 -c '
import json, sys
mine = sys.argv[1].split()
d = json.load(sys.stdin)
for n in d["nodes"]:
    for f in n["findings"]:
        if f["rule"] in mine:
            print(f["rule"], f["severity"], f["component"])' "$MINE" | sort
}
has() {		# has "what" BUNDLE "RULE severity component"
	if rows "$2" | grep -qxF -- "$3"; then ok "$1"; else
		fail "$1"; echo "#   want: $3"; rows "$2" | sed 's/^/#   got:  /'; fi
}
skipped() {
	"$RA" report --format json "$1" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
for n in d["nodes"]:
    for s in n.get("skipped", []):
        print(s.get("rule"))' | grep -qx "$2"
}

contains() {	# contains "what" TEXT NEEDLE
	case $2 in *"$3"*) ok "$1" ;; *) fail "$1"; echo "#   got:  $2"; echo "#   want: *$3*" ;; esac
}

mknode gpu-ndr8 g >/dev/null 2>&1 || fail "gpu-ndr8 fixture builds"
python3 "$MKFABRIC" mad g
python3 "$MKFABRIC" fabric g/rdma-collect/fabric/fabric.json 2 3 3
mad_bundle g ok.rdma.tar.zst || fail "healthy bundle"
check_eq "healthy: none of the fabric rules fires" "$(MINE="$MINE" loud ok.rdma.tar.zst)" ""
if skipped ok.rdma.tar.zst SM_NOT_MASTER; then fail "healthy: SM_NOT_MASTER ran"; else ok "healthy: SM_NOT_MASTER ran"; fi

# without the mad source the SMInfo check is skipped, the others keep
# their sysfs behaviour
mknode gpu-ndr8 plain >/dev/null 2>&1
mad_bundle plain plain.rdma.tar.zst
check "no mad source: SM_NOT_MASTER is skipped" skipped plain.rdma.tar.zst SM_NOT_MASTER

# --- faults on the node's own cables (mad) ---
cp -a g m
M=m/rdma-collect/mad
setjson $M/mlx5_0.1.json '
d["peer"]["pma"]["PortCounters"]["PortXmitDiscards"] = 9
d["peer"]["pma"]["PortCounters"]["PortXmitWait"] = 600000'
setjson $M/mlx5_1.1.json 'd["local"]["portinfo"]["LinkWidthActive"] = 1
d["peer"]["portinfo"]["LinkWidthActive"] = 1'
setjson $M/mlx5_2.1.json 'd["local"]["portinfo"]["LinkSpeedExtActive"] = 4
d["peer"]["portinfo"]["LinkSpeedExtActive"] = 4'
# HDR active where the switch port supports no more than HDR: not degraded
setjson $M/mlx5_4.1.json 'd["local"]["portinfo"]["LinkSpeedExtActive"] = 4
d["peer"]["portinfo"]["LinkSpeedExtActive"] = 4
d["peer"]["portinfo"]["LinkSpeedExtSupported"] = 7
d["peer"]["portinfo"]["LinkSpeedExtEnabled"] = 7'
setjson $M/mlx5_3.1.json 'del d["sminfo"]; d["errors"] = {"sminfo": "timeout"}; d["status"] = "partial"'
setjson $M/mlx5_5.1.json 'd["peer"]["pma"]["PortCounters"]["SymbolErrorCounter"] = 42'
setjson $M/mlx5_6.1.json 'd["peer"]["pma"]["PortCounters"]["PortRcvErrors"] = 5'
setjson $M/mlx5_7.1.json 'd["peer"]["pma"]["PortCounters"]["LinkDownedCounter"] = 3'
mad_bundle m m.rdma.tar.zst || fail "faulty mad bundle"

has "SM_ABSENT: no SMInfo answer on mlx5_3:1" m.rdma.tar.zst "SM_ABSENT critical mlx5_3:1"
check_eq "SM_ABSENT: the summary names the SM LID and the error" \
	"$(summary m.rdma.tar.zst SM_ABSENT mlx5_3:1)" \
	"no subnet manager answers mlx5_3:1: SMInfo to SM LID 1 failed (timeout)"
has "LINK_DEGRADED: 1X where both ends do 4X" m.rdma.tar.zst "LINK_DEGRADED critical mlx5_1:1"
check_eq "LINK_DEGRADED: the summary names the switch port and the best common rate" \
	"$(summary m.rdma.tar.zst LINK_DEGRADED mlx5_1:1)" \
	"link of mlx5_1:1 to $LEAF port 2 (0x7cfe900300c0aa00) runs 1X NDR where both ends support and enable 4X NDR"
has "LINK_DEGRADED: HDR where both ends do NDR" m.rdma.tar.zst "LINK_DEGRADED critical mlx5_2:1"
quiet() { check_eq "$1" "$(rows "$2" | grep -F -- "$3" || true)" ""; }
quiet "LINK_DEGRADED: HDR is the best the switch port enables: quiet" m.rdma.tar.zst "LINK_DEGRADED critical mlx5_4:1"
has "SYMBOL_ERRORS on the peer switch port" m.rdma.tar.zst \
	"SYMBOL_ERRORS warning $LEAF port 6 (peer of mlx5_5:1)"
check_eq "SYMBOL_ERRORS: received by the switch: the cable or the HCA's transmitter" \
	"$(summary m.rdma.tar.zst SYMBOL_ERRORS "$LEAF port 6 (peer of mlx5_5:1)")" \
	"SymbolErrorCounter 42 on $LEAF port 6 (peer of mlx5_5:1) (0x7cfe900300c0aa00): bit errors received over the cable: the cable, or the transmitter at mlx5_5:1"
has "PORT_RCV_ERRORS on the peer switch port" m.rdma.tar.zst \
	"PORT_RCV_ERRORS warning $LEAF port 7 (peer of mlx5_6:1)"
has "LINK_FLAPPING: LinkDownedCounter of the peer switch port" m.rdma.tar.zst \
	"LINK_FLAPPING warning $LEAF port 8 (peer of mlx5_7:1)"
has "XMIT_DISCARDS on the peer switch port" m.rdma.tar.zst \
	"XMIT_DISCARDS warning $LEAF port 1 (peer of mlx5_0:1)"
contains "XMIT_DISCARDS: congestion towards the HCA" \
	"$(summary m.rdma.tar.zst XMIT_DISCARDS "$LEAF port 1 (peer of mlx5_0:1)")" \
	"towards mlx5_0:1 dropped on egress: congestion"
has "XMIT_WAIT_HIGH: 60% of PortXmitData on the peer switch port" m.rdma.tar.zst \
	"XMIT_WAIT_HIGH warning $LEAF port 1 (peer of mlx5_0:1)"
check_eq "nothing else fires" "$(rows m.rdma.tar.zst | wc -l | tr -d ' ')" 8
check_eq "SM_NOT_MASTER stays quiet while the answering SM is master" \
	"$(rows m.rdma.tar.zst | grep -c SM_NOT_MASTER)" 0

cp -a g s
for f in s/rdma-collect/mad/*.json; do setjson "$f" 'd["sminfo"]["SmState"] = 2'; done
mad_bundle s s.rdma.tar.zst
has "SM_NOT_MASTER: a STANDBY SM answers: one finding for the SM" s.rdma.tar.zst "SM_NOT_MASTER warning sm"
check_eq "SM_NOT_MASTER: the summary names the state and the ports" \
	"$(summary s.rdma.tar.zst SM_NOT_MASTER sm)" \
	"the subnet manager at LID 1 (0x7cfe900300c0ff01, priority 15) answers mlx5_0:1, mlx5_1:1, mlx5_2:1, mlx5_3:1, mlx5_4:1, mlx5_5:1, mlx5_6:1, mlx5_7:1 in state STANDBY, not MASTER"

# --- faults anywhere in the fabric scan ---
cp -a g f
setjson f/rdma-collect/fabric/fabric.json '
def port(desc, n):
    node = [x for x in d["nodes"] if x["desc"] == desc][0]
    return [p for p in node["ports"] if p["port"] == n][0]
port("MF0;spine1:MQM9700/U1", 2)["pma"]["PortCounters"]["SymbolErrorCounter"] = 17
port("MF0;leaf1:MQM9700/U1", 2)["pma"]["PortCounters"]["PortXmitDiscards"] = 4
port("MF0;leaf2:MQM9700/U1", 3)["pma"]["PortCounters"]["PortXmitWait"] = 900000
port("node001 mlx5_0", 1)["pma"]["PortCounters"]["SymbolErrorCounter"] = 5
port("MF0;leaf3:MQM9700/U1", 5)["width_active"] = 1
port("MF0;spine2:MQM9700/U1", 3)["width_active"] = 1'
mad_bundle f f.rdma.tar.zst
has "fabric: SYMBOL_ERRORS on a spine port" f.rdma.tar.zst \
	"SYMBOL_ERRORS warning MF0;spine1:MQM9700/U1 port 2"
contains "fabric: received by spine1 from leaf2's transmitter" \
	"$(summary f.rdma.tar.zst SYMBOL_ERRORS 'MF0;spine1:MQM9700/U1 port 2')" \
	"the transmitter at MF0;leaf2:MQM9700/U1 port 4"
has "fabric: XMIT_DISCARDS on a leaf port" f.rdma.tar.zst "XMIT_DISCARDS warning MF0;leaf1:MQM9700/U1 port 2"
has "fabric: XMIT_WAIT_HIGH on a leaf port" f.rdma.tar.zst "XMIT_WAIT_HIGH warning MF0;leaf2:MQM9700/U1 port 3"
has "fabric: LINK_DEGRADED on a leaf-spine cable, named by both ends" f.rdma.tar.zst \
	"LINK_DEGRADED critical MF0;leaf3:MQM9700/U1 port 5 <-> MF0;spine2:MQM9700/U1 port 3"
has "fabric: another node's HCA port, named by the scan" f.rdma.tar.zst \
	"SYMBOL_ERRORS warning node001 mlx5_0 port 1"
check_eq "fabric: nothing else fires" "$(rows f.rdma.tar.zst | wc -l | tr -d ' ')" 5
# the bundle's own HCA port in the scan: its sysfs counters (0) are the
# same PMA counters, and the sysfs query has it; no second finding
cp -a f o
setjson o/rdma-collect/fabric/fabric.json '
node = [x for x in d["nodes"] if x["desc"] == "node001 mlx5_0"][0]
node["guid"] = "0x9c63c00300e17a00"'
mad_bundle o o.rdma.tar.zst
check_eq "fabric: the bundle's own HCA port is left to its sysfs counters" \
	"$(rows o.rdma.tar.zst | grep -c node001 || true)" 0

# --- one port in both the mad documents and the fabric scan: once ---
cp -a g b
setjson b/rdma-collect/mad/mlx5_0.1.json '
d["peer"]["nodeinfo"]["NodeGuid"] = "0x7cfe900300c10001"
d["peer"]["nodeinfo"]["LocalPort"] = 1
d["peer"]["pma"]["PortCounters"]["SymbolErrorCounter"] = 42'
setjson b/rdma-collect/fabric/fabric.json '
node = [x for x in d["nodes"] if x["desc"] == "MF0;leaf1:MQM9700/U1"][0]
node["ports"][1]["pma"]["PortCounters"]["SymbolErrorCounter"] = 42'
mad_bundle b b.rdma.tar.zst
check_eq "a port in mad and in the fabric scan is reported once, from mad" \
	"$(rows b.rdma.tar.zst | grep SYMBOL_ERRORS)" \
	"SYMBOL_ERRORS warning $LEAF port 1 (peer of mlx5_0:1)"
