/* wire: the child side of the source pipe */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "wire.h"

static int write_all(int fd, const void *p, size_t n)
{
	const char *s = p;

	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

int wire_send(int fd, int type, int flags, uint32_t mode, const char *path,
	      size_t plen, const void *data, size_t dlen)
{
	struct wire_hdr h;
	int rc;

	if (plen > WIRE_MAX_PATH || dlen > WIRE_MAX_DATA)
		return -E2BIG;
	memset(&h, 0, sizeof(h));
	h.type = (uint8_t)type;
	h.flags = (uint8_t)flags;
	h.mode = mode;
	h.plen = (uint32_t)plen;
	h.dlen = (uint32_t)dlen;
	rc = write_all(fd, &h, sizeof(h));
	if (!rc && plen)
		rc = write_all(fd, path, plen);
	if (!rc && dlen)
		rc = write_all(fd, data, dlen);
	return rc;
}
