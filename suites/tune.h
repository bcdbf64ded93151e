/* SPDX-License-Identifier: MIT */
/*
 * A method's own knobs (batch, segments, ring), set by --sweep and searched by --tune: a short
 * trial at the defaults, then at each candidate value of one knob after the other (the others
 * at the best found so far), keeping the fastest setting whose frames arrived. A candidate
 * must beat the best so far by PB_TUNE_MARGIN to replace it, so noise does not move a setting
 * off its default. The trials are counted in advance (pb_tune_trials), and so is their time.
 */
#ifndef PB_TUNE_H
#define PB_TUNE_H

#include <stdio.h>

#include "config.h"
#include "method.h"
#include "stats.h"

#define PB_TUNE_MARGIN	 0.02 /* a candidate must be 2 % faster than the best so far */
#define PB_TUNE_DELIVERY 99.0 /* delivered %, where a receiver counts, for a trial to count */

/* Sets what a sweep kind names (frame-size, streams, batch, segments, ring) to v in cfg. */
void pb_knob_set(struct pb_config *cfg, enum pb_sweep_kind kind, uint32_t v);

/* Seconds each trial of --tune sends: a fifth of --duration, within 0.2 .. 1 s. */
double pb_tune_trial_s(const struct pb_config *cfg);
/* How many trials pb_tune() makes for m from cfg (0 when m has no knobs). */
unsigned int pb_tune_trials(const struct pb_method *m, unsigned int alias_batch,
			    const struct pb_config *cfg);

/*
 * One trial: m run at cfg into res (which the caller of pb_tune releases). 0, or the
 * -errno that ends the search (-EINTR: stopped by a signal).
 */
typedef int (*pb_tune_trial_fn)(void *ctx, const struct pb_method *m, const struct pb_config *cfg,
				struct pb_result *res);

/*
 * Searches m's knobs from cfg (batch: the one an alias implies, else --batch, else the
 * method's), each trial cfg with duration_s = pb_tune_trial_s(cfg) and no --count, and
 * writes the best setting into *best (cfg with batch, segments and ring set). Prints each
 * trial (unless cfg->quiet) and the best setting on log. 0, or what a trial returned.
 */
int pb_tune(const struct pb_method *m, unsigned int alias_batch, const struct pb_config *cfg,
	    pb_tune_trial_fn trial, void *ctx, struct pb_config *best, FILE *log);

#endif
