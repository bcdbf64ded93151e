// SPDX-License-Identifier: MIT
/*
 * af_xdp: one AF_XDP socket per worker, bound to TX queue w->id, through libxdp's xsk API.
 * The UMEM is written once at open with this worker's frames (its pool, one chunk each), so
 * sending only writes descriptors. A frame counts as sent when its descriptor comes back on
 * the completion ring. Zero-copy where the driver has it, copy mode otherwise.
 *
 * What decides the rate, measured on the veth lab (copy mode, docs/performance.md, af_xdp):
 * the memory each frame touches. Copy mode copies every frame into an skb; from a
 * UMEM of 4096 chunks cycled in turn (8 MiB) that copy missed the cache every time and was
 * 11 % of the CPU. So the UMEM holds only the pool (one 2 KiB chunk per frame; a chunk may
 * be in several descriptors at once, since transmit only reads it), and the rings are
 * small (--ring, 256 descriptors, completions twice that). Batch size, kick budget, busy
 * polling and the EBUSY pause each moved the rate by less than the noise.
 *
 * A frame longer than a page (a jumbo frame) takes several 4 KiB chunks, chained in the
 * TX ring (multi-buffer, XDP_USE_SG, Linux 6.6; af_xdp.h); only then is the socket bound
 * with XDP_USE_SG, so smaller frames keep the path above. A kernel without it is said,
 * never a frame cut short.
 *
 * Transmit needs no XDP program, so none is attached unless the user asks for one
 * (--xdp-mode native|generic: some drivers run their zero-copy TX path only with a program
 * attached) or a zero-copy driver refuses to transmit without one. A program found on the
 * interface is never replaced or removed, unless --force, and then it is put back.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>
#include <xdp/xsk.h>

#include "af_xdp.h"
#include "log.h"
#include "method.h"
#include "netdev.h"
#include "xdp_attach.h"
#include "xdp_pass.skel.h"

#ifndef SOL_XDP
#define SOL_XDP 283
#endif
#ifndef XDP_MAX_TX_SKB_BUDGET
#define XDP_MAX_TX_SKB_BUDGET 9 /* Linux 6.17: frames one copy-mode kick may send */
#endif

#define AF_XDP_RING	   256u /* TX descriptors without --ring: 64..4096 measured, 256 best */
#define AF_XDP_RING_MAX	   4096u
#define AF_XDP_FRAMES	   4096u /* UMEM chunks at most: pool frames beyond are not sent */
#define AF_XDP_FILL_RING   64u	 /* required by bind; this socket never receives */
#define AF_XDP_CHUNK_MAX   4096u /* one page (aligned UMEM): a larger frame takes several */
#define AF_XDP_KICK_BUDGET 32u	 /* what a copy-mode kick sends unless told otherwise */
#define AF_XDP_BUSY_MS	   1000u /* how long a queue may stay busy after the last socket */
#define AF_XDP_DROP_NAP_US 20u	 /* pause after the device dropped a frame, see af_xdp_kick */
#define AF_XDP_BATCH	   64u /* default --batch: 32..256 measured alike on the lab; 64 as xsktx */
#define AF_XDP_PROBES	   64u /* --latency: UMEM slots after the pool's for stamped copies */

struct af_xdp_priv {
	struct xsk_ring_prod fq, tx;
	struct xsk_ring_cons cq;
	struct xsk_umem *umem;
	struct xsk_socket *xsk;
	void *area;
	size_t area_len;
	int fd;
	uint32_t chunk;	  /* UMEM chunk size */
	uint32_t segs;	  /* chunks (descriptors) the longest frame takes; 1 mostly */
	uint32_t slot;	  /* UMEM bytes per frame: segs chunks */
	uint32_t nchunks; /* the pool's frames in the UMEM, one slot each */
	uint32_t next;	  /* next UMEM slot to send */
	uint32_t ring;	  /* TX ring descriptors */
	uint32_t batch;	  /* frames per call: --batch, at most the ring */
	uint32_t comp;	  /* completion ring entries */
	/*
	 * descriptors in flight at most: comp, or nchunks where fewer, since each frame in
	 * flight needs a slot of its own (its sequence number is written there as it goes)
	 */
	uint32_t cap;
	uint16_t len[AF_XDP_FRAMES]; /* each slot's frame length, so sending looks up nothing */
	uint32_t inflight;	     /* descriptors submitted, not yet completed */
	uint32_t busy_drops;	     /* EBUSY kicks whose dropped frame is yet to complete */
	uint32_t nprobe;	     /* probe slots: AF_XDP_PROBES with --latency, else 0 */
	uint64_t probe_busy;	     /* bit k: probe slot k is in flight */
	bool zc;
	bool prog_ref; /* holds a reference on af_xdp_prog */
	/*
	 * a replay's pool larger than the UMEM, or streamed: each chunk is written with the next
	 * frame in order as it is posted (seq); at least as many chunks as may be in flight, and
	 * they complete in order, so the chunk written is never one still being sent
	 */
	bool refill;
	uint32_t seq;
	/* segs > 1: the frames in flight, oldest first, and the descriptors each took */
	struct pb_af_xdp_chains chains;
};

/*
 * The XDP program pktbench attaches, shared by the run's workers: the first worker that
 * needs it attaches it, the last one to close takes it off again (and puts back what --force
 * replaced). Workers open concurrently, hence the mutex; the outcome of the one attempt is
 * shared, so a refusal is reported once and every worker fails the same way.
 */
static struct {
	pthread_mutex_t mu;
	unsigned int users;
	int err;
	struct xdp_pass *skel;
	struct pb_xdp_att att; /* where and in which mode it is attached, what --force replaced */
} af_xdp_prog = { .mu = PTHREAD_MUTEX_INITIALIZER, .att = PB_XDP_ATT_INIT };

static const char *af_xdp_mode_name(uint32_t mode)
{
	switch (mode) {
	case XDP_FLAGS_DRV_MODE:
		return "drv";
	case XDP_FLAGS_SKB_MODE:
		return "skb";
	}
	return "none";
}

static int af_xdp_libxdp_print(enum libxdp_print_level level, const char *fmt, va_list ap)
{
	char buf[512];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	/* one level lower than libxdp asks, as for libbpf */
	pb_log(level == LIBXDP_WARN ? PB_LOG_INFO : PB_LOG_DEBUG, "libxdp: %s", buf);
	return 0;
}

static void af_xdp_route_libxdp_once(void)
{
	libxdp_set_print(af_xdp_libxdp_print);
}

static void af_xdp_route_libxdp(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, af_xdp_route_libxdp_once);
}

static void af_xdp_prog_detach(void)
{
	pb_xdp_att_detach(&af_xdp_prog.att);
	xdp_pass__destroy(af_xdp_prog.skel);
	af_xdp_prog.skel = NULL;
}

/*
 * The no-op program, loaded multi-buffer (frags): a veth or driver whose MTU is over a page
 * takes only such a program in native mode ("peer MTU is too large to set XDP"), and one
 * that only passes frames on loses nothing by it. A kernel before 5.18 has no such flag: there
 * it is loaded without (pb_xdp_frags). 0 or -errno; af_xdp_prog.skel NULL-safe to destroy.
 */
static int af_xdp_prog_load(void)
{
	af_xdp_prog.skel = xdp_pass__open();
	if (!af_xdp_prog.skel)
		return -errno;
	pb_xdp_frags(af_xdp_prog.skel->progs.pb_xdp_pass);
	return xdp_pass__load(af_xdp_prog.skel);
}

static int af_xdp_prog_attach(const struct pb_config *cfg, uint32_t mode)
{
	int err;

	err = pb_xdp_att_check(&af_xdp_prog.att, "af_xdp", cfg->ifname, cfg->ifindex, cfg->force);
	if (err)
		return err;

	err = af_xdp_prog_load();
	if (err) {
		pr_err("af_xdp: cannot load the XDP program: %s\n", strerror(-err));
		return err;
	}
	return pb_xdp_att_attach(&af_xdp_prog.att,
				 bpf_program__fd(af_xdp_prog.skel->progs.pb_xdp_pass), mode, false);
}

/* Takes a reference on the run's XDP program, attaching it in mode if it is the first. */
static int af_xdp_prog_get(struct pb_worker *w, uint32_t mode)
{
	struct af_xdp_priv *p = w->priv;
	int err;

	pthread_mutex_lock(&af_xdp_prog.mu);
	if (!af_xdp_prog.users++) {
		/*
		 * An attachment kept from an earlier run on the same interface, in the same mode,
		 * is reused: on a real NIC a new attach would bounce the link again.
		 */
		if (af_xdp_prog.skel &&
		    (af_xdp_prog.att.ifindex != w->cfg->ifindex || af_xdp_prog.att.mode != mode))
			af_xdp_prog_detach();
		if (!af_xdp_prog.skel)
			af_xdp_prog.err = af_xdp_prog_attach(w->cfg, mode);
		else
			pr_info("af_xdp: reusing the XDP program of the previous run on %s\n",
				w->cfg->ifname);
	}
	err = af_xdp_prog.err;
	pthread_mutex_unlock(&af_xdp_prog.mu);
	p->prog_ref = true;
	return err;
}

/* Drops a reference; the attachment itself stays for the next run until af_xdp_finish(). */
static void af_xdp_prog_put(void)
{
	pthread_mutex_lock(&af_xdp_prog.mu);
	if (!--af_xdp_prog.users && af_xdp_prog.err) {
		af_xdp_prog_detach(); /* a failed attempt keeps nothing */
		af_xdp_prog.err = 0;
	}
	pthread_mutex_unlock(&af_xdp_prog.mu);
}

/* After the process's last run: take our program off (and put back what --force replaced). */
static void af_xdp_finish(void)
{
	pthread_mutex_lock(&af_xdp_prog.mu);
	if (!af_xdp_prog.users) {
		af_xdp_prog_detach();
		af_xdp_prog.err = 0;
	}
	pthread_mutex_unlock(&af_xdp_prog.mu);
}

/* Frame bytes as the frame builder will make them: headers (and tag) + payload, padded. */
static uint32_t af_xdp_frame_len(const struct pb_config *cfg)
{
	uint32_t len = pb_frame_overhead(cfg->dstip.family) + cfg->payloadsize;
	uint32_t min = PB_ETH_MIN_FRAME;

	if (cfg->vlan) {
		len += PB_VLAN_HLEN;
		min += PB_VLAN_HLEN;
	}
	return len < min ? min : len;
}

/*
 * Does this kernel take XDP_USE_SG (Linux 6.6)? bind() checks its flags before it looks for
 * the device, so on a fresh socket interface index 0 answers ENODEV with the flag known and
 * EINVAL without, and nothing is bound.
 */
static bool af_xdp_has_sg(void)
{
	struct sockaddr_xdp sxdp = { .sxdp_family = AF_XDP, .sxdp_flags = XDP_USE_SG };
	int fd = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	bool sg;

	if (fd < 0)
		return false;
	sg = bind(fd, (struct sockaddr *)&sxdp, sizeof(sxdp)) < 0 && errno == ENODEV;
	close(fd);
	return sg;
}

/*
 * The longest chain the driver of ifindex takes in zero-copy (netdev's xdp-zc-max-segs, 1
 * when it has no multi-buffer zero-copy), in the calling thread's namespace; -errno when the
 * kernel does not say (before Linux 6.6).
 */
static int af_xdp_zc_max_segs(int ifindex)
{
	uint32_t v = 0;
	int n = pb_netdev_attr(ifindex, PB_NETDEV_A_DEV_XDP_ZC_MAX_SEGS, &v, sizeof(v));

	if (n < 0)
		return n;
	if (n != sizeof(v))
		return -EPROTO;
	return v > INT32_MAX ? INT32_MAX : (int)v;
}

/*
 * Can frame-byte frames, segs chunks each, go out as multi-buffer here? 0, or -EOPNOTSUPP
 * with the reason in why: a kernel without XDP_USE_SG, or a chain longer than copy mode takes.
 */
static int af_xdp_mb_check(uint32_t frame, uint32_t segs, char *why, size_t len)
{
	if (segs > PB_AF_XDP_COPY_SEGS) {
		snprintf(why, len,
			 "%u-byte frames would take %u UMEM chunks of %u bytes; an AF_XDP frame "
			 "chains %u at most",
			 frame, segs, AF_XDP_CHUNK_MAX, PB_AF_XDP_COPY_SEGS);
		return -EOPNOTSUPP;
	}
	if (!af_xdp_has_sg()) {
		snprintf(why, len,
			 "%u-byte frames span %u UMEM chunks of %u bytes, which needs multi-buffer "
			 "AF_XDP (XDP_USE_SG, Linux 6.6); this kernel refuses it",
			 frame, segs, AF_XDP_CHUNK_MAX);
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * Does the driver chain segs buffers a frame in zero-copy? 0, or -EOPNOTSUPP with the reason
 * in why: its xdp-zc-max-segs is fewer, and such a chain would stall its queue. A device that
 * does not say (no zero-copy at all) passes: its zero-copy bind fails anyway.
 */
static int af_xdp_zc_check(const struct pb_config *cfg, uint32_t frame, uint32_t segs, char *why,
			   size_t len)
{
	int max = af_xdp_zc_max_segs(cfg->ifindex);

	pr_debug("af_xdp: %s xdp-zc-max-segs: %d\n", cfg->ifname, max);
	if (max <= 0 || (uint32_t)max >= segs)
		return 0;
	snprintf(why, len,
		 "%u-byte frames take %u buffers; %s chains %d in zero-copy (xdp-zc-max-segs): "
		 "--zerocopy auto sends them in copy mode",
		 frame, segs, cfg->ifname, max);
	return -EOPNOTSUPP;
}

static int af_xdp_probe(const struct pb_config *cfg, char *reason, size_t len)
{
	uint32_t frame = af_xdp_frame_len(cfg), segs;
	int fd, err;

	af_xdp_route_libxdp();
	fd = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		err = errno;
		if (err == EPERM || err == EACCES) {
			snprintf(reason, len, "no permission for AF_XDP sockets (%s)",
				 strerror(err));
			return -EPERM;
		}
		snprintf(reason, len, "this kernel has no AF_XDP sockets (CONFIG_XDP_SOCKETS): %s",
			 strerror(err));
		return -EOPNOTSUPP;
	}
	close(fd);
	if (cfg->tx_queues < cfg->streams) {
		snprintf(reason, len,
			 "%s has %u TX queue(s); af_xdp binds one socket per queue and "
			 "--streams %u needs %u",
			 cfg->ifname, cfg->tx_queues, cfg->streams, cfg->streams);
		return -EOPNOTSUPP;
	}
	if (frame <= AF_XDP_CHUNK_MAX)
		return 0;
	segs = pb_af_xdp_descs(frame, AF_XDP_CHUNK_MAX);
	err = af_xdp_mb_check(frame, segs, reason, len);
	if (err)
		return err;
	return cfg->zerocopy == PB_ON ? af_xdp_zc_check(cfg, frame, segs, reason, len) : 0;
}

static void af_xdp_unbind(struct af_xdp_priv *p)
{
	xsk_socket__delete(p->xsk);
	p->xsk = NULL;
	xsk_umem__delete(p->umem);
	p->umem = NULL;
	p->fd = -1;
}

static void af_xdp_close(struct pb_worker *w)
{
	struct af_xdp_priv *p = w->priv;

	if (!p)
		return;
	af_xdp_unbind(p);
	if (p->area)
		munmap(p->area, p->area_len);
	free(p->chains.descs);
	if (p->prog_ref)
		af_xdp_prog_put();
	free(p);
	w->priv = NULL;
}

/*
 * A socket on queue w->id in zero-copy or copy mode. A failed bind leaves libxdp's UMEM
 * half set up, so every attempt starts from a fresh UMEM registration (the memory stays).
 * EBUSY: the queue's previous socket is still being released; wait, then try again.
 */
static int af_xdp_bind(struct pb_worker *w, struct af_xdp_priv *p, bool zc)
{
	const struct xsk_umem_config ucfg = {
		.fill_size = AF_XDP_FILL_RING,
		.comp_size = p->comp,
		.frame_size = p->chunk,
		.frame_headroom = 0,
	};
	const struct xsk_socket_config scfg = {
		.tx_size = p->ring,
		/* transmit needs no program; libxdp would otherwise load its redirect one */
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
		/* multi-buffer only when a frame needs it: a kernel before 6.6 refuses it */
		.bind_flags = XDP_USE_NEED_WAKEUP | (zc ? XDP_ZEROCOPY : XDP_COPY) |
			      (p->segs > 1 ? XDP_USE_SG : 0),
	};
	struct timespec nap = { 0, 10 * 1000 * 1000 };
	unsigned int waited_ms;
	int err;

	for (waited_ms = 0;; waited_ms += 10) {
		err = xsk_umem__create(&p->umem, p->area, p->area_len, &p->fq, &p->cq, &ucfg);
		if (err) {
			p->umem = NULL;
			pr_err("af_xdp: cannot register the UMEM: %s\n", strerror(-err));
			return err;
		}
		err = xsk_socket__create(&p->xsk, w->cfg->ifname, w->id, p->umem, NULL, &p->tx,
					 &scfg);
		if (!err) {
			p->fd = xsk_socket__fd(p->xsk);
			break;
		}
		p->xsk = NULL;
		af_xdp_unbind(p);
		if (err != -EBUSY || waited_ms >= AF_XDP_BUSY_MS)
			break;
		if (!waited_ms)
			pr_info("af_xdp: %s queue %u is busy (a socket just closed?), retrying\n",
				w->cfg->ifname, w->id);
		nanosleep(&nap, NULL);
	}
	if (!err && waited_ms)
		pr_info("af_xdp: %s queue %u free after %u ms\n", w->cfg->ifname, w->id, waited_ms);
	if (err == -EBUSY)
		pr_err("af_xdp: queue %u of %s stayed busy for %u ms: another AF_XDP socket is "
		       "bound to it\n",
		       w->id, w->cfg->ifname, AF_XDP_BUSY_MS);
	return err;
}

/* Frames submitted that the kernel has not taken off the TX ring yet. */
static bool af_xdp_tx_pending(const struct af_xdp_priv *p)
{
	return __atomic_load_n(p->tx.consumer, __ATOMIC_ACQUIRE) != p->tx.cached_prod;
}

/*
 * Tells the kernel there is work. Zero-copy: only when the ring asks for it (need_wakeup).
 * Copy mode: the kernel transmits only inside this call, so whenever the TX ring holds
 * frames, full or not. A full path (EAGAIN, ENOBUFS), a frame the device dropped (EBUSY) or
 * a link that is down is no error.
 */
static int af_xdp_kick(struct af_xdp_priv *p, struct pb_outcome *o)
{
	const struct timespec nap = { 0, AF_XDP_DROP_NAP_US * 1000 };

	if (p->zc ? !xsk_ring_prod__needs_wakeup(&p->tx) : !af_xdp_tx_pending(p))
		return 0;
	o->calls++;
	if (sendto(p->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) >= 0)
		return 0;
	switch (errno) {
	case EBUSY:
		/*
		 * Copy mode: the device dropped a frame (a veth whose peer's ring is full while
		 * the peer's softirq waits for a CPU) and said so. The kernel still completes
		 * its descriptor; the reap counts that completion as retried, not sent, and
		 * the harness sends another in its place (the drop is in the device's
		 * tx_dropped, netted out). Pausing lets the receiver catch up instead of losing
		 * the next frames too (about 1 % of them on the lab without the pause, almost
		 * none with it, at the same delivered rate).
		 */
		p->busy_drops++;
		o->calls++;
		nanosleep(&nap, NULL);
		return 0;
	case EAGAIN:
	case ENOBUFS:
	case ENETDOWN:
	case EINTR:
		return 0;
	}
	return -errno;
}

/* The probe slots among n completions from idx are free again (any chunk of theirs). */
static void af_xdp_probes_done(struct af_xdp_priv *p, uint32_t idx, uint32_t n)
{
	uint64_t base = (uint64_t)p->nchunks * p->slot;
	uint32_t i;

	for (i = 0; i < n && p->probe_busy; i++) {
		uint64_t addr = *xsk_ring_cons__comp_addr(&p->cq, idx + i);

		if (addr >= base)
			p->probe_busy &= ~(1ull << ((addr - base) / p->slot));
	}
}

/*
 * Slot k's frame, completed and about to go again, takes the stream's next number (a replay's
 * frames are the capture's, never stamped).
 */
static inline void af_xdp_seq(struct pb_worker *w, struct af_xdp_priv *p, uint32_t k)
{
	if (!w->pool->ordered)
		pb_frame_seq_stamp((uint8_t *)p->area + (size_t)k * p->slot +
					   w->pool->frames[k % w->pool->n].payload_off,
				   w->seq++, true);
}

/*
 * A probe: a copy of slot k's frame in a free probe slot, stamped there; its address for the
 * descriptor, or slot k's own when every probe slot is in flight (no probe this time).
 */
static uint64_t af_xdp_stamp(struct pb_worker *w, struct af_xdp_priv *p, uint32_t k)
{
	uint64_t addr = (uint64_t)k * p->slot;
	uint32_t c;
	uint8_t *dst;

	if (p->probe_busy == ~0ull >> (64 - p->nprobe))
		return addr;
	c = (uint32_t)__builtin_ctzll(~p->probe_busy);
	p->probe_busy |= 1ull << c;
	dst = (uint8_t *)p->area + (size_t)(p->nchunks + c) * p->slot;
	memcpy(dst, (uint8_t *)p->area + addr, p->len[k]);
	pb_probe_stamp(&w->probe, dst + w->pool->frames[k % w->pool->n].payload_off, true);
	return (uint64_t)(p->nchunks + c) * p->slot;
}

/*
 * Completions since the last call, into o: sent, less the frames the device dropped and
 * reported (EBUSY), which are retried. Chunks are sent in order: no address to check.
 * Multi-buffer: a completion is one descriptor, and a frame is sent once all of its came back.
 */
static void af_xdp_reap(struct af_xdp_priv *p, struct pb_outcome *o)
{
	uint32_t idx, n, dropped;

	n = xsk_ring_cons__peek(&p->cq, p->comp, &idx);
	if (!n)
		return;
	if (__builtin_expect(p->probe_busy != 0, 0))
		af_xdp_probes_done(p, idx, n);
	xsk_ring_cons__release(&p->cq, n);
	p->inflight -= n;
	if (__builtin_expect(p->segs > 1, 0))
		n = pb_af_xdp_chains_complete(&p->chains, n);
	dropped = n < p->busy_drops ? n : p->busy_drops;
	p->busy_drops -= dropped;
	o->retried += dropped;
	o->sent += n - dropped;
}

/*
 * Zero-copy drivers that transmit only with an XDP program attached say so on the first
 * wakeup (EINVAL from i40e/ixgbe/ice, ENXIO from mlx5): attach the no-op program then, at
 * open, before the clock starts.
 */
static int af_xdp_zc_wakeup(struct pb_worker *w, struct af_xdp_priv *p)
{
	int err;

	if (sendto(p->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) >= 0 ||
	    (errno != EINVAL && errno != ENXIO) || p->prog_ref)
		return 0;
	pr_info("af_xdp: %s wants an XDP program for zero-copy transmit: attaching one\n",
		w->cfg->ifname);
	err = af_xdp_prog_get(w, XDP_FLAGS_DRV_MODE);
	if (err)
		return err;
	if (sendto(p->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) < 0 &&
	    (errno == EINVAL || errno == ENXIO)) {
		err = -errno;
		pr_err("af_xdp: %s refuses zero-copy transmit even with an XDP program: %s\n",
		       w->cfg->ifname, strerror(-err));
		return err;
	}
	return 0;
}

/*
 * The rings: --ring TX descriptors (a power of two, at least a batch), and a completion ring
 * twice that, which bounds the frames in flight so the kernel always has room to complete.
 */
static void af_xdp_rings(struct pb_worker *w, struct af_xdp_priv *p)
{
	uint32_t want = w->cfg->ring ? w->cfg->ring : AF_XDP_RING;

	if (want < w->batch)
		want = w->batch;
	if (want > AF_XDP_RING_MAX)
		want = AF_XDP_RING_MAX;
	for (p->ring = 64; p->ring < want; p->ring <<= 1)
		;
	p->batch = w->batch < p->ring ? w->batch : p->ring;
	p->comp = 2 * p->ring;
}

static int af_xdp_open(struct pb_worker *w)
{
	const struct pb_config *cfg = w->cfg;
	struct af_xdp_priv *p = calloc(1, sizeof(*p));
	struct xdp_options opts = { 0 };
	socklen_t optlen = sizeof(opts);
	bool zc = cfg->zerocopy != PB_OFF;
	unsigned int budget;
	const char *prog;
	uint32_t i;
	int err, n;

	if (!p)
		return -ENOMEM;
	w->priv = p;
	p->fd = -1;
	af_xdp_route_libxdp();
	p->chunk = w->pool->max_len <= 2048 ? 2048 : AF_XDP_CHUNK_MAX;
	p->segs = pb_af_xdp_descs(w->pool->max_len, p->chunk);
	p->slot = p->segs * p->chunk;
	if (p->segs > 1) {
		/* the probe saw the configured size; a replay's longest frame is known here */
		char why[192];

		err = af_xdp_mb_check(w->pool->max_len, p->segs, why, sizeof(why));
		if (err) {
			pr_err("af_xdp: %s\n", why);
			return err;
		}
	}
	af_xdp_rings(w, p);
	if (p->segs > 1) {
		/* a frame takes a descriptor at least: comp entries hold every frame in flight */
		p->chains.descs = calloc(p->comp, 1);
		if (!p->chains.descs)
			return -ENOMEM;
		p->chains.mask = p->comp - 1;
	}
	p->refill = w->pool->ordered && (w->pool->streamed || w->pool->n > AF_XDP_FRAMES);
	/*
	 * a slot for every frame that may be in flight (each carries its own sequence number: one
	 * flow is no longer one chunk), in whole passes of the pool, so that a mix (--imix) goes
	 * out in its proportions
	 */
	i = (p->comp + w->pool->n - 1) / w->pool->n * w->pool->n;
	if (i > AF_XDP_FRAMES)
		i = w->pool->n <= AF_XDP_FRAMES ? AF_XDP_FRAMES / w->pool->n * w->pool->n
						: AF_XDP_FRAMES;
	p->nchunks = p->refill ? (p->comp > AF_XDP_FRAMES ? p->comp : AF_XDP_FRAMES) : i;
	p->cap = p->nchunks < p->comp ? p->nchunks : p->comp;
	if (!p->refill && w->pool->n > AF_XDP_FRAMES)
		pr_warn("af_xdp: %u flows per stream, the UMEM holds %u: only those are sent\n",
			w->pool->n, AF_XDP_FRAMES);

	/*
	 * One UMEM per socket, not one shared by all: each worker thread owns its rings and
	 * chunks outright, so the send loop takes no lock and touches no other core's lines.
	 * The pool's frames are written into the chunks once, here; the area is whole pages.
	 */
	p->nprobe = w->probe.on ? AF_XDP_PROBES : 0;
	p->area_len = ((size_t)(p->nchunks + p->nprobe) * p->slot + AF_XDP_CHUNK_MAX - 1) &
		      ~(size_t)(AF_XDP_CHUNK_MAX - 1);
	p->area = mmap(NULL, p->area_len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (p->area == MAP_FAILED) {
		p->area = NULL;
		return -errno;
	}
	for (i = 0; !p->refill && i < p->nchunks; i++) {
		const struct pb_frame *f = &w->pool->frames[i % w->pool->n];

		memcpy((uint8_t *)p->area + (size_t)i * p->slot, f->data, f->len);
		p->len[i] = (uint16_t)f->len;
	}

	/* a program only when the user asked for one */
	if (cfg->xdp_mode != PB_XDP_AUTO) {
		err = af_xdp_prog_get(w, cfg->xdp_mode == PB_XDP_NATIVE ? XDP_FLAGS_DRV_MODE
									: XDP_FLAGS_SKB_MODE);
		if (err)
			return err;
	}

	/* best first: zero-copy, then copy */
	err = -EOPNOTSUPP;
	if (cfg->zerocopy != PB_OFF && p->segs > 1) {
		char why[192];

		if (af_xdp_zc_check(cfg, w->pool->max_len, p->segs, why, sizeof(why))) {
			if (cfg->zerocopy == PB_ON) {
				pr_err("af_xdp: %s\n", why);
				return -EOPNOTSUPP;
			}
			pr_info("af_xdp: %s queue %u: %s\n", cfg->ifname, w->id, why);
			zc = false;
		}
	}
	if (zc) {
		err = af_xdp_bind(w, p, true);
		if (err == -EBUSY)
			return err; /* said why; copy mode would find the queue as busy */
		if (err && cfg->zerocopy == PB_ON) {
			pr_err("af_xdp: %s queue %u: no zero-copy AF_XDP (%s); the driver lacks it "
			       "or it is not enabled. --zerocopy auto falls back to copy mode\n",
			       cfg->ifname, w->id, strerror(-err));
			return err;
		}
		if (err)
			pr_info("af_xdp: %s queue %u: zero-copy bind failed (%s), trying copy "
				"mode\n",
				cfg->ifname, w->id, strerror(-err));
	}
	if (err) {
		err = af_xdp_bind(w, p, false);
		if (err) {
			if (err != -EBUSY)
				pr_err("af_xdp: cannot bind an AF_XDP socket to %s queue %u: %s\n",
				       cfg->ifname, w->id, strerror(-err));
			return err;
		}
	}

	/* what the kernel gave, not what was asked for */
	if (getsockopt(p->fd, SOL_XDP, XDP_OPTIONS, &opts, &optlen)) {
		err = -errno;
		pr_err("af_xdp: XDP_OPTIONS: %s\n", strerror(-err));
		return err;
	}
	p->zc = opts.flags & XDP_OPTIONS_ZEROCOPY;
	if (cfg->zerocopy == PB_ON && !p->zc) {
		pr_err("af_xdp: %s queue %u: the socket is bound but not in zero-copy mode\n",
		       cfg->ifname, w->id);
		return -EOPNOTSUPP;
	}

	if (p->zc) {
		err = af_xdp_zc_wakeup(w, p);
		if (err)
			return err;
	} else {
		/* Linux >= 6.17: a kick may send a whole batch (in descriptors) instead of 32 */
		budget = p->batch * p->segs;
		if (budget < AF_XDP_KICK_BUDGET)
			budget = AF_XDP_KICK_BUDGET;
		if (budget > p->ring)
			budget = p->ring;
		if (setsockopt(p->fd, SOL_XDP, XDP_MAX_TX_SKB_BUDGET, &budget, sizeof(budget)))
			pr_debug("af_xdp: XDP_MAX_TX_SKB_BUDGET: %s\n", strerror(errno));
	}

	pthread_mutex_lock(&af_xdp_prog.mu);
	prog = p->prog_ref ? af_xdp_mode_name(af_xdp_prog.att.mode) : "none";
	pthread_mutex_unlock(&af_xdp_prog.mu);
	if (p->segs == 1) {
		snprintf(w->mode, sizeof(w->mode), "%s/%s, batch %u, ring %u", prog,
			 p->zc ? "zc" : "copy", p->batch, p->ring);
		return 0;
	}
	/* buffers x chunk size where the column has room, else the buffers a frame alone */
	n = snprintf(w->mode, sizeof(w->mode), "%s/%s, multi-buffer %ux%u, batch %u, ring %u", prog,
		     p->zc ? "zc" : "copy", p->segs, p->chunk, p->batch, p->ring);
	if (n >= (int)sizeof(w->mode))
		n = snprintf(w->mode, sizeof(w->mode), "%s/%s, multi-buffer x%u, batch %u, ring %u",
			     prog, p->zc ? "zc" : "copy", p->segs, p->batch, p->ring);
	return 0;
}

/* Refill: the next frame in order into the slot about to be posted; its length. */
static uint32_t af_xdp_refill(struct pb_worker *w, struct af_xdp_priv *p)
{
	const struct pb_frame *f = &w->pool->frames[p->seq];

	memcpy((uint8_t *)p->area + (size_t)p->next * p->slot, f->data, f->len);
	p->seq = p->seq + 1 == w->pool->n ? 0 : p->seq + 1;
	w->taken++;
	return f->len;
}

/*
 * Multi-buffer: up to frames frames, each a chain of descriptors over its slot's chunks, as
 * many whole chains as the TX ring and the completion ring have room for. How many frames.
 */
static uint32_t af_xdp_post_mb(struct pb_worker *w, struct af_xdp_priv *p, uint32_t frames)
{
	uint32_t room = p->cap - p->inflight, want = 0, n, k, seq, idx, i, free;

	if (!frames || !room)
		return 0;
	free = xsk_prod_nb_free(&p->tx, room);
	if (free < room)
		room = free;
	/* the descriptors the next frames take, so that only whole chains are reserved */
	for (n = 0, k = p->next, seq = p->seq; n < frames; n++) {
		uint32_t len = p->refill ? w->pool->frames[seq].len : p->len[k];
		uint32_t nd = pb_af_xdp_descs(len, p->chunk);

		if (want + nd > room)
			break;
		want += nd;
		k = k + 1 == p->nchunks ? 0 : k + 1;
		seq = seq + 1 == w->pool->n ? 0 : seq + 1;
	}
	if (!n || xsk_ring_prod__reserve(&p->tx, want, &idx) != want)
		return 0;
	for (i = 0; i < n; i++) {
		uint64_t addr = (uint64_t)p->next * p->slot;
		uint32_t len, nd;

		if (__builtin_expect(p->refill, 0)) {
			len = af_xdp_refill(w, p);
		} else {
			af_xdp_seq(w, p, p->next);
			if (pb_probe_due(&w->probe, i))
				addr = af_xdp_stamp(w, p, p->next);
			len = p->len[p->next];
		}
		nd = pb_af_xdp_chain(&p->tx, idx, addr, len, p->chunk);
		idx += nd;
		pb_af_xdp_chains_push(&p->chains, nd);
		p->next = p->next + 1 == p->nchunks ? 0 : p->next + 1;
	}
	xsk_ring_prod__submit(&p->tx, want);
	p->inflight += want;
	return n;
}

/*
 * Reaps completions, writes up to min(budget, batch) frames' descriptors (the frames are in
 * the UMEM already) and kicks. With budget 0 (the harness draining) it only kicks and reaps.
 */
static int af_xdp_send(struct pb_worker *w, unsigned int budget, struct pb_outcome *o)
{
	struct af_xdp_priv *p = w->priv;
	uint32_t idx, i, n = 0, room = budget < p->batch ? budget : p->batch;
	int err;

	af_xdp_reap(p, o);
	if (__builtin_expect(p->segs > 1, 0)) {
		n = af_xdp_post_mb(w, p, room);
		goto kick;
	}
	if (p->cap - p->inflight < room)
		room = p->cap - p->inflight;
	if (room) {
		n = xsk_prod_nb_free(&p->tx, room);
		if (n > room)
			n = room;
	}
	if (n && xsk_ring_prod__reserve(&p->tx, n, &idx) == n) {
		for (i = 0; i < n; i++) {
			struct xdp_desc *d = xsk_ring_prod__tx_desc(&p->tx, idx + i);

			/* slot k holds pool frame k (flows, sizes), written at open */
			d->addr = (uint64_t)p->next * p->slot;
			if (__builtin_expect(p->refill, 0)) {
				d->len = af_xdp_refill(w, p);
			} else {
				af_xdp_seq(w, p, p->next);
				if (pb_probe_due(&w->probe, i))
					d->addr = af_xdp_stamp(w, p, p->next);
				d->len = p->len[p->next];
			}
			d->options = 0;
			p->next = p->next + 1 == p->nchunks ? 0 : p->next + 1;
		}
		xsk_ring_prod__submit(&p->tx, n);
		p->inflight += n;
	} else {
		n = 0;
	}
kick:
	err = af_xdp_kick(p, o);
	if (!err && !o->sent && !o->retried && !n) {
		if (p->zc) {
			/* ring full: sleep until the driver completes something */
			struct pollfd pfd = { .fd = p->fd, .events = POLLOUT };

			o->calls++;
			poll(&pfd, 1, 1);
		} else if (!af_xdp_tx_pending(p)) {
			/* all in the stack: let the softirq that completes them run */
			o->calls++;
			sched_yield();
		}
	}
	o->inflight = p->segs > 1 ? pb_af_xdp_chains_inflight(&p->chains) : p->inflight;
	return err;
}

const struct pb_method pb_method_af_xdp = {
	.name = "af_xdp",
	.help = "AF_XDP socket per queue, UMEM written once, need_wakeup, completion-counted; "
		"zero-copy where the driver has it (batch 64, --ring 256)",
	.flags = PB_M_FRAME | PB_M_NEEDS_RAW | PB_M_ASYNC | PB_M_STREAM | PB_M_SEQ,
	.default_batch = AF_XDP_BATCH,
	.knobs = PB_K_BATCH | PB_K_RING,
	.probe = af_xdp_probe,
	.open = af_xdp_open,
	.send = af_xdp_send,
	.close = af_xdp_close,
	.finish = af_xdp_finish,
};
