// SPDX-License-Identifier: MIT
/*
 * The harness loop: workers, gate, clock, sampler, stop, drain, accounting. Methods only
 * report what each call did (struct pb_outcome); everything is counted here, and the
 * netting of the path's counters is left to stats.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "fleet_door.h"
#include "latency.h"
#include "log.h"
#include "pacer.h"
#include "replay_source.h"
#include "rx_source.h"
#include "runner.h"
#include "settle.h"

#define PB_BURST_S	  0.01	/* catch-up a late paced worker may send at once */
#define PB_PACE_NAP_S	  0.01	/* longest sleep while paced, so a stop is seen soon */
#define PB_CPU_LOOK_MAX	  256	/* CPUs a worker is looked for on (run_cpu_look) */
#define PB_DRAIN_NAP_NS	  50000 /* between reaps while draining */
#define PB_SAMPLE_MS	  10	/* the sampler's step: deadline, stop and link checks */
#define PB_BUDGET_MAX	  (1u << 30)

/* Written only by its worker, read by the sampler: one cache line each, no sharing. */
struct pb_counters {
	uint64_t sent;
	uint64_t retried;
	uint64_t transient; /* calls that found the path full */
	uint64_t calls;
	uint64_t inflight;
	uint64_t eagain;   /* calls a full socket or ring refused */
	double blocked_s;  /* time held back by the path (see pb_result.send_blocked_s) */
	double blocked_at; /* when the current hold-back began; 0: not held back */
	double send_s;	   /* paced: time inside send() calls */
} __attribute__((aligned(64)));

struct pb_slot {
	struct pb_worker w;
	struct pb_pool pool;
	struct pb_counters ctr;
	struct run *run;
	pthread_t thread;
	int open_err;
	int send_err;
	uint64_t quota; /* --count share (may be 0); UINT64_MAX: until the stop */
	struct pb_pacer pacer;
	uint64_t paced_last; /* a schedule that starts at the instant: its frames due before the
			      * deadline (the next one, due at it, is the next window's); else 0 */
	struct pb_replay_stream *rs; /* --replay: this stream's schedule; NULL: none */
	double cpu_s;	 /* this thread's CPU time over its sending window, drain included */
	double end;	 /* when this worker stopped sending and drained */
	uint64_t behind; /* paced: frames due by the stop that never went */
	double budget_t; /* paced: when the last budget was asked for */
	pid_t tid;	 /* the worker thread's, for the CPU it runs on (/proc) */
	uint32_t cpu_samples[PB_CPU_LOOK_MAX]; /* seconds the sampler found it on each CPU */
	int cpu_last;			       /* 1 + the CPU at the last look; 0: none yet */
	uint32_t cpu_moves; /* looks that found it on another CPU than the look before */
	double call_t;	    /* paced: when the last send() call began; 0: none since */
	bool past;	    /* paced: the worker read the clock at or past the deadline */
	int done;
} __attribute__((aligned(64)));

struct run {
	const struct pb_method *m;
	struct pb_config cfg; /* the caller's, with this run's own run id */
	const struct pb_env *env;
	/* a gate rather than a barrier: it copes with fewer threads than planned */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint32_t arrived; /* once run_open returns: the workers started, slots 0 .. arrived-1 */
	int go;
	int stop;    /* a worker failed, the workers are done, or the sampler was stopped */
	int expired; /* the sampler saw the deadline: workers without a clock stop */
	int abort;   /* an open failed: workers close without sending */
	const struct pb_clock *clk; /* env's, or CLOCK_MONOTONIC: pacing, deadline, link wait */
	double t0;		    /* the clock start, set before go */
	bool start_at;		    /* t0 is --start-at's instant: workers wait for it */
	struct pb_start start;	   /* worker 0's wait for it (pb_start_wait), its wake */
	int64_t start_cpu_wait_ns; /* ... and its CPU wait, settled after its first frame */
	double deadline;   /* the stop (--duration, or --count's bound), set before go */
	double target_pps; /* aggregate; 0: unlimited */
	bool sleeps;	   /* --pace: waits are slept to the instant, none spun */
	/* --replay's frames and schedules, or NULL; and the door they are reached by */
	struct pb_replay *replay;
	const struct pb_replay_source *rp;
	struct pb_slot *slots;
	/* the stall detector (pacer.h): the longest quiet stretch of a worker, its link up */
	double stall_s, stall_from;
	uint32_t stall_worker;
	/* the receiver that counts this run: who answered first, and whether that changed */
	uint64_t rx_instance;
	bool rx_instance_set;
	bool rx_restarted;
	/*
	 * This run's count as the receiver last gave it, and what says part of it was lost: the
	 * receiver's runs table pushed it out (a count that went back, or "seen" no more, at the
	 * same instance; or the receiver says so), or could not keep it (its kept table full)
	 * while the table pushed runs out (rx_evictions, at the first and the last read).
	 */
	bool rx_seen;
	uint64_t rx_last;
	bool rx_evicted;
	bool rx_unkept;
	bool rx_evictions_set;
	uint64_t rx_evictions0, rx_evictions1;
};

static double thread_cpu_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool run_stopped(const struct run *run)
{
	return __atomic_load_n(&run->stop, __ATOMIC_RELAXED) ||
	       __atomic_load_n(run->env->stop, __ATOMIC_RELAXED);
}

static void ctr_add(uint64_t *c, uint64_t n)
{
	__atomic_store_n(c, *c + n, __ATOMIC_RELAXED);
}

static uint64_t ctr_get(const uint64_t *c)
{
	return __atomic_load_n(c, __ATOMIC_RELAXED);
}

int pb_stream_cpu(const struct pb_config *cfg, uint32_t id)
{
	cpu_set_t allowed;
	int seen = 0, c, n;

	if (cfg->ncpus)
		return (int)cfg->cpus[id % cfg->ncpus];
	if (cfg->streams < 2 || sched_getaffinity(0, sizeof(allowed), &allowed))
		return -1;
	n = CPU_COUNT(&allowed);
	for (c = 0; c < CPU_SETSIZE && n; c++)
		if (CPU_ISSET(c, &allowed) && seen++ == (int)(id % (uint32_t)n))
			return c;
	return -1;
}

static void run_pin(const struct pb_config *cfg, uint32_t id)
{
	int cpu = pb_stream_cpu(cfg, id);
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/*
 * One send() call, its outcome counted: o zeroed but for what is in flight. False when the
 * call failed for good; the worker keeps its first such error.
 */
static inline bool __attribute__((always_inline))
worker_call(struct pb_slot *s, const struct pb_method *m, unsigned int budget, bool async,
	    struct pb_outcome *o)
{
	int err;

	memset(o, 0, sizeof(*o));
	o->inflight = (uint32_t)s->ctr.inflight;
	err = m->send(&s->w, budget, o);
	ctr_add(&s->ctr.sent, o->sent);
	ctr_add(&s->ctr.retried, o->retried);
	ctr_add(&s->ctr.calls, o->calls);
	__atomic_store_n(&s->ctr.inflight, async ? o->inflight : 0, __ATOMIC_RELAXED);
	/* the clock is read only while the path holds the sender back */
	if (err == -EAGAIN) {
		s->ctr.eagain++;
		if (!s->ctr.blocked_at)
			s->ctr.blocked_at = pb_clock_now(s->run->clk) - o->wait_ns / 1e9;
	} else if (s->ctr.blocked_at && (o->sent || o->retried)) {
		s->ctr.blocked_s += pb_clock_now(s->run->clk) - s->ctr.blocked_at;
		s->ctr.blocked_at = 0;
	}
	if (err == -EAGAIN || err == -ENOBUFS || err == -EINTR) {
		ctr_add(&s->ctr.transient, 1);
		return true;
	}
	if (err < 0) {
		if (!s->send_err)
			s->send_err = err;
		return false;
	}
	return true;
}

/*
 * A worker whose schedule reads the clock ends by it: what was due by the deadline (the
 * window is closed, a frame due on it is inside) is its last call, whenever the sampler
 * wakes.
 */
static double worker_past(struct pb_slot *s, double t)
{
	if (t < s->run->deadline)
		return t;
	s->past = true;
	return s->run->deadline;
}

/* The schedule's count of a worker: every attempt, a frame the path dropped and reported too. */
static uint64_t slot_tried(const struct pb_slot *s)
{
	return s->ctr.sent + s->ctr.inflight + s->ctr.retried;
}

/*
 * How many frames the next call may hand over: what --count still wants, less what is in
 * flight, and what the pacer allows by now, less every attempt so far: --pps paces what is
 * offered, so a frame the path dropped and reported (retried) used its slot of the schedule.
 * 0 with *wait set: nothing is due yet, and *wait never later than the deadline. Past the
 * deadline, s->past is set and the budget is what was due by the deadline. Also arms the
 * stream's next probe when it is due.
 */
static uint64_t worker_budget(struct pb_slot *s, double *wait)
{
	const struct pb_clock *clk = s->run->clk;
	uint64_t handed = s->ctr.sent + s->ctr.inflight;
	uint64_t tried = handed + s->ctr.retried;
	uint64_t budget = s->quota == UINT64_MAX ? UINT64_MAX
			  : s->quota > handed	 ? s->quota - handed
						 : 0;

	double t = 0;

	*wait = 0;
	if (s->rs) {
		/* --replay: the frames whose own deadlines have come */
		double next = 0;
		uint64_t allow;

		t = pb_clock_now(clk);
		t = worker_past(s, t);
		allow = s->run->rp->allowance(s->rs, t - s->run->t0, handed, &next);
		if (!allow)
			*wait = fmin(fmin(s->run->t0 + next, t + PB_PACE_NAP_S), s->run->deadline);
		budget = allow < budget ? allow : budget;
	} else if (s->pacer.rate) {
		uint64_t allow;

		t = pb_clock_now(clk);
		/* the clock is read here anyway: the call since the last budget is timed */
		if (s->call_t) {
			s->ctr.send_s += t - s->call_t;
			s->call_t = 0;
		}
		t = worker_past(s, t);
		s->budget_t = t;
		allow = pb_pacer_allowance(&s->pacer, t, tried);
		if (s->paced_last) {
			uint64_t left = tried < s->paced_last ? s->paced_last - tried : 0;

			allow = allow < left ? allow : left;
		}
		if (!allow) {
			double next = pb_pacer_next(&s->pacer, tried);

			*wait = fmin(fmin(next, t + PB_PACE_NAP_S), s->run->deadline);
		}
		budget = allow < budget ? allow : budget;
	}
	/*
	 * --latency: the stream's next probe is due by now. Paced, it rides the frame the
	 * schedule has leave at its time, wherever that falls in the call's bunch: a sleeper's
	 * bunch meets a full queue head first, and probes always on its first frame were lost
	 * less than the frames around them (a tbf offered twice its rate: 34 % against 47 %)
	 */
	if (s->w.probe.on)
		pb_probe_arm(&s->w.probe, t ? t : pb_clock_now(clk),
			     s->pacer.rate && !s->rs
				     ? pb_pacer_frame_at(&s->pacer, s->w.probe.next_t, tried)
				     : 0);
	return budget < PB_BUDGET_MAX ? budget : PB_BUDGET_MAX;
}

/*
 * After the stop: frames still in flight get up to PB_DRAIN_S of elapsed time to complete
 * and count only if they do. The drain is inside the measured window.
 */
static void worker_drain(struct pb_slot *s)
{
	const struct timespec nap = { 0, PB_DRAIN_NAP_NS };
	double deadline = pb_now() + PB_DRAIN_S;
	struct pb_outcome o;

	while (s->ctr.inflight && pb_now() < deadline) {
		if (!worker_call(s, s->run->m, 0, true, &o))
			break;
		if (!o.sent && !o.retried)
			nanosleep(&nap, NULL);
	}
	if (s->ctr.inflight)
		pr_warn("%s: worker %u: %" PRIu64 " frames still in flight after %.1f s, not "
			"counted\n",
			s->run->m->name, s->w.id, s->ctr.inflight, PB_DRAIN_S);
}

/*
 * A --start-at run: the first frame leaves at the instant (t0). Worker 0 waits for it as
 * pb_start_wait does, on the wall clock, and says how late it woke; the others on the run's
 * clock, asleep in naps (an abort, a Ctrl-C during a long wait, ends it) to a millisecond
 * before it, then on the CPU to it, yielding at each turn: a timer here wakes 50-750 us late,
 * which the spin takes up.
 */
#define PB_START_NAP_S	0.1
#define PB_START_SPIN_S 0.001

static void worker_start_at(struct run *run, uint32_t id)
{
	double t;

	if (!run->start_at)
		return;
	/*
	 * worker 0 on the wall clock the instant is named on, and measured (fleet.c): what the
	 * wake did not read is read after the first frame (worker_start_settle)
	 */
	if (!id) {
		if (run->env->fleet->start_wait(&run->cfg, run->env->stop, &run->start))
			__atomic_store_n(&run->abort, 1, __ATOMIC_RELAXED);
		return;
	}
	while (!__atomic_load_n(&run->abort, __ATOMIC_RELAXED) &&
	       (t = pb_clock_now(run->clk)) < run->t0 - PB_START_SPIN_S)
		pb_clock_nap_until(run->clk, fmin(run->t0 - PB_START_SPIN_S, t + PB_START_NAP_S));
	while (!__atomic_load_n(&run->abort, __ATOMIC_RELAXED) && pb_clock_now(run->clk) < run->t0)
		sched_yield();
}

/* worker 0's start, settled once: after its first call, or when it makes none (fleet.c) */
static void worker_start_settle(struct run *run, bool *pending)
{
	if (!*pending)
		return;
	run->start_cpu_wait_ns = run->env->fleet->start_settle(&run->start);
	*pending = false;
}

static void *worker_main(void *arg)
{
	struct pb_slot *s = arg;
	struct run *run = s->run;
	const struct pb_method *m = run->m;
	bool async = m->flags & PB_M_ASYNC;
	struct pb_outcome o;
	double cpu0, wait = 0, rate;
	uint64_t budget, tried;
	bool limited, own_clock, refused = false, settle;
	char name[16];

	/* named, so that top -H, perf and strace show which thread sends which stream */
	snprintf(name, sizeof(name), "pb-send%u", s->w.id);
	prctl(PR_SET_NAME, name);
	s->tid = (pid_t)syscall(SYS_gettid);
	run_pin(&run->cfg, s->w.id);
	s->open_err = m->open(&s->w);
	pthread_mutex_lock(&run->mu);
	run->arrived++;
	pthread_cond_broadcast(&run->cv);
	while (!run->go)
		pthread_cond_wait(&run->cv, &run->mu);
	pthread_mutex_unlock(&run->mu);
	rate = run->target_pps / run->cfg.streams;
	/*
	 * A schedule's frame i is due at t0 + (i + 1) / rate: one gap after the window opens. A
	 * --start-at run's first frame is due at the instant itself (1 ms later at 1 kpps was
	 * most of how late a fleet's first frames reached the agent), so its schedule begins a
	 * gap before it.
	 */
	pb_pacer_init(&s->pacer, rate,
		      run->cfg.start_at_ns && rate > 0 ? run->t0 - 1.0 / rate : run->t0,
		      PB_BURST_S);
	/*
	 * That schedule's frame RATE x SECS falls due at the deadline itself, one more than the
	 * window holds (a 2 s run at 1 kpps sent 2001 when the worker got there before the
	 * sampler called time): the frames due before the deadline are all it sends.
	 */
	if (run->cfg.start_at_ns && rate > 0)
		s->paced_last =
			(uint64_t)fmax(1.0, ceil((run->deadline - s->pacer.t0) * rate - 1e-6)) - 1;
	if (run->sleeps)
		pb_pacer_sleeps(&s->pacer);
	if (run->target_pps || s->rs)
		prctl(PR_SET_TIMERSLACK, 1UL); /* paced sleeps end when asked, not 50 us later */
	/* all of the above before a --start-at instant: after it, the first frame comes first */
	worker_start_at(run, s->w.id);
	settle = run->start_at && !s->w.id;
	if (__atomic_load_n(&run->abort, __ATOMIC_RELAXED)) {
		worker_start_settle(run, &settle);
		goto out;
	}
	cpu0 = thread_cpu_s() + (m->helper_cpu_s ? m->helper_cpu_s(&s->w) : 0);

	/* what the loop has to ask before each call: nothing at all when unlimited */
	limited = s->quota != UINT64_MAX || s->pacer.rate || s->w.probe.on || s->rs;
	/* a paced or replayed schedule ends by the clock it reads (worker_past), not the sampler */
	own_clock = s->pacer.rate || s->rs;
	while (!run_stopped(run) &&
	       !(!own_clock && __atomic_load_n(&run->expired, __ATOMIC_RELAXED)) &&
	       s->ctr.sent < s->quota && !(s->rs && run->rp->exhausted(s->rs))) {
		budget = limited ? worker_budget(s, &wait) : PB_BUDGET_MAX;
		if (s->past && !budget)
			break; /* what is in flight is drained below */
		/*
		 * Nothing due, and the last call's frames were all refused and are still in
		 * flight (ENOBUFS: a link down, a full qdisc): trying them again now would be
		 * an attempt the schedule did not allow, and each counts against it, so
		 * retries at the loop's speed would run the schedule ahead until nothing was
		 * due for the rest of the window. They go again when the next frame is due.
		 */
		if (!budget && (!s->ctr.inflight || (refused && wait))) {
			/* --pace: slept to the instant, or its last stretch spun */
			if (wait && run->sleeps)
				pb_clock_nap_until(run->clk, wait);
			else if (wait)
				pb_clock_sleep_until(run->clk, wait);
			continue;
		}
		/* a zero budget with frames in flight only reaps them */
		s->call_t = s->pacer.rate ? s->budget_t : 0;
		tried = slot_tried(s);
		if (!worker_call(s, m, (unsigned int)budget, async, &o)) {
			__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
			break;
		}
		if (settle) /* a flag in a register: the loop pays no call for it */
			worker_start_settle(run, &settle);
		if (s->pacer.rate)
			pb_pacer_depart(&s->pacer, s->budget_t, tried, slot_tried(s));
		refused = o.retried && !o.sent;
		if (s->rs)
			run->rp->note(s->rs, s->ctr.sent + s->ctr.inflight);
		if (s->past)
			break; /* that call had what was due by the deadline */
	}
	worker_start_settle(run, &settle); /* a window that sent nothing */
	if (s->call_t)
		s->ctr.send_s += pb_clock_now(run->clk) - s->call_t;
	s->behind = pb_pacer_behind(&s->pacer, fmin(pb_clock_now(run->clk), run->deadline),
				    slot_tried(s));
	/* after an error too: frames that completed before it count, and the error stays */
	if (async)
		worker_drain(s);
	s->end = pb_clock_now(run->clk);
	if (s->ctr.blocked_at) {
		s->ctr.blocked_s += s->end - s->ctr.blocked_at;
		s->ctr.blocked_at = 0;
	}
	s->cpu_s = thread_cpu_s() + (m->helper_cpu_s ? m->helper_cpu_s(&s->w) : 0) - cpu0;
out:
	/*
	 * done on every way out, an abort's too: the sampler waits for every worker's (a Ctrl-C
	 * before a --start-at instant left it waiting for ever, deaf to further signals)
	 */
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	if (m->close)
		m->close(&s->w);
	return NULL;
}

static uint64_t run_sent(const struct run *run)
{
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i < run->cfg.streams; i++)
		sum += ctr_get(&run->slots[i].ctr.sent);
	return sum;
}

static bool run_done(const struct run *run)
{
	uint32_t i;

	for (i = 0; i < run->cfg.streams; i++)
		if (!__atomic_load_n(&run->slots[i].done, __ATOMIC_ACQUIRE))
			return false;
	return true;
}

/*
 * Builds worker i's pool: its share of the flows (at least its own source port, as with
 * go-pktgen's streams), tagged when asked and the method builds frames, in a shuffled order.
 */
static int run_pool(const struct pb_config *cfg, uint32_t i, bool tagged, bool seq,
		    struct pb_pool *pool)
{
	struct pb_frame_spec spec;
	struct pb_flows fl = {
		.n = cfg->flows > cfg->streams ? cfg->flows : cfg->streams,
		.stream = i,
		.streams = cfg->streams,
		.vary_addr = cfg->flows_src_ip,
		.seed = ((uint64_t)cfg->run_id << 32) ^ (0x9e3779b97f4a7c15ull * (i + 1)),
		/* --imix's cycle, the options' (the standard 7:4:1 or --imix-sizes) */
		.sizes = cfg->imix ? cfg->imix_cycle : NULL,
		.nsizes = cfg->imix ? cfg->imix_n : 0,
	};

	pb_frame_spec_from_config(cfg, tagged, &spec);
	/* a method that stamps each frame's number gets frames with room for it */
	if (seq)
		spec.kind = (uint8_t)(PB_SIG_KIND_SEQ | (spec.kind & PB_SIG_PACED));
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

/* A run id no earlier run of this process used, so a late frame can never be recounted. */
static uint32_t run_new_id(void)
{
	static uint32_t last;
	uint32_t id = 0;

	while (!id || id == last)
		if (getrandom(&id, sizeof(id), 0) != sizeof(id))
			id = (uint32_t)(pb_now() * 1e9) ^ ((uint32_t)getpid() << 16);
	last = id;
	return id;
}

double pb_count_timeout(const struct pb_config *cfg, double target_pps)
{
	/* a floor of 10 kpps: far below any path, far above a stalled one */
	double rate = target_pps > 0 && target_pps < 10000 ? target_pps : 10000;

	if (cfg->count_timeout_s > 0)
		return cfg->count_timeout_s;
	return 10.0 + 2.0 * (double)cfg->count / rate;
}

/* A rate in 3 significant figures with a prefix ("1.23 Mpps"): at most 9 columns. */
static void live_rate(char *buf, size_t len, double pps)
{
	static const char *const prefix[] = { "", "k", "M", "G" };
	unsigned int u = 0;

	while (pps >= 999.5 && u < 3) {
		pps /= 1000;
		u++;
	}
	snprintf(buf, len, "%.*f %spps",
		 u && pps < 9.995   ? 2
		 : u && pps < 99.95 ? 1
				    : 0,
		 pps, prefix[u]);
}

#define PB_LIVE_COLS 79 /* one short of 80, so no terminal wraps it */

/*
 * One live line, like PF_RING's "Actual Stats": the last second's sent and delivered rates,
 * in PB_LIVE_COLS (the label is cut to make room). On a terminal it is rewritten in place;
 * off one (CI, pipes) each second is its own line.
 */
static void live_line(const struct run *run, double t, double dt, uint64_t dsent,
		      const uint64_t *ddeliv, uint32_t frame_bytes, bool link_down, bool tty)
{
	double pps = dsent / dt;
	char rest[128], sent[16], rx[16], deliv[40] = "", when[24];
	const char *label = run->env->label;
	int room, len;

	live_rate(sent, sizeof(sent), pps);
	if (ddeliv) {
		live_rate(rx, sizeof(rx), *ddeliv / dt);
		snprintf(deliv, sizeof(deliv), " | delivered %9s", rx);
	}
	if (!run->cfg.count && run->cfg.duration_s > 0)
		snprintf(when, sizeof(when), "%5.1f/%g s", t, run->cfg.duration_s);
	else
		snprintf(when, sizeof(when), "%5.1f s", t);
	snprintf(rest, sizeof(rest), " [%s] sent %9s %6.3f Gb/s%s%s", when, sent,
		 pb_wire_gbps(pps, frame_bytes, false), deliv, link_down ? " | LINK DOWN" : "");
	room = PB_LIVE_COLS - (int)strlen(rest);
	len = (int)strlen(label);
	if (room < 8)
		room = 8;
	fprintf(stderr, "%s%.*s%s%s", tty ? "\r\033[K" : "", len > room ? room - 1 : len, label,
		len > room ? "~" : "", rest);
	if (!tty)
		fputc('\n', stderr);
}

/* Keeps the per-second view; a failed allocation only loses samples, never the run. */
static void run_keep_sample(struct pb_result *res, const struct pb_sample *smp)
{
	struct pb_sample *grown;

	if (!(res->nsamples & (res->nsamples - 1))) {
		grown = realloc(res->samples,
				sizeof(*grown) * (res->nsamples ? res->nsamples * 2 : 1));
		if (!grown)
			return;
		res->samples = grown;
	}
	res->samples[res->nsamples++] = *smp;
}

/*
 * Who answered for the receiver: the first answer sets it, a different one later means the
 * agent restarted inside the window and its counts began again. Called from the sampler's
 * thread only (and after the workers are joined).
 */
static void run_rx_instance(struct run *run, uint64_t instance)
{
	if (!run->rx_instance_set) {
		run->rx_instance = instance;
		run->rx_instance_set = true;
	} else if (instance != run->rx_instance) {
		run->rx_restarted = true;
	}
}

/*
 * A count of this run read from the receiver, and who answered (run_rx_instance): one that
 * went back, or a run no longer seen, at the same instance is a run pushed out of the
 * receiver's table and counted again from zero, not a restart. An instance of 0 (an agent
 * that predates it) cannot tell the two apart: a restart, as before.
 */
static void run_rx_count(struct run *run, const struct pb_rx_run *c)
{
	run_rx_instance(run, c->instance);
	if (run->rx_seen && (!c->seen || c->frames < run->rx_last)) {
		if (c->instance && c->instance == run->rx_instance)
			run->rx_evicted = true;
		else
			run->rx_restarted = true;
	}
	run->rx_evicted |= c->evicted;
	run->rx_unkept |= !c->kept;
	if (!run->rx_evictions_set)
		run->rx_evictions0 = c->runs_evicted;
	run->rx_evictions_set = true;
	run->rx_evictions1 = c->runs_evicted;
	run->rx_seen |= c->seen;
	run->rx_last = c->frames;
}

/*
 * Reads this run's count at the receiver; false (and no count) when it cannot say. The read
 * ends by the window's deadline (a receiver that stops answering must not carry the sampler,
 * which ends the window, past it): one that cannot is a sample without a count.
 */
static bool run_rx_read(struct run *run, struct pb_rx_run *c)
{
	const struct pb_rx_source *rx = run->env->path ? run->env->path->rx : NULL;
	double left = run->deadline - pb_clock_now(run->clk);
	int err;

	if (!rx)
		return false;
	if (rx->set_timeout) {
		if (left < 1e-3)
			return false;
		rx->set_timeout(rx->ctx, (unsigned int)fmin(left * 1e3, 60e3));
	}
	err = rx->read_run(rx->ctx, run->cfg.run_id, c);
	if (rx->set_timeout)
		rx->set_timeout(rx->ctx, 0);
	if (err)
		return false;
	run_rx_count(run, c);
	return true;
}

/* The carrier inside the window: how long it was down and how often it went down. */
struct run_link {
	bool watched;
	int up;
	double down_since;
};

static void run_link_update(const struct run *run, struct run_link *lk, int up, double t,
			    struct pb_result *res)
{
	if (up < 0 || up == lk->up)
		return;
	if (!up) {
		lk->down_since = t;
		res->link_downs++;
	} else {
		res->link_down_s += t - lk->down_since;
	}
	lk->up = up;
}

/* The stall detector's start: every worker watched from the clock's start, nothing sent. */
static void run_stall_start(const struct run *run, struct pb_stall *st)
{
	uint32_t i;

	for (i = 0; i < run->cfg.streams; i++)
		pb_stall_init(&st[i], run->t0);
}

/*
 * The stall detector's look at the workers at t: a worker is watched while the link is up
 * and it is still sending (a replay's schedule has pauses of its own: not watched). The
 * longest quiet stretch any had is kept.
 */
static void run_stall_look(struct run *run, struct pb_stall *st, double t, bool up)
{
	uint32_t i;

	for (i = 0; i < run->cfg.streams; i++) {
		const struct pb_slot *s = &run->slots[i];
		bool watch = up && !s->rs && !__atomic_load_n(&s->done, __ATOMIC_ACQUIRE);
		double quiet = pb_stall_look(&st[i], t, ctr_get(&s->ctr.sent), watch);

		if (quiet > run->stall_s) {
			run->stall_s = quiet;
			run->stall_from = st[i].from - run->t0;
			run->stall_worker = i;
		}
	}
}

/*
 * A worker that sent nothing for a long stretch with its link up (a method that never came
 * back from a flap, a path that stopped taking frames): the row's rate is not the method's,
 * so it is an error naming the stall, with the partial figures. A slow pace is no stall:
 * pb_stall_after() gives such a worker the time of a few of its frames.
 */
static void run_stalled(const struct run *run, struct pb_result *res)
{
	if (res->status != PB_STATUS_OK ||
	    run->stall_s < pb_stall_after(run->target_pps / run->cfg.streams))
		return;
	res->status = PB_STATUS_ERROR;
	snprintf(res->reason, sizeof(res->reason),
		 "the sender stalled: stream %u sent nothing for %.1f s with the link up, from "
		 "%.1f s into the window",
		 run->stall_worker, run->stall_s, run->stall_from);
}

/*
 * The CPU each worker is on, looked at once a second (field 39 of its /proc stat): a sender's
 * rate here depends on which CPU it runs on (issue 30: gso 1.12 or 1.67 Mpps from round to
 * round), so the row says where it ran and how often it moved.
 */
static void run_cpu_look(struct run *run)
{
	char path[64], buf[1024], *p;
	uint32_t i, k;
	int cpu;

	for (i = 0; i < run->cfg.streams; i++) {
		struct pb_slot *s = &run->slots[i];
		FILE *f;

		if (!s->tid || __atomic_load_n(&s->done, __ATOMIC_ACQUIRE))
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)s->tid);
		f = fopen(path, "r");
		if (!f)
			continue;
		p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		/* after the name: state is field 3, the processor field 39 */
		for (k = 3; p && k <= 39; k++)
			p = strchr(p + 1, ' ');
		if (!p || sscanf(p, "%d", &cpu) != 1 || cpu < 0 || cpu >= PB_CPU_LOOK_MAX)
			continue;
		s->cpu_samples[cpu]++;
		s->cpu_moves += s->cpu_last && s->cpu_last != cpu + 1;
		s->cpu_last = cpu + 1;
	}
}

/*
 * --latency with a receiver: the probes' latency over the second just sampled, from the
 * difference of the receiver's histogram now (cur) and a second ago (prev, then cur's).
 */
struct run_lat_window {
	uint64_t *prev, *cur, *diff;
};

static void run_sample_latency(struct run *run, struct run_lat_window *w, struct pb_sample *smp)
{
	const struct pb_rx_source *rx = run->env->path ? run->env->path->rx : NULL;
	uint64_t n = 0, *t;
	uint32_t i;

	if (!w->prev || !rx || rx->read_hist(rx->ctx, run->cfg.run_id, PB_RX_HIST_LAT, w->cur))
		return;
	for (i = 0; i < PB_RX_HIST_BUCKETS; i++) {
		w->diff[i] = w->cur[i] >= w->prev[i] ? w->cur[i] - w->prev[i] : 0;
		n += w->diff[i];
	}
	t = w->prev;
	w->prev = w->cur;
	w->cur = t;
	smp->lat_known = true;
	smp->lat_n = n;
	if (n) {
		smp->lat_p50_us = pb_hist_quantile(w->diff, n, 0.50, 0, UINT64_MAX) / 1e3;
		smp->lat_p99_us = pb_hist_quantile(w->diff, n, 0.99, 0, UINT64_MAX) / 1e3;
	}
}

/*
 * Waits (in PB_SAMPLE_MS steps, on link events when it can) until the deadline, the quota,
 * the count timeout or a stop; one live line and one sample a second.
 */
static void run_sample(struct run *run, struct pb_result *res)
{
	const struct pb_config *cfg = &run->cfg;
	const struct pb_path *path = run->env->path;
	double t0 = run->t0, t, deadline = run->deadline;
	double next = t0 + 1;
	uint64_t last_rx = 0;
	struct pb_sample prev = { 0 }; /* the second before: its time, what was sent by then */
	bool tty = isatty(STDERR_FILENO), drawn = false;
	struct run_link lk = { .up = 1 };
	struct pb_stall st[PB_MAX_STREAMS];
	struct run_lat_window lw = { 0 };

	/* the stream (--stream) shows each second's latency: three 28 KB histograms */
	if (cfg->latency && res->has_receiver && run->env->on_sample && path && path->rx &&
	    path->rx->read_hist) {
		lw.prev = calloc(PB_RX_HIST_BUCKETS, sizeof(uint64_t));
		lw.cur = calloc(PB_RX_HIST_BUCKETS, sizeof(uint64_t));
		lw.diff = calloc(PB_RX_HIST_BUCKETS, sizeof(uint64_t));
		if (!lw.prev || !lw.cur || !lw.diff) {
			free(lw.prev);
			lw.prev = NULL;
		}
	}
	lk.watched = path && path->watch_start && !path->watch_start(path->ctx);
	run_stall_start(run, st);
	for (;;) {
		t = pb_clock_now(run->clk);
		/* workers that read the clock end at the deadline on their own, done or not */
		if (t >= deadline) {
			res->timed_out = cfg->count > 0 && run_sent(run) < cfg->count;
			__atomic_store_n(&run->expired, 1, __ATOMIC_RELAXED);
			break;
		}
		if (run_stopped(run) || run_done(run)) {
			__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
			break;
		}
		if (t >= next) {
			struct pb_sample smp = { .t = t - t0, .sent = run_sent(run) };
			struct pb_rx_run c;
			uint64_t d;

			smp.delivered_known = res->has_receiver && run_rx_read(run, &c);
			if (smp.delivered_known) {
				smp.delivered = c.frames;
				run_sample_latency(run, &lw, &smp);
			}
			run_cpu_look(run);
			/* a count that went back: run_rx_count() said whose doing it was */
			d = smp.delivered_known ? pb_ctr_delta(last_rx, smp.delivered, NULL) : 0;
			smp.sent = prev.sent + pb_ctr_delta(prev.sent, smp.sent, NULL);
			if (!cfg->quiet) {
				live_line(run, smp.t, smp.t - prev.t, smp.sent - prev.sent,
					  smp.delivered_known ? &d : NULL, res->frame_bytes, !lk.up,
					  tty);
				drawn = true;
			}
			run_keep_sample(res, &smp);
			if (run->env->on_sample)
				run->env->on_sample(run->env->sample_ctx, cfg->run_id, &prev, &smp,
						    lk.up);
			if (smp.delivered_known)
				last_rx = smp.delivered;
			prev = smp;
			next += 1;
		}
		run_stall_look(run, st, t, !lk.watched || lk.up);
		if (lk.watched) {
			int ms = deadline - t < PB_SAMPLE_MS / 1e3 ? (int)((deadline - t) * 1e3) + 1
								   : PB_SAMPLE_MS;

			run_link_update(run, &lk, path->link_state(path->ctx, ms),
					pb_clock_now(run->clk), res);
			continue;
		}
		pb_clock_nap_until(run->clk, fmin(t + PB_SAMPLE_MS / 1e3, deadline));
	}
	if (lk.watched) {
		/* the drain is inside the window too: keep watching until it ends */
		while (!run_done(run))
			run_link_update(run, &lk, path->link_state(path->ctx, PB_SAMPLE_MS),
					pb_clock_now(run->clk), res);
		if (!lk.up)
			res->link_down_s += pb_clock_now(run->clk) - lk.down_since;
		path->watch_stop(path->ctx);
	}
	/*
	 * the window's last stretch, up to its end, so the line left above the table says the
	 * run's whole time (a 5 s run's last line said 4.0/5 s); delivered is read after the drain
	 */
	t = pb_clock_now(run->clk) - t0;
	if (drawn && t - prev.t > 0.1)
		live_line(run, t, t - prev.t, pb_ctr_delta(prev.sent, run_sent(run), NULL), NULL,
			  res->frame_bytes, !lk.up, tty);
	if (drawn && tty)
		fputc('\n', stderr);
	free(lw.prev);
	free(lw.cur);
	free(lw.diff);
}

/*
 * Frames keep arriving at the receiver a little after the sender stops: read until settle.h
 * says the count has all it will get (or gave up on a count still rising: *v says which). 0
 * with c filled, or the read's -errno.
 */
static int run_settle(struct run *run, uint64_t sent, struct pb_rx_run *c,
		      enum pb_settle_verdict *v)
{
	const struct pb_rx_source *rx = run->env->path->rx;
	const struct timespec step = { 0, (long)(PB_SETTLE_S * 1e9) };
	struct pb_settle st;
	int err;

	pb_settle_start(&st, pb_now());
	for (;;) {
		err = rx->read_run(rx->ctx, run->cfg.run_id, c);
		if (err)
			return err;
		run_rx_count(run, c);
		*v = pb_settle_next(&st, pb_now(), c->frames, sent);
		if (*v != PB_SETTLE_WAIT)
			return 0;
		nanosleep(&step, NULL);
	}
}

static void res_error(struct pb_result *res, const char *what, int err)
{
	res->status = PB_STATUS_ERROR;
	snprintf(res->reason, sizeof(res->reason), "%s: %s", what, strerror(-err));
}

/* The pool's frame size as the method hands it over, and what the wire makes of it. */
static void run_frame_sizes(const struct pb_method *m, const struct pb_config *cfg,
			    const struct pb_pool *pool, struct pb_result *res)
{
	uint32_t i, n = 0;

	/* frame methods hand the kernel padded frames, socket methods a payload it wraps */
	res->vlan = cfg->vlan && (m->flags & PB_M_FRAME);
	for (i = 0; i < pool->n; i++) {
		const struct pb_frame *f = &pool->frames[i];
		uint32_t bytes = (m->flags & PB_M_FRAME) ? f->len : f->unpadded;

		if (!f->len)
			continue; /* a streamed replay's window place not written yet */
		n++;
		res->frame_avg += bytes;
		res->wire_avg += pb_wire_bytes(bytes, res->vlan);
		res->padded |= (m->flags & PB_M_FRAME) && f->len > f->unpadded;
	}
	res->frame_avg /= n ? n : 1;
	res->wire_avg /= n ? n : 1;
	res->frame_bytes = (uint32_t)(res->frame_avg + 0.5);
	res->imix = cfg->imix;
}

/* Raw deltas of the path's counters over the window; the netting is stats.c's. */
struct run_counters {
	struct pb_tx_stats tx0, tx1;
	struct pb_rx_ifstats rx0, rx1;
	struct pb_dut_stats dut0, dut1;
	bool tx_ok, rx_ok, dut_ok;
};

static void run_counters_start(const struct pb_path *path, struct run_counters *k)
{
	memset(k, 0, sizeof(*k));
	if (!path)
		return;
	k->tx_ok = path->tx_stats && !path->tx_stats(path->ctx, &k->tx0);
	k->rx_ok = path->rx && path->rx->read_ifstats &&
		   !path->rx->read_ifstats(path->rx->ctx, &k->rx0);
	k->dut_ok = path->dut_stats && !path->dut_stats(path->dut_ctx, &k->dut0);
}

/*
 * The sending side's counters once frames queued below the socket (a qdisc's backlog) have
 * left or been dropped: read until they stop moving, at most PB_SETTLE_MAX_S.
 */
static bool run_tx_settle(const struct pb_path *path, struct pb_tx_stats *out)
{
	const struct timespec step = { 0, (long)(PB_SETTLE_S * 1e9) };
	double until = pb_now() + PB_SETTLE_MAX_S;
	struct pb_tx_stats prev;

	if (path->tx_stats(path->ctx, out))
		return false;
	do {
		prev = *out;
		nanosleep(&step, NULL);
		if (path->tx_stats(path->ctx, out))
			return false;
	} while (memcmp(&prev, out, sizeof(prev)) && pb_now() < until);
	return true;
}

static void run_counters_end(struct run *run, const struct pb_path *path, struct run_counters *k,
			     struct pb_result *res)
{
	struct pb_raw_counts *c = &res->raw;
	bool tx_back = false, dut_back = false;

	if (!path)
		return;
	k->tx_ok = k->tx_ok && run_tx_settle(path, &k->tx1);
	k->rx_ok = k->rx_ok && !path->rx->read_ifstats(path->rx->ctx, &k->rx1);
	k->dut_ok = k->dut_ok && !path->dut_stats(path->dut_ctx, &k->dut1);
	if (k->tx_ok) {
		c->have_tx = true;
		c->tx_packets = pb_ctr_delta(k->tx0.tx_packets, k->tx1.tx_packets, &tx_back);
		c->tx_dropped = pb_ctr_delta(k->tx0.tx_dropped, k->tx1.tx_dropped, &tx_back);
		c->qdisc_drops = pb_ctr_delta(k->tx0.qdisc_drops, k->tx1.qdisc_drops, &tx_back);
		c->xdp_xmit_errors =
			pb_ctr_delta(k->tx0.xdp_xmit_errors, k->tx1.xdp_xmit_errors, &tx_back);
	}
	if (k->rx_ok) {
		bool *back = &run->rx_restarted;

		run_rx_instance(run, k->rx1.instance);
		c->have_rx = true;
		c->rx_packets = pb_ctr_delta(k->rx0.rx_packets, k->rx1.rx_packets, back);
		c->rx_dropped = pb_ctr_delta(k->rx0.rx_dropped, k->rx1.rx_dropped, back);
		c->rx_missed_errors =
			pb_ctr_delta(k->rx0.rx_missed_errors, k->rx1.rx_missed_errors, back);
		c->rx_fifo_errors =
			pb_ctr_delta(k->rx0.rx_fifo_errors, k->rx1.rx_fifo_errors, back);
		c->rx_driver_drops = pb_ctr_delta(k->rx0.driver_drops, k->rx1.driver_drops, back);
		/* not this run's: other traffic (ARP, ping, other senders) the receiver passed on
		 */
		res->frames_foreign =
			pb_ctr_delta(k->rx0.foreign_frames, k->rx1.foreign_frames, back);
	}
	if (k->dut_ok) {
		c->have_dut = true;
		c->dut_rx_dropped = pb_ctr_delta(k->dut0.rx_dropped, k->dut1.rx_dropped, &dut_back);
		c->dut_tx_dropped = pb_ctr_delta(k->dut0.tx_dropped, k->dut1.tx_dropped, &dut_back);
		c->dut_qdisc_drops =
			pb_ctr_delta(k->dut0.qdisc_drops, k->dut1.qdisc_drops, &dut_back);
	}
	res->shared_iface = path->shared;
	res->veth_pair = path->veth_pair;
	res->dut_veth = path->dut_veth;
	/* a counter that went back was reset under us: the deltas are not this window's */
	if ((tx_back || dut_back) && res->status == PB_STATUS_OK) {
		res->status = PB_STATUS_ERROR;
		snprintf(res->reason, sizeof(res->reason),
			 "the %s's counters went back during the run (reset or recreated): its "
			 "drops are unknown",
			 tx_back ? "sending interface" : "device under test");
	}
}

/*
 * A run whose counts the receiver's runs table pushed out (a flood of run ids), or may have
 * (it could not keep the run, and pushed runs out meanwhile, and the count is short): the
 * row is an error and delivered is unknown, not a count. A restart says more: it goes first.
 */
static void run_rx_evicted(struct run *run, struct pb_result *res)
{
	const char *what = res->has_receiver ? run->env->path->rx->what : "";
	uint64_t n = run->rx_evictions1 - run->rx_evictions0;
	bool maybe = run->rx_unkept && n && res->delivered_known &&
		     res->frames_delivered < res->frames_sent;

	if (run->rx_restarted || !res->has_receiver || !(run->rx_evicted || maybe))
		return;
	res->rx_evicted = true;
	res->delivered_known = false;
	res->frames_delivered = 0;
	res->status = PB_STATUS_ERROR;
	if (run->rx_evicted) {
		snprintf(res->rx_error, sizeof(res->rx_error), "%s: run evicted from its table",
			 what);
		snprintf(res->reason, sizeof(res->reason),
			 "receiver_evicted: the receiver's runs table pushed this run out, counts "
			 "and all: delivered is unknown (%s)",
			 what);
		return;
	}
	snprintf(res->rx_error, sizeof(res->rx_error), "%s: run not kept, %" PRIu64 " evicted",
		 what, n);
	snprintf(res->reason, sizeof(res->reason),
		 "receiver_evicted: not kept (kept table full) while its runs table pushed %" PRIu64
		 " runs out: delivered is unknown (%s)",
		 n, what);
}

/*
 * A receiver that restarted inside the window counted only part of the run: the row is an
 * error and what it delivered is unknown, not a number.
 */
static void run_rx_restarted(struct run *run, struct pb_result *res)
{
	if (!run->rx_restarted || !res->has_receiver)
		return;
	res->rx_restarted = true;
	res->delivered_known = false;
	res->frames_delivered = 0;
	res->frames_foreign = 0;
	res->raw.have_rx = false;
	snprintf(res->rx_error, sizeof(res->rx_error), "%s restarted during the run",
		 run->env->path->rx->what);
	res->status = PB_STATUS_ERROR;
	snprintf(res->reason, sizeof(res->reason),
		 "the receiver restarted during the run (%s): its counts began again, so "
		 "delivered is unknown",
		 run->env->path->rx->what);
}

/*
 * The probes' and the paced gaps' figures: the receiver's counts (c, with its histograms, or
 * NULL without a receiver) and the probes each stream handed over.
 */
static void run_latency(const struct run *run, const struct pb_rx_run *c, struct pb_result *res)
{
	const struct pb_config *cfg = &run->cfg;
	const struct pb_rx_source *rx = run->env->path ? run->env->path->rx : NULL;
	uint64_t sent[PB_MAX_STREAMS], dropped[PB_MAX_STREAMS], *hist[2] = { NULL, NULL };
	struct pb_lat_input in = {
		.streams = cfg->streams,
		.probes_sent = sent,
		.probes_dropped = dropped,
		.tai = cfg->synced_clocks,
		.same_clock = rx && rx->same_clock,
		.gap_target_s = run->target_pps ? cfg->streams / run->target_pps : 0,
	};
	uint32_t i;
	int err = 0;

	for (i = 0; i < cfg->streams; i++) {
		sent[i] = run->slots[i].w.probe.sent;
		dropped[i] = run->slots[i].w.probe.dropped;
	}
	res->latency.on = cfg->latency && !(run->m->flags & PB_M_NO_WIRE);
	/* a timed replay's frames are timed too: their gaps are the file's (replay.h) */
	res->gaps.on = (run->target_pps > 0 || res->replay.timed) && res->has_receiver;
	/* the histograms, once the counts have settled: 28 KB each, read only when needed */
	for (i = 0; c && rx && rx->read_hist && i < 2; i++) {
		if (!(i ? res->gaps.on : res->latency.on))
			continue;
		hist[i] = calloc(PB_RX_HIST_BUCKETS, sizeof(*hist[i]));
		if (hist[i] && rx->read_hist(rx->ctx, cfg->run_id,
					     i ? PB_RX_HIST_GAP : PB_RX_HIST_LAT, hist[i])) {
			free(hist[i]);
			hist[i] = NULL;
		}
	}
	in.lat_hist = hist[0];
	in.gap_hist = hist[1];
	if (res->latency.on) {
		err = pb_latency_compute(&res->latency, c, &in);
		res->latency.includes_retries = run->m->flags & PB_M_REPOST;
	}
	if (!err && res->gaps.on)
		err = pb_gaps_compute(&res->gaps, c, &in);
	if (err)
		pr_warn("%s: no room for the latency figures: %s\n", run->m->name, strerror(-err));
	free(hist[0]);
	free(hist[1]);
}

/* The receiver's count of this run, once it has settled, into res and c; false if unknown. */
static bool run_delivered(struct run *run, struct pb_result *res, struct pb_rx_run *c)
{
	enum pb_settle_verdict v;
	uint32_t i;
	int err;

	err = run_settle(run, res->frames_sent, c, &v);
	if (err) {
		/* unknown, not zero: the row says why and is not a result */
		const struct pb_rx_source *rx = run->env->path->rx;
		char why[sizeof(res->rx_error)] = "";

		if (rx->last_error)
			rx->last_error(rx->ctx, why, sizeof(why));
		snprintf(res->rx_error, sizeof(res->rx_error), "%s: %s", rx->what,
			 why[0] ? why : strerror(-err));
		res->status = PB_STATUS_ERROR;
		snprintf(res->reason, sizeof(res->reason), "delivered unknown: %s", res->rx_error);
		return false;
	}
	if (v == PB_SETTLE_RISING) {
		/* a lower bound is no count: the rest may still come, or a stuck receiver lie */
		const struct pb_rx_source *rx = run->env->path->rx;

		snprintf(res->rx_error, sizeof(res->rx_error),
			 "%s: count still rising %.0f s after the window (%" PRIu64 " of %" PRIu64
			 " sent)",
			 rx->what, PB_SETTLE_RISING_MAX_S, c->frames, res->frames_sent);
		res->status = PB_STATUS_ERROR;
		snprintf(res->reason, sizeof(res->reason), "delivered unknown: %s", res->rx_error);
		return false;
	}
	res->delivered_known = true;
	res->frames_delivered = c->frames;
	res->bytes_delivered = c->bytes;
	res->frames_duplicate = c->dup;
	res->frames_reordered = c->late;
	res->frames_out_of_window = c->stray;
	res->frames_unchecked = c->unchecked;
	res->frames_corrupt = c->corrupt;
	res->frames_not_for_host = c->not_host;
	res->flows_seen = c->flows_seen;
	res->nrx_vlans = c->nvlans < 4 ? c->nvlans : 4;
	memcpy(res->rx_vlans, c->vlans, sizeof(res->rx_vlans[0]) * res->nrx_vlans);
	res->rx_queues = c->nqueues < PB_RESULT_QUEUES ? c->nqueues : PB_RESULT_QUEUES;
	for (i = 0; i < res->rx_queues; i++)
		res->rx_queue_frames[i] = c->queue_frames[i];
	return true;
}

/* Starts the workers and waits until each has opened (or failed to). */
static void run_open(struct run *run, struct pb_result *res)
{
	const struct pb_config *cfg = &run->cfg;
	uint32_t i, started = 0;
	int err;

	for (i = 0; i < cfg->streams; i++) {
		err = pthread_create(&run->slots[i].thread, NULL, worker_main, &run->slots[i]);
		if (err) {
			pr_err("%s: cannot start worker %u: %s\n", run->m->name, i, strerror(err));
			res_error(res, "starting workers", -err);
			run->abort = 1;
			break;
		}
		started++;
	}
	pthread_mutex_lock(&run->mu);
	while (run->arrived < started)
		pthread_cond_wait(&run->cv, &run->mu);
	pthread_mutex_unlock(&run->mu);
	for (i = 0; i < started && !run->abort; i++) {
		if (run->slots[i].open_err) {
			res_error(res, "open", run->slots[i].open_err);
			run->abort = 1;
		}
	}
	snprintf(res->mode, sizeof(res->mode), "%s", run->slots[0].w.mode);
}

void pb_link_reason(char *buf, size_t len, const char *ifname, bool admin_down, double waited)
{
	if (admin_down)
		snprintf(buf, len,
			 "%s is administratively down: bring it up with `ip link set %s up`",
			 ifname, ifname);
	else
		snprintf(buf, len,
			 "the link of %s was not up after %.1f s (--link-timeout): no carrier; "
			 "check its peer or cable, and `ip link set %s up`",
			 ifname, waited, ifname);
}

/* The clock starts only once the carrier is up: an XDP attach may bounce the link. */
static void run_wait_link(struct run *run, struct pb_result *res)
{
	const struct pb_path *path = run->env->path;
	struct pb_carrier c;
	double waited = 0;
	int err;

	if (run->abort || !path || !path->carrier)
		return;
	c = (struct pb_carrier){ .up = path->carrier,
				 .nap = path->carrier_nap,
				 .end = path->carrier_end,
				 .ctx = path->ctx };
	err = pb_link_wait(&c, run->clk, run->cfg.link_timeout_s, &waited, run->env->stop);
	res->link_wait_s = waited;
	if (err == -ETIMEDOUT) {
		res->status = PB_STATUS_ERROR;
		res->link_failed = true;
		pb_link_reason(res->reason, sizeof(res->reason), run->cfg.ifname, false, waited);
		run->abort = 1;
	} else if (err == -EINTR) {
		run->abort = 1; /* stopped: run_stopped_early says so */
	} else if (err) {
		res_error(res, "waiting for the link", err);
		run->abort = 1;
	} else if (waited >= 0.1 && !run->cfg.quiet) {
		fprintf(stderr, "%s: link of %s up after %.2f s; the clock starts now\n",
			run->env->label, run->cfg.ifname, waited);
	}
}

/*
 * A stop that came before the window opened (waiting for the link, or for --start-at): the
 * row is the interrupted run with nothing sent, not an error of its own.
 */
static void run_stopped_early(const struct pb_env *env, struct pb_result *res)
{
	if (!__atomic_load_n(env->stop, __ATOMIC_RELAXED) || res->status != PB_STATUS_OK)
		return;
	res->interrupted = true;
	res->status = PB_STATUS_ERROR;
	snprintf(res->reason, sizeof(res->reason),
		 "interrupted before the window opened: nothing sent");
}

/* What the workers reported, summed, and why the row is not a clean result, if it is not. */
static void run_collect(struct run *run, struct pb_result *res)
{
	const struct pb_config *cfg = &run->cfg;
	uint64_t hist[PB_PACE_HIST + 1] = { 0 }, departed = 0, most;
	double t1 = run->t0;
	uint32_t i, j;

	for (i = 0; i < cfg->streams; i++) {
		const struct pb_slot *s = &run->slots[i];

		t1 = s->end > t1 ? s->end : t1;
		res->frames_sent += s->ctr.sent;
		res->frames_retried += s->ctr.retried;
		res->frames_undrained += s->ctr.inflight;
		res->send_errors += s->ctr.transient;
		res->send_eagain += s->ctr.eagain;
		res->send_blocked_s += s->ctr.blocked_s / cfg->streams; /* the workers' mean */
		res->paced_behind += s->behind;
		/* where the stream ran: the CPU it was found on most */
		for (j = 0, most = 0; j < PB_CPU_LOOK_MAX; j++) {
			if (s->cpu_samples[j] > most) {
				most = s->cpu_samples[j];
				res->sender_cpu[i] = (uint16_t)(j + 1);
			}
		}
		res->sender_cpu_moves += s->cpu_moves;
		for (j = 0; j <= PB_PACE_HIST; j++)
			hist[j] += s->pacer.hist[j];
		departed += s->pacer.departed;
		res->pace_max_us = fmax(res->pace_max_us, s->pacer.err_max);
		res->send_call_s += s->ctr.send_s / cfg->streams;
		res->syscalls += s->ctr.calls;
		res->cpu_s += s->cpu_s;
		if (s->send_err && res->status == PB_STATUS_OK)
			res_error(res, "send", s->send_err);
	}
	if (run->target_pps && departed) {
		res->pacing = run->sleeps ? "sleep" : "spin";
		res->pace_p50_us =
			pb_us_quantile(hist, PB_PACE_HIST, departed, 0.50, res->pace_max_us);
		res->pace_p99_us =
			pb_us_quantile(hist, PB_PACE_HIST, departed, 0.99, res->pace_max_us);
	}
	res->duration_s = t1 - run->t0;
	res->measured = true;
	res->interrupted = __atomic_load_n(run->env->stop, __ATOMIC_RELAXED);
	if (res->timed_out && res->status == PB_STATUS_OK) {
		res->status = PB_STATUS_ERROR;
		snprintf(res->reason, sizeof(res->reason),
			 "--count %" PRIu64 ": only %" PRIu64 " frames sent in %.1f s "
			 "(--count-timeout; the path stalled or is slower than that)",
			 cfg->count, res->frames_sent, res->duration_s);
	}
}

/* Fills res with what m is, before it runs; non-zero when the row is already final. */
static int run_prepare(const struct pb_method *m, const struct pb_config *cfg,
		       const struct pb_env *env, struct pb_result *res)
{
	memset(res, 0, sizeof(*res));
	snprintf(res->method, sizeof(res->method), "%s", m->name);
	snprintf(res->mode, sizeof(res->mode), "-");
	res->streams = cfg->streams;
	snprintf(res->test_id, sizeof(res->test_id), "%s", cfg->test_id);
	if (cfg->shard_count)
		snprintf(res->shard, sizeof(res->shard), "%u/%u", cfg->shard_index,
			 cfg->shard_count);
	if (gethostname(res->node, sizeof(res->node)))
		res->node[0] = '\0';
	res->node[sizeof(res->node) - 1] = '\0';
	res->has_receiver = env->path && env->path->rx && !(m->flags & PB_M_NO_WIRE);
	/*
	 * --srcmac on a frame method's replay takes the place of the run's MAC, the only mark
	 * the receiver counts those frames by (pb_bpf.h): it cannot count them
	 */
	if (res->has_receiver && cfg->replay[0] && cfg->srcmac_set && (m->flags & PB_M_FRAME)) {
		res->has_receiver = false;
		pr_warn("%s: --srcmac: the replayed frames carry it, not the run's MAC the "
			"receiver counts them by: delivered is not counted\n",
			m->name);
	}
	/* a shard or a start instant run without its fleet would send the wrong share, early */
	if (pb_fleet_named(cfg) && !env->fleet) {
		res->status = PB_STATUS_ERROR;
		snprintf(res->reason, sizeof(res->reason),
			 "a shard, --start-at or --test-id, but this session has no fleet");
		return 1;
	}
	if (!pb_run_check(m, cfg, res->reason, sizeof(res->reason)))
		return 0;
	res->status = PB_STATUS_SKIPPED;
	return 1;
}

int pb_run_check(const struct pb_method *m, const struct pb_config *cfg, char *why, size_t len)
{
	const char *no = run_unsupported(m, cfg);
	int err;

	why[0] = '\0';
	if (no) {
		snprintf(why, len, "%s", no);
		return 1;
	}
	err = m->probe ? m->probe(cfg, why, len) : 0;
	if (!err)
		return 0;
	if (!why[0])
		snprintf(why, len, "%s", strerror(-err));
	return 1;
}

int pb_run_method(const struct pb_method *m, unsigned int batch, const struct pb_config *cfg,
		  const struct pb_env *env, struct pb_result *res)
{
	const struct pb_path *path = env->path;
	struct run_counters k;
	struct pb_rx_run c;
	struct run *run;
	uint32_t i;
	int err = 0;

	if (run_prepare(m, cfg, env, res))
		return __atomic_load_n(env->stop, __ATOMIC_RELAXED) ? -EINTR : 0;
	/* large (the configuration), and the slots want their cache lines: off the stack */
	run = calloc(1, sizeof(*run));
	if (!run)
		return -ENOMEM;
	run->m = m;
	run->cfg = *cfg;
	run->cfg.run_id = run_new_id();
	if (env->fleet)
		env->fleet->shard_apply(&run->cfg);
	run->env = env;
	run->clk = env->clock ? env->clock : &pb_clock_mono;
	if (!batch)
		batch = cfg->batch ? cfg->batch : m->default_batch;
	res->run_id = run->cfg.run_id;
	cfg = &run->cfg;
	run->slots = aligned_alloc(64, sizeof(*run->slots) * cfg->streams);
	if (!run->slots) {
		free(run);
		return -ENOMEM;
	}
	memset(run->slots, 0, sizeof(*run->slots) * cfg->streams);
	pthread_mutex_init(&run->mu, NULL);
	pthread_cond_init(&run->cv, NULL);
	if (cfg->replay[0]) {
		run->rp = env->replay;
		err = run->rp ? run->rp->open(&run->replay, m, cfg, res->reason,
					      sizeof(res->reason))
			      : -EOPNOTSUPP;
		if (!run->rp)
			snprintf(res->reason, sizeof(res->reason),
				 "--replay: no replay in this session");
		if (err) {
			res->status = err == -EOPNOTSUPP ? PB_STATUS_SKIPPED : PB_STATUS_ERROR;
			err = 0;
			goto out_free;
		}
		run->rp->apply(run->replay, &run->cfg);
	}

	for (i = 0; i < cfg->streams; i++) {
		struct pb_slot *s = &run->slots[i];

		s->run = run;
		s->w.cfg = cfg;
		s->w.id = i;
		s->w.batch = batch;
		snprintf(s->w.mode, sizeof(s->w.mode), "-");
		/* the first count % streams workers send one more; a share may be 0 */
		s->quota = cfg->count ? cfg->count / cfg->streams + (i < cfg->count % cfg->streams)
				      : UINT64_MAX;
		if (run->replay) {
			run->rp->take_pool(run->replay, i, &s->pool);
			s->rs = run->rp->stream(run->replay, i);
			run->rp->attach(s->rs, &s->w.taken);
			s->quota = run->rp->quota(run->replay, i);
		} else {
			err = run_pool(cfg, i, cfg->vlan && (m->flags & PB_M_FRAME),
				       m->flags & PB_M_SEQ, &s->pool);
		}
		if (!err)
			err = pb_probe_init(&s->w.probe, cfg,
					    cfg->latency && !(m->flags & PB_M_NO_WIRE),
					    pb_config_paced(cfg), s->pool.max_len);
		if (err) {
			res_error(res, "building the frames", err);
			err = 0;
			goto out_free;
		}
		s->w.pool = &s->pool;
		s->w.frame = &s->pool.frames[0];
	}
	run_frame_sizes(m, cfg, &run->slots[0].pool, res);
	/* --rate is wire bandwidth: the frame's L1 size turns it into packets/s */
	run->target_pps = cfg->pps	   ? cfg->pps
			  : cfg->rate_gbps ? cfg->rate_gbps * 1e9 / (8.0 * res->wire_avg)
					   : 0;
	res->target_pps = run->target_pps;
	/*
	 * a stream's first frame is due 1 / its share of the rate after the start: a share below
	 * 1 / the window sends none. options.c refuses what it can tell; --rate's frames are
	 * known only here. An error, never an ok row with nothing sent.
	 */
	if (run->target_pps > 0 && !cfg->count && !cfg->replay[0] && cfg->duration_s > 0 &&
	    run->target_pps / cfg->streams * cfg->duration_s + 1e-6 < 1) {
		res->status = PB_STATUS_ERROR;
		snprintf(res->reason, sizeof(res->reason),
			 "%g packets/s over %u stream%s sends no frame in the %g s window: a "
			 "stream's first is due %g s after its start",
			 run->target_pps, cfg->streams, cfg->streams > 1 ? "s" : "",
			 cfg->duration_s, cfg->streams / run->target_pps);
		goto out_free;
	}
	/*
	 * --pace auto sleeps a --pps or --rate schedule, whose gaps are its own rule, and spins a
	 * --replay's, whose gaps are the capture's content
	 */
	run->sleeps = cfg->pace == PB_PACE_SLEEP || (cfg->pace == PB_PACE_AUTO && !cfg->replay[0]);

	run_open(run, res);
	run_wait_link(run, res);
	/*
	 * a named test's run tells the receiver whose it is, before its counters start; a
	 * replay announces itself only to a receiver that counts it by the run's MAC: with none
	 * named, the wire carries the file's frames alone (issue 46)
	 */
	if (!run->abort && !(m->flags & PB_M_NO_WIRE) &&
	    (cfg->test_id[0] || cfg->shard_count || res->has_receiver)) {
		int aerr = env->fleet ? env->fleet->announce(cfg, cfg->vlan && (m->flags & PB_M_FRAME))
				      : 0;

		if (aerr)
			pr_warn("%s: cannot announce the run to the receiver: %s\n", m->name,
				strerror(-aerr));
	}
	/*
	 * The counters' start is read before a --start-at wait, not after it: an agent's are an
	 * HTTP round trip or two, which after the instant delayed the first frame by 0.4-2 ms.
	 * Nothing of this run is sent in between.
	 */
	if (!run->abort) {
		run_counters_start(path, &k);
		if (k.rx_ok)
			run_rx_instance(run, k.rx0.instance);
		/*
		 * the run read once before its window: the receiver keeps a run someone reads,
		 * so a flood of other run ids cannot push its counts out (pb_rx_keep)
		 */
		if (k.rx_ok && !path->rx->read_run(path->rx->ctx, cfg->run_id, &c))
			run_rx_count(run, &c);
	}
	/* a capture streamed from disk: its reader runs beside the senders */
	if (!run->abort && run->replay && run->rp->start(run->replay)) {
		res_error(res, "starting the capture's reader", -EAGAIN);
		run->abort = 1;
	}
	/*
	 * --start-at: the window opens at the instant, on the run's clock, and the workers are let
	 * go before it to wait for it themselves (worker_start_at): woken by this thread after its
	 * own wait, they sent their first frames 0.4-0.7 ms after the instant.
	 */
	run->start_at = !run->abort && cfg->start_at_ns && cfg->start_at_ns > pb_wall_ns();
	run->t0 = pb_clock_now(run->clk);
	if (run->start_at)
		run->t0 += (double)(cfg->start_at_ns - pb_wall_ns()) / 1e9;
	run->deadline =
		run->t0 + (cfg->count ? pb_count_timeout(cfg, run->target_pps) : cfg->duration_s);
	pthread_mutex_lock(&run->mu);
	run->go = 1;
	pthread_cond_broadcast(&run->cv);
	pthread_mutex_unlock(&run->mu);
	if (run->start_at)
		res->start_planned_ns = cfg->start_at_ns;
	if (!run->abort)
		run_sample(run, res);
	for (i = 0; i < run->arrived; i++)
		pthread_join(run->slots[i].thread, NULL);
	/* worker 0's wake: how the machine kept the instant (start_skew_us, start_cpu_wait_us) */
	res->start_actual_ns = run->start.actual_ns;
	res->start_cpu_wait_ns = run->start_cpu_wait_ns;
	if (run->abort) {
		run_stopped_early(env, res);
		goto out_free;
	}

	run_collect(run, res);
	run_stalled(run, res);
	if (run->replay)
		run->rp->result(run->replay, res);
	run_latency(run, res->has_receiver && run_delivered(run, res, &c) ? &c : NULL, res);
	/* what the receiver counted of this run's bytes, beside what was handed over */
	if (run->replay && res->delivered_known) {
		res->replay.rx_known = true;
		res->replay.rx_bytes = c.bytes;
	}
	if (run->replay)
		run->rp->gaps(run->replay, res);
	run_counters_end(run, path, &k, res);
	run_rx_restarted(run, res);
	run_rx_evicted(run, res);
	pb_result_check_extra(res);
	pb_result_check_seq(res);
	pb_result_compute(res);

out_free:
	/* the reader writes into the slots' pools: stopped before they are freed */
	if (run->replay)
		run->rp->stop(run->replay);
	pthread_cond_destroy(&run->cv);
	pthread_mutex_destroy(&run->mu);
	for (i = 0; i < cfg->streams; i++) {
		pb_pool_free(&run->slots[i].pool);
		pb_probe_free(&run->slots[i].w.probe);
	}
	if (run->replay)
		run->rp->free(run->replay);
	free(run->slots);
	free(run);
	if (err)
		return err;
	return __atomic_load_n(env->stop, __ATOMIC_RELAXED) ? -EINTR : 0;
}
