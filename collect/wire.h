/* wire: records from a source's child process to the runner.
 *
 * A record is a fixed header, then plen bytes of path and dlen bytes of
 * data.  The child writes, the parent parses whatever arrived; a record cut
 * by a kill is dropped, every complete one before it is kept.
 */
#ifndef RDMA_COLLECT_WIRE_H
#define RDMA_COLLECT_WIRE_H

#include <stddef.h>
#include <stdint.h>

enum wire_type {
	W_FILE = 'F',	/* path, data; mode; flags WF_TRUNC */
	W_LINK = 'L',	/* path, data = target */
	W_DIR = 'D',	/* path; mode */
	W_BEGIN = 'B',	/* path = device key, data = what */
	W_NOTE = 'N',	/* path = key, data = value */
	W_ERR = 'E',	/* path; mode = errno */
	W_DONE = 'Z',	/* mode = SRC_* result, data = reason */
};

#define WF_TRUNC 1

struct wire_hdr {
	uint8_t type;
	uint8_t flags;
	uint16_t pad;
	uint32_t mode;
	uint32_t plen;
	uint32_t dlen;
};

#define WIRE_MAX_PATH 4096
#define WIRE_MAX_DATA (64u << 20)

/* write one record; 0 or -errno */
int wire_send(int fd, int type, int flags, uint32_t mode, const char *path,
	      size_t plen, const void *data, size_t dlen);

#endif
