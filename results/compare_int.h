/* SPDX-License-Identifier: MIT */
/* What compare's loading, computing and writing share, and nothing else uses. */
#ifndef PB_COMPARE_INT_H
#define PB_COMPARE_INT_H

#include <stddef.h>

/* Rounding in a chain of divisions, not a measurement: see compare.h. */
#define PB_CMP_EPSILON 1e-9

/* vsnprintf into err, which may be NULL. */
void pb_cmp_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
