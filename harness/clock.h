/* SPDX-License-Identifier: MIT */
/* The one clock: CLOCK_MONOTONIC in seconds, and an absolute sleep on it. */
#ifndef PB_CLOCK_H
#define PB_CLOCK_H

double pb_now(void);
/* Sleeps until pb_now() >= t: the kernel for the long part, a spin for the end. */
void pb_sleep_until(double t);

#endif
