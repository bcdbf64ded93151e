// SPDX-License-Identifier: MIT
/*
 * --replay streamed from disk: one read of the file for its schedule and counts, then a
 * reader thread that reads it pass by pass and rebuilds each frame into its stream's window,
 * which the stream's PB_M_STREAM method copies out as it sends. The window's two counters are
 * the only thing the threads share: avail (the reader's: frames written) and freed (the
 * sender's: frames copied out, whose places may be written again).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "log.h"
#include "replay_disk.h"
#include "replay_file.h"

/* A gap of the schedule between two of a stream's frames, for the streamed file's gaps. */
static void rp_gap_add(struct pb_replay *rp, double gap)
{
	double b = round(gap * 1e7);

	rp->gap_hist[b < RP_GAP_BUCKETS ? (uint32_t)b : RP_GAP_BUCKETS]++;
	rp->gap_max = fmax(rp->gap_max, gap);
}

#ifdef PB_HAVE_PCAP
/*
 * One frame of a pass as both reads take it, so that they agree: kept (*skip PB_RSKIP_N)
 * with its flow and its offset in the pass (c counts the pass's kept frames), or why not.
 */
static int rp_take(struct pb_replay *rp, struct rp_clock *c, const struct pcap_pkthdr *h,
		   const u_char *data, struct rp_rec *r, double *off, int *skip)
{
	int err = rp_classify(&rp->file, data, h->caplen, h->len, rp_stamp(h), r, skip);

	if (err || *skip != PB_RSKIP_N)
		return err;
	if (!rp_fits(rp, r)) {
		*skip = PB_RSKIP_TOO_BIG;
		return 0;
	}
	r->flow = rp_flow_of(&rp->cfg, r, c->k);
	*off = rp_offset(rp, c, r);
	return 0;
}

/*
 * Streaming's first read of the file: its counts, flows and schedule (the period, each
 * stream's frames, first deadline and longest frame, the schedule's gaps). Nothing of it
 * is kept but the flow table.
 */
static int rp_scan(struct pb_replay *rp, char *why, size_t len)
{
	const struct pb_config *cfg = &rp->cfg;
	struct rp_clock c = { 0 };
	struct pcap_pkthdr *h;
	const u_char *data;
	int ret, err = 0, skip;
	pcap_t *pc;

	pc = rp_pcap_open(cfg->replay, why, len);
	if (!pc)
		return -EINVAL;
	while ((ret = pcap_next_ex(pc, &h, &data)) == 1) {
		struct pb_replay_stream *s;
		struct rp_rec r;
		uint32_t out;
		double off;

		rp->file_frames++;
		err = rp_take(rp, &c, h, data, &r, &off, &skip);
		if (err)
			goto out;
		if (skip < PB_RSKIP_N) {
			rp->skipped[skip]++;
			continue;
		}
		s = &rp->st[r.flow % rp->streams];
		err = rp_order_add(rp, (uint32_t)(s - rp->st));
		if (err)
			goto out;
		if (s->n)
			rp_gap_add(rp, off - s->scan_off);
		else
			s->first_due = off;
		s->scan_off = off;
		s->n++;
		out = rp_out_len(rp, &r);
		s->max_len = out > s->max_len ? out : s->max_len;
	}
	err = rp_end(pc, ret, cfg->replay, &rp->cut, &rp->cut_bytes, why, len);
	if (err)
		goto out;
	rp_pass_end(rp, &c);
	rp_limits(rp);
out:
	pcap_close(pc);
	return err;
}

/*
 * The reader: the next frame to replay into its hold (passes one after another, each read
 * from the start of the file). 1; 0 after the last pass; -errno, said why.
 */
static int rp_next(struct pb_replay *rp)
{
	const struct pb_config *cfg = &rp->cfg;
	struct rp_reader *rd = &rp->rd;
	struct pcap_pkthdr *h;
	const u_char *data;
	char why[256];
	int ret, skip, err;

	for (;;) {
		if (!rd->pc) {
			if (rp->loops && rd->pass == rp->loops)
				return 0;
			rd->pc = rp_pcap_open(cfg->replay, why, sizeof(why));
			if (!rd->pc) {
				pr_err("%s\n", why);
				return -EIO;
			}
			memset(&rd->clk, 0, sizeof(rd->clk));
		}
		ret = pcap_next_ex(rd->pc, &h, &data);
		if (ret != 1) {
			/* a last record cut short ends each pass as the first read found it */
			err = rp_end(rd->pc, ret, cfg->replay, NULL, NULL, why, sizeof(why));
			pcap_close(rd->pc);
			rd->pc = NULL;
			if (err) {
				pr_err("%s\n", why);
				return -EIO;
			}
			/* the schedule and the counts came from the first read */
			if (rd->clk.k != rp->pass_frames) {
				pr_err("--replay %s: the file changed while it was replayed (%llu "
				       "frames to replay in it, %llu at first)\n",
				       cfg->replay, (unsigned long long)rd->clk.k,
				       (unsigned long long)rp->pass_frames);
				return -EIO;
			}
			rd->pass++;
			continue;
		}
		err = rp_take(rp, &rd->clk, h, data, &rd->rec, &rd->due, &skip);
		if (err)
			return err;
		if (skip != PB_RSKIP_N)
			continue;
		rd->due += (double)rd->pass * rp->period;
		rd->data = data;
		rd->held = true;
		return 1;
	}
}
#else
static int rp_scan(struct pb_replay *rp, char *why, size_t len)
{
	snprintf(why, len, "--replay %s: this pktbench was built without libpcap", rp->cfg.replay);
	return -EOPNOTSUPP;
}

static int rp_next(struct pb_replay *rp)
{
	(void)rp;
	return -EOPNOTSUPP;
}
#endif

/*
 * Writes frames into the streams' windows until the one the next frame goes to is full (0;
 * with wait: until it has room again, or 0 when the run stops), the last pass is written
 * (1), or the reader fails (-errno).
 */
static int rp_fill(struct pb_replay *rp, bool wait)
{
	const struct timespec nap = { 0, RP_NAP_NS };
	struct rp_reader *rd = &rp->rd;
	int err;

	for (;;) {
		struct pb_replay_stream *s;
		struct pb_frame *fr;
		uint32_t at;

		if (!rd->held) {
			err = rp_next(rp);
			if (err <= 0)
				return err < 0 ? err : 1;
		}
		s = &rp->st[rd->rec.flow % rp->streams];
		/* avail is the reader's alone to write: it reads its own without atomics */
		while (s->avail - __atomic_load_n(&s->freed, __ATOMIC_ACQUIRE) > s->mask) {
			if (!wait || __atomic_load_n(&rd->stop, __ATOMIC_RELAXED))
				return 0;
			nanosleep(&nap, NULL);
		}
		at = (uint32_t)(s->avail & s->mask);
		fr = &s->win[at];
		err = rp_build_one(fr, rp, (uint32_t)(s - rp->st), &rd->rec,
				   rd->data + rd->rec.data);
		if (err)
			return err;
		s->len[at] = rp->frames ? fr->len : fr->unpadded;
		s->due[at] = rd->due;
		__atomic_store_n(&s->avail, s->avail + 1, __ATOMIC_RELEASE);
		rd->held = false;
	}
}

static void *rp_reader_main(void *arg)
{
	struct pb_replay *rp = arg;
	int err;

	prctl(PR_SET_NAME, "pb-replay");
	err = rp_fill(rp, true);
	if (err < 0) {
		rp->rd.err = err;
		if (err != -EIO)
			pr_err("--replay %s: reading the capture: %s\n", rp->cfg.replay,
			       strerror(-err));
	}
	__atomic_store_n(&rp->rd.done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* A stream's window: at most RP_WIN_FRAMES frames, all streams' at most RP_WIN_BYTES. */
static int rp_window(struct pb_replay_stream *s, uint32_t streams)
{
	uint32_t stride = pb_cache_align(s->max_len), w = RP_WIN_FRAMES, j;

	while (w > RP_WIN_MIN && (uint64_t)w * stride * streams > RP_WIN_BYTES)
		w >>= 1;
	s->mask = w - 1;
	s->win = calloc(w, sizeof(*s->win));
	s->pool.buf = aligned_alloc(64, (size_t)stride * w);
	s->due = calloc(w, sizeof(*s->due));
	s->len = calloc(w, sizeof(*s->len));
	s->hist = calloc(RP_HIST_US + 1, sizeof(*s->hist));
	if (!s->win || !s->pool.buf || !s->due || !s->len || !s->hist) {
		free(s->win);
		s->win = NULL;
		return -ENOMEM;
	}
	for (j = 0; j < w; j++)
		s->win[j].data = s->pool.buf + (size_t)j * stride;
	s->pool.frames = s->win;
	s->pool.n = w;
	s->pool.max_len = s->max_len;
	s->pool.ordered = true;
	s->pool.streamed = true;
	s->streamed = true;
	return 0;
}

/*
 * Streamed from disk: the file is read once for its schedule, then again pass by pass by a
 * reader thread (pb_replay_start) into each stream's window; the first window's worth is
 * written here, before the workers open.
 */
int rp_open_streamed(struct pb_replay *rp, const struct pb_method *m, char *why, size_t len)
{
	uint32_t i;
	int err;

	if (!(m->flags & PB_M_STREAM)) {
		snprintf(why, len,
			 "--replay streamed from disk: %s takes its frames once at open "
			 "(af_packet*, af_xdp, raw_socket, pcap copy each as sent)",
			 m->name);
		return -EOPNOTSUPP;
	}
	rp_timing(rp);
	rp->gap_hist = calloc(RP_GAP_BUCKETS + 1, sizeof(*rp->gap_hist));
	if (!rp->gap_hist)
		return -ENOMEM;
	err = rp_scan(rp, why, len);
	if (err)
		return err;
	if (!rp->pass_frames)
		return rp_none(rp, why, len);
	rp->flows = rp->cfg.flows > 1 ? rp->cfg.flows : rp->file.flows;
	for (i = 0; i < rp->streams; i++) {
		struct pb_replay_stream *s = &rp->st[i];

		if (!s->n)
			return rp_no_flows(rp, rp->flows, i, why, len);
		err = rp_window(s, rp->streams);
		if (err)
			return err;
		s->period = rp->period;
		s->timed = rp->timed;
		s->reader_done = &rp->rd.done;
	}
	err = rp_fill(rp, false);
	if (err < 0) {
		snprintf(why, len, "--replay %s: reading the capture: %s", rp->cfg.replay,
			 strerror(-err));
		return err;
	}
	if (err == 1)
		rp->rd.done = 1; /* it all fitted: no reader thread */
	return 0;
}

int rp_disk_start(struct pb_replay *r)
{
	int err;

	if (!r || !r->streamed || r->rd.done)
		return 0;
	err = pthread_create(&r->rd.th, NULL, rp_reader_main, r);
	if (err)
		return -err;
	r->rd.running = true;
	return 0;
}

void rp_disk_stop(struct pb_replay *r)
{
	if (!r || !r->rd.running)
		return;
	__atomic_store_n(&r->rd.stop, 1, __ATOMIC_RELAXED);
	pthread_join(r->rd.th, NULL);
	r->rd.running = false;
}
