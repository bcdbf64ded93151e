/* SPDX-License-Identifier: MIT */
/*
 * `pktbench receive`: the receiver (rx.c) on an interface of this host, for as long as it
 * runs, and the read-only HTTP API (api.h) that senders and Prometheus read it through.
 */
#ifndef PB_AGENT_H
#define PB_AGENT_H

#include <stdbool.h>
#include <net/if.h>

#include "options.h"

/* What `pktbench receive` takes; the rows are in agent.c. */
struct pb_receive_opts {
	char iface[IF_NAMESIZE];
	char listen[64];
	int xdp_mode; /* enum pb_xdp_mode */
	bool force;
	char restore[IF_NAMESIZE]; /* --restore IFACE: put back what a killed --force took off */
	double duration_s;	   /* 0: until SIGINT or SIGTERM */
	int verbose;
};

extern const struct pb_cmd pb_cmd_receive;

/* argv[0] is "receive". Returns the exit status: 0, 1 (it failed) or 2 (bad input). */
int pb_receive_main(int argc, char **argv);

#endif
