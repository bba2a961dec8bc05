/* test-redact: SHA-256 and HMAC-SHA256 vectors, the shapes and the
 * consistency of pseudonyms, and the evidence --redact must not touch */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "redact.h"
#include "scrub.h"
#include "store.h"
#include "t.h"

static void hex(const unsigned char *p, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
}

static void test_sha256(void)
{
	static const struct {
		const char *in;
		const char *want;
	} v[] = {
		{ "abc", "ba7816bf8f01cfea414140de5dae2223"
			 "b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039"
		  "a33ce45964ff2167f6ecedd419db06c1" },
		{ "", "e3b0c44298fc1c149afbf4c8996fb924"
		      "27ae41e4649b934ca495991b7852b855" },
	};
	unsigned char d[32];
	char h[65], *m;
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		sha256(v[i].in, strlen(v[i].in), d);
		hex(d, 32, h);
		T_STREQ(h, v[i].want, "SHA-256 of %zu-byte '%.8s...'",
			strlen(v[i].in), v[i].in);
	}
	m = malloc(1000000);
	memset(m, 'a', 1000000);
	sha256(m, 1000000, d);
	free(m);
	hex(d, 32, h);
	T_STREQ(h, "cdc76e5c9914fb9281a1c7e284d73e67"
		   "f1809a48a497200e046d39ccc7112cd0",
		"SHA-256 of one million 'a'");
	{
		/* every length from 0 to 1,000 bytes and 17 up to 70,000 of
		 * one pseudo-random buffer, each digest hashed in turn: the
		 * chain's value is Python hashlib's (tests/cli/sha256.sh runs
		 * this once more with the software rounds) */
		struct sha256_ctx c;
		unsigned char *b = malloc(70000);
		size_t n;

		for (n = 0; n < 70000; n++)
			b[n] = (unsigned char)((n * 2654435761u) >> 13);
		sha256_init(&c);
		for (n = 0; n < 70000; n += n < 1001 ? 1 : 4093) {
			sha256(b, n, d);
			sha256_update(&c, d, 32);
		}
		sha256_final(&c, d);
		free(b);
		hex(d, 32, h);
		T_STREQ(h, "9da14bb9ed8c25eed76615ea3cbcb5e1"
			   "3e6706e607e9517dc2a326193a360c3c",
			"SHA-256 of 1,018 lengths, %s rounds",
			sha256_accelerated() ? "SHA-NI" : "software");
	}
}

static void test_hmac(void)
{
	unsigned char k1[20], k3[20], d3[50], k4[25], d4[50], k6[131];
	struct {
		const char *name;
		const unsigned char *key;
		size_t klen;
		const void *data;
		size_t dlen;
		const char *want;
	} v[] = {
		{ "RFC 4231 case 1", k1, 20, "Hi There", 8,
		  "b0344c61d8db38535ca8afceaf0bf12b"
		  "881dc200c9833da726e9376c2e32cff7" },
		{ "RFC 4231 case 2", (const unsigned char *)"Jefe", 4,
		  "what do ya want for nothing?", 28,
		  "5bdcc146bf60754e6a042426089575c7"
		  "5a003f089d2739839dec58b964ec3843" },
		{ "RFC 4231 case 3", k3, 20, d3, 50,
		  "773ea91e36800e46854db8ebd09181a7"
		  "2959098b3ef8c122d9635514ced565fe" },
		{ "RFC 4231 case 4", k4, 25, d4, 50,
		  "82558a389a443c0ea4cc819899f2083a"
		  "85f0faa3e578f8077a2e3ff46729665b" },
		{ "RFC 4231 case 6", k6, 131,
		  "Test Using Larger Than Block-Size Key - Hash Key First", 54,
		  "60e431591ee0b67f0d8a26aacbf5b77f"
		  "8e0bc6213728c5140546040f0ee37f54" },
	};
	unsigned char d[32];
	char h[65];
	size_t i;

	memset(k1, 0x0b, sizeof(k1));
	memset(k3, 0xaa, sizeof(k3));
	memset(d3, 0xdd, sizeof(d3));
	for (i = 0; i < sizeof(k4); i++)
		k4[i] = (unsigned char)(i + 1);
	memset(d4, 0xcd, sizeof(d4));
	memset(k6, 0xaa, sizeof(k6));
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		hmac_sha256(v[i].key, v[i].klen, v[i].data, v[i].dlen, d);
		hex(d, 32, h);
		T_STREQ(h, v[i].want, "HMAC-SHA256 %s", v[i].name);
	}
}

static struct buf rt_buf[8] = { BUF_INIT, BUF_INIT, BUF_INIT, BUF_INIT,
				BUF_INIT, BUF_INIT, BUF_INIT, BUF_INIT };

/* redact s; the result stays valid until the 8th next call */
static const char *rt(struct redact *r, const char *s)
{
	static int k;
	struct buf *o = &rt_buf[k++ & 7];

	buf_reset(o);
	redact_text(r, s, strlen(s), o);
	return o->buf;
}

static void release_rt(void)
{
	int i;

	for (i = 0; i < 8; i++)
		buf_release(&rt_buf[i]);
}

/* shape: '%' a hex digit, '#' 1-3 decimal digits, '@' 8 lowercase hex
 * digits (a kind-xxxxxxxx tail); anything else itself */
static int shape_ok(const char *s, const char *p)
{
	int k;

	for (; *p; p++) {
		switch (*p) {
		case '%':
			if (!strchr("0123456789abcdefABCDEF", *s) || !*s)
				return 0;
			s++;
			break;
		case '#':
			for (k = 0; k < 3 && *s >= '0' && *s <= '9'; k++)
				s++;
			if (!k)
				return 0;
			break;
		case '@':
			for (k = 0; k < 8; k++, s++)
				if (!*s || !strchr("0123456789abcdef", *s))
					return 0;
			break;
		default:
			if (*s++ != *p)
				return 0;
		}
	}
	return !*s;
}

/* s, at most 48 characters of it, printable on one line */
static const char *esc(const char *s)
{
	static char b[4][64];
	static int k;
	char *o = b[k++ & 3];
	size_t n = 0;

	for (; *s && n < 48; s++)
		o[n++] = *s == '\n' ? '|' : *s == '\t' ? ' ' : *s;
	o[n] = 0;
	return o;
}

static const char *const unchanged[] = {
	"fw_ver 28.41.1000",
	"28.41.1000\n",
	"6.1.0-27-amd64",
	"Linux version 6.1.0-27-amd64 (debian-kernel@lists.debian.org)",
	"MLNX_OFED_LINUX-24.10-1.1.4.0:",
	"24.10-1.1.4.0",
	"mlnx-ofa_kernel 24.10-1.1.4.0.x86_64",
	"libibverbs.so.1.14.44.0",
	"version 1.2.3.4-rc1",
	"1.2.3.4.5",
	"2.3.4.5.el8",
	"0000:b1:00.0",
	"sys/devices/pci0000:00/0000:00:02.0/0000:b1:00.0/infiniband/mlx5_0",
	"6,1234,5678,-;mlx5_core 0000:b1:00.0: Port module event: module 0, "
		"Cable plugged",
	"mlx5_core 0000:b1:00.0 ens1f0np0: Link up",
	"bus_info: 0000:b1:00.0\n",
	"21:04:05",
	"[Fri Nov 29 21:04:05 2026] time 12:34:56.789",
	"2026-11-29T21:04:05Z",
	"4: ACTIVE\n",
	"5: LinkUp\n",
	"1: CA\n",
	"400 Gb/sec (4X NDR)\n",
	"rx_prio3_pause: 0\ntx_pause_storm_warning_events : 0\n",
	"rx_vport_rdma_unicast_bytes 123456789",
	"MT4129\n",
	"0.0.0.0",
	"127.0.0.1",
	"255.255.255.0",
	"255.255.255.255",
	"224.0.0.1 239.255.255.250",
	"::",
	"::1",
	"ff02::1",
	"fe80:0000:0000:0000:0000:0000:0000:0000\n",
	"0000:0000:0000:0000:0000:0000:0000:0000\n",
	"ff:ff:ff:ff:ff:ff",
	"00:00:00:00:00:00",
	"01:00:5e:00:00:01",
	"33:33:00:00:00:01",
	"0x0000000000000000",
	"RIP: 0010:0xffff888100000001",
	"subnet_prefix 0xfe80000000000000",
	"std::vector<int>::iterator a::b",
	"NCCL version 2.21.5+cuda12.4",
	"ratio 1:1 2:1",
	"lid 0x1a sm_lid 0x1 cap_mask 0x2651e848",
	"local address: LID 0x1907 QPN 0x0867 PSN 0x6d058e RKey 0x1fffb9 "
		"VAddr 0x007f58a406e000",
	"boot_id 4f1c2b3a-1234-5678-9abc-def012345678",
	"0123456789abcdef0123456789abcdef",
	"pkey 0xffff 0x7fff",
	"HugePages_Total:       0\nHugepagesize:       2048 kB\n",
	"Max locked memory         8388608              8388608"
		"              bytes     \n",
	"GID index       : 3\n",
	"node_type 1: CA; GID[  0]: (none)",
	"GID: 00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00",
	"0::/init.scope\n1:name=systemd:/\n",
	"cpus 0:1:2:3:4:5:6:7 and 1::2",
	"127.000.000.001 0000:0000:0000:0000:0000:0000:0000:0001",
	"subnet prefix fe80:0000:0000:0000",
	"ff12:401b:ffff:0000:0000:0000:ffff:ffff",
	"00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff",
	"22 1 0:21 / /sys rw,nosuid - sysfs sysfs rw",
	"dead:beef:cafe:0c:42:a1:5d:4d:b8 1234:0002:c903:00a1:b2c3",
	"ffff:ffff:fe80:0000:0000:0000:0e42:a1ff:fe5d:4db8",
	"",
};

static void test_unchanged(struct redact *r)
{
	size_t i;

	for (i = 0; i < sizeof(unchanged) / sizeof(unchanged[0]); i++)
		T_STREQ(rt(r, unchanged[i]), unchanged[i],
			"unchanged: '%s'", esc(unchanged[i]));
}

static const struct {
	const char *in;
	const char *shape;
} shaped[] = {
	{ "10.0.0.10", "10.#.#.#" },
	{ "inet addr:10.0.0.10 ", "inet addr:10.#.#.# " },
	{ "10.0.0.10/24", "10.#.#.#/24" },
	{ "peer 10.0.0.10:4791", "peer 10.#.#.#:4791" },
	{ "connected to 10.0.0.10.", "connected to 10.#.#.#." },
	{ "192.168.1.5", "192.168.#.#" },
	{ "8.8.8.8", "8.#.#.#" },
	{ "aa:bb:cc:dd:ee:ff", "aa:bb:cc:%%:%%:%%" },
	{ "0C:42:A1:5D:4D:B8", "0C:42:A1:%%:%%:%%" },
	{ "0c-42-a1-5d-4d-b8", "0c-42-a1-%%-%%-%%" },
	{ "0x0080e1ffffabcdef", "0x0080e1%%%%%%%%%%" },
	{ "0080:e1ff:ffab:cdef\n", "0080:e1%%:%%%%:%%%%\n" },
	{ "fe80:0000:0000:0000:0280:e1ff:feab:cd01\n",
	  "fe80:0000:0000:0000:0280:e1ff:fe%%:%%%%\n" },
	{ "0000:0000:0000:0000:0000:ffff:0a00:000a\n",
	  "0000:0000:0000:0000:0000:ffff:0a%%:%%%%\n" },
	{ "enx0c42a15d4db8", "enx0c42a1%%%%%%" },
	{ "80:00:02:08:fe:80:00:00:00:00:00:00:00:02:c9:03:00:a1:b2:c3",
	  "80:00:02:08:fe:80:00:00:00:00:00:00:00:02:c9:%%:%%:%%:%%:%%" },
	{ "GID: 254:128:00:00:00:00:00:00:148:109:174:03:00:50:07:120",
	  "GID: 254:128:00:00:00:00:00:00:148:109:174:#:#:#:#:#" },
	{ "fe80::3a7c:76ff:fe7c:ab4f, RoCE v2",
	  "fe80::3a7c:76ff:fe%%:%%%%, RoCE v2" },
	{ "gid:fe80:0000:0000:0000:0e42:a1ff:fe5d:4db8",
	  "gid:fe80:0000:0000:0000:0e42:a1ff:fe%%:%%%%" },
	{ "mac:0c:42:a1:5d:4d:b8", "mac:0c:42:a1:%%:%%:%%" },
	{ "guid:0x0002c90300a1b2c3", "guid:0x0002c9%%%%%%%%%%" },
};

static void test_shapes(struct redact *r)
{
	size_t i;

	for (i = 0; i < sizeof(shaped) / sizeof(shaped[0]); i++) {
		const char *o = rt(r, shaped[i].in);

		T_OK(strcmp(o, shaped[i].in) && shape_ok(o, shaped[i].shape),
		     "shape of '%s' kept, value changed", esc(shaped[i].in));
		if (!shape_ok(o, shaped[i].shape) || !strcmp(o, shaped[i].in))
			printf("#   got:  '%s'\n", o);
	}
}

/* one GUID in every spelling gives one pseudonym */
static void test_guid_spellings(struct redact *r)
{
	const char *o = rt(r, "0x0002c90300a1b2c3");
	unsigned char g[16] = { 0xfe, 0x80 };
	char want[128], txt[INET6_ADDRSTRLEN];
	unsigned long long v;
	size_t k;

	T_OK(sscanf(o, "0x%llx", &v) == 1 && v != 0x0002c90300a1b2c3ull &&
	     v >> 40 == 0x0002c9, "0x GUID changed, OUI kept");
	snprintf(want, sizeof(want), "%04llx:%04llx:%04llx:%04llx", v >> 48,
		 v >> 32 & 0xffff, v >> 16 & 0xffff, v & 0xffff);
	T_STREQ(rt(r, "0002:c903:00a1:b2c3"), want,
		"GUID: colon form = 0x form");
	snprintf(want, sizeof(want), "fe80:0000:0000:0000:%04llx:%04llx:"
		 "%04llx:%04llx", v >> 48, v >> 32 & 0xffff, v >> 16 & 0xffff,
		 v & 0xffff);
	T_STREQ(rt(r, "fe80:0000:0000:0000:0002:c903:00a1:b2c3"), want,
		"GUID: inside a sysfs GID = 0x form");
	for (k = 0; k < 8; k++)
		g[8 + k] = (unsigned char)(v >> (56 - 8 * k));
	inet_ntop(AF_INET6, g, txt, sizeof(txt));
	T_STREQ(rt(r, "fe80::2:c903:a1:b2c3"), txt,
		"GUID: inside a compressed GID = 0x form");
	snprintf(want, sizeof(want), "%02x:%02x:%02x:%02x:%02x:%02x:%02x:%02x",
		 g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15]);
	T_STREQ(rt(r, "00:02:c9:03:00:a1:b2:c3"), want,
		"GUID: 8-byte hardware address = 0x form");
	snprintf(want, sizeof(want), "80:00:02:08:fe:80:00:00:00:00:00:00:"
		 "%02x:%02x:%02x:%02x:%02x:%02x:%02x:%02x",
		 g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15]);
	T_STREQ(rt(r, "80:00:02:08:fe:80:00:00:00:00:00:00:00:02:c9:03:00:a1:"
		   "b2:c3"), want, "GUID: inside an IPoIB address = 0x form");
	snprintf(want, sizeof(want), "GID: 254:128:00:00:00:00:00:00:"
		 "%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d",
		 g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15]);
	T_STREQ(rt(r, "GID: 254:128:00:00:00:00:00:00:00:02:201:03:00:161:"
		   "178:195"), want, "GUID: inside perftest's decimal GID");
	/* IPoIB link-local address: the GUID with the U/L bit flipped */
	for (k = 0; k < 8; k++)
		g[8 + k] = (unsigned char)(v >> (56 - 8 * k));
	g[8] ^= 2;
	inet_ntop(AF_INET6, g, txt, sizeof(txt));
	T_STREQ(rt(r, "fe80::202:c903:a1:b2c3"), txt,
		"GUID: IPoIB link-local (U/L bit flipped) agrees");
	T_STREQ(rt(r, "0X0002C90300A1B2C3"),
		(snprintf(want, sizeof(want), "0X%016llX", v), want),
		"GUID: upper case spelling, same value, same case");
}

/* a MAC, its EUI-64 GUID, its RoCE GID and its enx name agree */
static void test_mac_eui64(struct redact *r)
{
	unsigned m[6];
	char want[96];
	const char *o = rt(r, "0c:42:a1:5d:4d:b8");

	T_OK(sscanf(o, "%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3], &m[4],
		    &m[5]) == 6, "MAC parses");
	snprintf(want, sizeof(want), "%02x-%02x-%02x-%02x-%02x-%02x", m[0],
		 m[1], m[2], m[3], m[4], m[5]);
	T_STREQ(rt(r, "0c-42-a1-5d-4d-b8"), want, "MAC: '-' form = ':' form");
	snprintf(want, sizeof(want), "fe80:0000:0000:0000:%02x%02x:%02xff:"
		 "fe%02x:%02x%02x", m[0] ^ 2, m[1], m[2], m[3], m[4], m[5]);
	T_STREQ(rt(r, "fe80:0000:0000:0000:0e42:a1ff:fe5d:4db8"), want,
		"MAC: RoCE GID (EUI-64) agrees with the MAC");
	snprintf(want, sizeof(want), "%02x%02x:%02xff:fe%02x:%02x%02x",
		 m[0] ^ 2, m[1], m[2], m[3], m[4], m[5]);
	T_STREQ(rt(r, "0e42:a1ff:fe5d:4db8"), want,
		"MAC: EUI-64 node GUID agrees with the MAC");
	snprintf(want, sizeof(want), "enx%02x%02x%02x%02x%02x%02x", m[0], m[1],
		 m[2], m[3], m[4], m[5]);
	T_STREQ(rt(r, "enx0c42a15d4db8"), want,
		"MAC: enx netdev name agrees with the MAC");
}

/* an IPv4 address, alone and inside GIDs, maps to one pseudonym */
static void test_ipv4_in_gid(struct redact *r)
{
	unsigned a[4];
	char want[96];
	const char *o = rt(r, "10.0.0.10");

	T_OK(sscanf(o, "%u.%u.%u.%u", &a[0], &a[1], &a[2], &a[3]) == 4 &&
	     strcmp(o, "10.0.0.10"), "IPv4 changed: %s", o);
	snprintf(want, sizeof(want), "0000:0000:0000:0000:0000:ffff:%02x%02x:"
		 "%02x%02x", a[0], a[1], a[2], a[3]);
	T_STREQ(rt(r, "0000:0000:0000:0000:0000:ffff:0a00:000a"), want,
		"IPv4 inside a sysfs GID = plain IPv4");
	snprintf(want, sizeof(want), "::ffff:%u.%u.%u.%u", a[0], a[1], a[2],
		 a[3]);
	T_STREQ(rt(r, "::ffff:10.0.0.10"), want,
		"IPv4-mapped IPv6 = plain IPv4");
	snprintf(want, sizeof(want), "GID: 00:00:00:00:00:00:00:00:00:00:255:"
		 "255:%02u:%02u:%02u:%02u", a[0], a[1], a[2], a[3]);
	T_STREQ(rt(r, "GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:00:00:10"),
		want, "IPv4 inside perftest's decimal GID = plain IPv4");
	snprintf(want, sizeof(want), "mlx5_0\t1\t4\t0000:0000:0000:0000:0000:"
		 "ffff:%02x%02x:%02x%02x\t%u.%u.%u.%u  \tv2\tens1f0", a[0],
		 a[1], a[2], a[3], a[0], a[1], a[2], a[3]);
	T_STREQ(rt(r, "mlx5_0\t1\t4\t0000:0000:0000:0000:0000:ffff:0a00:000a\t"
		   "10.0.0.10  \tv2\tens1f0"), want,
		"show_gids line: GID and IPv4 columns agree");
}

static void test_ipv4_structure(struct redact *r)
{
	static char seen[65536];
	unsigned a[4], b[4], i, dup = 0, out = 0;
	char in[32];

	sscanf(rt(r, "10.1.2.3"), "%u.%u.%u.%u", &a[0], &a[1], &a[2], &a[3]);
	sscanf(rt(r, "10.1.2.200"), "%u.%u.%u.%u", &b[0], &b[1], &b[2], &b[3]);
	T_OK(a[0] == 10 && a[0] == b[0] && a[1] == b[1] && a[2] == b[2] &&
	     a[3] != b[3], "same /24 stays the same /24");
	sscanf(rt(r, "172.20.1.1"), "%u.%u.%u.%u", &a[0], &a[1], &a[2], &a[3]);
	T_OK(a[0] == 172 && a[1] >= 16 && a[1] < 32,
	     "172.16/12 stays in 172.16/12");
	for (i = 0; i < 65536; i++) {
		snprintf(in, sizeof(in), "10.7.%u.%u", i >> 8, i & 255);
		sscanf(rt(r, in), "%u.%u.%u.%u", &a[0], &a[1], &a[2], &a[3]);
		if (a[0] != 10)
			out++;
		if (seen[(a[2] << 8 | a[3])]++)
			dup++;
	}
	sscanf(rt(r, "10.7.0.0"), "%u.%u", &a[0], &a[1]);
	T_OK(!dup && !out, "10.7.0.0/16: 65536 addresses, 65536 distinct "
	     "pseudonyms in one /16 (a bijection)");
	for (i = 0, dup = 0; i < 2000; i++) {
		snprintf(in, sizeof(in), "172.%u.%u.1", i >> 8, i & 255);
		sscanf(rt(r, in), "%u.%u.%u.%u", &a[0], &a[1], &a[2], &a[3]);
		if (a[0] != 172 || (a[1] >= 16 && a[1] < 32 &&
				    !(i >> 8 >= 16 && i >> 8 < 32)))
			dup++;
	}
	T_OK(!dup, "public 172.x never maps into 172.16/12");
}

static void test_ipv6(struct redact *r)
{
	const char *o;
	unsigned char g[16];

	o = rt(r, "2001:db8:1234:5678::1");
	T_OK(inet_pton(AF_INET6, o, g) == 1 && !strncmp(o, "2001:", 5) &&
	     strcmp(o, "2001:db8:1234:5678::1"),
	     "global IPv6: first 16 bits kept, prefix mapped: %s", o);
	o = rt(r, "localGid fd00:1148:9000:5000:4:200:3:ff22 "
	       "remoteGidsfd00:1148:9000:5000:4:200:3:ff1f");
	T_OK(!strncmp(o, "localGid fd00:", 14) && !strstr(o, "1148") &&
	     !strstr(o, "ff1f") && strstr(o, " remoteGidsfd00:") &&
	     !strncmp(o + 9, strstr(o, "Gidsfd00:") + 4, 20),
	     "ULA GIDs (NCCL's \"remoteGids<gid>\"): one /64, mapped: %s", o);
	o = rt(r, "fe80::1/64 dev ib0");
	T_STREQ(o, "fe80::1/64 dev ib0", "fe80::1 (no OUI) unchanged");
	o = rt(r, "[fe80::0e42:a1ff:fe5d:4db8]:4791");
	T_OK(o[0] == '[' && shape_ok(o, "[fe80::e42:a1ff:fe%%:%%%%]:4791"),
	     "bracketed IPv6 with a port: %s", o);
	o = rt(r, "inet6 fe80::e42:a1ff:fe5d:4db8%ens1f0");
	T_OK(!strncmp(o, "inet6 fe80::e42:a1ff:fe", 23) &&
	     strlen(o) == 37 && !strcmp(o + 30, "%ens1f0") &&
	     strcmp(o, "inet6 fe80::e42:a1ff:fe5d:4db8%ens1f0"),
	     "IPv6 with a zone id: %s", o);
	T_STREQ(rt(r, "fe80::e42:a1ff:fe5d:4db8"),
		rt(r, "fe80:0:0:0:e42:a1ff:fe5d:4db8"),
		"two compressions of one address agree");
	o = rt(r, "FE80:0000:0000:0000:0E42:A1FF:FE5D:4DB8");
	T_OK(shape_ok(o, "FE80:0000:0000:0000:0E42:A1FF:FE%%:%%%%") &&
	     !strpbrk(o, "abcdef"), "upper case GID stays upper case: %s", o);
}

static void test_literals(struct redact *r)
{
	char host[64], shrt[64], dom[64], want[512];

	redact_add_literal(r, "host", "gpu01.example.com");
	redact_add_literal(r, "host", "gpu01");
	redact_add_literal(r, "domain", "example.com");
	redact_add_literal(r, "user", "alice");
	redact_value(r, "host", "gpu01.example.com", host, sizeof(host));
	redact_value(r, "host", "gpu01", shrt, sizeof(shrt));
	redact_value(r, "domain", "example.com", dom, sizeof(dom));
	T_OK(shape_ok(host, "host-@") && shape_ok(shrt, "host-@") &&
	     strcmp(host, shrt), "host pseudonyms: %s %s", host, shrt);
	snprintf(want, sizeof(want), "ssh %s; %s: NCCL INFO %s %s:4791 "
		 "gpu01-ib0 xgpu01 gpu01_x /var/log/%s.log gpu02.%s", host,
		 shrt, shrt, shrt, shrt, dom);
	T_STREQ(rt(r, "ssh gpu01.example.com; gpu01: NCCL INFO GPU01 "
		   "Gpu01:4791 gpu01-ib0 xgpu01 gpu01_x /var/log/gpu01.log "
		   "gpu02.example.com"), want,
		"hostname (FQDN, short, any case) inside text, whole words");
	redact_value(r, "user", "alice", host, sizeof(host));
	/* '@' is a boundary: a group of that name goes too */
	snprintf(want, sizeof(want), "%s soft memlock unlimited\n"
		 "@%s hard nofile 1\n", host, host);
	T_STREQ(rt(r, "alice soft memlock unlimited\n@alice hard nofile 1\n"),
		want, "user name literal");
	redact_value(r, "host", "GPU01", dom, sizeof(dom));
	T_STREQ(dom, shrt, "redact_value ignores case");
}

static void test_keys(void)
{
	unsigned char k1[32], k2[32], d[32];
	struct redact *a, *b, *c;
	char id[17], want[17];
	const char *text = "node 0x0002c90300a1b2c3 at 10.0.0.10, "
			   "fe80:0000:0000:0000:0e42:a1ff:fe5d:4db8";
	char o1[256];

	memset(k1, 1, sizeof(k1));
	memset(k2, 2, sizeof(k2));
	a = redact_new(k1, sizeof(k1));
	b = redact_new(k1, sizeof(k1));
	c = redact_new(k2, sizeof(k2));
	snprintf(o1, sizeof(o1), "%s", rt(a, text));
	T_STREQ(rt(b, text), o1, "same key, same pseudonyms");
	T_OK(strcmp(rt(c, text), o1), "another key, other pseudonyms");
	redact_key_id(a, id);
	sha256(k1, sizeof(k1), d);
	hex(d, 8, want);
	T_STREQ(id, want, "key_id: first 16 hex digits of SHA-256(key)");
	redact_free(a);
	redact_free(b);
	redact_free(c);
	redact_free(NULL);
}

static void add(struct store *s, int type, const char *path,
		const void *data, size_t len)
{
	char *d = malloc(len + 1);

	memcpy(d, data, len);
	d[len] = 0;
	store_add(s, type, path, d, len, 0644, 0, 0);
}

static void add_text(struct store *s, const char *path, const char *text)
{
	add(s, ENT_FILE, path, text, strlen(text));
}

static const struct entry *get(const struct store *s, const char *path)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].path, path))
			return &s->v[i];
	return NULL;
}

static const char *text_of(const struct store *s, const char *path)
{
	const struct entry *e = get(s, path);

	return e ? e->data : "(absent)";
}

#define CFG_PATH "sys/devices/pci0000:00/0000:00:02.0/0000:b1:00.0/config"
#define LINK_DIR "sys/class/net/"

/* the whole-bundle pass: special files, binary files, paths, links */
static void test_scrub(void)
{
	static const unsigned char serial[8] = {
		0xb8, 0x59, 0x9f, 0x03, 0x00, 0x12, 0x34, 0x56,
	};
	unsigned char key[32] = { 9 }, cfg[4096];
	char nd[64], user[64], host[64], mid[64], want[512];
	const struct entry *e;
	struct store s;
	struct redact *r = redact_new(key, sizeof(key));
	size_t i;

	store_init(&s, 0);
	/* extended capabilities: AER (id 1) at 0x100, next 0x148: DSN (id 3) */
	memset(cfg, 0, sizeof(cfg));
	cfg[0x100] = 0x01;
	cfg[0x102] = 0x81;
	cfg[0x103] = 0x14;
	cfg[0x148] = 0x03;
	cfg[0x14a] = 0x01;
	memcpy(cfg + 0x14c, serial, 8);
	add(&s, ENT_FILE, CFG_PATH, cfg, sizeof(cfg));
	add_text(&s, "sys/class/infiniband/mlx5_0/node_desc", "gpu01 mlx5_0\n");
	add_text(&s, "etc/machine-id", "0f1e2d3c4b5a69788796a5b4c3d2e1f0\n");
	add_text(&s, "etc/security/limits.conf",
		 "# alice\nalice soft memlock unlimited\n@rdma - memlock -1\n"
		 "root hard nofile 1\n1000:2000 - nproc 1\n");
	add_text(&s, "rdma-collect/environ/self.env",
		 "NCCL_IB_HCA=mlx5_0\nMLX5_SCATTER_TO_CQE=1\n"
		 "NCCL_DEBUG_FILE=/home/alice/x\nNCCL_SOCKET_IFNAME=eth0 x\n"
		 "UCX_TLS=\n");
	add_text(&s, "rdma-collect/attach/gpu01.log",
		 "on gpu01, gpu01 mlx5_0 and alice: "
		 "0f1e2d3c4b5a69788796a5b4c3d2e1f0");
	add(&s, ENT_FILE, "bin", "a\0b 10.0.0.1", 12);
	add(&s, ENT_LINK, LINK_DIR "enx0c42a15d4db8",
	    "../../devices/virtual/net/enx0c42a15d4db8", 41);
	scrub_add_hostname(r, "gpu01.example.com\n");
	scrub_store(r, &s);
	store_sort(&s);

	e = get(&s, CFG_PATH);
	T_OK(e && e->len == sizeof(cfg) &&
	     !memcmp(e->data + 0x14c, "\0\0\0\0\0\0\0\0", 8) &&
	     e->data[0x148] == 3 && e->data[0x103] == 0x14,
	     "config: Device Serial Number zeroed, headers kept");
	redact_value(r, "nodedesc", "gpu01 mlx5_0", nd, sizeof(nd));
	snprintf(want, sizeof(want), "%s\n", nd);
	T_STREQ(text_of(&s, "sys/class/infiniband/mlx5_0/node_desc"), want,
		"node_desc: nodedesc-xxxxxxxx and its newline");
	T_OK(shape_ok(text_of(&s, "etc/machine-id"),
		      "%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%\n") &&
	     strcmp(text_of(&s, "etc/machine-id"),
		    "0f1e2d3c4b5a69788796a5b4c3d2e1f0\n"),
	     "machine-id: another 32 hex digits and the newline");
	redact_value(r, "user", "alice", user, sizeof(user));
	snprintf(want, sizeof(want), "# %s\n%s soft memlock unlimited\n"
		 "@rdma - memlock -1\nroot hard nofile 1\n"
		 "1000:2000 - nproc 1\n", user, user);
	T_STREQ(text_of(&s, "etc/security/limits.conf"), want,
		"limits.conf: the user replaced; @group, root, uid range kept");
	T_OK(shape_ok(text_of(&s, "rdma-collect/environ/self.env"),
		      "NCCL_IB_HCA=mlx5_0\nMLX5_SCATTER_TO_CQE=1\n"
		      "NCCL_DEBUG_FILE=env-@\nNCCL_SOCKET_IFNAME=env-@\n"
		      "UCX_TLS=\n"),
	     "environment: allowlisted plain values kept, others env-");
	redact_value(r, "host", "gpu01", host, sizeof(host));
	redact_value(r, "machine-id", "0f1e2d3c4b5a69788796a5b4c3d2e1f0", mid,
		     sizeof(mid));
	snprintf(want, sizeof(want), "rdma-collect/attach/%s.log", host);
	e = get(&s, want);
	snprintf(want, sizeof(want), "on %s, %s and %s: %s", host, nd, user,
		 mid);
	T_STREQ(e ? e->data : "(path not renamed)", want,
		"entry path and text: hostname, node description, user, "
		"machine id");
	e = get(&s, "bin");
	T_OK(e && e->len == 12 && !memcmp(e->data, "a\0b 10.0.0.1", 12),
	     "binary entry (a NUL byte) left alone");
	for (i = 0; i < s.n; i++) {
		e = &s.v[i];
		if (e->type != ENT_LINK)
			continue;
		T_OK(!strstr(e->path, "5d4db8") && !strstr(e->data, "5d4db8") &&
		     !strcmp(strrchr(e->data, '/'), strrchr(e->path, '/')),
		     "link name and target renamed alike: %s -> %s", e->path,
		     e->data);
	}
	store_release(&s);
	redact_free(r);
}

static void test_keyfile(void)
{
	char dir[] = "/tmp/test-redact.XXXXXX", f[64], text[80];
	unsigned char k[32], k2[32];
	struct stat st;
	int created, fd, i;

	if (!mkdtemp(dir)) {
		T_OK(0, "mkdtemp");
		return;
	}
	snprintf(f, sizeof(f), "%s/new.key", dir);
	T_OK(!scrub_load_key(f, k, &created) && created &&
	     !stat(f, &st) && (st.st_mode & 0777) == 0600 && st.st_size == 65,
	     "missing key file: created, mode 0600, 64 hex digits + newline");
	T_OK(!scrub_load_key(f, k2, &created) && !created &&
	     !memcmp(k, k2, 32), "the created key reads back the same");
	for (i = 0; i < 32; i++)
		sprintf(text + 2 * i, "%02X", k[i]);
	snprintf(f, sizeof(f), "%s/hex.key", dir);
	fd = open(f, O_WRONLY | O_CREAT, 0600);
	T_OK(write(fd, text, 64) == 64, "write");
	close(fd);
	T_OK(!scrub_load_key(f, k2, &created) && !memcmp(k, k2, 32),
	     "64 upper-case hex digits, no newline");
	unlink(f);
	snprintf(f, sizeof(f), "%s/raw.key", dir);
	fd = open(f, O_WRONLY | O_CREAT, 0600);
	T_OK(write(fd, k, 32) == 32, "write");
	close(fd);
	T_OK(!scrub_load_key(f, k2, &created) && !memcmp(k, k2, 32),
	     "32 raw bytes");
	unlink(f);
	snprintf(f, sizeof(f), "%s/bad.key", dir);
	fd = open(f, O_WRONLY | O_CREAT, 0600);
	T_OK(write(fd, text, 63) == 63, "write");
	close(fd);
	printf("# two error messages are expected below\n");
	fflush(stdout);
	T_OK(scrub_load_key(f, k2, &created) < 0, "63 hex digits refused");
	unlink(f);
	snprintf(f, sizeof(f), "%s/new.key", dir);
	T_OK(scrub_save_key(f, k) < 0, "save never overwrites a key file");
	unlink(f);
	rmdir(dir);
}

static void bench(struct redact *r)
{
	static const char line[] =
		"6,2041,91234567,-;mlx5_core 0000:b1:00.0 ens1f0np0: "
		"Link up, peer 10.1.2.3 gid fe80:0000:0000:0000:0e42:a1ff:"
		"fe5d:4db8 guid 0x0002c90300a1b2c3 fw 28.41.1000 t=21:04:05\n";
	struct buf in = BUF_INIT, out = BUF_INIT;
	struct timespec t0, t1;
	double s;

	while (in.len < 4u << 20)
		buf_addstr(&in, line);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	redact_text(r, in.buf, in.len, &out);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("# redact_text: %zu bytes of dense kernel log in %.3f s "
	       "(%.1f MB/s)\n", in.len, s, in.len / s / 1e6);
	T_OK(out.len > in.len / 2, "4 MiB of log redacted");
	buf_release(&in);
	buf_release(&out);
}

int main(void)
{
	unsigned char key[32];
	struct redact *r;
	size_t i;

	for (i = 0; i < sizeof(key); i++)
		key[i] = (unsigned char)(i * 7 + 3);
	test_sha256();
	test_hmac();
	r = redact_new(key, sizeof(key));
	test_unchanged(r);
	test_shapes(r);
	test_guid_spellings(r);
	test_mac_eui64(r);
	test_ipv4_in_gid(r);
	test_ipv4_structure(r);
	test_ipv6(r);
	test_literals(r);
	test_unchanged(r);	/* literals do not disturb the table */
	bench(r);
	redact_free(r);
	test_keys();
	test_scrub();
	test_keyfile();
	release_rt();
	return t_done();
}
