// SPDX-License-Identifier: MIT
/*
 * io_uring_sqpoll: io_uring with IORING_SETUP_SQPOLL: a kernel thread of this process takes
 * the SQEs off the ring and sends them, so the worker makes no system call per batch (only to
 * wake the thread after 2 s idle, or when waiting longer than a short spin for a completion).
 * The thread does the sending work on whichever CPU it runs: its CPU time is counted in CPU
 * ns/pkt with the worker's (helper_cpu_s).
 */
#include "io_uring.h"

static const struct pb_uring_kind io_uring_sqpoll_kind = { .sqpoll = true };

static int io_uring_sqpoll_probe(const struct pb_config *cfg, char *reason, size_t len)
{
	return pb_uring_probe(cfg, &io_uring_sqpoll_kind, reason, len);
}

static int io_uring_sqpoll_open(struct pb_worker *w)
{
	return pb_uring_open(w, &io_uring_sqpoll_kind);
}

const struct pb_method pb_method_io_uring_sqpoll = {
	.name = "io_uring_sqpoll",
	.help = "io_uring with SQPOLL: a kernel thread submits the sends, no system call per "
		"batch (--batch, default 64)",
	.default_batch = 64,
	.knobs = PB_K_BATCH | PB_K_RING,
	.flags = PB_M_ASYNC,
	.probe = io_uring_sqpoll_probe,
	.open = io_uring_sqpoll_open,
	.send = pb_uring_send,
	.close = pb_uring_close,
	.helper_cpu_s = pb_uring_helper_cpu_s,
};
