/* merge.h: bundles of several databases copied into one (merge.c) */
#ifndef MERGE_H
#define MERGE_H

/* the N databases DBS into OUT, then diagnosed there; EXIT_OK, or
 * EXIT_INPUT when one could not be read or written (analyze.h) */
int merge_dbs(const char *out, char *const *dbs, int n);

#endif
