/* environ: the slice of a process environment that RDMA diagnosis needs
 * (NCCL_*, UCX_*, OMPI_*, MLX5_*, CUDA_VISIBLE_DEVICES), as the
 * rdma-collect/environ/<who>.env text form of schema/BUNDLE.md */
#ifndef RDMA_COLLECT_ENVIRON_H
#define RDMA_COLLECT_ENVIRON_H

#include <stddef.h>

#include "buf.h"

/* 1 if NAME (n bytes, without '=') is one we keep */
int environ_wanted(const char *name, size_t n);
/* filter a NUL-separated environment block (as /proc/PID/environ) */
void environ_filter(const char *block, size_t len, struct buf *out);

#endif
