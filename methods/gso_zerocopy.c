// SPDX-License-Identifier: MIT
/*
 * gso_zerocopy: UDP_SEGMENT datagrams of --segments frames sent with MSG_ZEROCOPY, one
 * send() each: the payload's pages are pinned once per datagram instead of copied, and the
 * frames count as sent when the error queue says the kernel let go (methods/udp_zerocopy.c).
 */
#include "udp_zerocopy.h"

static int gso_zerocopy_probe(const struct pb_config *cfg, char *reason, size_t len)
{
	return pb_zc_probe(cfg, true, reason, len);
}

static int gso_zerocopy_open(struct pb_worker *w)
{
	return pb_zc_open(w, true);
}

const struct pb_method pb_method_gso_zerocopy = {
	.name = "gso_zerocopy",
	.help = "UDP_SEGMENT datagrams of --segments frames with MSG_ZEROCOPY, counted when the "
		"error queue says the kernel let go (for large payloads)",
	.flags = PB_M_ASYNC,
	.default_batch = 16,
	.knobs = PB_K_SEGMENTS,
	.probe = gso_zerocopy_probe,
	.open = gso_zerocopy_open,
	.send = pb_zc_send,
	.close = pb_zc_close,
};
