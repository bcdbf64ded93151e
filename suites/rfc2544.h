/* SPDX-License-Identifier: MIT */
/*
 * pktbench rfc2544: the RFC 2544 tests (throughput 26.1, latency 26.2, frame loss rate 26.3,
 * back-to-back 26.4) per method and frame size, each trial a normal run of the runner, the
 * searches those of rfc2544_search.h, the answers as summary rows beside the trials.
 */
#ifndef PB_RFC2544_H
#define PB_RFC2544_H

#include <stdio.h>

#include "options.h"
#include "runner.h"
#include "stats.h"

/* The command's table: pktbench's traffic rows (less what a trial sets) and its own. */
extern struct pb_cmd pb_cmd_rfc2544;
/*
 * main.c owns the session (lab, receiver, signals) and runs rfc2544 inside it: it sets this
 * before dispatching, and pb_cmd_rfc2544.run calls it.
 */
extern int (*pb_rfc2544_session)(int argc, char **argv);

/* The rows of a report, trials and summaries, in the order they were made. */
struct pb_rfc2544_rows {
	struct pb_result *r;
	unsigned int n, cap;
};

/*
 * Runs cfg->rfc's tests for each method of list and each frame size: every trial is a
 * pb_run_method() row, every answer a summary row, appended to out (released as any result
 * set: pb_result_release() each row, then free(out->r)). 0, -EINTR when stopped (out holds
 * what was done), -ENOMEM.
 */
int pb_rfc2544_run(const struct pb_config *cfg, const struct pb_selected *list, unsigned int n,
		   const struct pb_env *env, struct pb_rfc2544_rows *out);
/*
 * The frame without FCS (what --frame-size means) of an RFC frame size, for cfg's address
 * family and tag; 0, with why in err, when it cannot be sent (too small for the headers and
 * the signature, too large for the MTU).
 */
uint32_t pb_rfc_frame_bytes(const struct pb_config *cfg, uint32_t rfc_size, char *err,
			    size_t errlen);

/*
 * How long a run of o's tests over units (method, frame size) pairs takes, before it starts:
 * lo, a device that loses nothing (each search ends at its first trial, two lossless loss
 * steps, one whole burst); hi, a lossy one whose answer is above 1 % of the maximum (a search
 * to --precision, half its trials failed and retried --retries times, every loss step,
 * --b2b-repeat burst searches). Each trial costs its
 * seconds, its --trial-gap and PB_RFC_TRIAL_COST_S of opening, draining and reading (0.05-0.15
 * s here), the whole PB_RFC_SETUP_S (a lab, the methods' first open).
 */
#define PB_RFC_TRIAL_COST_S PB_RUN_COST_S
#define PB_RFC_SETUP_S	    PB_SETUP_S

struct pb_rfc_estimate {
	unsigned int trials_lo, trials_hi;
	double secs_lo, secs_hi;
};

void pb_rfc_estimate(const struct pb_rfc2544_opts *o, unsigned int units,
		     struct pb_rfc_estimate *e);

#endif
