// SPDX-License-Identifier: MIT
/* sendmmsg: a UDP socket, a batch of datagrams per system call. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "method.h"
#include "sock.h"

struct sendmmsg_priv {
	int fd;
	unsigned int n;
	struct iovec iov;
	struct mmsghdr *msgs;
};

static void sendmmsg_close(struct pb_worker *w)
{
	struct sendmmsg_priv *p = w->priv;

	if (!p)
		return;
	if (p->fd >= 0)
		close(p->fd);
	free(p->msgs);
	free(p);
	w->priv = NULL;
}

static int sendmmsg_open(struct pb_worker *w)
{
	struct sendmmsg_priv *p = calloc(1, sizeof(*p));
	unsigned int i;

	if (!p)
		return -ENOMEM;
	w->priv = p;
	p->fd = -1;
	p->n = w->cfg->batch ? w->cfg->batch : 64;
	p->msgs = calloc(p->n, sizeof(*p->msgs));
	if (!p->msgs)
		return -ENOMEM;
	/* every message points at the same payload: the batch is written once, here */
	p->iov.iov_base = (void *)(w->frame->data + w->frame->payload_off);
	p->iov.iov_len = w->frame->payload_len;
	for (i = 0; i < p->n; i++) {
		p->msgs[i].msg_hdr.msg_iov = &p->iov;
		p->msgs[i].msg_hdr.msg_iovlen = 1;
	}
	snprintf(w->mode, sizeof(w->mode), "batch %u", p->n);
	return pb_udp_socket(w, true, &p->fd);
}

static int sendmmsg_send(struct pb_worker *w, unsigned int budget)
{
	struct sendmmsg_priv *p = w->priv;
	int n;

	n = sendmmsg(p->fd, p->msgs, budget < p->n ? budget : p->n, MSG_DONTWAIT);
	return n >= 0 ? n : pb_send_failed(w, p->fd, errno, 0);
}

const struct pb_method pb_method_sendmmsg = {
	.name = "sendmmsg",
	.help = "UDP socket, a batch of datagrams per sendmmsg() (--batch, default 64)",
	.default_batch = 64,
	.open = sendmmsg_open,
	.send = sendmmsg_send,
	.close = sendmmsg_close,
};
