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
struct pb_method;
/* One method a --method value names, with the batch its go-pktgen alias implies (0: none). */
struct pb_selected {
	const struct pb_method *m;
	unsigned int batch;
};
/*
 * The methods a --method value names: "benchmark" (all), one name or alias, or a comma list.
 * Fills out (up to max; out may be NULL to count) and returns how many, or -EINVAL with the
 * unknown name in bad.
 */
int pb_methods_select(const char *spec, struct pb_selected *out, unsigned int max, char *bad,
		      size_t badlen);
/*
 * Sets one option by its long name from a string, with the same checks as the command line
 * (for scenario files). 0, or -EINVAL with a message naming the option in err.
 */
int pb_option_set(struct pb_config *cfg, const char *name, const char *value, char *err,
		  size_t errlen);

/* Parsers shared with other inputs (e.g. scenario files); 0 or -EINVAL. */
int pb_parse_addr(const char *s, struct pb_addr *out);
int pb_parse_mac(const char *s, uint8_t mac[6]);

#endif
