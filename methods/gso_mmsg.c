// SPDX-License-Identifier: MIT
/*
 * gso_mmsg: UDP_SEGMENT datagrams, --batch of them per sendmmsg(): gso's one system call per
 * --segments frames becomes one per batch x segments. All datagrams of a call go out on the
 * one socket of the pool frame the call starts at, so flows change per call.
 *
 * Counting follows gso: a datagram the kernel reported a drop in (ENOBUFS) counts as sent
 * in full, since which of its segments were lost is unknown and re-sending it would send
 * the others twice; the device's drop counters say how many went. A short count is
 * classified as sendmmsg does (pb_sock_short_was_drop): a reported drop in datagram k means
 * it was sliced and (partly) sent, so it counts and the next call starts after it; a full
 * socket means it was not, and it goes again.
 *
 * Every datagram of a call is the one GSO buffer, so a latency probe (the call's first frame)
 * is not stamped there: datagram 0 then starts with a stamped copy of its first segment (a
 * second iovec carries the rest), and the buffer stays as it was.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gso.h"
#include "method.h"
#include "sock.h"

#define GSO_MMSG_BATCH 16u /* datagrams per call without --batch: see docs/performance.md */

struct gso_mmsg_priv {
	struct pb_gso g; /* first: pb_gso_close frees the whole struct */
	struct mmsghdr *msgs;
	struct iovec iov;	   /* every datagram is the same buffer */
	struct iovec probe_iov[2]; /* datagram 0 of a call with a probe: the copy, the rest */
	uint8_t *probe_buf;	   /* that copy: one payload, stamped */
	int sndbuf;
};

static void gso_mmsg_close(struct pb_worker *w)
{
	struct gso_mmsg_priv *p = w->priv;

	if (p) {
		free(p->msgs);
		free(p->probe_buf);
	}
	pb_gso_close(w);
}

static int gso_mmsg_open(struct pb_worker *w)
{
	struct gso_mmsg_priv *p;
	unsigned int i;
	int err;

	err = pb_gso_open(w, sizeof(*p));
	p = w->priv;
	if (err)
		return err;
	p->msgs = calloc(w->batch, sizeof(*p->msgs));
	p->probe_buf = malloc(w->cfg->payloadsize);
	if (!p->msgs || !p->probe_buf)
		return -ENOMEM;
	p->iov.iov_base = p->g.buf;
	p->iov.iov_len = p->g.bytes;
	for (i = 0; i < w->batch; i++) {
		p->msgs[i].msg_hdr.msg_iov = &p->iov;
		p->msgs[i].msg_hdr.msg_iovlen = 1;
	}
	p->sndbuf = pb_sock_big_sndbuf(&p->g.s);
	snprintf(w->mode, sizeof(w->mode), "x%u segments, batch %u", p->g.seg, w->batch);
	return 0;
}

/* Datagram 0 of this call (last segments if it is the only one) carries the probe. */
static void gso_mmsg_probe(struct pb_worker *w, struct gso_mmsg_priv *p, uint32_t segs)
{
	size_t one = w->cfg->payloadsize;

	memcpy(p->probe_buf, p->g.buf, one);
	pb_probe_stamp(&w->probe, p->probe_buf, false);
	p->probe_iov[0] = (struct iovec){ p->probe_buf, one };
	p->probe_iov[1] = (struct iovec){ p->g.buf + one, (segs - 1) * one };
	p->msgs[0].msg_hdr.msg_iov = p->probe_iov;
	p->msgs[0].msg_hdr.msg_iovlen = segs > 1 ? 2 : 1;
}

/*
 * Up to batch full datagrams, as many as the budget holds; a budget below one datagram (the
 * end of a --count) is one shorter datagram, sent alone.
 */
static int gso_mmsg_send(struct pb_worker *w, unsigned int budget, struct pb_outcome *o)
{
	struct gso_mmsg_priv *p = w->priv;
	uint32_t seg = p->g.seg, k = budget / seg, last = seg;
	int fd = p->g.s.fds[p->g.s.next], n, err;

	if (k > w->batch)
		k = w->batch;
	if (!k) {
		k = 1;
		last = budget;
	}
	p->iov.iov_len = (size_t)last * w->cfg->payloadsize;
	if (pb_probe_due(&w->probe, 0))
		gso_mmsg_probe(w, p, k == 1 ? last : seg);
	n = sendmmsg(fd, p->msgs, k, MSG_DONTWAIT);
	err = n < 0 ? pb_send_errno(errno) : 0;
	p->iov.iov_len = p->g.bytes;
	if (p->msgs[0].msg_hdr.msg_iov != &p->iov) {
		p->msgs[0].msg_hdr.msg_iov = &p->iov;
		p->msgs[0].msg_hdr.msg_iovlen = 1;
		/* a reported drop hit some segment of datagram 0, which one is unknown: it went */
		if (err && err != -ENOBUFS)
			pb_probe_unsent(&w->probe);
	}
	o->calls = 1;
	if (n < 0) {
		if (err == -EAGAIN)
			pb_sock_wait(fd, o);
		if (err != -ENOBUFS)
			return err;
		n = 1; /* the first datagram was sliced and (partly) dropped: it went */
	} else if ((uint32_t)n < k && n > 0 &&
		   pb_sock_short_was_drop(fd, p->sndbuf, p->g.bytes, o)) {
		n++; /* datagram n went too, with a reported drop in it */
	}
	o->sent = (uint32_t)(n - 1) * seg + ((uint32_t)n == k ? last : seg);
	pb_sock_advance(w, &p->g.s);
	return 0;
}

const struct pb_method pb_method_gso_mmsg = {
	.name = "gso_mmsg",
	.help = "UDP_SEGMENT datagrams of --segments, a --batch of them per sendmmsg() "
		"(default 16)",
	.probe = pb_gso_probe,
	.default_batch = GSO_MMSG_BATCH,
	.knobs = PB_K_BATCH | PB_K_SEGMENTS,
	.open = gso_mmsg_open,
	.send = gso_mmsg_send,
	.close = gso_mmsg_close,
};
