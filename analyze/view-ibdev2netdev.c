/* view-ibdev2netdev: "mlx5_0 port 1 ==> ens1f0np0 (Up)", as mlx-tools'
 * ibdev2netdev prints it */
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "view.h"

static int show(const struct bundle_r *b, int argc, char **argv, FILE *out)
{
	struct jv *map = br_json(b, "rdma-collect/ibdev2netdev.json");
	size_t i;

	(void)argv;
	if (argc > 0)
		return error("ibdev2netdev takes no arguments");
	if (!map)
		return error("%s: no rdma-collect/ibdev2netdev.json (no RDMA "
			     "device, or the sysfs source did not run)", b->file);
	for (i = 0; i < jlen(map); i++) {
		const struct jv *e = jat(map, i);
		const char *nd = jstr(e, "netdev");
		char p[512], state[32];

		if (!jstr(e, "ibdev") || !nd)
			continue;
		snprintf(p, sizeof(p), "sys/class/net/%s/operstate", nd);
		if (!br_line(b, p, state, sizeof(state)))
			state[0] = 0;
		fprintf(out, "%s port %lld ==> %s (%s)\n", jstr(e, "ibdev"),
			(long long)jint(e, "port", 0), nd,
			!strcmp(state, "up") ? "Up" : "Down");
	}
	jfree(map);
	return 0;
}

const struct view view_ibdev2netdev = {
	.name = "ibdev2netdev",
	.usage = "",
	.help = "RDMA port to netdev map, as ibdev2netdev",
	.show = show,
};
