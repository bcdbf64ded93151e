// SPDX-License-Identifier: MIT
/* udp_sendto: a plain UDP socket, one sendto() per datagram. The baseline. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "method.h"
#include "sock.h"

struct udp_sendto_priv {
	int fd;
	struct sockaddr_storage dst;
	socklen_t dstlen;
};

static int udp_sendto_open(struct pb_worker *w)
{
	struct udp_sendto_priv *p = calloc(1, sizeof(*p));
	int err;

	if (!p)
		return -ENOMEM;
	w->priv = p;
	p->fd = -1;
	p->dstlen = pb_sockaddr(&w->cfg->dstip, w->cfg->dstport, &p->dst);
	err = pb_udp_socket(w, false, &p->fd);
	snprintf(w->mode, sizeof(w->mode), "sendto");
	return err;
}

static int udp_sendto_send(struct pb_worker *w, unsigned int budget)
{
	struct udp_sendto_priv *p = w->priv;
	const uint8_t *payload = w->frame->data + w->frame->payload_off;
	unsigned int i;

	for (i = 0; i < budget; i++) {
		if (sendto(p->fd, payload, w->frame->payload_len, MSG_DONTWAIT,
			   (struct sockaddr *)&p->dst, p->dstlen) < 0)
			return pb_send_failed(w, p->fd, errno, i);
	}
	return (int)i;
}

static void udp_sendto_close(struct pb_worker *w)
{
	struct udp_sendto_priv *p = w->priv;

	if (!p)
		return;
	if (p->fd >= 0)
		close(p->fd);
	free(p);
	w->priv = NULL;
}

const struct pb_method pb_method_udp_sendto = {
	.name = "udp_sendto",
	.aliases = { "udp_syscall", "pkt_conn" },
	.help = "plain UDP socket, one sendto() per datagram (the baseline)",
	.default_batch = 64,
	.open = udp_sendto_open,
	.send = udp_sendto_send,
	.close = udp_sendto_close,
};
