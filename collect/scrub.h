/* scrub: --redact applied to a whole bundle before it is written, and the
 * redaction key file.
 *
 * scrub_store() first gathers the values it must hide wherever they appear
 * (node descriptions, user names of limits.conf, the machine id) as
 * literals, then rewrites every entry: text through redact_text(), node
 * descriptions, the machine id and environment values as whole values, the
 * Device Serial Number of PCI config space zeroed, and every entry path and
 * link target through redact_text().  schema/BUNDLE.md, "Redaction", says
 * what is and is not redacted.
 */
#ifndef RDMA_COLLECT_SCRUB_H
#define RDMA_COLLECT_SCRUB_H

#include "redact.h"
#include "runner.h"
#include "store.h"

/* read the key in file (32 raw bytes, or 64 hex digits and an optional
 * newline); if file does not exist, create it (mode 0600, never over an
 * existing file) with a new random key and set *created.  0, or -1 with a
 * message printed */
int scrub_load_key(const char *file, unsigned char key[REDACT_KEY_LEN],
		   int *created);
/* a new random key (getrandom); 0 or -1 with a message printed */
int scrub_new_key(unsigned char key[REDACT_KEY_LEN]);
/* write key to a new file (64 hex digits and a newline, mode 0600, O_EXCL);
 * 0 or -1 with a message printed */
int scrub_save_key(const char *file, const unsigned char key[REDACT_KEY_LEN]);
/* the node's hostname as literals: the name, its first label (the short
 * name) and, when it has two labels or more, its domain */
void scrub_add_hostname(struct redact *r, const char *name);
/* 1 if the value of environment variable NAME (n bytes) is a documented
 * configuration knob safe to keep (the value then still goes through
 * redact_text) */
int scrub_env_allowed(const char *name, size_t n);
/* redact every entry of the store in place; entry paths may change, so
 * call store_sort() (which rebuilds the path index) afterwards */
void scrub_store(struct redact *r, struct store *s);
/* redact the free text the manifest takes from the run: reasons, notes
 * (keys and values: keys may name entry paths), error lists, quarantined
 * device keys */
void scrub_run(struct redact *r, struct run *run);

#endif
