/* fuzz-pairs: the pairs CSV (analyze/pairs-input.c, pin_csv) read from a
 * file, as `rdma-analyze pairs --results FILE` reads it.  The topology is
 * that of an empty database: every name becomes a host, so each row that
 * parses goes on to be resolved and recorded as an observation. */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "db.h"
#include "fuzz.h"
#include "log.h"
#include "pairs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static sqlite3 *db;
	static char path[64];
	static int fd = -1;
	struct pmodel pm;
	struct pinputs in;
	struct ptopo t;

	if (fd < 0) {
		/* one file, rewritten per input: pin_csv opens a path */
		fd = memfd_create("pairs.csv", 0);
		db = db_open(":memory:");
		if (fd < 0 || !db)
			die("cannot set up the pairs target");
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		die("cannot write the input");
	pm_init(&pm);
	pin_init(&in);
	pt_load(&t, db, &pm);
	pin_csv(&t, &in, path);
	pin_release(&in);
	pt_release(&t);
	pm_release(&pm);
	return 0;
}
