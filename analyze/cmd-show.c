/* cmd-show: `rdma-analyze show BUNDLE|NODE VIEW [ARGS]`, a bundle's
 * evidence printed as the familiar tool prints it, by the views (view.h,
 * views.c); NODE with --db is that node's newest bundle. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "analyze.h"
#include "breader.h"
#include "db.h"
#include "import.h"
#include "log.h"
#include "view.h"

static const char usage_text[] =
"usage: rdma-analyze show [--db FILE] BUNDLE|NODE VIEW [ARGS]\n"
"       rdma-analyze show --list\n"
"\n"
"Print a bundle's evidence as the familiar tool would (ibstat, lspci -vvv,\n"
"perfquery ...); the options of a view follow its name.\n"
"  --db FILE   NODE is a node of this database: its newest bundle\n"
"  --list      the views and their arguments\n";

static const struct option opts[] = {
	{ "db", required_argument, NULL, 'd' },
	{ "list", no_argument, NULL, 'l' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* a node name: the file of its newest bundle in the database */
static char *node_bundle(const char *dbfile, const char *node)
{
	sqlite3 *db = db_open(dbfile);
	sqlite3_stmt *s;
	char *file = NULL;

	if (!db)
		return NULL;
	s = db_query(db, "SELECT b.file FROM bundles b JOIN nodes n ON "
		     "n.id = b.node_id WHERE n.name = ? ORDER BY "
		     "b.collected_at DESC, b.id DESC LIMIT 1", "s", node);
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
		file = xstrdup((const char *)sqlite3_column_text(s, 0));
	db_done(s);
	db_close(db);
	if (!file)
		error("no node '%s' in %s", node, dbfile);
	return file;
}

static int list_views(void)
{
	size_t i;

	for (i = 0; i < nviews; i++)
		printf("%-14s %-8s %s\n", views[i]->name, views[i]->usage,
		       views[i]->help);
	return EXIT_OK;
}

int cmd_show(int argc, char **argv)
{
	const struct view *v;
	struct bundle_r *b = NULL;
	const char *dbfile = NULL;
	char err[512], *file;
	int c, list = 0, rc;

	optind = 1;
	while ((c = cmd_getopt("show", argc, argv, "+:h", opts)) != -1) {
		switch (c) {
		case 'd': dbfile = optarg; break;
		case 'l': list = 1; break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	argv += optind;
	argc -= optind;
	if (list)
		return list_views();
	if (argc < 2)
		return usage_error("show", "BUNDLE|NODE VIEW");
	v = view_find(argv[1]);
	if (!v)
		return usage_error("show", "unknown view '%s' (see rdma-analyze "
				   "show --list)", argv[1]);
	if (access(argv[0], F_OK) && dbfile)
		file = node_bundle(dbfile, argv[0]);
	else
		file = xstrdup(argv[0]);
	if (!file)
		return EXIT_INPUT;
	if (imp_or_br_open(file, NULL, &b, err, sizeof(err)) < 0) {
		error("%s: %s", file, err);
		free(file);
		return EXIT_INPUT;
	}
	rc = v->show(b, argc - 2, argv + 2, stdout) < 0 ? EXIT_INPUT : EXIT_OK;
	br_free(b);
	free(file);
	return rc;
}
