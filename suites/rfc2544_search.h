/* SPDX-License-Identifier: MIT */
/*
 * The searches of RFC 2544, as pure state machines with no I/O, so they can be driven by
 * real trials or by a simulated device in a unit test:
 * - pb_search: the highest value (a rate, a burst length) whose trial passes, by bracketing
 *   and bisection, to a relative precision, in a bounded number of trials; a failed trial
 *   may be retried and the answer confirmed once, so one noisy trial does not decide it;
 * - pb_loss_walk: the frame loss rate's load steps, 100 %, 90 %, ... until two steps in a row
 *   lose nothing (26.3);
 * - pb_b2b: the back-to-back repetitions' average (26.4).
 */
#ifndef PB_RFC2544_SEARCH_H
#define PB_RFC2544_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#define PB_SEARCH_MAX_TRIALS 128

struct pb_search_opts {
	double min;		 /* the lowest value worth a trial (> 0) */
	double max;		 /* the highest: the path's maximum rate, the longest burst */
	double start;		 /* the first trial's value; 0: max */
	double precision;	 /* stop when the highest pass and the lowest fail are within
				  * precision x the lowest fail (a fraction, e.g. 0.01) */
	double abs_precision;	 /* ... or within this much (integer searches: 1) */
	unsigned int max_trials; /* at most this many trials (<= PB_SEARCH_MAX_TRIALS) */
	unsigned int retries;	 /* a failed trial is tried again up to this many times, and
				  * fails only if every try fails */
	bool integer;		 /* values are whole numbers (burst lengths) */
	bool expand;		 /* bracket by widening steps around start, not by halving
				  * [min, max]: for a start near the answer (a repetition) */
	bool confirm;		 /* try the answer once more before taking it */
};

enum pb_search_state {
	PB_SEARCH_RUNNING,
	PB_SEARCH_DONE,	     /* found: pb_search_result() is the highest value that passed */
	PB_SEARCH_NONE,	     /* even min failed: nothing passes */
	PB_SEARCH_EXHAUSTED, /* max_trials ran out; the result is the best known so far */
};

struct pb_search_trial {
	double value;
	bool passed;
	bool refuted; /* a pass that a later trial at or below it contradicted */
};

struct pb_search {
	struct pb_search_opts o;
	enum pb_search_state state;
	bool have_lo, have_hi;
	double lo;	     /* the highest value that passed and stands */
	double hi;	     /* the lowest value that failed (or that the path could not offer) */
	double target;	     /* the value the trial asked for should offer */
	double next;	     /* the value of the trial asked for: target, raised by what the
			      * sender's recent paced trials fell short (rate searches) */
	double ratio[2];     /* offered / asked of the last two paced trials (0: none yet) */
	double step;	     /* expand: the current relative step */
	unsigned int tries;  /* tries so far at next (retries) */
	unsigned int shorts; /* passes in a row that offered well short of their target */
	bool confirming;     /* next is the confirmation of lo */
	bool confirmed;	     /* lo was confirmed: set only as the search ends (DONE) */
	bool ceiling;	     /* the path could not offer a target: hi was not a trial's fail */
	unsigned int trials;
	struct pb_search_trial hist[PB_SEARCH_MAX_TRIALS];
};

/* -EINVAL on options that cannot make a search (min <= 0, max < min, ...), else 0. */
int pb_search_init(struct pb_search *s, const struct pb_search_opts *o);
/* The value of the next trial; false when the search is over (see s->state). */
bool pb_search_next(struct pb_search *s, double *value);
/* The outcome of the trial pb_search_next() asked for. */
void pb_search_record(struct pb_search *s, bool passed);
/*
 * The same, at the value the trial really had (a paced trial that could not reach its rate
 * offered less): the search bisects what was offered, not what was asked for. It asks the
 * next paced trial for more by what the last one fell short, so a sender a little short
 * still offers the value bisected; a trial far shorter than the one before (held back) is
 * not learnt from, and a pass held back while a fail is retried does not end the retries.
 * Only passes well short of their targets three in a row (or an unpaced trial short of
 * it, or a paced one asked the most it can) bound the search at the target: the path
 * cannot offer more (s->ceiling), so asking again would only repeat the trial.
 */
void pb_search_record_at(struct pb_search *s, double value, bool passed);
/* The highest value that passed and was not refuted; 0 when none did. */
double pb_search_result(const struct pb_search *s);
/*
 * The most trials a search of these options takes without noise, confirmation and retries
 * included, when the answer is at least floor (> 0): what a unit test holds it to.
 */
unsigned int pb_search_bound(const struct pb_search_opts *o, double floor);

/* 26.3: loads of 100 %, 100 - step, ... until two steps in a row lose nothing. */
struct pb_loss_walk {
	double step_pct;
	double load_pct;    /* of the trial asked for */
	unsigned int zeros; /* lossless steps in a row so far */
	bool done;
};

void pb_loss_walk_init(struct pb_loss_walk *w, double step_pct);
bool pb_loss_walk_next(struct pb_loss_walk *w, double *load_pct);
void pb_loss_walk_record(struct pb_loss_walk *w, double loss_pct);

/* 26.4: the repetitions' longest lossless bursts, averaged. */
struct pb_b2b {
	unsigned int n;
	double sum, sumsq;
	uint64_t min, max;
};

void pb_b2b_add(struct pb_b2b *b, uint64_t burst);
double pb_b2b_mean(const struct pb_b2b *b);
double pb_b2b_stddev(const struct pb_b2b *b);

#endif
