// SPDX-License-Identifier: MIT
/* A result set's whole text, read from a file (readfile.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readfile.h"

int pb_results_read(const char *path, char **out, size_t *len, char *err, size_t errlen)
{
	char *buf = NULL, *nbuf;
	size_t cap = 0, got;
	FILE *f;
	int ret = 0;

	*out = NULL;
	*len = 0;
	/* - is standard input: `kubectl logs ... | pktbench merge -` */
	f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(-ret));
		return ret;
	}
	for (;;) {
		if (*len + 1 >= cap) {
			if (cap >= PB_RESULTS_MAX_FILE) {
				ret = -EFBIG;
				snprintf(err, errlen, "%s: larger than %u MiB, not a result set",
					 path, PB_RESULTS_MAX_FILE >> 20);
				goto out;
			}
			cap = cap ? cap * 2 : 16384;
			nbuf = realloc(buf, cap);
			if (!nbuf) {
				ret = -ENOMEM;
				snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
				goto out;
			}
			buf = nbuf;
		}
		got = fread(buf + *len, 1, cap - *len - 1, f);
		*len += got;
		if (got)
			continue;
		if (ferror(f)) {
			ret = errno ? -errno : -EIO;
			snprintf(err, errlen, "cannot read %s: %s", path, strerror(-ret));
			goto out;
		}
		break;
	}
	buf[*len] = '\0';
	*out = buf;
	buf = NULL;
out:
	free(buf);
	if (f != stdin)
		fclose(f);
	return ret;
}
