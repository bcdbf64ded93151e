/* SPDX-License-Identifier: MIT */
/*
 * Scenario files: a YAML description of a run whose keys are the long option names of a
 * command's table. Loaded on top of the defaults and under the command line, which overrides it.
 */
#ifndef PB_SCENARIO_H
#define PB_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"

struct pb_cmd;

/*
 * Loads path into dst (the struct cmd's rows point into) through pb_cmd_set(), so a value is
 * checked as on the command line. dst changes only when the whole file is good; given (NULL,
 * or cmd->nopts of them) then says which rows the file gave. 0, or -EINVAL / -errno with a
 * one-line message in err naming the file, line and column.
 */
int pb_yaml_load(const struct pb_cmd *cmd, void *dst, const char *path, bool *given, char *err,
		 size_t errlen);
/* pb_yaml_load() with pktbench's own table. */
int pb_scenario_load(const char *path, struct pb_config *cfg, char *err, size_t errlen);

#endif
