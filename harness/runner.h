/* SPDX-License-Identifier: MIT */
/*
 * The runner: opens a method's workers, waits for the carrier, starts the clock when all
 * are ready, samples once a second, stops at the deadline (or after --count frames, or
 * at --count-timeout), drains, and turns what the methods reported and what the path's
 * counters and the receiver say into a struct pb_result.
 */
#ifndef PB_RUNNER_H
#define PB_RUNNER_H

#include "clock.h"
#include "config.h"
#include "fleet_door.h"
#include "method.h"
#include "path.h"
#include "replay_source.h"
#include "stats.h"

/* How long frames in flight may take to complete after the stop (elapsed time). */
#define PB_DRAIN_S 1.0

/* What a run needs besides the method and the configuration. */
struct pb_env {
	const struct pb_path *path; /* counters, carrier, receiver; NULL: nothing around */
	/*
	 * the fleet (shards, --start-at, the announcement); NULL: none, and a run that names
	 * any of it is an error row, never run as if it did not
	 */
	const struct pb_fleet_door *fleet;
	const int *stop;   /* set by SIGINT/SIGTERM (atomically); never NULL */
	const char *label; /* prefix of the live lines */
	/*
	 * What the run decides by: the pacing, the deadline, the link wait and the window's
	 * times. NULL: CLOCK_MONOTONIC (pb_clock_mono). The receiver's settling and the drain
	 * wait on the machine's clock whatever this is: they wait for the kernel.
	 */
	const struct pb_clock *clock;
	/*
	 * Called with each second's sample of run run_id (cumulative since the window's start),
	 * the one before it (all zero for the first) and whether the link was up; NULL: nobody
	 * listens (--stream's writer does).
	 */
	void (*on_sample)(void *ctx, uint32_t run_id, const struct pb_sample *prev,
			  const struct pb_sample *smp, bool link_up);
	void *sample_ctx;
	/* --replay's frames and schedules (replay/: pb_replay_source); NULL: none here */
	const struct pb_replay_source *replay;
};

/*
 * What a run costs besides its window: opening the method, the link's wait, draining and
 * reading the receiver (0.05-0.15 s here); and a session's set-up (a lab, the methods' first
 * open). The estimates of how long a session takes (pktbench's, rfc2544's) add them.
 */
#define PB_RUN_COST_S 0.1
#define PB_SETUP_S    0.5

/*
 * Whether m can run with cfg here (the options it takes, its probe): 0, or 1 with the reason
 * its row will give in why. Cheap: a session asks it of every run before the first.
 */
int pb_run_check(const struct pb_method *m, const struct pb_config *cfg, char *why, size_t len);

/*
 * Runs one method and fills res. batch: frames per call (0: --batch, else the method's
 * own). Returns 0 when res holds a result (ok, skipped or error alike), -EINTR when
 * stopped by a signal (res holds the partial result), -ENOMEM.
 */
int pb_run_method(const struct pb_method *m, unsigned int batch, const struct pb_config *cfg,
		  const struct pb_env *env, struct pb_result *res);

/*
 * The CPU stream id runs on: the id-th of --cpus; without it, several streams are spread
 * over the CPUs we may use, and one stream is left to the scheduler (-1). A stream on its
 * own CPU gets its own TX queue from paths that choose it by CPU (AF_PACKET with qdisc
 * bypass; XPS, which the lab sets to the same mapping, for the others).
 */
int pb_stream_cpu(const struct pb_config *cfg, uint32_t id);

/*
 * Why a sending interface cannot send, in one line with the hint: admin_down (not set up), or
 * no carrier after waited seconds of --link-timeout.
 */
void pb_link_reason(char *buf, size_t len, const char *ifname, bool admin_down, double waited);

/* --count's bound when --count-timeout is not given: 10 s plus twice the nominal time. */
double pb_count_timeout(const struct pb_config *cfg, double target_pps);

#endif
