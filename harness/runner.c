// SPDX-License-Identifier: MIT
/* The harness loop: workers, barrier, clock, sampler, stop, drain, accounting. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "log.h"
#include "pacer.h"
#include "netif.h"
#include "rx.h"
#include "runner.h"

#define PB_DRAIN_MS	 1000 /* how long in-flight frames may take to complete after the stop */
#define PB_SETTLE_MS	 20   /* receiver poll step while frames are still arriving */
#define PB_SETTLE_MAX_MS 1000
#define PB_BURST_S	 0.01 /* catch-up a late paced worker may send at once */
#define PB_PACE_NAP_S	 0.01 /* longest sleep while paced, so a stop is seen soon */

/* Written only by its worker, read by the sampler: one cache line each, no sharing. */
struct pb_counters {
	uint64_t frames;
	uint64_t retries;
} __attribute__((aligned(64)));

struct pb_slot {
	struct pb_worker w;
	struct pb_pool pool;
	struct pb_counters ctr;
	struct run *run;
	pthread_t thread;
	bool started;
	int open_err;
	int send_err;
	uint64_t quota; /* --count share; 0: until the stop */
	struct pb_pacer pacer;
	double end; /* when this worker stopped sending and drained */
	int done;
} __attribute__((aligned(64)));

struct run {
	const struct pb_method *m;
	const struct pb_config *cfg;
	const struct pb_env *env;
	/* a gate rather than a barrier: it copes with fewer threads than planned */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint32_t arrived;
	int go;
	int stop;	   /* the deadline passed, or a worker failed */
	int abort;	   /* an open failed: workers close without sending */
	double t0;	   /* the clock start, set before go */
	double target_pps; /* aggregate; 0: unlimited */
	struct pb_slot *slots;
};

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

static bool run_stopped(struct run *run)
{
	return __atomic_load_n(&run->stop, __ATOMIC_RELAXED) || *run->env->interrupted;
}

static void ctr_add(uint64_t *c, uint64_t n)
{
	__atomic_store_n(c, *c + n, __ATOMIC_RELAXED);
}

/*
 * Stream i runs on the i-th CPU of --cpus; without it, several streams are spread over the
 * CPUs we may use (one stream is left to the scheduler). A stream on its own CPU also gets
 * its own TX queue from paths that choose the queue by CPU (AF_PACKET with qdisc bypass).
 */
static void run_pin(const struct pb_config *cfg, uint32_t id)
{
	cpu_set_t allowed, set;
	int cpu = -1, seen = 0, c;

	if (cfg->ncpus) {
		cpu = (int)cfg->cpus[id % cfg->ncpus];
	} else if (cfg->streams > 1 && !sched_getaffinity(0, sizeof(allowed), &allowed)) {
		int n = CPU_COUNT(&allowed);

		for (c = 0; c < CPU_SETSIZE && cpu < 0 && n; c++)
			if (CPU_ISSET(c, &allowed) && seen++ == (int)(id % (uint32_t)n))
				cpu = c;
	}
	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *worker_main(void *arg)
{
	struct pb_slot *s = arg;
	struct run *run = s->run;
	const struct pb_method *m = run->m;
	unsigned int batch = run->cfg->batch ? run->cfg->batch : m->default_batch;
	int n;

	run_pin(run->cfg, s->w.id);
	s->open_err = m->open(&s->w);
	pthread_mutex_lock(&run->mu);
	run->arrived++;
	pthread_cond_broadcast(&run->cv);
	while (!run->go)
		pthread_cond_wait(&run->cv, &run->mu);
	pthread_mutex_unlock(&run->mu);
	if (__atomic_load_n(&run->abort, __ATOMIC_RELAXED))
		goto out;
	pb_pacer_init(&s->pacer, run->target_pps / run->cfg->streams, run->t0, PB_BURST_S);
	if (run->target_pps)
		prctl(PR_SET_TIMERSLACK, 1UL); /* paced sleeps end when asked, not 50 us later */

	while (!run_stopped(run)) {
		uint64_t left = s->quota ? s->quota - s->ctr.frames : UINT64_MAX;
		unsigned int budget = batch;

		if (!left)
			break;
		if (s->pacer.rate) {
			double t = pb_now();
			uint64_t allow = pb_pacer_allowance(&s->pacer, t, s->ctr.frames);

			if (!allow) {
				double next = pb_pacer_next(&s->pacer, s->ctr.frames);

				pb_sleep_until(next < t + PB_PACE_NAP_S ? next : t + PB_PACE_NAP_S);
				continue;
			}
			if (allow < left)
				left = allow;
		}
		/* in flight included: an asynchronous method keeps its frames within this */
		s->w.left = s->quota || s->pacer.rate ? left : UINT64_MAX;
		if (left < budget)
			budget = (unsigned int)left;
		n = m->send(&s->w, budget);
		if (n > 0) {
			ctr_add(&s->ctr.frames, n);
		} else if (n == -EAGAIN || n == -ENOBUFS || n == -EINTR) {
			ctr_add(&s->ctr.retries, 1);
		} else if (n < 0) {
			s->send_err = n;
			__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
			break;
		}
	}
	if (m->drain && !s->send_err) {
		n = m->drain(&s->w, PB_DRAIN_MS);
		if (n > 0)
			ctr_add(&s->ctr.frames, n);
	}
	s->end = pb_now();
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
out:
	if (m->close)
		m->close(&s->w);
	return NULL;
}

static uint64_t run_frames(struct run *run)
{
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i < run->cfg->streams; i++)
		sum += __atomic_load_n(&run->slots[i].ctr.frames, __ATOMIC_RELAXED);
	return sum;
}

static bool run_done(struct run *run)
{
	uint32_t i;

	for (i = 0; i < run->cfg->streams; i++)
		if (!__atomic_load_n(&run->slots[i].done, __ATOMIC_ACQUIRE))
			return false;
	return true;
}

/* IMIX: 7:4:1 of 64, 594 and 1518-byte wire frames, i.e. 60, 590 and 1514 without FCS. */
static const uint32_t pb_imix[12] = { 60, 60, 60, 60, 60, 60, 60, 590, 590, 590, 590, 1514 };

/*
 * Builds worker i's pool: its share of the flows (at least its own source port, as with
 * go-pktgen's streams), tagged when asked and the method builds frames, in a shuffled order.
 */
static int run_pool(const struct pb_config *cfg, uint32_t i, bool tagged, struct pb_pool *pool)
{
	struct pb_frame_spec spec;
	struct pb_flows fl = {
		.n = cfg->flows > cfg->streams ? cfg->flows : cfg->streams,
		.stream = i,
		.streams = cfg->streams,
		.vary_addr = cfg->flows_src_ip,
		.seed = ((uint64_t)cfg->run_id << 32) ^ (0x9e3779b97f4a7c15ull * (i + 1)),
		.sizes = cfg->imix ? pb_imix : NULL,
		.nsizes = cfg->imix ? 12 : 0,
	};

	pb_frame_spec_from_config(cfg, tagged, &spec);
	return pb_pool_build(pool, &spec, &fl);
}

/* Why m cannot send what cfg asks for, or NULL: these knobs need frames we build. */
static const char *run_unsupported(const struct pb_method *m, const struct pb_config *cfg)
{
	if (m->flags & (PB_M_FRAME | PB_M_NO_WIRE))
		return NULL;
	if (cfg->vlan)
		return "--vlan: the kernel builds this method's Ethernet header";
	if (cfg->flows_src_ip)
		return "--flows-src-ip: a socket sends only from the interface's own address";
	return NULL;
}

/*
 * One live line, like PF_RING's "Actual Stats": the last second's sent and delivered rates.
 * On a terminal it is rewritten in place; off one (CI, pipes) each second is its own line.
 */
static void live_line(const struct run *run, double t, double dt, uint64_t dsent,
		      const uint64_t *ddeliv, uint32_t frame_bytes, bool tty)
{
	double pps = dsent / dt;
	char deliv[64] = "";

	if (ddeliv)
		snprintf(deliv, sizeof(deliv), " | delivered %10.0f pps", *ddeliv / dt);
	fprintf(stderr, "%s%s: [%6.2f s] sent %10.0f pps %8.3f Gb/s%s", tty ? "\r\033[K" : "",
		run->env->label, t, pps, pb_wire_gbps(pps, frame_bytes, false), deliv);
	if (tty && !run->cfg->count && run->cfg->duration_s > t)
		fprintf(stderr, " (%.0f s left)", run->cfg->duration_s - t);
	if (!tty)
		fputc('\n', stderr);
}

/* Keeps the per-second view; a failed allocation only loses samples, never the run. */
static void run_keep_sample(struct pb_result *res, double t, uint64_t sent, uint64_t delivered)
{
	struct pb_sample *grown;

	if (!(res->nsamples & (res->nsamples - 1))) {
		grown = realloc(res->samples,
				sizeof(*grown) * (res->nsamples ? res->nsamples * 2 : 1));
		if (!grown)
			return;
		res->samples = grown;
	}
	res->samples[res->nsamples++] = (struct pb_sample){ t, sent, delivered };
}

/* Sleeps until the deadline (or the quota), one live line a second. */
static void run_sample(struct run *run, double t0, struct pb_result *res, uint64_t rx0)
{
	const struct pb_config *cfg = run->cfg;
	double deadline = cfg->count ? 0 : t0 + cfg->duration_s;
	double next = t0 + 1, last_t = t0;
	uint64_t last_sent = 0, last_rx = rx0;
	struct timespec nap = { 0, 10 * 1000 * 1000 };
	bool tty = isatty(STDERR_FILENO), drawn = false;

	for (;;) {
		double t = pb_now();

		if (run_stopped(run) || (deadline && t >= deadline) || run_done(run))
			break;
		if (t >= next) {
			uint64_t sent = run_frames(run), rx = 0, d;
			struct pb_rx_counts c;
			bool have_rx =
				run->env->receiver && !pb_receiver_read(run->env->receiver, &c);

			if (have_rx)
				rx = c.frames;
			d = rx - last_rx;
			if (!cfg->quiet) {
				live_line(run, t - t0, t - last_t, sent - last_sent,
					  have_rx ? &d : NULL, res->frame_bytes, tty);
				drawn = true;
			}
			run_keep_sample(res, t - t0, sent, have_rx ? rx - rx0 : 0);
			last_sent = sent;
			last_rx = rx;
			last_t = t;
			next += 1;
		}
		if (deadline && deadline - t < 0.01)
			nap.tv_nsec = (long)((deadline - t) * 1e9);
		nanosleep(&nap, NULL);
	}
	__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
	if (drawn && tty)
		fputc('\n', stderr);
}

/* Frames keep arriving at the receiver a little after the sender stops: wait until still. */
static void run_settle(const struct pb_env *env, uint64_t sent, uint64_t rx0,
		       struct pb_rx_counts *c)
{
	struct timespec step = { 0, PB_SETTLE_MS * 1000 * 1000 };
	uint64_t prev = UINT64_MAX;
	int waited;

	for (waited = 0; waited <= PB_SETTLE_MAX_MS; waited += PB_SETTLE_MS) {
		if (pb_receiver_read(env->receiver, c))
			return;
		if (c->frames - rx0 >= sent || c->frames == prev)
			return;
		prev = c->frames;
		nanosleep(&step, NULL);
	}
}

static void res_error(struct pb_result *res, const char *what, int err)
{
	res->status = PB_STATUS_ERROR;
	snprintf(res->reason, sizeof(res->reason), "%s: %s", what, strerror(-err));
}

int pb_run_method(const struct pb_method *m, const struct pb_config *cfg, const struct pb_env *env,
		  struct pb_result *res)
{
	struct pb_link_stats tx0 = { 0 }, tx1 = { 0 }, rx0 = { 0 }, rx1 = { 0 };
	struct pb_rx_counts c0 = { 0 }, c1 = { 0 };
	uint64_t xerr0 = 0, xerr1 = 0;
	struct run run = { .m = m, .cfg = cfg, .env = env };
	double t0, t1, cpu0, waited = 0;
	uint32_t i, started = 0;
	int err;

	memset(res, 0, sizeof(*res));
	snprintf(res->method, sizeof(res->method), "%s", m->name);
	snprintf(res->mode, sizeof(res->mode), "-");
	res->streams = cfg->streams;
	res->has_receiver = env->receiver && !(m->flags & PB_M_NO_WIRE);

	if (run_unsupported(m, cfg)) {
		res->status = PB_STATUS_SKIPPED;
		snprintf(res->reason, sizeof(res->reason), "%s", run_unsupported(m, cfg));
		return 0;
	}
	if (m->probe) {
		err = m->probe(cfg, res->reason, sizeof(res->reason));
		if (err) {
			res->status = PB_STATUS_SKIPPED;
			if (!res->reason[0])
				snprintf(res->reason, sizeof(res->reason), "%s", strerror(-err));
			return 0;
		}
	}

	run.slots = aligned_alloc(64, sizeof(*run.slots) * cfg->streams);
	if (!run.slots)
		return -ENOMEM;
	memset(run.slots, 0, sizeof(*run.slots) * cfg->streams);
	pthread_mutex_init(&run.mu, NULL);
	pthread_cond_init(&run.cv, NULL);

	for (i = 0; i < cfg->streams; i++) {
		struct pb_slot *s = &run.slots[i];

		s->run = &run;
		s->w.cfg = cfg;
		s->w.id = i;
		s->w.left = UINT64_MAX;
		snprintf(s->w.mode, sizeof(s->w.mode), "-");
		if (cfg->count)
			s->quota = cfg->count / cfg->streams + (i < cfg->count % cfg->streams);
		err = run_pool(cfg, i, cfg->vlan && (m->flags & PB_M_FRAME), &s->pool);
		if (err) {
			res_error(res, "building the frames", err);
			goto out_free;
		}
		s->w.pool = &s->pool;
		s->w.frame = &s->pool.frames[0];
	}
	/*
	 * What a frame costs, averaged over the pool (--imix mixes sizes): frame methods hand the
	 * kernel padded frames, socket methods a payload the kernel wraps unpadded.
	 */
	res->vlan = cfg->vlan && (m->flags & PB_M_FRAME);
	for (i = 0; i < run.slots[0].pool.n; i++) {
		const struct pb_frame *f = &run.slots[0].pool.frames[i];
		uint32_t bytes = (m->flags & PB_M_FRAME) ? f->len : f->unpadded;

		res->frame_avg += bytes;
		res->wire_avg += pb_wire_bytes(bytes, res->vlan);
		res->padded |= (m->flags & PB_M_FRAME) && f->len > f->unpadded;
	}
	res->frame_avg /= run.slots[0].pool.n;
	res->wire_avg /= run.slots[0].pool.n;
	res->frame_bytes = (uint32_t)(res->frame_avg + 0.5);
	res->imix = cfg->imix;
	/* --rate is wire bandwidth: the frame's L1 size turns it into packets/s */
	run.target_pps = cfg->pps	  ? cfg->pps
			 : cfg->rate_gbps ? cfg->rate_gbps * 1e9 / (8.0 * res->wire_avg)
					  : 0;
	res->target_pps = run.target_pps;

	for (i = 0; i < cfg->streams; i++) {
		err = pthread_create(&run.slots[i].thread, NULL, worker_main, &run.slots[i]);
		if (err) {
			pr_err("%s: cannot start worker %u: %s\n", m->name, i, strerror(err));
			res_error(res, "starting workers", -err);
			run.abort = 1;
			break;
		}
		run.slots[i].started = true;
		started++;
	}

	/* every started worker has opened (or failed to) before anything is measured */
	pthread_mutex_lock(&run.mu);
	while (run.arrived < started)
		pthread_cond_wait(&run.cv, &run.mu);
	pthread_mutex_unlock(&run.mu);
	for (i = 0; i < started && !run.abort; i++) {
		if (run.slots[i].open_err) {
			res_error(res, "open", run.slots[i].open_err);
			run.abort = 1;
		}
	}
	snprintf(res->mode, sizeof(res->mode), "%s", run.slots[0].w.mode);

	/* the clock starts only once the carrier is up: an XDP attach may bounce the link */
	if (!run.abort && env->tx_nl) {
		err = pb_netif_wait_up(env->tx_nl, env->tx_ifindex, cfg->link_timeout_s, &waited,
				       (volatile int *)env->interrupted);
		res->link_wait_s = waited;
		if (err == -ETIMEDOUT) {
			res->status = PB_STATUS_ERROR;
			snprintf(res->reason, sizeof(res->reason),
				 "the link of %s was not up after %.1f s (--link-timeout)",
				 cfg->ifname, waited);
			run.abort = 1;
		} else if (err) {
			res_error(res, "waiting for the link", err);
			run.abort = 1;
		} else if (waited >= 0.1 && !cfg->quiet) {
			fprintf(stderr, "%s: link of %s up after %.2f s; the clock starts now\n",
				env->label, cfg->ifname, waited);
		}
	}
	if (!run.abort) {
		if (env->tx_nl)
			pb_netif_stats(env->tx_nl, env->tx_ifindex, &tx0);
		if (env->rx_nl)
			pb_netif_ethtool_sum(cfg->ifname, "xdp_xmit_errors", &xerr0);
		if (env->rx_nl)
			pb_netif_stats(env->rx_nl, env->rx_ifindex, &rx0);
		if (env->receiver) {
			pb_receiver_clear_ports(env->receiver);
			pb_receiver_read(env->receiver, &c0);
		}
	}
	cpu0 = cpu_s();
	t0 = pb_now();
	pthread_mutex_lock(&run.mu);
	run.t0 = t0;
	run.go = 1;
	pthread_cond_broadcast(&run.cv);
	pthread_mutex_unlock(&run.mu);
	if (!run.abort)
		run_sample(&run, t0, res, c0.frames);

	for (i = 0; i < cfg->streams; i++)
		if (run.slots[i].started)
			pthread_join(run.slots[i].thread, NULL);
	if (run.abort)
		goto out_free;

	t1 = t0;
	for (i = 0; i < cfg->streams; i++) {
		if (run.slots[i].end > t1)
			t1 = run.slots[i].end;
		res->frames_sent += run.slots[i].ctr.frames;
		res->send_errors += run.slots[i].ctr.retries;
		res->frames_retried += run.slots[i].w.retried;
		if (run.slots[i].send_err && res->status == PB_STATUS_OK)
			res_error(res, "send", run.slots[i].send_err);
	}
	res->cpu_s = cpu_s() - cpu0;
	res->duration_s = t1 - t0;
	res->interrupted = *env->interrupted;

	if (env->receiver) {
		run_settle(env, res->frames_sent, c0.frames, &c1);
		res->frames_delivered = c1.frames - c0.frames;
		res->frames_foreign = c1.foreign_frames - c0.foreign_frames;
		pb_receiver_count_ports(env->receiver, &res->flows_seen);
		pb_receiver_vlans(env->receiver, res->rx_vlans, 4, &res->nrx_vlans);
		res->rx_queues =
			env->rx_queues < PB_RESULT_QUEUES ? env->rx_queues : PB_RESULT_QUEUES;
		for (i = 0; i < res->rx_queues; i++)
			res->rx_queue_frames[i] = c1.queue_frames[i] - c0.queue_frames[i];
	}
	if (env->tx_nl && !pb_netif_stats(env->tx_nl, env->tx_ifindex, &tx1))
		res->frames_dropped += tx1.tx_dropped - tx0.tx_dropped;
	if (env->rx_nl && !pb_netif_stats(env->rx_nl, env->rx_ifindex, &rx1)) {
		res->frames_dropped += rx1.rx_dropped - rx0.rx_dropped;
		/*
		 * A veth counts an XDP frame its peer refused (XDP_TX, redirect) both as the
		 * sender's tx_dropped and as the receiver's rx_dropped: take it out once.
		 */
		if (!pb_netif_ethtool_sum(cfg->ifname, "xdp_xmit_errors", &xerr1) &&
		    xerr1 - xerr0 <= res->frames_dropped)
			res->frames_dropped -= xerr1 - xerr0;
	}
	/* a dropped attempt that was sent again is not a lost frame */
	res->frames_dropped -= res->frames_retried < res->frames_dropped ? res->frames_retried
									 : res->frames_dropped;
	pb_result_compute(res);

out_free:
	pthread_cond_destroy(&run.cv);
	pthread_mutex_destroy(&run.mu);
	for (i = 0; i < cfg->streams; i++)
		pb_pool_free(&run.slots[i].pool);
	free(run.slots);
	return *env->interrupted ? -EINTR : 0;
}
