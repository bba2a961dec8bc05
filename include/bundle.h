/* bundle: the layout of an rdma-collect bundle, shared by both programs.
 * schema/BUNDLE.md is the documentation of this file. */
#ifndef RDMA_BUNDLE_H
#define RDMA_BUNDLE_H

#define BUNDLE_FORMAT		"rdma-collect-bundle"
#define BUNDLE_FORMAT_VERSION	1
#define BUNDLE_MANIFEST		"manifest.json"
#define BUNDLE_SUFFIX		".rdma.tar.zst"
/* the one top-level folder for evidence that is not a file of the node */
#define BUNDLE_RESERVED		"rdma-collect"

/* source status, as written in the manifest */
enum bundle_status {
	BST_OK,
	BST_PARTIAL,
	BST_ABSENT,
	BST_DENIED,
	BST_TIMEOUT,
	BST_ERROR,
	BST_NR
};

static inline const char *bundle_status_name(int st)
{
	static const char *const names[BST_NR] = {
		"ok", "partial", "absent", "denied", "timeout", "error",
	};

	return st >= 0 && st < BST_NR ? names[st] : "error";
}

#endif
