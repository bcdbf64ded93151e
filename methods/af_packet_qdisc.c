// SPDX-License-Identifier: MIT
/*
 * af_packet_qdisc: af_packet's TPACKET_V3 ring without PACKET_QDISC_BYPASS, so every frame
 * goes through dev_queue_xmit() and the interface's root qdisc, as other traffic does;
 * beside af_packet it shows what that path costs (methods/af_packet.h). On a veth, whose
 * default root is noqueue, that is the queueing layer without a queue.
 */
#include <linux/if_packet.h>

#include "af_packet.h"

static int af_packet_qdisc_open(struct pb_worker *w)
{
	return pb_af_packet_open(w, TPACKET_V3, false);
}

const struct pb_method pb_method_af_packet_qdisc = {
	.name = "af_packet_qdisc",
	.help = "af_packet's TPACKET_V3 ring through the qdisc (no PACKET_QDISC_BYPASS)",
	.flags = PB_M_FRAME | PB_M_NEEDS_RAW | PB_M_ASYNC | PB_M_REPOST | PB_M_STREAM | PB_M_SEQ,
	.default_batch = 256,
	.knobs = PB_K_BATCH | PB_K_RING,
	.open = af_packet_qdisc_open,
	.send = pb_af_packet_send,
	.close = pb_af_packet_close,
};
