/* SPDX-License-Identifier: MIT */
/*
 * Command-line options as a table: type, offset into struct pb_config, default and help,
 * so parsing, defaults and --help come from one place.
 */
#ifndef PB_OPTIONS_H
#define PB_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "config.h"

enum pb_opt_action {
	PB_OPT_RUN,
	PB_OPT_HELP,
	PB_OPT_VERSION,
};

/*
 * Fills cfg from defaults, then argv. 0 with *action set, or -EINVAL with a one-line
 * message in err (no trailing newline).
 */
int pb_options_parse(struct pb_config *cfg, int argc, char **argv, enum pb_opt_action *action,
		     char *err, size_t errlen);
/* --help, generated from the table and the method registry. */
void pb_options_usage(FILE *f);
/* Parsers shared with other inputs (e.g. scenario files); 0 or -EINVAL. */
int pb_parse_addr(const char *s, struct pb_addr *out);
int pb_parse_mac(const char *s, uint8_t mac[6]);

#endif
