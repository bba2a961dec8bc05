/* redact: keyed pseudonyms for identifying values in a bundle (--redact).
 *
 * A pseudonym is derived with HMAC-SHA256 under the user's key from the
 * kind of value and its canonical form, so the same input and key always
 * give the same pseudonym (fleet diffs and pair analysis still line up),
 * and nobody without the key can go back.  Pseudonyms keep the shape of
 * what they replace (an IPv4 address stays a dotted quad, a GID keeps its
 * 8 groups and its subnet prefix), so the analyzer parses redacted bundles
 * like any other.  schema/BUNDLE.md lists what is and is not redacted.
 *
 * Ownership: struct redact is opaque; redact_free() accepts NULL.
 */
#ifndef RDMA_COLLECT_REDACT_H
#define RDMA_COLLECT_REDACT_H

#include <stddef.h>

#include "buf.h"
#include "sha256.h"

struct redact;

#define REDACT_KEY_LEN 32

struct redact *redact_new(const unsigned char *key, size_t keylen);
void redact_free(struct redact *r);
/* a literal to replace wherever it appears as a whole word, matched
 * without regard to case: the hostname (short and FQDN), user names.
 * kind names the pseudonym family ("host", "user"). */
void redact_add_literal(struct redact *r, const char *kind, const char *value);
/* scan text and append the redacted form to out: literals, IPv4 and IPv6
 * addresses, MACs and other colon-separated hardware addresses, GUIDs
 * (0x%016x, %04x:%04x:%04x:%04x, inside GIDs), GIDs (sysfs %pI6 form and
 * perftest's decimal form) */
void redact_text(struct redact *r, const char *in, size_t len, struct buf *out);
/* the pseudonym of one whole value of a kind ("host", "user", "nodedesc",
 * "env", "machine-id"), shaped as kind-xxxxxxxx */
void redact_value(struct redact *r, const char *kind, const char *value,
		  char *out, size_t n);
/* first 16 hex digits of SHA-256(key): tells whether two bundles were
 * redacted with the same key, without revealing it */
void redact_key_id(const struct redact *r, char out[17]);

/* HMAC-SHA256 (RFC 2104), exposed for tests; SHA-256 is in sha256.h */
void hmac_sha256(const unsigned char *key, size_t keylen, const void *data,
		 size_t len, unsigned char out[32]);

#endif
