/* imp-named: a paste that names each file it shows, cut into the files.
 *
 * Three shapes are common in tickets, all exact copies of node files:
 *   grep . /sys/class/infiniband/x/ports/x/state   "path:line", one line
 *   grep -r "" /sys/bus/pci/devices/BDF/...        each (grep -H, -r)
 *   head FILES, tail -v -n +1 FILES              "==> path <==", the
 *                                                  file's lines, a blank
 *   DIR$ for f in *; do echo "=== $f ==="; cat $f; echo; done
 *                                                  "=== ./name ===", the
 *                                                  lines; the name under
 *                                                  the folder the prompt
 *                                                  (or a cd) shows
 * The path ends at the first ':' that is not inside a PCI address
 * (0000:3b:00.0, pci0000:00), as grep put it there.  grep's complaints
 * about a file it could not read ("grep: PATH: Invalid argument", as an
 * unused GID's gid_attrs/types says) are counted, not kept.  Only a
 * node's own files (/sys, /proc, /etc, /dev) are taken: a relative name
 * only under a folder the paste says.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "imp.h"
#include "log.h"
#include "util.h"

/* is the ':' before s inside a PCI address ("3b:00.0/", "00.0/", the
 * "00/" of pci0000:00)?  Then it is no separator. */
static int pci_colon(const char *s, const char *end)
{
	size_t n = (size_t)(end - s);

	if (n >= 8 && all_hex(s, 2) && s[2] == ':' && all_hex(s + 3, 2) &&
	    s[5] == '.' && isdigit((unsigned char)s[6]) && s[7] == '/')
		return 1;
	if (n >= 5 && all_hex(s, 2) && s[2] == '.' &&
	    isdigit((unsigned char)s[3]) && s[4] == '/')
		return 1;
	return n >= 3 && all_hex(s, 2) && s[2] == '/';
}

static int node_path(const char *p, size_t n)
{
	static const char *const tops[] = { "/sys/", "/proc/", "/etc/",
					    "/dev/" };
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(tops); i++) {
		k = strlen(tops[i]);
		if (n > k && !strncmp(p, tops[i], k))
			return 1;
	}
	return 0;
}

/* the length of the path a grep line starts with, 0 if none */
static size_t grep_path(const char *s, const char *end)
{
	const char *c;
	size_t n;

	if (*s != '/')
		return 0;
	for (c = s; c < end && !isspace((unsigned char)*c); c++)
		if (*c == ':' && !pci_colon(c + 1, end)) {
			n = (size_t)(c - s);
			return node_path(s, n) ? n : 0;
		}
	return 0;
}

static struct imp_named *add_file(struct imp_named **v, size_t *n,
				  const char *path, size_t plen)
{
	struct imp_named *f;

	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	f = &(*v)[(*n)++];
	f->path = xstrndup(path + 1, plen - 1);
	f->data = xstrndup("", 0);
	f->len = 0;
	return f;
}

static void add_line(struct imp_named *f, const char *s, size_t n)
{
	f->data = xrealloc(f->data, f->len + n + 2);
	memcpy(f->data + f->len, s, n);
	f->len += n;
	f->data[f->len++] = '\n';
	f->data[f->len] = 0;
}

/* the command line itself pasted above its output, behind a prompt
 * the splitter did not take ("> tail -v -n +1 FILES", fish's): is s
 * such a line of one of the tools? */
static int tool_line(const char *s, size_t n, const char *const *tools)
{
	char w[32];
	size_t k, i;

	while (n && strchr("$#>% \t", *s)) {
		s++;
		n--;
	}
	if (n > 5 && !strncmp(s, "sudo ", 5)) {
		s += 5;
		n -= 5;
	}
	for (k = 0; k < n && k < sizeof(w) - 1 && !isspace((unsigned char)s[k]);
	     k++)
		w[k] = s[k];
	w[k] = 0;
	if (k == n)
		return 0;
	for (i = 0; tools[i]; i++)
		if (!strcmp(w, tools[i]))
			return 1;
	return 0;
}

/* a "grep: PATH: reason" or "Binary file PATH matches" line */
static int grep_complaint(const char *s, size_t n)
{
	return (n > 7 && !strncmp(s, "grep: /", 7)) ||
	       (n > 13 && !strncmp(s, "Binary file /", 13));
}

static int cut_grep(const char *text, size_t len, struct imp_named **v,
		    size_t *n, unsigned *failed)
{
	const char *p = text, *end = text + len;
	struct imp_named *f = NULL;

	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t k = e ? (size_t)(e - p) : (size_t)(end - p), pl;

		if (all_blank(p, k)) {
			p += k + 1;
			continue;
		}
		if (grep_complaint(p, k)) {
			(*failed)++;
			p += k + 1;
			continue;
		}
		if (!(pl = grep_path(p, p + k))) {
			static const char *const greps[] = { "grep", "egrep",
							     NULL };

			if (f || *failed || !tool_line(p, k, greps))
				return 1;
			p += k + 1;	/* its command line */
			continue;
		}
		if (!f || strlen(f->path) != pl - 1 ||
		    strncmp(f->path, p + 1, pl - 1))
			f = add_file(v, n, p, pl);
		add_line(f, p + pl + 1, k - pl - 1);
		p += k + 1;
	}
	return *n ? 0 : 1;
}

/* "==> /sys/.../state <==" (head, tail -v) or "=== ./state ===" (a
 * loop's echo): where the name starts and its length, 0 if no header */
static size_t header_name(const char *s, size_t n, const char **name)
{
	static const char *const marks[][2] = { { "==> ", " <==" },
						{ "=== ", " ===" } };
	size_t i;

	for (i = 0; n > 8 && i < ARRAY_SIZE(marks); i++)
		if (!strncmp(s, marks[i][0], 4) &&
		    !strncmp(s + n - 4, marks[i][1], 4) &&
		    !memchr(s + 4, ' ', n - 8)) {
			*name = s + 4;
			return n - 8;
		}
	return 0;
}

/* the folder a line before the output says the shell was in: a prompt
 * showing it ("/sys/class/infiniband/mlx5_1/ports/1/counters$ for f in
 * *", "[root@h /sys/...]#") or a "cd DIR"; 0 with it in dir */
static int line_dir(const char *s, size_t n, char *dir, size_t dn)
{
	const char *end = s + n, *t, *e;

	for (t = s; t < end; t++) {
		if (*t != '/' || (t > s && !strchr(" :[", t[-1])))
			continue;
		for (e = t; e < end && !isspace((unsigned char)*e) &&
			    !strchr("$#]", *e); e++)
			;
		if (!node_path(t, (size_t)(e - t)) || (size_t)(e - t) >= dn)
			continue;
		if ((e < end && strchr("$#]", *e)) ||
		    (t - s >= 3 && !strncmp(t - 3, "cd ", 3))) {
			memcpy(dir, t, (size_t)(e - t));
			dir[e - t] = 0;
			while (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')
				dir[strlen(dir) - 1] = 0;
			return 0;
		}
	}
	return 1;
}

/* a header's file: its absolute path, or its name under dir */
static struct imp_named *header_file(struct imp_named **v, size_t *n,
				     const char *name, size_t nl,
				     const char *dir)
{
	char path[1024];
	int k;

	if (*name == '/')
		return node_path(name, nl) ? add_file(v, n, name, nl) : NULL;
	if (!*dir || strstr(name, ".."))
		return NULL;
	if (nl > 2 && !strncmp(name, "./", 2)) {
		name += 2;
		nl -= 2;
	}
	k = snprintf(path, sizeof(path), "%s/%.*s", dir, (int)nl, name);
	if (k < 0 || (size_t)k >= sizeof(path))
		return NULL;
	return add_file(v, n, path, (size_t)k);
}

/* the lines before the first header: the command line (head, tail),
 * or a loop's lines under a prompt that shows its folder */
#define MAX_PRE 8

static int cut_head(const char *text, size_t len, const char *above,
		    size_t alen, struct imp_named **v, size_t *n)
{
	static const char *const heads[] = { "head", "tail", NULL };
	const char *p = text, *end = text + len, *name;
	struct imp_named *f = NULL;
	size_t blanks = 0, i, nl;
	int pre = 0, tool = 0;
	char dir[512] = "";

	if (above)
		line_dir(above, alen, dir, sizeof(dir));
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t k = e ? (size_t)(e - p) : (size_t)(end - p);

		if ((nl = header_name(p, k, &name))) {
			if (!f && pre && !*dir && !(pre == 1 && tool))
				return 1;
			/* the blank line between files is none of the
			 * file's */
			if (!(f = header_file(v, n, name, nl, dir)))
				return 1;
			blanks = 0;
		} else if (!f && !all_blank(p, k)) {
			if (++pre > MAX_PRE)
				return 1;
			tool |= tool_line(p, k, heads);
			if (!*dir)
				line_dir(p, k, dir, sizeof(dir));
		} else if (f && all_blank(p, k)) {
			blanks++;
		} else if (f) {
			for (i = 0; i < blanks; i++)
				add_line(f, "", 0);
			blanks = 0;
			add_line(f, p, k);
		}
		p += k + 1;
	}
	return *n ? 0 : 1;
}

int imp_named_files(const char *text, size_t len, const char *above,
		    size_t alen, struct imp_named **out, size_t *n,
		    unsigned *failed)
{
	struct imp_named *v = NULL;
	size_t nv = 0;

	*out = NULL;
	*n = 0;
	*failed = 0;
	if (!cut_grep(text, len, &v, &nv, failed))
		goto found;
	imp_named_free(v, nv);
	v = NULL;
	nv = 0;
	*failed = 0;
	if (!cut_head(text, len, above, alen, &v, &nv))
		goto found;
	imp_named_free(v, nv);
	return 1;
found:
	*out = v;
	*n = nv;
	return 0;
}

void imp_named_free(struct imp_named *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].data);
	}
	free(v);
}
