// SPDX-License-Identifier: MIT
/*
 * Settling the receiver's count after a window (harness/settle.h), on simulated counts and a
 * simulated clock read every PB_SETTLE_S: all arrived, a count that stood still (a loss), none
 * arrived, a slow trickle that ends, and a count still rising when settling gave up, which is
 * not all of it: an agent whose count was still rising gave an ok row with 549 of 1000.
 */
#include <stdint.h>

#include "settle.h"
#include "check.h"

/* The count at time t (s after the window), from a curve of the test's. */
typedef uint64_t (*count_fn)(double t);

static uint64_t all_at_once(double t)
{
	return t >= 0.05 ? 1000 : 0;
}

static uint64_t a_loss(double t)
{
	return t >= 0.05 ? 549 : 0;
}

static uint64_t none(double t)
{
	(void)t;
	return 0;
}

static uint64_t trickle_2s(double t)
{
	return (uint64_t)(t < 2 ? 200 + 100 * t : 400);
}

/* an agent whose host is slow: 2 frames more at each 20 ms read, for longer than settling */
static uint64_t rising(double t)
{
	return 200 + 2 * (uint64_t)(t / PB_SETTLE_S + 0.5);
}

/* Reads every PB_SETTLE_S from t = 0 until a verdict: it, and when and at what count. */
static enum pb_settle_verdict settle(count_fn f, uint64_t sent, double *at, uint64_t *count)
{
	struct pb_settle s;
	enum pb_settle_verdict v;
	double t = 0;
	int i;

	pb_settle_start(&s, 100.0);
	for (i = 0; i < 100000; i++, t += PB_SETTLE_S) {
		*count = f(t);
		v = pb_settle_next(&s, 100.0 + t, *count, sent);
		if (v != PB_SETTLE_WAIT)
			break;
	}
	*at = t;
	return v;
}

int main(void)
{
	enum pb_settle_verdict v;
	uint64_t n;
	double at;

	v = settle(all_at_once, 1000, &at, &n);
	CHECK(v == PB_SETTLE_DONE && n == 1000 && at < 0.1, "all arrived: done at %.2f s", at);
	v = settle(a_loss, 1000, &at, &n);
	CHECK(v == PB_SETTLE_DONE && n == 549 && at >= PB_SETTLE_QUIET_S && at < 0.3,
	      "549 of 1000, then still: done (a loss) at %.2f s", at);
	v = settle(none, 1000, &at, &n);
	CHECK(v == PB_SETTLE_NONE && at >= PB_SETTLE_MAX_S - 1e-9 && at < PB_SETTLE_MAX_S + 0.05,
	      "none arrived: none at %.2f s, the first second's end", at);
	v = settle(trickle_2s, 1000, &at, &n);
	CHECK(v == PB_SETTLE_DONE && n == 400 && at >= 2 + PB_SETTLE_QUIET_S - 1e-9 && at < 2.3,
	      "a trickle for 2 s, then still: read on while it rose, done at %.2f s with %llu "
	      "(verdict %d)",
	      at, (unsigned long long)n, v);
	v = settle(rising, 1000, &at, &n);
	CHECK(v == PB_SETTLE_RISING, "still rising when settling gave up at %.2f s (%llu): verdict "
				     "%d, want rising (not all of it)",
	      at, (unsigned long long)n, v);
	CHECK(at <= PB_SETTLE_RISING_MAX_S + 0.05, "gave up by %g s: %.2f s", PB_SETTLE_RISING_MAX_S,
	      at);
	return check_summary();
}
