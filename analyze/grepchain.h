/* grepchain: a pasted command line that filters a tool's output through
 * grep ("lsmod | grep -i peer", "grep nvidia_peermem /proc/modules"),
 * taken apart so that its empty output can be read for what it proves:
 * no line of the source matched every filter.
 *
 * Only filters whose meaning is certain are taken: fixed words (letters,
 * digits, '_', '-'; '.' only with -F), a leading '^', alternatives ('|'
 * with -E or egrep, '\|' in a basic expression, several -e), and the
 * options -i -w -E -F -e -n -s -h -H --color.  Any other option (-v, -q,
 * -c, -l, -o, -x ...), a regular expression, a redirection or a second
 * command makes the line no chain: an empty output then proves nothing.
 */
#ifndef RDMA_ANALYZE_GREPCHAIN_H
#define RDMA_ANALYZE_GREPCHAIN_H

#define GREP_MAX_FILTERS 8
#define GREP_MAX_ALTS 8
#define GREP_MAX_WORD 64

struct grep_filter {
	int icase, word;
	int nalt;
	struct {
		int anchored;			/* '^' */
		char text[GREP_MAX_WORD];
	} alt[GREP_MAX_ALTS];
};

struct grep_chain {
	char source[256];	/* "lsmod", "/proc/modules" (cat or grep's file) */
	int nf;
	struct grep_filter f[GREP_MAX_FILTERS];
};

/* 0 when cmd is SOURCE followed by one or more filters this file can
 * judge (then *g holds them), -1 otherwise */
int grep_chain_parse(const char *cmd, struct grep_chain *g);

/* 1 when the line s passes every filter of g (so an output of g that
 * printed nothing proves no such line was in the source), else 0 */
int grep_chain_passes(const struct grep_chain *g, const char *s);

#endif
