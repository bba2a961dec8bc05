/* verdict: one node's verdict for one bundle, as JSON.  The same object is
 * each entry of `report -f json`'s "nodes" and the whole output of
 * `check -f json`; schema/node-verdict.schema.json is its schema and
 * schema/REPORT.md documents it. */
#ifndef RDMA_ANALYZE_VERDICT_H
#define RDMA_ANALYZE_VERDICT_H

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

#include "json.h"

/* "verdict_version" of the object: raised only when a field is renamed,
 * removed or changes meaning (fields are added within a version); the
 * schema's "$id" ends with it: urn:rdma-analyze:schema:node-verdict:1 */
#define VERDICT_VERSION 1

/* write the verdict of bundle bundle_id (loaded, its rules run) into j as
 * the value of key (NULL inside an array or at the top); -1 and nothing
 * written if there is no such bundle */
int verdict_json(sqlite3 *db, int64_t bundle_id, struct json *j,
		 const char *key);
/* the verdict as one JSON document on out (pretty, a newline after it);
 * -1 if there is no such bundle or out could not be written */
int verdict_write(sqlite3 *db, int64_t bundle_id, FILE *out);

#endif
