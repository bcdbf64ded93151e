// SPDX-License-Identifier: MIT
/* sendmmsg: a UDP socket, a batch of datagrams per system call. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "method.h"
#include "sock.h"

/*
 * A socket's source port is fixed, so with --flows each call goes out on the next frame's
 * socket: flows vary per batch here, not per datagram; sizes (--imix) vary per datagram.
 * A short count is classified by pb_sock_short_was_drop() (sock.h).
 */
struct sendmmsg_priv {
	struct pb_sock_priv s; /* first: pb_sock_priv_close frees the whole struct */
	/*
	 * two a datagram: its first PB_FRAME_SEQ_LEN bytes from hdr (the signature and its own
	 * sequence number), the rest from the pool frame, which one batch may hold many times
	 */
	struct iovec *iov;
	uint8_t (*hdr)[PB_FRAME_SEQ_LEN];
	struct mmsghdr *msgs;
	int sndbuf; /* what the kernel gave, for the short-count rule */
};

static void sendmmsg_close(struct pb_worker *w)
{
	struct sendmmsg_priv *p = w->priv;

	if (!p)
		return;
	free(p->msgs);
	free(p->iov);
	free(p->hdr);
	pb_sock_priv_close(w);
}

static int sendmmsg_open(struct pb_worker *w)
{
	struct sendmmsg_priv *p = calloc(1, sizeof(*p));
	unsigned int i;
	int err;

	if (!p)
		return -ENOMEM;
	w->priv = p;
	p->s.fd = -1;
	p->msgs = calloc(w->batch, sizeof(*p->msgs));
	p->iov = calloc(2 * (size_t)w->batch, sizeof(*p->iov));
	p->hdr = calloc(w->batch, sizeof(*p->hdr));
	if (!p->msgs || !p->iov || !p->hdr)
		return -ENOMEM;
	for (i = 0; i < w->batch; i++)
		p->msgs[i].msg_hdr.msg_iov = &p->iov[2 * i];
	snprintf(w->mode, sizeof(w->mode), "batch %u", w->batch);
	err = pb_udp_sockets(w, true, &p->s);
	if (err)
		return err;
	p->sndbuf = pb_sock_big_sndbuf(&p->s);
	return 0;
}

/*
 * After a batch that carried a probe copy: n datagrams went, and the next one was dropped
 * and reported when drop. Only datagram 0 of a batch is ever the probe.
 */
static void sendmmsg_probe_done(struct pb_worker *w, int slot, uint32_t n, bool drop)
{
	pb_probe_release(&w->probe, slot);
	if (w->probe.stamped < n)
		return;
	if (w->probe.stamped == n && drop)
		pb_probe_dropped(&w->probe);
	else
		pb_probe_unsent(&w->probe);
}

static int sendmmsg_send(struct pb_worker *w, unsigned int budget, struct pb_outcome *o)
{
	struct sendmmsg_priv *p = w->priv;
	const struct pb_pool *pool = w->pool;
	unsigned int k = budget < w->batch ? budget : w->batch, i;
	uint32_t at = p->s.next;
	int fd = p->s.fds[at], n, err, slot = -1;
	bool drop;

	for (i = 0; i < k; i++) {
		const struct pb_frame *f = &pool->frames[at];
		struct iovec *v = &p->iov[2 * i];
		uint8_t *pl = f->data + f->payload_off;

		p->msgs[i].msg_hdr.msg_iovlen = 1;
		v->iov_base = pl;
		v->iov_len = f->payload_len;
		/* a probe goes as a stamped copy: one pool frame may be in the batch many times */
		if (pb_probe_due(&w->probe, i)) {
			const struct pb_frame *c = pb_probe_copy(&w->probe, f, &slot);

			if (c)
				v->iov_base = c->data + c->payload_off;
		} else if ((pl[2] | PB_SIG_PACED) == (PB_SIG_KIND_SEQ | PB_SIG_PACED)) {
			/* its own number, without a copy of the frame (the kernel sums it) */
			memcpy(p->hdr[i], pl, PB_FRAME_SEQ_LEN);
			pb_frame_seq_stamp(p->hdr[i], w->seq + i, false);
			v[0].iov_base = p->hdr[i];
			v[0].iov_len = PB_FRAME_SEQ_LEN;
			v[1].iov_base = pl + PB_FRAME_SEQ_LEN;
			v[1].iov_len = f->payload_len - PB_FRAME_SEQ_LEN;
			p->msgs[i].msg_hdr.msg_iovlen = 2;
		}
		at = at + 1 == pool->n ? 0 : at + 1;
	}
	n = sendmmsg(fd, p->msgs, k, MSG_DONTWAIT);
	o->calls = 1;
	if (n < 0) {
		err = pb_send_errno(errno);
		if (slot >= 0)
			sendmmsg_probe_done(w, slot, 0, err == -ENOBUFS);
		if (err == -ENOBUFS) {
			o->retried = 1; /* the first datagram was dropped, and we were told */
			return 0;
		}
		if (err == -EAGAIN)
			pb_sock_wait(fd, o);
		return err;
	}
	o->sent = (uint32_t)n;
	/* the ones not taken go again next call, with the same numbers */
	w->seq += (uint32_t)n;
	drop = (unsigned int)n < k && n > 0 &&
	       pb_sock_short_was_drop(fd, p->sndbuf,
				      pool->frames[(p->s.next + (uint32_t)n) % pool->n].payload_len,
				      o);
	if (drop)
		o->retried = 1;
	if (slot >= 0)
		sendmmsg_probe_done(w, slot, (uint32_t)n, drop);
	/* the datagram that failed (if any) goes again first in the next call */
	p->s.next = (uint32_t)((p->s.next + (uint32_t)n) % pool->n);
	return 0;
}

#ifdef PB_GATE_SLOW_sendmmsg /* scripts/gate-check.sh's injected slowdown only */
#include "gate_slowdown.h"
PB_GATE_WRAP(sendmmsg_send)
#define SENDMMSG_SEND sendmmsg_send_gate
#else
#define SENDMMSG_SEND sendmmsg_send
#endif

const struct pb_method pb_method_sendmmsg = {
	.name = "sendmmsg",
	.aliases = { { "pkt_conn", 128 } }, /* go-pktgen's WriteBatch: 128 a call */
	.help = "UDP socket, a batch of datagrams per sendmmsg() (--batch, default 64)",
	.flags = PB_M_SEQ,
	.default_batch = 64,
	.knobs = PB_K_BATCH,
	.open = sendmmsg_open,
	.send = SENDMMSG_SEND,
	.close = sendmmsg_close,
};
