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
	return pb_udp_sockets(w, true, p);
}

static int udp_connected_one(struct pb_worker *w, const struct pb_frame *f, uint32_t i, int *fd)
{
	struct pb_sock_priv *p = w->priv;

	*fd = p->fds[i];
	return send(*fd, f->data + f->payload_off, f->payload_len, MSG_DONTWAIT) < 0 ? errno : 0;
}

static int udp_connected_send(struct pb_worker *w, unsigned int budget, struct pb_outcome *o)
{
	struct pb_sock_priv *p = w->priv;

	return pb_frame_loop(w, &p->next, budget, o, udp_connected_one);
}

#ifdef PB_GATE_SLOW_udp_connected /* scripts/gate-check.sh's injected slowdown only */
#include "gate_slowdown.h"
PB_GATE_WRAP(udp_connected_send)
#define UDP_CONNECTED_SEND udp_connected_send_gate
#else
#define UDP_CONNECTED_SEND udp_connected_send
#endif

const struct pb_method pb_method_udp_connected = {
	.name = "udp_connected",
	.flags = PB_M_SEQ,
	.aliases = { { "net_conn" } },
	.help = "connected UDP socket, one send() per datagram (no route lookup per send)",
	.default_batch = 64,
	.open = udp_connected_open,
	.send = UDP_CONNECTED_SEND,
	.close = pb_sock_priv_close,
};
