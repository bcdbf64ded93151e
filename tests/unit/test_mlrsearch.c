// SPDX-License-Identifier: MIT
/*
 * RFC 9971's MLRsearch (suites/mlrsearch.c): the Load Classification and the Conditional
 * Throughput against every figure of the RFC's own example (its Appendix C), the relevant
 * bounds by their definitions, then whole searches on simulated devices (a function from load
 * and duration to loss): a cliff, a tbf-like allowance searched with short trials first, and
 * a device that loses a burst in a known share of trials whatever the load. Each search's
 * results are held to an independent reading of the RFC (the steps of its Section 6, written
 * here apart from the code), to the devices' true NDR and PDR within the width, and its trial
 * seconds to at most half of what two binary searches (rfc2544_search.c, NDR then PDR) take
 * on the same device.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "mlrsearch.h"
#include "rfc2544_search.h"

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(1, fmax(fabs(a), fabs(b)));
}

/* ---- the RFC's example search (Appendix C) ---------------------------------------------- */

/* Its four goals: RFC2544, TST009, "1s final", "20% exceed" (widths are not its concern). */
static const struct pb_mlr_goal ex_goals[4] = {
	{ .loss_ratio = 0, .final_s = 60, .sum_s = 60, .exceed_ratio = 0, .width = 0.01 },
	{ .loss_ratio = 0, .final_s = 60, .sum_s = 120, .exceed_ratio = 0.5, .width = 0.01 },
	{ .loss_ratio = 0.005, .final_s = 1, .sum_s = 120, .exceed_ratio = 0.5, .width = 0.01 },
	{ .loss_ratio = 0.005, .final_s = 60, .sum_s = 60, .exceed_ratio = 0.2, .width = 0.01 },
};

/* One column of its tables: the sums, then the class. */
struct ex_col {
	double full_high, full_low, short_high, short_low, effect_high, effect_full, effect_whole,
		pessimistic_high;
	enum pb_mlr_class cls;
};

#define U PB_MLR_UPPER
#define L PB_MLR_LOWER
#define N PB_MLR_UNDECIDED

/* Its six points in time: the trials added (count x seconds at a loss ratio), the tables. */
static const struct {
	const char *name;
	unsigned int count;
	double secs, loss;
	struct ex_col col[4];
} ex_points[6] = {
	{ "first short good",
	  59,
	  1,
	  0,
	  { { 0, 0, 0, 59, 0, 0, 60, 60, N },
	    { 0, 0, 0, 59, 0, 0, 120, 120, N },
	    { 0, 59, 0, 0, 0, 59, 120, 61, N },
	    { 0, 0, 0, 59, 0, 0, 60, 60, N } } },
	{ "first short bad",
	  1,
	  1,
	  0.01,
	  { { 0, 0, 1, 59, 1, 1, 60, 60, U },
	    { 0, 0, 1, 59, 0, 0, 120, 120, N },
	    { 1, 59, 0, 0, 1, 60, 120, 61, N },
	    { 0, 0, 1, 59, 0, 0, 60, 60, N } } },
	{ "last short bad",
	  59,
	  1,
	  0.01,
	  { { 0, 0, 60, 59, 60, 60, 60, 60, U },
	    { 0, 0, 60, 59, 1, 1, 120, 120, N },
	    { 60, 59, 0, 0, 60, 119, 120, 61, N },
	    { 0, 0, 60, 59, 45.25, 45.25, 60, 60, U } } },
	{ "last short good",
	  1,
	  1,
	  0,
	  { { 0, 0, 60, 60, 60, 60, 60, 60, U },
	    { 0, 0, 60, 60, 0, 0, 120, 120, N },
	    { 60, 60, 0, 0, 60, 120, 120, 60, L },
	    { 0, 0, 60, 60, 45, 45, 60, 60, U } } },
	/*
	 * Goal 4 at points 5 and 6: the RFC's tables say Lower Bound, but their own figures
	 * (an optimistic exceed ratio of 42.857 % and 27.273 % against the goal's 20 %) and its
	 * normative Appendix A code make the load an Upper Bound. Every sum is the table's; the
	 * class is the code's.
	 */
	{ "first long bad",
	  1,
	  60,
	  0.001,
	  { { 60, 0, 60, 60, 120, 120, 120, 120, U },
	    { 60, 0, 60, 60, 60, 60, 120, 120, N },
	    { 60, 120, 0, 0, 60, 180, 180, 60, L },
	    { 0, 60, 60, 60, 45, 105, 105, 45, U } } },
	{ "first long good",
	  1,
	  60,
	  0,
	  { { 60, 60, 60, 60, 120, 180, 180, 120, U },
	    { 60, 60, 60, 60, 60, 120, 120, 60, L },
	    { 60, 180, 0, 0, 60, 240, 240, 60, L },
	    { 0, 120, 60, 60, 45, 165, 165, 45, U } } },
};

#undef U
#undef L
#undef N

static struct pb_mlr_trial ex_trials[PB_MLR_MAX_TRIALS];

/* Every sum and class of every goal at every point, as the RFC's tables print them. */
static void test_rfc_example(void)
{
	unsigned int p, g, k, n = 0;
	struct pb_mlr_sums s;
	enum pb_mlr_class c;

	for (p = 0; p < 6; p++) {
		for (k = 0; k < ex_points[p].count; k++)
			ex_trials[n++] = (struct pb_mlr_trial){ .load = 1e6,
								.duration_s = ex_points[p].secs,
								.effective_s = ex_points[p].secs,
								.loss_ratio = ex_points[p].loss };
		/* a trial at another load is not this load's */
		ex_trials[n] = (struct pb_mlr_trial){ 2e6, 60, 60, 0.5 };
		for (g = 0; g < 4; g++) {
			const struct ex_col *w = &ex_points[p].col[g];

			memset(&s, 0xff, sizeof(s));
			c = pb_mlr_classify(&ex_goals[g], ex_trials, n + 1, 1e6, &s);
			CHECK(c == w->cls && near(s.full_high_s, w->full_high) &&
				      near(s.full_low_s, w->full_low) &&
				      near(s.short_high_s, w->short_high) &&
				      near(s.short_low_s, w->short_low) &&
				      near(s.effect_high_s, w->effect_high) &&
				      near(s.effect_full_s, w->effect_full) &&
				      near(s.effect_whole_s, w->effect_whole) &&
				      near(s.pessimistic_high_s, w->pessimistic_high),
			      "RFC example point %u (%s), goal %u: class %d (want %d), sums %g %g "
			      "%g "
			      "%g, effective high %g full %g whole %g, pessimistic high %g",
			      p + 1, ex_points[p].name, g + 1, c, w->cls, s.full_high_s,
			      s.full_low_s, s.short_high_s, s.short_low_s, s.effect_high_s,
			      s.effect_full_s, s.effect_whole_s, s.pessimistic_high_s);
		}
	}
	/* its Conditional Throughput computations at the last point: goals 2, 3 and 4 */
	CHECK(near(pb_mlr_conditional(&ex_goals[1], ex_trials, n, 1e6), 1e6),
	      "RFC example, goal 2: conditional throughput %g, want 1e6",
	      pb_mlr_conditional(&ex_goals[1], ex_trials, n, 1e6));
	CHECK(near(pb_mlr_conditional(&ex_goals[2], ex_trials, n, 1e6), 1e6),
	      "RFC example, goal 3: conditional throughput %g, want 1e6",
	      pb_mlr_conditional(&ex_goals[2], ex_trials, n, 1e6));
	CHECK(near(pb_mlr_conditional(&ex_goals[3], ex_trials, n, 1e6), 999e3),
	      "RFC example, goal 4: conditional throughput %g, want 999000",
	      pb_mlr_conditional(&ex_goals[3], ex_trials, n, 1e6));
	/* Appendix B's code at any load: goal 1's quantile is the 0.1 % trial */
	CHECK(near(pb_mlr_conditional(&ex_goals[0], ex_trials, n, 1e6), 999e3),
	      "RFC example, goal 1: the code's value %g, want 999000",
	      pb_mlr_conditional(&ex_goals[0], ex_trials, n, 1e6));
	/* too few full-length seconds to reach the quantile: a forwarding ratio of 0 */
	CHECK(pb_mlr_conditional(&ex_goals[1], ex_trials, 59, 1e6) == 0,
	      "only short trials: conditional throughput 0, got %g",
	      pb_mlr_conditional(&ex_goals[1], ex_trials, 59, 1e6));
	CHECK(isnan(pb_mlr_conditional(&ex_goals[1], ex_trials, n, 3e6)),
	      "no trial at the load: no conditional throughput");
	/* no trial at all: undecided, as the RFC says of a load not measured */
	CHECK(pb_mlr_classify(&ex_goals[0], ex_trials, 0, 1e6, NULL) == PB_MLR_UNDECIDED,
	      "no trials: undecided");
}

/* ---- relevant bounds, by their definitions ---------------------------------------------- */

static unsigned int put(struct pb_mlr_trial *t, unsigned int n, double load, double loss)
{
	t[n] = (struct pb_mlr_trial){ load, 1, 1, loss };
	return n + 1;
}

static void test_relevant(void)
{
	struct pb_mlr_goal g = { .loss_ratio = 0, .final_s = 1, .sum_s = 1, .width = 0.05 };
	struct pb_mlr_trial t[16];
	struct pb_mlr_result r;
	unsigned int n = 0;

	/* loss inversion: 300 is a lower bound above the upper bound 200, and is not relevant */
	n = put(t, n, 300, 0);
	n = put(t, n, 200, 0.01);
	n = put(t, n, 100, 0);
	n = put(t, n, 150, 0);
	n = put(t, n, 250, 0.2);
	pb_mlr_relevant(&g, t, n, &r);
	CHECK(r.have_upper && r.upper == 200 && r.have_lower && r.lower == 150 && !r.regular &&
		      near(r.conditional, 150),
	      "inversion: upper %g (want 200), lower %g (want 150), regular %d", r.upper, r.lower,
	      r.regular);
	/* a lower bound within the width of the upper: regular */
	n = put(t, n, 190, 0);
	pb_mlr_relevant(&g, t, n, &r);
	CHECK(r.lower == 190 && r.regular, "190 and 200 within 5 %%: lower %g regular %d", r.lower,
	      r.regular);
	g.width = 0.04;
	pb_mlr_relevant(&g, t, n, &r);
	CHECK(r.lower == 190 && !r.regular, "not within 4 %%: regular %d", r.regular);
	/* an undecided load is no bound: with sum 2 and exceed 0.5, one lossy trial decides none */
	g.sum_s = 2;
	g.exceed_ratio = 0.5;
	n = 0;
	n = put(t, n, 100, 0);
	n = put(t, n, 200, 0.01);
	pb_mlr_relevant(&g, t, n, &r);
	CHECK(!r.have_upper && r.have_lower && r.lower == 100 && !r.regular,
	      "one lossy trial of two needed: no upper bound yet (%d), lower %g", r.have_upper,
	      r.lower);
	n = put(t, n, 200, 0.02);
	pb_mlr_relevant(&g, t, n, &r);
	CHECK(r.have_upper && r.upper == 200, "two lossy: 200 is the upper bound (%d %g)",
	      r.have_upper, r.upper);
	/* no upper bound: the highest lower bound is the effective one, irregular */
	n = 0;
	n = put(t, n, 100, 0);
	n = put(t, n, 300, 0);
	pb_mlr_relevant(&g, t, n, &r);
	CHECK(!r.have_upper && r.have_lower && r.lower == 300 && !r.regular &&
		      near(r.conditional, 300),
	      "no upper: lower %g (want 300), irregular", r.lower);
	/* no lower bound */
	n = 0;
	n = put(t, n, 100, 0.5);
	n = put(t, n, 100, 0.5);
	pb_mlr_relevant(&g, t, n, &r);
	CHECK(r.have_upper && r.upper == 100 && !r.have_lower && isnan(r.conditional) && !r.regular,
	      "no lower: upper %g, have_lower %d", r.upper, r.have_lower);
}

/* ---- an independent reading of the RFC, for whole searches ------------------------------ */

/* Section 6.1's steps, one by one, as the RFC words them (ratios, not the code's products). */
static enum pb_mlr_class ref_classify(const struct pb_mlr_goal *g, const struct pb_mlr_trial *t,
				      unsigned int n, double load)
{
	double fh = 0, fl = 0, sh = 0, sl = 0, subceed, coef, excess, eh, ef, ew, missing, ph;
	unsigned int i;

	for (i = 0; i < n; i++) {
		bool high = t[i].loss_ratio > g->loss_ratio, full = t[i].duration_s >= g->final_s;

		if (t[i].load != load)
			continue;
		*(full ? (high ? &fh : &fl) : (high ? &sh : &sl)) += t[i].effective_s;
	}
	subceed = 1 - g->exceed_ratio;
	coef = g->exceed_ratio / subceed;
	excess = sh - sl * coef;
	eh = fh + (excess > 0 ? excess : 0);
	ef = eh + fl;
	ew = ef > g->sum_s ? ef : g->sum_s;
	missing = ew - ef;
	ph = eh + missing;
	if (eh / ew > g->exceed_ratio)
		return PB_MLR_UPPER;
	if (ph / ew <= g->exceed_ratio)
		return PB_MLR_LOWER;
	return PB_MLR_UNDECIDED;
}

/* Appendix B: the full-length trials by increasing loss, the one at the quantile. */
static double ref_conditional(const struct pb_mlr_goal *g, const struct pb_mlr_trial *t,
			      unsigned int n, double load)
{
	double loss[PB_MLR_MAX_TRIALS], dur[PB_MLR_MAX_TRIALS], full = 0, left, q = -1;
	unsigned int i, j, k = 0;

	for (i = 0; i < n; i++) {
		if (t[i].load != load || t[i].duration_s < g->final_s)
			continue;
		/* insertion sort by loss */
		for (j = k; j > 0 && loss[j - 1] > t[i].loss_ratio; j--) {
			loss[j] = loss[j - 1];
			dur[j] = dur[j - 1];
		}
		loss[j] = t[i].loss_ratio;
		dur[j] = t[i].effective_s;
		full += t[i].effective_s;
		k++;
	}
	left = (full > g->sum_s ? full : g->sum_s) * (1 - g->exceed_ratio);
	for (i = 0; i < k && (q < 0 || left > 0); i++) {
		q = loss[i];
		left -= dur[i];
	}
	if (left > 0)
		q = 1;
	return load * (1 - q);
}

/* The relevant bounds by definition over every load measured, and the regularity. */
static void ref_relevant(const struct pb_mlr_goal *g, const struct pb_mlr_trial *t, unsigned int n,
			 struct pb_mlr_result *r)
{
	unsigned int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < n; i++)
		if (ref_classify(g, t, n, t[i].load) == PB_MLR_UPPER &&
		    (!r->have_upper || t[i].load < r->upper)) {
			r->upper = t[i].load;
			r->have_upper = true;
		}
	for (i = 0; i < n; i++)
		if (ref_classify(g, t, n, t[i].load) == PB_MLR_LOWER &&
		    (!r->have_upper || t[i].load < r->upper) &&
		    (!r->have_lower || t[i].load > r->lower)) {
			r->lower = t[i].load;
			r->have_lower = true;
		}
	r->conditional = r->have_lower ? ref_conditional(g, t, n, r->lower) : NAN;
	r->regular = r->have_lower && r->have_upper &&
		     r->upper - r->lower <= g->width * r->upper * (1 + 1e-9);
}

/* ---- simulated devices ------------------------------------------------------------------ */

/*
 * A device: it forwards cap frames/s plus what its bucket and queue absorb in a trial
 * (allowance frames), and in every burst_every-th trial (from burst_phase) it loses
 * burst_frames more, whatever the load. The sums say what was spent.
 */
struct sim {
	double cap, allowance;
	double jitter; /* the capacity wanders by up to this share, trial to trial */
	uint64_t rng;  /* its state (xorshift64*): the same wander every run */
	unsigned int burst_every, burst_phase;
	double burst_frames;
	unsigned int calls;
	double secs;
	int fail_at; /* this trial's measurement fails (-EIO); 0: none */
};

static double sim_unit(struct sim *d)
{
	d->rng ^= d->rng >> 12;
	d->rng ^= d->rng << 25;
	d->rng ^= d->rng >> 27;
	return (double)((d->rng * 0x2545f4914f6cdd1dull) >> 11) / (double)(1ull << 53);
}

static double sim_loss(struct sim *d, double load, double secs)
{
	double cap = d->jitter ? d->cap * (1 + d->jitter * (2 * sim_unit(d) - 1)) : d->cap;
	double offered = load * secs, fwd = fmin(offered, cap * secs + d->allowance);
	double lost = offered - fwd;

	d->calls++;
	d->secs += secs;
	if (d->burst_every && d->calls % d->burst_every == d->burst_phase)
		lost = fmin(offered, lost + d->burst_frames);
	return lost / offered;
}

/* The Measurer of pb_mlr_run(): the device. */
static int sim_measure(void *arg, double load, double secs, double *loss_ratio)
{
	struct sim *d = arg;

	if (d->fail_at && (int)d->calls + 1 == d->fail_at)
		return -EIO;
	*loss_ratio = sim_loss(d, load, secs);
	return 0;
}

/* The load at which the device (without bursts) loses loss_ratio in trials of secs. */
static double sim_true(const struct sim *d, double loss_ratio, double secs)
{
	return (d->cap + d->allowance / secs) / (1 - loss_ratio);
}

#define PATH_MAX_PPS 1e6 /* the send path's unpaced maximum */

/*
 * A search as pktbench rfc2544 runs it: the unpaced maximum first, at the shortest initial
 * duration (it sets Max Load), then the controller. Returns pb_mlr_run()'s status.
 */
static int mlr_search(struct pb_mlr *m, struct pb_mlr_opts o, struct sim *d)
{
	double first = INFINITY;
	unsigned int i;
	int ret;

	for (i = 0; i < o.ngoals; i++)
		first = fmin(first,
			     o.goals[i].initial_s ? o.goals[i].initial_s : o.goals[i].final_s);
	o.max_load = PATH_MAX_PPS;
	o.min_load = PATH_MAX_PPS * 1e-4;
	if (!o.max_trials)
		o.max_trials = 64;
	ret = pb_mlr_init(m, &o);
	CHECK(!ret, "init: %d", ret);
	if (ret)
		return ret;
	pb_mlr_add(m, PATH_MAX_PPS, first, sim_loss(d, PATH_MAX_PPS, first));
	return pb_mlr_run(m, sim_measure, d);
}

/*
 * Two binary searches as rfc2544 --search binary runs them, NDR (--loss-tolerance 0) then
 * PDR (0.5 %): each its own unpaced trial and a search confirmed by one final trial, on a
 * fresh copy of the device. Their trial seconds.
 */
static double binary_secs(const struct sim *dev, double trial_s, double final_s,
			  unsigned int retries, double *ndr, double *pdr)
{
	struct pb_search_opts so = { .min = PATH_MAX_PPS * 1e-4,
				     .max = PATH_MAX_PPS,
				     .precision = 0.01,
				     .max_trials = 30,
				     .retries = retries,
				     .confirm = true };
	double secs = 0, v, tol[2] = { 0, 0.005 };
	struct pb_search s;
	unsigned int k;

	for (k = 0; k < 2; k++) {
		struct sim d = *dev;

		pb_search_init(&s, &so);
		while (pb_search_next(&s, &v)) {
			double t = s.confirming ? final_s : trial_s;

			pb_search_record(&s, sim_loss(&d, v, t) <= tol[k]);
		}
		secs += d.secs;
		*(k ? pdr : ndr) = pb_search_result(&s);
	}
	return secs;
}

/* NDR and PDR as rfc2544 --search mlr asks by default, from the durations and width. */
static struct pb_mlr_opts default_goals(double initial_s, double final_s, double width)
{
	struct pb_mlr_opts o = { .ngoals = 2 };

	o.goals[0] = (struct pb_mlr_goal){ .loss_ratio = 0,
					   .final_s = final_s,
					   .sum_s = final_s,
					   .initial_s = initial_s,
					   .width = width };
	o.goals[1] = o.goals[0];
	o.goals[1].loss_ratio = 0.005;
	return o;
}

/* Every goal's result is the RFC's reading of the trials taken, exactly. */
static void check_exact(const char *what, const struct pb_mlr *m)
{
	struct pb_mlr_result got, want;
	unsigned int i;

	for (i = 0; i < m->o.ngoals; i++) {
		pb_mlr_result(m, i, &got);
		ref_relevant(&m->o.goals[i], m->t, m->n, &want);
		CHECK(got.have_lower == want.have_lower && got.have_upper == want.have_upper &&
			      (!want.have_lower || got.lower == want.lower) &&
			      (!want.have_upper || got.upper == want.upper) &&
			      got.regular == want.regular &&
			      (isnan(want.conditional) ? isnan(got.conditional)
						       : near(got.conditional, want.conditional)),
		      "%s, goal %u: lower %d %.1f upper %d %.1f conditional %.1f regular %d; the "
		      "RFC's reading: lower %d %.1f upper %d %.1f conditional %.1f regular %d",
		      what, i + 1, got.have_lower, got.lower, got.have_upper, got.upper,
		      got.conditional, got.regular, want.have_lower, want.lower, want.have_upper,
		      want.upper, want.conditional, want.regular);
	}
}

/*
 * Goal i's relevant lower bound is within its width below the true value, and regular; or,
 * when the true value is above the path's maximum, the maximum is its (irregular) answer.
 */
static void check_true(const char *what, const struct pb_mlr *m, unsigned int i, double truth)
{
	const struct pb_mlr_goal *g = &m->o.goals[i];
	struct pb_mlr_result r;

	pb_mlr_result(m, i, &r);
	if (truth >= PATH_MAX_PPS) {
		CHECK(m->state == PB_MLR_DONE && r.have_lower && r.lower == PATH_MAX_PPS &&
			      !r.have_upper && !r.regular,
		      "%s, goal %u: true %.1f is above the maximum: lower %.1f, upper %d", what,
		      i + 1, truth, r.lower, r.have_upper);
		return;
	}
	CHECK(m->state == PB_MLR_DONE && r.regular && r.lower <= truth * (1 + 1e-9) &&
		      r.lower >= truth * (1 - g->width) && r.upper > truth * (1 - 1e-9) &&
		      r.conditional <= r.lower && r.conditional >= r.lower * (1 - g->loss_ratio),
	      "%s, goal %u (loss %g): lower %.1f upper %.1f conditional %.1f, true %.1f (state "
	      "%d, regular %d)",
	      what, i + 1, g->loss_ratio, r.lower, r.upper, r.conditional, truth, m->state,
	      r.regular);
}

static struct pb_mlr m;

/*
 * A clean cliff at several capacities: NDR and PDR within the width of the true values, the
 * results exactly the RFC's, and at most half the seconds of two binary searches.
 */
static void test_cliff(void)
{
	static const double caps[] = { 250e3, 500e3, 777e3, 999e3, 40e3, 1234, 3e5 / 0.995 };
	unsigned int i;
	char what[64];

	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		struct sim d = { .cap = caps[i] }, b = d;
		double bs, ndr, pdr, mlr_s;

		snprintf(what, sizeof(what), "cliff %.0f", caps[i]);
		CHECK(!mlr_search(&m, default_goals(0, 1, 0.01), &d), "%s: search", what);
		check_exact(what, &m);
		check_true(what, &m, 0, sim_true(&d, 0, 1));
		check_true(what, &m, 1, sim_true(&d, 0.005, 1));
		bs = binary_secs(&b, 1, 1, 0, &ndr, &pdr);
		mlr_s = d.secs;
		CHECK(mlr_s <= bs / 2 && near(mlr_s, m.trial_s),
		      "%s: mlr %.1f s (its own count %.1f), two binary searches %.1f s", what,
		      mlr_s, m.trial_s, bs);
		printf("%s: mlr %u trials, %.1f s; two binary searches %.1f s (ndr %.0f pdr "
		       "%.0f)\n",
		       what, m.n, mlr_s, bs, ndr, pdr);
	}
}

/*
 * A tbf-like device (a bucket and queue of 800 frames): a short trial passes more than a
 * final one. Searched with 0.25 s trials first and 1 s final ones, the answers are the final
 * duration's, and no short trial makes a lower bound.
 */
static void test_tbf_short_trials(void)
{
	static const double caps[] = { 41667, 250e3, 600e3 };
	unsigned int i, k;
	char what[64];

	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		struct sim d = { .cap = caps[i], .allowance = 800 }, b = d;
		struct pb_mlr_result r;
		double bs, ndr, pdr;
		bool short_lower = false;

		snprintf(what, sizeof(what), "tbf %.0f, 0.25 s then 1 s", caps[i]);
		CHECK(!mlr_search(&m, default_goals(0.25, 1, 0.01), &d), "%s: search", what);
		check_exact(what, &m);
		check_true(what, &m, 0, sim_true(&d, 0, 1));
		check_true(what, &m, 1, sim_true(&d, 0.005, 1));
		/* each goal's lower bound has a full-length trial at its load */
		for (k = 0; k < 2; k++) {
			unsigned int j;
			bool full = false;

			pb_mlr_result(&m, k, &r);
			for (j = 0; j < m.n; j++)
				full |= m.t[j].load == r.lower && m.t[j].duration_s >= 1;
			short_lower |= !full;
		}
		CHECK(!short_lower, "%s: every lower bound was measured full-length", what);
		bs = binary_secs(&b, 1, 1, 0, &ndr, &pdr);
		CHECK(d.secs <= bs / 2, "%s: mlr %.2f s, two binary searches %.1f s", what, d.secs,
		      bs);
		printf("%s: mlr %u trials, %.2f s; two binary searches %.1f s\n", what, m.n, d.secs,
		       bs);
	}
}

/*
 * A device that loses a burst (2 % of a second's capacity) in every 4th trial, whatever the
 * load. Goals that tolerate one lossy trial in two (exceed 0.5, duration sum 2 final trials,
 * as RFC 9971's TST009 example) find the true NDR and PDR at every phase of the bursts; goals
 * that tolerate none (exceed 0) are led below them by a burst at a good load.
 */
static void test_bursts(void)
{
	unsigned int phase, i, wrong = 0;
	char what[64];

	for (phase = 0; phase < 4; phase++) {
		for (i = 0; i < 3; i++) {
			static const double caps[] = { 333e3, 41667, 720e3 };
			struct sim d = { .cap = caps[i],
					 .burst_every = 4,
					 .burst_phase = phase,
					 .burst_frames = 0.02 * caps[i] };
			struct sim e = d, b = d;
			struct pb_mlr_opts o = default_goals(0, 1, 0.01);
			double bs, ndr, pdr;

			o.goals[0].sum_s = o.goals[1].sum_s = 2;
			o.goals[0].exceed_ratio = o.goals[1].exceed_ratio = 0.5;
			snprintf(what, sizeof(what), "bursts, cap %.0f phase %u", caps[i], phase);
			CHECK(!mlr_search(&m, o, &d), "%s: search", what);
			check_exact(what, &m);
			check_true(what, &m, 0, sim_true(&d, 0, 1));
			check_true(what, &m, 1, sim_true(&d, 0.005, 1));
			bs = binary_secs(&b, 1, 1, 1, &ndr, &pdr);
			printf("%s: mlr %u trials %.0f s; two binary searches (--retries 1) %.0f "
			       "s, "
			       "ndr %.0f pdr %.0f of %.0f %.0f\n",
			       what, m.n, d.secs, bs, ndr, pdr, sim_true(&d, 0, 1),
			       sim_true(&d, 0.005, 1));
			/* the same device, goals that tolerate no lossy trial */
			CHECK(!mlr_search(&m, default_goals(0, 1, 0.01), &e), "%s: exceed 0", what);
			check_exact(what, &m);
			{
				struct pb_mlr_result r;

				pb_mlr_result(&m, 0, &r);
				wrong += r.lower < sim_true(&e, 0, 1) * (1 - 0.01);
			}
		}
	}
	CHECK(wrong > 0,
	      "exceed 0 on a bursty device: %u of 12 NDR answers below the width "
	      "(the bursts are real)",
	      wrong);
	printf("bursts, goals with exceed 0: %u of 12 NDR answers below the width\n", wrong);
}

/*
 * A capacity that wanders +-2 % from trial to trial, and the same with a burst in every 5th
 * trial: ten searches each, MLRsearch (NDR and PDR, exceed 0.5 over two final trials) against
 * two binary searches (--retries 1). Every MLRsearch result is the RFC's reading of its
 * trials; its NDR within the width and the wander of the capacity; and its seconds, summed
 * over the ten, at most half the binary searches'. The figures are docs/rfc2544.md's.
 */
static void test_noisy_comparison(void)
{
	static const char *const kinds[] = { "wander 2 %", "wander 2 %, bursts" };
	unsigned int kind, seed;

	for (kind = 0; kind < 2; kind++) {
		double mlr_s = 0, bin_s = 0, lo[4] = { INFINITY, INFINITY, INFINITY, INFINITY };
		double hi[4] = { 0 }, cap = 333e3;

		for (seed = 1; seed <= 10; seed++) {
			struct sim d = { .cap = cap,
					 .jitter = 0.02,
					 .rng = 0x9e3779b97f4a7c15ull * seed,
					 .burst_every = kind ? 5 : 0,
					 .burst_phase = seed % 5,
					 .burst_frames = 0.05 * cap };
			struct sim b = d;
			struct pb_mlr_opts o = default_goals(0, 1, 0.01);
			struct pb_mlr_result r[2];
			double v[4];
			char what[64];
			unsigned int k;

			o.goals[0].sum_s = o.goals[1].sum_s = 2;
			o.goals[0].exceed_ratio = o.goals[1].exceed_ratio = 0.5;
			snprintf(what, sizeof(what), "%s, seed %u", kinds[kind], seed);
			CHECK(!mlr_search(&m, o, &d) && m.state == PB_MLR_DONE, "%s: state %d",
			      what, m.state);
			check_exact(what, &m);
			pb_mlr_result(&m, 0, &r[0]);
			pb_mlr_result(&m, 1, &r[1]);
			CHECK(fabs(r[0].lower / cap - 1) <= 0.01 + 0.02,
			      "%s: NDR %.0f within the width and wander of %.0f", what, r[0].lower,
			      cap);
			mlr_s += d.secs;
			bin_s += binary_secs(&b, 1, 1, 1, &v[2], &v[3]);
			v[0] = r[0].lower;
			v[1] = r[1].lower;
			for (k = 0; k < 4; k++) {
				lo[k] = fmin(lo[k], v[k] / cap);
				hi[k] = fmax(hi[k], v[k] / cap);
			}
		}
		CHECK(mlr_s <= bin_s / 2,
		      "%s: ten MLRsearches %.0f s, twenty binary searches %.0f s", kinds[kind],
		      mlr_s, bin_s);
		printf("%s, ten searches each, answers / capacity: mlr NDR %.3f-%.3f PDR "
		       "%.3f-%.3f in %.0f s; binary NDR %.3f-%.3f PDR %.3f-%.3f in %.0f s\n",
		       kinds[kind], lo[0], hi[0], lo[1], hi[1], mlr_s, lo[2], hi[2], lo[3], hi[3],
		       bin_s);
	}
}

/* The send path is the limit: the maximum is a lower bound of every goal, irregular. */
static void test_path_limited(void)
{
	struct sim d = { .cap = 2e6 };
	struct pb_mlr_result r;
	unsigned int i;

	CHECK(!mlr_search(&m, default_goals(0, 1, 0.01), &d), "path-limited: search");
	CHECK(m.state == PB_MLR_DONE && m.n == 1, "path-limited: one trial (%u, state %d)", m.n,
	      m.state);
	for (i = 0; i < 2; i++) {
		pb_mlr_result(&m, i, &r);
		CHECK(r.have_lower && !r.have_upper && r.lower == PATH_MAX_PPS && !r.regular &&
			      r.conditional == PATH_MAX_PPS,
		      "path-limited goal %u: lower %.0f, no upper, conditional %.0f", i + 1,
		      r.lower, r.conditional);
	}
	/* short trials first: the maximum is then measured full-length too */
	d.secs = 0;
	CHECK(!mlr_search(&m, default_goals(0.25, 1, 0.01), &d), "path-limited, short first");
	pb_mlr_result(&m, 0, &r);
	CHECK(m.state == PB_MLR_DONE && r.lower == PATH_MAX_PPS && !r.have_upper &&
		      near(d.secs, 1.25),
	      "path-limited, short first: %.0f in %.2f s (a short trial and a final one)", r.lower,
	      d.secs);
	check_exact("path-limited, short first", &m);
}

/* A device slower than Min Load: the minimum is an upper bound, no lower bound, irregular. */
static void test_nothing_passes(void)
{
	struct sim d = { .cap = 50 };
	struct pb_mlr_result r;

	CHECK(!mlr_search(&m, default_goals(0, 1, 0.01), &d), "nothing passes: search");
	pb_mlr_result(&m, 0, &r);
	CHECK(m.state == PB_MLR_DONE && !r.have_lower && r.have_upper &&
		      r.upper == PATH_MAX_PPS * 1e-4 && !r.regular,
	      "nothing passes: state %d, lower %d, upper %.1f", m.state, r.have_lower, r.upper);
	CHECK(m.n <= 20, "nothing passes: %u trials", m.n);
	check_exact("nothing passes", &m);
}

/* max_trials ends a search that cannot finish in it; the measurer's error ends it too. */
static void test_limits(void)
{
	struct pb_mlr_opts o = default_goals(0, 1, 0.001);
	struct sim d = { .cap = 333e3 };

	o.max_trials = 3;
	CHECK(!mlr_search(&m, o, &d) && m.state == PB_MLR_EXHAUSTED && m.n == 3,
	      "3 trials: exhausted (state %d, %u trials)", m.state, m.n);
	check_exact("exhausted", &m);
	d = (struct sim){ .cap = 333e3, .fail_at = 3 };
	CHECK(mlr_search(&m, default_goals(0, 1, 0.01), &d) == -EIO && m.n == 2,
	      "a trial that fails ends the search with its error (%u trials)", m.n);
}

static void test_bad_opts(void)
{
	static const struct pb_mlr_goal bad[] = {
		{ .loss_ratio = 1, .final_s = 1, .sum_s = 1, .width = 0.01 },
		{ .loss_ratio = -0.1, .final_s = 1, .sum_s = 1, .width = 0.01 },
		{ .final_s = 0, .sum_s = 1, .width = 0.01 },
		{ .final_s = 1, .sum_s = 0, .width = 0.01 },
		{ .final_s = 1, .sum_s = 1, .exceed_ratio = 1, .width = 0.01 },
		{ .final_s = 1, .sum_s = 1, .width = 0 },
		{ .final_s = 1, .sum_s = 1, .width = 1 },
		{ .final_s = 1, .sum_s = 1, .initial_s = 2, .width = 0.01 },
	};
	struct pb_mlr_opts o = default_goals(0, 1, 0.01);
	unsigned int i;

	o.min_load = 1;
	o.max_load = 100;
	o.max_trials = 10;
	CHECK(!pb_mlr_init(&m, &o), "good options");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pb_mlr_opts b = o;

		b.goals[1] = bad[i];
		CHECK(pb_mlr_init(&m, &b) == -EINVAL, "bad goal %u accepted", i);
	}
	o.ngoals = 0;
	CHECK(pb_mlr_init(&m, &o) == -EINVAL, "no goal accepted");
	o.ngoals = PB_MLR_MAX_GOALS + 1;
	CHECK(pb_mlr_init(&m, &o) == -EINVAL, "too many goals accepted");
	o.ngoals = 2;
	o.min_load = 200;
	CHECK(pb_mlr_init(&m, &o) == -EINVAL, "min above max accepted");
	o.min_load = 1;
	o.max_trials = PB_MLR_MAX_TRIALS + 1;
	CHECK(pb_mlr_init(&m, &o) == -EINVAL, "too many trials accepted");
}

int main(void)
{
	test_rfc_example();
	test_relevant();
	test_cliff();
	test_tbf_short_trials();
	test_bursts();
	test_noisy_comparison();
	test_path_limited();
	test_nothing_passes();
	test_limits();
	test_bad_opts();
	return check_summary();
}
