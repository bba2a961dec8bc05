/* imp-named: a paste that names each file it shows, cut into the files.
 *
 * Two shapes are common in tickets, both exact copies of node files:
 *   grep . /sys/class/infiniband/x/ports/x/state   "path:line", one line
 *   grep -r "" /sys/bus/pci/devices/BDF/...        each (grep -H, -r)
 *   head FILES, tail -v -n +1 FILES              "==> path <==", the
 *                                                  file's lines, a blank
 * The path ends at the first ':' that is not inside a PCI address
 * (0000:3b:00.0, pci0000:00), as grep put it there.  grep's complaints
 * about a file it could not read ("grep: PATH: Invalid argument", as an
 * unused GID's gid_attrs/types says) are counted, not kept.  Only
 * absolute paths of a node's own files (/sys, /proc, /etc, /dev) are
 * taken: a relative name needs a directory the paste may not say.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "log.h"
#include "util.h"

static int blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

static int hexes(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* is the ':' before s inside a PCI address ("3b:00.0/", "00.0/", the
 * "00/" of pci0000:00)?  Then it is no separator. */
static int pci_colon(const char *s, const char *end)
{
	size_t n = (size_t)(end - s);

	if (n >= 8 && hexes(s, 2) && s[2] == ':' && hexes(s + 3, 2) &&
	    s[5] == '.' && isdigit((unsigned char)s[6]) && s[7] == '/')
		return 1;
	if (n >= 5 && hexes(s, 2) && s[2] == '.' &&
	    isdigit((unsigned char)s[3]) && s[4] == '/')
		return 1;
	return n >= 3 && hexes(s, 2) && s[2] == '/';
}

static int node_path(const char *p, size_t n)
{
	static const char *const tops[] = { "/sys/", "/proc/", "/etc/",
					    "/dev/" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tops); i++)
		if (n > strlen(tops[i]) && !strncmp(p, tops[i], strlen(tops[i])))
			return 1;
	return 0;
}

/* the length of the path a grep line starts with, 0 if none */
static size_t grep_path(const char *s, const char *end)
{
	const char *c;

	if (*s != '/')
		return 0;
	for (c = s; c < end && !isspace((unsigned char)*c); c++)
		if (*c == ':' && !pci_colon(c + 1, end))
			return node_path(s, (size_t)(c - s)) ? (size_t)(c - s) : 0;
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

		if (blank(p, k)) {
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

/* "==> /sys/.../state <==": the path's length, 0 if no such header */
static size_t head_path(const char *s, size_t n)
{
	if (n < 10 || strncmp(s, "==> ", 4) || strncmp(s + n - 4, " <==", 4))
		return 0;
	return node_path(s + 4, n - 8) && !memchr(s + 4, ' ', n - 8) ? n - 8 :
	       0;
}

static int cut_head(const char *text, size_t len, struct imp_named **v,
		    size_t *n)
{
	const char *p = text, *end = text + len;
	struct imp_named *f = NULL;
	size_t blanks = 0, i, pl;
	int cmdline = 0;

	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t k = e ? (size_t)(e - p) : (size_t)(end - p);

		if ((pl = head_path(p, k))) {
			/* the blank line head puts between files is none
			 * of the file's */
			f = add_file(v, n, p + 4, pl);
			blanks = 0;
		} else if (!f && !blank(p, k)) {
			static const char *const heads[] = { "head", "tail",
							     NULL };

			if (cmdline++ || !tool_line(p, k, heads))
				return 1;
		} else if (f && blank(p, k)) {
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

int imp_named_files(const char *text, size_t len, struct imp_named **out,
		    size_t *n, unsigned *failed)
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
	if (!cut_head(text, len, &v, &nv))
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
