// SPDX-License-Identifier: MIT
/* Pacing arithmetic: on schedule, ahead, a short stall caught up, a long stall forgiven. */
#include <math.h>
#include <stdint.h>

#include "pacer.h"
#include "check.h"

int main(void)
{
	struct pb_pacer p;
	uint64_t a;

	pb_pacer_init(&p, 0, 10.0, 0.01);
	CHECK(pb_pacer_allowance(&p, 11.0, 123) == UINT64_MAX, "rate 0 is unlimited");

	/* 1000 frames/s, 10 ms of catch-up = 10 frames */
	pb_pacer_init(&p, 1000, 10.0, 0.01);
	CHECK(p.burst == 10, "burst is 10 frames, got %g", p.burst);
	CHECK(pb_pacer_allowance(&p, 9.0, 0) == 0, "nothing before the clock starts");
	CHECK(pb_pacer_allowance(&p, 10.0005, 0) == 0, "half a frame time: nothing yet");
	CHECK(pb_pacer_allowance(&p, 10.005, 0) == 5, "5 ms in: 5 frames");
	CHECK(pb_pacer_allowance(&p, 10.005, 5) == 0, "on schedule: nothing more");
	CHECK(pb_pacer_allowance(&p, 10.005, 7) == 0, "ahead: nothing (never negative)");
	CHECK(fabs(pb_pacer_next(&p, 5) - 10.006) < 1e-9, "frame 6 is due at 6 ms, got %.9f",
	      pb_pacer_next(&p, 5));

	/* a 9 ms stall is within the burst: all of it may be caught up */
	a = pb_pacer_allowance(&p, 10.014, 5);
	CHECK(a == 9, "a 9 ms stall: 9 frames to catch up, got %llu", (unsigned long long)a);

	/* a 1 s stall: only the burst, the rest is forgiven, and the schedule moves on */
	a = pb_pacer_allowance(&p, 11.014, 14);
	CHECK(a == 10, "a 1 s stall: only the 10-frame burst, got %llu", (unsigned long long)a);
	CHECK(p.forgiven == 990, "990 frames forgiven, got %g", p.forgiven);
	a = pb_pacer_allowance(&p, 11.014, 24);
	CHECK(a == 0, "after the burst the worker is on schedule, got %llu", (unsigned long long)a);
	a = pb_pacer_allowance(&p, 11.015, 24);
	CHECK(a == 1, "and then gets one frame per ms, got %llu", (unsigned long long)a);

	/* over a simulated second sending whatever is allowed every 64 us: exactly the rate */
	{
		uint64_t done = 0;
		double t;

		pb_pacer_init(&p, 50000, 0, 0.01);
		for (t = 0; t < 1.0; t += 64e-6)
			done += pb_pacer_allowance(&p, t, done);
		CHECK(done >= 49990 && done <= 50000, "one second at 50 kpps sends %llu",
		      (unsigned long long)done);
	}

	/* a fractional per-worker share (aggregate 1000 over 3 workers) */
	pb_pacer_init(&p, 1000.0 / 3, 0, 0.01);
	CHECK(p.burst == 3, "burst of a 333 pps share is 3 frames, got %g", p.burst);
	CHECK(pb_pacer_allowance(&p, 3.0, 0) == 3 && p.forgiven == 997,
	      "a late start is capped at the burst too");

	return check_summary();
}
