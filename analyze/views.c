/* views: the table of command-equivalent views */
#include <string.h>

#include "view.h"

int view_ibdev2netdev(const struct bundle_r *b, int argc, char **argv, FILE *out);

const struct view views[] = {
	{ "ibdev2netdev", "", "RDMA port to netdev map, as ibdev2netdev", view_ibdev2netdev },
	{ NULL, NULL, NULL, NULL },
};

const struct view *view_find(const char *name)
{
	const struct view *v;

	for (v = views; v->name; v++)
		if (!strcmp(v->name, name))
			return v;
	return NULL;
}
