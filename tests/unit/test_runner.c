// SPDX-License-Identifier: MIT
/*
 * The harness test bench: the real runner (pb_run_method) driving the null method and a
 * fake method that can be asynchronous, lossy (reported drops, silent loss on the path)
 * and slow, against a fake path whose counters and receiver follow what the fake did. No
 * privileges, no sockets: every figure has a known answer. The pacing, the deadline and the
 * link wait also run on a simulated clock (sim below), where their answers are exact.
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
#include "pacer.h"
#include "runner.h"
#include "rx_source.h"
#include "check.h"

/*
 * ---- the simulated clock: the worker (the one sending thread, marked in fake_open) drives
 * it, since its sleeps and its sends (fk.call_s each) are the only things that take time
 * there. Other threads (the sampler) wait for it to reach their time, or 1 ms of real time
 * at most: a spurious wake, which the runner's loops allow. One stall can be put in: the
 * worker's first reading at or after stall_at finds the clock stall_s later (the thread was
 * descheduled there). The simulated path (sim_carrier) moves it too, before the workers go.
 */
static struct {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	double t;
	double stall_at, stall_s;
	double carrier_at;  /* the simulated link comes up at this time */
	double longest_nap; /* the link wait's longest nap, in simulated seconds */
	unsigned int naps;
} sim;

static __thread bool sim_driver;

static void sim_move(double t)
{
	pthread_mutex_lock(&sim.mu);
	if (t > sim.t)
		sim.t = t;
	pthread_cond_broadcast(&sim.cv);
	pthread_mutex_unlock(&sim.mu);
}

/* The time without the stall's side effect: what the fake device notes. */
static double sim_peek(void)
{
	double t;

	pthread_mutex_lock(&sim.mu);
	t = sim.t;
	pthread_mutex_unlock(&sim.mu);
	return t;
}

static double sim_now(void *ctx)
{
	double t;

	pthread_mutex_lock(&sim.mu);
	if (sim_driver && sim.stall_s && sim.t >= sim.stall_at) {
		sim.t += sim.stall_s;
		sim.stall_s = 0;
		pthread_cond_broadcast(&sim.cv);
	}
	t = sim.t;
	pthread_mutex_unlock(&sim.mu);
	return t;
}

static void sim_sleep_until(void *ctx, double t)
{
	struct timespec real;

	if (sim_driver) {
		sim_move(t);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &real);
	real.tv_nsec += 1000000;
	if (real.tv_nsec >= 1000000000) {
		real.tv_sec++;
		real.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&sim.mu);
	while (sim.t < t)
		if (pthread_cond_timedwait(&sim.cv, &sim.mu, &real))
			break;
	pthread_mutex_unlock(&sim.mu);
}

static const struct pb_clock sim_clock = {
	.now = sim_now,
	.sleep_until = sim_sleep_until,
	.nap_until = sim_sleep_until,
};

/* A simulated run starts at this time: exact in binary, far from 0 like CLOCK_MONOTONIC. */
#define SIM_T0 1000.0

static void sim_reset(void)
{
	pthread_mutex_lock(&sim.mu);
	sim.t = SIM_T0;
	sim.stall_at = sim.stall_s = 0;
	sim.carrier_at = SIM_T0;
	sim.longest_nap = 0;
	sim.naps = 0;
	pthread_mutex_unlock(&sim.mu);
}

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
	double evict_at;     /* the receiver's table pushes the run out then (0: never) ... */
	uint64_t evict_base; /* ... losing what it had counted by then */
	bool evict_said;     /* ... and says so ("evicted") */
	bool evict_unkept;   /* the run was not kept, and the table evicted runs meanwhile */
	bool link_flap;	     /* the carrier goes down 0.3 s into the window for 0.4 s */
	bool refuse_down;    /* async, while down: the next frame is refused and kept */
	uint64_t held;	     /* the path holds back the last this many frames ... */
	double held_s;	     /* ... this long after the last send (a DUT's CPU stolen) */
	bool sim;	     /* on the simulated clock: each call costs call_s of it */
	double rx_read0;     /* sim: when the receiver's counters were first read (0: never) */
	double call_s;
	double dep[4096]; /* sim: when each frame was handed over (the call's start) */
	/* counted by the fake, summed over workers */
	pthread_mutex_t mu;
	uint64_t attempts, sent, retried, lost, delivered;
	uint64_t sent_after_flap; /* refuse_down: completed once the link was back */
	double last_send;	  /* when the last frame was handed over */
	uint32_t last_run;
	uint64_t extra_tx_dropped; /* drops the fake's "device" counted but nobody reported */
	bool veth_double;	   /* refused XDP frames counted at both ends */
	uint64_t xdp_refused;
} fk;

struct fake_priv {
	uint64_t inflight;
	uint64_t attempts;
};

static double flap_t0; /* when the fake path's watch started: link_flap's times are from it */

static int fake_open(struct pb_worker *w)
{
	sim_driver = fk.sim;
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
		fk.last_send = fk.sim ? 0 : pb_now();
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
		/* a full ring: the call takes 1 ms before it says EAGAIN */
		if (fk.sim)
			sim_move(sim_peek() + 0.001);
		else
			pb_sleep_until(pb_now() + 0.001);
		o->inflight = (uint32_t)p->inflight;
		return -EAGAIN;
	}
	o->calls = 1;
	for (i = 0; i < n; i++) {
		p->attempts++;
		pthread_mutex_lock(&fk.mu);
		if (fk.sim && fk.attempts < sizeof(fk.dep) / sizeof(fk.dep[0]))
			fk.dep[fk.attempts] = sim_peek();
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
	if (fk.async && fk.refuse_down && pb_now() - flap_t0 >= 0.3 && pb_now() - flap_t0 < 0.7) {
		/*
		 * A carrier that is down, as AF_PACKET's ring sees it: the device drops the
		 * next frame and says so (ENOBUFS), the frame stays in the ring to go again,
		 * and nothing behind it completes.
		 */
		o->retried = p->inflight ? 1 : 0;
		o->inflight = (uint32_t)p->inflight;
	} else if (fk.async) {
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
	if (fk.refuse_down && pb_now() - flap_t0 >= 0.7)
		fk.sent_after_flap += o->sent;
	pthread_mutex_unlock(&fk.mu);
	fake_sent(o->sent);
	if (fk.sim)
		sim_move(sim_peek() + fk.call_s);
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

/*
 * The simulated link: up from sim.carrier_at on (the real clock's runs find it up at once);
 * a nap ends at the bound the wait gives, or when the carrier comes up if that is sooner.
 */
static int fpath_carrier(void *ctx)
{
	return sim_peek() >= sim.carrier_at;
}

static void fpath_carrier_nap(void *ctx, const struct pb_clock *clk, double until)
{
	double now = sim_peek();

	sim.naps++;
	if (until - now > sim.longest_nap)
		sim.longest_nap = until - now;
	sim_move(fmin(until, now < sim.carrier_at ? sim.carrier_at : until));
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
	if (fk.sim && !fk.rx_read0)
		fk.rx_read0 = sim.t;
	/* only this run's frames: an earlier run's id counts nothing here */
	if (run_id == fk.last_run)
		out->frames = fk.delivered;
	if (fk.held && pb_now() < fk.last_send + fk.held_s)
		out->frames = out->frames > fk.held ? out->frames - fk.held : 0;
	if (fk.evict_at && pb_now() >= fk.evict_at) {
		/* pushed out of the table: counted again from zero by the same receiver */
		if (!fk.evict_base)
			fk.evict_base = out->frames ? out->frames : 1;
		out->frames = out->frames > fk.evict_base ? out->frames - fk.evict_base : 0;
		out->evicted = fk.evict_said;
		out->runs_evicted = 1977; /* the table's, since its start: 0 before */
	}
	out->kept = !fk.evict_unkept;
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
	.carrier = fpath_carrier,
	.carrier_nap = fpath_carrier_nap,
	.rx = &frx,
};

static int stop_flag;
static const struct pb_clock *run_clock;      /* NULL: the machine's */
static const struct pb_fleet_door *run_fleet; /* NULL: none */

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
	struct pb_env env = { .path = with_path ? &fpath : NULL,
			      .stop = &stop_flag,
			      .label = "t",
			      .clock = run_clock,
			      .fleet = run_fleet };

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

/*
 * a shard run without the fleet's door (harness/fleet_door.h) is an error row: run as if
 * unsharded it would send the whole test's rate from every sender
 */
static void test_fleet_door_missing(void)
{
	extern const struct pb_method pb_method_null;
	struct pb_config cfg;
	struct pb_result r;

	base_cfg(&cfg);
	cfg.count = 10;
	cfg.shard_index = 1;
	cfg.shard_count = 2;
	run(&pb_method_null, &cfg, false, &r);
	CHECK(r.status == PB_STATUS_ERROR && r.frames_sent == 0 && strstr(r.reason, "no fleet"),
	      "a shard without the fleet's door: status %d, sent %llu, '%s'", (int)r.status,
	      (unsigned long long)r.frames_sent, r.reason);
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

/*
 * The real clock's checks below (a drain's window, a flap's length) are known answers that
 * load can only make later: each is tried up to RT_ATTEMPTS times, every attempt's figure
 * printed, and fails only if every attempt misses; a real fault misses every time.
 */
#define RT_ATTEMPTS 3

/* the drain ends on elapsed time, however long each of the method's calls takes */
static void test_drain_bound(void)
{
	struct pb_config cfg;
	struct pb_result r;
	bool ok = false;
	int i;

	for (i = 1; i <= RT_ATTEMPTS && !ok; i++) {
		fk_reset();
		fk.async = true;
		fk.never_complete = 10;
		fk.drain_call_s = 0.3; /* a nominal-sleep drain would count 50 us per call */
		base_cfg(&cfg);
		cfg.duration_s = 0.2;
		run(&fake_async, &cfg, true, &r);
		CHECK(r.frames_undrained == 10, "drain: 10 frames never completed, got %llu",
		      (unsigned long long)r.frames_undrained);
		ok = r.duration_s >= 0.2 + PB_DRAIN_S - 0.05 &&
		     r.duration_s < 0.2 + PB_DRAIN_S + 0.45;
		printf("drain: attempt %d: window %.3f s, want about %.1f: %s\n", i, r.duration_s,
		       0.2 + PB_DRAIN_S, ok ? "ok" : "missed");
		pb_result_release(&r);
	}
	CHECK(ok, "drain: the window missed %.1f s in all %d attempts", 0.2 + PB_DRAIN_S,
	      RT_ATTEMPTS);
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
	bool ok = false;
	int i;

	for (i = 1; i <= RT_ATTEMPTS && !ok; i++) {
		fk_reset();
		fk.link_flap = true;
		base_cfg(&cfg);
		cfg.duration_s = 1.0;
		run(&fake_method, &cfg, true, &r);
		ok = r.link_downs == 1 && fabs(r.link_down_s - 0.4) < 0.1;
		printf("flap: attempt %d: %u downs, %.3f s down (want 1, 0.4): %s\n", i,
		       r.link_downs, r.link_down_s, ok ? "ok" : "missed");
		pb_result_release(&r);
	}
	CHECK(ok, "flap: one 0.4 s down missed in all %d attempts", RT_ATTEMPTS);
}

/*
 * A paced async sender whose device refuses every frame while the carrier is down and keeps
 * it to send again (af_packet's ring), 0.3 s into the window for 0.4 s: the retries are
 * attempts on the schedule like any other, so they come at the pace, not at the loop's
 * speed, and once the link is back the sender goes on at its rate. The loop used to retry
 * with nothing due, each retry counted against the schedule: 10^5 of them ran it so far
 * ahead that nothing more was due for the rest of the window (af_packet across a flap).
 * The bounds on retries and attempts are exact ceilings (load only lowers them); the frames
 * sent after the flap are tried again if load starved them.
 */
static void test_flap_refused(void)
{
	struct pb_config cfg;
	struct pb_result r;
	bool ok = false;
	int i;

	for (i = 1; i <= RT_ATTEMPTS && !ok; i++) {
		fk_reset();
		fk.async = true;
		fk.link_flap = true;
		fk.refuse_down = true;
		base_cfg(&cfg);
		cfg.duration_s = 1.0;
		cfg.pps = 2000;
		run(&fake_async, &cfg, true, &r);
		CHECK(fk.retried <= 0.4 * 2000 + 50 && fk.attempts + fk.retried <= 2000 + 50,
		      "refused flap: %llu retries in the 0.4 s down at 2 kpps (at most ~800), %llu "
		      "attempts in all (at most ~2000)",
		      (unsigned long long)fk.retried,
		      (unsigned long long)(fk.attempts + fk.retried));
		CHECK(r.status == PB_STATUS_OK, "refused flap: status %d %s", r.status, r.reason);
		ok = r.link_downs == 1 && fk.sent_after_flap >= 300;
		printf("refused flap: attempt %d: %u downs (want 1), %llu sent once the link was "
		       "back (0.3 s at 2 kpps: ~600, want >= 300): %s\n",
		       i, r.link_downs, (unsigned long long)fk.sent_after_flap,
		       ok ? "ok" : "missed");
		pb_result_release(&r);
	}
	CHECK(ok, "refused flap: the sender did not go on after the flap in all %d attempts",
	      RT_ATTEMPTS);
}

/*
 * A sender that stops making progress, its link up: past PB_STALL_S the row is an error
 * naming the stall, with the partial figures. A sender paced so slowly that it is quiet as
 * long (0.4 pps: its first frame is due at 2.5 s) is no stall. A rate that sends nothing in
 * the window (0.4 pps for 2.3 s; 1e-9 Gb/s of 60-byte frames for 1 s) is an error, never an
 * ok row with nothing sent.
 */
static void test_stalled_sender(void)
{
	struct pb_config cfg;
	struct pb_result r;

	fk_reset();
	fk.stall_after = 96; /* a multiple of the batch: 48 ms in */
	base_cfg(&cfg);
	cfg.duration_s = PB_STALL_S + 0.3;
	cfg.pps = 2000;
	run(&fake_method, &cfg, true, &r);
	CHECK(r.status == PB_STATUS_ERROR && strstr(r.reason, "stalled") && r.measured &&
		      r.frames_sent == 96,
	      "stalled: status %d, sent %llu, reason '%s'", r.status,
	      (unsigned long long)r.frames_sent, r.reason);
	pb_result_release(&r);

	fk_reset();
	base_cfg(&cfg);
	cfg.duration_s = PB_STALL_S + 0.6;
	cfg.pps = 0.4;
	run(&fake_method, &cfg, true, &r);
	CHECK(r.status == PB_STATUS_OK && r.frames_sent == 1,
	      "0.4 pps, one frame due at 2.5 s: status %d (want ok), sent %llu, reason '%s'",
	      r.status, (unsigned long long)r.frames_sent, r.reason);
	pb_result_release(&r);

	fk_reset();
	base_cfg(&cfg);
	cfg.duration_s = PB_STALL_S + 0.3;
	cfg.pps = 0.4;
	run(&fake_method, &cfg, true, &r);
	CHECK(r.status == PB_STATUS_ERROR && strstr(r.reason, "sends no frame") && !r.frames_sent,
	      "0.4 pps for 2.3 s, nothing due: status %d (want error), reason '%s'", r.status,
	      r.reason);
	pb_result_release(&r);

	fk_reset();
	base_cfg(&cfg);
	cfg.duration_s = 1;
	cfg.rate_gbps = 1e-9; /* 1 b/s: a frame of 84 bytes on the wire every 672 s */
	cfg.streams = 2;
	run(&fake_method, &cfg, true, &r);
	CHECK(r.status == PB_STATUS_ERROR && strstr(r.reason, "sends no frame") &&
		      strstr(r.reason, "2 streams"),
	      "--rate 1e-9 over 2 streams for 1 s: status %d (want error), reason '%s'", r.status,
	      r.reason);
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

/*
 * The receiver's runs table pushes the run out mid-run (a flood of run ids): an error naming
 * the eviction, delivered unknown, and not "restarted" (the receiver is the same instance),
 * whether the count went back after a read, the receiver said so, or the run was not kept
 * while runs were evicted and the count came short.
 */
static void test_rx_evicted(const char *how)
{
	struct pb_config cfg;
	struct pb_result r;

	fk_reset();
	base_cfg(&cfg);
	cfg.duration_s = 1.3; /* one sample, at 1 s, before the eviction */
	fk.evict_at = pb_now() + 1.15;
	fk.evict_said = !strcmp(how, "said");
	fk.evict_unkept = !strcmp(how, "unkept");
	if (strcmp(how, "back")) {
		/* no sample: no count read before the eviction, only the one before the window */
		cfg.duration_s = 0.3;
		fk.evict_at = pb_now() + 0.1;
	}
	run(&fake_method, &cfg, true, &r);
	CHECK(r.status == PB_STATUS_ERROR && r.rx_evicted && !r.rx_restarted &&
		      !r.delivered_known && strstr(r.reason, "receiver_evicted"),
	      "evicted (%s): status %d evicted %d restarted %d delivered_known %d reason '%s'", how,
	      r.status, r.rx_evicted, r.rx_restarted, r.delivered_known, r.reason);
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

/*
 * ---- on the simulated clock: a --pps run whose calls cost 1 us. Frame n (from 1) is due at
 * t0 + n / rate, and the window holds what was due by the deadline, a frame due on it too.
 */
static enum pb_pace sim_pace;	/* --pace of the next sim_run_fk (auto: sleep) */
static int64_t sim_start_in_ns; /* the next sim_run_fk's --start-at, this far ahead (0: none) */

static void sim_run_fk(const struct pb_method *m, struct pb_config *cfg, double pps,
		       double duration_s, struct pb_result *r)
{
	fk.sim = true;
	fk.call_s = 1e-6;
	base_cfg(cfg);
	cfg->pps = pps;
	cfg->pace = sim_pace;
	cfg->duration_s = duration_s;
	if (sim_start_in_ns)
		cfg->start_at_ns = pb_wall_ns() + sim_start_in_ns;
	run_clock = &sim_clock;
	run(m, cfg, true, r);
	run_clock = NULL;
}

/* A --pps run on the simulated clock with a fresh fake (sim_run_fk keeps the fake's set-up) */
static void sim_run(struct pb_config *cfg, double pps, double duration_s, struct pb_result *r)
{
	fk_reset();
	sim_run_fk(&fake_method, cfg, pps, duration_s, r);
}

/* How many frames left at the times want(n) says (n from 1), or the first that did not. */
static uint64_t sim_check_departures(uint64_t n, double (*want)(uint64_t n, const void *arg),
				     const void *arg, double *got, double *wanted)
{
	uint64_t i;

	for (i = 1; i <= n && i <= sizeof(fk.dep) / sizeof(fk.dep[0]); i++) {
		*got = fk.dep[i - 1];
		*wanted = want(i, arg);
		if (fabs(*got - *wanted) > 1e-9)
			return i;
	}
	return 0;
}

/* the nominal schedule: frame n at t0 + n / pps */
struct sched {
	double t0, pps;
};

static double want_nominal(uint64_t n, const void *arg)
{
	const struct sched *w = arg;

	return w->t0 + (double)n / w->pps;
}

/*
 * --pace sleep: a sleeper waits for PB_PACE_SLEEP_MIN_S of the schedule (b frames more than
 * one), then sends them together: frame n at the last of its group's deadlines
 */
static double want_slept(uint64_t n, const void *arg)
{
	const struct sched *w = arg;
	double g = floor(w->pps * PB_PACE_SLEEP_MIN_S) + 1;

	return w->t0 + ceil((double)n / g) * g / w->pps;
}

/*
 * the schedule exactly: 370 frames of 0.3 s at 1234 pps, each on its due time, none behind
 * (--pace spin); slept, frames go in the groups the least sleep waits for (at 20 kpps, pairs)
 */
static void test_sim_schedule(void)
{
	static const double rates[] = { 1234, 1000, 20000 };
	struct pb_config cfg;
	struct pb_result r;
	unsigned int i;

	for (i = 0; i < 2 * sizeof(rates) / sizeof(rates[0]); i++) {
		double pps = rates[i / 2], got = 0, want = 0;
		uint64_t frames = (uint64_t)floor(0.3 * pps + 1e-6), bad;

		sim_reset();
		sim_pace = i % 2 ? PB_PACE_SLEEP : PB_PACE_SPIN;
		sim_run(&cfg, pps, 0.3, &r);
		sim_pace = PB_PACE_AUTO;
		bad = sim_check_departures(frames, i % 2 ? want_slept : want_nominal,
					   &(struct sched){ SIM_T0, pps }, &got, &want);
		CHECK(r.status == PB_STATUS_OK && r.frames_sent == frames &&
			      fk.attempts == frames && r.frames_delivered == frames,
		      "sim %.0f pps, 0.3 s: %llu frames sent, %llu delivered (want %llu) %s", pps,
		      (unsigned long long)r.frames_sent, (unsigned long long)r.frames_delivered,
		      (unsigned long long)frames, r.reason);
		CHECK(!bad, "sim %.0f pps, --pace %s: frame %llu left at +%.9f s, due at +%.9f s",
		      pps, i % 2 ? "sleep" : "spin", (unsigned long long)bad, got - SIM_T0,
		      want - SIM_T0);
		CHECK(!strcmp(r.pacing, i % 2 ? "sleep" : "spin") &&
			      r.pace_max_us < (i % 2 ? 1e6 / pps + 0.5 : 0.5),
		      "sim %.0f pps: paced by %s, late at most %g us", pps, r.pacing,
		      r.pace_max_us);
		CHECK(r.paced_behind == 0 && fabs(r.duration_s - 0.3) < 2e-6,
		      "sim %.0f pps: %llu behind, window %.9f s (want 0, 0.3)", pps,
		      (unsigned long long)r.paced_behind, r.duration_s);
		pb_result_release(&r);
	}
}

/*
 * An async method whose completions come slowly (one per call): the allowance counts frames
 * in flight, so each of the 1000 frames of 0.5 s at 2 kpps is handed over on its due time,
 * never ahead, and all complete in the drain.
 */
static void test_sim_pacing_async(void)
{
	struct pb_config cfg;
	struct pb_result r;
	double got = 0, want = 0;
	uint64_t bad;

	sim_reset();
	fk_reset();
	fk.async = true;
	fk.complete_per_call = 1;
	sim_run_fk(&fake_async, &cfg, 2000, 0.5, &r);
	bad = sim_check_departures(1000, want_nominal, &(struct sched){ SIM_T0, 2000 }, &got,
				   &want);
	CHECK(fk.attempts == 1000 && r.frames_sent == 1000 && !bad,
	      "sim async 2 kpps: %llu handed over, %llu sent (want 1000, 1000); frame %llu at "
	      "+%.9f s, due +%.9f s",
	      (unsigned long long)fk.attempts, (unsigned long long)r.frames_sent,
	      (unsigned long long)bad, got - SIM_T0, want - SIM_T0);
	pb_result_release(&r);
}

/*
 * --pps paces attempts, retries included: at 2 kpps with every second attempt dropped (and
 * retried), 1000 attempts in 0.5 s, each on its due time: 500 sent, 500 retried, offered
 * 2000 pps and accepted 1000.
 */
static void test_sim_paced_attempts(void)
{
	struct pb_config cfg;
	struct pb_result r;
	double got = 0, want = 0;
	uint64_t bad;

	sim_reset();
	fk_reset();
	fk.retry_every = 2;
	sim_run_fk(&fake_method, &cfg, 2000, 0.5, &r);
	bad = sim_check_departures(1000, want_nominal, &(struct sched){ SIM_T0, 2000 }, &got,
				   &want);
	CHECK(fk.attempts == 1000 && r.frames_sent == 500 && r.frames_retried == 500 && !bad,
	      "sim paced attempts: %llu attempts, %llu sent, %llu retried (want 1000, 500, 500); "
	      "frame %llu at +%.9f s, due +%.9f s",
	      (unsigned long long)fk.attempts, (unsigned long long)r.frames_sent,
	      (unsigned long long)r.frames_retried, (unsigned long long)bad, got - SIM_T0,
	      want - SIM_T0);
	CHECK(fabs(r.offered_pps - 2000) < 0.01 && fabs(r.pps - 1000) < 0.01,
	      "sim paced attempts: offered %.6f pps (want 2000), accepted %.6f (want 1000)",
	      r.offered_pps, r.pps);
	pb_result_release(&r);
}

/*
 * A path that stops taking frames after 96 (EAGAIN, each refusal 1 ms): at 2 kpps for 0.4 s,
 * 800 were due; the 96 went by 48 ms, the sender was held back from then to the deadline,
 * inside send calls, and the 704 frames not sent are behind the schedule.
 */
static void test_sim_pushed_back(void)
{
	struct pb_config cfg;
	struct pb_result r;

	sim_reset();
	fk_reset();
	fk.stall_after = 96; /* a multiple of the batch */
	sim_run_fk(&fake_method, &cfg, 2000, 0.4, &r);
	CHECK(r.status == PB_STATUS_OK && r.frames_sent == 96 && fk.attempts == 96,
	      "sim pushed back: status %d, %llu sent (want 96)", r.status,
	      (unsigned long long)r.frames_sent);
	CHECK(r.send_eagain >= 350 && r.send_eagain <= 356 &&
		      fabs(r.send_blocked_s - 0.352) < 1e-6 && r.duration_s >= 0.4 &&
		      r.duration_s < 0.402,
	      "sim pushed back: %llu EAGAIN (want ~352), blocked %.6f s (want 0.352) of %.6f",
	      (unsigned long long)r.send_eagain, r.send_blocked_s, r.duration_s);
	CHECK(r.send_call_s >= 0.352 && r.send_call_s <= r.duration_s,
	      "sim pushed back: %.6f s of %.6f inside send calls (want >= 0.352)", r.send_call_s,
	      r.duration_s);
	CHECK(r.paced_behind == 704 && r.pushed_back,
	      "sim pushed back: %llu frames behind the schedule (want 704), pushed_back %d",
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

/* frames 101.. after the stall, then frame n at ms(n) (+ forgiven) */
struct stall_want {
	double end_ms;	  /* when the stall ended: the first frame after it goes then */
	uint64_t last_pk; /* the last frame of the catch-up, a peak gap apart */
	double forgiven;
};

static double want_stall(uint64_t n, const void *arg)
{
	const struct stall_want *w = arg;
	double gap_ms = 1.0 / PB_PACE_PEAK;

	if (n <= 100)
		return SIM_T0 + (double)n / 1000;
	if (n <= w->last_pk)
		return SIM_T0 + (w->end_ms + (double)(n - 101) * gap_ms) / 1000;
	return SIM_T0 + ((double)n + w->forgiven) / 1000;
}

/*
 * A stall put into the clock at 1000 pps (a 10-frame catch-up window): the worker's reading
 * at 101 ms finds 106 ms. The 6 frames owed go from then on a peak gap (0.5 ms) apart, never
 * in a burst, until the schedule is met at frame 111; nothing forgiven, all 300 sent. A
 * 50 ms stall owes 51 frames: 41 are forgiven, the window's 10 and what falls due meanwhile
 * go a peak gap apart up to frame 119 (160 ms), then frame n at n + 41 ms; 259 sent.
 */
static void test_sim_stall(void)
{
	static const struct {
		double stall_s;
		struct stall_want w;
		uint64_t sent;
	} cases[] = {
		{ 0.005, { 106, 111, 0 }, 300 },
		{ 0.050, { 151, 119, 41 }, 259 },
	};
	struct pb_config cfg;
	struct pb_result r;
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double got = 0, want = 0;
		uint64_t bad;

		sim_reset();
		sim.stall_at = SIM_T0 + 0.1005;
		sim.stall_s = cases[i].stall_s;
		sim_run(&cfg, 1000, 0.3, &r);
		bad = sim_check_departures(cases[i].sent, want_stall, &cases[i].w, &got, &want);
		CHECK(r.frames_sent == cases[i].sent && fk.attempts == cases[i].sent,
		      "stall %.0f ms: %llu frames sent (want %llu)", cases[i].stall_s * 1e3,
		      (unsigned long long)r.frames_sent, (unsigned long long)cases[i].sent);
		CHECK(!bad, "stall %.0f ms: frame %llu left at +%.9f s, due at +%.9f s",
		      cases[i].stall_s * 1e3, (unsigned long long)bad, got - SIM_T0, want - SIM_T0);
		CHECK(r.paced_behind == (uint64_t)cases[i].w.forgiven,
		      "stall %.0f ms: %llu frames behind, want the %.0f forgiven",
		      cases[i].stall_s * 1e3, (unsigned long long)r.paced_behind,
		      cases[i].w.forgiven);
		pb_result_release(&r);
	}
}

/*
 * The wait for the carrier, on the simulated clock: it ends on the read that finds the link
 * up, reports exactly how long that took, and the clock starts then; a link that never comes
 * up ends the wait at --link-timeout exactly, the row an error naming it. Its naps are at
 * most PB_LINK_NAP_S each, so a stop is seen soon.
 */
static void test_sim_link_wait(void)
{
	struct pb_config cfg;
	struct pb_result r;
	double pps = 1000, got = 0, want = 0;
	uint64_t bad;

	sim_reset();
	sim.carrier_at = SIM_T0 + 2.25;
	fk_reset();
	fk.sim = true;
	fk.call_s = 1e-6;
	base_cfg(&cfg);
	cfg.pps = pps;
	cfg.link_timeout_s = 5;
	run_clock = &sim_clock;
	run(&fake_method, &cfg, true, &r);
	run_clock = NULL;
	CHECK(r.status == PB_STATUS_OK && r.link_wait_s == 2.25 && !r.link_failed,
	      "carrier after 2.25 s: waited %.9f s, status %d %s", r.link_wait_s, r.status,
	      r.reason);
	/* the schedule starts when the wait ends: frame n at 2.25 s + n ms */
	bad = sim_check_departures(300, want_nominal, &(struct sched){ SIM_T0 + 2.25, pps }, &got,
				   &want);
	CHECK(r.frames_sent == 300 && !bad,
	      "the clock starts once the link is up: %llu sent, frame %llu at +%.9f s (due "
	      "+%.9f)",
	      (unsigned long long)r.frames_sent, (unsigned long long)bad, got - SIM_T0,
	      want - SIM_T0);
	CHECK(sim.longest_nap <= PB_LINK_NAP_S + 1e-12 && sim.naps >= 23,
	      "naps: %u, the longest %.3f s (at most %.1f)", sim.naps, sim.longest_nap,
	      PB_LINK_NAP_S);
	pb_result_release(&r);

	sim_reset();
	sim.carrier_at = SIM_T0 + 1e9;
	fk_reset();
	fk.sim = true;
	base_cfg(&cfg);
	cfg.pps = pps;
	cfg.link_timeout_s = 1.5;
	run_clock = &sim_clock;
	run(&fake_method, &cfg, true, &r);
	run_clock = NULL;
	CHECK(r.status == PB_STATUS_ERROR && r.link_failed && r.link_wait_s == 1.5 &&
		      strstr(r.reason, "after 1.5 s") && fk.attempts == 0,
	      "no carrier: failed %d after %.9f s (want 1.5), %llu sent, reason '%s'",
	      r.link_failed, r.link_wait_s, (unsigned long long)fk.attempts, r.reason);
	pb_result_release(&r);
}

/*
 * --start-at on the simulated clock, through a fake fleet door whose wait ends at the instant
 * (on the real wall clock the runner turned into its own): the receiver's counters are read
 * before the wait, and the first frame leaves at the wake, not a gap after it (at 10 pps a
 * gap is 100 ms; the tolerance is the real time between the runner's reading of the wall
 * clock and the door's). On the wire a host's stalls, which no guest sees, make the same
 * first frame 0.1-0.9 ms late (tests/net/test_fleet.sh): here the answer is exact.
 */
static double fdoor_wake;

static void fdoor_shard_apply(struct pb_config *cfg)
{
}

static int fdoor_start_wait(const struct pb_config *cfg, const int *stop, struct pb_start *st)
{
	fdoor_wake = sim_peek() + (double)(cfg->start_at_ns - pb_wall_ns()) / 1e9;
	sim_move(fdoor_wake);
	st->target_ns = st->actual_ns = cfg->start_at_ns;
	return 0;
}

static int64_t fdoor_start_settle(struct pb_start *st)
{
	return 0;
}

static int fdoor_announce(const struct pb_config *cfg, bool tagged)
{
	return 0;
}

static const struct pb_fleet_door fdoor = {
	.shard_apply = fdoor_shard_apply,
	.start_wait = fdoor_start_wait,
	.start_settle = fdoor_start_settle,
	.announce = fdoor_announce,
};

static void test_sim_start_at(void)
{
	struct pb_config cfg;
	struct pb_result r;
	double first, last;

	sim_reset();
	fk_reset();
	sim_start_in_ns = 500000000ll;
	run_fleet = &fdoor;
	sim_run_fk(&fake_method, &cfg, 10, 1, &r);
	run_fleet = NULL;
	sim_start_in_ns = 0;
	first = fk.dep[0];
	last = fk.dep[r.frames_sent ? r.frames_sent - 1 : 0];
	CHECK(r.status == PB_STATUS_OK && r.frames_sent == 10 && fdoor_wake > SIM_T0 + 0.4,
	      "--start-at 0.5 s ahead, 10 pps for 1 s: %llu sent (want 10), woke at +%.6f s, %s",
	      (unsigned long long)r.frames_sent, fdoor_wake - SIM_T0, r.reason);
	CHECK(fk.rx_read0 && fk.rx_read0 < fdoor_wake,
	      "the receiver's counters read before the wait: at +%.6f s, the wake at +%.6f s",
	      fk.rx_read0 - SIM_T0, fdoor_wake - SIM_T0);
	CHECK(first >= fdoor_wake && first - fdoor_wake < 0.02 && last - first > 0.899 &&
		      last - first < 0.901,
	      "the first frame at the wake: +%.6f s after it (a gap is 0.1 s), the last 0.9 s "
	      "after the first: %.6f s",
	      first - fdoor_wake, last - first);
	pb_result_release(&r);
}

/*
 * The simulated runs wait 3.75 s for links and send for 1.5 s of their clock: on the real
 * one they would take that long. They take milliseconds, sanitizers or not.
 */
static void sim_tests(void)
{
	double t0 = pb_now();

	test_sim_schedule();
	test_sim_pacing_async();
	test_sim_paced_attempts();
	test_sim_pushed_back();
	test_sim_stall();
	test_sim_link_wait();
	test_sim_start_at();
	printf("simulated runs: %.3f s of real time\n", pb_now() - t0);
	CHECK(pb_now() - t0 < 2.0, "simulated runs took %.3f s of real time", pb_now() - t0);
}

int main(void)
{
	pthread_mutex_init(&fk.mu, NULL);
	pthread_mutex_init(&sim.mu, NULL);
	pthread_cond_init(&sim.cv, NULL);
	sim_reset();
	test_count_split();
	test_null_count();
	test_fleet_door_missing();
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
	test_flap_refused();
	test_stalled_sender();
	test_rx_restart(true);
	test_rx_restart(false);
	test_rx_evicted("back");
	test_rx_evicted("said");
	test_rx_evicted("unkept");
	test_stop();
	sim_tests();
	return check_summary();
}
