#!/bin/bash
# tests/mkfleet.sh BUILD: rebuild samples/fleet/ — a sample fleet of 18 nodes
# (12 gpu-ndr8 InfiniBand, 6 roce-pfc RoCE), healthy and faulty, made from
# the fixture nodes (tests/fixtures/mknode.sh) with faults applied by
# tests/fixtures/inject.sh, collected with `rdma-collect --root --commands`.
#
# Writes samples/fleet/<host>-*.rdma.tar.zst and samples/fleet/faults.tsv,
# the machine-readable truth: one row per expected finding,
#     node <TAB> check <TAB> component <TAB> fault <TAB> required|implied
# (component: '|'-separated alternatives, empty = any; "implied" rows are
# consequences a rule may report but need not, e.g. fleet outliers).
# With SOURCE_DATE_EPOCH, relative roots and the collector run through PATH
# the bundles are byte-identical on every run and from any build dir.
# FLEET_OUT=DIR writes the fleet there instead (tests/cli/fleet-e2e.sh).
set -eu
export LC_ALL=C
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${1:-build}" && pwd)
export SOURCE_DATE_EPOCH=1764450245
OUT=${FLEET_OUT:-$TOP/samples/fleet}
INJ=$TOP/tests/fixtures/inject.sh

# node kind faults (fault or fault:ARG, space-separated; - = healthy)
FLEET="gpu-a01 gpu-ndr8 -
gpu-a02 gpu-ndr8 -
gpu-a03 gpu-ndr8 -
gpu-a04 gpu-ndr8 pcie-degraded:mlx5_2 acs-enabled:mlx5_5
gpu-a05 gpu-ndr8 fw-reset:mlx5_1 cable-error:mlx5_6 symbol-errors:mlx5_6
gpu-a06 gpu-ndr8 link-degraded:mlx5_3 phy-ber:mlx5_3 eye-low:mlx5_3 rcv-errors:mlx5_0
gpu-a07 gpu-ndr8 module-missing:rdma_ucm peermem-missing memlock-limited
gpu-a08 gpu-ndr8 sm-absent:mlx5_4 lid-unassigned:mlx5_7 port-down:mlx5_2 xmit-discards:mlx5_0 xmit-wait:mlx5_0
gpu-a09 gpu-ndr8 nccl-no-ib iommu-translating hugepages-none
gpu-a10 gpu-ndr8 nccl-gdr-disabled nccl-completion-error:mlx5_5 bw-below-line-rate:mlx5_1 gdr-bw-low:mlx5_2
gpu-a11 gpu-ndr8 fw-mem:mlx5_4 link-flap:mlx5_7 devnode-missing:umad3 mtu-below-max:mlx5_6 nccl-hca-mismatch
gpu-a12 gpu-ndr8 container-no-rdma source-absent:ethtool
roce-b01 roce-pfc -
roce-b02 roce-pfc -
roce-b03 roce-pfc pfc-disabled:ens1f0np0 roce-no-v2-ipv4:mlx5_1
roce-b04 roce-pfc pause-storm:ens1f1np1 pause-heavy:ens1f0np0 cnp-heavy:mlx5_0 drops-in-flight:mlx5_1 rx-buffer-drops:ens1f1np1
roce-b05 roce-pfc roce-v1-only:mlx5_0 link-flap:mlx5_1
roce-b06 roce-pfc nccl-gid-index-bad mtu-below-max:mlx5_1 nccl-completion-error:mlx5_0"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdma-fleet.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$TOP/tests/fixtures/mknode.sh" gpu-ndr8 "$tmp/base-gpu-ndr8"
"$TOP/tests/fixtures/mknode.sh" roce-pfc "$tmp/base-roce-pfc"

# identity NODE INDEX: hostname, machine-id, boot_id, node descriptions,
# host addresses, GUIDs and MACs of this node, none of them the fixture's
# (the single-node samples keep those, and make demo reports them together
# with the fleet: two nodes sharing a GUID or an address is a finding of
# its own, DUPLICATE_GUID / DUPLICATE_ADDRESS)
identity() {
	local n=$1 i=$2 R=$tmp/$1 h f d g
	h=$(printf '%s' "$n" | sha256sum | cut -c1-64)
	echo "$n" >"$R/proc/sys/kernel/hostname"
	echo "$n" >"$R/etc/hostname"
	echo "${h:0:32}" >"$R/etc/machine-id"
	echo "${h:32:8}-${h:40:4}-4${h:45:3}-8${h:49:3}-${h:52:12}" >"$R/proc/sys/kernel/random/boot_id"
	for d in "$R"/sys/class/infiniband/*; do
		echo "$n ${d##*/}" >"$(readlink -f "$d")/node_desc"
	done
	f=$R/rdma-collect/net/addresses.json
	# one GUID byte per node, in every form the tree holds it: sysfs and
	# verbs (9c63:c003:00e1:7a00), GIDs and link-local addresses, IPoIB
	# hardware addresses (..:c0:03:00:e1:7a:00), RoCE MACs (b8:3f:d2:4a:..)
	case $n in
	gpu-*)	printf -v g '%02x' $((0xf0 + i))
		grep -rlI 'c003:00e1:\|c0:03:00:e1:' "$R/sys" "$R/rdma-collect" |
			xargs -r sed -i "s/c003:00e1:/c003:00$g:/g; s/c0:03:00:e1:/c0:03:00:$g:/g" ;;
	roce-*)	printf -v g '%02x' $((0x50 + i))
		grep -rlI 'd203:004a:\|d2:4a:6c\|fe4a:6c2' "$R/sys" "$R/rdma-collect" |
			xargs -r sed -i "s/d203:004a:/d203:00$g:/g; s/d2:4a:6c/d2:$g:6c/g; s/fe4a:6c2/fe$g:6c2/g" ;;
	esac
	case $n in
	gpu-*)	# IPoIB and eno1 host part .107 -> .(110+i)
		sed -i "s/\.107\"/.$((110 + i))\"/" "$f" ;;
	roce-*)	# RoCE host part .21 -> .(30+i), also in the IPv4 GIDs
		local x
		printf -v x '%02x' $((30 + i))
		sed -i "s/\(192\.168\.1[01]\)\.21\"/\1.$((30 + i))\"/; s/10\.20\.1\.12\"/10.20.1.$((20 + i))\"/" "$f"
		sed -i "s/c0a8:0a15/c0a8:0a$x/; s/c0a8:0b15/c0a8:0b$x/" \
			"$R"/sys/class/infiniband/*/ports/1/gids/2 \
			"$R"/sys/class/infiniband/*/ports/1/gids/3 \
			"$R"/rdma-collect/verbs/mlx5_*.json ;;
	esac
}

rm -rf "$OUT"
mkdir -p "$OUT" "$tmp/out"
printf '# node\tcheck\tcomponent\tfault\tneed\n' >"$OUT/faults.tsv"
gi=0 ri=0
while read -r node kind faults; do
	case $kind in gpu-ndr8) gi=$((gi + 1)); idx=$gi ;; *) ri=$((ri + 1)); idx=$ri ;; esac
	cp -a "$tmp/base-$kind" "$tmp/$node"
	identity "$node" "$idx"
	for f in $faults; do
		[ "$f" = - ] && continue
		name=${f%%:*} arg=""
		[ "$name" != "$f" ] && arg=${f#*:}
		"$INJ" "$name" "$tmp/$node" $arg >"$tmp/truth"
		awk -F'\t' -v n="$node" -v f="$f" 'BEGIN { OFS = "\t" }
			{ print n, $1, $2, f, $3 }' "$tmp/truth" >>"$OUT/faults.tsv"
	done
	# through PATH, so argv[0] (in the manifest) does not name the build dir
	(cd "$tmp" && PATH="$B:$PATH" rdma-collect -q --commands --root "$node" -o out >/dev/null)
	rm -rf "${tmp:?}/$node"
done <<EOF
$FLEET
EOF
mv "$tmp"/out/*.rdma.tar.zst "$OUT/"
echo "fleet: $(ls "$OUT"/*.rdma.tar.zst | wc -l) bundles, $(grep -vc '^#' "$OUT/faults.tsv") truth rows in $OUT"
