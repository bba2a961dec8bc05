/* grepchain: a tool's output filtered through grep, as a pasted command
 * line says (grepchain.h).  The line is split as a shell would (quotes,
 * backslashes, '|'); anything a shell would do more (a variable, a
 * redirection, a second command) makes it no chain. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "grepchain.h"
#include "log.h"
#include "util.h"

#define MAX_STAGES (GREP_MAX_FILTERS + 1)
#define MAX_WORDS 32
#define WORD_LEN 256

struct stage {
	int n;
	char w[MAX_WORDS][WORD_LEN];
};

/* append c to the current word; -1 when it does not fit */
static int word_add(struct stage *st, size_t *k, char c)
{
	if (st->n >= MAX_WORDS || *k + 1 >= WORD_LEN)
		return -1;
	st->w[st->n][(*k)++] = c;
	st->w[st->n][*k] = 0;
	return 0;
}

/* shell words of each '|' stage of cmd; the number of stages, or -1 */
static int split(const char *s, struct stage *v)
{
	int ns = 1, inword = 0;
	size_t k = 0;
	struct stage *st = v;

	for (; *s; s++) {
		char c = *s;

		if (c == ' ' || c == '\t' || c == '|') {
			if (inword)
				st->n++;
			inword = 0;
			k = 0;
			if (c != '|')
				continue;
			if (s[1] == '|' || !st->n || ns == MAX_STAGES)
				return -1;
			st = &v[ns++];
			continue;
		}
		if (strchr(";&<>`$()", c))
			return -1;
		inword = 1;
		if (c == '\\') {
			if (!*++s || word_add(st, &k, *s) < 0)
				return -1;
		} else if (c == '\'') {
			for (s++; *s && *s != '\''; s++)
				if (word_add(st, &k, *s) < 0)
					return -1;
			if (!*s)
				return -1;
		} else if (c == '"') {
			for (s++; *s && *s != '"'; s++) {
				if (*s == '$' || *s == '`')
					return -1;
				if (*s == '\\' && s[1] && strchr("\"\\", s[1]))
					s++;
				if (word_add(st, &k, *s) < 0)
					return -1;
			}
			if (!*s)
				return -1;
		} else if (word_add(st, &k, c) < 0) {
			return -1;
		}
	}
	if (inword)
		st->n++;
	return st->n ? ns : -1;
}

/* one alternative: an optional '^', then word characters ('.' literal
 * only with -F) */
static int alt_add(struct grep_filter *f, const char *s, size_t len,
		   int fixed)
{
	size_t i;

	if (f->nalt == GREP_MAX_ALTS)
		return -1;
	f->alt[f->nalt].anchored = 0;
	if (!fixed && len && s[0] == '^') {
		f->alt[f->nalt].anchored = 1;
		s++;
		len--;
	}
	if (!len || len >= GREP_MAX_WORD)
		return -1;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-' &&
		    !(fixed && s[i] == '.'))
			return -1;
	memcpy(f->alt[f->nalt].text, s, len);
	f->alt[f->nalt].text[len] = 0;
	f->nalt++;
	return 0;
}

/* a pattern's alternatives: '|' in an extended expression, "\|" in a
 * basic one (GNU), none in a fixed string */
static int pattern_add(struct grep_filter *f, const char *p, int ext,
		       int fixed)
{
	const char *sep = fixed ? NULL : ext ? "|" : "\\|";

	for (;;) {
		const char *e = sep ? strstr(p, sep) : NULL;
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (alt_add(f, p, len, fixed) < 0)
			return -1;
		if (!e)
			return 0;
		p = e + strlen(sep);
	}
}

static int long_option(const char *o, int *icase, int *word, int *ext,
		       int *fixed)
{
	static const char *const harmless[] = {
		"--color", "--colour", "--no-filename", "--with-filename",
		"--line-number", "--no-messages",
	};
	size_t i;

	if (!strcmp(o, "--ignore-case"))
		return *icase = 1, 0;
	if (!strcmp(o, "--word-regexp"))
		return *word = 1, 0;
	if (!strcmp(o, "--extended-regexp"))
		return *ext = 1, 0;
	if (!strcmp(o, "--fixed-strings"))
		return *fixed = 1, 0;
	for (i = 0; i < ARRAY_SIZE(harmless); i++)
		if (!strcmp(o, harmless[i]) ||
		    (starts_with(o, harmless[i]) && o[strlen(harmless[i])] == '='))
			return 0;
	return -1;
}

/* a grep stage: its filter in *f, its file (if one) in file; 0 or -1 */
static int grep_stage(const struct stage *st, struct grep_filter *f,
		      const char **file)
{
	const char *name = st->w[0], *pat[GREP_MAX_ALTS], *pos[2];
	int icase = 0, word = 0, ext, fixed, npat = 0, npos = 0, opts = 1, i;

	if (strcmp(name, "grep") && strcmp(name, "egrep") && strcmp(name, "fgrep"))
		return -1;
	ext = !strcmp(name, "egrep");
	fixed = !strcmp(name, "fgrep");
	for (i = 1; i < st->n; i++) {
		const char *w = st->w[i];

		if (opts && !strcmp(w, "--")) {
			opts = 0;
		} else if (opts && starts_with(w, "--regexp=")) {
			if (npat == GREP_MAX_ALTS)
				return -1;
			pat[npat++] = w + 9;
		} else if (opts && w[0] == '-' && w[1] == '-') {
			if (long_option(w, &icase, &word, &ext, &fixed) < 0)
				return -1;
		} else if (opts && w[0] == '-' && w[1]) {
			const char *c;

			for (c = w + 1; *c; c++) {
				if (*c == 'e') {
					if (npat == GREP_MAX_ALTS ||
					    (!c[1] && i + 1 == st->n))
						return -1;
					pat[npat++] = c[1] ? c + 1 : st->w[++i];
					break;
				}
				if (*c == 'i')
					icase = 1;
				else if (*c == 'w')
					word = 1;
				else if (*c == 'E')
					ext = 1;
				else if (*c == 'F')
					fixed = 1;
				else if (!strchr("nshH", *c))
					return -1;
			}
		} else {
			if (npos == 2)
				return -1;
			pos[npos++] = w;
		}
	}
	if (!npat && npos) {
		pat[npat++] = pos[0];
		memmove(pos, pos + 1, sizeof(*pos));
		npos--;
	}
	if (!npat || npos > 1)
		return -1;
	*file = npos ? pos[0] : NULL;
	memset(f, 0, sizeof(*f));
	f->icase = icase;
	f->word = word;
	for (i = 0; i < npat; i++)
		if (pattern_add(f, pat[i], ext, fixed) < 0)
			return -1;
	return 0;
}

static int chain(struct stage *v, int ns, struct grep_chain *g)
{
	struct stage *st = v;
	const char *file = NULL;
	int i;

	/* "sudo" before the source */
	if (!strcmp(st->w[0], "sudo")) {
		memmove(st->w, st->w + 1, sizeof(st->w[0]) * (size_t)(st->n - 1));
		if (!--st->n)
			return -1;
	}
	if (!strcmp(st->w[0], "cat") && st->n == 2)
		file = st->w[1];
	else if (!strcmp(st->w[0], "lsmod") && st->n == 1)
		file = "lsmod";
	else if (grep_stage(st, &g->f[g->nf], &file) == 0 && file)
		g->nf++;
	else
		return -1;
	snprintf(g->source, sizeof(g->source), "%s", file);
	for (i = 1; i < ns; i++) {
		if (g->nf == GREP_MAX_FILTERS ||
		    grep_stage(&v[i], &g->f[g->nf], &file) < 0 || file)
			return -1;
		g->nf++;
	}
	return g->nf ? 0 : -1;
}

int grep_chain_parse(const char *cmd, struct grep_chain *g)
{
	struct stage *v;
	int ns, rc = -1;

	memset(g, 0, sizeof(*g));
	if (!cmd)
		return -1;
	v = xcalloc(MAX_STAGES, sizeof(*v));
	ns = split(cmd, v);
	if (ns > 0)
		rc = chain(v, ns, g);
	free(v);
	if (rc < 0)
		memset(g, 0, sizeof(*g));
	return rc;
}

static int word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static int alt_passes(const struct grep_filter *f, int k, const char *s)
{
	const char *t = f->alt[k].text;
	size_t tl = strlen(t), sl = strlen(s), i;

	for (i = 0; i + tl <= sl; i++) {
		if (f->alt[k].anchored && i)
			break;
		if (f->icase ? strncasecmp(s + i, t, tl) : strncmp(s + i, t, tl))
			continue;
		if (f->word && ((i && word_char(s[i - 1])) ||
				(s[i + tl] && word_char(s[i + tl]))))
			continue;
		return 1;
	}
	return 0;
}

int grep_chain_passes(const struct grep_chain *g, const char *s)
{
	int i, k, any;

	for (i = 0; i < g->nf; i++) {
		for (k = 0, any = 0; k < g->f[i].nalt && !any; k++)
			any = alt_passes(&g->f[i], k, s);
		if (!any)
			return 0;
	}
	return g->nf > 0;
}
