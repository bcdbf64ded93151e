// SPDX-License-Identifier: MIT
/*
 * RFC 2544's searches against simulated devices under test: a function of the offered rate
 * (or burst) to the frames lost. A clean cliff, a tbf-like limit, a path slower than the
 * device, a device slower than anything, noisy devices (a capacity that wanders from trial
 * to trial, spurious losses, a lucky pass), PDR tolerance, the trial bound, the 26.3 load
 * walk and the 26.4 average.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "rfc2544_search.h"

/* A small deterministic PRNG (xorshift64*), so every run sees the same noise. */
static uint64_t rng_state;

static double rng_unit(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (double)((rng_state * 0x2545f4914f6cdd1dull) >> 11) / (double)(1ull << 53);
}

/* A simulated DUT: the loss percentage of a trial at rate r (frames/s) for t seconds. */
struct dut {
	double cap;	  /* frames/s it forwards */
	double allowance; /* frames it can absorb above cap in one trial (bucket + queue) */
	double jitter;	  /* its capacity wanders by up to this fraction per trial */
	double spurious;  /* probability that a trial loses a frame anyway */
	int lucky_trial;  /* this trial (1-based) passes whatever the rate; 0: none */
	double trial_s;
	unsigned int calls;
};

static double dut_loss_pct(struct dut *d, double rate)
{
	double cap = d->cap * (1 + d->jitter * (2 * rng_unit() - 1));
	double offered = rate * d->trial_s;
	double lost = offered - cap * d->trial_s - d->allowance;

	d->calls++;
	if (d->lucky_trial && (int)d->calls == d->lucky_trial)
		return 0;
	if (d->spurious && rng_unit() < d->spurious && lost < 1)
		lost = 1;
	return lost > 0 ? 100 * lost / offered : 0;
}

/* Runs a search to its end against d with a loss tolerance; returns the trials it took. */
static unsigned int drive(struct pb_search *s, struct dut *d, double tolerance_pct)
{
	double v;
	unsigned int n = 0;

	while (pb_search_next(s, &v)) {
		pb_search_record(s, dut_loss_pct(d, v) <= tolerance_pct);
		n++;
	}
	return n;
}

static const struct pb_search_opts rate_opts = {
	.min = 100,
	.max = 1e6, /* the send path's measured maximum */
	.precision = 0.01,
	.max_trials = 40,
	.confirm = true,
};

static bool within(double got, double want, double rel)
{
	return fabs(got - want) <= rel * want + 1e-9;
}

static void test_cliff(void)
{
	static const double caps[] = { 250e3, 500e3, 777e3, 999e3, 1234, 40e3 };
	struct pb_search s;
	unsigned int i, n;

	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		struct dut d = { .cap = caps[i], .trial_s = 1 };

		CHECK(!pb_search_init(&s, &rate_opts), "init");
		n = drive(&s, &d, 0);
		CHECK(s.state == PB_SEARCH_DONE, "cap %.0f: state %d", caps[i], s.state);
		/* the answer passes, and is within the precision below the true limit */
		CHECK(pb_search_result(&s) <= caps[i] &&
			      pb_search_result(&s) >= caps[i] * (1 - rate_opts.precision),
		      "cap %.0f: found %.1f", caps[i], pb_search_result(&s));
		CHECK(n <= pb_search_bound(&rate_opts, caps[i]), "cap %.0f: %u trials, bound %u",
		      caps[i], n, pb_search_bound(&rate_opts, caps[i]));
		CHECK(s.confirmed, "cap %.0f: the answer was confirmed", caps[i]);
	}
}

/* The send path is the limit: the first trial, at its maximum, loses nothing. */
static void test_path_limited(void)
{
	struct dut d = { .cap = 2e6, .trial_s = 1 };
	struct pb_search s;
	unsigned int n;

	pb_search_init(&s, &rate_opts);
	n = drive(&s, &d, 0);
	CHECK(s.state == PB_SEARCH_DONE && pb_search_result(&s) == rate_opts.max,
	      "path-limited: found %.0f (state %d)", pb_search_result(&s), s.state);
	CHECK(n == 2, "path-limited: the maximum and its confirmation, %u trials", n);
}

/* A device slower than the lowest rate worth trying: nothing passes, said so. */
static void test_nothing_passes(void)
{
	struct dut d = { .cap = 50, .trial_s = 1 };
	struct pb_search s;
	unsigned int n;

	pb_search_init(&s, &rate_opts);
	n = drive(&s, &d, 0);
	CHECK(s.state == PB_SEARCH_NONE && pb_search_result(&s) == 0,
	      "nothing passes: state %d, result %.1f", s.state, pb_search_result(&s));
	CHECK(n <= pb_search_bound(&rate_opts, rate_opts.min), "nothing passes: %u trials", n);
}

/* A tbf: a bucket and a queue absorb some frames above its rate in each trial. */
static void test_tbf_like(void)
{
	/* 40 Mbit/s of 60-byte frames, 48 KB of bucket and queue, 2 s trials */
	struct dut d = { .cap = 40e6 / 8 / 60, .allowance = 48e3 / 60, .trial_s = 2 };
	double expect = d.cap + d.allowance / d.trial_s;
	struct pb_search s;

	pb_search_init(&s, &rate_opts);
	drive(&s, &d, 0);
	CHECK(within(pb_search_result(&s), expect, 0.01) && pb_search_result(&s) <= expect,
	      "tbf: found %.0f, the limit is %.0f", pb_search_result(&s), expect);
	CHECK(within(pb_search_result(&s), d.cap, 0.05), "tbf: %.0f within 5 %% of the rate %.0f",
	      pb_search_result(&s), d.cap);
}

/* PDR: a tolerance of 0.5 % moves the answer to where the loss reaches it. */
static void test_pdr(void)
{
	struct dut d = { .cap = 300e3, .trial_s = 1 };
	double expect = d.cap / (1 - 0.005);
	struct pb_search s;

	pb_search_init(&s, &rate_opts);
	drive(&s, &d, 0.5);
	CHECK(pb_search_result(&s) <= expect && pb_search_result(&s) >= expect * 0.99,
	      "pdr: found %.0f, want up to %.0f", pb_search_result(&s), expect);
}

/* A capacity that wanders +-2 % per trial: the answer is within precision plus the wander. */
static void test_noisy_capacity(void)
{
	unsigned int seed, n, worst = 0;
	double err, worst_err = 0;
	struct pb_search s;

	for (seed = 1; seed <= 300; seed++) {
		struct dut d = { .cap = 420e3, .jitter = 0.02, .trial_s = 1 };

		rng_state = 0x9e3779b97f4a7c15ull * seed;
		pb_search_init(&s, &rate_opts);
		n = drive(&s, &d, 0);
		err = fabs(pb_search_result(&s) / d.cap - 1);
		worst_err = fmax(worst_err, err);
		worst = n > worst ? n : worst;
		CHECK(s.state == PB_SEARCH_DONE || s.state == PB_SEARCH_EXHAUSTED,
		      "noisy seed %u: state %d", seed, s.state);
		CHECK(err <= rate_opts.precision + d.jitter, "noisy seed %u: found %.0f of %.0f",
		      seed, pb_search_result(&s), d.cap);
	}
	CHECK(worst <= rate_opts.max_trials, "noisy: at most %u trials, took %u",
	      rate_opts.max_trials, worst);
	printf("noisy capacity: worst error %.2f %%, at most %u trials\n", 100 * worst_err, worst);
}

/*
 * Spurious losses (5 % of trials lose a frame whatever the rate): with one retry a failed
 * trial must fail twice, so the search lands within the precision nearly always, and never
 * runs away.
 */
static void test_spurious_losses(void)
{
	struct pb_search_opts o = rate_opts;
	unsigned int seed, good = 0, runs = 300, n, worst = 0;
	struct pb_search s;

	o.retries = 1;
	for (seed = 1; seed <= runs; seed++) {
		struct dut d = { .cap = 333e3, .spurious = 0.05, .trial_s = 1 };

		rng_state = 0x51ed2701ull * seed + 7;
		pb_search_init(&s, &o);
		n = drive(&s, &d, 0);
		worst = n > worst ? n : worst;
		good += pb_search_result(&s) <= d.cap &&
			pb_search_result(&s) >= d.cap * (1 - o.precision);
	}
	CHECK(good >= runs * 98 / 100, "spurious losses: %u of %u within precision", good, runs);
	CHECK(worst <= o.max_trials, "spurious losses: %u trials at most", worst);
	printf("spurious losses: %u of %u within precision, at most %u trials\n", good, runs,
	       worst);

	/* without the retry, the same noise lands wrong more often: the retry is what helps */
	o.retries = 0;
	for (good = 0, seed = 1; seed <= runs; seed++) {
		struct dut d = { .cap = 333e3, .spurious = 0.05, .trial_s = 1 };

		rng_state = 0x51ed2701ull * seed + 7;
		pb_search_init(&s, &o);
		drive(&s, &d, 0);
		good += pb_search_result(&s) >= d.cap * (1 - o.precision);
	}
	CHECK(good < runs * 98 / 100, "without retries: %u of %u (the noise is real)", good, runs);
}

/* One lucky pass far above the limit: the confirmation refutes it and the search goes on. */
static void test_lucky_pass(void)
{
	struct dut d = { .cap = 200e3, .trial_s = 1 };
	struct pb_search s;
	unsigned int k;

	/* whichever trial is the lucky one, the answer ends up right */
	for (k = 2; k <= 12; k++) {
		d.calls = 0;
		d.lucky_trial = (int)k;
		pb_search_init(&s, &rate_opts);
		drive(&s, &d, 0);
		CHECK(pb_search_result(&s) <= d.cap &&
			      pb_search_result(&s) >= d.cap * (1 - rate_opts.precision),
		      "lucky trial %u: found %.0f", k, pb_search_result(&s));
	}
	/* without confirmation a lucky last step stands: that is what confirmation is for */
	{
		struct pb_search_opts o = rate_opts;
		unsigned int wrong = 0;

		o.confirm = false;
		for (k = 2; k <= 12; k++) {
			d.calls = 0;
			d.lucky_trial = (int)k;
			pb_search_init(&s, &o);
			drive(&s, &d, 0);
			wrong += pb_search_result(&s) > d.cap;
		}
		CHECK(wrong > 0, "without confirmation some lucky trial stands (%u)", wrong);
	}
}

/*
 * A path that cannot offer what is asked above 90 kpps (its pacer falls short, or the device
 * pushes back): recorded at what was offered, the search ends at the best rate offered that
 * passed, in bounded trials, and never reports a rate that was not offered.
 */
static void test_short_offers(void)
{
	static const double caps[] = { 95e3, 60e3 };
	struct pb_search s;
	unsigned int i, n;
	double v;

	for (i = 0; i < 2; i++) {
		double cap = caps[i], offered = 0;

		pb_search_init(&s, &rate_opts);
		n = 0;
		while (pb_search_next(&s, &v) && n < 100) {
			offered = v > 90e3 ? 90e3 + (v - 90e3) * 0.05 : v; /* capped near 90k */
			if (v >= rate_opts.max)
				offered = 100e3; /* the unpaced maximum is what it is */
			pb_search_record_at(&s, offered, offered <= cap);
			n++;
		}
		if (cap > 90e3)
			CHECK(pb_search_result(&s) >= 90e3 && pb_search_result(&s) <= 90e3 * 1.01,
			      "short offers, cap %.0f: found %.0f, the path offers ~90000", cap,
			      pb_search_result(&s));
		else
			CHECK(pb_search_result(&s) <= cap &&
				      pb_search_result(&s) >= cap * (1 - rate_opts.precision),
			      "short offers, cap %.0f: found %.0f", cap, pb_search_result(&s));
		CHECK(n <= pb_search_bound(&rate_opts, cap) + 2 && s.state == PB_SEARCH_DONE,
		      "short offers, cap %.0f: %u trials (state %d)", cap, n, s.state);
		/* bounded by what the path could offer, not by a fail, only where it was */
		CHECK(s.ceiling == (cap > 90e3), "short offers, cap %.0f: ceiling %d", cap,
		      s.ceiling);
	}
}

/*
 * A sender as a real paced one is: it offers a little less than asked (its start and end
 * inside the trial's window), by up to jitter more or less at random, and now and then a
 * trial is held back (the machine was busy, the pacer's debt forgiven) to a share of what
 * was asked. An ask at the path's maximum is the unpaced trial: it offers the maximum.
 */
struct sender {
	double max;
	double shortfall;	 /* a paced trial offers this fraction less */
	double jitter;		 /* ... and up to this fraction more or less */
	unsigned int hold_every; /* every n-th trial is held back; 0: none */
	double hold_share;	 /* to this share of what was asked */
	unsigned int calls;
};

static double sender_offer(struct sender *x, double ask)
{
	x->calls++;
	if (ask >= x->max * (1 - 1e-9))
		return x->max;
	if (x->hold_every && x->calls % x->hold_every == 0)
		return ask * x->hold_share;
	return ask * (1 - x->shortfall) * (1 + x->jitter * (2 * rng_unit() - 1));
}

/* What a paced trial surely offers: above it, below the maximum, no ask surely lands. */
static double sender_reach(const struct sender *x)
{
	return x->max * (1 - x->shortfall) * (1 - x->jitter);
}

/*
 * What every search must leave behind: between its highest standing pass and the lowest
 * fail above it (or what the sender can reach, if lower), no untried interval wider than
 * its resolution. A search that stops with 27k passed and 55k failed fails this.
 */
static bool untried_within(const struct pb_search *s, double reach, double *pass, double *fail)
{
	double top;
	unsigned int i;

	*pass = pb_search_result(s);
	*fail = INFINITY;
	for (i = 0; i < s->trials; i++)
		if (!s->hist[i].passed && s->hist[i].value > *pass && s->hist[i].value < *fail)
			*fail = s->hist[i].value;
	top = fmin(*fail, reach);
	return !isfinite(top) ||
	       top - *pass <= fmax(s->o.precision * top, s->o.abs_precision) + 1e-6 ||
	       (s->o.integer && top - *pass <= 1);
}

/* Drives s against d through x, booking each trial at what x offered; trials taken. */
static unsigned int drive_sender(struct pb_search *s, struct dut *d, struct sender *x,
				 double tolerance_pct, bool log)
{
	double v, offered;
	unsigned int n = 0;
	bool pass;

	while (pb_search_next(s, &v) && n < 2 * PB_SEARCH_MAX_TRIALS) {
		offered = sender_offer(x, v);
		pass = dut_loss_pct(d, offered) <= tolerance_pct;
		if (log)
			printf("  asked %.0f offered %.0f %s\n", v, offered,
			       pass ? "pass" : "fail");
		pb_search_record_at(s, offered, pass);
		n++;
	}
	return n;
}

/*
 * The tbf of net/test_rfc2544_hosts (20 Mbit/s of 60-byte frames: 41667 pps) as a cliff,
 * searched with o through a sender like x: the answer is the device's rate, or the most
 * the sender offers paced if that is less (a maximum just above it), within the
 * resolution, with no untried gap, in trials that grow only with the retries and the
 * held-back share. Within rfc2544's default of 30 trials, a search that cannot finish says
 * so (exhausted) and keeps a rate that passed.
 */
static void ndr_case(struct pb_search_opts o, const struct sender *sx, unsigned int xi,
		     uint64_t seed, unsigned int *worst, unsigned int *exhausted)
{
	const double cap = 20e6 / 8 / 60, want = fmin(cap, o.max * (1 - sx->shortfall));
	unsigned int n, lim, hold = sx->hold_every;
	struct pb_search s;
	double pass, fail;
	int budget;

	/* each fail tried 1 + retries times, held-back trials lost */
	lim = (1 + o.retries) * (pb_search_bound(&o, want) + 2) * (hold ? hold : 1) /
	      (hold ? hold - 1 : 1);
	for (budget = 0; budget < 2; budget++) {
		struct sender x = *sx;
		struct dut d = { .cap = cap, .trial_s = 1 };

		x.max = o.max;
		o.max_trials = budget ? 30 : PB_SEARCH_MAX_TRIALS;
		rng_state = seed;
		CHECK(!pb_search_init(&s, &o), "init");
		n = drive_sender(&s, &d, &x, 0, false);
		if (budget) {
			*exhausted += s.state == PB_SEARCH_EXHAUSTED;
			CHECK(n <= 30 && pb_search_result(&s) <= cap &&
				      (s.state == PB_SEARCH_EXHAUSTED ||
				       (s.state == PB_SEARCH_DONE &&
					pb_search_result(&s) >= want * (1 - o.precision))),
			      "ndr in 30 trials, max %.0f start %.0f, precision %.0f %%, retries "
			      "%u, "
			      "sender %u: %.0f in %u trials (state %d)",
			      o.max, o.start, 100 * o.precision, o.retries, xi,
			      pb_search_result(&s), n, s.state);
			break;
		}
		*worst = n > *worst ? n : *worst;
		CHECK(s.state == PB_SEARCH_DONE && pb_search_result(&s) <= cap &&
			      pb_search_result(&s) >= want * (1 - o.precision) && n <= lim,
		      "ndr, max %.0f start %.0f, precision %.0f %%, retries %u, sender %u: found "
		      "%.0f of %.0f in %u trials (at most %u, state %d)",
		      o.max, o.start, 100 * o.precision, o.retries, xi, pb_search_result(&s), want,
		      n, lim, s.state);
		CHECK(untried_within(&s, sender_reach(&x), &pass, &fail),
		      "ndr, max %.0f start %.0f, precision %.0f %%, retries %u, sender %u: untried "
		      "%.0f..%.0f",
		      o.max, o.start, 100 * o.precision, o.retries, xi, pass, fail);
	}
}

/*
 * ndr_case from every start and every maximum, with a sender that falls a little short,
 * jitters and is held back now and then. The real run that went 211k -> 110k -> 55k ->
 * 27k and stopped is the 211k maximum with a sender 1.3 % short: the 27k pass fell short
 * of its ask, and the ask became the lowest "fail".
 */
static void test_ndr_any_start(void)
{
	static const double maxima[] = { 211e3, 1e6, 50e3, 42e3 };
	static const double starts[] = { 211e3, 50e3, 42e3, 10e3, 41667 };
	static const struct sender senders[] = {
		{ 0 },
		{ .shortfall = 0.013 },
		{ .shortfall = 0.013, .jitter = 0.004 },
		{ .shortfall = 0.02, .hold_every = 3, .hold_share = 0.5 },
		{ .shortfall = 0.013, .hold_every = 4, .hold_share = 0.5 },
		{ .hold_every = 2, .hold_share = 0.8 },
	};
	const double cap = 20e6 / 8 / 60;
	unsigned int i, xi, runs = 0, worst = 0, exhausted = 0;
	double pass, fail;
	struct pb_search s;
	unsigned int n;

	for (i = 0; i < 2 * 2 * 9; i++) {
		struct pb_search_opts o = rate_opts;

		o.precision = i / 18 ? 0.02 : 0.01;
		o.retries = i / 9 % 2 ? 2 : 0;
		if (i % 9 < 4) {
			o.max = maxima[i % 9]; /* the unpaced trial first */
			o.min = fmax(1, o.max * 1e-4);
		} else {
			o.start = starts[i % 9 - 4];
		}
		for (xi = 0; xi < sizeof(senders) / sizeof(senders[0]); xi++)
			ndr_case(o, &senders[xi], xi, 0x2545f4914f6cdd1dull + 977 * runs++, &worst,
				 &exhausted);
	}
	printf("ndr from every start: %u searches, at most %u trials; in 30 trials, %u "
	       "exhausted\n",
	       runs, worst, exhausted);

	/* the real run's figures, each trial printed */
	{
		struct pb_search_opts o = rate_opts;
		struct sender x = { .max = 211e3, .shortfall = 0.013 };
		struct dut d = { .cap = cap, .trial_s = 1 };

		o.max = 211e3;
		o.min = 21.1;
		o.precision = 0.02;
		o.retries = 2;
		o.max_trials = 30;
		pb_search_init(&s, &o);
		printf("the 211k case (a sender 1.3 %% short):\n");
		n = drive_sender(&s, &d, &x, 0, true);
		CHECK(s.state == PB_SEARCH_DONE &&
			      pb_search_result(&s) >= cap * (1 - o.precision) &&
			      pb_search_result(&s) <= cap,
		      "211k case: NDR %.0f of %.0f in %u trials (state %d)", pb_search_result(&s),
		      cap, n, s.state);
		CHECK(untried_within(&s, sender_reach(&x), &pass, &fail),
		      "211k case: untried %.0f..%.0f", pass, fail);
	}
}

/*
 * PDR: a tbf with a bucket and queue (absorbing frames above its rate within a trial) and a
 * tolerance of 0.5 %: the answer is where the loss reaches the tolerance, within the
 * resolution, from every start, through the same short and held-back sender.
 */
static void test_pdr_any_start(void)
{
	static const double starts[] = { 0, 211e3, 50e3, 45e3, 10e3 };
	const double cap = 20e6 / 8 / 60, allowance = 48e3 / 60, tol = 0.5;
	/* (r t - cap t - allowance) / (r t) = tol / 100, for t = 1 */
	const double want = (cap + allowance) / (1 - tol / 100);
	unsigned int i, k;
	double pass, fail;
	struct pb_search s;

	for (k = 0; k < 2; k++)
		for (i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
			struct pb_search_opts o = rate_opts;
			struct sender x = { .max = o.max,
					    .shortfall = 0.015 * k,
					    .hold_every = k ? 5 : 0,
					    .hold_share = 0.6 };
			struct dut d = { .cap = cap, .allowance = allowance, .trial_s = 1 };

			o.start = starts[i];
			rng_state = 77 + i;
			pb_search_init(&s, &o);
			drive_sender(&s, &d, &x, tol, false);
			CHECK(pb_search_result(&s) <= want &&
				      pb_search_result(&s) >= want * (1 - o.precision),
			      "pdr, start %.0f, sender %u: found %.0f, want %.0f", o.start, k,
			      pb_search_result(&s), want);
			CHECK(untried_within(&s, sender_reach(&x), &pass, &fail),
			      "pdr, start %.0f, sender %u: untried %.0f..%.0f", o.start, k, pass,
			      fail);
		}
}

/*
 * Back-to-back against a queue: a burst at rate r into a device forwarding cap frames/s
 * with a queue of q frames loses nothing up to q / (1 - cap / r) frames. From several
 * starts (the first search, and repetitions widening from a start near or far from it).
 */
static void test_b2b_any_start(void)
{
	static const double starts[] = { 0, 1, 50, 900, 964, 5000, 299999 };
	const double q = (16384 + 32768) / 60.0, cap = 20e6 / 8 / 60, r = 277688;
	const double limit = floor(q / (1 - cap / r));
	double v, pass, fail;
	struct pb_search s;
	unsigned int i, e;

	for (e = 0; e < 2; e++)
		for (i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
			struct pb_search_opts o = {
				.min = 1,
				.max = 300000,
				.start = starts[i],
				.precision = 0.01,
				.max_trials = 40,
				.integer = true,
				.expand = e && starts[i] > 0,
			};

			pb_search_init(&s, &o);
			while (pb_search_next(&s, &v))
				pb_search_record(&s, v <= limit);
			CHECK(s.state == PB_SEARCH_DONE && pb_search_result(&s) <= limit &&
				      pb_search_result(&s) >= floor(limit * (1 - o.precision)),
			      "b2b, start %.0f%s: found %.0f of %.0f", o.start,
			      o.expand ? " widening" : "", pb_search_result(&s), limit);
			CHECK(untried_within(&s, INFINITY, &pass, &fail),
			      "b2b, start %.0f%s: untried %.0f..%.0f", o.start,
			      o.expand ? " widening" : "", pass, fail);
		}
}

/* The trial bound: a search that cannot converge in time says so and keeps its best. */
static void test_exhausted(void)
{
	struct pb_search_opts o = rate_opts;
	struct dut d = { .cap = 123456, .trial_s = 1 };
	struct pb_search s;
	unsigned int n;

	o.max_trials = 4;
	pb_search_init(&s, &o);
	n = drive(&s, &d, 0);
	CHECK(n == 4 && s.state == PB_SEARCH_EXHAUSTED, "exhausted after %u trials (state %d)", n,
	      s.state);
	CHECK(pb_search_result(&s) <= d.cap, "exhausted: the best pass so far, %.0f",
	      pb_search_result(&s));
}

/* Back-to-back: an integer search over burst lengths, then repetitions from the last answer. */
static void test_bursts(void)
{
	struct pb_search_opts o = {
		.min = 1,
		.max = 300000,
		.precision = 0.02,
		.max_trials = 40,
		.integer = true,
	};
	static const double limits[] = { 501, 1, 17, 299999, 64000 };
	struct pb_search s;
	unsigned int i, n, first, rep;
	double v;

	for (i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		pb_search_init(&s, &o);
		n = 0;
		while (pb_search_next(&s, &v)) {
			CHECK(v == floor(v) && v >= 1 && v <= o.max, "burst %g is a whole count",
			      v);
			pb_search_record(&s, v <= limits[i]);
			n++;
		}
		CHECK(pb_search_result(&s) <= limits[i] &&
			      pb_search_result(&s) >= floor(limits[i] * (1 - o.precision)),
		      "burst limit %.0f: found %.0f", limits[i], pb_search_result(&s));
		CHECK(n <= pb_search_bound(&o, limits[i]), "burst limit %.0f: %u trials, bound %u",
		      limits[i], n, pb_search_bound(&o, limits[i]));
	}

	/* a repetition starts at the last answer and widens from there: far fewer trials */
	pb_search_init(&s, &o);
	first = 0;
	while (pb_search_next(&s, &v)) {
		pb_search_record(&s, v <= 5000);
		first++;
	}
	for (rep = 0; rep < 5; rep++) {
		struct pb_search_opts r = o;
		double limit = 5000 * (1 + 0.03 * ((int)rep - 2)); /* 4700 .. 5300 */

		r.expand = true;
		r.start = pb_search_result(&s) ? pb_search_result(&s) : 1;
		pb_search_init(&s, &r);
		n = 0;
		while (pb_search_next(&s, &v)) {
			pb_search_record(&s, v <= limit);
			n++;
		}
		CHECK(pb_search_result(&s) <= limit &&
			      pb_search_result(&s) >= floor(limit * (1 - o.precision)),
		      "repetition %u: found %.0f of %.0f", rep, pb_search_result(&s), limit);
		CHECK(n < first, "repetition %u: %u trials, the first search took %u", rep, n,
		      first);
		CHECK(n <= pb_search_bound(&r, limit), "repetition %u: %u trials, bound %u", rep, n,
		      pb_search_bound(&r, limit));
	}
}

static void test_bad_opts(void)
{
	struct pb_search_opts o = rate_opts;
	struct pb_search s;

	o.min = 0;
	CHECK(pb_search_init(&s, &o) == -EINVAL, "min 0 refused");
	o = rate_opts;
	o.max = 10;
	CHECK(pb_search_init(&s, &o) == -EINVAL, "max below min refused");
	o = rate_opts;
	o.precision = 1;
	CHECK(pb_search_init(&s, &o) == -EINVAL, "precision 100 %% refused");
	o = rate_opts;
	o.max_trials = PB_SEARCH_MAX_TRIALS + 1;
	CHECK(pb_search_init(&s, &o) == -EINVAL, "too many trials refused");
	o = rate_opts;
	o.start = 2e6;
	CHECK(pb_search_init(&s, &o) == -EINVAL, "a start above max refused");
	o = rate_opts;
	o.max = NAN;
	CHECK(pb_search_init(&s, &o) == -EINVAL, "NaN refused");
}

/* 26.3's walk against a tbf of 0.25 x the maximum, and against a device that never loses. */
static void test_loss_walk(void)
{
	static const double expect[] = { 100, 90, 80, 70, 60, 50, 40, 30, 20, 10 };
	struct pb_loss_walk w;
	double load, seen[16];
	unsigned int n = 0, i;

	pb_loss_walk_init(&w, 10);
	while (pb_loss_walk_next(&w, &load) && n < 16) {
		double r = load / 100 * 1e6, cap = 0.25e6;

		seen[n++] = load;
		pb_loss_walk_record(&w, r > cap ? 100 * (r - cap) / r : 0);
	}
	CHECK(n == 10, "tbf walk: %u steps, want 10 (down to two lossless, 20 and 10)", n);
	for (i = 0; i < n && i < 10; i++)
		CHECK(fabs(seen[i] - expect[i]) < 1e-9, "step %u at %.1f %%, want %.0f", i, seen[i],
		      expect[i]);

	pb_loss_walk_init(&w, 10);
	n = 0;
	while (pb_loss_walk_next(&w, &load)) {
		pb_loss_walk_record(&w, 0);
		n++;
	}
	CHECK(n == 2, "lossless device: %u steps, want 2", n);

	/* a lossless step between lossy ones does not end it: two in a row do */
	{
		static const double loss[] = { 5, 0, 3, 0, 0, 9 };

		pb_loss_walk_init(&w, 10);
		n = 0;
		while (pb_loss_walk_next(&w, &load) && n < 6)
			pb_loss_walk_record(&w, loss[n++]);
		CHECK(n == 5 && w.done, "non-monotone walk: %u steps, want 5", n);
	}
	/* a finer step, as the RFC encourages */
	pb_loss_walk_init(&w, 2.5);
	n = 0;
	while (pb_loss_walk_next(&w, &load)) {
		pb_loss_walk_record(&w, load > 50 ? 1 : 0);
		n++;
	}
	CHECK(n == 22 && fabs(load - 47.5) < 1e-9, "2.5 %% steps: %u steps, last at %.1f", n, load);
	/* down to the bottom: a device that always loses ends at the last step above 0 */
	pb_loss_walk_init(&w, 25);
	n = 0;
	while (pb_loss_walk_next(&w, &load)) {
		pb_loss_walk_record(&w, 1);
		n++;
	}
	CHECK(n == 4 && fabs(load - 25) < 1e-9, "always lossy: %u steps, last %.0f %%", n, load);
}

static void test_b2b(void)
{
	static const uint64_t bursts[] = { 100, 104, 96, 100 };
	struct pb_b2b b = { 0 };
	unsigned int i;

	CHECK(pb_b2b_mean(&b) == 0 && pb_b2b_stddev(&b) == 0, "empty average is 0");
	for (i = 0; i < 4; i++)
		pb_b2b_add(&b, bursts[i]);
	CHECK(b.n == 4 && b.min == 96 && b.max == 104, "b2b: n %u min %llu max %llu", b.n,
	      (unsigned long long)b.min, (unsigned long long)b.max);
	CHECK(fabs(pb_b2b_mean(&b) - 100) < 1e-9, "b2b mean %.3f", pb_b2b_mean(&b));
	CHECK(fabs(pb_b2b_stddev(&b) - sqrt(8)) < 1e-9, "b2b stddev %.3f", pb_b2b_stddev(&b));
}

int main(void)
{
	test_cliff();
	test_path_limited();
	test_nothing_passes();
	test_tbf_like();
	test_pdr();
	test_noisy_capacity();
	test_spurious_losses();
	test_lucky_pass();
	test_short_offers();
	test_ndr_any_start();
	test_pdr_any_start();
	test_b2b_any_start();
	test_exhausted();
	test_bursts();
	test_bad_opts();
	test_loss_walk();
	test_b2b();
	return check_summary();
}
