/* imp-host-net: the netdev source's evidence from tool text --
 *   ethtool -S IF   "NIC statistics:" and "     %.*s: %llu" (ethtool's
 *                   do_gstats; names up to 32 bytes, trailing spaces kept)
 *   ethtool -i IF   "driver: ...", "bus-info: ..." (dump_drvinfo)
 *   ethtool -a IF   "Pause parameters for IF:", "Autonegotiate:", "RX:",
 *                   "TX:" (dump_pause)
 *   ethtool IF      "Settings for IF:", Speed, Duplex, Port,
 *                   Auto-negotiation, PHYAD, Transceiver, Link detected
 *   ethtool_stats.pl  "Ethtool(IF) stat: N (N,NNN) <= name /sec": per-second
 *                   growth of the counters that changed (kept as "rates")
 * into rdma-collect/ethtool/IF.json (each part merged into what an earlier
 * file gave); `dcb [-s] pfc show dev IF` (iproute2 dcb_pfc.c) into
 * rdma-collect/dcb/IF.json, as is MLNX_OFED's `mlnx_qos -i IF` ("PFC
 * configuration:" and its enabled row, "Priority trust state:", "Cable
 * len:"); `ip addr`, `ip -o addr`, `ip -j addr` and
 * `ip link` into rdma-collect/net/addresses.json and the interfaces'
 * sysfs attributes (ifindex, mtu, operstate, address, type), which raw
 * copies of sysfs replace when an archive has them.
 *
 * A netdev is in the bundle when sys/class/net/IF holds something: ip's
 * attributes, ethtool's speed/duplex/carrier, or the device link ethtool
 * -i's bus-info gives ("../../../bus/pci/devices/<bdf>").  ethtool -S
 * alone names no such thing; its stats are kept (show ethtool -S) and a
 * note says the netdev has no sysfs folder.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "imp.h"
#include "json.h"
#include "jsonp.h"
#include "util.h"

static int ifname_ok(const char *s)
{
	size_t n = strlen(s);

	/* IFNAMSIZ 16: at most 15 bytes, no '/', no blanks */
	return n && n < 16 && !strpbrk(s, "/ \t:") && strcmp(s, ".") &&
	       strcmp(s, "..");
}

/* the interface an ethtool output is of: the name's or the prompt's, else
 * (a paste saved as "ethtool-S.txt", a fixture named after its driver)
 * "unnamed": all such outputs of one input are taken as one interface's,
 * and a note says so; findings then name "unnamed" */
#define IF_UNNAMED "unnamed"
static const char *ifname_of(struct imp *im, const char *arg,
			     const char *origin, const char *tool)
{
	if (arg)
		return ifname_ok(arg) ? arg : NULL;
	imp_note(im, "%s: %s output without its interface's name: read as "
		 "interface '" IF_UNNAMED "' (name the file 'ethtool -S IFACE.txt' "
		 "or paste the command line)", origin, tool);
	return IF_UNNAMED;
}

static int ethtool_put(struct imp *im, const char *ifn, const char *origin,
		       const char *key, const char *value)
{
	char p[128];

	snprintf(p, sizeof(p), "rdma-collect/ethtool/%s.json", ifn);
	if (ih_json_set(im, p, origin, ifn, key, value) < 0)
		return -1;
	/* ethtool ran on it: the netdev exists, so the loader, which walks
	 * sys/class/net, judges its counters even when nothing else names it */
	snprintf(p, sizeof(p), "sys/class/net/%s", ifn);
	if (!imp_get(im, p, NULL) && imp_dir(im, p, origin) < 0)
		return -1;
	imp_source(im, SOURCE_NETDEV, "partial", "from pasted tool outputs");
	return 0;
}

static int sysfs_net(struct imp *im, const char *ifn, const char *origin,
		     const char *attr, const char *value)
{
	char p[128];

	snprintf(p, sizeof(p), "sys/class/net/%s/%s", ifn, attr);
	return imp_putf(im, origin, p, "%s\n", value);
}

/* the first non-empty line */
static int first_line(const char *text, size_t len, struct ih_line *l,
		      struct ih_lines *it)
{
	ih_lines_init(it, text, len);
	while (ih_next(it, l))
		if (l->len)
			return 1;
	return 0;
}

/* most non-blank lines "name: number" (an ethtool -S without its header;
 * "..", "..." where a paste elided some), at least min of them */
static int stats_only(const char *text, size_t len, int min)
{
	struct ih_lines it;
	struct ih_line *l = malloc(sizeof(*l));
	int yes = 0, no = 0;

	if (!l)
		return 0;
	ih_lines_init(&it, text, len);
	while (ih_next(&it, l) && yes + no < 4000) {
		const char *s = ih_skip(l->s), *c = strrchr(s, ':');
		const char *v;

		if (!*s || strspn(s, ".") == strlen(s))
			continue;
		for (v = c ? c + 1 : NULL; v && *v == ' '; v++)
			;
		if (c && c > s && v && *v >= '0' && *v <= '9' &&
		    !memchr(s, ' ', (size_t)(c - s)))
			yes++;
		else
			no++;
	}
	free(l);
	return yes >= min && yes > 4 * no;
}

/* "[sudo] ethtool -S IF [| grep ...]" as a paste's first line, without a
 * prompt: the interface into out */
static int stats_cmd(const char *s, char *out, size_t sz)
{
	size_t n;

	s = ih_skip(s);
	if (starts_with(s, "sudo "))
		s = ih_skip(s + 5);
	if (starts_with(s, "ethtool -S "))
		s += 11;
	else if (starts_with(s, "ethtool --statistics "))
		s += 21;
	else
		return 0;
	s = ih_skip(s);
	n = strcspn(s, " \t|");
	if (!n || n >= sz || *s == '-')	/* an option: not the interface */
		return 0;
	memcpy(out, s, n);
	out[n] = 0;
	return ifname_ok(out);
}

int ih_ethtool_stats(struct imp *im, const char *text, size_t len,
		     const char *origin, const char *arg)
{
	struct buf out = BUF_INIT;
	struct json j;
	struct ih_lines it;
	struct ih_line *l = malloc(sizeof(*l));
	const char *ifn = NULL;
	char cmdif[16];
	int n = 0, skipped = 0, rc = 1, head, cmd;

	if (!l)
		return -1;
	if (!first_line(text, len, l, &it))
		goto out;
	/* "NIC statistics:" first, or (| grep, or stripped) the counters
	 * alone: then most lines must be "name: number"; or the command
	 * line itself first, pasted without its prompt */
	head = !strcmp(ih_skip(l->s), "NIC statistics:");
	cmd = !head && stats_cmd(l->s, cmdif, sizeof(cmdif));
	/* named (by the command line above it, or the file's name), one
	 * counter is enough: "ethtool -S IF | grep out_of_buffer" */
	if (!head && !cmd && !stats_only(text, len, arg ? 1 : 2))
		goto out;
	if (!(ifn = ifname_of(im, arg ? arg : cmd ? cmdif : NULL, origin,
			      "ethtool -S")))
		goto out;
	if (!head && !cmd)
		ih_lines_init(&it, text, len);
	buf_init(&out, 16 << 20);
	json_init(&j, &out, 0);
	json_arr_open(&j, NULL);
	while (ih_next(&it, l)) {
		const char *s = ih_skip(l->s), *sep;
		char val[32];
		uint64_t v;
		size_t vl;

		if (!l->len || !*s || (cmd && !n && !skipped &&
				       !strcmp(s, "NIC statistics:")))
			continue;
		sep = strstr(s, ": ");
		while (sep && strstr(sep + 1, ": "))	/* the last one */
			sep = strstr(sep + 1, ": ");
		vl = sep ? strlen(sep + 2) : 0;
		while (vl && sep[2 + vl - 1] == ' ')	/* trailing blanks */
			vl--;
		if (sep && vl < sizeof(val)) {
			memcpy(val, sep + 2, vl);
			val[vl] = 0;
		}
		if (l->unterminated || l->cut || !sep || sep == s ||
		    sep - s > 32 || vl >= sizeof(val) ||
		    ih_u64(val, UINT64_MAX, &v) < 0) {
			skipped++;
			continue;
		}
		json_arr_open(&j, NULL);
		json_strn(&j, NULL, s, (size_t)(sep - s));
		json_uint(&j, NULL, v);
		json_arr_close(&j);
		n++;
	}
	json_arr_close(&j);
	if (out.truncated) {
		rc = -1;
		goto out;
	}
	if (cmd && !n)
		goto out;	/* a command line and nothing it printed */
	if (skipped)
		imp_note(im, "%s: %d lines that are no statistic left out "
			 "(a cut last line is not trusted)", origin, skipped);
	rc = ethtool_put(im, ifn, origin, "stats", out.buf);
out:
	buf_release(&out);
	free(l);
	return rc;
}

/* --- ethtool_stats.pl --- */

/* Jesper Brouer's ethtool_stats.pl (netoptimizer/network-testing) reads
 * ethtool -S every second and prints the counters that changed, as
 * "Ethtool(%-8s) stat: %12d (%15s) <= %s /sec": the growth per second,
 * the same with thousands commas, the counter's name.  The counters' own
 * values are never shown, so what is kept is the rate: per interface and
 * counter the highest rate printed, and how many rounds printed it. */
#define MAX_RATES 4096

struct rate {
	char dev[16];
	char name[40];
	int64_t max;
	int rounds;
};

struct rates {
	struct rate *r;
	size_t n;
	int bad;
};

static struct rate *rate_slot(struct rates *t, const char *dev,
			      const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->r[i].dev, dev) && !strcmp(t->r[i].name, name))
			return &t->r[i];
	if (t->n >= MAX_RATES)
		return NULL;
	memset(&t->r[t->n], 0, sizeof(t->r[0]));
	snprintf(t->r[t->n].dev, sizeof(t->r[0].dev), "%s", dev);
	snprintf(t->r[t->n].name, sizeof(t->r[0].name), "%s", name);
	t->r[t->n].max = INT64_MIN;
	return &t->r[t->n++];
}

static void rate_add(struct rates *t, const char *dev, const char *name,
		     int64_t v, int rounds)
{
	struct rate *r = rate_slot(t, dev, name);

	if (!r) {
		t->bad++;
		return;
	}
	if (v > r->max)
		r->max = v;
	r->rounds += rounds;
}

/* the digits of a number with thousands commas ("1,034") */
static int uncomma(const char *s, size_t n, char *out, size_t outsz)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == ',')
			continue;
		if (k + 1 >= outsz || !(isdigit((unsigned char)s[i]) ||
					(!k && s[i] == '-')))
			return -1;
		out[k++] = s[i];
	}
	out[k] = 0;
	return k ? 0 : -1;
}

/* " Ethtool(mlx5p1  ) stat:   1034 (   1,034) <= rx_discards_phy /sec" */
static int rate_line(const char *s, char *dev, char *name, int64_t *v)
{
	const char *p = ih_skip(s), *e, *q;
	char num[32], pretty[32];
	size_t n;
	long long x;

	if (!starts_with(p, "Ethtool(") || !(e = strchr(p, ')')))
		return -1;
	p += 8;
	for (n = (size_t)(e - p); n && p[n - 1] == ' '; n--)
		;
	if (!n || n >= 16)
		return -1;
	memcpy(dev, p, n);
	dev[n] = 0;
	p = e + 1;
	if (!starts_with(p, " stat: "))
		return -1;
	p = ih_skip(p + 7);
	n = strspn(p, "-0123456789");
	if (!n || n >= sizeof(num) || p[n] != ' ')
		return -1;
	memcpy(num, p, n);
	num[n] = 0;
	p = ih_skip(p + n);
	/* the pretty copy must say the same number */
	if (*p != '(' || !(q = strchr(p, ')')) ||
	    uncomma(ih_skip(p + 1), (size_t)(q - ih_skip(p + 1)), pretty,
		    sizeof(pretty)) < 0 || strcmp(pretty, num))
		return -1;
	p = q + 1;
	if (!starts_with(p, " <= "))
		return -1;
	p += 4;
	n = strlen(p);
	if (n < 6 || strcmp(p + n - 5, " /sec"))
		return -1;
	n -= 5;
	if (!n || n >= 40)
		return -1;
	memcpy(name, p, n);
	name[n] = 0;
	if (sscanf(num, "%lld", &x) != 1 || (x == LLONG_MAX || x == LLONG_MIN))
		return -1;
	*v = x;
	return 0;
}

/* what an earlier file gave for dev: its rates join this file's */
static void rates_before(struct imp *im, struct rates *t, const char *dev)
{
	char p[128];
	const char *d;
	size_t len, i;
	struct jv *e;
	const struct jv *a;

	snprintf(p, sizeof(p), "rdma-collect/ethtool/%s.json", dev);
	if (!(d = imp_get(im, p, &len)) || !(e = jparse(d, len, NULL, 0)))
		return;
	a = jget(e, "rates");
	for (i = 0; i < jlen(a); i++) {
		const struct jv *r = jat(a, i);

		if (jstr(jat(r, 0), NULL) && strlen(jstr(jat(r, 0), NULL)) < 40)
			rate_add(t, dev, jstr(jat(r, 0), NULL),
				 jint(jat(r, 1), NULL, 0),
				 (int)jint(jat(r, 2), NULL, 1));
	}
	jfree(e);
}

static int rates_put(struct imp *im, struct rates *t, const char *dev,
		     const char *origin)
{
	struct buf out = BUF_INIT;
	struct json j;
	size_t i;
	int rc;

	json_init(&j, &out, 0);
	json_arr_open(&j, NULL);
	for (i = 0; i < t->n; i++) {
		if (strcmp(t->r[i].dev, dev))
			continue;
		json_arr_open(&j, NULL);
		json_str(&j, NULL, t->r[i].name);
		json_int(&j, NULL, t->r[i].max);
		json_int(&j, NULL, t->r[i].rounds);
		json_arr_close(&j);
	}
	json_arr_close(&j);
	rc = out.truncated ? -1 : ethtool_put(im, dev, origin, "rates", out.buf);
	buf_release(&out);
	return rc;
}

/* a mail wraps "... <= rx_out_of_buffer /sec" at a blank, before the
 * name or before "/sec": the line is joined to the next one, which ends
 * in "/sec" (format=flowed keeps the blank at the break).  -1 when the
 * text ended instead */
static int rate_wrapped(struct ih_lines *it, struct ih_line *l)
{
	struct ih_lines save = *it;
	struct ih_line *next;
	size_t n = strlen(l->s), k;
	int rc = 0;

	if (!starts_with(ih_skip(l->s), "Ethtool(") ||
	    (n >= 5 && !strcmp(l->s + n - 5, " /sec")) || !strstr(l->s, " <="))
		return 0;
	if (!(next = malloc(sizeof(*next))))
		return 0;
	if (!ih_next(it, next)) {
		rc = -1;
	} else if ((k = strlen(next->s)) < 4 || strcmp(next->s + k - 4, "/sec") ||
		   starts_with(ih_skip(next->s), "Ethtool(") ||
		   n + 1 + k >= sizeof(l->s)) {
		*it = save;	/* not its tail: read on from there */
	} else {
		if (n && l->s[n - 1] != ' ')
			l->s[n++] = ' ';
		memcpy(l->s + n, next->s, k + 1);
		l->len = n + k;
		l->unterminated = next->unterminated;
	}
	free(next);
	return rc;
}

int ih_ethtool_rates(struct imp *im, const char *text, size_t len,
		     const char *origin, const char *arg)
{
	struct rates t = { NULL, 0, 0 };
	struct ih_lines it;
	struct ih_line *l = malloc(sizeof(*l));
	char devs[16][16];
	size_t ndev = 0, i, k;
	int rc = 1, neg = 0;

	(void)arg;	/* the interface is on each line */
	t.r = calloc(MAX_RATES, sizeof(*t.r));
	if (!l || !t.r) {
		rc = -1;
		goto out;
	}
	ih_lines_init(&it, text, len);
	while (ih_next(&it, l)) {
		char dev[16], name[40];
		int64_t v;

		if (rate_wrapped(&it, l) < 0) {
			t.bad++;	/* cut at its wrap */
			continue;
		}
		if (l->cut || l->unterminated ||
		    rate_line(l->s, dev, name, &v) < 0) {
			t.bad += starts_with(ih_skip(l->s), "Ethtool(");
			continue;
		}
		if (!ifname_ok(dev)) {
			t.bad++;
			continue;
		}
		if (v < 0) {	/* the counter went back: reset or wrapped */
			neg++;
			continue;
		}
		for (k = 0; k < ndev && strcmp(devs[k], dev); k++)
			;
		if (k == ndev) {
			if (ndev == ARRAY_SIZE(devs)) {
				t.bad++;
				continue;
			}
			snprintf(devs[ndev++], sizeof(devs[0]), "%s", dev);
			rates_before(im, &t, dev);
		}
		rate_add(&t, dev, name, v, 1);
	}
	for (i = 0, rc = ndev ? 0 : 1; i < ndev && !rc; i++)
		rc = rates_put(im, &t, devs[i], origin);
	if (!rc && (t.bad || neg))
		imp_note(im, "%s: %d ethtool_stats.pl lines not read, %d negative "
			 "rates (a counter reset) left out", origin, t.bad, neg);
out:
	free(t.r);
	free(l);
	return rc;
}

/* "key: value" lines into out (value after one blank, may be empty) */
static const char *kv(const char *s, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(s, key, n) || s[n] != ':')
		return NULL;
	return ih_skip(s + n + 1);
}

int ih_ethtool_drvinfo(struct imp *im, const char *text, size_t len,
		       const char *origin, const char *arg)
{
	static const struct {
		const char *key, *json;
	} keys[] = {
		{ "driver", "driver" }, { "version", "version" },
		{ "firmware-version", "fw_version" },
		{ "expansion-rom-version", "erom_version" },
		{ "bus-info", "bus_info" },
	};
	struct buf out = BUF_INIT;
	struct json j;
	struct ih_lines it;
	struct ih_line *l = malloc(sizeof(*l));
	char bus[64] = "", p[128], tgt[96];
	size_t i;
	int rc = 1;

	if (!l)
		return -1;
	if (!first_line(text, len, l, &it) || !kv(ih_skip(l->s), "driver") ||
	    !(arg = ifname_of(im, arg, origin, "ethtool -i")))
		goto out;
	json_init(&j, &out, 0);
	json_obj_open(&j, NULL);
	do {
		for (i = 0; i < ARRAY_SIZE(keys); i++) {
			const char *v = kv(ih_skip(l->s), keys[i].key);

			if (!v || l->cut)
				continue;
			json_str(&j, keys[i].json, v);
			if (!strcmp(keys[i].key, "bus-info"))
				snprintf(bus, sizeof(bus), "%s", v);
		}
	} while (ih_next(&it, l));
	json_obj_close(&j);
	rc = ethtool_put(im, arg, origin, "drvinfo", out.buf);
	/* "0000:17:00.0": the netdev's PCI function */
	if (!rc && strlen(bus) == 12 && bus[4] == ':' && bus[7] == ':' &&
	    bus[10] == '.' && strspn(bus, "0123456789abcdef:.") == 12) {
		snprintf(p, sizeof(p), "sys/class/net/%s/device", arg);
		snprintf(tgt, sizeof(tgt), "../../../bus/pci/devices/%s", bus);
		rc = imp_link(im, p, tgt, origin);
	}
out:
	buf_release(&out);
	free(l);
	return rc;
}

static int onoff(const char *v)
{
	return !strcmp(v, "on") ? 1 : !strcmp(v, "off") ? 0 : -1;
}

/* "Pause parameters for IF:", "Settings for IF:": the output names its
 * interface, whatever the command line around it was ("ethtool
 * --include-statistics -a IF", "./ethtool  IF"); indented in a commit
 * message.  The name into out, or 0 */
static int header_ifname(const char *line, const char *head, char *out,
			 size_t sz)
{
	const char *s = ih_skip(line);
	size_t n = strlen(head), k;

	if (strncmp(s, head, n))
		return 0;
	s += n;
	k = strlen(s);
	if (k < 2 || s[k - 1] != ':' || k - 1 >= sz)
		return 0;
	memcpy(out, s, k - 1);
	out[k - 1] = 0;
	return ifname_ok(out);
}

int ih_ethtool_pause(struct imp *im, const char *text, size_t len,
		     const char *origin, const char *arg)
{
	struct ih_lines it;
	struct ih_line *l = malloc(sizeof(*l));
	char ifn[16], val[128];
	int an = -1, rx = -1, tx = -1, rc = 1;
	const char *v;

	(void)arg;	/* the header names the interface */
	if (!l)
		return -1;
	/* "RX negotiated:" and --include-statistics' "Statistics:" block
	 * follow the settings, neither one of them */
	if (!first_line(text, len, l, &it) ||
	    !header_ifname(l->s, "Pause parameters for ", ifn, sizeof(ifn)))
		goto out;
	while (ih_next(&it, l)) {
		const char *s = ih_skip(l->s);

		if ((v = kv(s, "Autonegotiate")))
			an = onoff(v);
		else if ((v = kv(s, "RX")))
			rx = onoff(v);
		else if ((v = kv(s, "TX")))
			tx = onoff(v);
	}
	if (an < 0 || rx < 0 || tx < 0)
		goto out;
	snprintf(val, sizeof(val), "{ \"autoneg\": %d, \"rx_pause\": %d, "
		 "\"tx_pause\": %d }", an, rx, tx);
	rc = ethtool_put(im, ifn, origin, "pause", val);
out:
	free(l);
	return rc;
}

/* ethtool's PORT_* names (ethtool.c dump_link_usettings) */
static int port_code(const char *v)
{
	static const struct {
		const char *name;
		int code;
	} t[] = {
		{ "Twisted Pair", 0x00 }, { "AUI", 0x01 }, { "MII", 0x02 },
		{ "FIBRE", 0x03 }, { "BNC", 0x04 },
		{ "Direct Attach Copper", 0x05 }, { "None", 0xef },
		{ "Other", 0xff },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		if (!strcmp(v, t[i].name))
			return t[i].code;
	return -1;
}

int ih_ethtool_link(struct imp *im, const char *text, size_t len,
		    const char *origin, const char *arg)
{
	struct buf out = BUF_INIT;
	struct json j;
	struct ih_lines it;
	struct ih_line *l = malloc(sizeof(*l));
	char ifn[16], num[32];
	const char *v;
	long speed = -2, duplex = -1, link = -1;
	int rc = 1, x;
	uint64_t u;

	if (!l)
		return -1;
	/* the header names the interface */
	if (!first_line(text, len, l, &it) ||
	    !header_ifname(l->s, "Settings for ", ifn, sizeof(ifn)))
		goto out;
	arg = ifn;
	json_init(&j, &out, 0);
	json_obj_open(&j, NULL);
	while (ih_next(&it, l)) {
		const char *s = ih_skip(l->s);

		if ((v = kv(s, "Speed"))) {
			if (!strcmp(v, "Unknown!"))
				speed = -1;
			else if (strlen(v) > 4 && !strcmp(v + strlen(v) - 4, "Mb/s")) {
				snprintf(num, sizeof(num), "%.*s",
					 (int)(strlen(v) - 4), v);
				if (!ih_u64(num, 0xffffffffULL, &u))
					speed = (long)u;
			}
		} else if ((v = kv(s, "Duplex"))) {
			duplex = !strcmp(v, "Half") ? 0 : !strcmp(v, "Full") ? 1 :
				 starts_with(v, "Unknown!") ? 255 : -1;
		} else if ((v = kv(s, "Port")) && (x = port_code(v)) >= 0) {
			json_int(&j, "port", x);
		} else if ((v = kv(s, "Auto-negotiation")) && onoff(v) >= 0) {
			json_int(&j, "autoneg", onoff(v));
		} else if ((v = kv(s, "PHYAD")) && !ih_u64(v, 255, &u)) {
			json_int(&j, "phy_address", (int64_t)u);
		} else if ((v = kv(s, "Transceiver"))) {
			if (!strcmp(v, "internal") || !strcmp(v, "external"))
				json_int(&j, "transceiver",
					 !strcmp(v, "external"));
		} else if ((v = kv(s, "Link detected"))) {
			link = !strcmp(v, "yes") ? 1 : !strcmp(v, "no") ? 0 : -1;
		}
	}
	if (speed != -2)
		json_int(&j, "speed", speed);
	if (duplex >= 0)
		json_int(&j, "duplex", duplex);
	if (link >= 0)
		json_int(&j, "link_detected", link);
	json_obj_close(&j);
	rc = ethtool_put(im, arg, origin, "link", out.buf);
	/* the same values as sysfs shows them (both read ksettings) */
	if (!rc && speed >= 0) {
		snprintf(num, sizeof(num), "%ld", speed);
		rc = sysfs_net(im, arg, origin, "speed", num);
	}
	if (!rc && (duplex == 0 || duplex == 1))
		rc = sysfs_net(im, arg, origin, "duplex",
			       duplex ? "full" : "half");
	if (!rc && link >= 0)
		rc = sysfs_net(im, arg, origin, "carrier", link ? "1" : "0");
out:
	buf_release(&out);
	free(l);
	return rc;
}

/* "0:0 1:0 ... 7:0 " -> a JSON array of 8; *sp moves past it */
static int prio_list(const char **sp, struct buf *b, int onoff_form,
		     unsigned *mask)
{
	const char *s = *sp;
	int i;

	buf_addch(b, '[');
	for (i = 0; i < 8; i++) {
		char tok[48], *c;
		uint64_t v;

		s = ih_skip(s);
		if (sscanf(s, "%47s", tok) != 1)
			return -1;
		s += strlen(tok);
		c = strchr(tok, ':');
		if (!c || c - tok != 1 || tok[0] != '0' + i)
			return -1;
		if (onoff_form) {
			if (onoff(c + 1) < 0)
				return -1;
			if (onoff(c + 1))
				*mask |= 1u << i;
			continue;
		}
		if (ih_u64(c + 1, UINT64_MAX, &v) < 0)
			return -1;
		buf_addf(b, "%s%llu", i ? "," : "", (unsigned long long)v);
	}
	buf_addch(b, ']');
	*sp = s;
	return 0;
}

struct dcbpfc {
	unsigned cap, delay, en;
	int mbc, have_cap, have_delay, prio;
	struct buf req, ind, pfc;
};

/* one word of dcb_pfc.c's output and its value(s): 0, or -1 when the
 * word is not one of them (the rest of the line is not dcb's) */
static int dcb_word(struct dcbpfc *d, const char *key, const char **sp)
{
	char v[16];
	unsigned x;
	unsigned dummy = 0;
	const char *s = *sp;

	/* "pg-pfc": the same map as the first dcb pfc patch printed it
	 * (netdev, Dec 2020), before it was named prio-pfc */
	if (!strcmp(key, "prio-pfc") || !strcmp(key, "pg-pfc")) {
		buf_reset(&d->pfc);
		d->en = 0;
		d->prio = prio_list(sp, &d->pfc, 1, &d->en) == 0;
		return d->prio ? 0 : -1;
	}
	if (!strcmp(key, "requests") || !strcmp(key, "indications")) {
		struct buf *b = key[0] == 'r' ? &d->req : &d->ind;

		buf_reset(b);
		if (prio_list(sp, b, 0, &dummy) == 0)
			return 0;
		buf_reset(b);
		return -1;
	}
	if (sscanf(s, "%15s", v) != 1)
		return -1;
	*sp = s + strlen(v);
	if (!strcmp(key, "macsec-bypass"))
		return (d->mbc = onoff(v)) < 0 ? -1 : 0;
	if (sscanf(v, "%u", &x) != 1 || strspn(v, "0123456789") != strlen(v))
		return -1;
	if (!strcmp(key, "pfc-cap") && x <= 8) {
		d->cap = x;
		d->have_cap = 1;
	} else if (!strcmp(key, "delay") && x <= 65535) {
		d->delay = x;
		d->have_delay = 1;
	} else {
		return -1;
	}
	return 0;
}

/* "eth3_pfc-cap_prio-pfc" (the name of `dcb pfc show dev eth3 pfc-cap
 * prio-pfc`): the interface, cut before the first attribute named */
static const char *dcb_ifname(const char *arg, char *buf, size_t sz)
{
	static const char *const attrs[] = {
		"_pfc-cap", "_prio-pfc", "_macsec-bypass", "_delay",
		"_requests", "_indications",
	};
	size_t i, n = strlen(arg);
	const char *e;

	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		e = strstr(arg, attrs[i]);
		if (e && (size_t)(e - arg) < n &&
		    (!e[strlen(attrs[i])] || e[strlen(attrs[i])] == '_'))
			n = (size_t)(e - arg);
	}
	snprintf(buf, sz, "%.*s", (int)n, arg);
	return ifname_ok(buf) ? buf : NULL;
}

/* `dcb [-s] pfc show dev IF [ATTR...]`: "pfc-cap 8 macsec-bypass off delay
 * 32639 " then "prio-pfc 0:off ... 7:off " (and with -s "requests ...",
 * "indications ..."); named attributes print on one line, in the order
 * named ("pfc-cap 8 prio-pfc 0:off ... delay 0"); mail and pastes lose
 * the trailing blanks.  Read word by word: what is present is kept.
 * Without prio-pfc (`dcb -s pfc show dev IF indications`) the counters
 * are kept and no pfc_en is written: pause frames counted say nothing of
 * which priorities have PFC, and PFC_DISABLED must not read them as off.
 * Without the interface's name (a service's log) it is "unnamed" */
int ih_dcb_pfc(struct imp *im, const char *text, size_t len,
	       const char *origin, const char *arg)
{
	struct dcbpfc d;
	struct buf doc = BUF_INIT;
	struct ih_lines it;
	struct ih_line *l = malloc(sizeof(*l));
	char p[128], ifb[64];
	int rc = 1, req, ind;

	memset(&d, 0, sizeof(d));
	d.mbc = -1;
	if (!l)
		return -1;
	ih_lines_init(&it, text, len);
	while (ih_next(&it, l)) {
		const char *s = ih_skip(l->s);

		while (!l->cut && *s) {
			char key[16];
			size_t k = strcspn(s, " \t");

			if (k >= sizeof(key))
				break;
			memcpy(key, s, k);
			key[k] = 0;
			s = ih_skip(s + k);
			if (dcb_word(&d, key, &s) < 0)
				break;
			s = ih_skip(s);
		}
	}
	req = d.req.len > 2 && d.req.buf[d.req.len - 1] == ']';
	ind = d.ind.len > 2 && d.ind.buf[d.ind.len - 1] == ']';
	if (!d.prio && !req && !ind)
		goto out;
	if (arg)
		arg = dcb_ifname(arg, ifb, sizeof(ifb));
	else
		arg = ifname_of(im, NULL, origin, "dcb pfc show");
	if (!arg)
		goto out;
	buf_addf(&doc, "{ \"ifname\": \"%s\", \"status\": \"ok\", \"pfc\": { ",
		 arg);
	if (d.prio)
		buf_addf(&doc, "\"pfc_en\": %u, ", d.en);
	if (d.have_cap)
		buf_addf(&doc, "\"pfc_cap\": %u, ", d.cap);
	if (d.mbc >= 0)
		buf_addf(&doc, "\"mbc\": %d, ", d.mbc);
	if (d.have_delay)
		buf_addf(&doc, "\"delay\": %u, ", d.delay);
	if (req)
		buf_addf(&doc, "\"requests\": %s, ", d.req.buf);
	if (ind)
		buf_addf(&doc, "\"indications\": %s, ", d.ind.buf);
	buf_setlen(&doc, doc.len - 2);	/* the last ", " */
	buf_addstr(&doc, " }, \"errors\": {} }\n");
	snprintf(p, sizeof(p), "rdma-collect/dcb/%s.json", arg);
	rc = imp_put(im, p, doc.buf, doc.len, origin, IMP_DERIVED);
	if (!rc)
		imp_source(im, SOURCE_NETDEV,
			   "partial", "from pasted tool outputs");
out:
	buf_release(&d.req);
	buf_release(&d.ind);
	buf_release(&d.pfc);
	buf_release(&doc);
	free(l);
	return rc;
}

/* --- mlnx_qos --- */

/* "enabled     0   0   0   1   0   0   0   0   " (mlnx_qos pretty_print:
 * the row under "priority    0   1 ...", one 0/1 per priority; "buffer"
 * rows give the receive buffer of each) -> the bits, or -1 */
static int prio_row(const char *s, const char *key, int *vals)
{
	size_t n = strlen(key);
	int i;

	s = ih_skip(s);
	if (strncmp(s, key, n) || (s[n] != ' ' && s[n] != '\t' && s[n] != ':'))
		return -1;
	s += n + (s[n] == ':');
	for (i = 0; i < 8; i++) {
		s = ih_skip(s);
		if (!isdigit((unsigned char)*s) || isdigit((unsigned char)s[1]))
			return -1;
		vals[i] = *s++ - '0';
	}
	return *ih_skip(s) ? -1 : 0;
}

/* the interface of "mlnx_qos -i IF [--trust dscp ...]": the name's
 * first word */
static const char *qos_ifname(struct imp *im, const char *arg,
			      const char *origin, char *buf, size_t sz)
{
	const char *e;

	if (!arg)
		return ifname_of(im, NULL, origin, "mlnx_qos");
	e = strstr(arg, "_-");
	snprintf(buf, sz, "%.*s", (int)(e ? (size_t)(e - arg) : strlen(arg)),
		 arg);
	return ifname_ok(buf) ? buf : NULL;
}

int ih_mlnx_qos(struct imp *im, const char *text, size_t len,
		const char *origin, const char *arg)
{
	struct ih_lines it;
	struct ih_line *l = malloc(sizeof(*l));
	char trust[8] = "", ifb[64], p[128], val[256];
	const char *ifn, *v;
	int rc = 1, in_pfc = 0, prio = 0, buf[8], have_en = 0,
	    have_buf = 0, dcbx = -1, i;
	unsigned mask = 0;
	long cable = -1;
	uint64_t u;

	if (!l)
		return -1;
	ih_lines_init(&it, text, len);
	while (ih_next(&it, l)) {
		const char *s = ih_skip(l->s);
		int row[8];

		/* a blank line (a web page's paragraphs) ends nothing */
		if (l->cut || !*s)
			continue;
		if ((v = kv(s, "DCBX mode"))) {
			dcbx = !strcmp(v, "OS controlled") ? 1 :
			       !strcmp(v, "Firmware controlled") ? 0 : -1;
		} else if ((v = kv(s, "Priority trust state"))) {
			if (!strcmp(v, "dscp") || !strcmp(v, "pcp"))
				snprintf(trust, sizeof(trust), "%s", v);
		} else if ((v = kv(s, "Cable len"))) {
			if (!ih_u64(v, 65535, &u))
				cable = (long)u;
		} else if (!strcmp(s, "PFC configuration:")) {
			in_pfc = 1;
			prio = 0;
		} else if (in_pfc && !prio) {
			/* "priority    0   1   2   3   4   5   6   7" */
			prio = prio_row(s, "priority", row) == 0;
			for (i = 0; prio && i < 8; i++)
				prio = row[i] == i;
			in_pfc = prio;
		} else if (in_pfc && !prio_row(s, "enabled", row)) {
			for (i = 0, mask = 0; i < 8 && row[i] <= 1; i++)
				mask |= (unsigned)row[i] << i;
			have_en = i == 8;
		} else if (in_pfc && have_en && !prio_row(s, "buffer", row)) {
			memcpy(buf, row, sizeof(buf));
			have_buf = 1;
			in_pfc = 0;
		} else {
			in_pfc = 0;
		}
	}
	if (!have_en || !(ifn = qos_ifname(im, arg, origin, ifb, sizeof(ifb))))
		goto out;
	snprintf(p, sizeof(p), "rdma-collect/dcb/%s.json", ifn);
	snprintf(val, sizeof(val), "{ \"pfc_en\": %u", mask);
	if (cable >= 0)	/* dcbnl's ieee_pfc delay, as dcb pfc prints it */
		snprintf(val + strlen(val), sizeof(val) - strlen(val),
			 ", \"delay\": %ld", cable);
	strcat(val, " }");
	rc = ih_json_set(im, p, origin, ifn, "pfc", val);
	if (!rc && trust[0]) {
		snprintf(val, sizeof(val), "\"%s\"", trust);
		rc = ih_json_set(im, p, origin, ifn, "trust", val);
	}
	if (!rc && dcbx >= 0)
		rc = ih_json_set(im, p, origin, ifn, "dcbx_mode",
				 dcbx ? "\"os\"" : "\"firmware\"");
	if (!rc && have_buf) {
		snprintf(val, sizeof(val), "{ \"prio2buffer\": [%d,%d,%d,%d,%d,"
			 "%d,%d,%d] }", buf[0], buf[1], buf[2], buf[3], buf[4],
			 buf[5], buf[6], buf[7]);
		rc = ih_json_set(im, p, origin, ifn, "buffer", val);
	}
	if (!rc)
		imp_source(im, SOURCE_NETDEV,
			   "partial", "from pasted tool outputs");
out:
	free(l);
	return rc;
}

/* --- ip --- */

struct ipif {
	char name[16];
	long index, mtu;
	char state[24], mac[64];
	int type;		/* ARPHRD_*, -1 unknown */
};

#define MAX_IFS 4096

static const char *scope_ok(const char *s)
{
	static const char *const t[] = { "global", "site", "link", "host",
					 "nowhere" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		if (!strcmp(s, t[i]))
			return t[i];
	return strspn(s, "0123456789") == strlen(s) && strlen(s) <= 3 ? s : NULL;
}

/* an address token "10.0.0.1/24" or "fe80::1/64" */
static int addr_ok(const char *a, int v6)
{
	size_t n = strlen(a);

	return n && n < 64 &&
	       strspn(a, v6 ? "0123456789abcdefABCDEF:." : "0123456789.") == n;
}

static void addr_json(struct json *j, const struct ipif *f, const char *fam,
		      const char *addr, long plen, const char *scope,
		      const char *label, const char *peer)
{
	json_obj_open(j, NULL);
	json_str(j, "ifname", f->name);
	if (f->index >= 0)
		json_int(j, "ifindex", f->index);
	json_str(j, "family", fam);
	json_str(j, "address", addr);
	json_int(j, "prefixlen", plen);
	json_str(j, "scope", scope ? scope : "global");
	if (label && strcmp(label, f->name))
		json_str(j, "label", label);
	if (peer)
		json_str(j, "peer", peer);
	json_obj_close(j);
}

/* "    inet 10.0.0.1/24 brd 10.0.0.255 scope global eth0" (also after
 * "N: eth0    " in ip -o's form); 0, or -1 if not an address line */
static int inet_line(const char *s, const struct ipif *f, struct json *j)
{
	char tok[16][64], addr[64], peer[64] = "";
	const char *scope = NULL, *label = NULL;
	int n = 0, v6, i;
	long plen = -1;
	char *sl;

	while (*s && n < 16) {
		size_t k;

		s = ih_skip(s);
		k = strcspn(s, " \t");
		if (!k)
			break;
		if (k >= sizeof(tok[0]))
			return -1;
		memcpy(tok[n], s, k);
		tok[n++][k] = 0;
		s += k;
		if (!strcmp(tok[n - 1], "\\"))	/* ip -o's line join */
			break;
	}
	if (n < 2 || (strcmp(tok[0], "inet") && strcmp(tok[0], "inet6")))
		return -1;
	v6 = !strcmp(tok[0], "inet6");
	snprintf(addr, sizeof(addr), "%s", tok[1]);
	for (i = 2; i + 1 < n; i++) {
		if (!strcmp(tok[i], "peer"))
			snprintf(peer, sizeof(peer), "%s", tok[i + 1]);
		else if (!strcmp(tok[i], "scope"))
			scope = scope_ok(tok[i + 1]);
	}
	if (!v6 && n > 2 && scope && strcmp(tok[n - 1], "\\") &&
	    !strchr(tok[n - 1], '/'))
		label = tok[n - 1];	/* IFA_LABEL ends an IPv4 line */
	if (!v6 && n > 3 && !strcmp(tok[n - 1], "\\"))
		label = tok[n - 2];
	if (label && !strncmp(label, "valid_lft", 9))
		label = NULL;
	/* the prefix is on the peer when there is one */
	sl = strchr(peer[0] ? peer : addr, '/');
	if (sl) {
		plen = atol(sl + 1);
		*sl = 0;
	}
	if (!addr_ok(addr, v6) || (peer[0] && !addr_ok(peer, v6)) || plen < 0 ||
	    plen > (v6 ? 128 : 32) || !scope)
		return -1;
	addr_json(j, f, v6 ? "inet6" : "inet", addr, plen, scope, label,
		  peer[0] ? peer : NULL);
	return 0;
}

/* "2: ens1f0np0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9000 qdisc mq
 * state UP ..." (ip -o addr: "2: ens1f0np0    inet ...") */
static const char *if_header(const char *s, struct ipif *f, int *full)
{
	const char *p = s, *e;
	size_t n;
	long idx;

	*full = 0;
	if (!isdigit((unsigned char)*p))
		return NULL;
	idx = atol(p);
	p += strspn(p, "0123456789");
	if (*p++ != ':' || *p++ != ' ' || idx < 0 || idx > 0x7fffffff)
		return NULL;
	n = strcspn(p, ":@ \t");
	if (!n || n >= sizeof(f->name))
		return NULL;
	memset(f, 0, sizeof(*f));
	f->index = idx;
	f->mtu = -1;
	f->type = -1;
	memcpy(f->name, p, n);
	f->name[n] = 0;
	e = p + n;
	if (*e == '@')
		e += strcspn(e, ":");
	*full = e[0] == ':' && e[1] == ' ' && e[2] == '<';
	if (!*full)
		return ih_skip(e);
	if ((p = strstr(e, " mtu ")))
		f->mtu = atol(p + 5);
	if ((p = strstr(e, " state ")))
		sscanf(p + 7, "%23s", f->state);
	return NULL;
}

/* "    link/ether aa:bb:cc:dd:ee:ff brd ff:ff:ff:ff:ff:ff" */
static void link_line(const char *s, struct ipif *f)
{
	static const struct {
		const char *name;
		int type;
	} t[] = {
		{ "link/ether ", 1 }, { "link/infiniband ", 32 },
		{ "link/loopback ", 772 }, { "link/none", 65534 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		if (starts_with(s, t[i].name)) {
			f->type = t[i].type;
			if (t[i].type != 65534)
				sscanf(s + strlen(t[i].name), "%63s", f->mac);
			if (strspn(f->mac, "0123456789abcdef:") != strlen(f->mac))
				f->mac[0] = 0;
		}
}

static int if_attrs(struct imp *im, const struct ipif *f, const char *origin)
{
	char v[64];
	size_t i;
	int rc = 0;

	/* the loopback is not a netdev the collector reads */
	if (f->type == 772 || !ifname_ok(f->name))
		return 0;
	snprintf(v, sizeof(v), "%ld", f->index);
	rc = sysfs_net(im, f->name, origin, "ifindex", v);
	if (!rc && f->mtu > 0 && f->mtu < 1 << 20) {
		snprintf(v, sizeof(v), "%ld", f->mtu);
		rc = sysfs_net(im, f->name, origin, "mtu", v);
	}
	if (!rc && f->state[0]) {
		/* the kernel's operstate strings are ip's in lower case */
		for (i = 0; f->state[i] && i + 1 < sizeof(v); i++)
			v[i] = (char)tolower((unsigned char)f->state[i]);
		v[i] = 0;
		rc = sysfs_net(im, f->name, origin, "operstate", v);
	}
	if (!rc && f->mac[0])
		rc = sysfs_net(im, f->name, origin, "address", f->mac);
	if (!rc && f->type > 0) {
		snprintf(v, sizeof(v), "%d", f->type);
		rc = sysfs_net(im, f->name, origin, "type", v);
	}
	return rc;
}

/* ip -j addr / ip -j link */
static int ip_json(struct imp *im, const char *text, size_t len,
		   const char *origin)
{
	struct jv *a = jparse(text, len, NULL, 0);
	struct buf out = BUF_INIT;
	struct json j;
	size_t i, k;
	int rc = 1, addrs = 0;

	if (!a || a->t != J_ARR || !a->n || !jstr(jat(a, 0), "ifname"))
		goto out;
	json_init(&j, &out, 0);
	json_arr_open(&j, NULL);
	rc = 0;
	for (i = 0; i < jlen(a) && !rc; i++) {
		const struct jv *e = jat(a, i), *ai = jget(e, "addr_info");
		struct ipif f;
		const char *lt = jstr(e, "link_type");

		memset(&f, 0, sizeof(f));
		if (!jstr(e, "ifname") || !ifname_ok(jstr(e, "ifname")))
			continue;
		snprintf(f.name, sizeof(f.name), "%s", jstr(e, "ifname"));
		f.index = jint(e, "ifindex", -1);
		f.mtu = jint(e, "mtu", -1);
		snprintf(f.state, sizeof(f.state), "%s",
			 jstr(e, "operstate") ? jstr(e, "operstate") : "");
		if (jstr(e, "address") && strlen(jstr(e, "address")) < sizeof(f.mac) &&
		    strspn(jstr(e, "address"), "0123456789abcdef:") ==
		    strlen(jstr(e, "address")))
			snprintf(f.mac, sizeof(f.mac), "%s", jstr(e, "address"));
		f.type = !lt ? -1 : !strcmp(lt, "ether") ? 1 :
			 !strcmp(lt, "infiniband") ? 32 :
			 !strcmp(lt, "loopback") ? 772 : -1;
		rc = if_attrs(im, &f, origin);
		for (k = 0; k < jlen(ai); k++) {
			const struct jv *x = jat(ai, k);
			const char *fam = jstr(x, "family"), *loc = jstr(x, "local");
			int64_t pl = jint(x, "prefixlen", -1);
			int v6;

			if (!fam || !loc || (strcmp(fam, "inet") && strcmp(fam, "inet6")))
				continue;
			v6 = !strcmp(fam, "inet6");
			if (!addr_ok(loc, v6) || pl < 0 || pl > (v6 ? 128 : 32) ||
			    !jstr(x, "scope") || !scope_ok(jstr(x, "scope")))
				continue;
			addr_json(&j, &f, fam, loc, (long)pl,
				  scope_ok(jstr(x, "scope")), jstr(x, "label"),
				  jstr(x, "address") && addr_ok(jstr(x, "address"), v6) ?
				  jstr(x, "address") : NULL);
			addrs++;
		}
	}
	json_arr_close(&j);
	json_end(&j);
	if (!rc && addrs)
		rc = imp_put(im, "rdma-collect/net/addresses.json", out.buf,
			     out.len, origin, IMP_DERIVED);
out:
	buf_release(&out);
	jfree(a);
	return rc;
}

int ih_ip(struct imp *im, const char *text, size_t len, const char *origin,
	  const char *arg)
{
	struct buf out = BUF_INIT;
	struct json j;
	struct ih_lines it;
	struct ih_line *l;
	struct ipif *cur = NULL, f;
	int rc = 1, n = 0, addrs = 0, bad = 0;

	/* ip_route, ip_neigh...: only the address and link listings */
	if (arg && !starts_with(arg, "a") && !starts_with(arg, "l") &&
	    !starts_with(arg, "-"))
		return 1;
	if (len && (text[0] == '[' || text[0] == '{'))
		return ip_json(im, text, len, origin);
	l = malloc(sizeof(*l));
	cur = malloc(sizeof(*cur));
	if (!l || !cur) {
		rc = -1;
		goto out;
	}
	json_init(&j, &out, 0);
	json_arr_open(&j, NULL);
	ih_lines_init(&it, text, len);
	while (ih_next(&it, l)) {
		const char *s, *rest;
		int full;

		if (!l->len)
			continue;
		if (l->s[0] != ' ') {
			rest = if_header(l->s, &f, &full);
			if (!rest && !full) {
				if (!n)
					goto out;	/* not ip's */
				bad++;
				continue;
			}
			if (full || !n || strcmp(f.name, cur->name)) {
				if (n && (rc = if_attrs(im, cur, origin)) < 0)
					goto out;
				*cur = f;
				n++;
			}
			if (full && (s = strstr(l->s, "\\    link/")))
				link_line(s + 5, cur);	/* ip -o link */
			if (rest && !inet_line(rest, cur, &j))
				addrs++;
			continue;
		}
		s = ih_skip(l->s);
		if (!n || l->cut)
			continue;
		if (starts_with(s, "link/"))
			link_line(s, cur);
		else if (!inet_line(s, cur, &j))
			addrs++;
	}
	if (!n)
		goto out;
	rc = if_attrs(im, cur, origin);
	json_arr_close(&j);
	json_end(&j);
	if (!rc && addrs)
		rc = imp_put(im, "rdma-collect/net/addresses.json", out.buf,
			     out.len, origin, IMP_DERIVED);
	if (!rc && bad)
		imp_note(im, "%s: %d lines that are not ip's left out", origin,
			 bad);
	if (!rc)
		imp_source(im, SOURCE_NETDEV,
			   "partial", "from pasted tool outputs");
out:
	buf_release(&out);
	free(cur);
	free(l);
	return rc;
}
