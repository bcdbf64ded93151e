/* SPDX-License-Identifier: MIT */
/*
 * Scenario files: a YAML description of a run whose keys are the long option names. Loaded
 * on top of the defaults and under the command line, which overrides it.
 */
#ifndef PB_SCENARIO_H
#define PB_SCENARIO_H

#include <stddef.h>

#include "config.h"

/*
 * Loads path into cfg through pb_option_set(), so a value is checked as on the command line.
 * 0, or -EINVAL / -errno with a one-line message in err naming the file, line and column.
 */
int pb_scenario_load(const char *path, struct pb_config *cfg, char *err, size_t errlen);

#endif
