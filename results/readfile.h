/* SPDX-License-Identifier: MIT */
/* A result set's whole text, read from a file: what compare and merge load. */
#ifndef PB_READFILE_H
#define PB_READFILE_H

#include <stddef.h>

/* Result sets are a few KiB; the bound only stops a wrong path (a disk image) eating memory. */
#define PB_RESULTS_MAX_FILE (64u << 20)

/*
 * Reads path into *out (NUL-terminated, *len bytes before the NUL; the caller frees it);
 * 0 or -errno with a one-line reason naming the file in err.
 */
int pb_results_read(const char *path, char **out, size_t *len, char *err, size_t errlen);

#endif
