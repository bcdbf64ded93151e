// SPDX-License-Identifier: MIT
/* The one clock everything times with: CLOCK_MONOTONIC, in seconds; and as a struct pb_clock. */
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "clock.h"

#define PB_SPIN_S 100e-6 /* the last stretch of a wait is spun: nanosleep overshoots */

double pb_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int64_t pb_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

void pb_hms(char *buf, size_t len, double s)
{
	unsigned long t = s > 0 ? (unsigned long)(s + 0.5) : 0;

	if (t >= 3600)
		snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%lu:%02lu", t / 60, t % 60);
}

void pb_sleep_until(double t)
{
	double left = t - pb_now();

	if (left > 2 * PB_SPIN_S) {
		double until = t - PB_SPIN_S;
		struct timespec ts = { .tv_sec = (time_t)until,
				       .tv_nsec = (long)((until - floor(until)) * 1e9) };

		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	while (pb_now() < t)
		;
}

static double clock_mono_now(void *ctx)
{
	return pb_now();
}

static void clock_mono_sleep_until(void *ctx, double t)
{
	pb_sleep_until(t);
}

static void clock_mono_nap_until(void *ctx, double t)
{
	struct timespec ts = { .tv_sec = (time_t)t, .tv_nsec = (long)((t - floor(t)) * 1e9) };

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

const struct pb_clock pb_clock_mono = {
	.now = clock_mono_now,
	.sleep_until = clock_mono_sleep_until,
	.nap_until = clock_mono_nap_until,
};
