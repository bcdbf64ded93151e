// SPDX-License-Identifier: MIT
/*
 * pktbench's commands: itself first, then each subcommand (`pktbench NAME ...`) with its own
 * option table. A subcommand is one line here; --help, the man page and the completion list
 * it from this table.
 */
#include <string.h>

#include "agent.h"
#include "compare.h"
#include "merge.h"
#include "options.h"
#include "rfc2544.h"
#include "writers.h"

const struct pb_cmd *const pb_cmds[] = {
	&pb_cmd_main,  &pb_cmd_compare, &pb_cmd_environment,
	&pb_cmd_merge, &pb_cmd_receive, &pb_cmd_rfc2544,
};

const unsigned int pb_cmds_count = sizeof(pb_cmds) / sizeof(pb_cmds[0]);

/* options/ lists the commands in --help without depending on the program that has them. */
__attribute__((constructor)) static void pb_cmds_list(void)
{
	pb_cmd_usage_list = pb_cmds;
	pb_cmd_usage_count = pb_cmds_count;
}

const struct pb_cmd *pb_cmd_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < pb_cmds_count; i++)
		if (pb_cmds[i]->run && !strcmp(pb_cmds[i]->name, name))
			return pb_cmds[i];
	return NULL;
}
