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
 */
struct sendmmsg_priv {
	struct pb_sock_priv s; /* first: pb_sock_priv_close frees the whole struct */
	unsigned int n;
	struct iovec *iov;
	struct mmsghdr *msgs;
};

static void sendmmsg_close(struct pb_worker *w)
{
	struct sendmmsg_priv *p = w->priv;

	if (!p)
		return;
	free(p->msgs);
	free(p->iov);
	pb_sock_priv_close(w);
}

static int sendmmsg_open(struct pb_worker *w)
{
	struct sendmmsg_priv *p = calloc(1, sizeof(*p));
	unsigned int i;

	if (!p)
		return -ENOMEM;
	w->priv = p;
	p->s.fd = -1;
	p->n = w->cfg->batch ? w->cfg->batch : 64;
	p->msgs = calloc(p->n, sizeof(*p->msgs));
	p->iov = calloc(p->n, sizeof(*p->iov));
	if (!p->msgs || !p->iov)
		return -ENOMEM;
	for (i = 0; i < p->n; i++) {
		p->msgs[i].msg_hdr.msg_iov = &p->iov[i];
		p->msgs[i].msg_hdr.msg_iovlen = 1;
	}
	snprintf(w->mode, sizeof(w->mode), "batch %u", p->n);
	return pb_udp_sockets(w, true, &p->s);
}

static int sendmmsg_send(struct pb_worker *w, unsigned int budget)
{
	struct sendmmsg_priv *p = w->priv;
	const struct pb_pool *pool = w->pool;
	unsigned int k = budget < p->n ? budget : p->n, i;
	uint32_t at = p->s.next;
	int fd = p->s.fds[at], n;

	for (i = 0; i < k; i++) {
		const struct pb_frame *f = &pool->frames[at];

		p->iov[i].iov_base = f->data + f->payload_off;
		p->iov[i].iov_len = f->payload_len;
		at = at + 1 == pool->n ? 0 : at + 1;
	}
	n = sendmmsg(fd, p->msgs, k, MSG_DONTWAIT);
	if (n < 0)
		return pb_send_failed(w, fd, errno, 0);
	p->s.next = (uint32_t)((p->s.next + (uint32_t)n) % pool->n);
	return n;
}

const struct pb_method pb_method_sendmmsg = {
	.name = "sendmmsg",
	.help = "UDP socket, a batch of datagrams per sendmmsg() (--batch, default 64)",
	.default_batch = 64,
	.open = sendmmsg_open,
	.send = sendmmsg_send,
	.close = sendmmsg_close,
};
