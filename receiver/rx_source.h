/* SPDX-License-Identifier: MIT */
/*
 * How the sender reads a receiver, wherever it runs: in-process (the lab) or over HTTP (a
 * `pktbench receive` agent). Both report the same fields, so a lab run and an agent run
 * produce the same result.
 */
#ifndef PB_RX_SOURCE_H
#define PB_RX_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#define PB_RX_MAX_QUEUES 64
#define PB_RX_MAX_VLANS	 64

/* One run id's counts at the receiver, summed over CPUs. */
struct pb_rx_run {
	uint32_t run_id;
	bool seen; /* any frame with this run id arrived */
	uint64_t frames, bytes;
	uint32_t nqueues; /* RX queues reported (<= PB_RX_MAX_QUEUES) */
	uint64_t queue_frames[PB_RX_MAX_QUEUES];
	uint64_t first_ns, last_ns; /* arrival of the first / last frame (receiver's clock) */
	uint32_t flows_seen;	    /* distinct UDP source ports */
	uint32_t nvlans;	    /* VLAN ids seen (0: untagged), ascending */
	uint16_t vlans[PB_RX_MAX_VLANS];
};

/* The receiving interface's own counters: frames it lost before or after XDP saw them. */
struct pb_rx_ifstats {
	uint64_t rx_packets, rx_dropped, rx_missed_errors, rx_fifo_errors;
	uint64_t driver_drops; /* ethtool -S names with drop/discard/miss: reported raw only */
	uint64_t foreign_frames; /* the receiver's: frames without a pktbench signature, passed */
};

struct pb_rx_source {
	void *ctx;
	const char *what; /* "lab receiver", "agent http://..." for messages */
	int (*read_run)(void *ctx, uint32_t run_id, struct pb_rx_run *out); /* 0 or -errno */
	int (*read_ifstats)(void *ctx, struct pb_rx_ifstats *out);	    /* 0 or -errno */
};

#endif
