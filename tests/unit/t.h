/* t.h: the smallest table-friendly unit test kit.  Each check prints one
 * line, "ok - what" or "not ok - what (file:line)", which tests/run.sh
 * counts; t_done() is the exit code. */
#ifndef RDMA_TESTS_T_H
#define RDMA_TESTS_T_H

#include <stdio.h>
#include <string.h>

static int t_failed;

#define T_OK(cond, ...)                                                    \
	do {                                                               \
		if (cond) {                                                \
			printf("ok - ");                                   \
			printf(__VA_ARGS__);                               \
			printf("\n");                                      \
		} else {                                                   \
			t_failed++;                                        \
			printf("not ok - ");                               \
			printf(__VA_ARGS__);                               \
			printf(" (%s:%d)\n", __FILE__, __LINE__);          \
		}                                                          \
	} while (0)

#define T_STREQ(got, want, ...)                                            \
	do {                                                               \
		const char *t_g_ = (got), *t_w_ = (want);                  \
		T_OK(t_g_ && !strcmp(t_g_, t_w_), __VA_ARGS__);            \
		if (!t_g_ || strcmp(t_g_, t_w_))                           \
			printf("#   got:  '%s'\n#   want: '%s'\n",         \
			       t_g_ ? t_g_ : "(null)", t_w_);              \
	} while (0)

static inline int t_done(void)
{
	return t_failed ? 1 : 0;
}

#endif
