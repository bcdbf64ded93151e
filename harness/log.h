/* SPDX-License-Identifier: MIT */
/* One logging helper for the whole tool; libbpf's and libxdp's messages come through it too. */
#ifndef PB_LOG_H
#define PB_LOG_H

#include <stdio.h>

enum pb_log_level {
	PB_LOG_ERR,
	PB_LOG_WARN,
	PB_LOG_INFO,
	PB_LOG_DEBUG,
};

void pb_log_set_level(enum pb_log_level level);
enum pb_log_level pb_log_get_level(void);
void pb_log(enum pb_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * Writes text as pb_log does: a control byte (not a line end or tab), a byte that is not
 * UTF-8, a C1 control or a mark that reorders a terminal's text is written as an escape
 * (\x1b, \u202e), since what a message quotes may come from a file or the network.
 */
void pb_log_write(FILE *f, const char *text);
/* "WHO: TEXT\n" on stderr, written as pb_log_write does, whatever the level: bad input. */
void pb_log_say(const char *who, const char *text);
/* Routes libbpf's printer through pb_log, one level lower than libbpf asks. */
void pb_log_route_libbpf(void);

#define pr_err(...)   pb_log(PB_LOG_ERR, __VA_ARGS__)
#define pr_warn(...)  pb_log(PB_LOG_WARN, __VA_ARGS__)
#define pr_info(...)  pb_log(PB_LOG_INFO, __VA_ARGS__)
#define pr_debug(...) pb_log(PB_LOG_DEBUG, __VA_ARGS__)

#endif
