// SPDX-License-Identifier: MIT
/* Scenario files without libcyaml: say so, rather than ignore the file. */
#include <errno.h>
#include <stdio.h>

#include "scenario.h"

int pb_scenario_load(const char *path, struct pb_config *cfg, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: scenario files need libcyaml, which was not found at build time",
		 path);
	return -EOPNOTSUPP;
}
