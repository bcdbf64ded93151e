// SPDX-License-Identifier: MIT
/*
 * af_packet: AF_PACKET with a TPACKET_V3 TX ring (mmap) and PACKET_QDISC_BYPASS. Every slot
 * is written once at open; sending re-posts slots (length + status) and kicks the kernel
 * once per batch. A frame counts as sent when the kernel hands its slot back
 * (TP_STATUS_AVAILABLE), i.e. when the skb built from it was freed after transmission.
 * The same ring, TPACKET_V2 (af_packet_v2) or through the interface's qdisc
 * (af_packet_qdisc), is what methods/af_packet.h shares with those two.
 *
 * Each slot carries a virtio_net_hdr whose hdr_len covers the whole frame (PACKET_VNET_HDR):
 * the kernel then copies small frames into the skb's linear area instead of attaching ring
 * pages as fragments, which a veth (or any path that must own the data) would otherwise copy
 * again page by page (skb_copy_ubufs). Without PACKET_VNET_HDR the ring works as before.
 */
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include "af_packet.h"
#include "log.h"
#include "method.h"
#include "sock.h"

/* deep enough to keep a queue busy, small enough to stay in L2 */
#define AF_PACKET_RING_BYTES (1u << 20)
#define AF_PACKET_BLOCK	     (1u << 16)
#define AF_PACKET_LINEAR_MAX (2048u) /* larger frames stay page fragments: no big copies */
#define AF_PACKET_PROBES     64u     /* stamped slots in flight at once (--latency) */

struct af_packet_priv {
	int fd;
	uint8_t *ring;
	size_t ring_len;
	uint32_t frame_size, frame_nr;
	uint32_t data_off;   /* where the kernel reads a TX slot's frame: its header's length */
	uint32_t status_off; /* where a slot's tp_status is: V2 and V3 headers differ */
	uint32_t head;	     /* next slot to post */
	uint32_t tail;	     /* oldest posted slot */
	uint32_t inflight;   /* posted, not yet handed back */
	uint32_t pending;    /* posted since the last successful kick */
	bool refused;	     /* the last kick's frame was dropped and put back (ENOBUFS) */
	uint32_t vnet;	     /* sizeof(struct virtio_net_hdr), or 0 */
	int version;
	uint32_t seq; /* an ordered pool whose passes do not fill the ring: the next frame */
	bool refill;  /* such a pool: each slot is rewritten with the next frame as it is posted */
	/* slots stamped as probes, oldest first, to put back as built once handed back */
	uint32_t probe_slot[AF_PACKET_PROBES];
	uint32_t probe_head, nprobes;
};

static uint8_t *af_packet_slot(struct af_packet_priv *p, uint32_t i)
{
	return p->ring + (size_t)i * p->frame_size;
}

static uint32_t *af_packet_status(struct af_packet_priv *p, uint32_t i)
{
	return (uint32_t *)(af_packet_slot(p, i) + p->status_off);
}

void pb_af_packet_close(struct pb_worker *w)
{
	struct af_packet_priv *p = w->priv;

	if (!p)
		return;
	if (p->ring && p->ring != MAP_FAILED)
		munmap(p->ring, p->ring_len);
	if (p->fd >= 0)
		close(p->fd);
	free(p);
	w->priv = NULL;
}

/* Writes slot i's header for frame bytes (virtio header included) and makes it available. */
static void af_packet_slot_init(struct af_packet_priv *p, int version, uint32_t i, uint32_t bytes)
{
	if (version == TPACKET_V3) {
		struct tpacket3_hdr *h = (struct tpacket3_hdr *)af_packet_slot(p, i);

		h->tp_len = bytes;
		h->tp_snaplen = bytes;
		h->tp_next_offset = 0;
	} else {
		struct tpacket2_hdr *h = (struct tpacket2_hdr *)af_packet_slot(p, i);

		h->tp_len = bytes;
		h->tp_snaplen = bytes;
	}
	*af_packet_status(p, i) = TP_STATUS_AVAILABLE;
}

/*
 * --ring slots (at least one per pool frame), or AF_PACKET_RING_BYTES of them, in whole
 * blocks: how many blocks that is. A replay's pool is not held whole: its slots are written
 * in order as they are posted (af_packet_refill), so a capture of 900k frames does not take
 * 900k slots of the longest frame's size (1.8 GiB for a 500 MiB file).
 */
static unsigned int af_packet_blocks(const struct pb_worker *w, uint32_t frame_size)
{
	size_t ring = w->cfg->ring ? (size_t)w->cfg->ring * frame_size : AF_PACKET_RING_BYTES;

	if (!w->pool->ordered && ring < (size_t)frame_size * w->pool->n)
		ring = (size_t)frame_size * w->pool->n;
	return (unsigned int)((ring + AF_PACKET_BLOCK - 1) / AF_PACKET_BLOCK);
}

/* Frames of more than one length (--imix). */
static bool af_packet_mixed(const struct pb_pool *pool)
{
	uint32_t i;

	for (i = 1; i < pool->n; i++)
		if (pool->frames[i].len != pool->frames[0].len)
			return true;
	return false;
}

int pb_af_packet_open(struct pb_worker *w, int version, bool bypass)
{
	struct af_packet_priv *p = calloc(1, sizeof(*p));
	struct tpacket_req3 req = { 0 };
	struct sockaddr_ll sll = { 0 };
	int one = 1, ver = version;
	const struct pb_pool *pool = w->pool;
	uint32_t i, need;

	if (!p)
		return -ENOMEM;
	w->priv = p;
	/* protocol 0: this socket never receives, so our own frames are not looped back to it */
	p->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (p->fd < 0)
		return -errno;
	if (setsockopt(p->fd, SOL_PACKET, PACKET_VERSION, &ver, sizeof(ver)))
		return -errno;
	/* without the bypass every frame goes through dev_queue_xmit() and the root qdisc */
	if (bypass && setsockopt(p->fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one)))
		return -errno;
	/* the kernel reads a TX slot's frame right after its header (no PACKET_TX_HAS_OFF) */
	if (version == TPACKET_V3) {
		p->data_off = TPACKET3_HDRLEN - sizeof(struct sockaddr_ll);
		p->status_off = offsetof(struct tpacket3_hdr, tp_status);
	} else {
		p->data_off = TPACKET2_HDRLEN - sizeof(struct sockaddr_ll);
		p->status_off = offsetof(struct tpacket2_hdr, tp_status);
	}
	/*
	 * No PACKET_LOSS: with it the kernel would mark a malformed slot available again, so
	 * it would count as sent. Without it the slot comes back TP_STATUS_WRONG_FORMAT and
	 * the run ends with that error.
	 */
	/* must precede the ring; optional: without it frames go out as page fragments */
	if (pool->max_len <= AF_PACKET_LINEAR_MAX &&
	    !setsockopt(p->fd, SOL_PACKET, PACKET_VNET_HDR, &one, sizeof(one)))
		p->vnet = sizeof(struct virtio_net_hdr);

	need = p->data_off + p->vnet + pool->max_len;
	for (p->frame_size = TPACKET_ALIGNMENT; p->frame_size < need; p->frame_size <<= 1)
		;
	if (p->frame_size > AF_PACKET_BLOCK)
		return -EMSGSIZE;
	/* the V3 request starts with V2's, which is all a V2 ring reads */
	req.tp_block_size = AF_PACKET_BLOCK;
	req.tp_block_nr = af_packet_blocks(w, p->frame_size);
	req.tp_frame_size = p->frame_size;
	req.tp_frame_nr = req.tp_block_nr * (AF_PACKET_BLOCK / p->frame_size);
	if (setsockopt(p->fd, SOL_PACKET, PACKET_TX_RING, &req, sizeof(req))) {
		int err = -errno;

		pr_err("af_packet: PACKET_TX_RING (TPACKET_V%d): %s\n", version, strerror(-err));
		return err;
	}
	p->frame_nr = req.tp_frame_nr;
	p->ring_len = (size_t)req.tp_block_size * req.tp_block_nr;
	p->ring = mmap(NULL, p->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, p->fd,
		       0);
	if (p->ring == MAP_FAILED) {
		p->ring = NULL;
		return -errno;
	}

	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = w->cfg->ifindex;
	if (bind(p->fd, (struct sockaddr *)&sll, sizeof(sll)))
		return -errno;

	/* the pool is written once into the slots, in order; sending only re-posts slots */
	for (i = 0; i < p->frame_nr; i++) {
		uint8_t *data = af_packet_slot(p, i) + p->data_off;
		const struct pb_frame *f = &pool->frames[i % pool->n];

		if (p->vnet) {
			/* no offloads asked for; hdr_len: copy the whole frame into the skb head */
			struct virtio_net_hdr vh = { .hdr_len = (uint16_t)f->len };

			memcpy(data, &vh, sizeof(vh));
		}
		memcpy(data + p->vnet, f->data, f->len);
		af_packet_slot_init(p, version, i, p->vnet + f->len);
	}
	p->version = version;
	/*
	 * a streamed window's frames change under the slots: always copied as posted; so are a
	 * replay's and a mix's (--imix) when the ring is not a whole number of pool passes: slot
	 * i % n would send the first frames of the pool more often than the rest, and a mix's
	 * bytes would not be its average's
	 */
	p->refill = (pool->ordered || af_packet_mixed(pool)) &&
		    (pool->streamed || p->frame_nr % pool->n);
	snprintf(w->mode, sizeof(w->mode), "v%d, %u slots, %s%s, batch %u",
		 version == TPACKET_V3 ? 3 : 2, p->frame_nr, bypass ? "bypass" : "qdisc",
		 p->vnet ? ", linear" : "", w->batch);
	return 0;
}

static int af_packet_open(struct pb_worker *w)
{
	return pb_af_packet_open(w, TPACKET_V3, true);
}

static uint8_t *af_packet_frame(struct af_packet_priv *p, uint32_t i)
{
	return af_packet_slot(p, i) + p->data_off + p->vnet;
}

/*
 * An ordered pool (a replay) whose frames do not fill the ring a whole number of times, or a
 * streamed one: slot i no longer holds frame i % n after the first lap, so the slot about to
 * be posted is written with the next frame in order.
 */
static void af_packet_refill(struct pb_worker *w, struct af_packet_priv *p)
{
	const struct pb_frame *f = &w->pool->frames[p->seq];
	uint8_t *data = af_packet_slot(p, p->head) + p->data_off;

	if (p->vnet) {
		struct virtio_net_hdr vh = { .hdr_len = (uint16_t)f->len };

		memcpy(data, &vh, sizeof(vh));
	}
	memcpy(data + p->vnet, f->data, f->len);
	af_packet_slot_init(p, p->version, p->head, p->vnet + f->len);
	p->seq = p->seq + 1 == w->pool->n ? 0 : p->seq + 1;
	w->taken++;
}

/* A probe's slot came back: it goes out as an ordinary frame next time. */
static void af_packet_unprobe(struct pb_worker *w, struct af_packet_priv *p, uint32_t slot)
{
	pb_probe_restore(af_packet_frame(p, slot), &w->pool->frames[slot % w->pool->n]);
	p->probe_head = (p->probe_head + 1) % AF_PACKET_PROBES;
	p->nprobes--;
}

/* Slots the kernel has handed back since the last call. */
static uint32_t af_packet_reap(struct pb_worker *w, struct af_packet_priv *p, int *err)
{
	uint32_t done = 0;

	while (p->inflight) {
		uint32_t st = __atomic_load_n(af_packet_status(p, p->tail), __ATOMIC_ACQUIRE);

		if (st & TP_STATUS_WRONG_FORMAT) {
			*err = -EINVAL;
			break;
		}
		if (st != TP_STATUS_AVAILABLE)
			break;
		if (__builtin_expect(p->nprobes, 0) && p->probe_slot[p->probe_head] == p->tail)
			af_packet_unprobe(w, p, p->tail);
		p->tail = (p->tail + 1) % p->frame_nr;
		p->inflight--;
		done++;
	}
	return done;
}

static int af_packet_kick(struct af_packet_priv *p, struct pb_outcome *o)
{
	uint32_t *last;

	if (!p->pending)
		return 0;
	o->calls++;
	if (send(p->fd, NULL, 0, MSG_DONTWAIT) < 0) {
		int err = pb_send_errno(errno);

		/*
		 * ENOBUFS: the device dropped one frame; the kernel put its slot back to
		 * SEND_REQUEST and stopped, so that frame goes out again on the next kick.
		 */
		if (err == -ENOBUFS)
			o->retried++;
		p->refused = err == -ENOBUFS;
		if (err == -EAGAIN || err == -ENOBUFS)
			return 0;
		pr_err("af_packet: the kernel refused a ring slot: %s%s\n", strerror(-err),
		       err == -EMSGSIZE ? " (a frame longer than the interface's MTU?)" : "");
		return err;
	}
	/*
	 * A non-blocking send() returns what it took before the socket's send buffer filled,
	 * which is not all of it when the frames before complete late (a device under test on
	 * another CPU): keep kicking until the last slot posted has left SEND_REQUEST.
	 */
	p->refused = false;
	last = af_packet_status(p, (p->head + p->frame_nr - 1) % p->frame_nr);
	if (__atomic_load_n(last, __ATOMIC_ACQUIRE) != TP_STATUS_SEND_REQUEST)
		p->pending = 0;
	return 0;
}

/*
 * Reaps the slots the kernel handed back, posts up to min(budget, batch) more and kicks.
 * With budget 0 (the harness draining) it only kicks what is pending and reaps. While the
 * device refuses the ring's next frame (a carrier that is down drops every frame: ENOBUFS),
 * only that frame is tried again: slots posted meanwhile would all leave at once when the
 * link comes back, a burst of the whole outage's frames.
 */
int pb_af_packet_send(struct pb_worker *w, unsigned int budget, struct pb_outcome *o)
{
	struct af_packet_priv *p = w->priv;
	uint32_t room = p->refused ? 0 : budget < w->batch ? budget : w->batch, n = 0;
	int err = 0;

	o->sent = af_packet_reap(w, p, &err);
	if (err)
		return err;
	while (n < room && p->inflight < p->frame_nr) {
		const struct pb_frame *f = &w->pool->frames[p->head % w->pool->n];

		/* the slot written first, so that a probe's stamp lands on the frame it goes in */
		if (__builtin_expect(p->refill, 0)) {
			f = &w->pool->frames[p->seq];
			af_packet_refill(w, p);
		}
		/* the slot is back from the kernel: its frame takes the next number (a replay's
		 * frames are the capture's, never stamped) */
		if (!w->pool->ordered)
			pb_frame_seq_stamp(af_packet_frame(p, p->head) + f->payload_off, w->seq++,
					   true);
		/* a probe is stamped in its ring slot, put back when the slot comes back */
		if (pb_probe_due(&w->probe, n) && p->nprobes < AF_PACKET_PROBES) {
			pb_probe_stamp(&w->probe, af_packet_frame(p, p->head) + f->payload_off,
				       true);
			p->probe_slot[(p->probe_head + p->nprobes++) % AF_PACKET_PROBES] = p->head;
		}
		__atomic_store_n(af_packet_status(p, p->head), TP_STATUS_SEND_REQUEST,
				 __ATOMIC_RELEASE);
		p->head = (p->head + 1) % p->frame_nr;
		p->inflight++;
		p->pending++;
		n++;
	}
	err = af_packet_kick(p, o);
	if (!err && !o->sent && !n) {
		/* ring full (or draining): sleep until the kernel hands a slot back */
		struct pollfd pfd = { .fd = p->fd, .events = POLLOUT };

		o->calls++;
		poll(&pfd, 1, 1);
		o->sent = af_packet_reap(w, p, &err);
	}
	o->inflight = p->inflight;
	return err;
}

#ifdef PB_GATE_SLOW_af_packet /* scripts/gate-check.sh's injected slowdown only */
#include "gate_slowdown.h"
PB_GATE_WRAP(pb_af_packet_send)
#define AF_PACKET_SEND pb_af_packet_send_gate
#else
#define AF_PACKET_SEND pb_af_packet_send
#endif

const struct pb_method pb_method_af_packet = {
	.name = "af_packet",
	.help = "AF_PACKET TPACKET_V3 TX ring (mmap), PACKET_QDISC_BYPASS, a batch per send()",
	.flags = PB_M_FRAME | PB_M_NEEDS_RAW | PB_M_ASYNC | PB_M_REPOST | PB_M_STREAM | PB_M_SEQ,
	.default_batch = 256,
	.knobs = PB_K_BATCH | PB_K_RING,
	.open = af_packet_open,
	.send = AF_PACKET_SEND,
	.close = pb_af_packet_close,
};
