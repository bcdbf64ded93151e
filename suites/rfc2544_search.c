// SPDX-License-Identifier: MIT
/*
 * RFC 2544's searches as pure state machines (see rfc2544_search.h): no clock, no I/O, so a
 * simulated device in a unit test drives exactly the code the real trials drive.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "rfc2544_search.h"

#define PB_SEARCH_STEP_MIN     0.01 /* expand: the first step, at least 1 % */
#define PB_SEARCH_SHORTS       3    /* short passes in a row that show the path cannot offer more */
#define PB_SEARCH_PACED_MAX(s) ((s)->o.max * (1 - 1e-6)) /* the most a paced trial asks */

static double search_round(const struct pb_search *s, double v, bool up)
{
	if (!s->o.integer)
		return v;
	return up ? ceil(v - 1e-9) : floor(v + 1e-9);
}

int pb_search_init(struct pb_search *s, const struct pb_search_opts *o)
{
	memset(s, 0, sizeof(*s));
	if (!(o->min > 0) || !(o->max >= o->min) || !isfinite(o->max) || !(o->precision >= 0) ||
	    !(o->precision < 1) || !(o->abs_precision >= 0) || !o->max_trials ||
	    o->max_trials > PB_SEARCH_MAX_TRIALS || o->start < 0 ||
	    (o->start && (o->start < o->min || o->start > o->max)))
		return -EINVAL;
	s->o = *o;
	if (o->integer) {
		s->o.min = ceil(o->min);
		s->o.max = floor(o->max);
		s->o.start = floor(o->start);
		if (s->o.max < s->o.min)
			return -EINVAL;
		if (s->o.abs_precision < 1)
			s->o.abs_precision = 1;
	}
	if (!s->o.start)
		s->o.start = s->o.max;
	s->step = fmax(2 * o->precision, PB_SEARCH_STEP_MIN);
	s->state = PB_SEARCH_RUNNING;
	return 0;
}

/* Close enough: the highest pass and the lowest fail are within the resolution. */
static bool search_converged(const struct pb_search *s)
{
	double gap = s->hi - s->lo;

	return gap <= fmax(s->o.precision * s->hi, s->o.abs_precision) + 1e-9 ||
	       (s->o.integer && gap <= 1);
}

/*
 * What to ask for so the trial offers target t: more by what the last paced trial fell
 * short, unless it fell short by more than the precision against the one before (held
 * back: not learnt), never more than twice t; a paced target stays paced (below the
 * maximum, which is the unpaced trial).
 */
static double search_ask(struct pb_search *s, double t)
{
	double r = s->ratio[0];

	s->target = t;
	if (s->ratio[1] > 0 && r < s->ratio[1] * (1 - s->o.precision))
		r = s->ratio[1];
	if (s->o.integer || t >= s->o.max || !(r > 0 && r < 1))
		return t;
	return fmin(t / fmax(r, 0.5), PB_SEARCH_PACED_MAX(s));
}

/* The answer stands: confirm it once if asked (a confirmed one ends the search), else done. */
static bool search_settle(struct pb_search *s, double *value)
{
	if (s->o.confirm) {
		s->confirming = true;
		s->next = search_ask(s, s->lo);
		*value = s->next;
		return true;
	}
	s->state = PB_SEARCH_DONE;
	return false;
}

bool pb_search_next(struct pb_search *s, double *value)
{
	double v;

	if (s->state != PB_SEARCH_RUNNING)
		return false;
	if (s->trials >= s->o.max_trials) {
		s->state = PB_SEARCH_EXHAUSTED;
		return false;
	}
	if (s->confirming)
		return search_settle(s, value);
	if (s->tries) {
		/* a retry of a failed trial: the same value again */
		*value = s->next;
		return true;
	}
	if (!s->have_lo && !s->have_hi) {
		v = s->o.start;
	} else if (s->have_lo && s->have_hi) {
		if (search_converged(s))
			return search_settle(s, value);
		v = search_round(s, (s->lo + s->hi) / 2, false);
		if (v <= s->lo || v >= s->hi)
			return search_settle(s, value);
	} else if (s->have_lo) {
		/* nothing failed yet: higher, up to the maximum */
		if (s->lo >= s->o.max)
			return search_settle(s, value);
		v = s->o.expand ? fmin(s->o.max, search_round(s, s->lo * (1 + s->step), true))
				: s->o.max;
		if (v <= s->lo)
			v = s->lo + 1; /* integer: at least one more */
		s->step *= 2;
	} else {
		/* nothing passed yet: lower, down to the minimum */
		if (s->hi <= s->o.min) {
			s->state = PB_SEARCH_NONE;
			return false;
		}
		if (s->o.expand)
			v = s->hi * (1 - s->step);
		else if (s->hi - s->o.min <= fmax(s->o.precision * s->hi, s->o.abs_precision))
			v = s->o.min;
		else
			v = (s->o.min + s->hi) / 2;
		v = fmax(s->o.min, search_round(s, v, false));
		if (v >= s->hi)
			v = s->o.min;
		s->step *= 2;
	}
	s->next = search_ask(s, v);
	*value = s->next;
	return true;
}

/* The highest pass below limit that no later trial contradicted; passes at or above it fall. */
static void search_refute(struct pb_search *s, double limit)
{
	unsigned int i;

	s->have_lo = false;
	s->lo = 0;
	for (i = 0; i < s->trials; i++) {
		struct pb_search_trial *t = &s->hist[i];

		if (!t->passed || t->refuted)
			continue;
		if (t->value >= limit) {
			t->refuted = true;
			continue;
		}
		if (!s->have_lo || t->value > s->lo) {
			s->lo = t->value;
			s->have_lo = true;
		}
	}
}

/* The lowest fail above limit: a pass above a fail makes that fail noise. */
static void search_unfail(struct pb_search *s, double limit)
{
	unsigned int i;

	s->have_hi = false;
	for (i = 0; i < s->trials; i++) {
		const struct pb_search_trial *t = &s->hist[i];

		if (t->passed || t->value <= limit)
			continue;
		if (!s->have_hi || t->value < s->hi) {
			s->hi = t->value;
			s->have_hi = true;
		}
	}
	s->ceiling = false;
}

/* A pass at v: the highest pass, and fails at or below it were noise. */
static void search_pass(struct pb_search *s, double v)
{
	if (!s->have_lo || v > s->lo) {
		s->lo = v;
		s->have_lo = true;
	}
	if (s->have_hi && v >= s->hi)
		search_unfail(s, v);
}

void pb_search_record(struct pb_search *s, bool passed)
{
	pb_search_record_at(s, s->next, passed);
}

void pb_search_record_at(struct pb_search *s, double v, bool passed)
{
	double t = s->target, asked = s->next, lo = s->have_lo ? s->lo : 0;
	bool paced = asked < s->o.max * (1 - 1e-9);
	/* it offered less than its target by more than the resolution */
	bool short_of = v < t - fmax(s->o.precision * t, s->o.abs_precision);
	/*
	 * ... or no more than the best pass, asked the most a paced trial can; or, with a
	 * ceiling found, not half way from the best pass to its target
	 */
	bool capped = short_of || (paced && asked >= PB_SEARCH_PACED_MAX(s) && v <= lo) ||
		      (s->ceiling && v < t - (t - lo) / 2);

	if (s->state != PB_SEARCH_RUNNING || s->trials >= PB_SEARCH_MAX_TRIALS)
		return;
	s->hist[s->trials++] = (struct pb_search_trial){ .value = v, .passed = passed };
	if (paced && asked > 0) {
		s->ratio[1] = s->ratio[0];
		s->ratio[0] = v / asked;
	}
	if (!short_of)
		s->shorts = 0; /* it offered its target: shorts are no longer in a row */
	if (!passed && s->tries < s->o.retries) {
		s->tries++;
		return;
	}
	if (passed && short_of && s->tries && ++s->shorts < PB_SEARCH_SHORTS) {
		/* held back while a fail is retried: a pass, but not of the value retried */
		search_pass(s, v);
		return;
	}
	s->tries = 0;
	if (s->confirming) {
		if (passed && (!short_of || ++s->shorts >= PB_SEARCH_SHORTS)) {
			/* confirmed; or it cannot offer the answer again: done, unconfirmed */
			s->confirmed = !short_of;
			s->shorts = 0;
			s->state = PB_SEARCH_DONE;
			return;
		}
		if (passed)
			return; /* held back, it did not offer the answer: again */
		s->confirming = false;
	}
	if (!passed) {
		s->shorts = 0;
		if (!s->have_hi || v < s->hi) {
			s->hi = v;
			s->have_hi = true;
			s->ceiling = false;
		}
		if (s->have_lo && v <= s->lo)
			search_refute(s, v);
		return;
	}
	search_pass(s, v);
	if (!capped) {
		s->shorts = 0;
		return;
	}
	/*
	 * Well short of its target: a trial held back (the next one offers it), or a path
	 * that cannot offer more, which a ceiling already found, an unpaced trial, a paced
	 * one asked the most it can, or passes short in a row show: no trial can tell what
	 * the target would do, so it bounds the search.
	 */
	if (paced && asked < PB_SEARCH_PACED_MAX(s) && !s->ceiling &&
	    ++s->shorts < PB_SEARCH_SHORTS)
		return;
	s->shorts = 0;
	if (!s->have_hi || t < s->hi) {
		s->hi = t;
		s->have_hi = true;
		s->ceiling = true;
	}
}

double pb_search_result(const struct pb_search *s)
{
	return s->have_lo ? s->lo : 0;
}

unsigned int pb_search_bound(const struct pb_search_opts *o, double floor)
{
	double res = fmax(o->precision * floor,
			  o->integer ? fmax(o->abs_precision, 1) : o->abs_precision);
	double span = o->max - o->min;
	unsigned int n = 1; /* the start */

	if (!(res > 0))
		return o->max_trials;
	if (o->expand) /* widening steps until the answer is bracketed */
		n += (unsigned int)ceil(log2(1 / fmax(2 * o->precision, PB_SEARCH_STEP_MIN))) + 2;
	if (span > res)
		n += (unsigned int)ceil(log2(span / res)) + 1;
	n += o->confirm + (o->integer ? 1 : 0);
	return n;
}

void pb_loss_walk_init(struct pb_loss_walk *w, double step_pct)
{
	memset(w, 0, sizeof(*w));
	w->step_pct = step_pct > 0 && step_pct <= 100 ? step_pct : 10;
	w->load_pct = 100;
}

bool pb_loss_walk_next(struct pb_loss_walk *w, double *load_pct)
{
	if (w->done)
		return false;
	*load_pct = w->load_pct;
	return true;
}

void pb_loss_walk_record(struct pb_loss_walk *w, double loss_pct)
{
	if (w->done)
		return;
	w->zeros = loss_pct > 0 ? 0 : w->zeros + 1;
	w->load_pct -= w->step_pct;
	/* two lossless steps in a row, or nothing left to lower */
	if (w->zeros >= 2 || w->load_pct < 1e-6)
		w->done = true;
}

void pb_b2b_add(struct pb_b2b *b, uint64_t burst)
{
	if (!b->n || burst < b->min)
		b->min = burst;
	if (!b->n || burst > b->max)
		b->max = burst;
	b->n++;
	b->sum += (double)burst;
	b->sumsq += (double)burst * (double)burst;
}

double pb_b2b_mean(const struct pb_b2b *b)
{
	return b->n ? b->sum / b->n : 0;
}

double pb_b2b_stddev(const struct pb_b2b *b)
{
	double mean = pb_b2b_mean(b), var;

	if (b->n < 2)
		return 0;
	var = b->sumsq / b->n - mean * mean;
	return var > 0 ? sqrt(var) : 0;
}
