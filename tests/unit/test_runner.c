// SPDX-License-Identifier: MIT
/*
 * The harness test bench: the real runner (pb_run_method) driving the null method and a
 * fake method that can be asynchronous, lossy (reported drops, silent loss on the path)
 * and slow, against a fake path whose counters and receiver follow what the fake did. No
 * privileges, no sockets: every figure has a known answer.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "method.h"
#include "runner.h"
#include "rx_source.h"
#include "check.h"

/* ---- the fake method: its behaviour, and what it did, for the fake path to report */

static struct {
	bool async;
	uint32_t complete_per_call; /* async: frames that complete per call (0: all) */
	uint32_t retry_every;	    /* one reported drop (retried) every N attempts */
	uint32_t lost_every;	    /* one frame lost on the path every N sent (rx_dropped) */
	uint64_t stall_after;	    /* stop taking frames after this many (0: never) */
	uint64_t never_complete;    /* async: this many frames stay in flight forever */
	double drain_call_s;	    /* async: each drain call (budget 0) sleeps this long */
	double close_burn_s;	    /* CPU burnt in close: must not count */
	bool fail_rx;		    /* the receiver cannot be read */
	uint64_t restart_after;	    /* the receiver restarts once this many were sent (0: never) */
	bool no_instance;	    /* ... and does not say who it is: only its counters go back */
	bool link_flap;		    /* the carrier goes down 0.3 s into the window for 0.4 s */
	uint64_t held;		    /* the path holds back the last this many frames ... */
	double held_s;		    /* ... this long after the last send (a DUT's CPU stolen) */
	/* counted by the fake, summed over workers */
	pthread_mutex_t mu;
	uint64_t attempts, sent, retried, lost, delivered;
	double last_send; /* when the last frame was handed over */
	uint32_t last_run;
	uint64_t extra_tx_dropped; /* drops the fake's "device" counted but nobody reported */
	bool veth_double;	   /* refused XDP frames counted at both ends */
	uint64_t xdp_refused;
} fk;

struct fake_priv {
	uint64_t inflight;
	uint64_t attempts;
};

static int fake_open(struct pb_worker *w)
{
	w->priv = calloc(1, sizeof(struct fake_priv));
	snprintf(w->mode, sizeof(w->mode), "fake");
	return w->priv ? 0 : -ENOMEM;
}

/* A frame the kernel took: it reaches the receiver unless the path loses it. */
static void fake_sent(uint64_t n)
{
	uint64_t i;

	pthread_mutex_lock(&fk.mu);
	for (i = 0; i < n; i++) {
		fk.sent++;
		if (fk.lost_every && fk.sent % fk.lost_every == 0)
			fk.lost++;
		else
			fk.delivered++;
	}
	if (n)
		fk.last_send = pb_now();
	pthread_mutex_unlock(&fk.mu);
}

static int fake_send(struct pb_worker *w, unsigned int budget, struct pb_outcome *o)
{
	struct fake_priv *p = w->priv;
	uint32_t n = budget < w->batch ? budget : w->batch, i, done;
	bool stalled;

	pthread_mutex_lock(&fk.mu);
	fk.last_run = w->cfg->run_id;
	stalled = fk.stall_after && fk.attempts >= fk.stall_after;
	pthread_mutex_unlock(&fk.mu);
	if (!budget && fk.drain_call_s > 0)
		pb_sleep_until(pb_now() + fk.drain_call_s);
	if (stalled) {
		pb_sleep_until(pb_now() + 0.001);
		o->inflight = (uint32_t)p->inflight;
		return -EAGAIN;
	}
	o->calls = 1;
	for (i = 0; i < n; i++) {
		p->attempts++;
		pthread_mutex_lock(&fk.mu);
		fk.attempts++;
		pthread_mutex_unlock(&fk.mu);
		if (fk.retry_every && p->attempts % fk.retry_every == 0) {
			/* the device dropped it and said so (its tx_dropped counts it) */
			o->retried++;
			continue;
		}
		if (fk.async)
			p->inflight++;
		else
			o->sent++;
	}
	if (fk.async) {
		uint64_t can =
			p->inflight > fk.never_complete ? p->inflight - fk.never_complete : 0;

		done = fk.complete_per_call && fk.complete_per_call < can ? fk.complete_per_call
									  : (uint32_t)can;
		p->inflight -= done;
		o->sent = done;
		o->inflight = (uint32_t)p->inflight;
	}
	pthread_mutex_lock(&fk.mu);
	fk.retried += o->retried;
	pthread_mutex_unlock(&fk.mu);
	fake_sent(o->sent);
	return 0;
}

static void fake_close(struct pb_worker *w)
{
	double t = pb_now();
	volatile uint64_t spin = 0;

	while (fk.close_burn_s > 0 && pb_now() - t < fk.close_burn_s)
		spin++;
	free(w->priv);
	w->priv = NULL;
}

static const struct pb_method fake_method = {
	.name = "fake",
	.help = "test",
	.default_batch = 16,
	.open = fake_open,
	.send = fake_send,
	.close = fake_close,
};

static const struct pb_method fake_async = {
	.name = "fake_async",
	.help = "test",
	.flags = PB_M_ASYNC,
	.default_batch = 16,
	.open = fake_open,
	.send = fake_send,
	.close = fake_close,
};

/* ---- the fake path: counters that follow what the fake did */

static double flap_t0;

static int fpath_tx_stats(void *ctx, struct pb_tx_stats *out)
{
	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&fk.mu);
	out->tx_packets = fk.sent;
	out->tx_dropped = fk.retried + fk.extra_tx_dropped + (fk.veth_double ? fk.xdp_refused : 0);
	out->xdp_xmit_errors = fk.xdp_refused;
	pthread_mutex_unlock(&fk.mu);
	return 0;
}

static int fpath_watch_start(void *ctx)
{
	flap_t0 = pb_now();
	return fk.link_flap ? 0 : -EOPNOTSUPP;
}

static int fpath_link_state(void *ctx, int ms)
{
	double t;

	pb_sleep_until(pb_now() + ms / 1e3);
	t = pb_now() - flap_t0;
	return !(t >= 0.3 && t < 0.7);
}

/* the carrier is up; a stop asked for while waiting ends the wait, as pb_netif_wait_up's */
static int fpath_wait_up(void *ctx, double timeout_s, double *waited_s, const int *stop)
{
	*waited_s = 0;
	return __atomic_load_n(stop, __ATOMIC_RELAXED) ? -EINTR : 0;
}

static void fpath_watch_stop(void *ctx)
{
}

/* With fk.mu held: the fake receiver has restarted by now. */
static bool fk_restarted(void)
{
	return fk.restart_after && fk.sent >= fk.restart_after;
}

static int frx_read_run(void *ctx, uint32_t run_id, struct pb_rx_run *out)
{
	memset(out, 0, sizeof(*out));
	if (fk.fail_rx)
		return -ECONNREFUSED;
	out->run_id = run_id;
	pthread_mutex_lock(&fk.mu);
	/* only this run's frames: an earlier run's id counts nothing here */
	if (run_id == fk.last_run)
		out->frames = fk.delivered;
	if (fk.held && pb_now() < fk.last_send + fk.held_s)
		out->frames = out->frames > fk.held ? out->frames - fk.held : 0;
	if (fk_restarted()) {
		/* a new receiver: it counts from its start only */
		out->frames = out->frames > fk.restart_after ? out->frames - fk.restart_after : 0;
		out->instance = fk.no_instance ? 0 : 2;
	} else {
		out->instance = fk.no_instance ? 0 : 1;
	}
	pthread_mutex_unlock(&fk.mu);
	out->seen = out->frames > 0;
	return 0;
}

static int frx_read_ifstats(void *ctx, struct pb_rx_ifstats *out)
{
	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&fk.mu);
	out->rx_dropped = fk.lost + (fk.veth_double ? fk.xdp_refused : 0);
	out->foreign_frames = 77 + fk.sent / 10; /* others' traffic, passed on */
	out->instance = fk.no_instance ? 0 : 1;
	if (fk_restarted()) {
		out->foreign_frames = (fk.sent - fk.restart_after) / 1000;
		out->rx_dropped = 0;
		out->instance = fk.no_instance ? 0 : 2;
	}
	pthread_mutex_unlock(&fk.mu);
	return 0;
}

static const struct pb_rx_source frx = {
	.what = "fake receiver",
	.read_run = frx_read_run,
	.read_ifstats = frx_read_ifstats,
};

static struct pb_path fpath = {
	.tx_stats = fpath_tx_stats,
	.watch_start = fpath_watch_start,
	.link_state = fpath_link_state,
	.watch_stop = fpath_watch_stop,
	.wait_up = fpath_wait_up,
	.rx = &frx,
};

static int stop_flag;

static void fk_reset(void)
{
	pthread_mutex_t mu = fk.mu;

	memset(&fk, 0, sizeof(fk));
	fk.mu = mu;
}

static void base_cfg(struct pb_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->duration_s = 0.3;
	cfg->streams = 1;
	cfg->repeat = 1;
	cfg->payloadsize = 18;
	cfg->flows = 1;
	cfg->srcport = cfg->dstport = 12345;
	cfg->link_timeout_s = 1;
	cfg->quiet = true;
	cfg->srcip.family = cfg->dstip.family = AF_INET;
	cfg->srcip.v4.s_addr = htonl(0xc6120001);
	cfg->dstip.v4.s_addr = htonl(0xc6120002);
}

static int run(const struct pb_method *m, const struct pb_config *cfg, bool with_path,
	       struct pb_result *res)
{
	struct pb_env env = { .path = with_path ? &fpath : NULL, .stop = &stop_flag, .label = "t" };

	return pb_run_method(m, 0, cfg, &env, res);
}

/* --count is split over the streams and exact, also when it is smaller than the streams */
static void test_count_split(void)
{
	static const uint64_t counts[] = { 1, 2, 3, 7, 1000, 4099 };
	const struct pb_method *ms[] = { &fake_method, &fake_async };
	struct pb_config cfg;
	struct pb_result r;
	unsigned int s, c, k;

	for (k = 0; k < 2; k++)
		for (s = 1; s <= 8; s++)
			for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
				fk_reset();
				fk.async = k == 1;
				fk.complete_per_call = 5;
				base_cfg(&cfg);
				cfg.streams = s;
				cfg.count = counts[c];
				run(ms[k], &cfg, true, &r);
				CHECK(r.status == PB_STATUS_OK && r.frames_sent == counts[c] &&
					      fk.sent == counts[c] &&
					      r.frames_delivered == counts[c],
				      "%s streams %u count %llu: sent %llu (fake %llu) delivered "
				      "%llu status %d %s",
				      ms[k]->name, s, (unsigned long long)counts[c],
				      (unsigned long long)r.frames_sent,
				      (unsigned long long)fk.sent,
				      (unsigned long long)r.frames_delivered, r.status, r.reason);
				pb_result_release(&r);
			}
}

/* the null method too: a worker whose share is 0 sends nothing rather than forever */
static void test_null_count(void)
{
	extern const struct pb_method pb_method_null;
	struct pb_config cfg;
	struct pb_result r;
	double t0 = pb_now();

	base_cfg(&cfg);
	cfg.count = 1;
	cfg.streams = 2;
	run(&pb_method_null, &cfg, false, &r);
	CHECK(r.frames_sent == 1 && pb_now() - t0 < 5, "null --count 1 --streams 2: sent %llu",
	      (unsigned long long)r.frames_sent);
	pb_result_release(&r);
}

/* reported drops are retried: --count exact, the device's counter netted, accounted 100 % */
static void test_retried(bool async)
{
	struct pb_config cfg;
	struct pb_result r;

	fk_reset();
	fk.async = async;
	fk.retry_every = 7;
	base_cfg(&cfg);
	cfg.count = 10000;
	run(async ? &fake_async : &fake_method, &cfg, true, &r);
	CHECK(r.frames_sent == 10000 && r.frames_delivered == 10000, "retried: sent %llu",
	      (unsigned long long)r.frames_sent);
	CHECK(r.frames_retried > 1000 && r.frames_retried == fk.retried,
	      "retried: %llu counted, fake %llu", (unsigned long long)r.frames_retried,
	      (unsigned long long)fk.retried);
	CHECK(r.raw.tx_dropped == fk.retried && r.frames_dropped == 0 && r.netting == PB_NET_OK,
	      "retried: tx_dropped %llu netted to %llu", (unsigned long long)r.raw.tx_dropped,
	      (unsigned long long)r.frames_dropped);
	CHECK(fabs(r.accounted_pct - 100) < 1e-9 && fabs(r.delivered_pct - 100) < 1e-9,
	      "retried: accounted %.6f delivered %.6f", r.accounted_pct, r.delivered_pct);
	pb_result_release(&r);
}

/* frames lost on the path after the kernel took them: delivered < sent, accounted 100 % */
static void test_lost_on_path(void)
{
	struct pb_config cfg;
	struct pb_result r;

	fk_reset();
	fk.lost_every = 50;
	base_cfg(&cfg);
	cfg.count = 10000;
	run(&fake_method, &cfg, true, &r);
	CHECK(r.frames_sent == 10000 && r.frames_delivered == 9800 && r.frames_dropped == 200,
	      "lost: sent %llu delivered %llu dropped %llu", (unsigned long long)r.frames_sent,
	      (unsigned long long)r.frames_delivered, (unsigned long long)r.frames_dropped);
	CHECK(fabs(r.accounted_pct - 100) < 1e-9 && fabs(r.delivered_pct - 98) < 1e-9,
	      "lost: accounted %.6f delivered %.6f", r.accounted_pct, r.delivered_pct);
	CHECK(r.frames_foreign == 1000, "foreign: the run's delta, 1000, got %llu",
	      (unsigned long long)r.frames_foreign);
	pb_result_release(&r);
}

/*
 * A path that goes quiet after the sender stops and then delivers the rest (a DUT whose CPU
 * was taken for a while, a long link): the receiver's count is read until it is whole, not
 * given up the first time it stands still.
 */
static void test_late_frames(void)
{
	static const double holds[] = { 0.06, 0.15 };
	struct pb_config cfg;
	struct pb_result r;
	unsigned int i;

	for (i = 0; i < sizeof(holds) / sizeof(holds[0]); i++) {
		fk_reset();
		fk.held = 500;
		fk.held_s = holds[i];
		base_cfg(&cfg);
		cfg.count = 5000;
		run(&fake_method, &cfg, true, &r);
		CHECK(r.frames_sent == 5000 && r.frames_delivered == 5000 &&
			      fabs(r.accounted_pct - 100) < 1e-9,
		      "late by %.2f s: sent %llu delivered %llu accounted %.3f", holds[i],
		      (unsigned long long)r.frames_sent, (unsigned long long)r.frames_delivered,
		      r.accounted_pct);
		pb_result_release(&r);
	}
}

/* a veth counts a refused XDP frame at both ends: netted once */
static void test_veth_double(void)
{
	struct pb_config cfg;
	struct pb_result r;

	fk_reset();
	fk.veth_double = true;
	fk.xdp_refused = 30; /* counted before the run: a delta of 0 */
	base_cfg(&cfg);
	cfg.count = 1000;
	fpath.veth_pair = true;
	run(&fake_method, &cfg, true, &r);
	CHECK(r.frames_dropped == 0 && r.netting == PB_NET_OK, "veth: no delta, dropped %llu",
	      (unsigned long long)r.frames_dropped);
	pb_result_release(&r);
	fpath.veth_pair = false;

	/* now the refusals happen during the run: the raw counts show 2 x 30, netted 30 */
	{
		struct pb_raw_counts c = { .have_tx = true, .have_rx = true };

		memset(&r, 0, sizeof(r));
		r.status = PB_STATUS_OK;
		r.duration_s = 1;
		r.frames_sent = 1030;
		r.has_receiver = r.delivered_known = true;
		r.frames_delivered = 1000;
		c.tx_dropped = 30;
		c.rx_dropped = 30;
		c.xdp_xmit_errors = 30;
		r.raw = c;
		r.veth_pair = true;
		pb_result_compute(&r);
		CHECK(r.frames_dropped == 30 && fabs(r.accounted_pct - 100) < 1e-9,
		      "veth double: dropped %llu accounted %.4f",
		      (unsigned long long)r.frames_dropped, r.accounted_pct);
		r.veth_pair = false;
		pb_result_compute(&r);
		CHECK(r.frames_dropped == 60 && r.accounted_pct > 100,
		      "not a veth pair: both ends' counts stand (dropped %llu)",
		      (unsigned long long)r.frames_dropped);
	}
}

/* drops reported that no counter saw: flagged, never floored silently */
static void test_negative_netting(void)
{
	struct pb_result r;

	memset(&r, 0, sizeof(r));
	r.status = PB_STATUS_OK;
	r.duration_s = 1;
	r.frames_sent = 1000;
	r.has_receiver = r.delivered_known = true;
	r.frames_delivered = 1000;
	r.frames_retried = 5;
	r.raw.have_tx = true;
	r.raw.tx_dropped = 2;
	pb_result_compute(&r);
	CHECK(r.netting == PB_NET_NEGATIVE && r.netting_deficit == 3 && r.frames_dropped == 0,
	      "negative: netting %s deficit %llu", pb_netting_name(r.netting),
	      (unsigned long long)r.netting_deficit);

	r.raw.have_tx = false;
	pb_result_compute(&r);
	CHECK(r.netting == PB_NET_SKIPPED && !pb_result_has_accounted(&r) &&
		      pb_result_has_delivered(&r),
	      "no counters: netting skipped, accounted unknown, delivered known");
}

/* the drain ends on elapsed time, however long each of the method's calls takes */
static void test_drain_bound(void)
{
	struct pb_config cfg;
	struct pb_result r;

	fk_reset();
	fk.async = true;
	fk.never_complete = 10;
	fk.drain_call_s = 0.3; /* a nominal-sleep drain would count 50 us per call */
	base_cfg(&cfg);
	cfg.duration_s = 0.2;
	run(&fake_async, &cfg, true, &r);
	CHECK(r.frames_undrained == 10, "drain: 10 frames never completed, got %llu",
	      (unsigned long long)r.frames_undrained);
	CHECK(r.duration_s >= 0.2 + PB_DRAIN_S - 0.05 && r.duration_s < 0.2 + PB_DRAIN_S + 0.45,
	      "drain: window %.3f s, want about %.1f", r.duration_s, 0.2 + PB_DRAIN_S);
	pb_result_release(&r);
}

/* a stalled path with --count ends at --count-timeout with an error and partial figures */
static void test_count_timeout(void)
{
	struct pb_config cfg;
	struct pb_result r;
	double t0 = pb_now();

	fk_reset();
	fk.stall_after = 512; /* a multiple of the batch */
	base_cfg(&cfg);
	cfg.count = 1000;
	cfg.count_timeout_s = 0.5;
	run(&fake_method, &cfg, true, &r);
	CHECK(r.status == PB_STATUS_ERROR && r.timed_out && r.measured &&
		      strstr(r.reason, "--count-timeout"),
	      "timeout: status %d timed_out %d reason %s", r.status, r.timed_out, r.reason);
	CHECK(r.frames_sent == 512 && r.frames_delivered == 512 && r.pps > 0,
	      "timeout: partial figures: sent %llu delivered %llu pps %g",
	      (unsigned long long)r.frames_sent, (unsigned long long)r.frames_delivered, r.pps);
	CHECK(pb_now() - t0 < 2.5, "timeout: ended after %.2f s", pb_now() - t0);
	pb_result_release(&r);

	base_cfg(&cfg);
	cfg.count = 20000;
	CHECK(fabs(pb_count_timeout(&cfg, 0) - 14) < 1e-9, "default bound for 20000: %g",
	      pb_count_timeout(&cfg, 0));
	CHECK(fabs(pb_count_timeout(&cfg, 1000) - 50) < 1e-9, "paced at 1 kpps: %g",
	      pb_count_timeout(&cfg, 1000));
}

/* a receiver that cannot be read: delivered unknown (never 0 - start), the row an error */
static void test_rx_failure(void)
{
	struct pb_config cfg;
	struct pb_result r;

	fk_reset();
	fk.fail_rx = true;
	base_cfg(&cfg);
	cfg.count = 100;
	run(&fake_method, &cfg, true, &r);
	CHECK(r.status == PB_STATUS_ERROR && !r.delivered_known && r.frames_delivered == 0 &&
		      !pb_result_has_delivered(&r) && strstr(r.rx_error, "fake receiver"),
	      "rx failure: status %d known %d delivered %llu error '%s'", r.status,
	      r.delivered_known, (unsigned long long)r.frames_delivered, r.rx_error);
	pb_result_release(&r);
}

/* CPU is the sending threads' over their window: close's work is not in it */
static void test_cpu_window(void)
{
	struct pb_config cfg;
	struct pb_result r;

	fk_reset();
	fk.close_burn_s = 0.4;
	base_cfg(&cfg);
	cfg.duration_s = 0.2;
	run(&fake_method, &cfg, true, &r);
	CHECK(r.cpu_s < 0.35, "cpu: %.3f s, close's 0.4 s of CPU must not count", r.cpu_s);
	pb_result_release(&r);
}

/* every run has its own id: a late frame of one run is not counted for the next */
static void test_run_ids(void)
{
	struct pb_config cfg;
	struct pb_result a, b;

	base_cfg(&cfg);
	cfg.count = 10;
	fk_reset();
	run(&fake_method, &cfg, true, &a);
	run(&fake_method, &cfg, true, &b);
	CHECK(a.run_id && b.run_id && a.run_id != b.run_id, "run ids %u %u", a.run_id, b.run_id);
	pb_result_release(&a);
	pb_result_release(&b);
}

/* the carrier down inside the window is measured and flagged */
static void test_link_flap(void)
{
	struct pb_config cfg;
	struct pb_result r;

	fk_reset();
	fk.link_flap = true;
	base_cfg(&cfg);
	cfg.duration_s = 1.0;
	run(&fake_method, &cfg, true, &r);
	CHECK(r.link_downs == 1 && fabs(r.link_down_s - 0.4) < 0.1,
	      "flap: %u downs, %.3f s down (want 1, 0.4)", r.link_downs, r.link_down_s);
	pb_result_release(&r);
}

/* paced: the allowance counts frames in flight, so an async method never runs ahead */
static void test_pacing(void)
{
	struct pb_config cfg;
	struct pb_result r;

	fk_reset();
	fk.async = true;
	fk.complete_per_call = 1; /* slow completions: many frames in flight */
	base_cfg(&cfg);
	cfg.duration_s = 0.5;
	cfg.pps = 2000;
	run(&fake_async, &cfg, true, &r);
	CHECK(fk.attempts <= 1000 + 21 && r.frames_sent >= 950,
	      "pacing: %llu handed over, %llu sent in 0.5 s at 2 kpps",
	      (unsigned long long)fk.attempts, (unsigned long long)r.frames_sent);
	pb_result_release(&r);
}

/* --pps paces attempts: what is offered, retries included (half of them are dropped here) */
static void test_paced_attempts(void)
{
	struct pb_config cfg;
	struct pb_result r;

	fk_reset();
	fk.retry_every = 2;
	base_cfg(&cfg);
	cfg.duration_s = 0.5;
	cfg.pps = 2000;
	run(&fake_method, &cfg, true, &r);
	CHECK(fk.attempts <= 1000 + 21 && fk.attempts >= 900,
	      "paced attempts: %llu attempts in 0.5 s at 2 kpps (%llu sent, %llu retried)",
	      (unsigned long long)fk.attempts, (unsigned long long)r.frames_sent,
	      (unsigned long long)r.frames_retried);
	CHECK(fabs(r.offered_pps - 2000) < 200 && fabs(r.pps - 1000) < 100,
	      "paced attempts: offered %.0f pps (want ~2000), accepted %.0f (want ~1000)",
	      r.offered_pps, r.pps);
	pb_result_release(&r);
}

/* a path that stops taking frames (EAGAIN): the time held back and the frames behind show */
static void test_pushed_back(void)
{
	struct pb_config cfg;
	struct pb_result r;

	fk_reset();
	fk.stall_after = 96; /* a multiple of the batch */
	base_cfg(&cfg);
	cfg.duration_s = 0.4;
	cfg.pps = 2000;
	run(&fake_method, &cfg, true, &r);
	CHECK(r.status == PB_STATUS_OK && r.frames_sent == 96, "pushed back: status %d sent %llu",
	      r.status, (unsigned long long)r.frames_sent);
	CHECK(r.send_eagain > 10 && r.send_blocked_s > 0.25 && r.send_blocked_s <= r.duration_s,
	      "pushed back: %llu EAGAIN, blocked %.3f of %.3f s", (unsigned long long)r.send_eagain,
	      r.send_blocked_s, r.duration_s);
	CHECK(r.send_call_s > 0.25 && r.send_call_s <= r.duration_s,
	      "pushed back: %.3f s of %.3f inside send calls", r.send_call_s, r.duration_s);
	CHECK(r.paced_behind >= 600 && r.paced_behind <= 800 && r.pushed_back,
	      "pushed back: %llu frames behind the schedule (want ~700), pushed_back %d",
	      (unsigned long long)r.paced_behind, r.pushed_back);
	pb_result_release(&r);

	/* unpaced and never full: nothing held back */
	fk_reset();
	base_cfg(&cfg);
	cfg.count = 5000;
	run(&fake_method, &cfg, true, &r);
	CHECK(r.send_eagain == 0 && r.send_blocked_s == 0 && r.paced_behind == 0 && !r.pushed_back,
	      "free path: eagain %llu blocked %.3f behind %llu", (unsigned long long)r.send_eagain,
	      r.send_blocked_s, (unsigned long long)r.paced_behind);
	pb_result_release(&r);
}

/* the receiver restarts mid-run: an error that says so, and no counter delta underflows */
static void test_rx_restart(bool instance)
{
	struct pb_config cfg;
	struct pb_result r;

	fk_reset();
	fk.restart_after = 3000;
	fk.no_instance = !instance;
	base_cfg(&cfg);
	cfg.count = 10000;
	run(&fake_method, &cfg, true, &r);
	CHECK(r.status == PB_STATUS_ERROR && strstr(r.reason, "restart"),
	      "restart (%s): status %d reason '%s'", instance ? "instance id" : "counters back",
	      r.status, r.reason);
	CHECK(r.frames_foreign < (1ull << 32) && r.raw.rx_dropped < (1ull << 32),
	      "restart: foreign %llu rx_dropped %llu: no underflow",
	      (unsigned long long)r.frames_foreign, (unsigned long long)r.raw.rx_dropped);
	pb_result_release(&r);
}

/* a signal stops the run: -EINTR and a partial row */
static void test_stop(void)
{
	struct pb_config cfg;
	struct pb_result r;
	int ret;

	fk_reset();
	base_cfg(&cfg);
	cfg.duration_s = 5;
	__atomic_store_n(&stop_flag, 2, __ATOMIC_RELAXED);
	ret = run(&fake_method, &cfg, false, &r);
	CHECK(ret == -EINTR && r.interrupted && r.duration_s < 0.5, "stop: ret %d interrupted %d",
	      ret, r.interrupted);
	pb_result_release(&r);
	/* asked for while the run waits for the carrier (between two rfc2544 trials): the row
	 * says interrupted, not an error of its own */
	fk_reset();
	ret = run(&fake_method, &cfg, true, &r);
	CHECK(ret == -EINTR && r.interrupted && !r.frames_sent &&
		      !strstr(r.reason, "Interrupted system call"),
	      "stop while waiting for the link: ret %d interrupted %d reason '%s'", ret,
	      r.interrupted, r.reason);
	__atomic_store_n(&stop_flag, 0, __ATOMIC_RELAXED);
	pb_result_release(&r);
}

int main(void)
{
	pthread_mutex_init(&fk.mu, NULL);
	test_count_split();
	test_null_count();
	test_retried(false);
	test_retried(true);
	test_lost_on_path();
	test_late_frames();
	test_veth_double();
	test_negative_netting();
	test_drain_bound();
	test_count_timeout();
	test_rx_failure();
	test_cpu_window();
	test_run_ids();
	test_link_flap();
	test_pacing();
	test_paced_attempts();
	test_pushed_back();
	test_rx_restart(true);
	test_rx_restart(false);
	test_stop();
	return check_summary();
}
