# rules-kernel: MODULE_MISSING and DEVNODE_MISSING against the fixture
# nodes, healthy and with a /proc/modules line or a devnodes.json entry
# removed.

findings() {	# findings BUNDLE RULE: "component severity layer" lines
	"$RA" report --format json "$1" 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)
for n in r["nodes"]:
    for f in n["findings"]:
        if f["rule"] == sys.argv[1]:
            print(f["component"], f["severity"], f["layer"])' "$2"
}
summaries() {
	"$RA" report --format json -v "$1" 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)
for n in r["nodes"]:
    for f in n["findings"]:
        if f["rule"] == sys.argv[1]:
            print(f["summary"])' "$2"
}
collect() { rm -f "$2"; "$RC" -q --root "$1" -o "$2" >/dev/null 2>&1; }
# drop a module: its /proc/modules line and its sys/module folder
drop_module() { sed -i "/^$2 /d" "$1/proc/modules"; rm -rf "$1/sys/module/$2"; }
# drop an entry from devnodes.json (one entry a line in the fixtures)
drop_devnode() {
	python3 - "$1/rdma-collect/devnodes.json" "$2" <<'PY'
import json, sys
p, name = sys.argv[1], sys.argv[2]
j = json.load(open(p))
j["entries"] = [e for e in j["entries"] if e["name"] != name]
json.dump(j, open(p, "w"), indent=1)
PY
}

mknode gpu-ndr8 "$T/gpu" >/dev/null 2>&1 || fail "gpu-ndr8 fixture builds"
mknode roce-pfc "$T/roce" >/dev/null 2>&1 || fail "roce-pfc fixture builds"
mknode rxe "$T/rxe" >/dev/null 2>&1 || fail "rxe fixture builds"
for k in gpu roce rxe; do collect "$T/$k" "$T/$k.rdma.tar.zst"; done

for k in gpu roce; do
	for r in MODULE_MISSING DEVNODE_MISSING; do
		check_eq "healthy $k: no $r" "$(findings "$T/$k.rdma.tar.zst" $r)" ""
	done
done
check_eq "healthy rxe: no DEVNODE_MISSING" "$(findings "$T/rxe.rdma.tar.zst" DEVNODE_MISSING)" ""
# rxe: no ConnectX, so no mlx5 module is required; the rxe node loads what
# the rxe VM's init loads (rdma_rxe, ib_umad, rdma_ucm and dependencies)
check_eq "healthy rxe: no MODULE_MISSING" \
	"$(findings "$T/rxe.rdma.tar.zst" MODULE_MISSING | sort | tr '\n' ';')" ""
# without ib_umad: no umad0, and on a node without InfiniBand ports only the
# InfiniBand management tools miss it: info, saying the mlx5 modules are not
# needed here
cp -a "$T/rxe" "$T/rxe-noumad"
sed -i '/^ib_umad /d' "$T/rxe-noumad/proc/modules"
rm -rf "$T/rxe-noumad/sys/module/ib_umad" "$T/rxe-noumad/sys/class/infiniband_mad/umad0" \
	"$T/rxe-noumad/sys/class/infiniband_mad/issm0"
python3 - "$T/rxe-noumad/rdma-collect/devnodes.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["entries"] = [e for e in d["entries"] if e["name"] not in ("umad0", "issm0")]
json.dump(d, open(sys.argv[1], "w"))
PY
"$RC" -q --root "$T/rxe-noumad" -o "$T/rxe-noumad.rdma.tar.zst" >/dev/null 2>&1
check_eq "rxe without ib_umad: info" \
	"$(findings "$T/rxe-noumad.rdma.tar.zst" MODULE_MISSING | sort | tr '\n' ';')" \
	"ib_umad info kernel;"
check "rxe: the text says the mlx5 modules are not needed" sh -c \
	"'$RA' report --format json -v '$T/rxe-noumad.rdma.tar.zst' | grep -q 'the mlx5 modules are not needed, Soft-RoCE needs rdma_rxe'"

# --- modules: a module that is not loaded has no /proc/modules line, no
# sys/module folder, and the kernel objects it would create are absent too
# (unload_<m> removes both); a line missing while its objects exist means
# built in (or a container's /proc/modules): info
drop_class() { rm -f "$1"/sys/class/$2/*[0-9]; }
unload() {	# unload TREE MODULE
	drop_module "$1" "$2"
	case $2 in
	mlx5_core) for d in "$1"/sys/bus/pci/devices/*; do
			[ "$(cat "$d/vendor")" = 0x15b3 ] && rm -f "$d/driver"
		   done ;;
	mlx5_ib|ib_core) rm -f "$1"/sys/class/infiniband/mlx5_* ;;
	ib_uverbs) drop_class "$1" infiniband_verbs ;;
	ib_cm|rdma_cm|rdma_ucm) drop_devnode "$1" rdma_cm ;;
	ib_umad) drop_class "$1" infiniband_mad ;;
	ib_ipoib) rm -f "$1"/sys/class/net/ib* ;;
	esac
}
for m in mlx5_core mlx5_ib ib_uverbs ib_cm rdma_cm rdma_ucm ib_umad; do
	rm -rf "$T/m"
	cp -a "$T/gpu" "$T/m"
	unload "$T/m" $m
	collect "$T/m" "$T/m.rdma.tar.zst"
	got=$(findings "$T/m.rdma.tar.zst" MODULE_MISSING)
	check_eq "gpu-ndr8 without $m: critical on $m" "$got" "$m critical kernel"
done
rm -rf "$T/m"; cp -a "$T/gpu" "$T/m"; unload "$T/m" ib_core
collect "$T/m" "$T/m.rdma.tar.zst"
check_eq "gpu-ndr8 without ib_core: critical on ib_core" \
	"$(findings "$T/m.rdma.tar.zst" MODULE_MISSING)" "ib_core critical kernel"
check "gpu-ndr8 without ib_core: the consequence" sh -c \
	"'$RA' report --format json '$T/m.rdma.tar.zst' | grep -q 'module ib_core is not loaded: there is no RDMA stack at all'"
rm -rf "$T/m"; cp -a "$T/gpu" "$T/m"; unload "$T/m" ib_ipoib
collect "$T/m" "$T/m.rdma.tar.zst"
check_eq "gpu-ndr8 without ib_ipoib: info" \
	"$(findings "$T/m.rdma.tar.zst" MODULE_MISSING)" "ib_ipoib info kernel"
rm -rf "$T/m"; cp -a "$T/gpu" "$T/m"; unload "$T/m" rdma_ucm
collect "$T/m" "$T/m.rdma.tar.zst"
check "rdma_ucm: its consequence in the summary" sh -c \
	"'$RA' report --format json '$T/m.rdma.tar.zst' | grep -q 'module rdma_ucm is not loaded: rdma_cm users such as NCCL cannot reach /dev/infiniband/rdma_cm'"
check "rdma_ucm: /proc/modules as evidence" sh -c \
	"'$RA' report --format json '$T/m.rdma.tar.zst' | grep -q 'no line for rdma_ucm (16 modules listed)'"
# only the line deleted: the objects are there, so built in: info
rm -rf "$T/m"; cp -a "$T/gpu" "$T/m"; drop_module "$T/m" ib_uverbs
collect "$T/m" "$T/m.rdma.tar.zst"
check_eq "ib_uverbs line deleted but uverbs devices present: info" \
	"$(findings "$T/m.rdma.tar.zst" MODULE_MISSING)" "ib_uverbs info kernel"
check "... and the text says built in" sh -c \
	"'$RA' report --format json -v '$T/m.rdma.tar.zst' | grep -q 'module ib_uverbs is not in /proc/modules but uverbs devices exist in sysfs: built into the kernel'"
rm -rf "$T/m"; cp -a "$T/gpu" "$T/m"; sed -i "/^ib_cm /d" "$T/m/proc/modules"
collect "$T/m" "$T/m.rdma.tar.zst"
check_eq "ib_cm built in (sys/module folder, no line): no finding" \
	"$(findings "$T/m.rdma.tar.zst" MODULE_MISSING)" ""
# RoCE node: ib_ipoib is not needed; ib_umad is info there
rm -rf "$T/m"; cp -a "$T/roce" "$T/m"; unload "$T/m" ib_umad
collect "$T/m" "$T/m.rdma.tar.zst"
check_eq "roce-pfc without ib_umad: info (no InfiniBand port)" \
	"$(findings "$T/m.rdma.tar.zst" MODULE_MISSING)" "ib_umad info kernel"
rm -rf "$T/m"; cp -a "$T/roce" "$T/m"; unload "$T/m" ib_uverbs
collect "$T/m" "$T/m.rdma.tar.zst"
check_eq "roce-pfc without ib_uverbs: critical" \
	"$(findings "$T/m.rdma.tar.zst" MODULE_MISSING)" "ib_uverbs critical kernel"
rm -rf "$T/m"; cp -a "$T/roce" "$T/m"; unload "$T/m" mlx5_core
collect "$T/m" "$T/m.rdma.tar.zst"
check_eq "roce-pfc without mlx5_core: critical" \
	"$(findings "$T/m.rdma.tar.zst" MODULE_MISSING)" "mlx5_core critical kernel"
# rxe: ib_uverbs unloaded
rm -rf "$T/m"; cp -a "$T/rxe" "$T/m"; unload "$T/m" ib_uverbs
collect "$T/m" "$T/m.rdma.tar.zst"
check_eq "rxe without ib_uverbs: critical (the info findings as before)" \
	"$(findings "$T/m.rdma.tar.zst" MODULE_MISSING | grep -v ' info ')" "ib_uverbs critical kernel"

# --- device nodes
rm -rf "$T/d"; cp -a "$T/gpu" "$T/d"; drop_devnode "$T/d" uverbs3
collect "$T/d" "$T/d.rdma.tar.zst"
check_eq "no uverbs3: critical on mlx5_3" \
	"$(findings "$T/d.rdma.tar.zst" DEVNODE_MISSING)" "mlx5_3 critical kernel"
check "no uverbs3: the message names the node and the device" sh -c \
	"'$RA' report --format json '$T/d.rdma.tar.zst' | grep -q '/dev/infiniband/uverbs3 is missing for mlx5_3'"
rm -rf "$T/d"; cp -a "$T/gpu" "$T/d"; drop_devnode "$T/d" umad6
collect "$T/d" "$T/d.rdma.tar.zst"
check_eq "no umad6: critical on mlx5_6:1" \
	"$(findings "$T/d.rdma.tar.zst" DEVNODE_MISSING)" "mlx5_6:1 critical kernel"
rm -rf "$T/d"; cp -a "$T/roce" "$T/d"; drop_devnode "$T/d" rdma_cm
collect "$T/d" "$T/d.rdma.tar.zst"
check_eq "roce-pfc without rdma_cm: critical on rdma_cm" \
	"$(findings "$T/d.rdma.tar.zst" DEVNODE_MISSING)" "rdma_cm critical kernel"
rm -rf "$T/d"; cp -a "$T/gpu" "$T/d"; drop_devnode "$T/d" issm2
collect "$T/d" "$T/d.rdma.tar.zst"
check_eq "no issm2 (not needed by userspace RDMA): no finding" \
	"$(findings "$T/d.rdma.tar.zst" DEVNODE_MISSING)" ""

# --- other vendors' RDMA devices (tests/fixtures/mkbnxt.sh): the generic
# modules and the device's own driver, never mlx5's
"$FIXTURES/mkbnxt.sh" "$T/bnxt" || fail "mkbnxt.sh builds"
"$FIXTURES/mkbnxt.sh" "$T/bnxtk" keep-mlx5 || fail "mkbnxt.sh keep-mlx5 builds"
collect "$T/bnxt" "$T/bnxt.rdma.tar.zst"
collect "$T/bnxtk" "$T/bnxtk.rdma.tar.zst"
check_eq "bnxt_re node: no MODULE_MISSING" "$(findings "$T/bnxt.rdma.tar.zst" MODULE_MISSING)" ""
check_eq "bnxt_re devices beside a ConnectX bound to mlx5_core without mlx5_ib: mlx5_ib is not demanded" \
	"$(findings "$T/bnxtk.rdma.tar.zst" MODULE_MISSING)" ""
rm -rf "$T/m"; cp -a "$T/bnxt" "$T/m"; unload "$T/m" rdma_ucm
collect "$T/m" "$T/m.rdma.tar.zst"
check_eq "bnxt_re node without rdma_ucm: critical" \
	"$(findings "$T/m.rdma.tar.zst" MODULE_MISSING)" "rdma_ucm critical kernel"
check "bnxt_re node: the message names the node's RDMA driver, not mlx5's" sh -c \
	"'$RA' report --format json '$T/m.rdma.tar.zst' | grep -q 'driven by bnxt_re (Broadcom NetXtreme-E): the mlx5 modules are not needed'"
# the device's own driver: bnxt_re missing from /proc/modules while
# bnxt_re0 exists is built in (info)
rm -rf "$T/m"; cp -a "$T/bnxt" "$T/m"; drop_module "$T/m" bnxt_re
collect "$T/m" "$T/m.rdma.tar.zst"
check_eq "bnxt_re node, bnxt_re not in /proc/modules but its devices exist: info" \
	"$(findings "$T/m.rdma.tar.zst" MODULE_MISSING)" "bnxt_re info kernel"
check_eq "bnxt_re node: DEVNODE_MISSING is generic and quiet" \
	"$(findings "$T/bnxt.rdma.tar.zst" DEVNODE_MISSING)" ""
