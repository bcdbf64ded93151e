/* SPDX-License-Identifier: MIT */
/* The unit tests' one assertion: count, say where it failed, keep going; then a summary. */
#ifndef PB_CHECK_H
#define PB_CHECK_H

#include <stdio.h>
#include <stdlib.h>

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

/* A whole file as a NUL-terminated string (free it), or NULL. */
static inline char *read_all(const char *path)
{
	char *buf = NULL;
	long len;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		goto out;
	buf = calloc(1, (size_t)len + 1);
	if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
out:
	fclose(f);
	return buf;
}

/* The closing line CTest logs show: "N passed, N failed". Returns main's exit status. */
static inline int check_summary(void)
{
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}

#endif
