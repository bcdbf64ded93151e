// SPDX-License-Identifier: MIT
/*
 * --replay: the capture reader (libpcap), the rebuilt per-stream frames and the absolute
 * schedule, and the departure figures; streaming from disk is replay_disk.c's. Kept out of
 * runner.c, which only asks for a stream's allowance and reports what each call handed over.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>
#include <netinet/udp.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef PB_HAVE_PCAP
#include <pcap/pcap.h>
#endif

#include "log.h"
#include "replay.h"
#include "replay_disk.h"
#include "replay_file.h"
#include "stats.h"

double pb_replay_due(const double *off, uint32_t n, double period, uint64_t k)
{
	return (double)(k / n) * period + off[k % n];
}

/*
 * --preload: whether the capture is streamed from disk through a window rather than read
 * into memory. A file that cannot be stat'ed is left to the reader to report.
 */
static bool rp_streams(const struct pb_config *cfg)
{
	struct stat st;

	if (cfg->preload == PB_PRELOAD_NEVER)
		return true;
	if (cfg->preload == PB_PRELOAD_ALWAYS || stat(cfg->replay, &st))
		return false;
	return (uint64_t)st.st_size > (uint64_t)cfg->preload_max_mib << 20;
}

#define RP_DROPPED UINT32_MAX /* a frame of the file not replayed: its rec's flow */

/*
 * Stream i's frames of a preloaded file, in file order: a frame method's written in place in
 * the file's buffer (which rp->held then owns: the file's bytes are held once), the others'
 * rebuilt, packed.
 */
static int rp_build(struct pb_replay_stream *s, const struct pb_replay *rp, struct rp_file *f,
		    uint32_t stream)
{
	const struct pb_config *cfg = &rp->cfg;
	struct pb_frame_spec spec;
	size_t bytes = 0, at = 0;
	uint32_t i, j;

	/*
	 * Rebuilt frames are packed: each takes its own length, rounded up to a cache line,
	 * not the longest one's: a capture of mixed sizes held at the longest took several
	 * times the file (issue 29: 6.6 GiB for 986 MiB).
	 */
	for (i = 0; i < f->n; i++) {
		if (f->rec[i].flow == RP_DROPPED || f->rec[i].flow % cfg->streams != stream)
			continue;
		if (!rp->frames) {
			rp_spec(rp, &f->rec[i], &spec);
			bytes += pb_cache_align(pb_frame_len(&spec));
		}
		s->n++;
	}
	if (!s->n)
		return -ENOENT;
	s->pool.frames = calloc(s->n, sizeof(*s->pool.frames));
	if (!rp->frames)
		s->pool.buf = aligned_alloc(64, bytes);
	s->off = calloc(s->n, sizeof(*s->off));
	s->len = calloc(s->n, sizeof(*s->len));
	if (!s->pool.frames || (!rp->frames && !s->pool.buf) || !s->off || !s->len)
		return -ENOMEM;
	for (i = 0, j = 0; i < f->n; i++) {
		const struct rp_rec *r = &f->rec[i];
		struct pb_frame *fr = &s->pool.frames[j];
		int err;

		if (r->flow == RP_DROPPED || r->flow % cfg->streams != stream)
			continue;
		if (rp->frames) {
			err = rp_build_whole(fr, NULL, f->buf + r->data, rp, stream, r);
		} else {
			fr->data = s->pool.buf + at;
			err = rp_build_one(fr, rp, stream, r, f->buf + r->data);
			at += pb_cache_align(fr->len);
		}
		if (err)
			return err;
		if (fr->len > s->pool.max_len)
			s->pool.max_len = fr->len;
		s->len[j] = rp->frames ? fr->len : fr->unpadded;
		j++;
	}
	s->pool.n = s->n;
	s->pool.ordered = true;
	s->hist = calloc(RP_HIST_US + 1, sizeof(*s->hist));
	return s->hist ? 0 : -ENOMEM;
}

static const char *rp_unsupported(const struct pb_method *m)
{
	if (m->knobs & PB_K_SEGMENTS)
		return "--replay: GSO cuts one payload into equal segments; a capture's differ";
	return NULL;
}

/* Where stream frame k's deadline is: its window's place, or the preloaded schedule. */
static double rp_due(const struct pb_replay_stream *s, uint64_t k)
{
	return s->streamed ? s->due[k & s->mask] : pb_replay_due(s->off, s->n, s->period, k);
}

/*
 * Preloaded: the whole file read into memory, its pass scheduled in file order, then every
 * stream's frames built. -E2BIG: --preload auto, and it would take more than --preload-max.
 */
static int rp_open_preloaded(struct pb_replay *rp, char *why, size_t len)
{
	const struct pb_config *cfg = &rp->cfg;
	struct rp_clock c = { 0 };
	struct rp_file f = { .whole = rp->file.whole, .family = rp->file.family };
	uint32_t i, *k = NULL;
	int err;

	if (cfg->preload == PB_PRELOAD_AUTO)
		f.budget = (uint64_t)cfg->preload_max_mib << 20;
	err = rp_read(cfg->replay, &f, why, len);
	if (err)
		goto out;
	rp->file_frames = f.frames;
	rp->cut = f.cut;
	rp->cut_bytes = f.cut_bytes;
	memcpy(rp->skipped, f.skipped, sizeof(rp->skipped));
	rp_timing(rp);
	for (i = 0; i < f.n; i++) {
		if (!rp_fits(rp, &f.rec[i])) {
			rp->skipped[PB_RSKIP_TOO_BIG]++;
			f.rec[i].flow = RP_DROPPED;
			continue;
		}
		f.rec[i].flow = rp_flow_of(cfg, &f.rec[i], c.k++);
	}
	rp->flows = cfg->flows > 1 ? cfg->flows : f.flows;
	if (!c.k) {
		err = rp_none(rp, why, len);
		goto out;
	}
	for (i = 0; i < cfg->streams; i++) {
		err = rp_build(&rp->st[i], rp, &f, i);
		if (err == -ENOENT)
			err = rp_no_flows(rp, rp->flows, i, why, len);
		else if (err && err != -ENOMEM)
			snprintf(why, len, "--replay: building the frames: %s", strerror(-err));
		if (err)
			goto out;
	}
	/* the schedule, in file order: each frame's offset into its own stream's */
	err = -ENOMEM;
	k = calloc(cfg->streams, sizeof(*k));
	if (!k)
		goto out;
	memset(&c, 0, sizeof(c));
	for (i = 0; i < f.n; i++) {
		struct pb_replay_stream *s;

		if (f.rec[i].flow == RP_DROPPED)
			continue;
		s = &rp->st[f.rec[i].flow % cfg->streams];
		s->off[k[s - rp->st]++] = rp_offset(rp, &c, &f.rec[i]);
		err = rp_order_add(rp, (uint32_t)(s - rp->st));
		if (err)
			goto out;
	}
	rp_pass_end(rp, &c);
	rp_limits(rp);
	for (i = 0; i < cfg->streams; i++) {
		rp->st[i].period = rp->period;
		rp->st[i].timed = rp->timed;
		rp->st[i].first_due = rp->st[i].off[0];
	}
	if (rp->frames) { /* the pools' frames are the file's bytes, held once */
		rp->held = f.buf;
		f.buf = NULL;
	}
	err = 0;
out:
	free(k);
	rp_file_free(&f);
	return err;
}

/*
 * Frames left out, said at run time where no table will say it under itself (JSON, CSV, or a
 * table into a file), and why: a socket method sends UDP payloads alone.
 */
static void rp_said_skips(const struct pb_replay *rp, const struct pb_method *m)
{
	char kinds[512];
	uint64_t out = pb_replay_skips_str(rp->skipped, kinds, sizeof(kinds));

	if (!out || (rp->cfg.format == PB_FORMAT_TABLE && !rp->cfg.output[0]))
		return;
	pr_warn("--replay %s: %s leaves out %" PRIu64 " of the file's %" PRIu64 " frames: %s%s\n",
		rp->cfg.replay, m->name, out, rp->file_frames, kinds,
		rp->frames
			? ""
			: " (it cannot write the Ethernet header, so it sends UDP only, rebuilt; "
			  "frame methods send every frame)");
}

int pb_replay_open(struct pb_replay **out, const struct pb_method *m, const struct pb_config *cfg,
		   char *why, size_t len)
{
	const char *no = rp_unsupported(m);
	struct pb_replay *rp;
	uint32_t i;
	int err;

	*out = NULL;
	if (no) {
		snprintf(why, len, "%s", no);
		return -EOPNOTSUPP;
	}
	rp = calloc(1, sizeof(*rp));
	if (!rp) {
		snprintf(why, len, "--replay %s: out of memory", cfg->replay);
		return -ENOMEM;
	}
	rp->cfg = *cfg;
	pb_frame_spec_from_config(cfg, (m->flags & PB_M_FRAME) && cfg->vlan, &rp->base);
	rp->streams = cfg->streams;
	rp->loops = cfg->loop;
	rp->frames = m->flags & PB_M_FRAME;
	rp->file.whole = rp->frames;
	rp->file.family = rp->frames ? 0 : cfg->srcip.family;
	rp->st = calloc(cfg->streams, sizeof(*rp->st));
	rp->streamed = rp_streams(cfg);
	err = rp_rewrite_parse(cfg, &rp->rw, why, len);
	if (!err && rp->frames && cfg->flows > 1) {
		snprintf(why, len,
			 "--flows: %s replays the capture's own frames and flows (--rewrite-ip "
			 "and --rewrite-port change them)",
			 m->name);
		err = -EINVAL;
	}
	if (!err && !rp->st)
		err = -ENOMEM;
	if (!err)
		err = rp->streamed ? rp_open_streamed(rp, m, why, len)
				   : rp_open_preloaded(rp, why, len);
	if (err == -E2BIG) { /* --preload auto: it would take more than the bound */
		rp->streamed = true;
		err = rp_open_streamed(rp, m, why, len);
	}
	if (err == -ENOMEM)
		snprintf(why, len, "--replay %s: out of memory", cfg->replay);
	if (err) {
		pb_replay_free(rp);
		return err;
	}
	/* a method's own bounds (xdp_live's map): a skipped row, never a failed open */
	for (i = 0; i < rp->streams && !rp->streamed; i++) {
		const struct pb_replay_stream *s = &rp->st[i];

		if ((m->replay_frames && s->n > m->replay_frames) ||
		    (m->replay_len && s->pool.max_len > m->replay_len)) {
			snprintf(why, len,
				 "--replay: %s holds up to %u frames a stream of up to %u bytes; "
				 "stream %u has %u of up to %u",
				 m->name, m->replay_frames, m->replay_len, i, s->n,
				 s->pool.max_len);
			pb_replay_free(rp);
			return -EOPNOTSUPP;
		}
	}
	rp_said_skips(rp, m);
	if (rp->cut)
		pr_warn("--replay %s: the last record is cut short (%" PRIu64 " bytes missing): "
			"the %" PRIu64 " whole frames before it replay\n",
			cfg->replay, rp->cut_bytes, rp->file_frames);
	if (rp->backwards)
		pr_warn("--replay %s: a stamp goes back %" PRIu64 " time(s) in file order: the "
			"frames replay in file order, each stamped before the file's latest at "
			"once, the file's clock kept (as tcpreplay)\n",
			cfg->replay, rp->backwards);
	*out = rp;
	return 0;
}

void pb_replay_free(struct pb_replay *r)
{
	uint32_t i;

	if (!r)
		return;
	pb_replay_stop(r);
#ifdef PB_HAVE_PCAP
	if (r->rd.pc)
		pcap_close(r->rd.pc);
#endif
	for (i = 0; r->st && i < r->streams; i++) {
		pb_pool_free(&r->st[i].pool);
		free(r->st[i].off);
		free(r->st[i].len);
		free(r->st[i].hist);
		free(r->st[i].due);
	}
	free(r->gap_hist);
	free(r->order);
	free(r->held);
	rp_file_free(&r->file);
	free(r->st);
	free(r);
}

void pb_replay_apply(const struct pb_replay *r, struct pb_config *cfg)
{
	/* --limit N: as many passes as its N frames reach into */
	uint64_t passes = r->cfg.limit ? (r->cfg.limit + r->pass_frames - 1) / r->pass_frames : 0;

	cfg->count = r->loops ? r->pass_frames * r->loops : 0;
	if (r->cfg.limit && (!cfg->count || r->cfg.limit < cfg->count))
		cfg->count = r->cfg.limit;
	else
		passes = r->loops;
	if (cfg->count && !cfg->count_timeout_s)
		cfg->count_timeout_s = 10.0 + r->period * (double)passes;
}

void pb_replay_take_pool(struct pb_replay *r, uint32_t i, struct pb_pool *pool)
{
	*pool = r->st[i].pool;
	memset(&r->st[i].pool, 0, sizeof(r->st[i].pool));
}

uint64_t pb_replay_quota(const struct pb_replay *r, uint32_t i)
{
	uint64_t q = r->loops ? (uint64_t)r->st[i].n * r->loops : UINT64_MAX;

	return r->st[i].limit < q ? r->st[i].limit : q;
}

struct pb_replay_stream *pb_replay_stream(struct pb_replay *r, uint32_t i)
{
	return &r->st[i];
}

uint64_t pb_replay_allowance(struct pb_replay_stream *s, double t, uint64_t handed, double *next)
{
	/* streamed: frames are counted as the method takes them out of its window */
	uint64_t at = s->streamed ? *s->taken : handed, k;
	uint64_t avail = s->streamed ? __atomic_load_n(&s->avail, __ATOMIC_ACQUIRE) : UINT64_MAX;
	double due, rel;

	/*
	 * The schedule starts when the stream first asks, not at the clock start: a thread that
	 * woke late would otherwise begin with a burst of everything due meanwhile.
	 */
	if (!s->started) {
		s->started = true;
		s->anchor = t;
	}
	s->call_t = t;
	if (!s->timed && !s->streamed)
		return UINT64_MAX;
	rel = t - s->anchor;
	/* a late sender does not scan the same due frames again on every call */
	k = s->due_k > at ? s->due_k : at;
	if (!s->timed)
		k = avail - at < RP_ALLOW_MAX ? avail : at + RP_ALLOW_MAX;
	while (s->timed && k - at < RP_ALLOW_MAX && k < avail) {
		due = rp_due(s, k);
		if (due > rel) {
			if (k == at)
				*next = s->anchor + due;
			break;
		}
		k++;
	}
	if (k == at && k == avail) {
		/*
		 * The window is empty: the reader is behind, or done and the stream with it (done
		 * first: the reader's last avail was stored before it)
		 */
		if (__atomic_load_n(s->reader_done, __ATOMIC_ACQUIRE))
			s->exhausted = at >= __atomic_load_n(&s->avail, __ATOMIC_ACQUIRE);
		else if (!s->starved)
			s->waits++;
		s->starved = true;
		*next = t + RP_NAP_NS * 1e-9;
	} else if (k > at) {
		s->starved = false;
	}
	s->due_k = k;
	return k - at;
}

void pb_replay_note(struct pb_replay_stream *s, uint64_t handed)
{
	uint64_t at = s->streamed ? *s->taken : handed;

	for (; s->noted < at; s->noted++) {
		double due = s->timed ? rp_due(s, s->noted) : 0;
		double err = s->timed ? s->call_t - s->anchor - due : 0;
		uint64_t us = err > 0 ? (uint64_t)(err * 1e6) : 0;

		if (!s->noted)
			s->first_t = s->call_t;
		s->last_t = s->call_t;
		s->last_due = due;
		s->bytes += s->len[s->streamed ? s->noted & s->mask : s->noted % s->n];
		s->hist[us < RP_HIST_US ? us : RP_HIST_US]++;
		if (err > s->max_err)
			s->max_err = err;
	}
	/* what the method took out is copied: the reader may write those places again */
	if (s->streamed)
		__atomic_store_n(&s->freed, at, __ATOMIC_RELEASE);
}

void pb_replay_result(const struct pb_replay *r, struct pb_result *res)
{
	struct pb_replay_stats *o = &res->replay;
	double first = INFINITY, last = -INFINITY, s0 = INFINITY, s1 = -INFINITY;
	uint64_t *h = calloc(RP_HIST_US + 1, sizeof(*h)), loops = UINT64_MAX;
	uint32_t i, j;

	memset(o, 0, sizeof(*o));
	o->on = true;
	o->timed = r->timed;
	o->timing = r->timing;
	o->multiplier = r->multiplier;
	o->file_frames = r->file_frames;
	o->pass_frames = r->pass_frames;
	memcpy(o->skipped, r->skipped, sizeof(o->skipped));
	o->file_duration_s = r->file_s;
	o->backwards = r->backwards;
	o->cut = r->cut;
	o->cut_bytes = r->cut_bytes;
	o->streamed = r->streamed;
	o->reader_failed = r->rd.err != 0;
	for (i = 0; i < r->streams; i++) {
		const struct pb_replay_stream *s = &r->st[i];

		o->window_frames += s->streamed ? s->mask + 1 : 0;
		o->reader_waits += s->waits;
		o->frames += s->noted;
		o->bytes += s->bytes;
		loops = s->noted / s->n < loops ? s->noted / s->n : loops;
		if (!s->noted)
			continue;
		first = fmin(first, s->first_t);
		last = fmax(last, s->last_t);
		/* what the schedule asked, each stream from its own origin */
		s0 = fmin(s0, s->anchor + s->first_due);
		s1 = fmax(s1, s->anchor + s->last_due);
		o->dep_max_us = fmax(o->dep_max_us, s->max_err * 1e6);
		for (j = 0; h && j <= RP_HIST_US; j++)
			h[j] += s->hist[j];
	}
	o->loops = loops == UINT64_MAX ? 0 : loops;
	if (r->rd.err) {
		res->status = PB_STATUS_ERROR;
		snprintf(res->reason, sizeof(res->reason),
			 "--replay: reading the capture from disk failed: %s",
			 strerror(-r->rd.err));
	}
	o->run_duration_s = o->frames ? last - first : 0;
	o->sched_duration_s = o->frames && r->timed ? s1 - s0 : 0;
	o->drift_ppm = o->sched_duration_s > 0 ? (o->run_duration_s - o->sched_duration_s) /
							 o->sched_duration_s * 1e6
					       : 0;
	if (h && o->frames) {
		o->dep_p50_us = pb_us_quantile(h, RP_HIST_US, o->frames, 0.50, o->dep_max_us);
		o->dep_p99_us = pb_us_quantile(h, RP_HIST_US, o->frames, 0.99, o->dep_max_us);
	}
	free(h);
}

static int rp_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A stream's gap at the wrap, when a pass followed another; 0 when none did. */
static double rp_wrap_gap(const struct pb_replay_stream *s, double last_off)
{
	uint64_t loops = s->noted / s->n;

	if (loops > 1 || (loops == 1 && s->noted > s->n))
		return s->period - last_off + s->first_due;
	return 0;
}

/*
 * Streamed: the schedule's gaps from the first read's histogram (100 ns buckets) and the
 * wraps', as rp_sched_gaps() gives them.
 */
static bool rp_hist_gaps(const struct pb_replay *r, double *p50, double *p99, double *pmax)
{
	uint64_t *h = malloc(sizeof(*h) * (RP_GAP_BUCKETS + 1)), total = 0, seen;
	double q[2] = { 0.50, 0.99 }, *out[2] = { p50, p99 }, max = r->gap_max, b;
	uint32_t i, j;

	if (!h)
		return false;
	memcpy(h, r->gap_hist, sizeof(*h) * (RP_GAP_BUCKETS + 1));
	for (i = 0; i < r->streams; i++) {
		double g = rp_wrap_gap(&r->st[i], r->st[i].scan_off);

		if (g <= 0)
			continue;
		b = round(g * 1e7);
		h[b < RP_GAP_BUCKETS ? (uint32_t)b : RP_GAP_BUCKETS]++;
		max = fmax(max, g);
	}
	for (j = 0; j <= RP_GAP_BUCKETS; j++)
		total += h[j];
	for (i = 0; i < 2 && total; i++) {
		uint64_t want = (uint64_t)ceil(q[i] * (double)total);

		for (j = 0, seen = 0; j <= RP_GAP_BUCKETS; j++) {
			seen += h[j];
			if (seen >= want)
				break;
		}
		*out[i] = j < RP_GAP_BUCKETS ? j * 0.1 : max * 1e6;
	}
	*pmax = max * 1e6;
	free(h);
	return total > 0;
}

/*
 * The gaps the schedule puts between a stream's consecutive frames over the passes sent: each
 * of a pass's gaps, and the wrap's between passes. Its p50 and p99, in us, or false.
 */
static bool rp_sched_gaps(const struct pb_replay *r, double *p50, double *p99, double *pmax)
{
	uint64_t n = 0, k;
	double *g;
	uint32_t i, j;

	if (r->streamed)
		return rp_hist_gaps(r, p50, p99, pmax);
	for (i = 0; i < r->streams; i++)
		n += r->st[i].n;
	g = malloc(sizeof(*g) * (n + 1));
	if (!g)
		return false;
	for (i = 0, k = 0; i < r->streams; i++) {
		const struct pb_replay_stream *s = &r->st[i];

		for (j = 1; j < s->n; j++)
			g[k++] = s->off[j] - s->off[j - 1];
		if (rp_wrap_gap(s, s->off[s->n - 1]) > 0)
			g[k++] = rp_wrap_gap(s, s->off[s->n - 1]);
	}
	if (!k) {
		free(g);
		return false;
	}
	qsort(g, k, sizeof(*g), rp_cmp);
	*p50 = g[(size_t)ceil(0.50 * (double)k) - 1] * 1e6;
	*p99 = g[(size_t)ceil(0.99 * (double)k) - 1] * 1e6;
	*pmax = g[k - 1] * 1e6;
	free(g);
	return true;
}

void pb_replay_gaps(const struct pb_replay *r, struct pb_result *res)
{
	struct pb_replay_stats *o = &res->replay;

	if (!r->timed || !res->gaps.on || !res->gaps.measured ||
	    !rp_sched_gaps(r, &o->gap_p50_us, &o->gap_p99_us, &o->gap_max_us))
		return;
	o->gaps_known = true;
	o->gap_err_p50_us = res->gaps.p50_us - o->gap_p50_us;
	o->gap_err_p99_us = res->gaps.p99_us - o->gap_p99_us;
	o->gap_err_max_us = res->gaps.max_us - o->gap_max_us;
}

int pb_replay_validate(const struct pb_config *cfg, char *err, size_t errlen)
{
	bool top = cfg->topspeed || cfg->replay_timing == PB_TIMING_TOPSPEED;

	/* without --replay there is nothing to check: its options alone are pb_needs' to refuse */
	if (!cfg->replay[0])
		return 0;
	if (top && (cfg->pps || cfg->rate_gbps || cfg->multiplier > 0 || cfg->loop_delay_s > 0)) {
		snprintf(err, errlen,
			 "--topspeed has no schedule: --pps, --rate, --multiplier and "
			 "--loop-delay cannot go with it");
		return -EINVAL;
	}
	if (cfg->multiplier > 0 && (cfg->pps || cfg->rate_gbps)) {
		snprintf(err, errlen,
			 "--multiplier scales the file's own gaps; --pps and --rate "
			 "replace them: give one");
		return -EINVAL;
	}
	/* --loop N's passes end the run (N x the file's frames): a --duration would be moot */
	if (cfg->loop && pb_given(&cfg->given, "duration")) {
		snprintf(err, errlen,
			 "--replay sends --loop N passes (1 unless given), which end the run: "
			 "--duration goes with --loop 0 (loop until it), or leave it out");
		return -EINVAL;
	}
	if (cfg->count) {
		snprintf(err, errlen,
			 "--replay: --count is for built frames; --limit N sends the replay's "
			 "first N frames (tcpreplay's name)");
		return -EINVAL;
	}
	if (cfg->imix || cfg->frame_size || cfg->sweep.kind == PB_SWEEP_FRAME_SIZE ||
	    cfg->latency) {
		snprintf(err, errlen,
			 "--replay: the capture gives the frames and their sizes, and --loop the "
			 "count: --imix, --frame-size and --latency do not apply");
		return -EINVAL;
	}
	return 0;
}

int pb_replay_check_file(const char *path, char *err, size_t errlen)
{
#ifdef PB_HAVE_PCAP
	pcap_t *pc;
#endif

	if (access(path, R_OK)) {
		snprintf(err, errlen, "--replay %s: %s", path, strerror(errno));
		return -EINVAL;
	}
#ifdef PB_HAVE_PCAP
	/* its header only: the frames are read when the run opens it */
	pc = rp_pcap_open(path, err, errlen);
	if (!pc) {
		if (strstr(err, "unknown file format"))
			snprintf(err, errlen,
				 "--replay %s: not a capture (pcap, nanosecond pcap or pcapng)",
				 path);
		return -EINVAL;
	}
	pcap_close(pc);
#endif
	return 0;
}

/* The streamed replay's doors: the engine reaches replay_disk.c through these alone. */
int pb_replay_start(struct pb_replay *r)
{
	return rp_disk_start(r);
}

void pb_replay_stop(struct pb_replay *r)
{
	rp_disk_stop(r);
}

void pb_replay_attach(struct pb_replay_stream *s, const uint64_t *taken)
{
	s->taken = taken;
}

/* Asked in the send loop: a read of the stream's flag (set in its allowance), no call deeper. */
bool pb_replay_exhausted(const struct pb_replay_stream *s)
{
	return s->exhausted;
}

const struct pb_replay_source pb_replay_source = {
	.open = pb_replay_open,
	.free = pb_replay_free,
	.apply = pb_replay_apply,
	.take_pool = pb_replay_take_pool,
	.stream = pb_replay_stream,
	.attach = pb_replay_attach,
	.quota = pb_replay_quota,
	.start = pb_replay_start,
	.stop = pb_replay_stop,
	.allowance = pb_replay_allowance,
	.note = pb_replay_note,
	.exhausted = pb_replay_exhausted,
	.result = pb_replay_result,
	.gaps = pb_replay_gaps,
};
