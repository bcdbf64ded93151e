// SPDX-License-Identifier: MIT
/*
 * Pacing arithmetic: on schedule, ahead, a stall caught up smoothly at the peak rate (never a
 * burst), a long stall forgiven, calls slower than a gap batched just enough to keep the
 * rate, fractional per-stream shares. Timelines are simulated: no clock is read.
 */
#include <math.h>
#include <stdint.h>

#include "pacer.h"
#include "stats.h"
#include "check.h"

/*
 * A worker on a simulated clock from t to until: ask, hand over what is allowed (a call
 * taking call_s + per_s a frame), else sleep until the next frame is due. Records the
 * smallest gap between consecutive frames handed over one call apart, how many frames went
 * in one call at most, and returns the frames handed over.
 */
struct sim {
	double t, min_gap, last;
	uint64_t done, max_k;
};

static void simulate(struct pb_pacer *p, struct sim *s, double until, double call_s, double per_s)
{
	while (s->t < until) {
		uint64_t k = pb_pacer_allowance(p, s->t, s->done);

		if (!k) {
			double next = pb_pacer_next(p, s->done);

			s->t = next > s->t ? next : s->t + 1e-9;
			continue;
		}
		if (s->last && s->t - s->last < s->min_gap)
			s->min_gap = s->t - s->last;
		s->last = s->t;
		s->max_k = k > s->max_k ? k : s->max_k;
		s->done += k;
		s->t += call_s + per_s * (double)k;
	}
}

/*
 * A sleeping worker (pb_pacer_sleeps) on a simulated clock: each sleep to pb_pacer_next()
 * ends late by late_s (every late_every-th one by late2_s), each call takes call_s, its
 * departures recorded. Returns the wakes that sent.
 */
static uint64_t simulate_sleeper(struct pb_pacer *p, struct sim *s, double until, double late_s,
				 double late2_s, unsigned int late_every, double call_s)
{
	uint64_t wakes = 0, n = 0;

	while (s->t < until) {
		uint64_t k = pb_pacer_allowance(p, s->t, s->done);

		if (!k) {
			double next = pb_pacer_next(p, s->done);

			n++;
			s->t = (next > s->t ? next : s->t) + (n % late_every ? late_s : late2_s);
			continue;
		}
		wakes++;
		s->max_k = k > s->max_k ? k : s->max_k;
		pb_pacer_depart(p, s->t, s->done, s->done + k);
		s->done += k;
		s->t += call_s;
	}
	return wakes;
}

/*
 * --pace sleep: a sleep ends 40 us late (one in 100 by 90 us, as measured here), and the
 * sleeper waits for PB_PACE_SLEEP_MIN_S of the schedule at a time: at 30 kpps it still sends
 * exactly the rate, in calls of a few frames (a wake per 3 to 5 frames, not per frame), its
 * departures late by the wake and the frames it waited for, and none forgiven.
 */
static void test_sleeper(void)
{
	struct pb_pacer p;
	struct sim s = { .t = 0, .min_gap = 1 };
	double b, gap = 1.0 / 30000, h50, h99;
	uint64_t wakes;

	pb_pacer_init(&p, 30000, 0, 0.01);
	pb_pacer_sleeps(&p);
	b = floor(30000 * PB_PACE_SLEEP_MIN_S);
	CHECK(b == 2, "30 kpps: a sleeper waits for 2 more frames than one, got %g", b);
	wakes = simulate_sleeper(&p, &s, 1.0, 40e-6, 90e-6, 100, 5e-6);
	CHECK(s.done >= 29997 && s.done <= 30000 && p.forgiven == 0,
	      "1 s at 30 kpps asleep: %llu frames, none forgiven (%g)", (unsigned long long)s.done,
	      p.forgiven);
	/* 3 frames waited for, and the 1.2 that fell due while the wake was late */
	CHECK(wakes >= 6000 && wakes <= 10000,
	      "a wake per 3 to 5 frames: %llu wakes for %llu frames", (unsigned long long)wakes,
	      (unsigned long long)s.done);
	h50 = pb_us_quantile(p.hist, PB_PACE_HIST, p.departed, 0.5, p.err_max);
	h99 = pb_us_quantile(p.hist, PB_PACE_HIST, p.departed, 0.99, p.err_max);
	/* the first of three waits two gaps and the wake: 66.7 + 40 us; a late wake 90 */
	CHECK(p.departed == s.done && h50 >= 40 && h99 <= 2 * gap * 1e6 + 90 + 1 &&
		      p.err_max < 2 * gap * 1e6 + 90 + 6,
	      "departures: p50 %g us, p99 %g us, max %g us", h50, h99, p.err_max);

	/* 2 kpps: a gap is longer than the least sleep: a wake per frame, late by the wake */
	pb_pacer_init(&p, 2000, 0, 0.01);
	pb_pacer_sleeps(&p);
	s = (struct sim){ .t = 0, .min_gap = 1 };
	wakes = simulate_sleeper(&p, &s, 1.0, 40e-6, 90e-6, 100, 5e-6);
	CHECK(s.done >= 1999 && s.done <= 2000 && wakes == s.done,
	      "2 kpps asleep: %llu frames in %llu wakes", (unsigned long long)s.done,
	      (unsigned long long)wakes);
	h50 = pb_us_quantile(p.hist, PB_PACE_HIST, p.departed, 0.5, p.err_max);
	CHECK(h50 == 41 && p.err_max < 91, "2 kpps: late by the wake alone: p50 %g, max %g us", h50,
	      p.err_max);
}

int main(void)
{
	struct pb_pacer p;
	struct sim s;
	uint64_t a;
	double gap;

	pb_pacer_init(&p, 0, 10.0, 0.01);
	CHECK(pb_pacer_allowance(&p, 11.0, 123) == UINT64_MAX, "rate 0 is unlimited");

	/* 1000 frames/s, 10 ms of catch-up = 10 frames */
	pb_pacer_init(&p, 1000, 10.0, 0.01);
	CHECK(p.burst == 10, "burst is 10 frames, got %g", p.burst);
	CHECK(pb_pacer_allowance(&p, 9.0, 0) == 0, "nothing before the clock starts");
	CHECK(pb_pacer_allowance(&p, 10.0005, 0) == 0, "half a frame time: nothing yet");
	CHECK(pb_pacer_allowance(&p, 10.001, 0) == 1, "1 ms in: the first frame");
	CHECK(pb_pacer_allowance(&p, 10.0015, 1) == 0, "on schedule: nothing more");
	CHECK(pb_pacer_allowance(&p, 10.0015, 3) == 0, "ahead: nothing (never negative)");
	CHECK(fabs(pb_pacer_next(&p, 1) - 10.002) < 1e-9, "frame 2 is due at 2 ms, got %.9f",
	      pb_pacer_next(&p, 1));

	/* 5 ms late: five frames owed, yet one at a time, a peak gap apart, not a burst */
	pb_pacer_init(&p, 1000, 10.0, 0.01);
	gap = 1.0 / (PB_PACE_PEAK * 1000);
	a = pb_pacer_allowance(&p, 10.005, 0);
	CHECK(a == 1, "5 frames owed: one now, got %llu", (unsigned long long)a);
	CHECK(pb_pacer_allowance(&p, 10.005 + gap / 2, 1) == 0, "none half a peak gap later");
	CHECK(fabs(pb_pacer_next(&p, 1) - (10.005 + gap)) < 1e-9,
	      "the next one a peak gap (%g ms) later, got %.9f", gap * 1e3, pb_pacer_next(&p, 1));
	CHECK(pb_pacer_allowance(&p, 10.005 + gap, 1) == 1, "and then it goes");

	/* a stall inside the window: caught up smoothly, the schedule back on time */
	pb_pacer_init(&p, 1000, 0, 0.01);
	s = (struct sim){ .min_gap = 1 };
	simulate(&p, &s, 0.1, 1e-6, 0);
	s.t += 0.009; /* a 9 ms stall */
	simulate(&p, &s, 0.3, 1e-6, 0);
	CHECK(s.min_gap > gap - 1e-9, "catching up: frames %.3f ms apart at least (peak gap %.3f)",
	      s.min_gap * 1e3, gap * 1e3);
	CHECK(s.max_k == 1, "cheap calls: one frame a call, got %llu", (unsigned long long)s.max_k);
	CHECK(s.done >= 299 && s.done <= 300 && p.forgiven == 0,
	      "all 9 caught up: %llu frames by 300 ms, %g forgiven", (unsigned long long)s.done,
	      p.forgiven);

	/* a 1 s stall: only the window's 10 frames are owed, the rest forgiven */
	pb_pacer_init(&p, 1000, 10.0, 0.01);
	a = pb_pacer_allowance(&p, 11.0, 0);
	CHECK(a == 1 && p.forgiven == 990, "a 1 s stall: 990 forgiven (%g), one frame now",
	      p.forgiven);
	s = (struct sim){ .t = 11.0 + 1e-6, .done = 1, .min_gap = 1, .last = 11.0 };
	simulate(&p, &s, 11.2, 1e-6, 0);
	CHECK(s.done >= 209 && s.done <= 210 && s.min_gap > gap - 1e-9,
	      "then caught up at the peak rate: %llu by 200 ms, gaps >= %.3f ms",
	      (unsigned long long)s.done, s.min_gap * 1e3);

	/*
	 * On schedule, exactly: cheap calls at 1234 pps for 1 s hand frame n over at n / 1234 s,
	 * one at a time, and all 1234 by the second (a pacer 1 % slow is 12 short, 8 us late on
	 * the first frame already)
	 */
	pb_pacer_init(&p, 1234, 5.0, 0.01);
	s = (struct sim){ .t = 5.0, .min_gap = 1 };
	{
		uint64_t n = 0, bad = 0;
		double got = 0;

		while (s.t <= 6.0) {
			a = pb_pacer_allowance(&p, s.t, s.done);
			if (!a) {
				s.t = pb_pacer_next(&p, s.done);
				continue;
			}
			n++;
			if (!bad && (a != 1 || fabs(s.t - (5.0 + (double)n / 1234)) > 1e-9)) {
				bad = n;
				got = s.t;
			}
			s.done += a;
			s.t += 1e-6;
		}
		CHECK(s.done == 1234 && !bad,
		      "1234 pps for 1 s: %llu frames, frame %llu at +%.9f s (due +%.9f)",
		      (unsigned long long)s.done, (unsigned long long)bad, got - 5.0,
		      (double)bad / 1234);
	}

	/* calls slower than a gap (a 64 us call at 50 kpps): batched just enough for the rate */
	pb_pacer_init(&p, 50000, 0, 0.01);
	s = (struct sim){ .min_gap = 1 };
	simulate(&p, &s, 1.0, 64e-6, 0);
	CHECK(s.done == (uint64_t)floor(s.last * 50000 + 1e-6) && s.done >= 49990,
	      "one second at 50 kpps sends %llu, all that was due by the last call (at %.6f s)",
	      (unsigned long long)s.done, s.last);
	CHECK(s.max_k >= 3 && s.max_k <= 8, "up to %llu frames a call (a call lasts 3.2 frames)",
	      (unsigned long long)s.max_k);

	/* a path that costs more per frame than the rate allows: it gets all it can take */
	pb_pacer_init(&p, 1e6, 0, 0.01);
	s = (struct sim){ .min_gap = 1 };
	simulate(&p, &s, 0.1, 2e-6, 1.1e-6); /* 1.1 us a frame: at most ~900 kpps */
	CHECK(s.done > 85000 && s.max_k > 16,
	      "a slow path keeps its batches: %llu frames in 100 ms, up to %llu a call",
	      (unsigned long long)s.done, (unsigned long long)s.max_k);

	/* a fractional per-worker share (aggregate 1000 over 3 workers) */
	pb_pacer_init(&p, 1000.0 / 3, 0, 0.01);
	CHECK(p.burst == 3, "burst of a 333 pps share is 3 frames, got %g", p.burst);
	CHECK(pb_pacer_allowance(&p, 3.0, 0) == 1 && p.forgiven == 997,
	      "a late start is capped at the burst too, and caught up one by one");

	/* which frame of a bunch the schedule has leave at a time (a probe's, runner.c) */
	pb_pacer_init(&p, 1000, 0, 0.01);
	CHECK(pb_pacer_frame_at(&p, 0.0105, 5) == 5,
	      "1000 pps, 5 gone: the frame due at or after 10.5 ms is the 6th of the call (got %u)",
	      pb_pacer_frame_at(&p, 0.0105, 5));
	CHECK(pb_pacer_frame_at(&p, 0.010, 5) == 4, "one due at 10 ms exactly is the 5th (got %u)",
	      pb_pacer_frame_at(&p, 0.010, 5));
	CHECK(pb_pacer_frame_at(&p, 0.003, 5) == 0, "a time already past: the call's first");
	p.forgiven = 3;
	CHECK(pb_pacer_frame_at(&p, 0.0105, 5) == 2,
	      "3 frames of debt forgiven move the schedule on by 3 (got %u)",
	      pb_pacer_frame_at(&p, 0.0105, 5));
	pb_pacer_init(&p, 0, 0, 0.01);
	CHECK(pb_pacer_frame_at(&p, 5.0, 5) == 0, "unpaced: the call's first");

	test_sleeper();
	return check_summary();
}
