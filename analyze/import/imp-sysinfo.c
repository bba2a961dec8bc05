/* imp-sysinfo: a sysinfo-snapshot (NVIDIA's linux-sysinfo-snapshot,
 * sysinfo-snapshot.py 3.1 to 3.7) read as the bundle entries rdma-collect
 * would have written.  The per-command parsers of imp-ib.c and
 * imp-host*.c do the work: this file only finds each output in the
 * snapshot, recovers the command that wrote it and feeds it under that
 * command's name (imp_feed).
 *
 * The snapshot, its top folder sysinfo-snapshot-v<ver>-<host>-<date>
 * dropped:
 *   <host>-<YYYYmmdd-HHMMSS>.html   the page (3.1: named like the folder,
 *        date to the minute; no hostname: sysinfo-snapshot-<date>.html).
 *        A section is <a name="secN"></a>, links, <h2>TITLE</h2><p>TEXT</p>;
 *        in TEXT only '<' and '>' are escaped, a tab is four &nbsp; and a
 *        newline <br/> (3.1: both left as they are), non-ASCII a space.
 *        Commands are titled by their command line, copies of files by
 *        their path (/proc/meminfo, /etc/security/limits.conf: only here).
 *        3.1 keeps every output only here.
 *   commands_txt_output/<name>.txt  "Invoked Command: <cmd>", the output;
 *        <name> is <cmd> without / : * ? " < | - and with '_' for a space.
 *   commands_txt_output/other_system_files (3.1: the page's "System
 *        Files"): "File: /sys/...: <content>" for every file under /sys
 *        whose path holds "infini" -- the RDMA devices' own sysfs.
 *   ethtool_S/ethtool_S_<if>        ethtool -S <if> (':' and '.' dropped)
 *   pcie_files/lspci_<opts>         lspci -<opts> (vvvxxxxx, nnvvvxxx, vv)
 *   dmesg, journal                  dmesg -T; journalctl -k -o short-monotonic
 *   firmware/flint_<dev>_q, mstflint_<dev>_q, mlxconfig_<dev>,
 *   mstconfig_<dev>                 first line the command ("flint -d <dev>
 *        q"), <dev> a PCI address or an mst device without ':' '.' '/'.
 *
 * What goes where:
 *  - a command's text: to imp_feed as "<file>/<command>" ('/' in the
 *    command made '.', as sos spells it), so the parser tables match the
 *    command and the origin names the file; a page section only when no
 *    commands_txt_output file holds the same command (the page lost the
 *    non-ASCII bytes).  Sections of sysinfo's own functions:
 *    ethtool_all_interfaces is cut into ethtool IF, -i IF and -a IF;
 *    show_pretty_gids is given show_gids' columns; ibdev2pcidev maps each
 *    RDMA device to its PCI function.
 *  - a file's copy (a title /proc/..., /etc/..., /sys/...) and the
 *    "File:" records: raw at their path; the records' devices also get
 *    the kernel's links (sys/class/infiniband/<dev>, its device link,
 *    sys/bus/pci/devices/<bdf> for every function on the path), made
 *    before anything else so the tools' text lands under them.
 *  - flint q: the device's fw_ver and board_id (PSID) where no sysfs copy
 *    or tool gave them; mlxconfig: rdma-collect/commands/mlxconfig-<bdf>/
 *    stdout.  An mst device is found in "mst status -v".
 *  - identity: hostname (the hostname command, else the page's name),
 *    kernel (uname, /proc/version), uptime (/proc/uptime), collected_at
 *    (the date command when it printed UTC, else the page name's time,
 *    which is the node's local time: noted).  A snapshot holds no
 *    machine-id.
 *
 * Hostile pages: a section over SEC_MAX bytes, a title with control
 * characters, a section without its end (a cut page) are left out with a
 * note; at most MAX_SECS sections are read.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "imp.h"
#include "log.h"
#include "util.h"

#define SEC_MAX (8u << 20)	/* no command or file we read is bigger */
#define MAX_SECS 20000
#define TITLE_MAX 256
#define TXT_DIR "commands_txt_output/"
#define INVOKED "Invoked Command: "

/* one output found in the snapshot */
struct out {
	const char *file;	/* the input file (the page for a section) */
	char *cmd;		/* the command or a file's path */
	const char *text;	/* not owned, or owned when own is set */
	size_t len;
	int own;
};

struct outs {
	struct out *v;
	size_t n;
};

static void outs_add(struct outs *o, const char *file, const char *cmd,
		     const char *text, size_t len, int own)
{
	struct out *e;

	o->v = xrealloc(o->v, (o->n + 1) * sizeof(*o->v));
	e = &o->v[o->n++];
	e->file = file;
	e->cmd = xstrdup(cmd);
	e->text = text;
	e->len = len;
	e->own = own;
}

static void outs_release(struct outs *o)
{
	size_t i;

	for (i = 0; i < o->n; i++) {
		free(o->v[i].cmd);
		if (o->v[i].own)
			free((char *)o->v[i].text);
	}
	free(o->v);
	o->v = NULL;
	o->n = 0;
}

static const struct out *outs_find(const struct outs *o, const char *cmd)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		if (!strcmp(o->v[i].cmd, cmd))
			return &o->v[i];
	return NULL;
}

/* a title or command fit for a name: printable, bounded */
static int printable(const char *s, size_t n)
{
	size_t i;

	if (!n || n >= TITLE_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			return 0;
	return 1;
}

/* --- the page --- */

/* a section's text as the command printed it: tags out (<br/> is a
 * newline), four &nbsp; a tab, one a space, &lt; and &gt; back */
static void unescape(const char *s, size_t n, struct buf *b)
{
	const char *e = s + n;

	while (s < e) {
		const char *gt;

		if (*s == '<' && (gt = memchr(s, '>', (size_t)(e - s) < 64 ?
					      (size_t)(e - s) : 64))) {
			if (!strncasecmp(s, "<br", 3))
				buf_addch(b, '\n');
			s = gt + 1;
		} else if (*s == '&') {
			static const struct {
				const char *ent;
				char c;
			} ents[] = {
				{ "&nbsp;&nbsp;&nbsp;&nbsp;", '\t' },
				{ "&nbsp&nbsp&nbsp&nbsp", '\t' },
				{ "&nbsp;", ' ' }, { "&lt;", '<' }, { "&gt;", '>' },
			};
			size_t k, l = 0;

			for (k = 0; k < ARRAY_SIZE(ents); k++) {
				l = strlen(ents[k].ent);
				if ((size_t)(e - s) >= l && !memcmp(s, ents[k].ent, l))
					break;
			}
			buf_addch(b, k < ARRAY_SIZE(ents) ? ents[k].c : '&');
			s += k < ARRAY_SIZE(ents) ? l : 1;
		} else {
			buf_addch(b, *s++);
		}
	}
}

static const char *mem_find(const char *p, const char *end, const char *s)
{
	return p < end ? memmem(p, (size_t)(end - p), s, strlen(s)) : NULL;
}

/* where a section without <p> ends (3.1's System Files): the first tag
 * of the page's own furniture after it; one pass, so a hostile page of
 * many such sections costs no more than its size */
static const char *bare_end(const char *p, const char *end)
{
	static const char *const stops[] = {
		"<a name=", "<small>", "<h2>", "</p>", "<table", "<h3",
	};
	size_t i;

	for (; (p = memchr(p, '<', (size_t)(end - p))); p++)
		for (i = 0; i < ARRAY_SIZE(stops); i++)
			if ((size_t)(end - p) >= strlen(stops[i]) &&
			    !strncasecmp(p, stops[i], strlen(stops[i])))
				return p;
	return NULL;
}

/* every <h2>TITLE</h2> with its text, into o (texts owned) */
static void page_sections(struct imp *im, const char *page, const char *data,
			  size_t len, struct outs *o)
{
	const char *p = data, *end = data + len, *t, *te, *c, *ce;
	size_t nsec = 0;

	while ((t = mem_find(p, end, "<h2>"))) {
		struct buf b = BUF_INIT;
		char title[TITLE_MAX];
		int para;

		t += 4;
		if (!(te = mem_find(t, end, "</h2>"))) {
			imp_note(im, "%s: a title without its end (a cut page): "
				 "the rest left out", page);
			return;
		}
		c = te + 5;
		while (c < end && isspace((unsigned char)*c))
			c++;
		para = (size_t)(end - c) >= 3 && !memcmp(c, "<p>", 3);
		if (para)
			c += 3;
		ce = para ? mem_find(c, end, "</p>") : bare_end(c, end);
		if (!ce) {
			imp_note(im, "%s: section '%.*s' has no end (a cut page): "
				 "left out", page, printable(t, (size_t)(te - t)) ?
				 (int)(te - t) : 0, t);
			return;
		}
		p = ce;
		if (++nsec > MAX_SECS) {
			imp_note(im, "%s: more than %d sections: the rest left out",
				 page, MAX_SECS);
			return;
		}
		if (!printable(t, (size_t)(te - t))) {
			imp_note(im, "%s: a section whose title is no command or "
				 "path left out", page);
			continue;
		}
		snprintf(title, sizeof(title), "%.*s", (int)(te - t), t);
		if ((size_t)(ce - c) > SEC_MAX) {
			imp_note(im, "%s: section '%s' has %zu bytes, more than "
				 "%u MiB: left out", page, title, (size_t)(ce - c),
				 SEC_MAX >> 20);
			continue;
		}
		unescape(c, (size_t)(ce - c), &b);
		if (!b.len) {
			buf_release(&b);
			continue;
		}
		{
			size_t n;
			char *s = buf_detach(&b, &n);

			outs_add(o, page, title, s, n, 1);
		}
	}
}

/* the page: a top-level .html other than the tuning and SR-IOV pages */
static const struct imp_in *find_page(const struct imp_in *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *nm = v[i].name;
		size_t l = strlen(nm);

		if (strchr(nm, '/') || l < 6 || strcmp(nm + l - 5, ".html") ||
		    starts_with(nm, "performance") || starts_with(nm, "sr_iov"))
			continue;
		return &v[i];
	}
	return NULL;
}

/* --- commands_txt_output --- */

/* "Invoked Command: <cmd>" and the text after it, into o */
static void txt_output(struct imp *im, const struct imp_in *f, struct outs *o)
{
	const char *nl = memchr(f->data, '\n', f->len);
	size_t il = strlen(INVOKED), cl;
	char cmd[TITLE_MAX];

	if (!nl || f->len < il || memcmp(f->data, INVOKED, il))
		return;
	cl = (size_t)(nl - f->data) - il;
	if (cl && f->data[il + cl - 1] == '\r')
		cl--;
	if (!printable(f->data + il, cl)) {
		imp_note(im, "%s: the Invoked Command line is no command: left "
			 "out", f->name);
		return;
	}
	snprintf(cmd, sizeof(cmd), "%.*s", (int)cl, f->data + il);
	outs_add(o, f->name, cmd, nl + 1, f->len - (size_t)(nl + 1 - f->data), 0);
}

/* --- identity --- */

static int first_token(const char *s, size_t len, char *out, size_t n)
{
	size_t k = 0;

	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (k < len && !isspace((unsigned char)s[k]) && k + 1 < n) {
		out[k] = s[k];
		k++;
	}
	out[k] = 0;
	return k ? 0 : -1;
}

static int good_host(const char *s)
{
	size_t i, n = strlen(s);

	if (!n || n > 64)
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("-._", s[i]))
			return 0;
	return 1;
}

/* "Linux node07 6.8.0-45-generic #47 ...", or without the node name
 * ("uname -s -o -p -i -v -r -m" when the hostname is not to be shown) */
static void kernel_from_uname(struct imp *im, const struct out *u)
{
	char a[64], b[128], c[128];

	if (!u || sscanf(u->text, "%63s %127s %127s", a, b, c) != 3 ||
	    strcmp(a, "Linux"))
		return;
	if (isdigit((unsigned char)c[0]))
		imp_ident(im, "kernel_release", c);
	else if (isdigit((unsigned char)b[0]))
		imp_ident(im, "kernel_release", b);
}

/* "<host>-YYYYmmdd-HHMMSS.html" (3.1: "sysinfo-snapshot-v<ver>-<host>-
 * YYYYmmdd-HHMM.html"): host and time, or -1 */
static int page_name(const char *name, char *host, size_t hn, struct tm *tm)
{
	char base[256], *dash, *d2;
	size_t l = strlen(name), tl;

	if (l < 6 || l - 5 >= sizeof(base))
		return -1;
	memcpy(base, name, l - 5);
	base[l - 5] = 0;
	if (!(dash = strrchr(base, '-')) || dash == base)
		return -1;
	tl = strlen(dash + 1);
	*dash = 0;
	if (!(d2 = strrchr(base, '-')) || strlen(d2 + 1) != 8 ||
	    (tl != 4 && tl != 6) ||
	    strspn(d2 + 1, "0123456789") != 8 || strspn(dash + 1, "0123456789") != tl)
		return -1;
	memset(tm, 0, sizeof(*tm));
	if (sscanf(d2 + 1, "%4d%2d%2d", &tm->tm_year, &tm->tm_mon,
		   &tm->tm_mday) != 3 ||
	    sscanf(dash + 1, tl == 6 ? "%2d%2d%2d" : "%2d%2d", &tm->tm_hour,
		   &tm->tm_min, &tm->tm_sec) < 2)
		return -1;
	tm->tm_year -= 1900;
	tm->tm_mon -= 1;
	if (tm->tm_mon < 0 || tm->tm_mon > 11 || tm->tm_mday < 1 ||
	    tm->tm_mday > 31 || tm->tm_hour > 23 || tm->tm_min > 59 ||
	    tm->tm_sec > 60)
		return -1;
	*d2 = 0;
	d2 = base;
	if (starts_with(d2, "sysinfo-snapshot-v")) {
		d2 = strchr(d2 + strlen("sysinfo-snapshot-v"), '-');
		d2 = d2 ? d2 + 1 : base + strlen(base);
	}
	if (!strcmp(d2, "sysinfo-snapshot"))
		d2 = "";
	snprintf(host, hn, "%s", d2);
	return 0;
}

/* a command's own file first, the page's copy after */
static const struct out *find2(const struct outs *txt, const struct outs *sec,
			       const char *cmd)
{
	const struct out *o = outs_find(txt, cmd);

	return o ? o : outs_find(sec, cmd);
}

static void identity(struct imp *im, const struct outs *txt,
		     const struct outs *sec, const struct imp_in *page)
{
	const struct out *x;
	char tok[256], zone[16] = "", host[128] = "", when[32];
	struct tm tm, dt;
	int named = page && !page_name(page->name, host, sizeof(host), &tm);
	int have = 0;

	if ((x = find2(txt, sec, "hostname")) &&
	    !first_token(x->text, x->len, tok, sizeof(tok)) && good_host(tok)) {
		imp_ident(im, "hostname", tok);
		have = 1;
	}
	if (named && good_host(host)) {
		imp_ident(im, "hostname", host);
		have = 1;
	}
	if (have)
		imp_source(im, SOURCE_IDENTITY,
			   "partial", "hostname, kernel and time "
			   "from the snapshot; it holds no machine-id or boot id");
	kernel_from_uname(im, find2(txt, sec, "uname"));
	kernel_from_uname(im, find2(txt, sec, "uname -a"));
	if ((x = find2(txt, sec, "/proc/version")) &&
	    sscanf(x->text, "Linux version %255s", tok) == 1)
		imp_ident(im, "kernel_release", tok);
	if ((x = find2(txt, sec, "/proc/uptime")) &&
	    !first_token(x->text, x->len, tok, sizeof(tok)) &&
	    strspn(tok, "0123456789.") == strlen(tok))
		imp_ident(im, "uptime_s", tok);
	/* date: "Mon Nov 24 09:30:12 UTC 2025"; another zone is not
	 * converted (the abbreviation does not name one offset) */
	memset(&dt, 0, sizeof(dt));
	if ((x = find2(txt, sec, "date"))) {
		const char *r = strptime(x->text, "%a %b %d %H:%M:%S", &dt);

		if (r && sscanf(r, " %15s %d", zone, &dt.tm_year) == 2 &&
		    (!strcmp(zone, "UTC") || !strcmp(zone, "GMT"))) {
			dt.tm_year -= 1900;
			strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &dt);
			imp_ident(im, "collected_at", when);
			return;
		}
		if (!r)
			zone[0] = 0;
	}
	if (!named)
		return;
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	imp_ident(im, "collected_at", when);
	imp_note(im, "collected_at: the time in the page's name, the node's "
		 "local time%s%s", zone[0] ? " " : "", zone);
}

/* --- the RDMA devices' sysfs ("File: /sys/...: content") --- */

/* a PCI address part of a sysfs path: "0000:b1:00.0" */
static int is_bdf(const char *s, size_t n)
{
	unsigned d, b, v, f;
	char tail;
	char t[16];

	if (n != 12)
		return 0;
	memcpy(t, s, n);
	t[n] = 0;
	return sscanf(t, "%4x:%2x:%2x.%1x%c", &d, &b, &v, &f, &tail) == 4 &&
	       strspn(t, "0123456789abcdef:.") == n;
}

/* the last PCI function on a path under sys/devices: [*fs, *fe) */
static int last_fn(const char *path, const char **fs, const char **fe)
{
	const char *s = path + strlen("sys/devices/");

	*fs = NULL;
	while (*s) {
		const char *e = strchrnul(s, '/');

		if (is_bdf(s, (size_t)(e - s))) {
			*fs = s;
			*fe = e;
		}
		s = *e ? e + 1 : e;
	}
	return *fs ? 0 : -1;
}

static int known_fn(const struct imp *im, const char *bdf)
{
	const char **fns = NULL;
	size_t n = imp_list(im, "sys/bus/pci/devices", &fns), i;

	for (i = 0; i < n && strcmp(fns[i], bdf); i++)
		;
	free(fns);
	return i < n;
}

/* the PCI function of the records being placed, remembered for the
 * next ones (they come device by device) */
struct fn_place {
	char from[600];		/* "sys/devices/pci0000:00/.../0000:07:00.0" */
	char to[600];		/* its folder in the import */
	char bdf[16];
	char dev[72];		/* the last RDMA device linked to it */
};

/* A record's path as the import places it.  A class device's file goes
 * under sys/class/<class>/<dev>/ (where the tools' text puts the same
 * facts, so the raw copy wins at the same path) and the device is linked
 * to its function as imp_ibdev_pci does; any other file goes under the
 * function's folder: the one lspci's text already gave it (imp-host-pci
 * builds the bridge tree itself, and two folders for one function would
 * split its evidence), else the kernel's path, each function on it
 * linked from sys/bus/pci/devices as the kernel does. */
static int place(struct imp *im, const char *path, const char *origin,
		 struct fn_place *fp, char *out, size_t n)
{
	static const char *const classes[] = {
		"infiniband", "infiniband_verbs", "infiniband_mad",
	};
	const char *fs = NULL, *fe = NULL, *s, *d, *de;
	char link[128], target[700], bdf[16];
	size_t pl, i, cl;

	if (!starts_with(path, "sys/devices/") || last_fn(path, &fs, &fe) < 0)
		return check_snprintf(out, n, "%s", path);
	pl = (size_t)(fe - path);
	if (pl >= sizeof(fp->from))
		return -1;
	if (strlen(fp->from) != pl || memcmp(fp->from, path, pl)) {
		memcpy(fp->from, path, pl);
		fp->from[pl] = 0;
		snprintf(fp->bdf, sizeof(fp->bdf), "%.*s", (int)(fe - fs), fs);
		fp->dev[0] = 0;
		for (s = fp->from + strlen("sys/devices/");
		     *s && !known_fn(im, fp->bdf); ) {
			const char *e = strchrnul(s, '/');

			snprintf(bdf, sizeof(bdf), "%.*s", (int)(e - s) < 15 ?
				 (int)(e - s) : 15, s);
			snprintf(link, sizeof(link), "sys/bus/pci/devices/%s", bdf);
			snprintf(target, sizeof(target), "../../../%.*s",
				 (int)(e - fp->from - 4), fp->from + 4);
			if (is_bdf(s, (size_t)(e - s)) && !known_fn(im, bdf) &&
			    imp_link(im, link, target, origin) < 0)
				return -1;
			s = *e ? e + 1 : e;
		}
		if (!imp_pci_dir(im, fp->bdf, fp->to, sizeof(fp->to)))
			return -1;
	}
	for (i = 0; i < ARRAY_SIZE(classes) && *fe == '/'; i++) {
		cl = strlen(classes[i]);
		if (strncmp(fe + 1, classes[i], cl) || fe[1 + cl] != '/')
			continue;
		d = fe + 2 + cl;
		de = strchrnul(d, '/');
		if (de == d || (size_t)(de - d) >= sizeof(fp->dev) || !*de)
			break;
		if (!i && (strlen(fp->dev) != (size_t)(de - d) ||
			   memcmp(fp->dev, d, (size_t)(de - d)))) {
			snprintf(fp->dev, sizeof(fp->dev), "%.*s", (int)(de - d), d);
			if (imp_ibdev_pci(im, fp->dev, fp->bdf, origin) < 0)
				return -1;
		}
		return check_snprintf(out, n, "sys/class/%s", fe + 1);
	}
	return check_snprintf(out, n, "%s%s", fp->to, fe);
}

static int sys_records(struct imp *im, const struct out *o)
{
	const char *p = o->text, *end = o->text + o->len;
	char path[1024], placed[1400], origin[600];
	struct fn_place fp = { "", "", "", "" };
	int any = 0;

	snprintf(origin, sizeof(origin), "%s", o->file);
	while (p < end) {
		const char *nl, *colon, *c, *ce;
		size_t pl;

		nl = memchr(p, '\n', (size_t)(end - p));
		nl = nl ? nl : end;
		if ((size_t)(end - p) < 11 || memcmp(p, "File: /sys/", 11)) {
			p = nl + 1;
			continue;
		}
		/* the path ends at the first ':' before a blank or the end */
		for (colon = p + 6; colon < nl; colon++)
			if (*colon == ':' && (colon + 1 == nl || colon[1] == ' '))
				break;
		if (colon >= nl) {
			p = nl + 1;
			continue;
		}
		/* the content runs to the next record */
		c = colon + 1 < nl ? colon + 2 : nl;
		for (ce = nl; ce < end; ) {
			const char *q = ce + 1;

			if (q >= end || ((size_t)(end - q) >= 11 &&
					 !memcmp(q, "File: /sys/", 11)))
				break;
			ce = memchr(q, '\n', (size_t)(end - q));
			ce = ce ? ce : end;
		}
		pl = (size_t)(colon - p - 7);
		p = ce + 1;
		if (pl >= sizeof(path) || !printable(colon - pl, pl))
			continue;
		snprintf(path, sizeof(path), "%.*s", (int)pl, colon - pl);
		/* a failed link fails the import: the next feed says so */
		if (place(im, path, origin, &fp, placed, sizeof(placed)) < 0)
			continue;
		{
			/* a sysfs file ends with its newline; the blank lines
			 * after the last record are the page's */
			struct buf b = BUF_INIT;
			int rc;

			while (ce > c && ce[-1] == '\n')
				ce--;
			buf_add(&b, c, (size_t)(ce - c));
			buf_addch(&b, '\n');
			rc = imp_put(im, placed, b.buf, b.len, origin, IMP_RAW);
			buf_release(&b);
			if (rc < 0)
				return -1;
		}
		any = 1;
	}
	if (any)
		imp_source(im, SOURCE_SYSFS, "ok", "");
	return 0;
}

/* --- commands --- */

/* a command as a file name the parser tables know: '/' as sos writes it */
static int feed(struct imp *im, const char *file, const char *cmd,
		const char *text, size_t len)
{
	char name[600];
	size_t i;

	if (check_snprintf(name, sizeof(name), "%s/%s", file, cmd) < 0)
		return 0;
	for (i = strlen(file) + 1; name[i]; i++)
		if (name[i] == '/')
			name[i] = '.';
	return imp_feed(im, name, text, len) < 0 ? -1 : 0;
}

/* ethtool_all_interfaces: "ethtool [-i|-a|...] IF" then its output, up
 * to a line of underscores */
static int ethtool_all(struct imp *im, const struct out *o)
{
	const char *p = o->text, *end = o->text + o->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *b, *be;
		char opt[16], ifn[64], cmd[96], line[128];

		nl = nl ? nl : end;
		if ((size_t)(nl - p) >= sizeof(line) || !starts_with(p, "ethtool ")) {
			p = nl + 1;
			continue;
		}
		snprintf(line, sizeof(line), "%.*s", (int)(nl - p), p);
		p = nl + 1;
		opt[0] = 0;
		if (sscanf(line, "ethtool %15s %63s", opt, ifn) != 2) {
			if (sscanf(line, "ethtool %63s", ifn) != 1)
				continue;
			opt[0] = 0;
		}
		if (opt[0] && strcmp(opt, "-i") && strcmp(opt, "-a"))
			continue;
		if (opt[0] != '-' && opt[0]) {
			/* "ethtool  IF": no option */
			snprintf(ifn, sizeof(ifn), "%s", opt);
			opt[0] = 0;
		}
		for (b = be = p; be < end; ) {
			const char *q = memchr(be, '\n', (size_t)(end - be));

			q = q ? q : end;
			if (starts_with(be, "____") || starts_with(be, "ethtool "))
				break;
			be = q + 1 <= end ? q + 1 : end;
		}
		p = be;
		if (be == b || !printable(ifn, strlen(ifn)))
			continue;
		snprintf(cmd, sizeof(cmd), "ethtool%s%s %s", opt[0] ? " " : "",
			 opt, ifn);
		if (feed(im, o->file, cmd, b, (size_t)(be - b)) < 0)
			return -1;
	}
	return 0;
}

/* show_pretty_gids: show_gids' rows with the sysfs type string
 * ("RoCE v2") and "N\A" for no netdev; made show_gids' own */
static int pretty_gids(struct imp *im, const struct out *o)
{
	static const struct {
		const char *from, *to;
	} subst[] = {
		{ "IB/RoCE v1", "v1" }, { "RoCE v2", "v2" }, { "N\\A", "" },
	};
	struct buf b = BUF_INIT;
	const char *p = o->text, *end = o->text + o->len;
	int rc;

	while (p < end) {
		size_t k, l = 0;

		for (k = 0; k < ARRAY_SIZE(subst); k++) {
			l = strlen(subst[k].from);
			if ((size_t)(end - p) >= l && !memcmp(p, subst[k].from, l))
				break;
		}
		if (k < ARRAY_SIZE(subst)) {
			buf_addstr(&b, subst[k].to);
			p += l;
		} else {
			buf_addch(&b, *p++);
		}
	}
	rc = feed(im, o->file, "show_gids", b.buf, b.len);
	buf_release(&b);
	return rc;
}

/* ibdev2pcidev: "mlx5_0 ==> 0000:b1:00.0" */
static int ibdev2pcidev(struct imp *im, const struct out *o)
{
	const char *p = o->text, *end = o->text + o->len;
	char origin[600];
	int n = 0;

	snprintf(origin, sizeof(origin), "%s/ibdev2pcidev", o->file);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		char line[160], dev[65], bdf[33], link[128];
		const char **names = NULL;
		size_t k;

		nl = nl ? nl : end;
		snprintf(line, sizeof(line), "%.*s", (int)(nl - p) < 159 ?
			 (int)(nl - p) : 159, p);
		p = nl + 1;
		if (sscanf(line, "%64s ==> %32s", dev, bdf) != 2 ||
		    !good_host(dev))
			continue;
		/* a device the sysfs records placed keeps the kernel's link */
		snprintf(link, sizeof(link), "sys/class/infiniband/%s", dev);
		k = imp_list(im, link, &names);
		while (k && strcmp(names[k - 1], "device"))
			k--;
		free(names);
		if (!k && imp_ibdev_pci(im, dev, bdf, origin) < 0)
			return -1;
		n++;
	}
	if (n)
		imp_source(im, SOURCE_PCI, "ok", "");
	return 0;
}

static int feed_cmd(struct imp *im, const struct out *o)
{
	static const struct {
		const char *title, *cmd;
	} alias[] = {
		{ "lspci_xxxvvv", "lspci -xxxvvv" },
		{ "uname", "uname -a" },
	};
	size_t i;

	if (!strcmp(o->cmd, "ethtool_all_interfaces") ||
	    !strcmp(o->cmd, "eth_tool_all_interfaces"))
		return ethtool_all(im, o);
	if (!strcmp(o->cmd, "show_pretty_gids"))
		return pretty_gids(im, o);
	if (!strcmp(o->cmd, "ibdev2pcidev"))
		return ibdev2pcidev(im, o);
	for (i = 0; i < ARRAY_SIZE(alias); i++)
		if (!strcmp(o->cmd, alias[i].title))
			return feed(im, o->file, alias[i].cmd, o->text, o->len);
	return feed(im, o->file, o->cmd, o->text, o->len);
}

/* a copy of a node file (a title "/proc/meminfo"): raw at its path */
static int is_path(const char *t)
{
	return starts_with(t, "/proc/") || starts_with(t, "/sys/") ||
	       starts_with(t, "/etc/") || starts_with(t, "/dev/");
}

/* --- firmware --- */

/* the first line of a firmware file: "flint -d <dev> q" (3.x wrote
 * " mlxdump -d" with a blank first: blanks are skipped) */
static int fw_dev(const struct imp_in *f, const char *tool, char *dev,
		  size_t n)
{
	const char *nl = memchr(f->data, '\n', f->len), *p = f->data, *e;
	size_t l = nl ? (size_t)(nl - f->data) : f->len, tl = strlen(tool);

	while (l && *p == ' ')
		p++, l--;
	if (l < tl + 4 || memcmp(p, tool, tl) || memcmp(p + tl, " -d ", 4))
		return -1;
	p += tl + 4;
	l -= tl + 4;
	e = memchr(p, ' ', l);
	l = e ? (size_t)(e - p) : l;
	if (l >= n || !printable(p, l))
		return -1;
	memcpy(dev, p, l);
	dev[l] = 0;
	return 0;
}

/* a device as flint was given it -> its PCI address: the address itself,
 * or the mst device's line of "mst status -v" ("ConnectX7(rev:0)
 * /dev/mst/mt4129_pciconf0  b1:00.0  mlx5_0  net-ibp177s0  1") */
static int fw_bdf(const struct outs *o, const char *dev, char *bdf, size_t n)
{
	const struct out *m = outs_find(o, "mst status -v");
	const char *p, *end;
	unsigned d, b, v, f;
	char tail;

	if (sscanf(dev, "%4x:%2x:%2x.%1x%c", &d, &b, &v, &f, &tail) == 4 ||
	    (d = 0, sscanf(dev, "%2x:%2x.%1x%c", &b, &v, &f, &tail) == 3))
		return check_snprintf(bdf, n, "%04x:%02x:%02x.%x", d, b, v, f);
	if (!m)
		return -1;
	for (p = m->text, end = m->text + m->len; p < end; ) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		char line[256], *tok, *save;

		nl = nl ? nl : end;
		snprintf(line, sizeof(line), "%.*s", (int)(nl - p) < 255 ?
			 (int)(nl - p) : 255, p);
		p = nl + 1;
		if (!strstr(line, dev))
			continue;
		for (tok = strtok_r(line, " \t", &save); tok;
		     tok = strtok_r(NULL, " \t", &save))
			if (sscanf(tok, "%2x:%2x.%1x%c", &b, &v, &f, &tail) == 3 ||
			    sscanf(tok, "%4x:%2x:%2x.%1x%c", &d, &b, &v, &f,
				   &tail) == 4)
				return fw_bdf(o, tok, bdf, n);
	}
	return -1;
}

/* "FW Version:            28.41.1000" */
static int fw_field(const char *text, size_t len, const char *key, char *out,
		    size_t n)
{
	const char *p = text, *end = text + len;
	size_t kl = strlen(key);

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		nl = nl ? nl : end;
		if ((size_t)(nl - p) > kl && !memcmp(p, key, kl) && p[kl] == ':') {
			char line[128];

			snprintf(line, sizeof(line), "%.*s", (int)(nl - p - kl - 1) <
				 127 ? (int)(nl - p - kl - 1) : 127, p + kl + 1);
			if (sscanf(line, "%*[ \t]%63[^ \t\r]", out) == 1 &&
			    printable(out, strlen(out)) && strlen(out) < n)
				return 0;
		}
		p = nl + 1;
	}
	return -1;
}

static int flint_q(struct imp *im, const struct outs *o, const struct imp_in *f,
		   const char *tool)
{
	char dev[128], bdf[32], dir[1100], ver[64], psid[64], p[1200];
	const char **devs = NULL;
	size_t nd, i;
	int rc = 0;

	if (fw_dev(f, tool, dev, sizeof(dev)) < 0 ||
	    fw_field(f->data, f->len, "FW Version", ver, sizeof(ver)) < 0)
		return 1;
	if (fw_field(f->data, f->len, "PSID", psid, sizeof(psid)) < 0)
		psid[0] = 0;
	if (fw_bdf(o, dev, bdf, sizeof(bdf)) < 0) {
		imp_note(im, "%s: no PCI address for '%s' (no mst status -v "
			 "line): left out", f->name, dev);
		return 0;
	}
	/* a function no other output showed is not made up for it */
	nd = imp_list(im, "sys/bus/pci/devices", &devs);
	for (i = 0; i < nd && strcmp(devs[i], bdf); i++)
		;
	free(devs);
	devs = NULL;
	if (i == nd || !imp_pci_dir(im, bdf, dir, sizeof(dir))) {
		imp_note(im, "%s: %s is no PCI function of the snapshot: "
			 "firmware %s not placed", f->name, bdf, ver);
		return 0;
	}
	snprintf(p, sizeof(p), "%s/infiniband", dir);
	nd = imp_list(im, p, &devs);
	if (!nd)
		imp_note(im, "%s: no RDMA device on %s: firmware %s not "
			 "placed", f->name, bdf, ver);
	for (i = 0; i < nd && !rc; i++) {
		snprintf(p, sizeof(p), "sys/class/infiniband/%s/fw_ver", devs[i]);
		if (!imp_get(im, p, NULL))
			rc = imp_putf(im, f->name, p, "%s\n", ver);
		snprintf(p, sizeof(p), "sys/class/infiniband/%s/board_id",
			 devs[i]);
		if (!rc && psid[0] && !imp_get(im, p, NULL))
			rc = imp_putf(im, f->name, p, "%s\n", psid);
	}
	free(devs);
	return rc;
}

static int mlxconfig_q(struct imp *im, const struct outs *o,
		       const struct imp_in *f, const char *tool)
{
	char dev[128], bdf[32], p[128];
	const char *nl = memchr(f->data, '\n', f->len);

	if (fw_dev(f, tool, dev, sizeof(dev)) < 0 || !nl)
		return 1;
	if (fw_bdf(o, dev, bdf, sizeof(bdf)) < 0) {
		imp_note(im, "%s: no PCI address for '%s': left out", f->name,
			 dev);
		return 0;
	}
	snprintf(p, sizeof(p), "rdma-collect/commands/mlxconfig-%s/stdout", bdf);
	if (imp_put(im, p, nl + 1, f->len - (size_t)(nl + 1 - f->data),
		    f->name, IMP_DERIVED) < 0)
		return -1;
	imp_source(im, SOURCE_COMMANDS,
		   "partial", "only the snapshot's mlxconfig "
		   "queries");
	return 0;
}

static int firmware(struct imp *im, const struct outs *o,
		    const struct imp_in *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *b = v[i].name + strlen("firmware/");
		size_t l = strlen(v[i].name);
		int rc = 1;

		if (!starts_with(v[i].name, "firmware/") || strchr(b, '/'))
			continue;
		if (l > 2 && !strcmp(v[i].name + l - 2, "_q")) {
			if (starts_with(b, "flint_"))
				rc = flint_q(im, o, &v[i], "flint");
			else if (starts_with(b, "mstflint_"))
				rc = flint_q(im, o, &v[i], "mstflint");
		} else if (starts_with(b, "mlxconfig_")) {
			rc = mlxconfig_q(im, o, &v[i], "mlxconfig");
		} else if (starts_with(b, "mstconfig_")) {
			rc = mlxconfig_q(im, o, &v[i], "mstconfig");
		} else {
			continue;
		}
		if (rc < 0)
			return -1;
		if (rc > 0)
			imp_note(im, "%s: not the tool's output", v[i].name);
	}
	return 0;
}

/* --- the other folders --- */

/* lspci, before anything else places a PCI function: the richest one
 * (a hex dump holds the whole config space), from pcie_files/ or, in
 * 3.1, the page */
static int lspci(struct imp *im, const struct imp_in *v, size_t n,
		 const struct outs *sec)
{
	static const char *const files[] = {
		"pcie_files/lspci_vvvxxxxx", "pcie_files/lspci_nnvvvxxx",
		"pcie_files/lspci_vv",
	};
	static const char *const titles[] = {
		"lspci_xxxvvv", "lspci -vvvxxxxx", "lspci -vvv", "lspci -vv",
	};
	const struct out *o;
	char cmd[64];
	size_t i, k;

	for (k = 0; k < ARRAY_SIZE(files); k++) {
		for (i = 0; i < n && strcmp(v[i].name, files[k]); i++)
			;
		if (i == n)
			continue;
		snprintf(cmd, sizeof(cmd), "lspci -%s",
			 files[k] + strlen("pcie_files/lspci_"));
		return feed(im, v[i].name, cmd, v[i].data, v[i].len);
	}
	for (k = 0; k < ARRAY_SIZE(titles); k++)
		if ((o = outs_find(sec, titles[k])))
			return feed_cmd(im, o);
	return 0;
}

/* ethtool_S/ethtool_S_<if>, dmesg and the kernel's journal (last: its
 * monotonic times win over dmesg -T's clock) */
static int other_files(struct imp *im, const struct imp_in *v, size_t n)
{
	static const struct {
		const char *file, *cmd;
	} logs[] = {
		{ "dmesg", "dmesg -T" },
		{ "journal", "journalctl -k -o short-monotonic" },
	};
	char cmd[128];
	size_t i, k;

	for (i = 0; i < n; i++) {
		const char *nm = v[i].name;

		if (!starts_with(nm, "ethtool_S/ethtool_S_") ||
		    strchr(nm + 10, '/'))
			continue;
		if (check_snprintf(cmd, sizeof(cmd), "ethtool -S %s",
				   nm + strlen("ethtool_S/ethtool_S_")) < 0 ||
		    !printable(cmd, strlen(cmd)))
			continue;
		if (feed(im, nm, cmd, v[i].data, v[i].len) < 0)
			return -1;
	}
	for (k = 0; k < ARRAY_SIZE(logs); k++)
		for (i = 0; i < n; i++)
			if (!strcmp(v[i].name, logs[k].file) &&
			    feed(im, logs[k].file, logs[k].cmd, v[i].data,
				 v[i].len) < 0)
				return -1;
	return 0;
}

int imp_kind_sysinfo(struct imp *im, const struct imp_in *v, size_t n)
{
	const struct imp_in *page = find_page(v, n);
	struct outs txt = { 0 }, sec = { 0 };
	size_t i;
	int rc = -1;

	for (i = 0; i < n; i++)
		if (starts_with(v[i].name, TXT_DIR) &&
		    !strchr(v[i].name + strlen(TXT_DIR), '/'))
			txt_output(im, &v[i], &txt);
	if (page)
		page_sections(im, page->name, page->data, page->len, &sec);
	else
		imp_note(im, "no sysinfo-snapshot page (<host>-<date>.html)");
	identity(im, &txt, &sec, page);

	/* lspci, then the devices' sysfs in its functions' folders, then
	 * the rest: the tools' text lands under the sysfs links */
	if (lspci(im, v, n, &sec) < 0)
		goto out;
	for (i = 0; i < n; i++)
		if (!strcmp(v[i].name, TXT_DIR "other_system_files")) {
			struct out o = { v[i].name, NULL, v[i].data, v[i].len, 0 };

			if (sys_records(im, &o) < 0)
				goto out;
		}
	for (i = 0; i < sec.n; i++)
		if ((!strcmp(sec.v[i].cmd, "System Files") ||
		     !strcmp(sec.v[i].cmd, "other_system_files")) &&
		    sys_records(im, &sec.v[i]) < 0)
			goto out;
	for (i = 0; i < sec.n; i++)
		if (is_path(sec.v[i].cmd) &&
		    imp_feed(im, sec.v[i].cmd + 1, sec.v[i].text,
			     sec.v[i].len) < 0)
			goto out;
	if (other_files(im, v, n) < 0)
		goto out;
	for (i = 0; i < txt.n; i++)
		if (feed_cmd(im, &txt.v[i]) < 0)
			goto out;
	for (i = 0; i < sec.n; i++) {
		const struct out *s = &sec.v[i];

		if (is_path(s->cmd) || outs_find(&txt, s->cmd) ||
		    starts_with(s->cmd, "lspci") ||
		    !strcmp(s->cmd, "System Files") ||
		    !strcmp(s->cmd, "other_system_files"))
			continue;
		if (feed_cmd(im, s) < 0)
			goto out;
	}
	{
		/* mst status -v from either place */
		struct outs all = { 0 };

		all.v = xcalloc(txt.n + sec.n + 1, sizeof(*all.v));
		if (txt.n)
			memcpy(all.v, txt.v, txt.n * sizeof(*all.v));
		if (sec.n)
			memcpy(all.v + txt.n, sec.v, sec.n * sizeof(*all.v));
		all.n = txt.n + sec.n;
		rc = firmware(im, &all, v, n);
		free(all.v);
	}
out:
	outs_release(&txt);
	outs_release(&sec);
	return rc;
}
