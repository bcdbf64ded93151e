/* SPDX-License-Identifier: MIT */
/* One logging helper for the whole tool; libbpf's and libxdp's messages come through it too. */
#ifndef PB_LOG_H
#define PB_LOG_H

enum pb_log_level {
	PB_LOG_ERR,
	PB_LOG_WARN,
	PB_LOG_INFO,
	PB_LOG_DEBUG,
};

void pb_log_set_level(enum pb_log_level level);
enum pb_log_level pb_log_get_level(void);
void pb_log(enum pb_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Routes libbpf's printer through pb_log, one level lower than libbpf asks. */
void pb_log_route_libbpf(void);

#define pr_err(...)   pb_log(PB_LOG_ERR, __VA_ARGS__)
#define pr_warn(...)  pb_log(PB_LOG_WARN, __VA_ARGS__)
#define pr_info(...)  pb_log(PB_LOG_INFO, __VA_ARGS__)
#define pr_debug(...) pb_log(PB_LOG_DEBUG, __VA_ARGS__)

#endif
