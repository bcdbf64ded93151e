/* SPDX-License-Identifier: MIT */
/*
 * Pacing: absolute deadlines on CLOCK_MONOTONIC. Each worker owns a share of the aggregate
 * rate; frame n is due at t0 + n / rate. A worker that falls behind may catch up in a short
 * burst, never more: debt beyond the burst is forgiven, so one stall cannot turn into a
 * second's worth of frames at line rate and the per-second rate stays flat.
 */
#ifndef PB_PACER_H
#define PB_PACER_H

#include <stdint.h>

#include "clock.h"

struct pb_pacer {
	double rate;	 /* frames per second; 0: unlimited */
	double t0;	 /* the schedule's origin (the run's clock start) */
	double burst;	 /* most frames a late worker may send at once to catch up */
	double forgiven; /* frames of debt dropped because the worker fell too far behind */
};

/* rate 0 means unlimited; burst_s: the catch-up allowed, in seconds of the rate (>= 1 frame). */
void pb_pacer_init(struct pb_pacer *p, double rate, double t0, double burst_s);
/* Frames that may go by time t, given done sent so far; UINT64_MAX when unlimited. */
uint64_t pb_pacer_allowance(struct pb_pacer *p, double t, uint64_t done);
/* When the next frame is due, given done sent so far. */
double pb_pacer_next(const struct pb_pacer *p, uint64_t done);

#endif
