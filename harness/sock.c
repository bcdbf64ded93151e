// SPDX-License-Identifier: MIT
/* Socket helpers shared by the socket methods. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>

#include "clock.h"
#include "log.h"
#include "sock.h"

void pb_sock_recverr(int fd, int family)
{
	int one = 1;

	/*
	 * IP_RECVERR makes the kernel report local drops (ENOBUFS) to a UDP or raw sender
	 * instead of hiding them, so what we count as sent is what the stack took.
	 */
	if (family == AF_INET)
		setsockopt(fd, IPPROTO_IP, IP_RECVERR, &one, sizeof(one));
	else
		setsockopt(fd, IPPROTO_IPV6, IPV6_RECVERR, &one, sizeof(one));
}

socklen_t pb_sockaddr(const struct pb_addr *addr, uint16_t port, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (addr->family == AF_INET6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(port);
		s6->sin6_addr = addr->v6;
		return sizeof(*s6);
	}
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

	s4->sin_family = AF_INET;
	s4->sin_port = htons(port);
	s4->sin_addr = addr->v4;
	return sizeof(*s4);
}

int pb_udp_socket(const struct pb_worker *w, uint16_t srcport, bool connect_it, int *fd)
{
	const struct pb_config *cfg = w->cfg;
	struct sockaddr_storage ss;
	socklen_t len;
	int s, err, one = 1;

	s = socket(cfg->srcip.family, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_UDP);
	if (s < 0)
		return -errno;
	pb_sock_recverr(s, cfg->srcip.family);
	pb_sock_set_sndbuf(s);
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* only ever the chosen interface, whatever the routing table says */
	if (setsockopt(s, SOL_SOCKET, SO_BINDTODEVICE, cfg->ifname, strlen(cfg->ifname) + 1)) {
		err = -errno;
		pr_err("bind to device %s: %s\n", cfg->ifname, strerror(-err));
		goto fail;
	}

	len = pb_sockaddr(&cfg->srcip, srcport, &ss);
	if (bind(s, (struct sockaddr *)&ss, len)) {
		err = -errno;
		pr_err("bind to source port %u: %s\n", srcport, strerror(-err));
		goto fail;
	}
	if (connect_it) {
		len = pb_sockaddr(&cfg->dstip, cfg->dstport, &ss);
		if (connect(s, (struct sockaddr *)&ss, len)) {
			err = -errno;
			goto fail;
		}
	}
	*fd = s;
	return 0;
fail:
	close(s);
	return err;
}

int pb_send_errno(int err)
{
	switch (err) {
	case ECONNREFUSED: /* an ICMP error queued by IP_RECVERR: not ours to stop on */
	case EHOSTUNREACH:
	case ENETUNREACH:
		return -EAGAIN;
	default:
		return -err; /* EAGAIN, ENOBUFS, EINTR: the harness retries them */
	}
}

void pb_sock_wait(int fd, struct pb_outcome *o)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	double t = pb_now();

	o->calls++;
	poll(&p, 1, 10);
	/* the harness counts the time a full socket held the sender back from here */
	o->wait_ns += (uint64_t)((pb_now() - t) * 1e9);
}

/* After the call that carried a probe copy: it went, it was dropped and we were told, or not. */
static void sock_probe_done(struct pb_probe *p, int slot, int err)
{
	pb_probe_release(p, slot);
	if (err == ENOBUFS)
		pb_probe_dropped(p);
	else if (err)
		pb_probe_unsent(p);
}

int pb_sock_set_sndbuf(int fd)
{
	int want = PB_SOCK_SNDBUF, got = 0;
	socklen_t len = sizeof(got);

	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &want, sizeof(want)))
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &want, sizeof(want));
	getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &got, &len);
	return got;
}

int pb_sock_big_sndbuf(const struct pb_sock_priv *s)
{
	int got = 0;
	uint32_t i;

	for (i = 0; i < s->nsocks; i++)
		got = pb_sock_set_sndbuf(s->socks[i]);
	return got;
}

bool pb_sock_short_was_drop(int fd, int sndbuf, size_t next_len, struct pb_outcome *o)
{
	char buf[256];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	bool icmp = false;
	int outq = 0;

	/* an ICMP error (port unreachable, ...) stopped it: the datagram never left */
	for (o->calls++; recvmsg(fd, &mh, MSG_ERRQUEUE | MSG_DONTWAIT) >= 0; o->calls++)
		icmp = true;
	if (icmp)
		return false;
	o->calls++;
	if (!ioctl(fd, SIOCOUTQ, &outq) && (size_t)outq + next_len + PB_SOCK_FULL >= (size_t)sndbuf)
		return false; /* the socket was full */
	return true;
}

int pb_frame_loop(struct pb_worker *w, uint32_t *next, unsigned int budget, struct pb_outcome *o,
		  pb_send_one_fn one)
{
	unsigned int n = budget < w->batch ? budget : w->batch, a;
	uint32_t at = *next;
	int fd = -1, err = 0;

	for (a = 0; a < n; a++) {
		const struct pb_frame *f = &w->pool->frames[at];
		int slot = -1;

		/*
		 * the kernel copies it in the call: the pool frame carries the number meanwhile (a
		 * replay's frames are the capture's, never stamped)
		 */
		if (!w->pool->ordered)
			pb_frame_seq_stamp(f->data + f->payload_off, w->seq, true);
		/* a probe goes as a stamped copy: the pool frame is sent again later */
		if (pb_probe_due(&w->probe, a)) {
			const struct pb_frame *c = pb_probe_copy(&w->probe, f, &slot);

			f = c ? c : f;
		}
		err = one(w, f, at, &fd);
		o->calls++;
		if (slot >= 0)
			sock_probe_done(&w->probe, slot, err);
		if (!err) {
			o->sent++;
			w->taken++;
			w->seq++;
			at = at + 1 == w->pool->n ? 0 : at + 1;
			continue;
		}
		err = pb_send_errno(err);
		if (err == -ENOBUFS) {
			/* the device dropped it and said so: not sent; the same frame goes again */
			o->retried++;
			err = 0;
			continue;
		}
		break;
	}
	*next = at;
	if (err == -EAGAIN && fd >= 0)
		pb_sock_wait(fd, o);
	/* what went is in o either way; a full socket is counted (send_errors) even then */
	return err;
}

int pb_sock_priv_new(struct pb_worker *w, uint16_t port, struct pb_sock_priv **out)
{
	struct pb_sock_priv *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	p->fd = -1;
	p->dstlen = pb_sockaddr(&w->cfg->dstip, port, &p->dst);
	w->priv = p;
	*out = p;
	return 0;
}

void pb_sock_priv_close(struct pb_worker *w)
{
	struct pb_sock_priv *p = w->priv;
	uint32_t i;

	if (!p)
		return;
	for (i = 0; i < p->nsocks; i++)
		close(p->socks[i]);
	if (!p->socks && p->fd >= 0)
		close(p->fd);
	free(p->socks);
	free(p->fds);
	free(p);
	w->priv = NULL;
}

int pb_udp_sockets(struct pb_worker *w, bool connect_it, struct pb_sock_priv *p)
{
	const struct pb_pool *pool = w->pool;
	int *by_port, err = 0;
	uint32_t i;

	p->fds = malloc(sizeof(*p->fds) * pool->n);
	p->socks = malloc(sizeof(*p->socks) * pool->n);
	by_port = malloc(sizeof(*by_port) * 65536);
	if (!p->fds || !p->socks || !by_port) {
		err = -ENOMEM;
		goto out;
	}
	memset(by_port, 0xff, sizeof(*by_port) * 65536); /* -1: no socket for that port yet */
	for (i = 0; i < pool->n; i++) {
		uint16_t port = pool->frames[i].srcport;

		if (by_port[port] < 0) {
			err = pb_udp_socket(w, port, connect_it, &by_port[port]);
			if (err)
				goto out;
			p->socks[p->nsocks++] = by_port[port];
		}
		p->fds[i] = by_port[port];
	}
	p->fd = p->fds[0];
out:
	free(by_port);
	return err;
}

int pb_sock_index(const struct pb_worker *w, const struct pb_sock_priv *p, int *idx)
{
	int *slot, maxfd = 0;
	uint32_t i;

	for (i = 0; i < p->nsocks; i++)
		maxfd = p->socks[i] > maxfd ? p->socks[i] : maxfd;
	slot = malloc(sizeof(*slot) * ((size_t)maxfd + 1));
	if (!slot)
		return -ENOMEM;
	for (i = 0; i < p->nsocks; i++)
		slot[p->socks[i]] = (int)i;
	for (i = 0; i < w->pool->n; i++)
		idx[i] = slot[p->fds[i]];
	free(slot);
	return 0;
}
