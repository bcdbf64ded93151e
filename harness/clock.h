/* SPDX-License-Identifier: MIT */
/*
 * The one clock: CLOCK_MONOTONIC in seconds, and an absolute sleep on it. What decides by the
 * clock (the runner's pacing, deadline and link wait) takes a struct pb_clock from its caller,
 * so a unit test can drive it with simulated time; pb_clock_mono is the machine's.
 */
#ifndef PB_CLOCK_H
#define PB_CLOCK_H

#include <stddef.h>
#include <stdint.h>

double pb_now(void);
/* s seconds as a user reads a time left: "1:05" or "1:02:05" (rounded to the second). */
void pb_hms(char *buf, size_t len, double s);
/* Sleeps until pb_now() >= t: the kernel for the long part, a spin for the end. */
void pb_sleep_until(double t);
/* The wall clock (CLOCK_REALTIME) in ns since the epoch. */
int64_t pb_wall_ns(void);

/*
 * A clock in seconds: now; sleep_until, precise (the pacer's: it may spin the last stretch);
 * nap_until, which may end late by the timer's slack but never spins (the sampler's steps).
 * A simulated clock may return from either early (a spurious wake): callers read now()
 * again and loop.
 */
struct pb_clock {
	double (*now)(void *ctx);
	void (*sleep_until)(void *ctx, double t);
	void (*nap_until)(void *ctx, double t);
	void *ctx;
};

/* CLOCK_MONOTONIC: pb_now, pb_sleep_until, and clock_nanosleep for a nap. */
extern const struct pb_clock pb_clock_mono;

static inline double pb_clock_now(const struct pb_clock *c)
{
	return c->now(c->ctx);
}

static inline void pb_clock_sleep_until(const struct pb_clock *c, double t)
{
	c->sleep_until(c->ctx, t);
}

static inline void pb_clock_nap_until(const struct pb_clock *c, double t)
{
	c->nap_until(c->ctx, t);
}

#endif
