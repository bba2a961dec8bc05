/* diff.h: two bundles or nodes side by side (diff.c) */
#ifndef DIFF_H
#define DIFF_H

/* A and B: bundle files or imports, or with DBFILE node names (their
 * newest bundle); printed as text or JSON; EXIT_OK the same,
 * EXIT_DIFFERENT, or EXIT_INPUT (analyze.h) */
int diff_two(const char *dbfile, const char *a, const char *b, int json,
	     int all);

#endif
