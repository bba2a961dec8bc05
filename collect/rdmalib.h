/* rdmalib: how the collector reaches rdma-core's libraries (libibverbs,
 * libibumad, libibmad, libibnetdisc).  The dynamic build opens them with
 * dlopen at run time, never linked, so a node with rdma-core missing or
 * broken still gets a bundle; the static build (make static) has them
 * linked in, providers included, and looks the same functions up in a
 * table.  The sources see one interface either way. */
#ifndef RDMA_COLLECT_RDMALIB_H
#define RDMA_COLLECT_RDMALIB_H

#include <stddef.h>

/* the library named by its file name (libibverbs.so.1, ...), or NULL with
 * rdmalib_error() saying why */
void *rdmalib_open(const char *file);
const char *rdmalib_error(void);
/* a function of the library, or NULL */
void *rdmalib_sym(void *h, const char *name);
/* the file the library was loaded from (its real name, no folder) for
 * the manifest: 0, or -1 when it cannot be said */
int rdmalib_file(void *h, char *buf, size_t len);
void rdmalib_close(void *h);

#endif
