/* SPDX-License-Identifier: MIT */
/*
 * The runner: opens a method's workers, waits for the carrier, starts the clock when all
 * are ready, samples once a second, stops at the deadline (or after --count frames),
 * drains, and turns the counters into a struct pb_result.
 */
#ifndef PB_RUNNER_H
#define PB_RUNNER_H

#include <signal.h>

#include "config.h"
#include "method.h"
#include "stats.h"

struct nl_sock;
struct pb_receiver;

/* What a run needs besides the configuration: where to read counters, when to stop. */
struct pb_env {
	struct nl_sock *tx_nl; /* rtnetlink in the sender's namespace */
	int tx_ifindex;
	struct nl_sock *rx_nl; /* the receiver's namespace; NULL without the lab */
	int rx_ifindex;
	uint32_t rx_queues;	      /* of the receiving interface, for the per-queue spread */
	struct pb_receiver *receiver; /* NULL without the lab */
	volatile sig_atomic_t *interrupted; /* set by SIGINT/SIGTERM */
	const char *label;		    /* prefix of the live lines */
};

/*
 * Runs one method and fills res. Returns 0 when res holds a result (ok, skipped or error
 * alike), -EINTR when interrupted (res holds the partial result).
 */
int pb_run_method(const struct pb_method *m, const struct pb_config *cfg, const struct pb_env *env,
		  struct pb_result *res);

#endif
