// SPDX-License-Identifier: MIT
/*
 * io_uring_fixed: io_uring with registered files and a registered buffer for every datagram,
 * so no send looks up a file or pins and maps user memory. The kernel's IORING_OP_SEND takes
 * no registered buffer up to at least 6.18 (EINVAL, probed on a socket pair), SEND_ZC does:
 * then every datagram goes as SEND_ZC, whatever its size, and the Mode says so. Sent counts
 * at the first CQE, as io_uring's SEND_ZC does (methods/io_uring.c).
 */
#include "io_uring.h"

static const struct pb_uring_kind io_uring_fixed_kind = { .fixed_buf = true };

static int io_uring_fixed_probe(const struct pb_config *cfg, char *reason, size_t len)
{
	return pb_uring_probe(cfg, &io_uring_fixed_kind, reason, len);
}

static int io_uring_fixed_open(struct pb_worker *w)
{
	return pb_uring_open(w, &io_uring_fixed_kind);
}

const struct pb_method pb_method_io_uring_fixed = {
	.name = "io_uring_fixed",
	.help = "io_uring, registered files and a registered buffer for every datagram (SEND_ZC "
		"where SEND takes none; --batch, default 64)",
	.default_batch = 64,
	.knobs = PB_K_BATCH | PB_K_RING,
	.flags = PB_M_ASYNC,
	.probe = io_uring_fixed_probe,
	.open = io_uring_fixed_open,
	.send = pb_uring_send,
	.close = pb_uring_close,
};
