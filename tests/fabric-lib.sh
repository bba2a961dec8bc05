# tests/fabric-lib.sh: helpers of the fabric tests (tests/cli/*fabric*.sh,
# path.sh), sourced after tests/lib.sh.

MKFABRIC="$TOP/tests/fixtures/mkfabric.py"

# mad_bundle TREE OUT: a bundle of TREE (rdma-collect --root) that holds
# TREE/rdma-collect/mad/ and fabric/ with the mad and fabric sources ok.
# rdma-collect copies those folders itself once it has the sources; until
# then (or when it records them otherwise) they are added to the bundle
# here, with the sources' manifest entries.
mad_bundle() {
	local tree=$1 out=$2 tmp
	case $out in /*) ;; *) out=$PWD/$out ;; esac
	tmp=$(mktemp -d "$T/mb.XXXXXX")
	"$RC" -q --root "$tree" -o "$tmp" >/dev/null 2>&1 || return 1
	mkdir "$tmp/x" && tar --zstd -xf "$tmp"/*.rdma.tar.zst -C "$tmp/x" || return 1
	for s in mad fabric; do
		[ -d "$tree/rdma-collect/$s" ] || continue
		[ -d "$tmp/x/rdma-collect/$s" ] && continue
		mkdir -p "$tmp/x/rdma-collect/$s"
		cp -R "$tree/rdma-collect/$s/." "$tmp/x/rdma-collect/$s/"
		python3 -c '
import json, sys
p, name = sys.argv[1:3]
m = json.load(open(p))
m["sources"] = [s for s in m["sources"] if s["name"] != name]
m["sources"].append({"name": name, "status": "ok", "reason": None,
                     "duration_ms": 1, "bytes": 0, "files": 1, "errors": 0})
json.dump(m, open(p, "w"), indent=1)' "$tmp/x/manifest.json" "$s"
	done
	(cd "$tmp/x" && { echo manifest.json; find . -mindepth 1 ! -name manifest.json |
		sed 's|^\./||' | LC_ALL=C sort; } >"$tmp/list" &&
		tar --zstd --no-recursion -cf "$out" -T "$tmp/list") || return 1
	rm -rf "$tmp"
}
