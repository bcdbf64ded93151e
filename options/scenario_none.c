// SPDX-License-Identifier: MIT
/* Scenario files without libyaml: say so, rather than ignore the file. */
#include <errno.h>
#include <stdio.h>

#include "scenario.h"

int pb_yaml_load(const struct pb_cmd *cmd, void *dst, const char *path, bool *given, char *err,
		 size_t errlen)
{
	snprintf(err, errlen, "%s: scenario files need libyaml, which was not found at build time",
		 path);
	return -EOPNOTSUPP;
}

int pb_scenario_load(const char *path, struct pb_config *cfg, char *err, size_t errlen)
{
	return pb_yaml_load(NULL, cfg, path, NULL, err, errlen);
}
