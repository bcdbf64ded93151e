/* SPDX-License-Identifier: MIT */
/*
 * RFC 9971's multiple loss ratio search (MLRsearch) as pure logic with no clock and no I/O, so
 * a simulated device in a unit test drives the code real trials drive:
 * - the RFC's Load Classification of the trials at one load against one Search Goal (its
 *   Appendix A), the Conditional Throughput (Appendix B), the Relevant Lower and Upper
 *   Bounds (Section 4.6);
 * - a Controller that chooses each trial's load and duration for several goals at once, until
 *   every goal's relevant bounds are within its width (or no regular result can exist).
 * The Measurer is the caller's: pb_mlr_run() calls it through a function pointer, and
 * pktbench rfc2544 passes the trial runner its binary search uses.
 */
#ifndef PB_MLRSEARCH_H
#define PB_MLRSEARCH_H

#include <stdbool.h>

#define PB_MLR_MAX_GOALS  8
#define PB_MLR_MAX_TRIALS 256

/* A Search Goal: its required attributes, and the two optional ones. */
struct pb_mlr_goal {
	double loss_ratio;   /* Goal Loss Ratio: a trial losing more is high-loss; [0, 1) */
	double final_s;	     /* Goal Final Trial Duration: a shorter trial is short; > 0 */
	double sum_s;	     /* Goal Duration Sum: trial seconds that classify a load; > 0 */
	double exceed_ratio; /* Goal Exceed Ratio: the share of high-loss seconds a lower
			      * bound tolerates; [0, 1) */
	double initial_s;    /* Goal Initial Trial Duration; 0: final_s (no short trials) */
	double width;	     /* Goal Width, relative: done when (upper - lower) <= width x
			      * upper; (0, 1) */
};

/* A Trial Result: its input (load, duration) and the output the classification reads. */
struct pb_mlr_trial {
	double load;	    /* Trial Load: the intended load, frames/s */
	double duration_s;  /* Trial Duration */
	double effective_s; /* Trial Effective Duration (here the Trial Duration) */
	double loss_ratio;  /* Trial Loss Ratio */
};

enum pb_mlr_class {
	PB_MLR_UNDECIDED,
	PB_MLR_LOWER, /* a Lower Bound of the goal */
	PB_MLR_UPPER, /* an Upper Bound */
};

/* The RFC's sums for one load and goal (its Section 6.1), for a test to hold them to. */
struct pb_mlr_sums {
	double full_high_s, full_low_s;	  /* full-length high-loss, low-loss sums */
	double short_high_s, short_low_s; /* short trials' */
	double effect_high_s;		  /* effective high-loss sum */
	double effect_full_s;		  /* effective full sum */
	double effect_whole_s;		  /* effective whole sum */
	double pessimistic_high_s;	  /* pessimistic high-loss sum */
};

/*
 * The class of load for goal g, from the trials of t[0..n) at that load (others are not
 * read); sums, if not NULL, gets the sums it was decided by.
 */
enum pb_mlr_class pb_mlr_classify(const struct pb_mlr_goal *g, const struct pb_mlr_trial *t,
				  unsigned int n, double load, struct pb_mlr_sums *sums);
/*
 * The Conditional Throughput at load for g (frames/s): the load times one minus the loss
 * ratio of the full-length trial at the goal's quantile; 0 when too few full-length seconds
 * are low-loss, NAN when no trial ran at load.
 */
double pb_mlr_conditional(const struct pb_mlr_goal *g, const struct pb_mlr_trial *t, unsigned int n,
			  double load);

/* A Goal Result. */
struct pb_mlr_result {
	bool have_lower, have_upper;
	double lower;	    /* Relevant Lower Bound; with no upper bound, the highest lower
			     * bound (an irregular result's effective one) */
	double upper;	    /* Relevant Upper Bound */
	double conditional; /* Conditional Throughput at lower; NAN without a lower */
	bool regular;	    /* both bounds, within the goal's width */
};

/* The result of g over t[0..n) as the RFC defines it, at any moment of a search. */
void pb_mlr_relevant(const struct pb_mlr_goal *g, const struct pb_mlr_trial *t, unsigned int n,
		     struct pb_mlr_result *r);

/* The Controller Input, and its optional Min Load and Max Load. */
struct pb_mlr_opts {
	struct pb_mlr_goal goals[PB_MLR_MAX_GOALS];
	unsigned int ngoals;
	double min_load, max_load; /* frames/s: 0 < min <= max */
	unsigned int max_trials;   /* at most this many trials (<= PB_MLR_MAX_TRIALS) */
};

enum pb_mlr_state {
	PB_MLR_RUNNING,
	PB_MLR_DONE,	  /* every goal has a result: regular, or irregular at a load limit */
	PB_MLR_EXHAUSTED, /* max_trials ran out first */
};

struct pb_mlr {
	struct pb_mlr_opts o;
	enum pb_mlr_state state;
	struct pb_mlr_trial t[PB_MLR_MAX_TRIALS];
	unsigned int n;
	unsigned int order[PB_MLR_MAX_GOALS]; /* the goals by increasing loss ratio */
	double load, duration_s;	      /* the trial pb_mlr_next() asked for */
	/* per goal and phase (0: initial duration, 1: final): new bounds in a row, + lower */
	int streak[PB_MLR_MAX_GOALS][2];
	double trial_s; /* the trial seconds of t[0..n) */
};

/* -EINVAL on options that make no search (a goal out of range, min > max, ...), else 0. */
int pb_mlr_init(struct pb_mlr *m, const struct pb_mlr_opts *o);
/* The load and duration of the next trial; false when the search is over (m->state). */
bool pb_mlr_next(struct pb_mlr *m, double *load, double *duration_s);
/* The loss ratio of the trial pb_mlr_next() asked for. */
void pb_mlr_record(struct pb_mlr *m, double loss_ratio);
/* A trial measured outside the search (the unpaced maximum first): one more result. */
void pb_mlr_add(struct pb_mlr *m, double load, double duration_s, double loss_ratio);
/* Goal i's result so far. */
void pb_mlr_result(const struct pb_mlr *m, unsigned int i, struct pb_mlr_result *r);

/*
 * The Measurer: one trial at load (frames/s) for duration_s seconds; *loss_ratio its Trial
 * Loss Ratio. 0, or -errno, which ends the search.
 */
typedef int (*pb_mlr_measure_fn)(void *arg, double load, double duration_s, double *loss_ratio);

/* The search to its end, each trial measured by measure(arg, ...). 0, or measure's -errno. */
int pb_mlr_run(struct pb_mlr *m, pb_mlr_measure_fn measure, void *arg);

#endif
