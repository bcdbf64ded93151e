/* SPDX-License-Identifier: MIT */
/*
 * Pacing: absolute deadlines on CLOCK_MONOTONIC. Each worker owns a share of the aggregate
 * rate; frame n is due at t0 + n / rate. A worker that falls behind catches up smoothly, at
 * most PB_PACE_PEAK times the rate, never in a burst: frames go one by one, a peak gap
 * apart, or as many at once as one send() call lasts at that rate when calls are slower than
 * a gap (so a path that needs batches to keep the rate still gets them). Debt beyond the
 * catch-up window is forgiven, so one stall cannot turn into a second's worth of frames and
 * the per-second rate stays flat.
 *
 * The gap histogram of a paced run (the receiver times every frame) is what showed the old
 * catch-up: after a stall, up to 10 ms of frames went back to back.
 */
#ifndef PB_PACER_H
#define PB_PACER_H

#include <stdbool.h>
#include <stdint.h>

#include "clock.h"

#define PB_PACE_PEAK  2.0 /* a late worker sends at most this much faster than its rate */
#define PB_PACE_BUNCH 4.0 /* frames bunched into a call: what at most this many calls last */
#define PB_PACE_STALL 8.0 /* a call this much longer than usual was a stall, not a call */
/*
 * A sleeping pacer wakes late (here p50 40-45 us, p99 90 us with 1 ns timer slack): what fell
 * due in that time goes in the call after the wake, as if the wait had been a call that long.
 */
#define PB_PACE_WAKE_S 200e-6
/*
 * A sleeper wakes for at least this much of the schedule at a time (the frames due in it go
 * in one call): at 30 kpps each wake and call would otherwise cost a CPU's 15 us a frame.
 */
#ifndef PB_PACE_SLEEP_MIN_S
#define PB_PACE_SLEEP_MIN_S 70e-6
#endif
#define PB_PACE_HIST 1000 /* departure error: 1 us buckets, then one for later */

struct pb_pacer {
	double rate;	 /* frames per second; 0: unlimited */
	double t0;	 /* the schedule's origin (the run's clock start) */
	double burst;	 /* most frames of debt a late worker may catch up */
	double forgiven; /* frames of debt dropped because the worker fell too far behind */
	double peak_gap; /* 1 / (PB_PACE_PEAK rate): the closest two frames go, unless batched */
	double pk_t;	 /* the peak schedule: frame pk_n may go at pk_t, the next a gap later */
	uint64_t pk_n;
	double call_s; /* how long a send() call usually takes (stalls left out); 0: unknown */
	double last_t; /* when the last allowance let frames go; 0: it let none */
	double wake_s; /* a sleeper's lateness bunched like a call's length; 0: it spins */
	double batch;  /* a sleeper waits until this many more frames than one are due */
	/* the departures: how late each frame was handed over against its nominal deadline */
	uint64_t hist[PB_PACE_HIST + 1];
	uint64_t departed;
	double err_max;
};

/* rate 0 means unlimited; burst_s: the catch-up allowed, in seconds of the rate (>= 1 frame). */
void pb_pacer_init(struct pb_pacer *p, double rate, double t0, double burst_s);
/* Frames that may go by time t, given done handed over so far; UINT64_MAX when unlimited. */
uint64_t pb_pacer_allowance(struct pb_pacer *p, double t, uint64_t done);
/*
 * Frames the schedule had due by time t that never went, given done handed over: the debt
 * forgiven and what is still owed. A sender held back (a full path, a slow CPU) shows here.
 */
uint64_t pb_pacer_behind(const struct pb_pacer *p, double t, uint64_t done);
/* When the next frame may go, given done handed over so far. */
double pb_pacer_next(const struct pb_pacer *p, uint64_t done);
/*
 * Of the frames from done on (done handed over so far), the index of the first whose nominal
 * deadline is at or after t: 0 when t is not after the next one's; a frame the schedule has
 * leave at t, wherever it falls in a bunch handed over at once.
 */
uint32_t pb_pacer_frame_at(const struct pb_pacer *p, double t, uint64_t done);
/* The worker sleeps its waits (a late wake is bunched, PB_PACE_WAKE_S) rather than spins. */
void pb_pacer_sleeps(struct pb_pacer *p);
/*
 * Frames from .. to - 1 (in the allowance's count) were handed over by a call asked for at t:
 * each one's lateness against its nominal deadline goes into the departures.
 */
void pb_pacer_depart(struct pb_pacer *p, double t, uint64_t from, uint64_t to);

/*
 * A stalled sender: one whose count stood still for PB_STALL_S of watched time, or for
 * PB_STALL_FRAMES of its frames' time when it is paced slower than that (a run at 1 pps is
 * quiet for a second between frames, and not stalled). Time is watched only while the sender
 * could send (its link up, its window open) and between looks at most PB_STALL_GAP_S apart:
 * a look that came late (the watcher itself was stopped or starved) does not count the gap.
 */
#define PB_STALL_S	2.0
#define PB_STALL_FRAMES 4.0
#define PB_STALL_GAP_S	0.25

struct pb_stall {
	uint64_t sent; /* the count at the last look */
	double last;   /* when the last look was */
	double from;   /* when the count last moved, or watching began again */
	double quiet;  /* watched time since then */
};

/* Watching starts at t with nothing sent (looks before t see nothing). */
void pb_stall_init(struct pb_stall *st, double t);
/* One look at time t: the sender's count and whether it could send. The quiet time so far. */
double pb_stall_look(struct pb_stall *st, double t, uint64_t sent, bool watch);
/* How long a sender paced at rate (0: unlimited) may stay quiet before it counts as stalled. */
double pb_stall_after(double rate);

#endif
