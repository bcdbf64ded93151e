// SPDX-License-Identifier: MIT
/* udp_sendto: a plain UDP socket, one sendto() per datagram. The baseline. */
#include <errno.h>
#include <stdio.h>

#include "method.h"
#include "sock.h"

static int udp_sendto_open(struct pb_worker *w)
{
	struct pb_sock_priv *p;
	int err;

	err = pb_sock_priv_new(w, w->cfg->dstport, &p);
	if (err)
		return err;
	snprintf(w->mode, sizeof(w->mode), "sendto");
	return pb_udp_sockets(w, false, p);
}

static int udp_sendto_one(struct pb_worker *w, const struct pb_frame *f, uint32_t i, int *fd)
{
	struct pb_sock_priv *p = w->priv;

	*fd = p->fds[i];
	return sendto(*fd, f->data + f->payload_off, f->payload_len, MSG_DONTWAIT,
		      (struct sockaddr *)&p->dst, p->dstlen) < 0
		       ? errno
		       : 0;
}

static int udp_sendto_send(struct pb_worker *w, unsigned int budget, struct pb_outcome *o)
{
	struct pb_sock_priv *p = w->priv;

	return pb_frame_loop(w, &p->next, budget, o, udp_sendto_one);
}

const struct pb_method pb_method_udp_sendto = {
	.name = "udp_sendto",
	.flags = PB_M_SEQ,
	.aliases = { { "udp_syscall" } },
	.help = "plain UDP socket, one sendto() per datagram (the baseline)",
	.default_batch = 64,
	.open = udp_sendto_open,
	.send = udp_sendto_send,
	.close = pb_sock_priv_close,
};
