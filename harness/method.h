/* SPDX-License-Identifier: MIT */
/*
 * The method vtable: one struct pb_method per send path. The harness owns the loop, the
 * clock, the counters and the stop condition; a method only moves frames.
 */
#ifndef PB_METHOD_H
#define PB_METHOD_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "frame.h"

/* Capability flags: bit index, then mask. */
enum {
	__PB_M_FRAME,	  /* hands whole Ethernet frames to the kernel (can tag, sets MACs) */
	__PB_M_NO_WIRE,	  /* puts nothing on the wire (null): no receiver, no delivered % */
	__PB_M_NEEDS_RAW, /* needs CAP_NET_RAW */
};
#define PB_M_FRAME     (1u << __PB_M_FRAME)
#define PB_M_NO_WIRE   (1u << __PB_M_NO_WIRE)
#define PB_M_NEEDS_RAW (1u << __PB_M_NEEDS_RAW)

/* One sending thread's view. The harness fills everything but priv and mode. */
struct pb_worker {
	const struct pb_config *cfg;
	unsigned int id;	      /* 0 .. streams-1 */
	const struct pb_frame *frame; /* the pool's first frame: all a one-frame method needs */
	const struct pb_pool *pool;   /* this stream's frames (flows, sizes): cycle through them */
	void *priv;		      /* the method's state, owned by open/close */
	/*
	 * Frames the run still wants from this worker, in flight included; UINT64_MAX without
	 * --count. An asynchronous method keeps its in-flight frames within it, so --count
	 * stays exact; others can ignore it (budget already respects it).
	 */
	uint64_t left;
	/*
	 * Attempts the path dropped and reported (ENOBUFS) that are sent again: by the kernel
	 * (an AF_PACKET ring re-posts the slot) or by the harness (the frame was not counted
	 * as sent). The method counts them; the harness takes them out of the path's drop
	 * counters, since no frame was lost.
	 */
	uint64_t retried;
	char mode[32]; /* what open actually obtained, for the Mode column */
};

struct pb_method {
	const char *name;
	const char *aliases[3]; /* go-pktgen's names for the same path */
	const char *help;	/* one line for --help */
	unsigned int flags;
	unsigned int default_batch; /* frames per send() call when --batch is not given */

	/*
	 * Can it run here? 0, or -EOPNOTSUPP / -EPERM with a reason written to reason.
	 * Called before any worker exists, in the namespace the sender runs in. Optional.
	 */
	int (*probe)(const struct pb_config *cfg, char *reason, size_t len);
	/* Sockets, rings, attachments; per-worker state in w->priv. 0 or -errno. */
	int (*open)(struct pb_worker *w);
	/*
	 * Put up to budget frames on the wire. Returns how many the kernel accepted or, for
	 * asynchronous paths, completed during this call; -EAGAIN / -ENOBUFS when the path is
	 * momentarily full (the harness retries); any other -errno ends the run.
	 */
	int (*send)(struct pb_worker *w, unsigned int budget);
	/*
	 * After the stop: wait up to timeout_ms for frames still in flight and return how many
	 * completed. Optional; only asynchronous paths need it.
	 */
	int (*drain)(struct pb_worker *w, unsigned int timeout_ms);
	/* Undo whatever open did, also after a failed open. Must tolerate w->priv == NULL. */
	void (*close)(struct pb_worker *w);
	/*
	 * After the process's last run, on every exit path (Ctrl-C included), in the sender's
	 * namespace: undo what the method keeps across runs, such as an XDP attachment that
	 * consecutive runs reuse instead of bouncing the link again. Optional.
	 */
	void (*finish)(void);
};

/* registry.c: the methods built into this binary, in benchmark order. */
extern const struct pb_method *const pb_methods[];
extern const unsigned int pb_methods_count;
/* By name or go-pktgen alias; NULL when unknown. */
const struct pb_method *pb_method_find(const char *name);

#endif
