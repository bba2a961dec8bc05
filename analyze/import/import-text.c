/* import-text: a pasted text made readable before any reader sees it
 * (imp.h): line ends, terminal colours, mail quoting and web spaces
 * undone; then cut into parts at prompt lines and markdown fences, each
 * part with the command line that printed it.
 *
 * What a ticket looks like, and what is done with it:
 *   CRLF, a lone CR at a line's end      the CR dropped
 *   ESC [ ... m (ANSI colour, grep's)    dropped, as are other escapes
 *   U+00A0 (a web page's &nbsp;)          a blank
 *   a lone 0xA0 byte (Latin-1 &nbsp;)     a blank (in UTF-8 it is only
 *                                        ever a continuation byte)
 *   "> " quoting (a mail reply)          one level dropped, as often as
 *                                        most non-blank lines carry it
 *   "$ cmd", "# cmd", "[u@h dir]$ cmd",  a new part, cmd its command line
 *   "u@h:~$ cmd", "root@h:/# cmd",
 *   "h:~$ cmd", "u@h ~ % cmd" (zsh),
 *   "h% cmd", "(env) " before any,
 *   a quote mark before it ">$ cmd"
 *   a prompt without a command          the part before it ends
 *   " #ethtool -a IF" (prompt glued)      a new part, as "# ethtool -a IF"
 *   "ethtool -a eth0" alone on its line  a new part (a paste of several
 *   (no prompt: ethtool, dcb, mlnx_qos)  commands without their prompts)
 *   ``` (a markdown fence)               a new part, no command
 * "# cmd" is a prompt only when cmd starts with a command this project
 * reads (a '#' line is a comment in perfquery's and limits.conf's own
 * text); "$ cmd" always is.  A glued "#cmd" or "$cmd" also needs an
 * option after the command ("#ethtool --show-pause eth0"), and a bare
 * command line one made only of command-line words: a sentence
 * starting with "ethtool" is none.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "imp.h"
#include "log.h"
#include "util.h"

/* --- cleaning --- */

/* ESC sequences: CSI (ESC [ params final), OSC (ESC ] ... BEL or ESC \),
 * and two-byte ones; returns the bytes to skip at p */
static size_t escape_len(const char *p, const char *end)
{
	const char *q = p + 1;

	if (q >= end)
		return 1;
	if (*q == '[') {
		for (q++; q < end; q++)
			if ((unsigned char)*q >= 0x40 && (unsigned char)*q <= 0x7e)
				return (size_t)(q + 1 - p);
		return (size_t)(end - p);
	}
	if (*q == ']') {
		for (q++; q < end; q++) {
			if (*q == '\a')
				return (size_t)(q + 1 - p);
			if (*q == 0x1b && q + 1 < end && q[1] == '\\')
				return (size_t)(q + 2 - p);
			if (*q == '\n')
				return (size_t)(q - p);
		}
		return (size_t)(end - p);
	}
	return 2;
}

/* the length of the UTF-8 sequence at p (2 to 4 bytes), 0 when none
 * starts there */
static size_t utf8_len(const char *p, const char *end)
{
	unsigned char c = (unsigned char)*p;
	size_t n, i;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if ((size_t)(end - p) < n)
		return 0;
	for (i = 1; i < n; i++)
		if (((unsigned char)p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* is every non-blank line (most of them: 3 in 4) quoted with '>'? */
static int quoted(const char *t, size_t n)
{
	size_t lines = 0, q = 0, i = 0;

	while (i < n) {
		const char *e = memchr(t + i, '\n', n - i);
		size_t k = e ? (size_t)(e - t - i) : n - i, j = 0;

		while (j < k && (t[i + j] == ' ' || t[i + j] == '\t'))
			j++;
		if (j < k) {
			lines++;
			q += t[i + j] == '>';
		}
		i += k + 1;
	}
	return lines && q * 4 >= lines * 3;
}

/* one level of "> " off every quoted line */
static size_t unquote(char *t, size_t n)
{
	size_t i = 0, o = 0;

	while (i < n) {
		const char *e = memchr(t + i, '\n', n - i);
		size_t k = e ? (size_t)(e - t - i) : n - i, j = 0;

		while (j < k && t[i + j] == ' ')
			j++;
		if (j < k && t[i + j] == '>') {
			j++;
			if (j < k && t[i + j] == ' ')
				j++;
		} else {
			j = 0;
		}
		memmove(t + o, t + i + j, k - j);
		o += k - j;
		if (e)
			t[o++] = '\n';
		i += k + 1;
	}
	t[o] = 0;
	return o;
}

const char *imp_unquoted(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	while (*s == '>')
		for (s++; *s == ' ' || *s == '\t'; s++)
			;
	return s;
}

char *imp_clean(const char *data, size_t len, size_t *outlen, unsigned *what)
{
	char *o = xmalloc(len + 1);
	const char *p = data, *end = data + len;
	size_t k = 0;
	int levels;

	*what = 0;
	while (p < end) {
		unsigned char c = (unsigned char)*p;

		if (c == '\r' && (p + 1 == end || p[1] == '\n')) {
			*what |= IMP_CLEAN_CR;
			p++;
			continue;
		}
		if (c == 0x1b) {
			*what |= IMP_CLEAN_ANSI;
			p += escape_len(p, end);
			continue;
		}
		if (c == 0xc2 && p + 1 < end && (unsigned char)p[1] == 0xa0) {
			*what |= IMP_CLEAN_NBSP;
			o[k++] = ' ';
			p += 2;
			continue;
		}
		if (c >= 0x80) {
			size_t u = utf8_len(p, end);

			if (u) {
				memcpy(o + k, p, u);
				k += u;
				p += u;
				continue;
			}
			if (c == 0xa0) {
				/* a Latin-1 page's no-break space, alone (in
				 * UTF-8 it only follows a lead byte) */
				*what |= IMP_CLEAN_NBSP;
				o[k++] = ' ';
				p++;
				continue;
			}
		}
		o[k++] = (char)c;
		p++;
	}
	o[k] = 0;
	for (levels = 0; levels < 8 && quoted(o, k); levels++) {
		*what |= IMP_CLEAN_QUOTED;
		k = unquote(o, k);
	}
	*outlen = k;
	return o;
}

/* --- prompts --- */

/* the commands a "# cmd" prompt may start with */
static const char *const known[] = {
	"ibstat", "ibstatus", "ibv_devinfo", "ibv_devices", "ibdev2netdev",
	"show_gids", "lspci", "lsmod", "dmesg", "journalctl", "ethtool", "dcb",
	"mlnx_qos", "ip", "ulimit", "cat", "sminfo", "perfquery", "iblinkinfo",
	"ibnetdiscover", "ibdiagnet", "rdma", "fi_info", "mlxlink", "mlxconfig",
	"mst", "ls", "grep", "egrep", "zgrep", "tail", "head", "uname", "uptime",
	"hostname", "ofed_info", "modinfo", "nvidia-smi", "ib_write_bw",
	"ib_read_bw", "ib_send_bw", "ib_write_lat", "ib_read_lat",
	"ib_send_lat", "ibping", "ibhosts", "ibswitches", "sudo", "env",
	"sysctl", "numactl", "lscpu", "mpirun", "srun", "less", "more",
	"ibportstate", "saquery", "smpquery", "ibaddr", "iblinkinfo.pl",
	"ibqueryerrors", "ibtracert", "mlxfwmanager", "flint", "devlink",
	"nccl-tests", "all_reduce_perf",
};

static int known_command(const char *s)
{
	size_t i, n;

	while (*s == ' ')
		s++;
	/* a path: its last part */
	for (n = 0; s[n] && s[n] != ' '; n++)
		;
	{
		const char *b = s;
		size_t j;

		for (j = 0; j < n; j++)
			if (s[j] == '/')
				b = s + j + 1;
		n -= (size_t)(b - s);
		s = b;
	}
	for (i = 0; i < ARRAY_SIZE(known); i++)
		if (strlen(known[i]) == n && !strncmp(s, known[i], n))
			return 1;
	return 0;
}

/* the commands whose output is pasted without a prompt above it: their
 * output lines never start with the command's own name */
static const char *const bare_known[] = { "ethtool", "dcb", "mlnx_qos" };

/* "ethtool -S eth0 | grep -v ': 0'", "sudo mlnx_qos -i eth2" alone on a
 * line: the command, else NULL.  Up to a pipe, every word is an option,
 * a name or a value ("0,0,0,1,0,0,0,0"), none ends a sentence */
static const char *bare(const char *s)
{
	const char *c, *w;
	size_t i, n;
	int words = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	c = s;
	if (starts_with(s, "sudo "))
		s += 5;
	n = strcspn(s, " ");
	for (i = 0; i < ARRAY_SIZE(bare_known); i++)
		if (strlen(bare_known[i]) == n && !strncmp(s, bare_known[i], n))
			break;
	if (i == ARRAY_SIZE(bare_known) || s[n] != ' ')
		return NULL;
	for (w = s + n; *w && *w != '|'; ) {
		while (*w == ' ')
			w++;
		if (!*w || *w == '|')
			break;
		n = strcspn(w, " ");
		if (strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			   "0123456789_-.:,=@/") < n || w[n - 1] == '.' ||
		    w[n - 1] == ',' || w[n - 1] == ':')
			return NULL;
		words++;
		w += n;
	}
	return words ? c : NULL;
}

/* the command after a prompt's sign at s ('$', '#' or '%'), "" when the
 * prompt is bare, NULL when s is no sign */
static const char *after_sign(const char *s)
{
	if (!*s || !strchr("$#%", *s) || (s[1] && s[1] != ' ' && s[1] != '\t'))
		return NULL;
	for (s++; *s == ' ' || *s == '\t'; s++)
		;
	return s;
}

/* the end of a host or user name at s: letters, digits, '_', '.', '-' */
static const char *name_end(const char *s)
{
	while (isalnum((unsigned char)*s) || (*s && strchr("_.-", *s)))
		s++;
	return s;
}

/* a prompt that starts with a host name, a user@ before it or not:
 *   bash  "user@host:~$ cmd", "root@host:/tmp# cmd", "host:~$ cmd"
 *   macOS "host:~ user$ cmd"
 *   zsh   "user@host ~ % cmd", "root@host /tmp # cmd", "host% cmd" */
static const char *host_prompt(const char *s)
{
	const char *q = name_end(s), *at = NULL, *t, *e, *c;

	if (q == s)
		return NULL;
	if (*q == '@') {
		at = q;
		q = name_end(q + 1);
		if (q == at + 1)
			return NULL;
	}
	if (*q == ':') {
		t = q + 1;
		if (*t != '~' && *t != '/')
			return NULL;
		e = t + strcspn(t, " \t");
		if (e - t > 1 && strchr("$#", e[-1]))
			return after_sign(e - 1);
		if (at || *e != ' ')
			return NULL;
		t = name_end(e + 1);
		return t > e + 1 && *t == '$' ? after_sign(t) : NULL;
	}
	if (at && *q == ' ') {
		t = q + 1;
		e = t + strcspn(t, " \t");
		if (e == t || *e != ' ' || !strchr("%#", e[1]))
			return NULL;
		return after_sign(e + 1);
	}
	/* "host% cmd": zsh's default; "100% done" is no host, and the
	 * command must be one this project reads */
	if (!at && *q == '%' && isalpha((unsigned char)*s)) {
		c = after_sign(q);
		return c && *c && known_command(c) ? c : NULL;
	}
	return NULL;
}

/* the command of a prompt line; "" for a prompt with none (it ends the
 * part before it); NULL when the line is no prompt.  A virtualenv's or
 * conda's "(env) " may come first, and a quote mark before all: ">[root@h
 * ~]# cmd" is a markdown quote whose output lines follow unmarked (a lazy
 * continuation), so the file as a whole is no mail reply to unquote. */
static const char *prompt(const char *s)
{
	const char *p, *c;

	while (*s == ' ' || *s == '\t')
		s++;
	if (s[0] == '>')
		for (s++; *s == ' '; s++)
			;
	if (s[0] == '(' && (p = strchr(s, ')')) && p - s < 64 && p[1] == ' ')
		for (s = p + 2; *s == ' '; s++)
			;
	/* "#ethtool --show-pause eth0": the blank after the prompt lost */
	if ((s[0] == '$' || s[0] == '#') && isalpha((unsigned char)s[1]) &&
	    known_command(s + 1) && (p = strchr(s, ' ')) && p[1] == '-')
		return s + 1;
	/* "$ cmd", "# cmd"; a lone '#' is a comment, a lone '$' a prompt */
	if (s[0] == '$' || s[0] == '#') {
		if (!(c = after_sign(s)))
			return NULL;
		if (!*c)
			return s[0] == '$' ? c : NULL;
		return s[0] == '$' || known_command(c) ? c : NULL;
	}
	/* "[user@host dir]$ cmd", "[root@host ~]# cmd" */
	if (s[0] == '[') {
		p = strchr(s, ']');
		if (!p || p - s >= 128 || !memchr(s, '@', (size_t)(p - s)) ||
		    (p[1] != '$' && p[1] != '#'))
			return NULL;
		return after_sign(p + 1);
	}
	return host_prompt(s);
}

/* "ulimit -Hn", "ulimit -S -u": a limit other than locked memory, the
 * one the limits readers take (-l, or all of them with -a) */
static int ulimit_other(const char *opt)
{
	int other = 0;

	for (; *opt; opt += strcspn(opt, " "), opt += strspn(opt, " ")) {
		const char *c;

		if (*opt != '-')
			continue;	/* a value being set */
		for (c = opt + 1; *c && *c != ' '; c++) {
			if (*c == 'l' || *c == 'a')
				return 0;
			if (*c != 'S' && *c != 'H')
				other = 1;
		}
	}
	return other;
}

/* ethtool's settings no check reads (ring sizes, coalescing, offloads,
 * channels, time stamping, flow rules, self-test, EEE): "ethtool -g eth0"
 * beside the -S and -a a ticket was asked for is no unread evidence;
 * -m (the cable module) and --show-priv-flags are, and stay relevant;
 * nor is a ulimit of any limit but locked memory */
int imp_command_unchecked(const char *cmd)
{
	static const char *const t[] = {
		"-g", "--show-ring", "-c", "--show-coalesce", "-k",
		"--show-features", "--show-offload", "-l", "--show-channels",
		"-T", "--show-time-stamping", "-n", "-u", "--show-nfc",
		"--show-ntuple", "-t", "--test", "--show-eee", "-x",
		"--show-rxfh-indir", "--show-rxfh", "-P", "--show-permaddr",
	};
	char name[1024];
	const char *opt;
	size_t i, n;

	if (imp_command_name(cmd, name, sizeof(name)) < 0)
		return 0;
	if (starts_with(name, "ulimit "))
		return ulimit_other(name + 7);
	if (!starts_with(name, "ethtool "))
		return 0;
	opt = name + 8;
	n = strcspn(opt, " ");
	for (i = 0; i < ARRAY_SIZE(t); i++)
		if (strlen(t[i]) == n && !strncmp(opt, t[i], n))
			return 1;
	return 0;
}

/* the commands whose output is evidence of the kind rdma-analyze checks
 * (RDMA, its drivers, the fabric, the PCIe and network under it): a part
 * printed by any other ("service opensmd restart", "sudo rmmod ...") that
 * no reader takes is no unread evidence */
int imp_command_relevant(const char *cmd)
{
	static const char *const not[] = {
		"cat", "ls", "grep", "egrep", "zgrep", "tail", "head", "sudo",
		"env", "less", "more", "uname", "uptime", "hostname", "numactl",
		"lscpu", "mpirun", "srun", "sysctl", "nvidia-smi",
	};
	char name[1024];
	size_t i, n;

	if (imp_command_name(cmd, name, sizeof(name)) < 0)
		return 0;
	n = strcspn(name, " ");
	for (i = 0; i < ARRAY_SIZE(not); i++)
		if (strlen(not[i]) == n && !strncmp(name, not[i], n))
			return 0;
	if (imp_command_unchecked(cmd))
		return 0;
	name[n] = 0;
	return known_command(name) || starts_with(name, "ib") ||
	       starts_with(name, "mlx") || starts_with(name, "rdma");
}

static int fence(const char *s)
{
	while (*s == ' ')
		s++;
	return !strncmp(s, "```", 3) || !strncmp(s, "~~~", 3);
}

static void add_part(struct imp_part **v, size_t *n, const char *text,
		     size_t from, size_t to, unsigned line, char *cmd)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n].text = text + from;
	(*v)[*n].len = to - from;
	(*v)[*n].line = line;
	(*v)[*n].command = cmd;
	(*n)++;
}

size_t imp_split(const char *text, size_t len, struct imp_part **out)
{
	struct imp_part *v = NULL;
	size_t n = 0, i = 0, start = 0;
	unsigned line = 1, start_line = 1;
	char *cmd = NULL, buf[1024];

	while (i < len) {
		const char *e = memchr(text + i, '\n', len - i);
		size_t k = e ? (size_t)(e - text - i) : len - i;
		size_t next = i + k + (e ? 1 : 0), m;
		const char *c;

		m = k < sizeof(buf) - 1 ? k : sizeof(buf) - 1;
		memcpy(buf, text + i, m);
		buf[m] = 0;
		c = prompt(buf);
		if (!c)
			c = bare(buf);
		if (c || fence(buf)) {
			if (i > start || cmd)
				add_part(&v, &n, text, start, i, start_line, cmd);
			cmd = c && *c ? xstrdup(c) : NULL;
			start = next;
			start_line = line + 1;
		}
		i = next;
		line++;
	}
	if (len > start || cmd)
		add_part(&v, &n, text, start, len, start_line, cmd);
	*out = v;
	return n;
}

void imp_parts_free(struct imp_part *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].command);
	free(v);
}

/* "sudo /usr/sbin/ethtool -S ens1 | grep -i err" -> "ethtool -S ens1";
 * "cat /proc/modules" -> "/proc/modules"; "grep mlx5 /var/log/messages"
 * -> "messages" (the file a filter read names the tool's output) */
int imp_command_name(const char *cmd, char *out, size_t n)
{
	char w[1024], *words[64], *save, *t;
	size_t nw = 0, i, k = 0, first = 0;

	if (!n)
		return -1;
	out[0] = 0;
	snprintf(w, sizeof(w), "%s", cmd);
	/* the first command of a pipeline or a list */
	w[strcspn(w, "|;&><")] = 0;
	for (t = strtok_r(w, " \t", &save); t && nw < ARRAY_SIZE(words);
	     t = strtok_r(NULL, " \t", &save))
		words[nw++] = t;
	/* sudo, env and NAME=value before the command */
	while (first < nw && (!strcmp(words[first], "sudo") ||
			      !strcmp(words[first], "env") ||
			      (strchr(words[first], '=') &&
			       words[first][0] != '-')))
		first++;
	if (first < nw && strrchr(words[first], '/'))
		words[first] = strrchr(words[first], '/') + 1;
	if (first == nw)
		return -1;
	if ((!strcmp(words[first], "cat") || !strcmp(words[first], "less") ||
	     !strcmp(words[first], "more") || !strcmp(words[first], "tail") ||
	     !strcmp(words[first], "head")) &&
	    first + 1 < nw && words[nw - 1][0] != '-') {
		/* the file shown is what the text is */
		snprintf(out, n, "%s", words[nw - 1]);
		return 0;
	}
	if ((!strcmp(words[first], "grep") || !strcmp(words[first], "egrep") ||
	     !strcmp(words[first], "zgrep")) && first + 2 < nw &&
	    words[nw - 1][0] != '-') {
		const char *b = strrchr(words[nw - 1], '/');

		snprintf(out, n, "%s", b ? b + 1 : words[nw - 1]);
		return 0;
	}
	for (i = first; i < nw; i++) {
		size_t l = strlen(words[i]);

		if (k + l + 2 > n)
			break;
		if (k)
			out[k++] = ' ';
		memcpy(out + k, words[i], l);
		k += l;
	}
	out[k] = 0;
	return k ? 0 : -1;
}
