// SPDX-License-Identifier: MIT
/* raw_socket: a raw IP socket (IPPROTO_RAW) sending the IP packet we built, one per sendto(). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <netinet/in.h>

#include "log.h"
#include "method.h"
#include "sock.h"

#ifndef IPV6_HDRINCL
#define IPV6_HDRINCL 36
#endif

static int raw_socket_open(struct pb_worker *w)
{
	const struct pb_config *cfg = w->cfg;
	struct pb_sock_priv *p;
	int one = 1, err;

	err = pb_sock_priv_new(w, 0, &p);
	if (err)
		return err;
	/* IPPROTO_RAW implies IP_HDRINCL for IPv4: the kernel sends our header as built */
	p->fd = socket(cfg->dstip.family, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_RAW);
	if (p->fd < 0)
		return -errno;
	if (cfg->dstip.family == AF_INET6 &&
	    setsockopt(p->fd, IPPROTO_IPV6, IPV6_HDRINCL, &one, sizeof(one)))
		return -errno;
	/* like the UDP methods: a drop the device reports is a drop, not a sent frame */
	pb_sock_recverr(p->fd, cfg->dstip.family);
	pb_sock_set_sndbuf(p->fd);
	if (setsockopt(p->fd, SOL_SOCKET, SO_BINDTODEVICE, cfg->ifname, strlen(cfg->ifname) + 1))
		return -errno;
	snprintf(w->mode, sizeof(w->mode), "hdrincl");
	return 0;
}

static int raw_socket_one(struct pb_worker *w, const struct pb_frame *f, uint32_t i, int *fd)
{
	struct pb_sock_priv *p = w->priv;

	*fd = p->fd;
	return sendto(p->fd, f->data + f->l3_off, f->unpadded - f->l3_off, MSG_DONTWAIT,
		      (struct sockaddr *)&p->dst, p->dstlen) < 0
		       ? errno
		       : 0;
}

static int raw_socket_send(struct pb_worker *w, unsigned int budget, struct pb_outcome *o)
{
	struct pb_sock_priv *p = w->priv;

	return pb_frame_loop(w, &p->next, budget, o, raw_socket_one);
}

const struct pb_method pb_method_raw_socket = {
	.name = "raw_socket",
	.help = "raw IP socket (IPPROTO_RAW), our own IP header, one sendto() per packet",
	.flags = PB_M_NEEDS_RAW | PB_M_STREAM | PB_M_SEQ,
	.default_batch = 64,
	.open = raw_socket_open,
	.send = raw_socket_send,
	.close = pb_sock_priv_close,
};
