#!/bin/sh
# tests/pairs-eval/capture.sh RC FABRIC ENGINE CACHE: the bundle of one
# evaluation fabric, its path on stdout.
#
# The fabric of tests/pairs-eval/topo.py (FABRIC: HOSTSxRAILS, "32x2", a
# fat tree of the issue 7 mix, or a shape name, "s2") runs on ibsim; opensm
# sweeps it once with routing engine ENGINE (minhop, updn, ftree, dor,
# lash, dfsssp), which programs
# the switches' real forwarding tables; then rdma-collect RC --fabric,
# attached at the first HCA, scans the subnet (LFTs included) into a
# bundle.  Captured once: the bundle is kept in CACHE under a name that
# carries a hash of the topology, the engine and this script, and a later
# call only prints it.  Exit 1 with a message on stderr when a step fails,
# including opensm falling back from ENGINE to another engine.
set -u
[ $# -eq 4 ] || { echo "usage: capture.sh RC FABRIC ENGINE CACHE" >&2; exit 2; }
RC=$1 FABRIC=$2 ENGINE=$3 CACHE=$4
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
: "${RANDOM:=0}"	# tests/ibsim/fabric.sh reads it; dash has none

mkdir -p "$CACHE" || exit 1
case $FABRIC in
*x*)	topo=$(python3 "$HERE/topo.py" "${FABRIC%x*}" "${FABRIC#*x}") ;;
*)	topo=$(python3 "$HERE/topo.py" "$FABRIC") ;;
esac || exit 1
key=$({ printf '%s\n%s\n' "$topo" "$ENGINE"; cat "$0"; } | sha256sum | cut -c1-12)
out="$CACHE/$FABRIC-$ENGINE-$key.rdma.tar.zst"
if [ -s "$out" ]; then
	echo "$out"
	exit 0
fi

. "$TOP/tests/ibsim/fabric.sh"
fab_have || { echo "capture: missing $FAB_MISSING" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pairs-capture.XXXXXX") || exit 1
FAB_SOCK=rcpe$$x$FABRIC$ENGINE
trap 'fab_stop; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
printf '%s\n' "$topo" >"$tmp/topo"
fab_start "$tmp/fab" "$tmp/topo" || exit 1

# fab_sm_once with a routing engine: the harness's own does not take one
osm="$tmp/fab/osm"
(cd "$FAB_DIR/cwd" && SIM_HOST=h001r1 LD_PRELOAD=$FAB_SHIM \
	OSM_TMP_DIR="$osm" OSM_CACHE_DIR="$osm" \
	timeout -k 2 600 opensm --once -e -R "$ENGINE" \
	-f "$osm/once.log" >"$osm/once.out" 2>&1)
# opensm falls back to minhop when an engine refuses the fabric; the
# figures would then belong to another engine
if ! grep -q "osm_ucast_mgr_process: $ENGINE tables configured on all switches" \
	"$osm/once.log"; then
	echo "capture: opensm did not route with $ENGINE:" >&2
	grep -i 'routing\|engine\|error' "$osm/once.log" | tail -5 >&2
	exit 1
fi

FAB_TIMEOUT=900 fab_run h001r1 "$RC" -q --only fabric --fabric \
	--fabric-timeout 600 -o "$tmp/b.rdma.tar.zst" >/dev/null 2>"$tmp/rc.err" ||
	{ cat "$tmp/rc.err" >&2; echo "capture: rdma-collect --fabric failed" >&2; exit 1; }
st=$(tar --zstd -xOf "$tmp/b.rdma.tar.zst" rdma-collect/fabric/fabric.json |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["status"])')
[ "$st" = ok ] || { echo "capture: the fabric scan is '$st', not ok" >&2; exit 1; }
mv "$tmp/b.rdma.tar.zst" "$out.tmp" && mv "$out.tmp" "$out" || exit 1
echo "$out"
