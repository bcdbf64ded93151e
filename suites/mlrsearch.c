// SPDX-License-Identifier: MIT
/*
 * RFC 9971's MLRsearch (see mlrsearch.h). The classification, the conditional throughput
 * and the relevant bounds are the RFC's definitions; the load selection is this file's own
 * (the RFC leaves it to the implementation):
 * - goals by increasing loss ratio, each first with trials of its initial duration against a
 *   coarser copy of itself (final = initial, width x PB_MLR_COARSE), then with final trials;
 * - a load undecided after a full-length trial is measured again before any other;
 * - below an upper bound with no lower bound yet, the first guess is the load whose loss
 *   would be the goal's at the forwarding rate seen there (FRMOL, as the RFC suggests), half
 *   a width lower so it is likely a lower bound and the next step, a width up, an upper one;
 * - from a new bound, one width towards the other, doubling while new bounds fall on the
 *   same side, never past the middle of the two.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "mlrsearch.h"

#define PB_MLR_COARSE 4	   /* an initial-duration phase searches to this many widths */
#define PB_MLR_TOL    1e-9 /* relative slack when comparing a width computed two ways */

enum pb_mlr_class pb_mlr_classify(const struct pb_mlr_goal *g, const struct pb_mlr_trial *t,
				  unsigned int n, double load, struct pb_mlr_sums *sums)
{
	double coef = g->exceed_ratio / (1 - g->exceed_ratio), quantile;
	struct pb_mlr_sums s = { 0 };
	bool pessimistic, optimistic;
	unsigned int i;

	for (i = 0; i < n; i++) {
		bool high = t[i].loss_ratio > g->loss_ratio;

		if (t[i].load != load)
			continue;
		if (t[i].duration_s >= g->final_s)
			*(high ? &s.full_high_s : &s.full_low_s) += t[i].effective_s;
		else
			*(high ? &s.short_high_s : &s.short_low_s) += t[i].effective_s;
	}
	/* short high-loss seconds count only beyond what short low-loss ones balance */
	s.effect_high_s = s.full_high_s + fmax(0, s.short_high_s - s.short_low_s * coef);
	s.effect_full_s = s.full_low_s + s.effect_high_s;
	s.effect_whole_s = fmax(s.effect_full_s, g->sum_s);
	/* the seconds still missing to the duration sum, all counted high-loss */
	s.pessimistic_high_s = s.effect_whole_s - s.full_low_s;
	quantile = s.effect_whole_s * g->exceed_ratio;
	pessimistic = s.pessimistic_high_s <= quantile;
	optimistic = s.effect_high_s <= quantile;
	if (sums)
		*sums = s;
	if (pessimistic && optimistic)
		return PB_MLR_LOWER;
	return optimistic ? PB_MLR_UNDECIDED : PB_MLR_UPPER;
}

double pb_mlr_conditional(const struct pb_mlr_goal *g, const struct pb_mlr_trial *t, unsigned int n,
			  double load)
{
	unsigned int idx[PB_MLR_MAX_TRIALS], i, j, k = 0;
	double full_s = 0, remaining, q = -1;
	bool any = false;

	for (i = 0; i < n && i < PB_MLR_MAX_TRIALS; i++) {
		if (t[i].load != load)
			continue;
		any = true;
		if (t[i].duration_s < g->final_s)
			continue;
		/* the full-length trials by increasing loss ratio */
		for (j = k; j > 0 && t[idx[j - 1]].loss_ratio > t[i].loss_ratio; j--)
			idx[j] = idx[j - 1];
		idx[j] = i;
		k++;
		full_s += t[i].effective_s;
	}
	if (!any)
		return NAN;
	remaining = fmax(g->sum_s, full_s) * (1 - g->exceed_ratio);
	for (i = 0; i < k && (q < 0 || remaining > 0); i++) {
		q = t[idx[i]].loss_ratio;
		remaining -= t[idx[i]].effective_s;
	}
	/* the low-loss quantile lies in seconds never measured: nothing is forwarded there */
	if (remaining > 0)
		q = 1;
	return load * (1 - q);
}

/* The distinct loads of t[0..n), in the order first measured; their count. */
static unsigned int mlr_loads(const struct pb_mlr_trial *t, unsigned int n, double *loads)
{
	unsigned int i, j, k = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < k && loads[j] != t[i].load; j++)
			;
		if (j == k)
			loads[k++] = t[i].load;
	}
	return k;
}

void pb_mlr_relevant(const struct pb_mlr_goal *g, const struct pb_mlr_trial *t, unsigned int n,
		     struct pb_mlr_result *r)
{
	double loads[PB_MLR_MAX_TRIALS];
	enum pb_mlr_class cls[PB_MLR_MAX_TRIALS];
	unsigned int i, k;

	memset(r, 0, sizeof(*r));
	if (n > PB_MLR_MAX_TRIALS)
		n = PB_MLR_MAX_TRIALS;
	k = mlr_loads(t, n, loads);
	for (i = 0; i < k; i++) {
		cls[i] = pb_mlr_classify(g, t, n, loads[i], NULL);
		/* the smallest upper bound */
		if (cls[i] == PB_MLR_UPPER && (!r->have_upper || loads[i] < r->upper)) {
			r->upper = loads[i];
			r->have_upper = true;
		}
	}
	/* the largest lower bound below it: one above it is a fluke (loss inversion) */
	for (i = 0; i < k; i++)
		if (cls[i] == PB_MLR_LOWER && (!r->have_upper || loads[i] < r->upper) &&
		    (!r->have_lower || loads[i] > r->lower)) {
			r->lower = loads[i];
			r->have_lower = true;
		}
	r->conditional = r->have_lower ? pb_mlr_conditional(g, t, n, r->lower) : NAN;
	r->regular = r->have_lower && r->have_upper &&
		     r->upper - r->lower <= g->width * r->upper * (1 + PB_MLR_TOL);
}

int pb_mlr_init(struct pb_mlr *m, const struct pb_mlr_opts *o)
{
	unsigned int i, j;

	memset(m, 0, sizeof(*m));
	if (!o->ngoals || o->ngoals > PB_MLR_MAX_GOALS || !(o->min_load > 0) ||
	    !(o->max_load >= o->min_load) || !isfinite(o->max_load) || !o->max_trials ||
	    o->max_trials > PB_MLR_MAX_TRIALS)
		return -EINVAL;
	for (i = 0; i < o->ngoals; i++) {
		const struct pb_mlr_goal *g = &o->goals[i];

		if (!(g->loss_ratio >= 0 && g->loss_ratio < 1) || !(g->final_s > 0) ||
		    !isfinite(g->final_s) || !(g->sum_s > 0) || !isfinite(g->sum_s) ||
		    !(g->exceed_ratio >= 0 && g->exceed_ratio < 1) ||
		    !(g->initial_s >= 0 && g->initial_s <= g->final_s) ||
		    !(g->width > 0 && g->width < 1))
			return -EINVAL;
	}
	m->o = *o;
	for (i = 0; i < o->ngoals; i++) {
		if (!m->o.goals[i].initial_s)
			m->o.goals[i].initial_s = m->o.goals[i].final_s;
		/* the stricter goals first: their upper bounds are often the others' lower */
		for (j = i; j > 0 && o->goals[m->order[j - 1]].loss_ratio > o->goals[i].loss_ratio;
		     j--)
			m->order[j] = m->order[j - 1];
		m->order[j] = i;
	}
	m->state = PB_MLR_RUNNING;
	return 0;
}

/* Goal i as phase ph searches it: 0, its initial trials' coarse copy; 1, the goal itself. */
static bool mlr_phase_goal(const struct pb_mlr *m, unsigned int i, int ph, struct pb_mlr_goal *g)
{
	*g = m->o.goals[i];
	if (ph == 1)
		return true;
	if (!(g->initial_s < g->final_s))
		return false;
	g->final_s = g->sum_s = g->initial_s;
	g->width = fmin(g->width * PB_MLR_COARSE, 0.5);
	return true;
}

/* The step from a new bound: the width, doubled for each new bound on the same side. */
static double mlr_step(const struct pb_mlr_goal *g, int streak)
{
	int k = streak < 0 ? -streak : streak;

	return fmin(g->width * ldexp(1, k > 1 ? (k > 20 ? 20 : k) - 1 : 0), 0.5);
}

/* A trial of at least final_s at load. */
static bool mlr_full(const struct pb_mlr *m, double load, double final_s)
{
	unsigned int i;

	for (i = 0; i < m->n; i++)
		if (m->t[i].load == load && m->t[i].duration_s >= final_s)
			return true;
	return false;
}

/*
 * Below upper with no lower bound: where the loss at the forwarding rate seen at upper
 * would be the goal's, half a width lower. The best full-length trial there (a burst is not
 * the device's rate); any trial when none was full-length.
 */
static double mlr_guess(const struct pb_mlr *m, const struct pb_mlr_goal *g, double upper)
{
	double best = 1, any = 1;
	unsigned int i;

	for (i = 0; i < m->n; i++) {
		if (m->t[i].load != upper)
			continue;
		any = fmin(any, m->t[i].loss_ratio);
		if (m->t[i].duration_s >= g->final_s)
			best = fmin(best, m->t[i].loss_ratio);
	}
	if (best == 1)
		best = any;
	return upper * (1 - best) / (1 - g->loss_ratio) * (1 - g->width / 2);
}

/*
 * The next load goal i needs in phase ph (true), or false when that phase is done: its
 * relevant bounds within its width, or at a load limit that stops them.
 */
static bool mlr_candidate(const struct pb_mlr *m, unsigned int i, int ph, double *load)
{
	double loads[PB_MLR_MAX_TRIALS], lo, hi, c, mid, step;
	int streak = m->streak[i][ph];
	struct pb_mlr_result r, r0;
	struct pb_mlr_goal g, g0;
	unsigned int j, k;

	if (!mlr_phase_goal(m, i, ph, &g))
		return false;
	pb_mlr_relevant(&g, m->t, m->n, &r);
	if (r.regular)
		return false;
	lo = r.have_lower ? r.lower : -INFINITY;
	hi = r.have_upper ? r.upper : INFINITY;
	/* a load inside the bounds measured full-length and still undecided: more of it */
	k = mlr_loads(m->t, m->n, loads);
	c = INFINITY;
	for (j = 0; j < k; j++)
		if (loads[j] > lo && loads[j] < hi && loads[j] < c &&
		    pb_mlr_classify(&g, m->t, m->n, loads[j], NULL) == PB_MLR_UNDECIDED &&
		    mlr_full(m, loads[j], g.final_s))
			c = loads[j];
	if (isfinite(c)) {
		*load = c;
		return true;
	}
	step = mlr_step(&g, streak);
	if (!r.have_lower && !r.have_upper) {
		/* nothing decided: the initial phase's lower bound if it has one, else the top */
		c = m->o.max_load;
		if (ph == 1 && mlr_phase_goal(m, i, 0, &g0)) {
			pb_mlr_relevant(&g0, m->t, m->n, &r0);
			if (r0.have_lower)
				c = r0.lower;
		}
	} else if (!r.have_upper) {
		/* the maximum is a lower bound: the path, not the device, is the limit */
		if (r.lower >= m->o.max_load)
			return false;
		c = fmin(m->o.max_load, r.lower / (1 - (streak > 0 ? step : g.width)));
	} else if (!r.have_lower) {
		if (r.upper <= m->o.min_load)
			return false; /* even the minimum loses too much */
		c = fmin(mlr_guess(m, &g, r.upper), r.upper * (1 - step));
		c = fmax(c, m->o.min_load);
	} else {
		mid = (r.lower + r.upper) / 2;
		if (streak > 0)
			c = fmin(r.lower / (1 - step), mid);
		else if (streak < 0)
			c = fmax(r.upper * (1 - step), mid);
		else
			c = mid;
		if (!(c > r.lower && c < r.upper))
			c = mid;
		if (!(c > r.lower && c < r.upper))
			return false; /* no load left between them */
	}
	*load = c;
	return true;
}

bool pb_mlr_next(struct pb_mlr *m, double *load, double *duration_s)
{
	unsigned int i;
	int ph;

	if (m->state != PB_MLR_RUNNING)
		return false;
	if (m->n >= m->o.max_trials) {
		m->state = PB_MLR_EXHAUSTED;
		return false;
	}
	/* every goal's short trials first, then the final ones */
	for (ph = 0; ph < 2; ph++)
		for (i = 0; i < m->o.ngoals; i++) {
			unsigned int g = m->order[i];

			if (!mlr_candidate(m, g, ph, &m->load))
				continue;
			m->duration_s = ph ? m->o.goals[g].final_s : m->o.goals[g].initial_s;
			*load = m->load;
			*duration_s = m->duration_s;
			return true;
		}
	m->state = PB_MLR_DONE;
	return false;
}

void pb_mlr_add(struct pb_mlr *m, double load, double duration_s, double loss_ratio)
{
	struct pb_mlr_result r;
	struct pb_mlr_goal g;
	unsigned int i;
	int ph, *s;

	if (m->n >= PB_MLR_MAX_TRIALS)
		return;
	m->t[m->n++] = (struct pb_mlr_trial){ .load = load,
					      .duration_s = duration_s,
					      .effective_s = duration_s,
					      .loss_ratio = loss_ratio };
	m->trial_s += duration_s;
	/* a load that became a relevant bound: the next step goes on from that side */
	for (i = 0; i < m->o.ngoals; i++)
		for (ph = 0; ph < 2; ph++) {
			if (!mlr_phase_goal(m, i, ph, &g))
				continue;
			pb_mlr_relevant(&g, m->t, m->n, &r);
			s = &m->streak[i][ph];
			if (r.have_lower && r.lower == load)
				*s = *s > 0 ? *s + 1 : 1;
			else if (r.have_upper && r.upper == load)
				*s = *s < 0 ? *s - 1 : -1;
		}
}

void pb_mlr_record(struct pb_mlr *m, double loss_ratio)
{
	pb_mlr_add(m, m->load, m->duration_s, loss_ratio);
}

void pb_mlr_result(const struct pb_mlr *m, unsigned int i, struct pb_mlr_result *r)
{
	pb_mlr_relevant(&m->o.goals[i], m->t, m->n, r);
}

int pb_mlr_run(struct pb_mlr *m, pb_mlr_measure_fn measure, void *arg)
{
	double load, secs, loss;
	int ret;

	while (pb_mlr_next(m, &load, &secs)) {
		ret = measure(arg, load, secs, &loss);
		if (ret)
			return ret;
		pb_mlr_record(m, loss);
	}
	return 0;
}
