/* test-core: the shared pieces (buf, json, parsing) and the collector's
 * store, path rules, device keys and environment filter */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "environ.h"
#include "json.h"
#include "src.h"
#include "store.h"
#include "t.h"
#include "util.h"

static void test_buf(void)
{
	struct buf b = BUF_INIT;

	T_STREQ(b.buf, "", "an empty buf prints as an empty string");
	buf_addf(&b, "%s-%d", "x", 42);
	T_STREQ(b.buf, "x-42", "buf_addf formats");
	buf_release(&b);
	buf_init(&b, 4);
	T_OK(buf_add(&b, "abcdef", 6) == -1 && b.truncated, "cap refuses");
	T_STREQ(b.buf, "abcd", "cap keeps the head with buf_add");
	buf_release(&b);
	buf_init(&b, 4);
	buf_add_tail(&b, "abc", 3);
	buf_add_tail(&b, "def", 3);
	T_STREQ(b.buf, "cdef", "buf_add_tail keeps the tail");
	T_OK(b.truncated, "buf_add_tail marks truncation");
	buf_add_tail(&b, "0123456789", 10);
	T_STREQ(b.buf, "6789", "a chunk longer than the cap keeps its tail");
	buf_release(&b);
}

static void test_json(void)
{
	struct buf b = BUF_INIT;
	struct json j;

	json_init(&j, &b, 0);
	json_obj_open(&j, NULL);
	json_str(&j, "a", "q\"\\\n\x01<");
	json_strn(&j, "bad", "x\xff\xc3(y", 5);
	json_arr_open(&j, "n");
	json_int(&j, NULL, -5);
	json_uint(&j, NULL, 18446744073709551615ull);
	json_bool(&j, NULL, 1);
	json_null(&j, NULL);
	json_arr_close(&j);
	json_obj_open(&j, "empty");
	json_obj_close(&j);
	json_str(&j, "utf8", "\xc3\xa9\xe2\x82\xac");
	json_obj_close(&j);
	T_STREQ(b.buf, "{\"a\":\"q\\\"\\\\\\n\\u0001\\u003c\","
		"\"bad\":\"x\\ufffd\\ufffd(y\","
		"\"n\":[-5,18446744073709551615,true,null],\"empty\":{},"
		"\"utf8\":\"\xc3\xa9\xe2\x82\xac\"}",
		"json escapes, replaces invalid UTF-8, keeps valid UTF-8");
	buf_release(&b);
}

static void test_parse(void)
{
	static const struct {
		const char *s;
		int base;
		int ok;
		long long v;
	} cases[] = {
		{ "42", 10, 1, 42 }, { "0x1f", 0, 1, 31 }, { "", 10, 0, 0 },
		{ "12a", 10, 0, 0 }, { "-1", 10, 1, -1 }, { "99999999999", 10, 0, 0 },
		{ " 5", 10, 0, 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		long long v = 0;
		int ok = !parse_ll(cases[i].s, cases[i].base, -10, 1000000, &v);

		T_OK(ok == cases[i].ok && (!ok || v == cases[i].v),
		     "parse_ll('%s')", cases[i].s);
	}
}

static void test_paths(void)
{
	static const struct {
		const char *path;
		int ok;
	} cases[] = {
		{ "sys/class/infiniband/mlx5_0", 1 }, { "/etc/passwd", 0 },
		{ "a/../b", 0 }, { "..", 0 }, { "a//b", 0 }, { "a/./b", 0 },
		{ "", 0 }, { "a/b\t", 0 }, { ".dockerenv", 1 }, { "a/..b", 1 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		T_OK(bundle_path_ok(cases[i].path) == cases[i].ok,
		     "bundle_path_ok('%s') is %d", cases[i].path, cases[i].ok);
}

static void test_store(void)
{
	struct store s;

	store_init(&s, 10);
	T_OK(store_add(&s, ENT_FILE, "b", strdup("12345"), 5, 0444, 0, 0) == 0,
	     "store adds");
	T_OK(store_add(&s, ENT_FILE, "b", strdup("x"), 1, 0444, 0, 1) == 1,
	     "store keeps the first of a duplicate path");
	T_OK(store_add(&s, ENT_FILE, "a", strdup("123456"), 6, 0444, 0, 0) == -2,
	     "store refuses beyond its cap");
	T_OK(store_add(&s, ENT_DIR, "../x", NULL, 0, 0755, 0, 0) == -1,
	     "store refuses a bad path");
	store_add(&s, ENT_DIR, "a", NULL, 0, 0755, 0, 0);
	store_add(&s, ENT_FILE, "a/z", strdup("1"), 1, 0444, 0, 0);
	store_add(&s, ENT_FILE, "a-b", strdup("1"), 1, 0444, 0, 0);
	store_sort(&s);
	T_OK(s.n == 4 && !strcmp(s.v[0].path, "a") &&
	     !strcmp(s.v[1].path, "a-b") && !strcmp(s.v[2].path, "a/z") &&
	     !strcmp(s.v[3].path, "b"), "store sorts bytewise, parents first");
	T_OK(store_find(&s, "a/z") == &s.v[2], "store finds after sorting");
	store_release(&s);
}

static void test_keys(void)
{
	static const struct {
		const char *path;
		const char *key;
	} cases[] = {
		{ "/sys/class/infiniband/mlx5_3/ports/1/counters/symbol_error",
		  "mlx5_3" },
		{ "/sys/devices/pci0000:00/0000:00:01.0/0000:b1:00.0/infiniband/mlx5_0/node_guid",
		  "mlx5_0" },
		{ "/sys/devices/pci0000:00/0000:00:01.0/0000:b1:00.0/config",
		  "0000:b1:00.0" },
		{ "/sys/class/net/ens1f0np0/statistics/rx_bytes", "ens1f0np0" },
		{ "/proc/uptime", NULL },
	};
	char key[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *k = path_device_key(cases[i].path, key, sizeof(key));

		if (cases[i].key)
			T_STREQ(k, cases[i].key, "device key of %s", cases[i].path);
		else
			T_OK(!k, "no device key for %s", cases[i].path);
	}
}

static void test_environ(void)
{
	static const char block[] = "PATH=/bin\0NCCL_IB_HCA=mlx5_0,mlx5_1\0"
		"NCCL_X=a\\b\nc\0CUDA_VISIBLE_DEVICES=0,1\0NCCL_=x\0"
		"UCX_TLS=rc\0HOME=/root\0MLX5_SCATTER_TO_CQE=0";
	struct buf b = BUF_INIT;

	environ_filter(block, sizeof(block) - 1, &b);
	T_STREQ(b.buf, "NCCL_IB_HCA=mlx5_0,mlx5_1\nNCCL_X=a\\\\b\\nc\n"
		"CUDA_VISIBLE_DEVICES=0,1\nUCX_TLS=rc\nMLX5_SCATTER_TO_CQE=0\n",
		"environ keeps NCCL_/UCX_/OMPI_/MLX5_/CUDA_VISIBLE_DEVICES, "
		"escapes \\ and newline");
	buf_release(&b);
}

int main(void)
{
	test_buf();
	test_json();
	test_parse();
	test_paths();
	test_store();
	test_keys();
	test_environ();
	return t_done();
}
