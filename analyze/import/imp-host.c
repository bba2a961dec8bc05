/* imp-host: the host's tool outputs turned into the bundle entries
 * rdma-collect would have written (schema/BUNDLE.md): lspci, lsmod, dmesg
 * (imp-host.c, imp-host-pci.c), ethtool, dcb, ip (imp-host-net.c), ulimit,
 * pasted /proc and /etc files, mlxlink, NCCL logs and perftest outputs.
 *
 * Names (normalized by imp_normalize: the last path part, ".txt", ".out"
 * and ".log" dropped, runs of spaces and underscores one '_'):
 *   pasted (outputs folder)      sos 4.x (sos_commands/<plugin>/)   sysinfo-snapshot
 *   lspci[_-OPTS]                pci/lspci_-nnvv (lspci_-tv: no)     lspci_-vvvxxx ...
 *   lsmod, proc_modules          kernel/lsmod                         lsmod
 *   dmesg[_-OPTS]                kernel/dmesg                         dmesg ...
 *   journalctl_-k[...]           (logs plugin: journalctl_..._-k)
 *   ethtool_-S_IF                networking/ethtool_-S_IF             ethtool_-S_IF
 *   ethtool_-i_IF                networking/ethtool_-i_IF             ethtool_-i_IF
 *   ethtool_-a_IF                networking/ethtool_-a_IF
 *   ethtool_IF                   networking/ethtool_IF                ethtool_IF
 *   dcb_pfc_show_dev_IF, dcb_-s_pfc_show_dev_IF
 *   ip_addr, ip_a, ip_-j_addr    networking/ip_-o_addr, ip_-d_address
 *   ip_link, ip_-s_-d_link       networking/ip_-s_-d_link
 *   ulimit_-l, ulimit_-a, ulimit_-Hl
 *   meminfo, proc_meminfo        (sos copies proc/meminfo: raw)
 *   cmdline, proc_cmdline        (sos copies proc/cmdline: raw)
 *   limits.conf                  (sos copies etc/security/: raw)
 *   nccl.conf                    (NAME=value lines: etc/nccl.conf, raw)
 *   mlxlink_-d_DEV[_-m_-e_-c]                                         mlxlink ...
 *   mst_status[_-v]                                                   mst_status_-v
 *   nccl*, *nccl, ib_*, raw_ethernet_*, perftest*, *perftest, *_bw,
 *   *_lat, *_perf, *_perf_*: an NCCL log or a perftest output, told by
 *   content (rdma-collect/attach/<name>).  Import tells a folder of
 *   outputs by its names alone, so a log named otherwise ("rank3.log")
 *   is not read: rename it nccl-rank3.log.
 * Options are normalized too: "lspci -vvv" is lspci_-vvv.  The '*' of an
 * ethtool/dcb name is the interface; mlxlink's is the device up to the
 * next "_-" (its options): an RDMA device, /dev/mst/<name> or a PCI
 * address, which load-phy names by sys/class/infiniband and mst status.
 *
 * The kernel log's forms (dmesg, kmsg/pstore, journalctl, syslog, a
 * remote syslog, mail-wrapped lines) are listed in schema/IMPORT.md.
 *
 * Every parser refuses (returns 1) text that is not its tool's output
 * before adding anything: the header or the first record must be the
 * tool's.  Numbers are bounded; a last line without its newline (a cut
 * paste) is not trusted for numbers and is left out with a note.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "imp.h"
#include "json.h"
#include "jsonp.h"
#include "klog.h"
#include "log.h"
#include "mlxlink.h"
#include "modules.h"
#include "nccl.h"
#include "perftest.h"
#include "util.h"

/* --- shared helpers --- */

void ih_lines_init(struct ih_lines *it, const char *text, size_t len)
{
	it->p = text;
	it->end = text ? text + len : text;
}

int ih_next(struct ih_lines *it, struct ih_line *l)
{
	const char *e;
	size_t n;

	if (!it->p || it->p >= it->end)
		return 0;
	e = memchr(it->p, '\n', (size_t)(it->end - it->p));
	l->unterminated = !e;
	if (!e)
		e = it->end;
	n = (size_t)(e - it->p);
	if (n && it->p[n - 1] == '\r')
		n--;
	l->cut = n >= sizeof(l->s);
	if (l->cut)
		n = sizeof(l->s) - 1;
	memcpy(l->s, it->p, n);
	l->s[n] = 0;
	/* a NUL inside a line ends it: text tools print none */
	l->len = strlen(l->s);
	it->p = e < it->end ? e + 1 : e;
	return 1;
}

const char *ih_skip(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

int ih_u64(const char *s, uint64_t max, uint64_t *out)
{
	unsigned long long v;

	if (!*s || strspn(s, "0123456789") != strlen(s) ||
	    parse_ull(s, 10, max, &v) < 0)
		return -1;
	*out = v;
	return 0;
}

int ih_has(const char *text, size_t len, const char *needle)
{
	return memmem(text, len, needle, strlen(needle)) != NULL;
}

int ih_json_set(struct imp *im, const char *path, const char *origin,
		const char *ifname, const char *key, const char *value)
{
	struct buf b = BUF_INIT;
	struct json j;
	struct jv *old = NULL, *val;
	const char *d;
	size_t len, i;
	int rc = -1, done = 0;

	val = jparse(value, strlen(value), NULL, 0);
	if (!val)
		return -1;	/* our own text: a bug, not input */
	d = imp_get(im, path, &len);
	if (d)
		old = jparse(d, len, NULL, 0);
	if (old && old->t != J_OBJ) {
		jfree(old);
		old = NULL;
	}
	json_init(&j, &b, 0);
	json_obj_open(&j, NULL);
	if (!old && ifname) {
		json_str(&j, "ifname", ifname);
		json_str(&j, "status", "ok");
	}
	for (i = 0; old && i < old->n; i++) {
		if (!strcmp(old->k[i], key)) {
			json_jv(&j, key, val);
			done = 1;
		} else {
			json_jv(&j, old->k[i], &old->v[i]);
		}
	}
	if (!done)
		json_jv(&j, key, val);
	json_obj_close(&j);
	json_end(&j);
	if (!b.truncated)
		rc = imp_put(im, path, b.buf, b.len, origin, IMP_DERIVED);
	buf_release(&b);
	jfree(old);
	jfree(val);
	return rc;
}

/* --- lsmod --- */

/* /proc/modules pasted as it is: "name size refcnt deps state 0x..." */
static int proc_modules(struct imp *im, const char *text, size_t len,
			const char *origin)
{
	struct ih_lines it;
	struct ih_line *l = malloc(sizeof(*l));
	int n = 0, bad = 0, rc;

	if (!l)
		return -1;
	ih_lines_init(&it, text, len);
	while (ih_next(&it, l))
		if (l->len && !proc_module_line(l->s))
			bad++;
		else if (l->len)
			n++;
	free(l);
	if (!n || bad)
		return 1;
	rc = imp_put(im, "proc/modules", text, len, origin, IMP_RAW);
	if (!rc)
		imp_source(im, SOURCE_MODULES, "ok", "");
	return rc;
}

/* kmod's lsmod: "Module                  Size  Used by", then
 * "%-19s %8lu  %d" and " user,user" (kmod tools/lsmod.c) */
int ih_lsmod(struct imp *im, const char *text, size_t len,
		 const char *origin, const char *arg)
{
	struct buf out = BUF_INIT;
	struct ih_lines it;
	struct ih_line *l;
	int head = 0, headless = 0, n = 0, skipped = 0, rc = 1;

	(void)arg;
	rc = proc_modules(im, text, len, origin);
	if (rc != 1)
		return rc;
	l = malloc(sizeof(*l));
	if (!l)
		return -1;
	buf_init(&out, 1 << 20);
	ih_lines_init(&it, text, len);
	while (ih_next(&it, l)) {
		char name[64], size[24], ref[24], users[2048], extra[8];
		uint64_t sz, rf;
		int k;

		if (!head && !headless) {
			char a[16], b[16], c[16], d[16];

			if (!l->len)
				continue;
			/* `lsmod | grep mlx` has no header: the lines alone,
			 * and only the modules the filter kept */
			if (sscanf(l->s, "%15s %15s %15s %15s", a, b, c, d) != 4 ||
			    strcmp(a, "Module") || strcmp(b, "Size") ||
			    strcmp(c, "Used") || strcmp(d, "by")) {
				headless = 1;
			} else {
				head = 1;
				continue;
			}
		}
		if (!l->len)
			continue;
		users[0] = 0;
		k = sscanf(l->s, "%63s %23s %23s %2047s %7s", name, size, ref,
			   users, extra);
		if (l->unterminated || l->cut || k < 3 || k > 4 ||
		    !module_name_ok(name) || ih_u64(size, 1ULL << 40, &sz) < 0 ||
		    (strcmp(ref, "-") && ih_u64(ref, 1U << 30, &rf) < 0)) {
			skipped++;
			continue;
		}
		/* /proc/modules: "name size refcnt deps, state offset",
		 * deps each followed by ',' or "-" for none */
		buf_addf(&out, "%s %llu %s ", name, (unsigned long long)sz, ref);
		if (users[0]) {
			char *p, *save = NULL;

			for (p = strtok_r(users, ",", &save); p;
			     p = strtok_r(NULL, ",", &save))
				buf_addf(&out, "%s,", p);
		} else {
			buf_addch(&out, '-');
		}
		buf_addstr(&out, " Live 0x0000000000000000\n");
		n++;
	}
	/* without its header, most lines must be lsmod's */
	if ((!head && !headless) || !n || (headless && skipped > n)) {
		rc = 1;
		goto out;
	}
	if (out.truncated) {
		rc = -1;
		goto out;
	}
	if (skipped)
		imp_dropped(im, "%s: %d lines not lsmod's left out", origin,
			    skipped);
	rc = imp_put(im, "proc/modules", out.buf, out.len, origin,
		     IMP_DERIVED);
	/* a list without its header is a filtered one (lsmod | grep): a
	 * module not in it may well be loaded */
	if (!rc)
		imp_source(im, SOURCE_MODULES,
			   skipped || headless ? "partial" : "ok",
			   headless ? "a filtered lsmod (no header line): only "
			   "the modules it lists are known" : skipped ? "lines "
			   "of the lsmod output left out" : "");
out:
	buf_release(&out);
	free(l);
	return rc;
}

/* --- dmesg --- */

static int word_index(const char *w, size_t n, const char *const *v,
		      size_t nv)
{
	size_t i;

	for (i = 0; i < nv; i++)
		if (strlen(v[i]) == n && !strncmp(w, v[i], n))
			return (int)i;
	return -1;
}

/* dmesg -x: "kern  :info  : " (util-linux "%-6s:%-6s: ") */
static const char *decode_prefix(const char *s, int *prio)
{
	static const char *const fac[] = {
		"kern", "user", "mail", "daemon", "auth", "syslog", "lpr",
		"news", "uucp", "cron", "authpriv", "ftp", "res0", "res1",
		"res2", "res3", "local0", "local1", "local2", "local3",
		"local4", "local5", "local6", "local7",
	};
	static const char *const lvl[] = {
		"emerg", "alert", "crit", "err", "warn", "notice", "info",
		"debug",
	};
	size_t a = strcspn(s, " :"), b;
	const char *p = s + a;
	int f, v;

	f = word_index(s, a, fac, ARRAY_SIZE(fac));
	while (*p == ' ')
		p++;
	if (f < 0 || *p++ != ':')
		return NULL;
	b = strcspn(p, " :");
	v = word_index(p, b, lvl, ARRAY_SIZE(lvl));
	p += b;
	while (*p == ' ')
		p++;
	if (v < 0 || *p++ != ':')
		return NULL;
	*prio = f << 3 | v;
	return *p == ' ' ? p + 1 : p;
}

/* "[ 1234.567890]" -> microseconds; the rest after it (and one blank) */
static const char *monotonic(const char *s, int64_t *us)
{
	const char *p = s + 1, *f;
	uint64_t sec = 0, frac = 0;
	int digits = 0;

	if (*s != '[')
		return NULL;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return NULL;
	while (isdigit((unsigned char)*p)) {
		if (sec > 999999999999ULL)
			return NULL;
		sec = sec * 10 + (uint64_t)(*p++ - '0');
	}
	if (*p++ != '.')
		return NULL;
	f = p;
	while (isdigit((unsigned char)*p) && p - f < 9)
		frac = frac * 10 + (uint64_t)(*p++ - '0');
	digits = (int)(p - f);
	if (!digits || *p != ']')
		return NULL;
	for (; digits < 6; digits++)
		frac *= 10;
	for (; digits > 6; digits--)
		frac /= 10;
	*us = (int64_t)(sec * 1000000 + frac);
	p++;
	return *p == ' ' ? p + 1 : p;
}

/* "[Sat Nov 29 21:04:05 2025] " (dmesg -T): a wall-clock time dmesg
 * computed from the boot time, not kept (the boot time is not known) */
static const char *ctime_stamp(const char *s)
{
	const char *e;

	if (*s != '[' || !isalpha((unsigned char)s[1]))
		return NULL;
	e = strchr(s, ']');
	if (!e || e - s != 25 || e[-5] != ' ' || e[-8] != ':' || e[-11] != ':')
		return NULL;
	return e[1] == ' ' ? e + 2 : e + 1;
}

/* "2025-11-29T21:04:05,123456+00:00 " (dmesg --time-format iso; a
 * remote syslog's receive time, then a tab) */
static const char *iso_stamp(const char *s)
{
	size_t n = strcspn(s, " \t");

	if (n < 19 || n > 40 || !isdigit((unsigned char)s[0]) || s[4] != '-' ||
	    s[7] != '-' || s[10] != 'T' || s[13] != ':' || !s[n])
		return NULL;
	return s + n + 1;
}

/* "Nov 29 21:04:05 host " (journalctl -k, syslog's kern.log, a remote
 * syslog) and what follows the host: *tag 1 after "kernel: " (the host
 * kept for the manifest), 2 before a bare "[" (a remote syslog names the
 * sender, often by address, and no tag), 0 another program's "tag: " */
static const char *syslog_prefix(const char *s, char *host, size_t hn,
				 int *tag)
{
	static const char *const mon[] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
		"Oct", "Nov", "Dec",
	};
	const char *p, *k;
	size_t n;

	if (word_index(s, 3, mon, ARRAY_SIZE(mon)) < 0 || s[3] != ' ')
		return NULL;
	p = s + 4;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return NULL;
	p += strspn(p, "0123456789");
	if (*p++ != ' ' || strlen(p) < 9 || p[2] != ':' || p[5] != ':')
		return NULL;
	p += 8;
	if (*p++ != ' ')
		return NULL;
	n = strcspn(p, " ");
	if (!n || !p[n])
		return NULL;
	k = p + n + 1;
	if (!strncmp(k, "kernel: ", 8)) {
		if (n < hn) {
			memcpy(host, p, n);
			host[n] = 0;
		}
		*tag = 1;
		return k + 8;
	}
	if (*k == '[') {
		*tag = 2;
		return k;
	}
	n = strcspn(k, " :");
	if (!n || k[n] != ':')
		return NULL;
	*tag = 0;
	return k + n + 1;
}

/* "dmesg-erst-7134256182317219841:" (grep over /sys/fs/pstore), with or
 * without its directory: the file name before a pstore record */
static const char *pstore_name(const char *s)
{
	size_t n = strcspn(s, ": \t");
	const char *b = s, *q;

	if (s[n] != ':' || n > 200)
		return s;
	for (q = s; q < s + n; q++)
		if (*q == '/')
			b = q + 1;
	if ((starts_with(b, "dmesg-") || starts_with(b, "console-")) &&
	    isdigit((unsigned char)s[n - 1]))
		return s + n + 1;
	return s;
}

/* pstore's "Panic#1 Part2", "Oops#3 Part1" above a dump's records */
static int pstore_header(const char *s)
{
	char why[16], end;
	unsigned a, b;

	return sscanf(s, "%15[A-Za-z]#%u Part%u%c", why, &a, &b, &end) == 3;
}

/* the text of a kernel log record in any of the forms; NULL if the line
 * is none.  *other: it is another program's syslog record. */
static const char *klog_prefix(const char *s, int *prio, int64_t *us,
			       char *host, size_t hn, int *other)
{
	const char *t, *r;
	char dev[16];
	int iso = 0, tag;

	*prio = 4;	/* MESSAGE_LOGLEVEL_DEFAULT: no level shown */
	*us = -1;
	*other = 0;
	s = pstore_name(s);
	if (*s == '<' && isdigit((unsigned char)s[1])) {	/* dmesg -r */
		char *e;
		long v = strtol(s + 1, &e, 10);

		if (*e != '>' || v < 0 || v > 1023)
			return NULL;
		*prio = (int)v;
		s = e + 1;
	} else if ((t = decode_prefix(s, prio))) {
		s = t;
	}
	if ((t = iso_stamp(s))) {
		s = t;
		iso = 1;
	}
	if ((t = monotonic(s, us))) {
		s = t;
		/* journalctl -o short-monotonic: "[ts] host kernel: text" */
		r = strstr(s, " kernel: ");
		if (r && (size_t)(r - s) < hn && !memchr(s, ' ', (size_t)(r - s))) {
			memcpy(host, s, (size_t)(r - s));
			host[r - s] = 0;
			s = r + 9;
		}
		return s;
	}
	if ((t = ctime_stamp(s)))
		return t;
	if ((t = syslog_prefix(s, host, hn, &tag))) {
		if (!tag) {
			*other = 1;
			return NULL;
		}
		if ((r = monotonic(t, us)))	/* rsyslog's kern.log */
			return r;
		return tag == 2 ? NULL : t;
	}
	if (iso)
		return s;
	/* dmesg -t, or a line quoted without its stamp: a driver's line
	 * naming its PCI function ("mlx5_core 0000:81:00.0: ...") */
	t = ih_skip(s);
	return klog_text_device(t, dev, sizeof(dev)) == 0 ? t : NULL;
}

int ih_is_klog_record(const char *s)
{
	char host[8];
	int prio, other;
	int64_t us;

	return klog_prefix(s, &prio, &us, host, sizeof(host), &other) != NULL;
}

/* "$ cmd", "# cmd", "host ~ # cmd", "[u@h ~]# cmd", "u@h:~$ cmd": a shell
 * prompt left in a saved log ("# modprobe mlx5_core" between records) */
static int prompt_line(const char *s)
{
	size_t i, words = 0;

	s = ih_skip(s);
	for (i = 0; s[i] && i < 128 && words < 3; i++) {
		if ((s[i] == '#' || s[i] == '$') && s[i + 1] == ' ' &&
		    (islower((unsigned char)s[i + 2]) || s[i + 2] == '/' ||
		     s[i + 2] == '.') &&
		    (!i || memchr(s, '@', i) || memchr(s, '~', i) ||
		     s[i - 1] == ']'))
			return 1;
		words += s[i] == ' ';
	}
	return 0;
}

/* a record being read, until the next one starts: mail clients wrap a
 * long kernel line at 72-80 columns, leaving its rest on a line with no
 * prefix */
struct krec {
	char s[IH_LINE_MAX];
	size_t len;
	int prio;
	int64_t us;
	size_t last;	/* the length of its last line as the text has it */
	int last_blank;	/* that line ended with a blank */
	int on;
};

/* is line l the rest of the record, cut by a mail client?  The record's
 * last line is at most 80 columns and would have been too long with the
 * next line's first word on it (or kept the blank it was cut at) */
static int wrapped(const struct krec *r, const char *l)
{
	const char *w = ih_skip(l);
	size_t n = strcspn(w, " \t");

	return r->on && *w && r->last <= 80 &&
	       (r->last_blank || r->last + 1 + n > 64);
}

static void krec_flush(struct krec *r, struct buf *out)
{
	if (!r->on)
		return;
	if (r->us >= 0)
		buf_addf(out, "<%d>[%5lld.%06lld] %s\n", r->prio,
			 (long long)(r->us / 1000000),
			 (long long)(r->us % 1000000), r->s);
	else
		buf_addf(out, "<%d>%s\n", r->prio, r->s);
	r->on = 0;
}

static void krec_add(struct krec *r, const char *s)
{
	size_t n = strlen(s);

	if (r->len && r->s[r->len - 1] != ' ' && r->len + 1 < sizeof(r->s))
		r->s[r->len++] = ' ';
	if (n > sizeof(r->s) - 1 - r->len)
		n = sizeof(r->s) - 1 - r->len;
	memcpy(r->s + r->len, s, n);
	r->len += n;
	r->s[r->len] = 0;
}

/* a stored record's text, past "<prio>" and "[secs.usecs] ": the same
 * record read from dmesg and from journalctl -k has the same text */
static uint64_t krec_hash(const char *s, const char *e)
{
	const char *p = memchr(s, '>', (size_t)(e - s));

	s = p ? p + 1 : s;
	if (s < e && *s == '[' && (p = memchr(s, ']', (size_t)(e - s))))
		s = p + 1 < e && p[1] == ' ' ? p + 2 : p + 1;
	return fnv1a(FNV1A_INIT, s, (size_t)(e - s));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* the records of out that prev lacks onto all: each record of prev
 * matches one of out at most (a log with "Link down" three times keeps
 * its three against a log with one); returns how many were left out */
static size_t krec_merge(struct buf *all, const char *prev, size_t plen,
			 const struct buf *out)
{
	uint64_t *h = NULL;
	unsigned char *used;
	size_t n = 0, alloc = 0, dup = 0;
	const char *p, *e, *end = prev + plen;

	for (p = prev; p < end; p = e + 1) {
		e = memchr(p, '\n', (size_t)(end - p));
		e = e ? e : end;
		if (n == alloc) {
			alloc = alloc ? alloc * 2 : 1024;
			h = xrealloc(h, alloc * sizeof(*h));
		}
		h[n++] = krec_hash(p, e);
	}
	qsort(h, n, sizeof(*h), cmp_u64);
	used = xcalloc(n ? n : 1, 1);
	end = out->buf + out->len;
	for (p = out->buf; p < end; p = e + 1) {
		uint64_t k;
		size_t lo = 0, hi = n;

		e = memchr(p, '\n', (size_t)(end - p));
		e = e ? e : end;
		k = krec_hash(p, e);
		while (lo < hi) {	/* the first equal hash */
			size_t m = lo + (hi - lo) / 2;

			if (h[m] < k)
				lo = m + 1;
			else
				hi = m;
		}
		while (lo < n && h[lo] == k && used[lo])
			lo++;
		if (lo < n && h[lo] == k) {
			used[lo] = 1;
			dup++;
			continue;
		}
		buf_add(all, p, (size_t)(e - p));
		buf_addch(all, '\n');
	}
	free(used);
	free(h);
	return dup;
}

/* the records into the bundle's kernel log.  A folder may hold several
 * kernel logs (dmesg.txt beside journalctl-k.txt, a log per boot or per
 * kernel): each adds what those read before it lack, never put over
 * them; a record both have (the same boot's dmesg and journal) is kept
 * once, or LINK_FLAPPING would count its "Link down" twice */
static int klog_put(struct imp *im, struct buf *out, const char *origin)
{
	struct buf all = BUF_INIT;
	size_t plen = 0, dup;
	const char *prev = imp_get(im, KLOG_SYSLOG, &plen);
	char both[512];
	int rc;

	if (!prev)
		return imp_put(im, KLOG_SYSLOG, out->buf, out->len, origin,
			       IMP_DERIVED);
	buf_init(&all, 64 << 20);
	buf_add(&all, prev, plen);
	dup = krec_merge(&all, prev, plen, out);
	if (all.truncated) {
		buf_release(&all);
		return -1;
	}
	imp_note(im, "%s: added to the kernel log read before it", origin);
	if (dup)
		imp_note(im, "%s: %zu records the kernel log read before it "
			 "has left out", origin, dup);
	snprintf(both, sizeof(both), "%s and %s",
		 imp_get_origin(im, KLOG_SYSLOG), origin);
	rc = imp_put(im, KLOG_SYSLOG, all.buf, all.len, both, IMP_DERIVED);
	buf_release(&all);
	return rc;
}

int ih_dmesg(struct imp *im, const char *text, size_t len,
		 const char *origin, const char *arg)
{
	struct buf out = BUF_INIT;
	struct ih_lines it;
	struct ih_line *l = malloc(sizeof(*l));
	struct krec *r = calloc(1, sizeof(*r));
	char host[256] = "";
	int n = 0, skipped = 0, joined = 0, prompts = 0, others = 0, rc = 1;

	(void)arg;
	if (!l || !r) {
		rc = -1;
		goto out;
	}
	buf_init(&out, 64 << 20);
	ih_lines_init(&it, text, len);
	while (ih_next(&it, l)) {
		const char *t;
		int prio, other;
		int64_t us;

		if (!l->len) {		/* a blank line: nothing joins across */
			krec_flush(r, &out);
			continue;
		}
		/* journalctl's "-- Logs begin at ... --", "-- Boot ... --" */
		if (!strncmp(l->s, "-- ", 3) || pstore_header(l->s)) {
			krec_flush(r, &out);
			continue;
		}
		t = klog_prefix(l->s, &prio, &us, host, sizeof(host), &other);
		if (t) {
			krec_flush(r, &out);
			r->len = 0;
			r->s[0] = 0;
			krec_add(r, t);
			r->prio = prio;
			r->us = us;
			r->on = 1;
			n++;
		} else if (other || prompt_line(l->s)) {
			krec_flush(r, &out);
			if (other)
				others++;
			else
				prompts++;
			continue;
		} else if (wrapped(r, l->s)) {
			krec_add(r, ih_skip(l->s));
			joined++;
		} else {
			krec_flush(r, &out);
			skipped++;
			continue;
		}
		r->last = l->len;
		r->last_blank = l->s[l->len - 1] == ' ';
	}
	krec_flush(r, &out);
	/* most lines must be records: a text with a few stamped lines in
	 * it is no kernel log */
	if (!n || skipped > n)
		goto out;
	if (out.truncated) {
		rc = -1;
		goto out;
	}
	if (joined)
		imp_note(im, "%s: %d lines wrapped by a mail client joined to "
			 "the records they continue", origin, joined);
	if (prompts)
		imp_note(im, "%s: %d shell prompt lines left out", origin,
			 prompts);
	if (others)
		imp_note(im, "%s: %d records of other programs than the kernel "
			 "left out", origin, others);
	if (skipped)
		imp_note(im, "%s: %d lines that are no kernel log record "
			 "(continuations, other text) left out", origin, skipped);
	if (host[0])
		imp_ident(im, "hostname", host);
	rc = klog_put(im, &out, origin);
	if (!rc)
		imp_source(im, SOURCE_KLOG, "ok", "");
out:
	buf_release(&out);
	free(r);
	free(l);
	return rc;
}

/* --- ulimit --- */

#define LIMITS_SELF "rdma-collect/limits/self.json"

/* bash: "unlimited" or KiB; ulimit -a: "max locked memory (kbytes, -l) N" */
static int memlock_value(const char *text, size_t len, char *out, size_t n)
{
	struct ih_lines it;
	struct ih_line *l = malloc(sizeof(*l));
	int lines = 0, rc = -1;

	if (!l)
		return -1;
	ih_lines_init(&it, text, len);
	while (ih_next(&it, l) && rc < 0) {
		const char *v = NULL;
		char *tag;
		uint64_t kib;

		if (!l->len)
			continue;
		/* the command echoed first: "ulimit -a", "$ ulimit -l" */
		if (!lines && (starts_with(ih_skip(l->s), "ulimit") ||
			       starts_with(ih_skip(l->s), "$ ulimit")))
			continue;
		lines++;
		tag = strstr(l->s, "(kbytes, -l)");
		if (tag && !strncmp(ih_skip(l->s), "max locked memory", 17))
			v = ih_skip(tag + 12);
		else if (lines == 1 && !strstr(l->s, ", -"))
			v = ih_skip(l->s);	/* ulimit -l: the value alone */
		if (!v)
			continue;
		if (!strcmp(v, "unlimited")) {
			rc = check_snprintf(out, n, "\"unlimited\"");
		} else if (!l->unterminated && !ih_u64(v, 1ULL << 53, &kib)) {
			rc = check_snprintf(out, n, "%llu",
					    (unsigned long long)kib * 1024);
		} else if (lines == 1 && !tag) {
			break;	/* a first line that is no value: not ulimit */
		}
	}
	free(l);
	return rc < 0 ? -1 : 0;
}

static int ulimit_set(struct imp *im, const char *text, size_t len,
		      const char *origin, const char *which)
{
	char v[40], mem[160];
	struct jv *old;
	const char *d, *other = which[0] == 's' ? "hard" : "soft";
	const struct jv *o;
	size_t dl;
	int rc;

	if (memlock_value(text, len, v, sizeof(v)) < 0)
		return 1;
	/* keep the other half if an earlier file gave it */
	d = imp_get(im, LIMITS_SELF, &dl);
	old = d ? jparse(d, dl, NULL, 0) : NULL;
	o = jget(jget(old, "memlock"), other);
	if (o && (o->t == J_NUM || (o->t == J_STR && !strcmp(o->s, "unlimited"))))
		snprintf(mem, sizeof(mem), "{ \"%s\": %s%s%s, \"%s\": %s }",
			 other, o->t == J_STR ? "\"" : "", o->s,
			 o->t == J_STR ? "\"" : "", which, v);
	else
		snprintf(mem, sizeof(mem), "{ \"%s\": %s }", which, v);
	jfree(old);
	rc = ih_json_set(im, LIMITS_SELF, origin, NULL, "memlock", mem);
	if (!rc)
		imp_source(im, SOURCE_LIMITS, "partial",
			   "only the locked-memory limit (ulimit)");
	return rc;
}

int ih_ulimit_soft(struct imp *im, const char *text, size_t len,
		       const char *origin, const char *arg)
{
	(void)arg;
	return ulimit_set(im, text, len, origin, "soft");
}

int ih_ulimit_hard(struct imp *im, const char *text, size_t len,
		       const char *origin, const char *arg)
{
	(void)arg;
	return ulimit_set(im, text, len, origin, "hard");
}

/* --- pasted copies of node files --- */

/* a /proc/meminfo row: "Name:   N" or "Name:   N kB" (the kernel's
 * seq_printf; names like "Active(anon)", "HugePages_Total") */
static int meminfo_row(const char *s)
{
	const char *c = strchr(s, ':'), *v;
	uint64_t n;
	char num[24];
	size_t k;

	if (!c || c == s || c - s > 32)
		return 0;
	for (v = s; v < c; v++)
		if (!isalnum((unsigned char)*v) && !strchr("_()", *v))
			return 0;
	v = ih_skip(c + 1);
	k = strspn(v, "0123456789");
	if (!k || k >= sizeof(num))
		return 0;
	memcpy(num, v, k);
	num[k] = 0;
	if (ih_u64(num, UINT64_MAX, &n) < 0)
		return 0;
	v += k;
	if (!strncmp(v, " kB", 3))
		v += 3;
	return !*ih_skip(v);
}

/* a prompt with no command after it, the end of a pasted session:
 * "[oracle@host ~]$", "root@host:~#", "$" */
static int bare_prompt(const char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == ' ')
		n--;
	return n && n < 128 && (s[n - 1] == '$' || s[n - 1] == '#') &&
	       (n == 1 || (memchr(s, '@', n) && !memchr(s, ' ', 1) &&
			   !strchr(s, '\t')));
}

/* /proc/meminfo: "Key:   N kB" lines, whole (MemTotal first: kept as it
 * is) or filtered by grep ("grep Huge /proc/meminfo": only the rows it
 * kept, between the prompts a paste leaves) */
int ih_meminfo(struct imp *im, const char *text, size_t len,
		   const char *origin, const char *arg)
{
	struct ih_lines it;
	struct ih_line *l;
	struct buf out = BUF_INIT;
	int rows = 0, bad = 0, huge = 0, first = 1, end = 0, rc;

	(void)arg;
	if (memchr(text, 0, len))
		return 1;
	if (len >= 9 && !strncmp(text, "MemTotal:", 9))
		return imp_put(im, "proc/meminfo", text, len, origin, IMP_RAW);
	l = malloc(sizeof(*l));
	if (!l)
		return -1;
	ih_lines_init(&it, text, len);
	while (!bad && ih_next(&it, l)) {
		const char *s = ih_skip(l->s);

		if (!*s) {
			continue;
		} else if (end) {
			bad = 1;	/* text after the closing prompt */
		} else if (meminfo_row(s) && !l->cut) {
			/* a cut paste's last number is not trusted */
			if (l->unterminated)
				continue;
			rows++;
			huge |= starts_with(s, "HugePages_Total:") ||
				starts_with(s, "MemTotal:");
			buf_addf(&out, "%s\n", s);
		} else if (first && !rows && strstr(s, "/proc/meminfo")) {
			;	/* the command echoed: "grep Huge /proc/meminfo" */
		} else {
			end = 1;
			bad = !bare_prompt(s);
		}
		first = 0;
	}
	free(l);
	rc = 1;
	if (!bad && rows && huge)
		rc = imp_put(im, "proc/meminfo", out.buf, out.len, origin,
			     IMP_DERIVED);
	buf_release(&out);
	return rc;
}

/* the command a paste echoes before the copy, with or without a prompt:
 * "cat /proc/cmdline", "$ cat /proc/cmdline" */
static int cmdline_echo(const char *s)
{
	if (*s == '$' || *s == '#')
		s = ih_skip(s + 1);
	return starts_with(s, "cat ") && strstr(s, "/proc/cmdline");
}

/* /proc/cmdline: one line of printable text.  Pasted, the command may
 * stand before it and a bare prompt after it; from a mail, the line is
 * wrapped at about 72 columns (a parameter never holds a newline): the
 * lines are joined with a blank, as the kernel printed them */
int ih_cmdline(struct imp *im, const char *text, size_t len,
		   const char *origin, const char *arg)
{
	struct ih_lines it;
	struct ih_line *l;
	struct buf out = BUF_INIT;
	int lines = 0, echo = 0, bad = 0, end = 0, rc = 1;
	size_t i;

	(void)arg;
	l = malloc(sizeof(*l));
	if (!l)
		return -1;
	ih_lines_init(&it, text, len);
	while (!bad && ih_next(&it, l)) {
		const char *s = ih_skip(l->s);

		if (!*s)
			continue;
		if (end || l->cut) {
			bad = 1;
		} else if (!lines && !echo && cmdline_echo(s)) {
			echo = 1;
		} else if (lines && bare_prompt(s)) {
			end = 1;
		} else {
			for (i = 0; s[i]; i++)
				if (!isprint((unsigned char)s[i]) && s[i] != '\t')
					bad = 1;
			buf_addf(&out, "%s%s", lines ? " " : "", s);
			lines++;
		}
	}
	free(l);
	if (bad || !lines || out.len > 4096)
		goto out;
	if (lines == 1 && !echo && !end) {
		rc = imp_put(im, "proc/cmdline", text, len, origin, IMP_RAW);
		goto out;
	}
	buf_addf(&out, "\n");
	rc = imp_put(im, "proc/cmdline", out.buf, out.len, origin, IMP_DERIVED);
out:
	buf_release(&out);
	return rc;
}

/* limits.conf: comments, or "domain type item value" */
int ih_limits_conf(struct imp *im, const char *text, size_t len,
		       const char *origin, const char *arg)
{
	struct ih_lines it;
	struct ih_line *l = malloc(sizeof(*l));
	int bad = 0;

	(void)arg;
	if (!l)
		return -1;
	ih_lines_init(&it, text, len);
	while (ih_next(&it, l) && !bad) {
		char a[64], b[16], c[32], d[32];
		const char *s = ih_skip(l->s);

		if (*s && *s != '#' &&
		    sscanf(s, "%63s %15s %31s %31s", a, b, c, d) != 4)
			bad = 1;
	}
	free(l);
	if (bad || memchr(text, 0, len))
		return 1;
	return imp_put(im, "etc/security/limits.conf", text, len, origin,
		       IMP_RAW);
}

/* --- mlxlink, NCCL logs, perftest --- */

/* the device an mlxlink command line names, from the '*' of its normalized
 * name ("mlx5_0_-m_-e_-c", "dev_mst_mt41692_pciconf0.1_-p_1_-m_-c",
 * "0000_03_00.0_-c"): up to its options, /dev/mst/ dropped, a PCI
 * address given back its colons; "unnamed" without one.  0, or -1 when
 * it is no name a bundle path can hold. */
static int mlxlink_dev(const char *arg, char *dev, size_t n)
{
	char w[128], bdf[16];
	const char *opt;
	size_t k, i;

	if (!arg)
		return check_snprintf(dev, n, "unnamed");
	opt = strstr(arg, "_-");
	k = opt ? (size_t)(opt - arg) : strlen(arg);
	if (!strncmp(arg, "dev_mst_", 8) && k > 8) {
		arg += 8;
		k -= 8;
	}
	if (!k || k >= sizeof(w))
		return -1;
	memcpy(w, arg, k);
	w[k] = 0;
	/* "0000_03_00.0", "03_00.0": a PCI address, its colons made '_' */
	if (k == 7 || k == 12) {
		char b[13];

		memcpy(b, w, k + 1);
		for (i = 0; i < k; i++)
			if (b[i] == '_')
				b[i] = ':';
		if (!mst_bdf(b, bdf))
			return check_snprintf(dev, n, "%s", bdf);
	}
	if (w[0] == '.' || strstr(w, "..") ||
	    strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		   "0123456789_.-") != k)
		return -1;
	return check_snprintf(dev, n, "%s", w);
}

/* a text whose first line is its own command line without a prompt
 * ("sudo mlxlink -d /dev/mst/mt4123_pciconf0 --port_type PCIE -e", as a
 * page's code block shows it): the device that line names, as the name
 * pattern's '*' would be ("dev_mst_mt4123_pciconf0_--port_type_PCIE_-e")
 * into arg; 0, or -1 when the first line is no mlxlink -d command */
static int mlxlink_bare(const char *text, size_t len, char *arg, size_t n)
{
	static const char *const pre[] = {
		"mlxlink_-d_", "mlxlink_--device_", "mstlink_-d_",
		"mstlink_--device_",
	};
	char line[512], name[512], norm[512], *c;
	size_t k, i;

	while (len && (*text == '\n' || *text == '\r' || *text == ' ')) {
		text++;
		len--;
	}
	k = strcspn(text, "\r\n");
	if (k > len)
		k = len;
	if (!k || k >= sizeof(line))
		return -1;
	memcpy(line, text, k);
	line[k] = 0;
	if (imp_command_name(line, name, sizeof(name)) < 0)
		return -1;
	for (c = name; *c; c++)
		if (*c == '/')
			*c = '_';
	imp_normalize(name, norm, sizeof(norm));
	for (i = 0; i < ARRAY_SIZE(pre); i++)
		if (starts_with(norm, pre[i]) && norm[strlen(pre[i])])
			return check_snprintf(arg, n, "%s", norm +
					      strlen(pre[i])) < 0 ? -1 : 0;
	return -1;
}

/* mlxlink's text, at rdma-collect/commands/mlxlink-<dev>/stdout as the
 * collector writes it; a second output of the same device (-c, then -e)
 * is appended to the first, read in order.  An output of the host's PCIe
 * link alone (--port_type PCIE) goes there too: its Link Speed and Width
 * Active (Enabled) are the HCA's own view of its PCIe link. */
int ih_mlxlink(struct imp *im, const char *text, size_t len,
		   const char *origin, const char *arg)
{
	char dev[64], p[128], bare[256];
	struct mlxlink *m = malloc(sizeof(*m));
	const char *old;
	size_t olen;
	int ok, pcie, link, rc;

	if (!m)
		return -1;
	ok = mlxlink_parse(text, len, m) == 0;
	pcie = m->pcie;
	link = m->pci.link;
	free(m);
	if (!ok && pcie && !link) {
		/* PCIe sections without the link's speed and width */
		imp_dropped(im, "%s: mlxlink output of the host's PCIe link "
			    "(--port_type PCIE) without its Link Speed and Width "
			    "Active (Enabled) lines: its counters and eye are "
			    "not read", origin);
		return 0;
	}
	if (!arg && !mlxlink_bare(text, len, bare, sizeof(bare)))
		arg = bare;
	if ((!ok && !link) || mlxlink_dev(arg, dev, sizeof(dev)) < 0)
		return 1;
	snprintf(p, sizeof(p), "rdma-collect/commands/mlxlink-%s/stdout", dev);
	old = imp_get(im, p, &olen);
	if (old) {
		struct buf b = BUF_INIT;

		buf_add(&b, old, olen);
		buf_addf(&b, "\n");
		buf_add(&b, text, len);
		rc = imp_put(im, p, b.buf, b.len, origin, IMP_DERIVED);
		buf_release(&b);
	} else {
		rc = imp_put(im, p, text, len, origin, IMP_DERIVED);
	}
	if (rc < 0)
		return -1;
	imp_source(im, SOURCE_COMMANDS, "partial",
		   "only pasted mlxlink outputs");
	return 0;
}

/* mst status [-v]: kept as the collector keeps it, to name the mst
 * devices mlxlink ran on */
int ih_mst_status(struct imp *im, const char *text, size_t len,
		      const char *origin, const char *arg)
{
	struct mst_row *v = malloc(64 * sizeof(*v));
	int n;

	(void)arg;
	if (!v)
		return -1;
	n = mst_rows(text, len, v, 64);
	free(v);
	if (!n)
		return 1;
	if (imp_put(im, "rdma-collect/commands/mst-status/stdout", text, len,
		    origin, IMP_DERIVED) < 0)
		return -1;
	imp_source(im, SOURCE_COMMANDS, "partial",
		   "only pasted mlxlink outputs");
	return 0;
}

/* an NCCL log: one line NCCL's own parser knows */
int ih_is_nccl(const char *text, size_t len)
{
	struct ih_lines it;
	struct ih_line *l = malloc(sizeof(*l));
	struct nccl_ev *ev = malloc(sizeof(*ev));
	int yes = 0;

	if (l && ev) {
		ih_lines_init(&it, text, len);
		while (!yes && ih_next(&it, l))
			yes = nccl_parse_line(l->s, l->len, ev) != NCCL_NONE;
	}
	free(ev);
	free(l);
	return yes;
}

/* /etc/nccl.conf as cat prints it: NAME=value lines and comments */
int ih_nccl_conf(struct imp *im, const char *text, size_t len,
		     const char *origin, const char *arg)
{
	struct ih_lines it;
	struct ih_line *l = malloc(sizeof(*l));
	int bad = 0, any = 0;

	(void)arg;
	if (!l)
		return -1;
	ih_lines_init(&it, text, len);
	while (ih_next(&it, l) && !bad) {
		const char *s = ih_skip(l->s);
		size_t k = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn"
				  "opqrstuvwxyz0123456789_");

		if (!*s || *s == '#')
			continue;
		bad = !k || s[k] != '=';
		any = 1;
	}
	free(l);
	if (bad || !any || memchr(text, 0, len))
		return 1;
	return imp_put(im, "etc/nccl.conf", text, len, origin, IMP_RAW);
}

int ih_attachment(struct imp *im, const char *text, size_t len,
		      const char *origin, const char *arg)
{
	char p[300];
	const char *base = strrchr(origin, '/');
	size_t i;

	(void)arg;
	if (memchr(text, 0, len) || (!ih_is_nccl(text, len) &&
				     !perftest_detect(text, len)))
		return 1;
	base = base ? base + 1 : origin;
	if (check_snprintf(p, sizeof(p), "rdma-collect/attach/%s", base) < 0 ||
	    !*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return 1;
	/* control characters in a name become '_', as the attach source
	 * names them */
	for (i = strlen("rdma-collect/attach/"); p[i]; i++)
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
			p[i] = '_';
	if (imp_put(im, p, text, len, origin, IMP_DERIVED) < 0)
		return -1;
	imp_source(im, SOURCE_ATTACH, "ok", "");
	return 0;
}
