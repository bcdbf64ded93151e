// SPDX-License-Identifier: MIT
/*
 * gso: a UDP socket with UDP_SEGMENT: one sendmsg() carries --segments datagrams, which the
 * kernel (or the NIC) slices into wire frames. Counted in segments, never in calls.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/udp.h>

#include "gso.h"
#include "log.h"
#include "method.h"

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif

int pb_gso_probe(const struct pb_config *cfg, char *reason, size_t len)
{
	int fd, val = (int)cfg->payloadsize, err = 0;

	if (cfg->imix) {
		snprintf(reason, len, "--imix: the segments of one GSO send all have one size");
		return -EOPNOTSUPP;
	}
	/* here, not in option checking: lists, benchmarks and scenarios reach it too */
	if ((uint64_t)cfg->payloadsize * cfg->segments > PB_UDP_MAX_PAYLOAD) {
		snprintf(reason, len,
			 "--payloadsize %u x --segments %u is more than a UDP datagram's %u bytes",
			 cfg->payloadsize, cfg->segments, PB_UDP_MAX_PAYLOAD);
		return -EOPNOTSUPP;
	}
	fd = socket(cfg->srcip.family, SOCK_DGRAM, IPPROTO_UDP);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_UDP, UDP_SEGMENT, &val, sizeof(val))) {
		err = -errno;
		snprintf(reason, len, "the kernel has no UDP_SEGMENT (%s)", strerror(-err));
	}
	close(fd);
	return err ? -EOPNOTSUPP : 0;
}

void pb_gso_close(struct pb_worker *w)
{
	struct pb_gso *p = w->priv;

	if (!p)
		return;
	free(p->buf);
	pb_sock_priv_close(w);
}

int pb_gso_open(struct pb_worker *w, size_t size)
{
	const struct pb_config *cfg = w->cfg;
	struct pb_gso *p = calloc(1, size);
	int val = (int)cfg->payloadsize, err;
	uint32_t i;

	if (!p)
		return -ENOMEM;
	w->priv = p;
	p->s.fd = -1;
	p->seg = cfg->segments;
	p->bytes = (size_t)p->seg * cfg->payloadsize;
	p->buf = malloc(p->bytes);
	if (!p->buf)
		return -ENOMEM;
	/* each segment becomes its own datagram, so each carries the signature */
	for (i = 0; i < p->seg; i++)
		memcpy(p->buf + (size_t)i * cfg->payloadsize,
		       w->frame->data + w->frame->payload_off, cfg->payloadsize);
	err = pb_udp_sockets(w, true, &p->s);
	if (err)
		return err;
	for (i = 0; i < p->s.nsocks; i++)
		if (setsockopt(p->s.socks[i], SOL_UDP, UDP_SEGMENT, &val, sizeof(val)))
			return -errno;
	snprintf(w->mode, sizeof(w->mode), "x%u segments", p->seg);
	return 0;
}

int pb_udp_open(struct pb_worker *w, size_t size, bool gso)
{
	struct pb_gso *p;

	if (gso)
		return pb_gso_open(w, size);
	p = calloc(1, size);
	if (!p)
		return -ENOMEM;
	w->priv = p;
	p->s.fd = -1;
	p->seg = 1;
	return pb_udp_sockets(w, true, &p->s);
}

static int gso_open(struct pb_worker *w)
{
	return pb_gso_open(w, sizeof(struct pb_gso));
}

/*
 * ENOBUFS on a GSO send means at least one of its segments was dropped and reported, but
 * not which or how many (the stack segments before the device and returns the last
 * segment's fate). Re-sending the datagram would send the others twice, so its segments
 * count as sent and the device's drop counters tell how many were lost: accounted stays
 * exact, and delivered shows the loss.
 */
static int gso_send(struct pb_worker *w, unsigned int budget, struct pb_outcome *o)
{
	struct pb_gso *p = w->priv;
	uint32_t n = budget < p->seg ? budget : p->seg, probe = pb_probe_in(&w->probe, n), i;
	int fd = p->s.fds[p->s.next], err;
	ssize_t ret;

	/* each segment its own number: the kernel copies the buffer in the call */
	for (i = 0; i < n; i++)
		pb_frame_seq_stamp(p->buf + (size_t)i * w->cfg->payloadsize, w->seq + i, false);
	/* a probe is one segment of the datagram, stamped in the buffer and put back after */
	if (probe != PB_PROBE_NONE)
		pb_probe_stamp(&w->probe, p->buf + (size_t)probe * w->cfg->payloadsize, false);
	/* a short last call (for --count) is simply a smaller GSO datagram */
	o->calls = 1;
	ret = send(fd, p->buf, (size_t)n * w->cfg->payloadsize, MSG_DONTWAIT);
	err = ret < 0 ? pb_send_errno(errno) : 0;
	if (probe != PB_PROBE_NONE) {
		memcpy(p->buf + (size_t)probe * w->cfg->payloadsize,
		       w->frame->data + w->frame->payload_off, PB_PROBE_LEN);
		/* a reported drop hit some segment, which one is unknown: the probe went */
		if (err && err != -ENOBUFS)
			pb_probe_unsent(&w->probe);
	}
	if (!err || err == -ENOBUFS) {
		pb_sock_advance(w, &p->s);
		o->sent = n;
		w->seq += n;
		return 0;
	}
	if (err == -EAGAIN)
		pb_sock_wait(fd, o);
	if (err == -EINVAL && n > 1)
		pr_err("gso: the kernel refused %u segments per send (its limit may be lower)\n",
		       n);
	return err;
}

const struct pb_method pb_method_gso = {
	.name = "gso",
	.help = "UDP socket with UDP_SEGMENT: --segments datagrams per sendmsg(), counted as "
		"frames",
	.flags = PB_M_SEQ,
	.probe = pb_gso_probe,
	.default_batch = 64,
	.knobs = PB_K_SEGMENTS,
	.open = gso_open,
	.send = gso_send,
	.close = pb_gso_close,
};
