/* test-ethtool: the SIOCETHTOOL and rtnetlink readers against this
 * machine's real netdevs (eth0 when present, lo, a name that does not
 * exist), compared with the driver link in sysfs and `ethtool -S`. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "ethtool.h"
#include "rdmanet.h"
#include "t.h"

/* count of "[name, value]" lines: the stats and priv_flags entries */
static int count_pairs(const char *s, const char *key)
{
	const char *p = strstr(s, key), *end;
	int n = 0;

	if (!p)
		return -1;
	end = strstr(p, "\n  ]");
	if (!end)
		return 0;	/* [] */
	for (; (p = strstr(p, "\n    [\"")) && p < end; p++)
		n++;
	return n;
}

/* the names `ethtool -S` prints, "\n"-joined, and their count; -1 if
 * ethtool is not installed or fails */
static int ethtool_cmd_names(const char *ifname, struct buf *names)
{
	char cmd[128], line[512];
	FILE *f;
	int n = 0, rc;

	snprintf(cmd, sizeof(cmd), "ethtool -S %s 2>/dev/null", ifname);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *colon;

		if (!strncmp(line, "NIC statistics", 14))
			continue;
		while (*p == ' ')
			p++;
		colon = strrchr(p, ':');
		if (!colon)
			continue;
		*colon = 0;
		buf_addf(names, "\n    [\"%s\",", p);
		n++;
	}
	rc = pclose(f);
	return rc ? -1 : n;
}

static void test_eth0(void)
{
	struct buf b = BUF_INIT, names = BUF_INIT;
	char link[PATH_MAX], want[PATH_MAX + 32];
	const char *p, *q;
	ssize_t len;
	int rc, n, k;

	if (access("/sys/class/net/eth0", F_OK)) {
		printf("skip - eth0 checks: no eth0 here\n");
		return;
	}
	rc = ethtool_json("eth0", &b);
	T_OK(rc == 0, "ethtool_json(eth0) returns 0 (%d)", rc);
	T_OK(strstr(b.buf, "\"status\": \"ok\"") != NULL, "eth0 status ok");
	T_OK(strstr(b.buf, "\"link_detected\": ") != NULL,
	     "eth0 link_detected read");
	len = readlink("/sys/class/net/eth0/device/driver", link,
		       sizeof(link) - 1);
	if (len > 0) {
		link[len] = 0;
		snprintf(want, sizeof(want), "\"driver\": \"%s\"",
			 basename(link));
		T_OK(strstr(b.buf, want) != NULL,
		     "drvinfo driver is the sysfs driver link (%s)", want);
	}
	n = count_pairs(b.buf, "\"stats\": [");
	T_OK(n >= 0, "eth0 has a stats list (%d stats)", n);
	k = ethtool_cmd_names("eth0", &names);
	if (k < 0) {
		printf("skip - ethtool -S comparison: ethtool not installed\n");
	} else {
		T_OK(n == k, "stats count %d == ethtool -S count %d", n, k);
		/* the same names in the same order */
		for (p = names.buf, q = b.buf; p && *p; ) {
			const char *e = strstr(p + 1, "\n    [\"");
			size_t l = e ? (size_t)(e - p) : strlen(p);
			char *hit = memmem(q, strlen(q), p, l);

			if (!hit)
				break;
			q = hit + l;
			p = e;
		}
		T_OK(!p || !*p, "stat names and order as ethtool -S");
	}
	buf_reset(&b);
	rc = ethtool_stats_json("eth0", &b);
	T_OK(rc == 0, "ethtool_stats_json(eth0) returns 0");
	T_OK(count_pairs(b.buf, "\"stats\": [") == n,
	     "the sample form has the same %d stats", n);
	T_OK(!strstr(b.buf, "drvinfo") && !strstr(b.buf, "\"link\""),
	     "the sample form has stats only");
	buf_reset(&b);
	rc = dcb_json("eth0", &b);
	if (rc == -EOPNOTSUPP)
		T_OK(strstr(b.buf, "\"status\": \"absent\"") &&
		     strstr(b.buf, "\"ieee\": \"EOPNOTSUPP\""),
		     "eth0 without DCB ops: absent, EOPNOTSUPP");
	else
		T_OK(rc == 0 && strstr(b.buf, "\"status\": \"ok\""),
		     "eth0 DCB read (%d)", rc);
	buf_release(&b);
	buf_release(&names);
}

static void test_missing(void)
{
	struct buf b = BUF_INIT;
	int rc;

	rc = ethtool_json("nosuchif0", &b);
	T_OK(rc == -ENODEV, "ethtool_json of a missing netdev: -ENODEV");
	T_OK(strstr(b.buf, "\"status\": \"absent\"") &&
	     strstr(b.buf, "\"drvinfo\": \"ENODEV\""),
	     "missing netdev: absent, drvinfo ENODEV");
	buf_reset(&b);
	rc = ethtool_stats_json("nosuchif0", &b);
	T_OK(rc == -ENODEV && strstr(b.buf, "\"status\": \"absent\""),
	     "ethtool_stats_json of a missing netdev: absent");
	buf_reset(&b);
	rc = dcb_json("nosuchif0", &b);
	T_OK(rc == -ENODEV && strstr(b.buf, "\"status\": \"absent\""),
	     "dcb_json of a missing netdev: absent");
	buf_reset(&b);
	rc = ethtool_json("a-name-far-too-long-for-a-netdev", &b);
	T_OK(rc < 0 && strstr(b.buf, "\"status\": \"error\""),
	     "an overlong name is refused, not truncated");
	buf_release(&b);
}

static void test_lo(void)
{
	struct buf b = BUF_INIT;
	int rc;

	rc = ethtool_json("lo", &b);
	T_OK(rc == 0 && strstr(b.buf, "\"status\": \"ok\"") &&
	     strstr(b.buf, "\"stats\": []"),
	     "lo: ok, no stats (%d)", rc);
	T_OK(strstr(b.buf, "\"link_detected\": 1") != NULL, "lo: link up");
	buf_release(&b);
}

static void test_addresses(void)
{
	struct buf b = BUF_INIT;
	int rc;

	rc = net_addresses_json(&b);
	T_OK(rc == 0, "RTM_GETADDR dump (%d)", rc);
	T_OK(b.len && b.buf[0] == '[' && b.buf[b.len - 2] == ']',
	     "addresses: a JSON array");
	T_OK(strstr(b.buf, "\"address\": \"127.0.0.1\",\n    \"prefixlen\": 8,\n"
			   "    \"scope\": \"host\"") != NULL,
	     "addresses: lo 127.0.0.1/8 scope host");
	buf_release(&b);
}

static void test_names(void)
{
	T_OK(netdev_name_ok("ens1f0np0"), "name ens1f0np0 ok");
	T_OK(!netdev_name_ok("") && !netdev_name_ok(".") &&
	     !netdev_name_ok("..") && !netdev_name_ok("a/b") &&
	     !netdev_name_ok("a b") && !netdev_name_ok("0123456789abcdef"),
	     "bad netdev names refused");
	T_OK(netdev_name_ok("0123456789abcde"), "15-byte name ok");
}

int main(void)
{
	test_eth0();
	test_missing();
	test_lo();
	test_addresses();
	test_names();
	return t_done();
}
