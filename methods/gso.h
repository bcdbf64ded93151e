/* SPDX-License-Identifier: MIT */
/*
 * What the UDP_SEGMENT (GSO) methods share (gso, gso_mmsg, io_uring_gso, gso_zerocopy): UDP
 * sockets with UDP_SEGMENT set to the payload size, and one buffer of --segments payloads,
 * each with the signature, that one send hands over as one datagram for the kernel to slice.
 * All segments of one send share its socket's source port, so with --flows the flow changes
 * per send (the next pool frame's socket), not per segment. Counted in segments.
 */
#ifndef PB_GSO_H
#define PB_GSO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "method.h"
#include "sock.h"

struct pb_gso {
	struct pb_sock_priv s; /* first: pb_sock_priv_close frees the whole struct */
	uint8_t *buf;	       /* --segments copies of the payload */
	size_t bytes;	       /* seg x payload: one full datagram */
	uint32_t seg;	       /* --segments; 1 without GSO (pb_udp_open) */
};

/* UDP_SEGMENT exists, and payload x segments fits a datagram (and no --imix). */
int pb_gso_probe(const struct pb_config *cfg, char *reason, size_t len);
/*
 * w->priv = a zeroed struct of size bytes that starts with a struct pb_gso, whose sockets
 * and buffer are set up; the Mode says the segments. 0 or -errno (w->priv set even then).
 */
int pb_gso_open(struct pb_worker *w, size_t size);
/*
 * For methods with and without GSO (io_uring, udp_zerocopy): pb_gso_open when gso, else the
 * same struct with one plain connected UDP socket per flow, buf NULL and seg 1.
 */
int pb_udp_open(struct pb_worker *w, size_t size, bool gso);
/* Undoes pb_gso_open (also after it failed) and frees w->priv. */
void pb_gso_close(struct pb_worker *w);

#endif
