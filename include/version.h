/* version: what --version prints besides VERSION, made by the Makefile
 * ($(BUILD)/gen/build-info.c) */
#ifndef RDMA_VERSION_H
#define RDMA_VERSION_H

extern const char build_commit[];	/* "1a2b3c4d5e6f", "...-dirty", "unknown" */
extern const char build_linkage[];	/* "dynamic" or "static" */
/* the rdma-core linked into a static collector ("44.0-2"); "" otherwise */
extern const char build_rdma_core[];

#endif
