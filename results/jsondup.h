/* SPDX-License-Identifier: MIT */
/*
 * A key given twice in one JSON object. json-c keeps the last value silently, so a result set
 * with "frames_sent": 5000, ..., "frames_sent": 50 would be read as 50, and what was summed
 * would not be what the file shows first: the readers of result sets refuse it instead.
 */
#ifndef PB_JSONDUP_H
#define PB_JSONDUP_H

#include <stddef.h>

/*
 * Scans text (len bytes, JSON that json-c has parsed) for an object with a key twice, keys
 * compared as decoded (so "a" and "\u0061" are one key). 0: none; 1: one, its key into key
 * (printable, cut to keylen) and the byte where its second copy begins into *at; -ENOMEM.
 */
int pb_json_dup_key(const char *text, size_t len, char *key, size_t keylen, size_t *at);

#endif
