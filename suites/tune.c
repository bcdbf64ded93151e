// SPDX-License-Identifier: MIT
/* --tune and --sweep's knobs: see tune.h. */
#include <errno.h>
#include <string.h>

#include "options.h"
#include "tune.h"

/* The values each knob is tried at; the defaults are tried first, whatever they are. */
static const uint32_t tune_batch[] = { 16, 32, 64, 128, 256 };
static const uint32_t tune_segments[] = { 4, 8, 16, 32, 64 };
static const uint32_t tune_ring[] = { 64, 256, 1024, 4096 };

static const struct {
	unsigned int knob;
	enum pb_sweep_kind kind;
	const uint32_t *values;
	unsigned int n;
} tune_knobs[] = {
	{ PB_K_BATCH, PB_SWEEP_BATCH, tune_batch, sizeof(tune_batch) / sizeof(tune_batch[0]) },
	{ PB_K_SEGMENTS, PB_SWEEP_SEGMENTS, tune_segments,
	  sizeof(tune_segments) / sizeof(tune_segments[0]) },
	{ PB_K_RING, PB_SWEEP_RING, tune_ring, sizeof(tune_ring) / sizeof(tune_ring[0]) },
};
#define TUNE_NKNOBS (sizeof(tune_knobs) / sizeof(tune_knobs[0]))

void pb_knob_set(struct pb_config *cfg, enum pb_sweep_kind kind, uint32_t v)
{
	switch (kind) {
	case PB_SWEEP_FRAME_SIZE:
		cfg->frame_size = v;
		break;
	case PB_SWEEP_STREAMS:
		cfg->streams = v;
		break;
	case PB_SWEEP_BATCH:
		cfg->batch = v;
		break;
	case PB_SWEEP_SEGMENTS:
		cfg->segments = v;
		cfg->segments_set = true;
		break;
	case PB_SWEEP_RING:
		cfg->ring = v;
		break;
	case PB_SWEEP_PPS:
		cfg->pps = v;
		cfg->rate_gbps = 0;
		break;
	case PB_SWEEP_NONE:
		break;
	}
}

static uint32_t tune_knob_get(const struct pb_config *cfg, enum pb_sweep_kind kind)
{
	return kind == PB_SWEEP_BATCH	   ? cfg->batch
	       : kind == PB_SWEEP_SEGMENTS ? cfg->segments
					   : cfg->ring;
}

double pb_tune_trial_s(const struct pb_config *cfg)
{
	double t = cfg->duration_s / 5;

	return t < 0.2 ? 0.2 : t > 1.0 ? 1.0 : t;
}

/* Where the search starts: cfg with the batch the run would use. */
static void tune_start(const struct pb_method *m, unsigned int alias_batch,
		       const struct pb_config *cfg, struct pb_config *t)
{
	*t = *cfg;
	t->batch = alias_batch ? alias_batch : cfg->batch ? cfg->batch : m->default_batch;
}

/* The defaults' trial, then every candidate that is not a knob's starting value. */
static unsigned int tune_count(const struct pb_method *m, const struct pb_config *t)
{
	unsigned int k, v, n = 1;

	if (!m->knobs)
		return 0;
	for (k = 0; k < TUNE_NKNOBS; k++)
		for (v = 0; (m->knobs & tune_knobs[k].knob) && v < tune_knobs[k].n; v++)
			n += tune_knobs[k].values[v] != tune_knob_get(t, tune_knobs[k].kind);
	return n;
}

unsigned int pb_tune_trials(const struct pb_method *m, unsigned int alias_batch,
			    const struct pb_config *cfg)
{
	struct pb_config t;

	tune_start(m, alias_batch, cfg, &t);
	return tune_count(m, &t);
}

/* "batch 64, ring 256" for the knobs m has; 0 (the method's own) reads "own". */
static void tune_describe(const struct pb_method *m, const struct pb_config *cfg, char *buf,
			  size_t len)
{
	unsigned int k;
	int off = 0;

	buf[0] = '\0';
	for (k = 0; k < TUNE_NKNOBS && off >= 0 && (size_t)off < len; k++) {
		uint32_t v = tune_knob_get(cfg, tune_knobs[k].kind);

		if (!(m->knobs & tune_knobs[k].knob))
			continue;
		off += v ? snprintf(buf + off, len - off, "%s%s %u", off ? ", " : "",
				    pb_sweep_name(tune_knobs[k].kind), v)
			 : snprintf(buf + off, len - off, "%s%s own", off ? ", " : "",
				    pb_sweep_name(tune_knobs[k].kind));
	}
}

/* A trial's rate if it counts (ran, and its frames arrived), else -1. */
static double tune_score(const struct pb_result *r)
{
	if (r->status != PB_STATUS_OK || !r->frames_sent)
		return -1;
	if (pb_result_has_delivered(r) && r->delivered_pct < PB_TUNE_DELIVERY)
		return -1;
	return r->pps;
}

/* One trial at cfg, printed; its score, or -1. *err: what ends the search. */
static double tune_try(const struct pb_method *m, const struct pb_config *cfg,
		       pb_tune_trial_fn trial, void *ctx, unsigned int i, unsigned int n, FILE *log,
		       int *err)
{
	struct pb_result res;
	char what[96];
	double score;

	memset(&res, 0, sizeof(res));
	*err = trial(ctx, m, cfg, &res);
	score = tune_score(&res);
	tune_describe(m, cfg, what, sizeof(what));
	if (!cfg->quiet && !*err) {
		if (score >= 0)
			fprintf(log, "tune: %s [%u/%u] %s: %.0f pps\n", m->name, i, n, what, score);
		else
			fprintf(log, "tune: %s [%u/%u] %s: not counted (%s)\n", m->name, i, n, what,
				res.status != PB_STATUS_OK ? res.reason : "frames lost");
	}
	pb_result_release(&res);
	return score;
}

int pb_tune(const struct pb_method *m, unsigned int alias_batch, const struct pb_config *cfg,
	    pb_tune_trial_fn trial, void *ctx, struct pb_config *best, FILE *log)
{
	unsigned int n, i = 1, k, v;
	struct pb_config t;
	double top, base, score;
	char what[96];
	int err = 0;

	tune_start(m, alias_batch, cfg, best);
	n = tune_count(m, best);
	if (!n)
		return 0;
	t = *best;
	t.duration_s = pb_tune_trial_s(cfg);
	t.count = 0;
	t.repeat = 1;
	base = top = tune_try(m, &t, trial, ctx, i++, n, log, &err);
	for (k = 0; k < TUNE_NKNOBS && !err; k++) {
		enum pb_sweep_kind kind = tune_knobs[k].kind;
		uint32_t keep;

		if (!(m->knobs & tune_knobs[k].knob))
			continue;
		/*
		 * The best so far has this knob at its default (the trial that won for an
		 * earlier knob had it so): that value is tried already.
		 */
		keep = tune_knob_get(&t, kind);
		for (v = 0; v < tune_knobs[k].n && !err; v++) {
			if (tune_knobs[k].values[v] == keep)
				continue;
			pb_knob_set(&t, kind, tune_knobs[k].values[v]);
			score = tune_try(m, &t, trial, ctx, i++, n, log, &err);
			if (score >= 0 && (top < 0 || score > top * (1 + PB_TUNE_MARGIN))) {
				top = score;
				pb_knob_set(best, kind, tune_knobs[k].values[v]);
			}
		}
		/* the next knob is searched with this one at its best */
		pb_knob_set(&t, kind, tune_knob_get(best, kind));
	}
	if (err)
		return err;
	tune_describe(m, best, what, sizeof(what));
	if (top < 0)
		fprintf(log, "tune: %s: no trial counted; the defaults stay (%s)\n", m->name, what);
	else
		fprintf(log, "tune: %s best: %s (%.0f pps, %.2fx the defaults)\n", m->name, what,
			top, base > 0 ? top / base : 0);
	return 0;
}
