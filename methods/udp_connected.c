// SPDX-License-Identifier: MIT
/* udp_connected: a connected UDP socket, one send() per datagram, no route lookup per send. */
#include <errno.h>
#include <stdio.h>

#include "method.h"
#include "sock.h"

static int udp_connected_open(struct pb_worker *w)
{
	struct pb_sock_priv *p;
	int err;

	err = pb_sock_priv_new(w, w->cfg->dstport, &p);
	if (err)
		return err;
	snprintf(w->mode, sizeof(w->mode), "send");
	return pb_udp_socket(w, true, &p->fd);
}

static int udp_connected_send(struct pb_worker *w, unsigned int budget)
{
	const uint8_t *payload = w->frame->data + w->frame->payload_off;
	struct pb_sock_priv *p = w->priv;
	unsigned int i;

	for (i = 0; i < budget; i++) {
		if (send(p->fd, payload, w->frame->payload_len, MSG_DONTWAIT) < 0)
			return pb_send_failed(w, p->fd, errno, i);
	}
	return (int)i;
}

const struct pb_method pb_method_udp_connected = {
	.name = "udp_connected",
	.aliases = { "net_conn" },
	.help = "connected UDP socket, one send() per datagram (no route lookup per send)",
	.default_batch = 64,
	.open = udp_connected_open,
	.send = udp_connected_send,
	.close = pb_sock_priv_close,
};
