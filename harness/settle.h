/* SPDX-License-Identifier: MIT */
/*
 * Settling: after a window, frames still arrive at the receiver (a DUT's queue, a long link,
 * an agent's host busy). The runner reads the receiver's count every PB_SETTLE_S until this
 * decision says it has all it will get: every frame sent, or a count that stood still for
 * PB_SETTLE_QUIET_S (what did not come was lost), or none in PB_SETTLE_MAX_S. A count still
 * rising is read on up to PB_SETTLE_RISING_MAX_S, and then it is not all of it: the row says
 * so, never a short count as if it were the receiver's last word. Time is the caller's: a
 * unit test drives it with simulated counts and a simulated clock.
 */
#ifndef PB_SETTLE_H
#define PB_SETTLE_H

#include <stdbool.h>
#include <stdint.h>

#define PB_SETTLE_S	  0.02 /* receiver poll step while frames are still arriving */
#define PB_SETTLE_QUIET_S 0.2  /* a count that stood still this long has all it will get */
#define PB_SETTLE_MAX_S	  1.0  /* none arrived in this long: none will */
#define PB_SETTLE_RISING_MAX_S 5.0  /* a count still rising this long is given up on */

enum pb_settle_verdict {
	PB_SETTLE_WAIT,	  /* read again after PB_SETTLE_S */
	PB_SETTLE_DONE,	  /* every frame sent arrived, or the count stood still */
	PB_SETTLE_NONE,	  /* nothing arrived */
	PB_SETTLE_RISING, /* the count was still rising when settling gave up: not all of it */
};

struct pb_settle {
	double start, moved; /* when settling began; when the count last changed */
	uint64_t prev;	     /* the last count read */
	bool read;	     /* a count was read */
};

void pb_settle_start(struct pb_settle *s, double now);
/* A count read at now, of sent frames: what to do next. */
enum pb_settle_verdict pb_settle_next(struct pb_settle *s, double now, uint64_t frames,
				      uint64_t sent);

#endif
