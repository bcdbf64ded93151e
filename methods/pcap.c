// SPDX-License-Identifier: MIT
/*
 * pcap: libpcap's pcap_inject() on an activated handle, as a libpcap user would send. The
 * handle is told to ignore outgoing frames and given a filter that matches nothing, so it
 * does not capture its own sends.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pcap/pcap.h>
#include <linux/if_packet.h>
#include <sys/socket.h>

#include "log.h"
#include "method.h"
#include "sock.h"

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING 23
#endif

struct pcap_m_priv {
	pcap_t *pcap;
	int fd;	       /* the handle's socket, to wait on when it is full */
	uint32_t next; /* the next pool frame */
};

static void pcap_m_close(struct pb_worker *w)
{
	struct pcap_m_priv *p = w->priv;

	if (!p)
		return;
	if (p->pcap)
		pcap_close(p->pcap);
	free(p);
	w->priv = NULL;
}

static int pcap_m_open(struct pb_worker *w)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	struct bpf_program none;
	struct pcap_m_priv *priv;
	int one = 1, rc;
	pcap_t *p;

	priv = calloc(1, sizeof(*priv));
	if (!priv)
		return -ENOMEM;
	w->priv = priv;
	p = pcap_create(w->cfg->ifname, errbuf);
	if (!p) {
		pr_err("pcap: %s\n", errbuf);
		return -ENODEV;
	}
	priv->pcap = p;
	/* the receive side of this handle is unused: keep it as small as libpcap allows */
	pcap_set_snaplen(p, 64);
	pcap_set_buffer_size(p, 1 << 16);
	pcap_set_immediate_mode(p, 1);
	rc = pcap_activate(p);
	if (rc < 0) {
		pr_err("pcap: activate %s: %s\n", w->cfg->ifname, pcap_geterr(p));
		return rc == PCAP_ERROR_PERM_DENIED ? -EPERM : -EIO;
	}
	priv->fd = pcap_get_selectable_fd(p);
	pb_sock_set_sndbuf(priv->fd); /* as every socket method's (sock.h) */
	if (setsockopt(priv->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one)))
		pcap_setdirection(p, PCAP_D_IN);
	if (!pcap_compile(p, &none, "less 1", 1, PCAP_NETMASK_UNKNOWN)) {
		pcap_setfilter(p, &none);
		pcap_freecode(&none);
	}
	snprintf(w->mode, sizeof(w->mode), "inject");
	return 0;
}

static int pcap_m_one(struct pb_worker *w, const struct pb_frame *f, uint32_t i, int *fd)
{
	struct pcap_m_priv *p = w->priv;

	*fd = p->fd;
	errno = 0;
	if (pcap_inject(p->pcap, f->data, f->len) >= 0)
		return 0;
	if (!errno)
		pr_err("pcap: inject: %s\n", pcap_geterr(p->pcap));
	return errno ? errno : EIO;
}

static int pcap_m_send(struct pb_worker *w, unsigned int budget, struct pb_outcome *o)
{
	struct pcap_m_priv *p = w->priv;

	return pb_frame_loop(w, &p->next, budget, o, pcap_m_one);
}

const struct pb_method pb_method_pcap = {
	.name = "pcap",
	.aliases = { { "af_pcap" } },
	.help = "libpcap pcap_inject() on an activated handle that ignores its own sends",
	.flags = PB_M_FRAME | PB_M_NEEDS_RAW | PB_M_STREAM | PB_M_SEQ,
	.default_batch = 64,
	.open = pcap_m_open,
	.send = pcap_m_send,
	.close = pcap_m_close,
};
