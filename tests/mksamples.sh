#!/bin/sh
# tests/mksamples.sh BUILD: rebuild samples/ from the fixture nodes.  With
# SOURCE_DATE_EPOCH, relative paths and the collector found through PATH
# (the manifest records argv[0]) the bundles are byte-identical on
# every run, so a change in samples/ is a change in the collector.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${1:-build}" && pwd)
export SOURCE_DATE_EPOCH=1764450245
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdma-samples.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
rm -f "$TOP"/samples/*.rdma.tar.zst
for kind in gpu-ndr8 roce-pfc rxe; do
	"$TOP/tests/fixtures/mknode.sh" "$kind" "$tmp/$kind"
	mkdir "$tmp/out-$kind"
	(cd "$tmp" && PATH="$B:$PATH" rdma-collect -q --root "$kind" --sample 1 \
		-o "out-$kind" >/dev/null)
	mv "$tmp/out-$kind"/*.rdma.tar.zst "$TOP/samples/"
done
ls -l "$TOP"/samples/*.rdma.tar.zst
