/* jsonp: a small JSON parser into a tree, for manifests and the JSON forms
 * of bundles (hostile input: depth, size and count limits, every error a
 * message, never a crash).
 *
 * Ownership: jparse() returns a tree freed with jfree() (on that root
 * only: the document is one arena); every pointer into it dies with it.
 * Accessors accept NULL and return NULL/defaults, so lookups chain:
 * jstr(jget(root, "drvinfo"), "driver").
 */
#ifndef RDMA_JSONP_H
#define RDMA_JSONP_H

#include <stddef.h>
#include <stdint.h>

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
	enum jtype t;
	char *s;		/* J_STR: the string (NUL-terminated, may hold
				 * NULs: see n); J_NUM: the number's text */
	size_t n;		/* J_STR: length; J_ARR/J_OBJ: members */
	int b;			/* J_BOOL */
	struct jv *v;		/* J_ARR/J_OBJ: members */
	char **k;		/* J_OBJ: keys */
};

#define JSON_PARSE_MAX_DEPTH 64
/* values (members of arrays and objects) one document may hold: about
 * 100 bytes of tree each while it is parsed, so 400 MiB at most; an
 * ethtool document holds 6,000, a fabric scan's LFTs a few million */
#define JSON_PARSE_MAX_VALUES 4000000

/* parse len bytes; NULL with a message in err on failure */
struct jv *jparse(const char *text, size_t len, char *err, size_t errlen);
/* the same within a budget shared by several documents (a bundle's): the
 * values parsed are taken from *budget, and a document that would take
 * more than is left fails */
struct jv *jparse_budget(const char *text, size_t len, size_t *budget,
			 char *err, size_t errlen);
void jfree(struct jv *v);
struct jv *jget(const struct jv *obj, const char *key);
struct jv *jat(const struct jv *arr, size_t i);
size_t jlen(const struct jv *v);	/* members of an array or object */
/* the string value of obj[key] (or of obj itself when key is NULL) */
const char *jstr(const struct jv *obj, const char *key);
/* numbers (also from numeric strings); dflt when absent or not numeric */
int64_t jint(const struct jv *obj, const char *key, int64_t dflt);
uint64_t juint(const struct jv *obj, const char *key, uint64_t dflt);
double jnum(const struct jv *obj, const char *key, double dflt);
int jbool(const struct jv *obj, const char *key, int dflt);

#endif
