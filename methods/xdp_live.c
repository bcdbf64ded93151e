// SPDX-License-Identifier: MIT
/*
 * xdp_live: the kernel's own transmit loop. BPF_PROG_RUN with BPF_F_TEST_XDP_LIVE_FRAMES
 * runs bpf/xdp_live.bpf.c `repeat` times over this worker's frame, and the kernel turns
 * every XDP_TX into a transmission out of the ingress interface (the technique of
 * xdp-tools' xdp-trafficgen): no system call, no skb and no copy per packet. This is the
 * software ceiling the other methods are measured against.
 *
 * One BPF_PROG_RUN is a chunk of frames sized to take about XDP_LIVE_CHUNK_NS, so the
 * harness, which checks its stop flag between send() calls, stops within a few ms of the
 * deadline. The kernel reports no per-frame outcome: a successful run means the program
 * ran `repeat` times and every frame was handed to the device; frames the device could not
 * take are counted by its drop counters, which the harness reads (a veth counts such a
 * frame twice: in its own tx_dropped and in the peer's rx_dropped).
 *
 * Short runs are only cheap with an anchor. A run with repeat > 1 puts its program into
 * the kernel's XDP dispatcher on entry and takes it out on exit, and each change waits
 * for an RCU grace period (bpf_dispatcher_change_prog: about 16 ms per run measured on
 * Linux 6.18, against 5 ms of sending). A program the dispatcher already holds costs
 * nothing, so open attaches the worker's program (generic mode, a BPF link) to the
 * loopback device of a private, unnamed network namespace made for that alone: no
 * traffic, nothing visible to anyone, and gone with the link and the namespace fd
 * (or with the process).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/bpf.h>
#include <linux/if_link.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "clock.h"
#include "log.h"
#include "method.h"
#include "netdev.h"
#include "stats.h"
#include "pb_bpf.h"
#include "xdp_live.skel.h"

#ifndef BPF_F_TEST_XDP_LIVE_FRAMES
#define BPF_F_TEST_XDP_LIVE_FRAMES (1U << 1)
#endif

/*
 * Frames per batch inside the kernel's loop: the program runs batch_size times, then the
 * batch is flushed to the device and softirqs (the veth peer's NAPI) get their turn.
 * Measured on the veth lab (60-byte frames, XDP-drop receiver, 2 busy cores, 3 rounds):
 * 16 to 256 all within noise of each other (4.1-4.3 Mpps), but 128 and 256 overran the
 * peer's 256-slot ring (tens of thousands of drops per 3 s) whenever the receiver's NAPI
 * was pushed to ksoftirqd, and 64 never did. So 64, the kernel's own default (the NAPI
 * weight). --batch sets it; the kernel takes 1..256.
 */
#define XDP_LIVE_BATCH	   64
#define XDP_LIVE_BATCH_MAX 256
/*
 * Wall time one BPF_PROG_RUN should take: long enough that the per-run set-up (a page
 * pool, about 12 us once anchored) is lost in the noise, short enough that the harness
 * stops within a few ms of its deadline. 1, 2, 5 and 10 ms gave the same rate within
 * noise; 5 ms keeps the set-up at 0.25 %. The chunk follows the rate of the previous one.
 */
#define XDP_LIVE_CHUNK_NS 5000000.0
/* without the anchor every run costs ~16 ms more: longer runs keep most of the rate */
#define XDP_LIVE_CHUNK_NS_SLOW 100000000.0
#define XDP_LIVE_CHUNK_FIRST   4096u /* before any rate is known: < 1 ms even at 5 Mpps */
#define XDP_LIVE_CHUNK_MIN     256u
#define XDP_LIVE_CHUNK_MAX     (1u << 24) /* fits send()'s int */
#define XDP_LIVE_CHUNK_GROW    8u	  /* at most this factor per chunk, up or down */

struct xdp_live_priv {
	struct xdp_live *skel;
	struct bpf_link *xmit; /* the transmit counter (tracepoint); NULL: runs are counted */
	bool warned;
	int anchor_link; /* the program's generic-XDP link in the anchor namespace, or -1 */
	int anchor_ns;	 /* keeps that namespace alive, or -1 */
	struct xdp_md ctx;
	struct bpf_test_run_opts opts;
	uint32_t chunk;	 /* frames per BPF_PROG_RUN */
	double chunk_ns; /* what one should take */
	double run_pps;	 /* frames per second inside the last full chunk; 0: not known yet */
	bool paced;
	sigset_t oldmask;
	bool masked;
};

/* --batch, or our default, within what the kernel takes. */
static uint32_t xdp_live_batch(const struct pb_config *cfg)
{
	if (!cfg->batch)
		return XDP_LIVE_BATCH;
	return cfg->batch < XDP_LIVE_BATCH_MAX ? cfg->batch : XDP_LIVE_BATCH_MAX;
}

/* One BPF_PROG_RUN in live-frame mode. 0 or -errno. */
static int xdp_live_run(int prog_fd, const void *data, uint32_t len, int ifindex, uint32_t queue,
			uint32_t batch, uint32_t repeat)
{
	struct xdp_md ctx = { .data_end = len,
			      .ingress_ifindex = ifindex,
			      .rx_queue_index = queue };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = data, .data_size_in = len, .ctx_in = &ctx,
		    .ctx_size_in = sizeof(ctx), .repeat = repeat,
		    .flags = BPF_F_TEST_XDP_LIVE_FRAMES, .batch_size = batch);

	return bpf_prog_test_run_opts(prog_fd, &opts);
}

/*
 * Can ifindex take XDP frames from another device (ndo_xdp_xmit), which is what XDP_TX in
 * a live run needs? Asks the netdev generic-netlink family, in the calling thread's
 * namespace, for the device's xdp-features. 1 yes, 0 no, -errno when the kernel cannot
 * say (no netdev family before Linux 6.3).
 */
static int xdp_live_can_xmit(int ifindex)
{
	union {
		uint32_t u32;
		uint64_t u64;
	} v = { 0 };
	int n = pb_netdev_attr(ifindex, PB_NETDEV_A_DEV_XDP_FEATURES, &v, sizeof(v));

	if (n < 0)
		return n;
	if (n == sizeof(uint32_t))
		return !!(v.u32 & PB_NETDEV_XDP_ACT_NDO_XMIT);
	if (n == sizeof(uint64_t))
		return !!(v.u64 & PB_NETDEV_XDP_ACT_NDO_XMIT);
	return -EPROTO;
}

/*
 * The program varies the frame per packet over this stream's share of the flows, numbered
 * as the user-space pools number them (pb_pool_build): flow k = stream + i * streams, the
 * first-varying field spanning min(flows, what is available).
 */
static void xdp_live_flows(struct xdp_live *skel, const struct pb_config *cfg, uint32_t stream)
{
	uint32_t n = cfg->flows > cfg->streams ? cfg->flows : cfg->streams;
	uint32_t mine = (n - stream + cfg->streams - 1) / cfg->streams;
	struct pb_frame_spec base;
	uint64_t span;

	pb_frame_spec_from_config(cfg, true, &base);
	span = cfg->flows_src_ip ? pb_flows_available(&base, true) / (65536u - cfg->srcport)
				 : 65536u - cfg->srcport;
	skel->rodata->flows = mine;
	skel->rodata->flow_first = stream;
	skel->rodata->flow_step = cfg->streams;
	skel->rodata->span = (uint32_t)(span < n ? span : n);
	skel->rodata->base_port = cfg->srcport;
	skel->rodata->vary_addr = cfg->flows_src_ip;
	skel->rodata->ipv6 = cfg->srcip.family == AF_INET6;
	skel->rodata->l3_off = cfg->vlan ? PB_ETH_HLEN + PB_VLAN_HLEN : PB_ETH_HLEN;
	/* the lab's router forwards our pages in place: the program puts MACs and TTL back */
	skel->rodata->restore = cfg->lab_kind == PB_LAB_ROUTER;
	memcpy((void *)skel->rodata->macs, cfg->dstmac, 6);
	memcpy((void *)(skel->rodata->macs + 6), cfg->srcmac, 6);
	if (cfg->srcip.family == AF_INET6) {
		uint32_t lo;

		memcpy(&lo, &cfg->srcip.v6.s6_addr[12], 4);
		skel->rodata->base_addr = ntohl(lo);
	} else {
		skel->rodata->base_addr = ntohl(cfg->srcip.v4.s_addr);
	}
}

/*
 * Checks, without putting a frame on any wire: that the program loads; that the kernel
 * has live frames, by one live run of the real frame with the namespace's loopback as the
 * ingress device (lo has no ndo_xdp_xmit, so the kernel drops the XDP_TX frame inside
 * BPF_PROG_RUN; a kernel before 5.18 rejects the flag with EINVAL); that the frame fits
 * live mode (at most a page, headroom and tailroom included); and that the sending
 * interface accepts XDP frames (its xdp-features, where the kernel tells them).
 */
static int xdp_live_probe(const struct pb_config *cfg, char *reason, size_t len)
{
	/* the run's first frame, as the harness builds it (frame methods are tagged) */
	struct pb_frame_spec spec;
	static const uint8_t small[PB_ETH_MIN_FRAME];
	struct pb_frame f = { 0 };
	struct xdp_live *skel;
	int lo, fd, err;

	if (cfg->imix) {
		snprintf(reason, len,
			 "--imix: xdp_live runs one frame size (the program varies "
			 "flows, not lengths)");
		return -EOPNOTSUPP;
	}
	skel = xdp_live__open_and_load();
	if (!skel) {
		err = -errno;
		snprintf(reason, len, "cannot load the XDP program: %s", strerror(-err));
		return err == -EPERM ? -EPERM : -EOPNOTSUPP;
	}
	fd = bpf_program__fd(skel->progs.pb_xdp_live);
	pb_frame_spec_from_config(cfg, true, &spec);
	f.data = calloc(1, pb_frame_len(&spec));
	if (!f.data) {
		err = -ENOMEM;
		goto out;
	}
	err = pb_frame_build(&f, &spec);
	if (err)
		goto out;
	lo = (int)if_nametoindex("lo");
	if (!lo)
		lo = 1; /* LOOPBACK_IFINDEX in every namespace */
	err = xdp_live_run(fd, f.data, f.len, lo, 0, xdp_live_batch(cfg), 1);
	if (err == -EINVAL) {
		if (!xdp_live_run(fd, small, sizeof(small), lo, 0, XDP_LIVE_BATCH, 1))
			snprintf(reason, len,
				 "a %u-byte frame is too large for live frames (at most a page, "
				 "about 3.5 KB)",
				 f.len);
		else
			snprintf(reason, len,
				 "the kernel has no live frames (BPF_F_TEST_XDP_LIVE_FRAMES, "
				 "Linux 5.18+)");
		err = -EOPNOTSUPP;
		goto out;
	}
	if (err) {
		snprintf(reason, len, "BPF_PROG_RUN with live frames: %s", strerror(-err));
		err = err == -EPERM ? -EPERM : -EOPNOTSUPP;
		goto out;
	}
	err = xdp_live_can_xmit(cfg->ifindex);
	if (!err) {
		snprintf(reason, len,
			 "%s cannot take XDP_TX frames (no ndo_xdp_xmit; a veth needs an XDP "
			 "program on its peer)",
			 cfg->ifname);
		err = -EOPNOTSUPP;
		goto out;
	}
	if (err < 0)
		pr_debug("xdp_live: xdp-features of %s unknown (%s); assuming it can XDP_TX\n",
			 cfg->ifname, strerror(-err));
	err = 0;
out:
	free(f.data);
	xdp_live__destroy(skel);
	return err;
}

struct xdp_live_anchor {
	int prog_fd;
	int link_fd;
	int ns_fd;
	int err;
};

/* Runs in a thread of its own, so only that thread ever leaves the sender's namespace. */
static void *xdp_live_anchor_thread(void *arg)
{
	LIBBPF_OPTS(bpf_link_create_opts, lopts, .flags = XDP_FLAGS_SKB_MODE);
	struct xdp_live_anchor *a = arg;
	int lo;

	if (unshare(CLONE_NEWNET)) {
		a->err = -errno;
		return NULL;
	}
	a->ns_fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (a->ns_fd < 0) {
		a->err = -errno;
		return NULL;
	}
	lo = (int)if_nametoindex("lo");
	a->link_fd = bpf_link_create(a->prog_fd, lo ? lo : 1, BPF_XDP, &lopts);
	if (a->link_fd < 0)
		a->err = -errno;
	return NULL;
}

/* Keeps the program in the XDP dispatcher for as long as the worker lives. 0 or -errno. */
static int xdp_live_anchor(struct xdp_live_priv *p)
{
	struct xdp_live_anchor a = {
		.prog_fd = bpf_program__fd(p->skel->progs.pb_xdp_live),
		.link_fd = -1,
		.ns_fd = -1,
	};
	pthread_t t;
	int err;

	err = pthread_create(&t, NULL, xdp_live_anchor_thread, &a);
	if (err)
		return -err;
	pthread_join(t, NULL);
	if (a.err) {
		if (a.link_fd >= 0)
			close(a.link_fd);
		if (a.ns_fd >= 0)
			close(a.ns_fd);
		return a.err;
	}
	p->anchor_link = a.link_fd;
	p->anchor_ns = a.ns_fd;
	return 0;
}

static void xdp_live_close(struct pb_worker *w)
{
	struct xdp_live_priv *p = w->priv;

	if (!p)
		return;
	bpf_link__destroy(p->xmit);
	if (p->anchor_link >= 0)
		close(p->anchor_link);
	if (p->anchor_ns >= 0)
		close(p->anchor_ns);
	xdp_live__destroy(p->skel);
	if (p->masked)
		pthread_sigmask(SIG_SETMASK, &p->oldmask, NULL);
	free(p);
	w->priv = NULL;
}

/*
 * Counts what the device transmitted and refused, from the kernel's xdp_devmap_xmit
 * tracepoint, for this thread. A kernel without the tracepoint only loses the count (runs
 * are counted then, and the drop counters say what the device refused), not the method.
 */
static void xdp_live_xmit_counter(struct xdp_live_priv *p)
{
	p->xmit = bpf_program__attach_raw_tracepoint(p->skel->progs.pb_xdp_live_xmit,
						     "xdp_devmap_xmit");
	if (!p->xmit)
		pr_info("xdp_live: no xdp_devmap_xmit tracepoint (%s): counting program runs\n",
			strerror(errno));
}

/*
 * --replay (an ordered pool): the program writes the pool's frames over the live frame, one
 * a run, in order, from a map sized here before the load.
 */
static int xdp_live_replay_size(struct xdp_live_priv *p, const struct pb_pool *pool)
{
	if (pool->n > PB_XDP_REPLAY_FRAMES || pool->max_len > PB_XDP_REPLAY_LEN) {
		pr_err("xdp_live: --replay: %u frames of up to %u bytes a stream; the program "
		       "holds %u of up to %u\n",
		       pool->n, pool->max_len, PB_XDP_REPLAY_FRAMES, PB_XDP_REPLAY_LEN);
		return -EMSGSIZE;
	}
	p->skel->rodata->replay_n = pool->n;
	return bpf_map__set_max_entries(p->skel->maps.replay_frames, pool->n);
}

/* The pool's frames into the map, after the load; the longest one is the live frame. */
static int xdp_live_replay_fill(struct xdp_live_priv *p, struct pb_worker *w)
{
	int fd = bpf_map__fd(p->skel->maps.replay_frames);
	struct pb_xdp_replay_frame *v = malloc(sizeof(*v));
	const struct pb_frame *longest = w->pool->frames;
	uint32_t i;
	int err = 0;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < w->pool->n && !err; i++) {
		const struct pb_frame *f = &w->pool->frames[i];

		memset(v, 0, sizeof(*v));
		v->len = f->len;
		memcpy(v->data, f->data, f->len);
		if (bpf_map_update_elem(fd, &i, v, BPF_ANY))
			err = -errno;
		if (f->len > longest->len)
			longest = f;
	}
	free(v);
	if (err) {
		pr_err("xdp_live: --replay: writing the frames into the program's map: %s\n",
		       strerror(-err));
		return err;
	}
	w->frame = longest;
	return 0;
}

static int xdp_live_open(struct pb_worker *w)
{
	const struct pb_config *cfg = w->cfg;
	struct xdp_live_priv *p = calloc(1, sizeof(*p));
	sigset_t block;
	uint32_t batch = xdp_live_batch(cfg);
	int err;

	if (!p)
		return -ENOMEM;
	w->priv = p;
	p->anchor_link = -1;
	p->anchor_ns = -1;
	p->skel = xdp_live__open();
	if (!p->skel) {
		err = -errno;
		pr_err("xdp_live: cannot open the XDP program: %s\n", strerror(-err));
		return err;
	}
	xdp_live_flows(p->skel, cfg, w->id);
	p->skel->bss->tid = (uint32_t)gettid();
	if (w->pool->ordered) {
		err = xdp_live_replay_size(p, w->pool);
		if (err)
			return err;
	}
	if (w->probe.on) {
		p->skel->rodata->probes = 1;
		p->skel->rodata->tai = cfg->synced_clocks;
		p->skel->rodata->probe_kind = w->probe.kind;
		p->skel->rodata->frame_kind = w->probe.frame_kind;
		p->skel->bss->probe_every = XDP_LIVE_CHUNK_FIRST; /* until a rate is known */
		p->paced = pb_config_paced(cfg);
	}
	err = xdp_live__load(p->skel);
	if (err) {
		pr_err("xdp_live: cannot load the XDP program: %s\n", strerror(-err));
		return err;
	}
	if (w->pool->ordered) {
		err = xdp_live_replay_fill(p, w);
		if (err)
			return err;
	}
	xdp_live_xmit_counter(p);
	err = xdp_live_anchor(p);
	if (err)
		pr_warn("xdp_live: cannot keep the program in the XDP dispatcher (%s): every "
			"run waits for two RCU grace periods, so runs are longer and the stop "
			"comes up to 0.1 s late\n",
			strerror(-err));
	if (cfg->batch > XDP_LIVE_BATCH_MAX)
		pr_warn("xdp_live: --batch %u is more than live frames take; using %u\n",
			cfg->batch, XDP_LIVE_BATCH_MAX);

	/*
	 * The kernel resolves ingress_ifindex in this thread's namespace (the sender's). The
	 * queue only tells the program where the frame "arrived"; the device picks its own
	 * TX queue. It must exist, so streams beyond the queues share them.
	 */
	p->ctx.data_end = w->frame->len;
	p->ctx.ingress_ifindex = (uint32_t)cfg->ifindex;
	p->ctx.rx_queue_index = cfg->tx_queues ? w->id % cfg->tx_queues : 0;
	p->opts.sz = sizeof(p->opts);
	p->opts.data_in = w->frame->data;
	p->opts.data_size_in = w->frame->len;
	p->opts.ctx_in = &p->ctx;
	p->opts.ctx_size_in = sizeof(p->ctx);
	p->opts.flags = BPF_F_TEST_XDP_LIVE_FRAMES;
	p->opts.batch_size = batch;
	p->chunk = XDP_LIVE_CHUNK_FIRST;
	p->chunk_ns = p->anchor_link < 0 ? XDP_LIVE_CHUNK_NS_SLOW : XDP_LIVE_CHUNK_NS;

	/*
	 * A signal arriving in the middle of a run makes the kernel end it with EINTR and no
	 * count, though frames already went out. Ctrl-C and SIGTERM are therefore left to the
	 * harness's main thread, which sets the stop flag; this worker ends its chunk on time.
	 */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	if (!pthread_sigmask(SIG_BLOCK, &block, &p->oldmask))
		p->masked = true;

	snprintf(w->mode, sizeof(w->mode), "live, batch %u%s%s", batch,
		 p->anchor_link < 0 ? ", no anchor" : "", p->xmit ? "" : ", runs");
	return 0;
}

/*
 * Where the program's next probes fall. A paced run's chunks are the few frames due: the
 * first frame of the chunk the runner armed is the probe, as with every method. An unpaced
 * run's chunk is milliseconds long: its probes are spaced by what the last chunk's rate
 * makes of --latency-pps, the countdown carrying over from chunk to chunk.
 */
static void xdp_live_probes_plan(struct pb_worker *w, struct xdp_live_priv *p)
{
	struct xdp_live__bss *bss = p->skel->bss;
	double every;

	if (p->paced) {
		bss->probe_every = UINT32_MAX;
		bss->probe_left = pb_probe_in(&w->probe, 1) == 0 ? 0 : UINT32_MAX;
		return;
	}
	if (!p->run_pps)
		return;
	every = p->run_pps * w->probe.interval;
	bss->probe_every = every < 1 ? 1 : every > UINT32_MAX ? UINT32_MAX : (uint32_t)every;
	if (bss->probe_left > bss->probe_every)
		bss->probe_left = bss->probe_every;
}

/* Sizes the next chunk to take p->chunk_ns at the rate the last one ran at. */
static void xdp_live_adapt(struct xdp_live_priv *p, uint32_t n, double ns)
{
	double want = ns > 0 ? n * p->chunk_ns / ns : (double)p->chunk * XDP_LIVE_CHUNK_GROW;
	double lo = (double)p->chunk / XDP_LIVE_CHUNK_GROW;
	double hi = (double)p->chunk * XDP_LIVE_CHUNK_GROW;

	if (want < lo)
		want = lo;
	if (want > hi)
		want = hi;
	if (want < XDP_LIVE_CHUNK_MIN)
		want = XDP_LIVE_CHUNK_MIN;
	if (want > XDP_LIVE_CHUNK_MAX)
		want = XDP_LIVE_CHUNK_MAX;
	p->chunk = (uint32_t)want;
}

/*
 * One BPF_PROG_RUN of a chunk of frames. --batch already became the kernel's batch_size
 * at open; the chunk is what sets how often the stop flag is seen. The chunk never exceeds
 * budget (what --count still wants, or what --pps allows now), so --count is exact and
 * pacing holds.
 */
static int xdp_live_send(struct pb_worker *w, unsigned int budget, struct pb_outcome *o)
{
	struct xdp_live_priv *p = w->priv;
	uint32_t n = p->chunk < budget ? p->chunk : budget;
	uint64_t sent0, drops0;
	double t0;
	int err;

	p->opts.repeat = n;
	o->calls = 1;
	sent0 = p->skel->bss->xmit_sent;
	drops0 = p->skel->bss->xmit_drops;
	if (__builtin_expect(w->probe.on, 0))
		xdp_live_probes_plan(w, p);
	t0 = pb_now() * 1e9;
	err = bpf_prog_test_run_opts(bpf_program__fd(p->skel->progs.pb_xdp_live), &p->opts);
	if (__builtin_expect(w->probe.on, 0))
		pb_probe_stamped(&w->probe, p->skel->bss->probe_seq - w->probe.seq);
	if (err)
		return err; /* -EINTR: the run was cut short and cannot say how far it got */
	if (n == p->chunk) {
		double ns = pb_now() * 1e9 - t0;

		xdp_live_adapt(p, n, ns);
		p->run_pps = ns > 0 ? n * 1e9 / ns : p->run_pps;
	}
	o->sent = n;
	if (p->xmit) {
		/* what the device took and what it refused (reported: retried, netted) */
		uint64_t sent = pb_ctr_delta(
			sent0, __atomic_load_n(&p->skel->bss->xmit_sent, __ATOMIC_RELAXED), NULL);
		uint64_t drops = pb_ctr_delta(
			drops0, __atomic_load_n(&p->skel->bss->xmit_drops, __ATOMIC_RELAXED), NULL);

		if (sent + drops == n) {
			o->sent = (uint32_t)sent;
			o->retried = (uint32_t)drops;
		} else if (!p->warned) {
			pr_warn("xdp_live: the device saw %llu frames of a %u-frame run; counting "
				"runs\n",
				(unsigned long long)(sent + drops), n);
			p->warned = true;
		}
	}
	return 0;
}

const struct pb_method pb_method_xdp_live = {
	.name = "xdp_live",
	.help = "BPF_PROG_RUN with live frames: the kernel loops an XDP_TX program, the ceiling "
		"(--batch: the kernel's batch, 1-256, default 64)",
	.flags = PB_M_FRAME,
	.default_batch = XDP_LIVE_BATCH,
	.knobs = PB_K_BATCH,
	.replay_frames = PB_XDP_REPLAY_FRAMES,
	.replay_len = PB_XDP_REPLAY_LEN,
	.probe = xdp_live_probe,
	.open = xdp_live_open,
	.send = xdp_live_send,
	.close = xdp_live_close,
};
