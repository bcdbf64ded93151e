// SPDX-License-Identifier: MIT
/*
 * Unit test of --tune's search (suites/tune.c) on fake trials: it finds the best setting of
 * each knob, the other knobs at their best so far; a candidate must beat the best by the
 * margin; trials that were skipped or lost frames do not count; a signal stops it; the trials
 * are short runs without --count, and as many as it says.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "tune.h"

static const struct pb_method fake = {
	.name = "fake",
	.default_batch = 64,
	.knobs = PB_K_BATCH | PB_K_RING,
};
static const struct pb_method fake_gso = {
	.name = "fake_gso",
	.default_batch = 16,
	.knobs = PB_K_SEGMENTS,
};
static const struct pb_method plain = { .name = "plain", .default_batch = 8 };

struct fake_ctx {
	unsigned int trials;
	double (*pps)(const struct pb_config *cfg);
	double delivered_pct;	/* what every trial delivers */
	unsigned int stop_at;	/* trial number that returns -EINTR; 0: none */
	bool bad_cfg;		/* a trial had a --count or a duration other than the trial's */
	uint32_t skip_segments; /* trials at this many segments are skipped (too big a datagram) */
};

static int fake_trial(void *vctx, const struct pb_method *m, const struct pb_config *cfg,
		      struct pb_result *res)
{
	struct fake_ctx *ctx = vctx;

	(void)m;
	ctx->trials++;
	if (cfg->count || fabs(cfg->duration_s - 0.4) > 1e-9)
		ctx->bad_cfg = true;
	if (ctx->stop_at && ctx->trials == ctx->stop_at)
		return -EINTR;
	if (ctx->skip_segments && cfg->segments == ctx->skip_segments) {
		res->status = PB_STATUS_SKIPPED;
		snprintf(res->reason, sizeof(res->reason), "too big");
		return 0;
	}
	res->status = PB_STATUS_OK;
	res->frames_sent = 1000;
	res->pps = ctx->pps(cfg);
	res->has_receiver = true;
	res->delivered_known = true;
	res->delivered_pct = ctx->delivered_pct;
	return 0;
}

/* Peaks at batch 128 and ring 1024, each on its own. */
static double peak(const struct pb_config *cfg)
{
	double b = cfg->batch == 128 ? 1.5 : cfg->batch == 256 ? 1.2 : 1.0;
	double r = cfg->ring == 1024 ? 1.3 : cfg->ring == 64 ? 0.5 : 1.0;

	return 1e6 * b * r;
}

/* 1 % better at batch 32: within the margin, so the default must stay. */
static double flat(const struct pb_config *cfg)
{
	return cfg->batch == 32 ? 1.01e6 : 1e6;
}

static double by_segments(const struct pb_config *cfg)
{
	return 1e5 * cfg->segments;
}

int main(void)
{
	struct pb_config cfg, best;
	struct fake_ctx ctx;
	FILE *log = fopen("/dev/null", "w");
	int err;

	memset(&cfg, 0, sizeof(cfg));
	cfg.duration_s = 2;
	cfg.segments = 8;
	cfg.count = 500; /* the trials run for a time, not a count */
	cfg.quiet = true;

	CHECK(fabs(pb_tune_trial_s(&cfg) - 0.4) < 1e-9, "a fifth of --duration");
	cfg.duration_s = 30;
	CHECK(pb_tune_trial_s(&cfg) == 1.0, "at most 1 s a trial");
	cfg.duration_s = 0.5;
	CHECK(fabs(pb_tune_trial_s(&cfg) - 0.2) < 1e-9, "at least 0.2 s a trial");
	cfg.duration_s = 2;
	CHECK(pb_tune_trials(&fake, 0, &cfg) == 1 + 4 + 4, "trials: %u",
	      pb_tune_trials(&fake, 0, &cfg));
	CHECK(pb_tune_trials(&fake, 100, &cfg) == 1 + 5 + 4, "trials from an alias's batch");
	CHECK(pb_tune_trials(&plain, 0, &cfg) == 0, "no knobs, no trials");

	memset(&ctx, 0, sizeof(ctx));
	ctx.pps = peak;
	ctx.delivered_pct = 100;
	err = pb_tune(&fake, 0, &cfg, fake_trial, &ctx, &best, log);
	CHECK(err == 0, "tune: %d", err);
	CHECK(best.batch == 128 && best.ring == 1024, "best: batch %u ring %u", best.batch,
	      best.ring);
	/* the defaults, 4 batches that are not 64, 4 rings (the default is 0: its own) */
	CHECK(ctx.trials == 9, "trials: %u", ctx.trials);
	CHECK(!ctx.bad_cfg, "a trial was not a short timed run");
	CHECK(best.count == 500 && best.duration_s == 2, "best keeps the run's own count and time");

	memset(&ctx, 0, sizeof(ctx));
	ctx.pps = flat;
	ctx.delivered_pct = 100;
	err = pb_tune(&fake, 0, &cfg, fake_trial, &ctx, &best, log);
	CHECK(err == 0 && best.batch == 64 && best.ring == 0,
	      "within the margin the defaults stay: batch %u ring %u", best.batch, best.ring);

	/* an alias's batch is where the search starts */
	memset(&ctx, 0, sizeof(ctx));
	ctx.pps = flat;
	ctx.delivered_pct = 100;
	err = pb_tune(&fake, 100, &cfg, fake_trial, &ctx, &best, log);
	CHECK(err == 0 && best.batch == 100 && ctx.trials == 10,
	      "from the alias's batch: %u, %u trials", best.batch, ctx.trials);

	/* frames lost: no trial counts, the defaults stay */
	memset(&ctx, 0, sizeof(ctx));
	ctx.pps = peak;
	ctx.delivered_pct = 98.9;
	err = pb_tune(&fake, 0, &cfg, fake_trial, &ctx, &best, log);
	CHECK(err == 0 && best.batch == 64 && best.ring == 0,
	      "trials that lost frames do not count: batch %u ring %u", best.batch, best.ring);

	/* a skipped trial (too many segments) does not count; the next does */
	memset(&ctx, 0, sizeof(ctx));
	ctx.pps = by_segments;
	ctx.delivered_pct = 100;
	ctx.skip_segments = 64;
	err = pb_tune(&fake_gso, 0, &cfg, fake_trial, &ctx, &best, log);
	CHECK(err == 0 && best.segments == 32 && best.batch == 16 && ctx.trials == 5,
	      "segments: %u, batch %u, %u trials", best.segments, best.batch, ctx.trials);

	/* a signal ends the search at once */
	memset(&ctx, 0, sizeof(ctx));
	ctx.pps = peak;
	ctx.delivered_pct = 100;
	ctx.stop_at = 3;
	err = pb_tune(&fake, 0, &cfg, fake_trial, &ctx, &best, log);
	CHECK(err == -EINTR && ctx.trials == 3, "stopped: %d after %u", err, ctx.trials);

	/* no knobs: no trial, the method's batch */
	memset(&ctx, 0, sizeof(ctx));
	ctx.pps = peak;
	err = pb_tune(&plain, 0, &cfg, fake_trial, &ctx, &best, log);
	CHECK(err == 0 && ctx.trials == 0 && best.batch == 8, "plain: %u trials, batch %u",
	      ctx.trials, best.batch);

	/* the sweep kinds set what they name */
	pb_knob_set(&cfg, PB_SWEEP_RING, 512);
	pb_knob_set(&cfg, PB_SWEEP_SEGMENTS, 64);
	pb_knob_set(&cfg, PB_SWEEP_BATCH, 7);
	pb_knob_set(&cfg, PB_SWEEP_STREAMS, 2);
	pb_knob_set(&cfg, PB_SWEEP_FRAME_SIZE, 128);
	CHECK(cfg.ring == 512 && cfg.segments == 64 && cfg.batch == 7 && cfg.streams == 2 &&
		      cfg.frame_size == 128,
	      "pb_knob_set");

	if (log)
		fclose(log);
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
