/* SPDX-License-Identifier: MIT */
/* The unit tests' one assertion: count, say where it failed, keep going; then a summary. */
#ifndef PB_CHECK_H
#define PB_CHECK_H

#include <stdio.h>

static unsigned int passed, failed;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (cond) {                                                                        \
			passed++;                                                                  \
		} else {                                                                           \
			failed++;                                                                  \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                       \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
		}                                                                                  \
	} while (0)

/* The closing line CTest logs show: "N passed, N failed". Returns main's exit status. */
static inline int check_summary(void)
{
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}

#endif
