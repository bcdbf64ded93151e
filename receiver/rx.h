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

#include "rx_source.h"

struct pb_rx;
struct pb_netif;

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
/*
 * The interface's addresses as the program checks a frame's destination against them: read at
 * attach, and again by this call (the agent's loop), in the interface's namespace. Writes the
 * program's map only when they changed. 0 or -errno.
 */
int pb_rx_refresh_addrs(struct pb_rx *rx);
/*
 * One run id's counts since attach; a run id never seen: 0, seen false, zero counts. Says
 * whether the run is kept (pb_rx_keep) and whether counts of it were pushed out (evicted).
 */
int pb_rx_read_run(struct pb_rx *rx, uint32_t run_id, struct pb_rx_run *out);
/*
 * Someone reads this run: from now on it is counted where no flood of other run ids can push
 * it out (the kept map, pb_bpf.h), with what the runs map held of it so far, until nobody has
 * read it and no frame of it arrived for a while. *kept false: the kept map is full, the run
 * stays where it was. 0 or -errno.
 */
int pb_rx_keep(struct pb_rx *rx, uint32_t run_id, bool *kept);
/*
 * A run as a sender reads it (GET /v1/runs/RUN_ID, the lab's source): kept from this read on
 * (pb_rx_keep; run 0, no run's id, is only read), its counts (pb_rx_read_run) and the runs
 * table's evictions so far (runs_evicted). 0 or -errno.
 */
int pb_rx_read_asked(struct pb_rx *rx, uint32_t run_id, struct pb_rx_run *out);

/* The runs map (an LRU) and the kept map, as /v1/info and /metrics tell them. */
struct pb_rx_table_stats {
	uint32_t capacity;	/* run ids the runs map holds (PB_BPF_MAX_RUNS) */
	uint32_t held;		/* run ids it holds now */
	uint32_t kept;		/* runs in the kept map */
	uint32_t kept_capacity; /* PB_BPF_MAX_KEPT */
	/*
	 * Runs pushed out of the runs map since attach, counts and all: the entries the program
	 * made, less those held and those this side moved; never goes back. While new run ids
	 * arrive the walk that counts those held is not one instant: it can be short for a moment.
	 */
	uint64_t evicted;
};
int pb_rx_table_stats(struct pb_rx *rx, struct pb_rx_table_stats *out);
/* Runs kept out of the LRU now (the table stats' kept), without walking the table. */
uint32_t pb_rx_kept(struct pb_rx *rx);
/* One of the run's histograms: PB_RX_HIST_BUCKETS counts (all 0 for a run without it). */
int pb_rx_read_hist(struct pb_rx *rx, uint32_t run_id, enum pb_rx_hist which, uint64_t *counts);
/* Frames (and their bytes) without a pktbench signature, passed on since attach. */
int pb_rx_read_foreign(struct pb_rx *rx, uint64_t *frames, uint64_t *bytes);
/*
 * The run ids the receiver holds counts for (at most max of them), each once, in increasing
 * order: *n says how many were written. 0 or -errno.
 */
int pb_rx_list_runs(struct pb_rx *rx, uint32_t *ids, uint32_t max, uint32_t *n);
/*
 * How often a CPU's slot changed runs (a flush each), summed over CPUs since attach: the
 * cost of many runs arriving at once shows here.
 */
int pb_rx_slot_switches(struct pb_rx *rx, uint64_t *n);
/*
 * Whose test a run is, as the run announced it (pb_bpf.h, PB_SIG_KIND_ANNOUNCE): *found false
 * for a run that announced nothing (or whose entry aged out). 0 or -errno.
 */
struct pb_rx_meta;
int pb_rx_read_meta(struct pb_rx *rx, uint32_t run_id, struct pb_rx_meta *out, bool *found);
/*
 * The runs that announced themselves, with their announcements (at most max): what
 * /v1/tests/UUID looks through for a test's runs that aged out. 0 or -errno.
 */
int pb_rx_list_meta(struct pb_rx *rx, uint32_t *ids, struct pb_rx_meta *metas, uint32_t max,
		    uint32_t *n);
/* The receiving interface's counters (current values, not deltas), from any namespace. */
int pb_rx_read_ifstats(struct pb_rx *rx, struct pb_rx_ifstats *out);
/*
 * The interface's name now (IF_NAMESIZE bytes), by its index: it may have been renamed since
 * attach. -ENODEV: it was deleted, or moved to another namespace.
 */
int pb_rx_ifname(struct pb_rx *rx, char *name);
/* The interface as attach read it: name (see pb_rx_ifname), index, driver, MAC, MTU, queues. */
const struct pb_netif *pb_rx_netif(const struct pb_rx *rx);
/* "native" or "generic": the XDP mode the receiver runs in. */
const char *pb_rx_mode(const struct pb_rx *rx);
/* The program is multi-buffer: it counts frames over a page (a jumbo MTU) whole. */
bool pb_rx_frags(const struct pb_rx *rx);
/* Detaches (putting back what --force replaced) and frees. NULL-safe. */
void pb_rx_detach(struct pb_rx *rx);
/* A source that reads this receiver in-process. */
void pb_rx_source_init(struct pb_rx *rx, struct pb_rx_source *src);

#endif
