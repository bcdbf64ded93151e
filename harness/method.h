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
#include "probe.h"

/* Capability flags: bit index, then mask. */
enum {
	__PB_M_FRAME,	  /* hands whole Ethernet frames to the kernel (can tag, sets MACs) */
	__PB_M_NO_WIRE,	  /* puts nothing on the wire (null): no receiver, no delivered % */
	__PB_M_NEEDS_RAW, /* needs CAP_NET_RAW */
	__PB_M_ASYNC,	  /* completes frames after send() returns: reports them in flight */
	__PB_M_REPOST,	  /* the kernel sends a dropped frame again itself, a probe with its
			   * first stamp: probes are never lost, their latency holds the retries */
	__PB_M_STREAM,	  /* copies each frame out of its pool as it sends it and counts it
			   * (w->taken), so a replay can stream a capture through a window */
	__PB_M_SEQ,	  /* stamps each frame's sequence number (w->seq, pb_frame_seq_stamp)
			   * as it hands it over: its frames are built PB_SIG_KIND_SEQ */
};
#define PB_M_FRAME     (1u << __PB_M_FRAME)
#define PB_M_NO_WIRE   (1u << __PB_M_NO_WIRE)
#define PB_M_NEEDS_RAW (1u << __PB_M_NEEDS_RAW)
#define PB_M_ASYNC     (1u << __PB_M_ASYNC)
#define PB_M_REPOST    (1u << __PB_M_REPOST)
#define PB_M_STREAM    (1u << __PB_M_STREAM)
#define PB_M_SEQ       (1u << __PB_M_SEQ)

/* The knobs a method reads from the configuration, which --tune searches (tune.h). */
enum {
	__PB_K_BATCH,	 /* --batch: frames (GSO: datagrams) per call */
	__PB_K_SEGMENTS, /* --segments: frames per GSO datagram */
	__PB_K_RING,	 /* --ring: its ring's descriptors, slots or entries */
};
#define PB_K_BATCH    (1u << __PB_K_BATCH)
#define PB_K_SEGMENTS (1u << __PB_K_SEGMENTS)
#define PB_K_RING     (1u << __PB_K_RING)

/*
 * What one send() call did, reported to the harness, which zeroes it before the call and
 * does all the counting. The one rule for every method: a frame is sent when the kernel
 * accepted it (or, PB_M_ASYNC, completed it) and did not report dropping it. A frame the
 * path dropped and said so (ENOBUFS, af_xdp copy mode's EBUSY, a short sendmmsg) is not
 * sent: it is reported in retried, and another frame goes in its place (the kernel re-posts
 * an AF_PACKET slot itself; everywhere else the harness simply asks for more), so --count
 * stays exact. The path's drop counters counted that attempt too; stats.c nets retried out
 * of them, so nothing is counted twice.
 */
struct pb_outcome {
	uint32_t sent;	   /* frames accepted (or completed) and not reported dropped */
	uint32_t retried;  /* attempts the path dropped and reported, to be sent again */
	uint32_t inflight; /* PB_M_ASYNC: frames handed over and not completed, after the call */
	uint32_t calls;	   /* system calls made (kicks, submits, sends, and waits: poll, sleep) */
	uint64_t wait_ns;  /* time the call waited for room on a full path (a poll), if it did */
};

/* One sending thread's view. The harness fills everything but priv and mode. */
struct pb_worker {
	const struct pb_config *cfg;
	unsigned int id;	      /* 0 .. streams-1 */
	unsigned int batch;	      /* frames per call: --batch, an alias's, or the method's */
	const struct pb_frame *frame; /* the pool's first frame: all a one-frame method needs */
	const struct pb_pool *pool;   /* this stream's frames (flows, sizes): cycle through them */
	void *priv;		      /* the method's state, owned by open/close */
	char mode[64];		      /* what open actually obtained, for the Mode column */
	struct pb_probe probe; /* --latency: which frame is a probe, and its stamp (probe.h) */
	/*
	 * PB_M_STREAM: pool frames taken so far, in order (frame k is pool->frames[k % n]),
	 * counted when the method has copied one out, so its place in the pool is free again.
	 */
	uint64_t taken;
	/* PB_M_SEQ: the next frame's sequence number; it goes up by one for each handed over */
	uint32_t seq;
};

struct pb_method;

/* A go-pktgen method name for one of ours, with what that method of go-pktgen's batches. */
struct pb_alias {
	const char *name;
	unsigned int batch; /* frames per call go-pktgen's method uses; 0: ours */
};

struct pb_method {
	const char *name;
	struct pb_alias aliases[3]; /* go-pktgen's names for the same path */
	const char *help;	    /* one line for --help */
	unsigned int flags;
	unsigned int default_batch; /* frames per send() call when --batch is not given */
	unsigned int knobs;	    /* PB_K_*: what --tune may search; its Mode shows them */
	/*
	 * --replay: the most frames a stream and the longest frame it can hold (a BPF map's
	 * entries), 0: no bound of its own. A capture over them is a skipped row that says so.
	 */
	unsigned int replay_frames, replay_len;

	/*
	 * Can it run here? 0, or -EOPNOTSUPP / -EPERM with a reason written to reason.
	 * Called before any worker exists, in the namespace the sender runs in. Optional.
	 */
	int (*probe)(const struct pb_config *cfg, char *reason, size_t len);
	/* Sockets, rings, attachments; per-worker state in w->priv. 0 or -errno. */
	int (*open)(struct pb_worker *w);
	/*
	 * Hands up to budget new frames to the kernel and reports in o what happened (see
	 * struct pb_outcome). PB_M_ASYNC methods also reap completions here and may be called
	 * with budget 0: only kick and reap (the harness drains them so after the stop, on its
	 * own clock); they must not keep more than the budgets they were given in flight.
	 * Returns 0; -EAGAIN when the path is full and nothing was taken (the harness tries
	 * again); any other -errno ends the run.
	 */
	int (*send)(struct pb_worker *w, unsigned int budget, struct pb_outcome *o);
	/* Undo whatever open did, also after a failed open. Must tolerate w->priv == NULL. */
	void (*close)(struct pb_worker *w);
	/*
	 * CPU seconds used so far by a kernel thread that sends for this worker (io_uring's
	 * SQPOLL thread), which the worker's own CPU clock does not see; the harness adds what
	 * it used over the window to the worker's CPU time. Optional.
	 */
	double (*helper_cpu_s)(struct pb_worker *w);
	/*
	 * After the method's last run in a row of runs (its repeats, or its sweep points when
	 * it runs alone), on every exit path (Ctrl-C included), in the sender's namespace:
	 * undo what the method keeps across runs, such as an XDP attachment that consecutive
	 * runs reuse instead of bouncing the link again, so the next method runs on the
	 * interface as the user left it. Optional.
	 */
	void (*finish)(void);
};

/* registry.c: the methods built into this binary, in benchmark order. */
extern const struct pb_method *const pb_methods[];
extern const unsigned int pb_methods_count;
/*
 * By name or go-pktgen alias; NULL when unknown. *batch (may be NULL) gets the alias's batch
 * (0 for a name, or an alias that keeps ours).
 */
const struct pb_method *pb_method_find(const char *name, unsigned int *batch);
/* One method a --method value names, with the batch its go-pktgen alias implies (0: none). */
struct pb_selected {
	const struct pb_method *m;
	unsigned int batch;
};
/*
 * The methods a --method value names: "benchmark" (all), one name or alias, or a comma list.
 * Fills out (up to max; out may be NULL to count) and returns how many, or -EINVAL with the
 * unknown name in bad.
 */
int pb_methods_select(const char *spec, struct pb_selected *out, unsigned int max, char *bad,
		      size_t badlen);

#endif
