/* path.h: the route between two ports of the newest fabric scan (path.c) */
#ifndef PATH_H
#define PATH_H

/* FROM to TO and back in database FILE, printed as ibtracert prints it,
 * or as JSON (rdma-analyze.1); EXIT_OK, EXIT_STOPPED, EXIT_LOOP,
 * EXIT_USAGE (an unknown or ambiguous end) or EXIT_INPUT (analyze.h) */
int path_trace(const char *file, const char *from, const char *to, int json);

#endif
