// SPDX-License-Identifier: MIT
/* The one printer: every message goes to stderr prefixed "pktbench: ", filtered by level. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* A well-formed UTF-8 sequence at s (at most n bytes): its length, 0 if it is not one. */
static size_t log_utf8(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2, i;
	uint32_t min = len == 4 ? 0x10000 : len == 3 ? 0x800 : 0x80;

	if (s[0] < 0xc2 || s[0] > 0xf4 || len > n)
		return 0;
	*cp = s[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return len;
}

/* C1 controls and the marks that reorder text on a terminal: written as \uXXXX. */
static bool log_hidden(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff;
}

void pb_log_write(FILE *f, const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t n = strlen(text), len;
	uint32_t cp;

	while (n) {
		if (*s == '\n' || *s == '\t' || (*s >= 0x20 && *s < 0x7f)) {
			fputc(*s, f);
			len = 1;
		} else if (*s < 0x80) {
			fprintf(f, "\\x%02x", *s);
			len = 1;
		} else if (!(len = log_utf8(s, n, &cp))) {
			fprintf(f, "\\x%02x", *s);
			len = 1;
		} else if (log_hidden(cp)) {
			fprintf(f, "\\u%04x", (unsigned int)cp);
		} else {
			fwrite(s, 1, len, f);
		}
		s += len;
		n -= len;
	}
}

void pb_log_say(const char *who, const char *text)
{
	fprintf(stderr, "%s: ", who);
	pb_log_write(stderr, text);
	fputc('\n', stderr);
}

static void pb_vlog(enum pb_log_level level, const char *fmt, va_list ap)
{
	char small[1024], *big = NULL;
	va_list again;
	int n;

	if (level > pb_level)
		return;
	va_copy(again, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= (int)sizeof(small)) {
		big = malloc((size_t)n + 1);
		if (big)
			vsnprintf(big, (size_t)n + 1, fmt, again);
	}
	va_end(again);
	fputs("pktbench: ", stderr);
	/* out of memory for a long one: its first 1023 bytes, which small holds */
	pb_log_write(stderr, n < 0 ? "(a message that cannot be formatted)\n" : big ? big : small);
	free(big);
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
