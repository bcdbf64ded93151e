// SPDX-License-Identifier: MIT
/* The one printer: every message goes to stderr prefixed "pktbench: ", filtered by level. */
#include <stdarg.h>
#include <stdio.h>
#include <bpf/libbpf.h>

#include "log.h"

static enum pb_log_level pb_level = PB_LOG_WARN;

void pb_log_set_level(enum pb_log_level level)
{
	pb_level = level;
}

enum pb_log_level pb_log_get_level(void)
{
	return pb_level;
}

static void pb_vlog(enum pb_log_level level, const char *fmt, va_list ap)
{
	if (level > pb_level)
		return;
	fputs("pktbench: ", stderr);
	vfprintf(stderr, fmt, ap);
}

void pb_log(enum pb_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pb_vlog(level, fmt, ap);
	va_end(ap);
}

static int pb_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	/* libbpf is chatty about probes that are expected to fail: one level lower. */
	enum pb_log_level ours = level == LIBBPF_WARN ? PB_LOG_INFO : PB_LOG_DEBUG;

	pb_vlog(ours, fmt, ap);
	return 0;
}

void pb_log_route_libbpf(void)
{
	libbpf_set_print(pb_libbpf_print);
}
