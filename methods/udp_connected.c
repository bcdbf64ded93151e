// SPDX-License-Identifier: MIT
/* udp_connected: a connected UDP socket, one send() per datagram, no route lookup per send. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "method.h"
#include "sock.h"

static int udp_connected_open(struct pb_worker *w)
{
	int *fd = malloc(sizeof(*fd));
	int err;

	if (!fd)
		return -ENOMEM;
	*fd = -1;
	w->priv = fd;
	err = pb_udp_socket(w, true, fd);
	snprintf(w->mode, sizeof(w->mode), "send");
	return err;
}

static int udp_connected_send(struct pb_worker *w, unsigned int budget)
{
	const uint8_t *payload = w->frame->data + w->frame->payload_off;
	int fd = *(int *)w->priv;
	unsigned int i;

	for (i = 0; i < budget; i++) {
		if (send(fd, payload, w->frame->payload_len, MSG_DONTWAIT) < 0)
			return pb_send_failed(w, fd, errno, i);
	}
	return (int)i;
}

static void udp_connected_close(struct pb_worker *w)
{
	int *fd = w->priv;

	if (!fd)
		return;
	if (*fd >= 0)
		close(*fd);
	free(fd);
	w->priv = NULL;
}

const struct pb_method pb_method_udp_connected = {
	.name = "udp_connected",
	.aliases = { "net_conn" },
	.help = "connected UDP socket, one send() per datagram (no route lookup per send)",
	.default_batch = 64,
	.open = udp_connected_open,
	.send = udp_connected_send,
	.close = udp_connected_close,
};
