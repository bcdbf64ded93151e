/* SPDX-License-Identifier: MIT */
/*
 * The AF_PACKET TX ring of af_packet (TPACKET_V3, qdisc bypassed), shared with its two
 * variants: af_packet_v2 (a TPACKET_V2 ring) and af_packet_qdisc (frames through the
 * interface's root qdisc, as dev_queue_xmit() sends them). The difference between the rows
 * is what the ring version, or the qdisc path, costs.
 */
#ifndef PB_AF_PACKET_H
#define PB_AF_PACKET_H

#include <stdbool.h>

#include "method.h"

/* A ring of version TPACKET_V2 or TPACKET_V3, bypassing the qdisc or not. 0 or -errno. */
int pb_af_packet_open(struct pb_worker *w, int version, bool bypass);
int pb_af_packet_send(struct pb_worker *w, unsigned int budget, struct pb_outcome *o);
void pb_af_packet_close(struct pb_worker *w);

#endif
