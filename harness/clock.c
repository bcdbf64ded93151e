// SPDX-License-Identifier: MIT
/* The one clock everything times with: CLOCK_MONOTONIC, in seconds. */
#include <math.h>
#include <time.h>

#include "clock.h"

#define PB_SPIN_S 100e-6 /* the last stretch of a wait is spun: nanosleep overshoots */

double pb_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
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
