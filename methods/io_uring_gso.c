// SPDX-License-Identifier: MIT
/*
 * io_uring_gso: io_uring carrying UDP_SEGMENT datagrams: each SQE sends --segments frames on a
 * UDP_SEGMENT socket (methods/gso.h), a --batch of SQEs per io_uring_enter(). Counted in
 * segments; a datagram with a reported drop in it counts in full, as gso's do.
 */
#include "io_uring.h"

static const struct pb_uring_kind io_uring_gso_kind = { .gso = true };

static int io_uring_gso_probe(const struct pb_config *cfg, char *reason, size_t len)
{
	return pb_uring_probe(cfg, &io_uring_gso_kind, reason, len);
}

static int io_uring_gso_open(struct pb_worker *w)
{
	return pb_uring_open(w, &io_uring_gso_kind);
}

const struct pb_method pb_method_io_uring_gso = {
	.name = "io_uring_gso",
	.help = "io_uring sending UDP_SEGMENT datagrams of --segments frames (--batch datagrams, "
		"default 16)",
	.default_batch = 16,
	.knobs = PB_K_BATCH | PB_K_SEGMENTS,
	.flags = PB_M_ASYNC,
	.probe = io_uring_gso_probe,
	.open = io_uring_gso_open,
	.send = pb_uring_send,
	.close = pb_uring_close,
};
