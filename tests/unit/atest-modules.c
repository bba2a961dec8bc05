/* atest-modules: the /proc/modules line parser the loader, the lsmod view
 * and the importers share: the kernel's lines (m_show() in
 * kernel/module/procfs.c: deps each followed by ',', "-" for none, the
 * offset zeroed under kptr_restrict, taints after it), lines lsmod's table
 * or a cut paste give it, and names a module cannot have */
#include <stdio.h>
#include <string.h>

#include "modules.h"
#include "t.h"

static const struct {
	const char *line;
	int fields, whole;
	const char *name, *deps, *state;
} lines[] = {
	{ "mlx5_ib 512000 0 - Live 0x0000000000000000", 6, 1,
	  "mlx5_ib", "", "Live" },
	{ "ib_core 499712 8 rdma_ucm,ib_ipoib,ib_umad,mlx5_ib,ib_uverbs, "
	  "Live 0xffffffffc0a1b000", 6, 1, "ib_core",
	  "rdma_ucm,ib_ipoib,ib_umad,mlx5_ib,ib_uverbs", "Live" },
	{ "nvidia_peermem 16384 0 - Live 0x0000000000000000 (POE)", 6, 1,
	  "nvidia_peermem", "", "Live" },
	{ "mlx5_core 2359296 1 mlx5_ib, Loading 0x0000000000000000", 6, 1,
	  "mlx5_core", "mlx5_ib", "Loading" },
	/* lsmod's table row: name, size, users count, users */
	{ "ib_uverbs            172032  2 rdma_ucm,mlx5_ib", 4, 0,
	  "ib_uverbs", "rdma_ucm,mlx5_ib", NULL },
	{ "mlx5_ib 512000 0 - Live", 5, 0, "mlx5_ib", "", "Live" },
	{ "mlx5_ib 512000 0 - Dead 0x0", 6, 0, "mlx5_ib", "", "Dead" },
	{ "mlx5_ib 51x000 0 - Live 0x0", 6, 0, "mlx5_ib", "", "Live" },
	{ "mlx5_ib 512000 0 - Live ffff", 6, 0, "mlx5_ib", "", "Live" },
	{ "mlx5/ib 512000 0 - Live 0x0", 6, 0, "mlx5/ib", "", "Live" },
	{ "Module                  Size  Used by", 4, 0, NULL, NULL, NULL },
	{ "", 0, 0, NULL, NULL, NULL },
	{ "   ", 0, 0, NULL, NULL, NULL },
};

int main(void)
{
	char big[200];
	size_t i;

	for (i = 0; i < sizeof(lines) / sizeof(*lines); i++) {
		struct proc_module m;
		int k = proc_module_parse(lines[i].line, &m);

		T_OK(k == lines[i].fields, "'%s': %d fields (want %d)",
		     lines[i].line, k, lines[i].fields);
		T_OK(proc_module_line(lines[i].line) == lines[i].whole,
		     "'%s': %sa whole /proc/modules line", lines[i].line,
		     lines[i].whole ? "" : "not ");
		if (lines[i].name)
			T_STREQ(m.name, lines[i].name, "'%s': name",
				lines[i].line);
		if (lines[i].deps)
			T_STREQ(m.deps, lines[i].deps, "'%s': users",
				lines[i].line);
		if (lines[i].state)
			T_STREQ(m.state, lines[i].state, "'%s': state",
				lines[i].line);
	}
	T_OK(module_name_ok("mlx5_ib") && module_name_ok("rdma-rxe") &&
	     !module_name_ok("") && !module_name_ok("a b") &&
	     !module_name_ok("../x") && !module_name_ok("\x1b[31m"),
	     "module names: [A-Za-z0-9_-] only");
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	T_OK(!module_name_ok(big), "a 199-byte name is refused");
	big[64] = 0;
	T_OK(!module_name_ok(big), "a 64-byte name is refused");
	big[63] = 0;
	T_OK(module_name_ok(big), "a 63-byte name is taken (longer than the kernel allows, 55)");
	return t_done();
}
