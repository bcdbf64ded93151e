/* SPDX-License-Identifier: MIT */
/*
 * The receiver, one implementation for the lab and the agent: bpf/receiver.bpf.c on the
 * receiving interface counts every frame with a pktbench signature by its run id and drops
 * it, and passes (XDP_PASS) everything else. This loads and attaches it, reads one run's
 * counts, the frames that were not pktbench's, and the interface's own counters. The
 * sender's runner reads any receiver, in-process or remote, through a struct pb_rx_source.
 */
#ifndef PB_RX_H
#define PB_RX_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"

#define PB_RX_MAX_QUEUES 64
#define PB_RX_MAX_VLANS	 64

struct pb_rx_run { /* one run id's counts at the receiver, summed over CPUs */
	uint32_t run_id;
	bool seen; /* any frame with this run id arrived */
	uint64_t frames, bytes;
	uint32_t nqueues; /* RX queues reported (<= PB_RX_MAX_QUEUES) */
	uint64_t queue_frames[PB_RX_MAX_QUEUES];
	uint64_t first_ns, last_ns; /* arrival of first / last frame (receiver clock) */
	uint32_t flows_seen;	    /* distinct UDP source ports */
	uint32_t nvlans;	    /* VLAN ids seen (0: untagged), ascending */
	uint16_t vlans[PB_RX_MAX_VLANS];
};

struct pb_rx_ifstats { /* the receiving interface's own counters */
	uint64_t rx_packets, rx_dropped, rx_missed_errors, rx_fifo_errors;
	uint64_t driver_drops; /* ethtool -S names with drop/discard/miss: raw only */
};

struct pb_rx_source {
	void *ctx;
	const char *what; /* "lab receiver", "agent http://..." for messages */
	int (*read_run)(void *ctx, uint32_t run_id, struct pb_rx_run *out); /* 0/-errno */
	int (*read_ifstats)(void *ctx, struct pb_rx_ifstats *out);	    /* 0/-errno */
};

struct pb_rx;

struct pb_rx_opts {
	int ifindex;	       /* 0: look ifname up */
	const char *ifname;    /* an interface of the calling thread's namespace */
	enum pb_xdp_mode mode; /* auto: native, and generic when the driver has no native XDP */
	bool force;	       /* replace a program already there (and put it back on detach) */
};

/*
 * Loads the receiver and attaches it to the interface, in the calling thread's namespace;
 * the counters can be read from any namespace afterwards. An interface that already has an
 * XDP program is refused (-EEXIST) unless opts->force. 0 or -errno, with the reason said.
 */
int pb_rx_attach(struct pb_rx **out, const struct pb_rx_opts *opts);
/* One run id's counts since attach; a run id never seen: 0, seen false, zero counts. */
int pb_rx_read_run(struct pb_rx *rx, uint32_t run_id, struct pb_rx_run *out);
/* Frames (and their bytes) without a pktbench signature, passed on since attach. */
int pb_rx_read_foreign(struct pb_rx *rx, uint64_t *frames, uint64_t *bytes);
/*
 * The run ids the receiver holds counts for (at most max of them, in no order): *n says how
 * many were written. 0 or -errno.
 */
int pb_rx_list_runs(struct pb_rx *rx, uint32_t *ids, uint32_t max, uint32_t *n);
/* The receiving interface's counters (current values, not deltas), from any namespace. */
int pb_rx_read_ifstats(struct pb_rx *rx, struct pb_rx_ifstats *out);
/* "native" or "generic": the XDP mode the receiver runs in. */
const char *pb_rx_mode(const struct pb_rx *rx);
/* Detaches (putting back what --force replaced) and frees. NULL-safe. */
void pb_rx_detach(struct pb_rx *rx);
/* A source that reads this receiver in-process. */
void pb_rx_source_init(struct pb_rx *rx, struct pb_rx_source *src);

/*
 * Transition, until the runner reads a struct pb_rx_source: its old calls, over one run id
 * (the process-wide cfg->run_id). pb_receiver_wrap() makes one from an attached receiver;
 * pb_receiver_unwrap() frees it and leaves the receiver attached.
 */
struct pb_rx_counts {
	uint64_t frames, bytes;			 /* with the run id */
	uint64_t foreign_frames, foreign_bytes;	 /* without a pktbench signature */
	uint64_t queue_frames[PB_RX_MAX_QUEUES]; /* the run's frames per RX queue */
};

struct pb_receiver;

int pb_receiver_wrap(struct pb_receiver **out, struct pb_rx *rx, uint32_t run_id);
void pb_receiver_unwrap(struct pb_receiver *r);
int pb_receiver_read(struct pb_receiver *r, struct pb_rx_counts *out);
/* Forgets the run's source ports and VLAN ids seen so far (before each run). 0 or -errno. */
int pb_receiver_clear_ports(struct pb_receiver *r);
/* Distinct UDP source ports of the run since the last clear. */
int pb_receiver_count_ports(struct pb_receiver *r, uint32_t *out);
/* The run's VLAN ids since the last clear (0: untagged), up to max, ascending. 0 or -errno. */
int pb_receiver_vlans(struct pb_receiver *r, uint16_t *ids, uint32_t max, uint32_t *n);

#endif
