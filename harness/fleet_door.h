/* SPDX-License-Identifier: MIT */
/*
 * The fleet's one door from the engine: what a run of many senders as one test asks of the
 * runner (its share of the test, its start at one instant, its announcement to the receiver),
 * as a table the session hands the runner in struct pb_env. fleet/ implements it; the engine
 * never includes fleet/'s headers, as it never includes a method's or the receiver's.
 */
#ifndef PB_FLEET_DOOR_H
#define PB_FLEET_DOOR_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "config.h"

/*
 * The clock the start waits on, supplied by the caller so that tests drive it with simulated
 * time; the door's start_wait uses the machine's, with the timer's slack at its least.
 *   now_ns: clk's time (CLOCK_REALTIME or CLOCK_TAI) in ns;
 *   sleep_until_ns: sleeps until clk reads t; 0 on reaching it, EINTR when a signal woke it;
 *   run_delay_ns: the calling thread's total time runnable but waiting for a CPU, -1 unknown;
 *   cpu_ns: the calling thread's CPU time (NULL or -1: unknown).
 */
struct pb_fleet_clock {
	int64_t (*now_ns)(void *ctx, clockid_t clk);
	int (*sleep_until_ns)(void *ctx, clockid_t clk, int64_t t);
	int64_t (*run_delay_ns)(void *ctx);
	int64_t (*cpu_ns)(void *ctx);
	void *ctx;
};

/* A start from its wait to its settling, after the first frame (start_settle). */
struct pb_start {
	struct pb_fleet_clock clock;
	int64_t target_ns; /* --start-at, UTC */
	int64_t actual_ns; /* the wall clock on waking */
	int64_t delay0;	   /* run_delay before the sleep */
	int64_t cpu_wake;  /* the thread's CPU time on waking */
	int fd, slack;	   /* start_wait's schedstat and timer slack, until settled */
};

struct pb_fleet_door {
	/*
	 * This sender's share of the whole test, applied to its own copy of the configuration:
	 * the rate, the count and the flows. Without --shard nothing changes.
	 */
	void (*shard_apply)(struct pb_config *cfg);
	/*
	 * Waits for --start-at, returning at once when it has passed or when *stop is set, with
	 * the wall clock on waking in st->actual_ns and nothing else read, so that the first
	 * frame can follow at once. 0, or -EINTR when stopped; start_settle follows either way,
	 * after the first frame, and returns how long the thread, woken, waited for a CPU (ns;
	 * -1 when the kernel does not say).
	 */
	int (*start_wait)(const struct pb_config *cfg, const int *stop, struct pb_start *st);
	int64_t (*start_settle)(struct pb_start *st);
	/*
	 * The run's announcement to the receiver, before its window, when the run belongs to a
	 * named test or shard or replays a capture; 0 (also when there is none to send) or -errno.
	 */
	int (*announce)(const struct pb_config *cfg, bool tagged);
};

/* Whether cfg asks for what only the fleet's door does (a shard, a start instant, a test). */
static inline bool pb_fleet_named(const struct pb_config *cfg)
{
	return cfg->shard_count || cfg->start_at_ns || cfg->test_id[0];
}

#endif
