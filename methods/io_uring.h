/* SPDX-License-Identifier: MIT */
/*
 * io_uring's ring (methods/io_uring.c), shared with its variants, each a method of its own
 * file: io_uring_fixed (every datagram from a registered buffer), io_uring_sqpoll (a kernel
 * thread submits: no system call per batch) and io_uring_gso (UDP_SEGMENT datagrams).
 */
#ifndef PB_IO_URING_H
#define PB_IO_URING_H

#include <stdbool.h>
#include <stddef.h>

#include "method.h"

struct pb_uring_kind {
	bool fixed_buf; /* every send from a registered buffer (SEND if it takes one, or SEND_ZC) */
	bool sqpoll;	/* IORING_SETUP_SQPOLL */
	bool gso;	/* UDP_SEGMENT sockets, --segments frames per send */
};

/* Whether this kernel (and policy) allows what kind needs; 0, or -EOPNOTSUPP with a reason. */
int pb_uring_probe(const struct pb_config *cfg, const struct pb_uring_kind *kind, char *reason,
		   size_t len);
/* kind must outlive the worker (a static). 0 or -errno. */
int pb_uring_open(struct pb_worker *w, const struct pb_uring_kind *kind);
int pb_uring_send(struct pb_worker *w, unsigned int budget, struct pb_outcome *o);
void pb_uring_close(struct pb_worker *w);
/* The SQPOLL thread's CPU seconds so far (0 without one): struct pb_method's helper_cpu_s. */
double pb_uring_helper_cpu_s(struct pb_worker *w);

#endif
