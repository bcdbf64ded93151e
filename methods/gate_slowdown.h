/* SPDX-License-Identifier: MIT */
/*
 * The injected slowdown that scripts/gate-check.sh measures the CI gate with: only its builds
 * define PB_GATE_SLOW_<method> and PB_GATE_SLOW_FACTOR (CMake's PB_GATE_SLOWDOWN=method:factor),
 * never a default build. The method's send function is wrapped: after each call the sending
 * thread busy-waits (factor - 1) x the time since the previous call returned, which is the
 * loop's own cost (the harness's part of it and the send call), so the loop takes factor x as
 * long and as much CPU, whatever that method's per-frame cost is on this machine.
 */
#ifndef PB_GATE_SLOWDOWN_H
#define PB_GATE_SLOWDOWN_H

#include <stdint.h>
#include <time.h>

#include "method.h"

/* a gap longer than this is not the loop (the first call, a wait for the ring): not copied */
#define PB_GATE_SLOW_MAX_NS 1000000ull

static inline uint64_t pb_gate_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline void pb_gate_spin(void)
{
	static __thread uint64_t last;
	uint64_t now = pb_gate_now_ns(), end;

	if (last && now - last < PB_GATE_SLOW_MAX_NS) {
		end = now + (uint64_t)((PB_GATE_SLOW_FACTOR - 1.0) * (double)(now - last));
		while (pb_gate_now_ns() < end)
			;
	}
	last = pb_gate_now_ns();
}

/* fn##_gate: fn, then the spin */
#define PB_GATE_WRAP(fn)                                                                           \
	static int fn##_gate(struct pb_worker *w, unsigned int budget, struct pb_outcome *o)       \
	{                                                                                          \
		int ret = fn(w, budget, o);                                                        \
		pb_gate_spin();                                                                    \
		return ret;                                                                        \
	}

#endif
