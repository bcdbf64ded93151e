// SPDX-License-Identifier: MIT
/*
 * af_packet_v2: af_packet's TX ring as TPACKET_V2 (the qdisc bypassed): the same slots and
 * kicks with V2's 32-byte slot header, what most tools still use; beside af_packet's V3 it
 * shows whether the ring version matters for sending (methods/af_packet.h).
 */
#include <linux/if_packet.h>

#include "af_packet.h"

static int af_packet_v2_open(struct pb_worker *w)
{
	return pb_af_packet_open(w, TPACKET_V2, true);
}

const struct pb_method pb_method_af_packet_v2 = {
	.name = "af_packet_v2",
	.help = "af_packet with a TPACKET_V2 ring instead of V3 (PACKET_QDISC_BYPASS)",
	.flags = PB_M_FRAME | PB_M_NEEDS_RAW | PB_M_ASYNC | PB_M_REPOST | PB_M_STREAM | PB_M_SEQ,
	.default_batch = 256,
	.knobs = PB_K_BATCH | PB_K_RING,
	.open = af_packet_v2_open,
	.send = pb_af_packet_send,
	.close = pb_af_packet_close,
};
