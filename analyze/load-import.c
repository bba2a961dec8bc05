/* load-import: the loader's part of an import: its kind and notes, and
 * which input file each bundle path came from (schema/004-import.sql) */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "load.h"
#include "log.h"

int load_import(struct ld *l)
{
	const struct jv *im = jget(l->b->manifest, "import"), *notes, *inputs;
	const char *p, *org, *kind = jstr(im, "kind");
	struct buf nb = BUF_INIT;
	size_t len, i;
	int rc;

	if (!kind)
		return 0;	/* a bundle rdma-collect wrote */
	notes = jget(im, "notes");
	for (i = 0; i < jlen(notes); i++) {
		const struct jv *n = jat(notes, i);

		if (n->t == J_STR)
			buf_addf(&nb, "%s%s", nb.len ? "\n" : "", n->s);
	}
	rc = ld_exec(l, "INSERT INTO imports (bundle_id, kind, input, files, "
		     "unused, notes) VALUES (?, ?, ?, ?, ?, ?)", "issiis", l->bid,
		     kind, jstr(im, "input"), jint(im, "files", 0),
		     jint(im, "unused", 0), nb.len ? nb.buf : NULL);
	buf_release(&nb);
	inputs = jget(im, "inputs");
	for (i = 0; !rc && i < jlen(inputs); i++) {
		const struct jv *x = jat(inputs, i);
		const char *file = jstr(x, "file"), *st = jstr(x, "status");

		if (!file || !st)
			continue;
		rc = ld_exec(l, "INSERT OR IGNORE INTO import_inputs (bundle_id, "
			     "file, line, command, reader, status, reason) VALUES "
			     "(?, ?, ?, ?, ?, ?, ?)", "isissss", l->bid, file,
			     jint(x, "line", 0), jstr(x, "command"),
			     jstr(x, "reader"), st, jstr(x, "reason"));
	}
	org = jstr(im, "origins");
	p = org ? br_data(l->b, org, &len) : NULL;
	while (!rc && p && *p) {
		const char *nl = strchrnul(p, '\n');
		const char *t1 = memchr(p, '\t', (size_t)(nl - p));
		const char *t2 = t1 ? memchr(t1 + 1, '\t', (size_t)(nl - t1 - 1)) :
				      NULL;

		if (t2) {
			char *path = xstrndup(p, (size_t)(t1 - p));
			char *from = xstrndup(t1 + 1, (size_t)(t2 - t1 - 1));
			char *how = xstrndup(t2 + 1, (size_t)(nl - t2 - 1));

			rc = ld_exec(l, "INSERT OR REPLACE INTO import_origins "
				     "(bundle_id, path, origin, strength) VALUES "
				     "(?, ?, ?, ?)", "isss", l->bid, path, from, how);
			free(path);
			free(from);
			free(how);
		}
		p = *nl ? nl + 1 : nl;
	}
	return rc;
}
