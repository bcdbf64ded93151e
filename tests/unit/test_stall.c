// SPDX-License-Identifier: MIT
/*
 * The stall detector's arithmetic (pacer.h's pb_stall): the quiet time of a sender, watched
 * only while it could send and only between looks that came on time, and how long a paced
 * sender may stay quiet. Looks are simulated: no clock is read.
 */
#include <math.h>
#include <stdint.h>

#include "pacer.h"
#include "check.h"

/* Looks every step s from t to until, the count fixed at sent; the last quiet time. */
static double looks(struct pb_stall *st, double *t, double until, double step, uint64_t sent,
		    bool watch)
{
	double q = 0;

	for (; *t < until - 1e-9; *t += step)
		q = pb_stall_look(st, *t + step, sent, watch);
	return q;
}

int main(void)
{
	struct pb_stall st;
	double t = 10.0, q;

	/* a sender that never sends: 3 s of looks every 10 ms, all counted */
	pb_stall_init(&st, t);
	q = looks(&st, &t, 13.0, 0.01, 0, true);
	CHECK(fabs(q - 3.0) < 1e-6, "never sent: quiet %.6f s, want 3", q);
	CHECK(st.from == 10.0, "never sent: quiet from %.3f, want the start", st.from);

	/* a count that moves resets it; the stretch is counted from that look */
	q = pb_stall_look(&st, t + 0.01, 5, true);
	t += 0.01;
	CHECK(q == 0 && st.from == t, "moved: quiet %.3f from %.3f", q, st.from);
	q = looks(&st, &t, t + 1.5, 0.01, 5, true);
	CHECK(fabs(q - 1.5) < 1e-6, "quiet again: %.6f s, want 1.5", q);

	/* the link down: not watched, and the stretch starts again when it is back */
	q = looks(&st, &t, t + 4.0, 0.01, 5, false);
	CHECK(q == 0, "link down: quiet %.3f, want 0", q);
	q = looks(&st, &t, t + 0.5, 0.01, 5, true);
	CHECK(fabs(q - 0.5) < 1e-6, "after the link came back: quiet %.6f s, want 0.5", q);

	/* a look that came late (the watcher was stopped for 5 s): the gap is not counted */
	pb_stall_init(&st, 0);
	t = 0;
	q = looks(&st, &t, 1.0, 0.01, 0, true);
	q = pb_stall_look(&st, 6.0, 0, true);
	CHECK(fabs(q - 1.0) < 1e-6, "late look: quiet %.6f s, want the 1 s watched", q);
	t = 6.0;
	q = looks(&st, &t, 7.0, 0.01, 0, true);
	CHECK(fabs(q - 2.0) < 1e-6, "then watched on: quiet %.6f s, want 2", q);
	/* a gap just within PB_STALL_GAP_S counts; just beyond, it does not */
	t = st.last + 0.99 * PB_STALL_GAP_S;
	q = pb_stall_look(&st, t, 0, true);
	CHECK(fabs(q - 2.0 - 0.99 * PB_STALL_GAP_S) < 1e-6, "a gap within the bound counts: %.6f",
	      q);
	q = pb_stall_look(&st, t + 1.01 * PB_STALL_GAP_S, 0, true);
	CHECK(fabs(q - 2.0 - 0.99 * PB_STALL_GAP_S) < 1e-6, "a longer gap does not: %.6f", q);

	/*
	 * A window that opens later (--start-at: the instant a few seconds off): the looks
	 * before it watch nothing, and the quiet time runs from the instant
	 */
	pb_stall_init(&st, 20.0);
	t = 15.0;
	q = looks(&st, &t, 20.0, 0.05, 0, true);
	CHECK(q < 1e-6, "before the window opens: quiet %.6f s, want 0", q);
	q = looks(&st, &t, 21.0, 0.05, 0, true);
	CHECK(fabs(q - 1.0) < 1e-6, "1 s after it opened: quiet %.6f s, want 1", q);
	CHECK(st.from == 20.0, "quiet from %.3f, want the instant", st.from);

	/* how long a sender may stay quiet: PB_STALL_S, or a few of its frames when slow */
	CHECK(pb_stall_after(0) == PB_STALL_S, "unlimited: %g", pb_stall_after(0));
	CHECK(pb_stall_after(1000) == PB_STALL_S, "1000 pps: %g", pb_stall_after(1000));
	CHECK(pb_stall_after(2.0) == PB_STALL_S, "2 pps: %g", pb_stall_after(2.0));
	CHECK(fabs(pb_stall_after(0.5) - PB_STALL_FRAMES / 0.5) < 1e-12,
	      "0.5 pps: %g s, want %g (a frame every 2 s is no stall)", pb_stall_after(0.5),
	      PB_STALL_FRAMES / 0.5);
	/* a paced sender at 0.5 pps, quiet between its frames, never reaches its bound */
	pb_stall_init(&st, 0);
	t = 0;
	for (int k = 1; k <= 5; k++) {
		q = looks(&st, &t, 2.0 * k, 0.01, (uint64_t)k - 1, true);
		CHECK(q < pb_stall_after(0.5), "0.5 pps, frame %d: quiet %.3f s (bound %g)", k, q,
		      pb_stall_after(0.5));
		pb_stall_look(&st, t, (uint64_t)k, true);
	}
	return check_summary();
}
