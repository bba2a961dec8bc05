# path: `rdma-analyze path --db FILE SRC DST` on a hand-built fabric scan
# (a 2x3x3 fat tree, tests/fixtures/mkfabric.py): the route both ways hop
# by hop, names/LIDs/GUIDs as endpoints, and each way a route can fail
# (no LFT entry, a loop, a dead link, a wrong CA) with its exit status.
# tests/cli/path-ibsim.sh compares with ibtracert on a simulated fabric.
. "$TOP/tests/fabric-lib.sh"
cd "$T" || exit 1

mknode gpu-ndr8 g >/dev/null 2>&1 || fail "gpu-ndr8 fixture builds"
python3 "$MKFABRIC" fabric g/rdma-collect/fabric/fabric.json 2 3 3
mad_bundle g f.rdma.tar.zst || fail "a bundle with a fabric scan"
"$RA" load --db f.db f.rdma.tar.zst >/dev/null 2>&1

# the route lines (what ibtracert prints), without counters and headers
route() { grep -v '^ \|^#\|^$'; }

"$RA" path --db f.db node001 node009 >out 2>err
check_eq "node001 -> node009 and back: exit 0" "$?" 0
check_eq "the route both ways, as ibtracert prints it" "$(route <out)" \
'From ca {0xb8cef60300d00002} portnum 1 lid 1-1 "node001 mlx5_0"
[1] -> switch port {0x7cfe900300c10001}[1] lid 10-10 "MF0;leaf1:MQM9700/U1"
[5] -> switch port {0x7cfe900300c20002}[1] lid 14-14 "MF0;spine2:MQM9700/U1"
[3] -> switch port {0x7cfe900300c10003}[5] lid 12-12 "MF0;leaf3:MQM9700/U1"
[3] -> ca port {0xb8cef60300d00013}[1] lid 9-9 "node009 mlx5_0"
To ca {0xb8cef60300d00012} portnum 1 lid 9-9 "node009 mlx5_0"
From ca {0xb8cef60300d00012} portnum 1 lid 9-9 "node009 mlx5_0"
[1] -> switch port {0x7cfe900300c10003}[3] lid 12-12 "MF0;leaf3:MQM9700/U1"
[5] -> switch port {0x7cfe900300c20002}[3] lid 14-14 "MF0;spine2:MQM9700/U1"
[1] -> switch port {0x7cfe900300c10001}[5] lid 10-10 "MF0;leaf1:MQM9700/U1"
[1] -> ca port {0xb8cef60300d00003}[1] lid 1-1 "node001 mlx5_0"
To ca {0xb8cef60300d00002} portnum 1 lid 1-1 "node001 mlx5_0"'
check_eq "each hop with the counters of its out and in ports" \
	"$(grep -c '^    out \[[0-9]*\]: no errors, PortXmitWait 0, PortXmitData 1000000$' out) $(grep -c '^    in ' out)" "8 8"
"$RA" path --db f.db 4 0x7cfe900300c20001 >out2 2>&1
check_eq "a LID and a switch GUID as endpoints: exit 0" "$?" 0
check_eq "a switch is reached at port 0" "$(grep '^To' out2 | head -1)" \
	'To switch {0x7cfe900300c20001} portnum 0 lid 13-13 "MF0;spine1:MQM9700/U1"'
"$RA" path --db f.db 'node004 mlx5_0' 0xb8cef60300d00003 >out3 2>&1
check_eq "a full description and a port GUID: exit 0" "$?" 0
check "... from node004 to node001" grep -q '^# node004 mlx5_0 -> node001 mlx5_0$' out3

# --- failures ---
fault() {	# fault NAME PYTHON: a scan with the edit, loaded in NAME.db
	cp -a g "$1"
	setjson "$1/rdma-collect/fabric/fabric.json" "
def node(desc):
    return [x for x in d['nodes'] if x['desc'] == desc][0]
$2"
	mad_bundle "$1" "$1.rdma.tar.zst" && "$RA" load --db "$1.db" "$1.rdma.tar.zst" >/dev/null 2>&1
}
fault hole 'node("MF0;leaf1:MQM9700/U1")["lft"][9] = 255'
"$RA" path --db hole.db node001 node009 >out 2>&1
check_eq "no LFT entry: exit 1" "$?" 1
check "... names the switch and the LID" grep -qF 'unreachable: "MF0;leaf1:MQM9700/U1" {0x7cfe900300c10001} has no route to LID 9 (no LFT entry, or port 255)' out
check "... the other direction is still traced" grep -q '^To ca {0xb8cef60300d00002}' out

fault loop 'node("MF0;spine2:MQM9700/U1")["lft"][9] = 1'
"$RA" path --db loop.db node001 node009 >out 2>&1
check_eq "a loop: exit 2" "$?" 2
check "... says where it comes back" grep -qF 'loop: the route to LID 9 comes back to "MF0;leaf1:MQM9700/U1" {0x7cfe900300c10001} after 3 hops' out

fault dead 'pt = node("MF0;leaf3:MQM9700/U1")["ports"][3]; pt["remote"] = None; pt["state"] = 1'
"$RA" path --db dead.db node001 node009 >out 2>&1
check_eq "a port without a link: exit 1" "$?" 1
check "... names the port" grep -qF 'unreachable: port 3 of "MF0;leaf3:MQM9700/U1" {0x7cfe900300c10003} has no link' out

fault wrong 'node("MF0;leaf3:MQM9700/U1")["lft"][9] = 2'
"$RA" path --db wrong.db node001 node009 >out 2>&1
check_eq "a route ending at another CA: exit 1" "$?" 1
check "... names it" grep -qF 'unreachable: the route to LID 9 ends at "node008 mlx5_0" port 1 (lid 8), not the destination' out

fault twin 'node("node002 mlx5_0")["desc"] = "node001 mlx5_1"'
"$RA" path --db twin.db node001 node009 >out 2>err
check_eq "a hostname with two HCAs is ambiguous: exit 3" "$?" 3
check "... and both are listed" sh -c 'grep -q "node001 mlx5_0" err && grep -q "node001 mlx5_1" err'
"$RA" path --db twin.db 'node001 mlx5_1' node009 >/dev/null 2>&1
check_eq "... the full description picks one" "$?" 0

"$RA" path --db f.db node001 nosuch >/dev/null 2>err
check_eq "an unknown node: exit 3" "$?" 3
check "... one line says so" grep -q "no node 'nosuch' in the fabric scan" err
"$RA" path --db f.db 77 node001 >/dev/null 2>&1
check_eq "an unassigned LID: exit 3" "$?" 3
"$RA" path node001 node009 >/dev/null 2>&1
check_eq "no --db: exit 3" "$?" 3
"$RA" path --db f.db node001 >/dev/null 2>&1
check_eq "one endpoint only: exit 3" "$?" 3
"$RA" path --db nosuch.db a b >/dev/null 2>&1
check_eq "a missing database: exit 4" "$?" 4
check "... is not created" test ! -e nosuch.db
"$RA" load --db plain.db "$TOP/samples/rxe-vm1-20251129T210405Z.rdma.tar.zst" >/dev/null 2>&1
"$RA" path --db plain.db a b >/dev/null 2>err
check_eq "a database without a fabric scan: exit 4" "$?" 4
check "... says to load one" grep -q 'rdma-collect --fabric' err
check "path --help gives the exit statuses" sh -c '"$1" path --help | grep -q "2 a route loops"' sh "$RA"

# --- -f json: the same routes ---
# the text's route lines rebuilt from the JSON, and each route's result
"$RA" path --db f.db -f json node001 node009 >out.json 2>/dev/null
check_eq "-f json: exit 0" "$?" 0
"$RA" path --db f.db node001 node009 | route >want
check "-f json: the same hops, ports and ends as the text" sh -c '
	python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
def port(e, pg):
    g = e[\"port_guid\"] if pg else e[\"guid\"]
    return \"{%s}[%d] lid %d-%d \\\"%s\\\"\" % (g, e[\"port\"], e[\"lid\"], e[\"lid_last\"], e[\"desc\"])
def end(w, e):
    return \"%s %s {%s} portnum %d lid %d-%d \\\"%s\\\"\" % (w, e[\"type\"], e[\"guid\"], e[\"port\"], e[\"lid\"], e[\"lid_last\"], e[\"desc\"])
for r in d[\"routes\"]:
    assert r[\"result\"] == \"arrived\" and r[\"reason\"] is None
    print(end(\"From\", r[\"from\"]))
    for h in r[\"hops\"]:
        assert h[\"out\"][\"PortXmitData\"] == 1000000 and h[\"out\"][\"errors\"] is None
        print(\"[%d] -> %s port %s\" % (h[\"out_port\"], h[\"next\"][\"type\"], port(h[\"next\"], 1)))
    print(end(\"To\", r[\"to\"]))
" out.json >got && diff got want'
"$RA" path --db loop.db --json node001 node009 >out.json 2>/dev/null
check_eq "--json, a loop: exit 2" "$?" 2
check "... its result and reason, the way back still arrived" python3 -c '
import json, sys
d = json.load(open("out.json"))
r = [x["result"] for x in d["routes"]]
assert r == ["loop", "arrived"], r
assert "comes back to" in d["routes"][0]["reason"]
assert d["scan"]["nodes"] > 0'
