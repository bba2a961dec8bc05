# the verbs source: libibverbs through dlopen, on this machine (no RDMA),
# without the library, and under --root (stored form only)
cd "$T" || exit 1

# src_field BUNDLE SOURCE EXPR: a Python expression on the source's entry s
# (and the manifest m)
src_field() {
	manifest "$1" | python3 -c '
import json, sys
m = json.load(sys.stdin)
s = [x for x in m["sources"] if x["name"] == sys.argv[1]][0]
print(eval(sys.argv[2]))' "$2" "$3"
}

mkdir live
"$RC" -q --only verbs -o live >out.txt 2>err.txt
check_eq "live run exits 0" "$?" 0
check_eq "nothing on stderr" "$(cat err.txt)" ""
b=$(cat out.txt)
if ldconfig -p 2>/dev/null | grep -q 'libibverbs\.so\.1 '; then
	check_eq "libibverbs note ok" "$(src_field "$b" verbs 's["notes"]["libibverbs"]')" ok
	f=$(readlink -f "$(ldconfig -p | awk '/libibverbs\.so\.1 / { print $NF; exit }')")
	check_eq "libibverbs.file is the resolved file name" \
		"$(src_field "$b" verbs 's["notes"]["libibverbs.file"]')" "$(basename "$f")"
	check_eq "manifest libraries: libibverbs ok" \
		"$(src_field "$b" verbs 'm["libraries"]["libibverbs"]["status"]')" ok
else
	skip "libibverbs notes" "libibverbs.so.1 is not installed"
fi
if [ ! -e /sys/class/infiniband_verbs ] && [ ! -e /sys/class/infiniband ]; then
	check_eq "no RDMA here: verbs absent" "$(src_status "$b" verbs)" absent
	check "reason says no RDMA devices" \
		sh -c "tar --zstd -xOf '$b' manifest.json | grep -q '\"reason\": \"no RDMA devices (ibv_get_device_list: ENOSYS\|\"reason\": \"libibverbs cannot be loaded'"
	check "devices.json: absent, empty list, valid JSON" \
		sh -c "tar --zstd -xOf '$b' rdma-collect/verbs/devices.json | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[\"status\"]==\"absent\" and d[\"devices\"]==[] and d[\"reason\"].startswith((\"no RDMA devices\",\"libibverbs\"))'"
else
	skip "verbs absent checks" "this machine has RDMA devices"
fi

# the library cannot be loaded: the collector still completes
mkdir nolib
RDMA_COLLECT_LIBIBVERBS=/nonexistent/libibverbs.so.1 \
	"$RC" -q --only identity,verbs -o nolib >out.txt 2>err.txt
check_eq "run without libibverbs exits 0" "$?" 0
b=$(cat out.txt)
check_eq "without libibverbs: verbs absent" "$(src_status "$b" verbs)" absent
check_eq "without libibverbs: identity still ok" "$(src_status "$b" identity)" ok
check_eq "library note says absent with the dlerror" \
	"$(src_field "$b" verbs 's["notes"]["libibverbs"].startswith("absent: /nonexistent/libibverbs.so.1")')" True
check_eq "manifest libraries: libibverbs absent" \
	"$(src_field "$b" verbs 'm["libraries"]["libibverbs"]["status"][:7]')" "absent:"
check_eq "reason names the library" \
	"$(src_field "$b" verbs 's["reason"].startswith("libibverbs cannot be loaded")')" True
check "devices.json written without the library" \
	sh -c "tar --zstd -xOf '$b' rdma-collect/verbs/devices.json | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[\"status\"]==\"absent\"'"

# --root: the stored form is copied byte for byte, the library never used
mkdir -p root/rdma-collect/verbs stored
printf '{ "status": "ok", "reason": "", "devices": ["mlx5_0"] }\n' \
	>root/rdma-collect/verbs/devices.json
printf '{ "ibdev": "mlx5_0", "status": "ok", "weird": "\\u00e9" }\n' \
	>root/rdma-collect/verbs/mlx5_0.json
RDMA_COLLECT_LIBIBVERBS=/nonexistent/x.so \
	"$RC" -q --root root --only verbs -o stored >out.txt 2>err.txt
check_eq "--root run exits 0" "$?" 0
b=$(cat out.txt)
check_eq "--root with stored verbs: ok" "$(src_status "$b" verbs)" ok
check_eq "--root: mlx5_0.json copied unchanged" \
	"$(tar --zstd -xOf "$b" rdma-collect/verbs/mlx5_0.json | cksum)" \
	"$(cksum <root/rdma-collect/verbs/mlx5_0.json)"
check_eq "--root: devices.json copied unchanged" \
	"$(tar --zstd -xOf "$b" rdma-collect/verbs/devices.json | cksum)" \
	"$(cksum <root/rdma-collect/verbs/devices.json)"
check_eq "--root: libibverbs not probed" \
	"$(src_field "$b" verbs 'm["libraries"]["libibverbs"]["status"]')" "not probed"

# (identity runs too: a bundle with no entry at all trips the store's
# qsort(NULL, 0) under UBSan, which is not this source's business)
mkdir -p empty/proc/sys/kernel nostored
echo node1 >empty/proc/sys/kernel/hostname
"$RC" -q --root empty --only identity,verbs -o nostored >out.txt 2>err.txt
b=$(cat out.txt)
check_eq "--root without stored verbs: absent" "$(src_status "$b" verbs)" absent
check_eq "--root without stored verbs: reason" \
	"$(src_field "$b" verbs 's["reason"]')" "no stored verbs evidence under the root"

# the whole ibv_devinfo path, against a stand-in libibverbs (one device,
# one RoCE port, GIDs 0 and 2 in use) loaded through the test hook
CC=${CC:-cc}
if [ -f /usr/include/infiniband/verbs.h ] && command -v "$CC" >/dev/null; then
	cat >fake.c <<'EOC'
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <infiniband/verbs.h>
#undef ibv_get_device_list
#undef ibv_query_port
static struct ibv_device dev = {
	.node_type = IBV_NODE_CA, .transport_type = IBV_TRANSPORT_IB,
	.name = "mlx5_7", .dev_name = "uverbs7",
};
static struct ibv_device *list[2] = { &dev, NULL };
struct ibv_device **ibv_get_device_list(int *n)
{
	fprintf(stderr, "libibverbs: Warning: a driver message\n");
	*n = 1;
	return list;
}
void ibv_free_device_list(struct ibv_device **l) { (void)l; }
const char *ibv_get_device_name(struct ibv_device *d) { return d->name; }
struct ibv_context *ibv_open_device(struct ibv_device *d)
{
	struct ibv_context *c = calloc(1, sizeof(*c));
	c->device = d;
	return c;
}
int ibv_close_device(struct ibv_context *c) { free(c); return 0; }
int ibv_query_device(struct ibv_context *c, struct ibv_device_attr *a)
{
	(void)c;
	memset(a, 0, sizeof(*a));
	strcpy(a->fw_ver, "28.41.1000");
	a->node_guid = __builtin_bswap64(0x0080e1fffeabcd01ULL);
	a->vendor_id = 713;
	a->vendor_part_id = 4129;
	a->max_qp = 131072;
	a->phys_port_cnt = 1;
	return 0;
}
int ibv_query_port(struct ibv_context *c, uint8_t port,
		   struct _compat_ibv_port_attr *pa)
{
	struct ibv_port_attr *a = (struct ibv_port_attr *)pa;
	(void)c;
	if (port != 1)
		return EINVAL;
	a->state = IBV_PORT_ACTIVE;
	a->active_mtu = IBV_MTU_4096;
	a->gid_tbl_len = 4;
	a->link_layer = IBV_LINK_LAYER_ETHERNET;
	a->active_speed = 128;
	return 0;
}
int ibv_query_gid(struct ibv_context *c, uint8_t p, int i, union ibv_gid *g)
{
	(void)c; (void)p; (void)i;
	memset(g, 0, sizeof(*g));
	return 0;
}
int _ibv_query_gid_ex(struct ibv_context *c, uint32_t p, uint32_t i,
		      struct ibv_gid_entry *e, uint32_t f, size_t sz)
{
	(void)c; (void)f; (void)sz;
	if (i != 0 && i != 2)
		return ENODATA;
	memset(e, 0, sizeof(*e));
	e->gid.raw[0] = 0xfe;
	e->gid.raw[1] = 0x80;
	e->gid.raw[15] = (uint8_t)(i + 1);
	e->gid_index = i;
	e->port_num = p;
	e->gid_type = i ? IBV_GID_TYPE_ROCE_V2 : IBV_GID_TYPE_ROCE_V1;
	e->ndev_ifindex = 4;
	return 0;
}
EOC
	if "$CC" -shared -fPIC -o libfakeverbs.so fake.c 2>cc.err; then
		mkdir fake
		RDMA_COLLECT_LIBIBVERBS=$T/libfakeverbs.so \
			"$RC" -q --only verbs -o fake >out.txt 2>err.txt
		check_eq "stand-in library: exits 0" "$?" 0
		check_eq "stand-in library: its stderr is not ours" "$(cat err.txt)" ""
		b=$(cat out.txt)
		check_eq "stand-in library: verbs ok" "$(src_status "$b" verbs)" ok
		check_eq "stand-in library: its message kept as a note" \
			"$(src_field "$b" verbs 's["notes"].get("libibverbs.messages")')" \
			"libibverbs: Warning: a driver message"
		check_eq "stand-in library: file note" \
			"$(src_field "$b" verbs 's["notes"]["libibverbs.file"]')" libfakeverbs.so
		tar --zstd -xOf "$b" rdma-collect/verbs/mlx5_7.json >mlx5_7.json
		tar --zstd -xOf "$b" rdma-collect/verbs/devices.json >devices.json
		check "devices.json lists mlx5_7" python3 -c '
import json
d = json.load(open("devices.json"))
assert d["status"] == "ok" and d["devices"] == ["mlx5_7"], d'
		check "mlx5_7.json: device, port, non-empty GIDs only" python3 -c '
import json
d = json.load(open("mlx5_7.json"))
assert d["ibdev"] == "mlx5_7" and d["status"] == "ok", d
v = d["device"]
assert v["fw_ver"] == "28.41.1000" and v["node_guid"] == "0080:e1ff:feab:cd01", v
assert v["vendor_id"] == 713 and v["vendor_part_id"] == 4129 and v["max_qp"] == 131072
assert v["phys_port_cnt"] == 1 and v["node_type"] == 1 and v["transport_type"] == 0
p, = d["ports"]
assert p["port"] == 1 and p["state"] == 4 and p["active_mtu"] == 5 and p["link_layer"] == 2
assert p["active_speed"] == 128 and p["gid_tbl_len"] == 4 and p["active_speed_ex"] == 0
g = p["gids"]
assert [x["index"] for x in g] == [0, 2], g
assert g[0]["gid"] == "fe80:0000:0000:0000:0000:0000:0000:0001" and g[0]["type"] == "RoCE v1"
assert g[1]["type"] == "RoCE v2" and g[1]["ndev_ifindex"] == 4
assert d["errors"] == {}, d["errors"]'
	else
		skip "stand-in libibverbs" "cannot build it: $(head -1 cc.err)"
	fi
else
	skip "stand-in libibverbs" "no verbs.h or no C compiler"
fi
