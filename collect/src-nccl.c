/* src-nccl: the NCCL configuration the node would give a job: the
 * collector's own environment (filtered) and the NCCL config files */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "environ.h"
#include "src.h"
#include "util.h"

extern char **environ;

static int collect(struct ctx *c)
{
	struct buf out = BUF_INIT;
	const char *conf = getenv("NCCL_CONF_FILE");
	char **e;
	int files = 0;

	if (!ctx_file(c, "/etc/nccl.conf"))
		files++;
	if (conf && conf[0] == '/' && !ctx_file(c, conf))
		files++;
	if (ctx_is_root(c)) {
		if (ctx_stored(c, "environ/self.env") >= 0)
			files++;
	} else {
		for (e = environ; *e; e++) {
			/* one variable: reuse the block filter */
			environ_filter(*e, strlen(*e), &out);
		}
		ctx_emit_buf(c, "environ/self.env", &out);
		{
			size_t i, lines = 0;

			for (i = 0; i < out.len; i++)
				lines += out.buf[i] == '\n';
			ctx_note(c, "variables", "%zu", lines);
		}
	}
	buf_release(&out);
	if (!files && ctx_is_root(c)) {
		ctx_reason(c, "no /etc/nccl.conf and no stored environment "
			   "under the root");
		return SRC_ABSENT;
	}
	return SRC_OK;
}

const struct source src_nccl = {
	.name = "nccl",
	.help = "NCCL settings: /etc/nccl.conf, NCCL_CONF_FILE, the collector's NCCL/UCX/MPI/MLX5 environment",
	.flags = SRC_F_STORED,
	.timeout_ms = 3000,
	.max_bytes = 1u << 20,
	.collect = collect,
};
