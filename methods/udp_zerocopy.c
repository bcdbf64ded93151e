// SPDX-License-Identifier: MIT
/*
 * udp_zerocopy: connected UDP sockets with SO_ZEROCOPY, one send(MSG_ZEROCOPY) per datagram:
 * the kernel pins the payload's pages instead of copying them, and says on the socket's error
 * queue when it let go of them. That notification, not the send, is when a datagram counts as
 * sent (PB_M_ASYNC). It pays for large payloads only: pinning costs more than copying a
 * small one. gso_zerocopy (methods/udp_zerocopy.h) sends UDP_SEGMENT datagrams the same way.
 *
 * Each socket numbers its zerocopy sends 0, 1, 2, ...; a notification names a range of them
 * (ee_info .. ee_data), and says whether the kernel copied after all (SO_EE_CODE_ZEROCOPY_
 * COPIED; -v logs the share). On the lab it says it did not, but the receiving veth's XDP
 * path copies every frame into its own pages anyway, so there this measures the pinning and
 * the bookkeeping, not the saving. What each number carried is kept until it completes.
 *
 * ENOBUFS has two causes. The device dropped the datagram and said so (IP_RECVERR): it had
 * its number, so its notification is already queued when send() returns; not sent, retried
 * (GSO: counts as sent in full, gso's rule). Or the socket's option memory, which holds the
 * notifications, was full: no number was used; the send is simply tried again later. The
 * error queue, read right then, tells which. Keeping at most ZC_INFLIGHT sends in flight per
 * socket keeps the second one rare.
 *
 * A latency probe (a call's first frame) is a stamped copy (pb_probe_copy), since the kernel
 * reads the pages until the notification: the copy is released then. With GSO it goes as a
 * datagram of one segment, so the shared GSO buffer is never written.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "log.h"
#include "method.h"
#include "udp_zerocopy.h"

#ifndef SO_ZEROCOPY
#define SO_ZEROCOPY 60
#endif
#ifndef MSG_ZEROCOPY
#define MSG_ZEROCOPY 0x4000000
#endif
#define ZC_INFLIGHT 64u /* zerocopy sends in flight per socket: a power of two */
#define ZC_BATCH    16u /* datagrams per send() call without --batch */

/*
 * One socket's numbering: sends numbered and completed, and what each one in flight carries,
 * in slot k % ZC_INFLIGHT (notifications may complete them out of order, so a slot is reused
 * only once its send completed).
 */
struct zc_sock {
	uint32_t next;		    /* the number the next zerocopy send gets */
	uint32_t done;		    /* sends whose notification arrived */
	uint32_t seen;		    /* one past the highest number a notification named */
	int8_t frames[ZC_INFLIGHT]; /* frames send k counts when it completes; -1: a free slot */
	int8_t probe[ZC_INFLIGHT];  /* the probe copy send k reads (-1: none), freed with it */
};

struct zc_priv {
	struct pb_gso g; /* first: pb_gso_close frees the whole struct (buf NULL without GSO) */
	struct zc_sock *zs;
	int *sock_of;	   /* pool frame i -> its socket's index in g.s.socks */
	uint32_t inflight; /* frames sent, not yet notified */
	uint64_t notified, copied;
};

static int zc_probe_socket(const struct pb_config *cfg, char *reason, size_t len)
{
	int fd, one = 1, err = 0;

	fd = socket(cfg->srcip.family, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_UDP);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one))) {
		err = -errno;
		snprintf(reason, len, "UDP sockets take no SO_ZEROCOPY here (%s; needs 5.0)",
			 strerror(-err));
	}
	close(fd);
	return err ? -EOPNOTSUPP : 0;
}

int pb_zc_probe(const struct pb_config *cfg, bool gso, char *reason, size_t len)
{
	int err = gso ? pb_gso_probe(cfg, reason, len) : 0;

	return err ? err : zc_probe_socket(cfg, reason, len);
}

void pb_zc_close(struct pb_worker *w)
{
	struct zc_priv *p = w->priv;

	if (!p)
		return;
	if (p->notified)
		pr_info("%s: the kernel copied %llu of %llu zerocopy sends%s\n",
			p->g.buf ? "gso_zerocopy" : "udp_zerocopy", (unsigned long long)p->copied,
			(unsigned long long)p->notified,
			p->copied == p->notified ? " (no zero-copy on this path)" : "");
	free(p->zs);
	free(p->sock_of);
	pb_gso_close(w);
}

/* Each pool frame's socket as an index into g.s.socks. */
static int zc_index(struct pb_worker *w, struct zc_priv *p)
{
	uint32_t i;

	p->sock_of = malloc(sizeof(*p->sock_of) * w->pool->n);
	p->zs = calloc(p->g.s.nsocks, sizeof(*p->zs));
	if (!p->sock_of || !p->zs)
		return -ENOMEM;
	for (i = 0; i < p->g.s.nsocks; i++) {
		memset(p->zs[i].frames, 0xff, sizeof(p->zs[i].frames));
		memset(p->zs[i].probe, 0xff, sizeof(p->zs[i].probe));
	}
	return pb_sock_index(w, &p->g.s, p->sock_of);
}

int pb_zc_open(struct pb_worker *w, bool gso)
{
	struct zc_priv *p;
	uint32_t i;
	int one = 1, err;

	err = pb_udp_open(w, sizeof(*p), gso);
	p = w->priv;
	if (err)
		return err;
	err = zc_index(w, p);
	if (err)
		return err;
	for (i = 0; i < p->g.s.nsocks; i++)
		if (setsockopt(p->g.s.socks[i], SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)))
			return -errno;
	if (gso)
		snprintf(w->mode, sizeof(w->mode), "msg_zerocopy x%u segments, batch %u", p->g.seg,
			 w->batch);
	else
		snprintf(w->mode, sizeof(w->mode), "msg_zerocopy, batch %u", w->batch);
	return 0;
}

/* Sends [lo, hi] of socket z completed: what they carried counts as sent now. */
static void zc_completed(struct pb_worker *w, struct zc_priv *p, struct zc_sock *z, uint32_t lo,
			 uint32_t hi, bool copied, struct pb_outcome *o)
{
	uint32_t k;

	for (k = lo; k != hi + 1; k++) {
		int8_t *slot = &z->frames[k % ZC_INFLIGHT], *probe = &z->probe[k % ZC_INFLIGHT];

		if (*slot < 0)
			continue; /* not a number we used: nothing to count twice */
		if (*probe >= 0) {
			pb_probe_release(&w->probe, *probe);
			*probe = -1;
		}
		o->sent += (uint32_t)*slot;
		p->inflight -= (uint32_t)*slot;
		*slot = -1;
		z->done++;
	}
	if ((int32_t)(hi + 1 - z->seen) > 0)
		z->seen = hi + 1;
	p->notified += hi - lo + 1;
	p->copied += copied ? hi - lo + 1 : 0;
}

/* Reads socket j's error queue empty: its notifications, counted into o. */
static void zc_reap_one(struct pb_worker *w, struct zc_priv *p, uint32_t j, struct pb_outcome *o)
{
	int fd = p->g.s.socks[j];

	for (;;) {
		char ctl[CMSG_SPACE(sizeof(struct sock_extended_err) +
				    sizeof(struct sockaddr_in6))];
		struct msghdr mh = { .msg_control = ctl, .msg_controllen = sizeof(ctl) };
		struct cmsghdr *c;

		o->calls++;
		if (recvmsg(fd, &mh, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			return;
		for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
			const struct sock_extended_err *ee = (const void *)CMSG_DATA(c);

			if (!((c->cmsg_level == SOL_IP && c->cmsg_type == IP_RECVERR) ||
			      (c->cmsg_level == SOL_IPV6 && c->cmsg_type == IPV6_RECVERR)))
				continue;
			/* anything else (an ICMP error) is not ours to count */
			if (ee->ee_errno || ee->ee_origin != SO_EE_ORIGIN_ZEROCOPY)
				continue;
			zc_completed(w, p, &p->zs[j], ee->ee_info, ee->ee_data,
				     ee->ee_code & SO_EE_CODE_ZEROCOPY_COPIED, o);
		}
	}
}

static void zc_reap(struct pb_worker *w, struct zc_priv *p, struct pb_outcome *o)
{
	uint32_t j;

	for (j = 0; j < p->g.s.nsocks; j++)
		if (p->zs[j].done != p->zs[j].next)
			zc_reap_one(w, p, j, o);
}

/* Waits (up to 1 ms) for a notification on the first socket with sends in flight. */
static void zc_wait(struct zc_priv *p, struct pb_outcome *o)
{
	uint32_t j;

	for (j = 0; j < p->g.s.nsocks; j++) {
		struct pollfd pfd = { .fd = p->g.s.socks[j], .events = 0 };

		if (p->zs[j].done == p->zs[j].next)
			continue;
		o->calls++;
		poll(&pfd, 1, 1); /* POLLERR: the error queue has something */
		return;
	}
}

/*
 * After ENOBUFS on socket j: whether that send used number z->next, i.e. the device dropped
 * it (its notification is queued by now), rather than finding the option memory full.
 */
static bool zc_was_drop(struct pb_worker *w, struct zc_priv *p, uint32_t j, uint32_t frames,
			int probe, struct pb_outcome *o)
{
	struct zc_sock *z = &p->zs[j];
	int8_t *slot = &z->frames[z->next % ZC_INFLIGHT];

	*slot = (int8_t)frames; /* what it counts if it was numbered and completes */
	z->probe[z->next % ZC_INFLIGHT] = (int8_t)probe;
	p->inflight += frames;
	z->next++;
	zc_reap_one(w, p, j, o);
	if ((int32_t)(z->seen - z->next) >= 0)
		return true;
	z->next--; /* no number was used: the option memory was full */
	p->inflight -= frames;
	*slot = -1;
	z->probe[z->next % ZC_INFLIGHT] = -1;
	return false;
}

/*
 * Up to batch datagrams (GSO: of --segments frames; a shorter last one for the end of a
 * --count), each one send(MSG_ZEROCOPY) on its flow's socket, after reaping notifications.
 * With budget 0 (the harness draining) it only reaps, or waits for a notification.
 */
int pb_zc_send(struct pb_worker *w, unsigned int budget, struct pb_outcome *o)
{
	struct zc_priv *p = w->priv;
	uint32_t seg = p->g.seg, left = budget, a;
	int err = 0;

	zc_reap(w, p, o);
	for (a = 0; a < w->batch && left; a++) {
		uint32_t i = p->g.s.next, j = p->sock_of[i], frames = left < seg ? left : seg;
		struct zc_sock *z = &p->zs[j];
		const struct pb_frame *f = &w->pool->frames[i];
		const void *buf = p->g.buf ? p->g.buf : f->data + f->payload_off;
		size_t len = p->g.buf ? (size_t)frames * w->cfg->payloadsize : f->payload_len;
		int probe = -1;

		if (z->frames[z->next % ZC_INFLIGHT] >= 0)
			break; /* ZC_INFLIGHT sends of this socket in flight: wait for one */
		if (pb_probe_due(&w->probe, budget - left)) {
			const struct pb_frame *c = pb_probe_copy(&w->probe, f, &probe);

			if (c) {
				buf = c->data + c->payload_off;
				len = c->payload_len;
				frames = 1;
			}
		}
		o->calls++;
		if (send(p->g.s.fds[i], buf, len, MSG_ZEROCOPY | MSG_DONTWAIT) >= 0) {
			z->probe[z->next % ZC_INFLIGHT] = (int8_t)probe;
			z->frames[z->next++ % ZC_INFLIGHT] = (int8_t)frames;
			p->inflight += frames;
			left -= frames;
			pb_sock_advance(w, &p->g.s);
			continue;
		}
		err = pb_send_errno(errno);
		/*
		 * A reported drop: a GSO datagram was sliced and (partly) sent, so it counts in
		 * full when its notification comes (already, as a rule); a plain one was not,
		 * counts nothing then, and the same frame goes again.
		 */
		if (err == -ENOBUFS && zc_was_drop(w, p, j, p->g.buf ? frames : 0, probe, o)) {
			if (probe >= 0)
				pb_probe_dropped(&w->probe);
			err = 0;
			if (p->g.buf) {
				left -= frames;
				pb_sock_advance(w, &p->g.s);
			} else {
				o->retried++;
			}
			continue;
		}
		if (probe >= 0) {
			pb_probe_release(&w->probe, probe);
			pb_probe_unsent(&w->probe);
		}
		if (err == -EAGAIN)
			pb_sock_wait(p->g.s.fds[i], o);
		break;
	}
	/* all the sockets' slots in flight, or the option memory full: wait for notifications */
	if ((!a || err == -ENOBUFS) && !o->sent && p->inflight)
		zc_wait(p, o);
	if (err == -ENOBUFS)
		err = -EAGAIN; /* the option memory was full: try again once notifications came */
	o->inflight = p->inflight;
	return err;
}

static int udp_zerocopy_probe(const struct pb_config *cfg, char *reason, size_t len)
{
	return pb_zc_probe(cfg, false, reason, len);
}

static int udp_zerocopy_open(struct pb_worker *w)
{
	return pb_zc_open(w, false);
}

const struct pb_method pb_method_udp_zerocopy = {
	.name = "udp_zerocopy",
	.help = "connected UDP socket, send(MSG_ZEROCOPY) per datagram, counted when the error "
		"queue says the kernel let go (for large payloads)",
	.flags = PB_M_ASYNC,
	.default_batch = ZC_BATCH,
	.knobs = PB_K_BATCH,
	.probe = udp_zerocopy_probe,
	.open = udp_zerocopy_open,
	.send = pb_zc_send,
	.close = pb_zc_close,
};
