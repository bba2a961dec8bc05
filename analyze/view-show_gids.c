/* view-show_gids: `show_gids [DEV]` as Mellanox/mlnx-tools' show_gids
 * script prints it from sysfs: one row per non-zero GID (tab separated,
 * `ls` order), the IPv4 column for GIDs whose first group is 0000, the
 * version from gid_attrs/types ("v1", "v2"), the netdev from
 * gid_attrs/ndevs, and the n_gids_found trailer */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "view.h"

static int hex2(const char *s)
{
	char t[3] = { s[0], s[1], 0 };

	return (int)strtol(t, NULL, 16);
}

static int port_gids(const struct bundle_r *b, const char *d, const char *p,
		     FILE *out)
{
	char dir[512], path[640], gid[64], ndev[64], type[64];
	const char **g, *v;
	size_t n, i;
	int count = 0;

	snprintf(dir, sizeof(dir), "sys/class/infiniband/%s/ports/%s", d, p);
	snprintf(path, sizeof(path), "%s/gids", dir);
	n = br_list(b, path, &g);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/gids/%s", dir, g[i]);
		if (!br_line(b, path, gid, sizeof(gid)) ||
		    !strcmp(gid, "0000:0000:0000:0000:0000:0000:0000:0000") ||
		    !strcmp(gid, "fe80:0000:0000:0000:0000:0000:0000:0000"))
			continue;
		snprintf(path, sizeof(path), "%s/gid_attrs/ndevs/%s", dir, g[i]);
		if (!br_line(b, path, ndev, sizeof(ndev)))
			ndev[0] = 0;
		snprintf(path, sizeof(path), "%s/gid_attrs/types/%s", dir, g[i]);
		if (!br_line(b, path, type, sizeof(type)))
			type[0] = 0;
		/* grep -o "[Vv].*" */
		v = strpbrk(type, "Vv");
		if (!v)
			v = "";
		if (!strncmp(gid, "0000:", 5) && strlen(gid) >= 39)
			fprintf(out, "%s\t%s\t%s\t%s\t%d.%d.%d.%d  \t%s\t%s\n", d, p,
				g[i], gid, hex2(gid + 30), hex2(gid + 32),
				hex2(gid + 35), hex2(gid + 37), v, ndev);
		else
			fprintf(out, "%s\t%s\t%s\t%s\t\t\t%s\t%s\n", d, p, g[i], gid,
				v, ndev);
		count++;
	}
	free(g);
	return count;
}

static int show(const struct bundle_r *b, int argc, char **argv, FILE *out)
{
	const char **devs, **ports;
	char path[512];
	size_t n, i, np, j;
	int count = 0, found = 0;

	if (argc > 1)
		return error("show_gids: usage: show_gids [DEV]");
	n = br_list(b, "sys/class/infiniband", &devs);
	for (i = 0; argc == 1 && i < n; i++)
		found |= !strcmp(devs[i], argv[0]);
	if (argc == 1 && !found) {
		free(devs);
		return error("show_gids: no RDMA device '%s' in the bundle", argv[0]);
	}
	fprintf(out, "DEV\tPORT\tINDEX\tGID\t\t\t\t\tIPv4  \t\tVER\tDEV\n");
	fprintf(out, "---\t----\t-----\t---\t\t\t\t\t------------  \t---\t---\n");
	for (i = 0; i < n; i++) {
		if (argc == 1 && strcmp(devs[i], argv[0]))
			continue;
		snprintf(path, sizeof(path), "sys/class/infiniband/%s/ports", devs[i]);
		np = br_list(b, path, &ports);
		for (j = 0; j < np; j++)
			count += port_gids(b, devs[i], ports[j], out);
		free(ports);
	}
	fprintf(out, "n_gids_found=%d\n", count);
	free(devs);
	return 0;
}

const struct view view_show_gids = {
	.name = "show_gids",
	.usage = "[DEV]",
	.help = "GID table as show_gids (sysfs)",
	.show = show,
};
