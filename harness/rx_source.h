/* SPDX-License-Identifier: MIT */
/*
 * How the sender reads a receiver, wherever it runs: in-process (the lab) or over HTTP (a
 * `pktbench receive` agent). Both report the same fields, so a lab run and an agent run
 * produce the same result. This is the receive side's one door: the engine and the session
 * attach, read and close a receiver through it alone; receiver/ implements it.
 */
#ifndef PB_RX_SOURCE_H
#define PB_RX_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>

#include "config.h"

#define PB_RX_MAX_QUEUES  64
#define PB_RX_MAX_VLANS	  64
#define PB_RX_MAX_STREAMS 64
/* Buckets of the receiver's log-linear histograms (bpf/pb_lat.h has the bucket bounds). */
#define PB_RX_HIST_BUCKETS 3584

/*
 * One stream's latency probes (--latency) and, in a paced run, the timing of all its frames,
 * at the receiver. Nanoseconds are the receiver's own clock minus the probe's timestamp.
 */
struct pb_rx_stream {
	uint32_t stream;    /* the stream id (0 .. 63) */
	uint8_t probe_kind; /* the probes' kind: 'P' (CLOCK_MONOTONIC), 'T' (CLOCK_TAI); 0: none */
	uint64_t probes;    /* distinct probes received */
	uint64_t late, dup; /* probes that arrived after a later one (filled a gap), again */
	uint64_t missing;   /* sequence numbers skipped and not filled (so far) */
	uint64_t stray;	    /* out of the window (bpf/pb_lat.h): not received, not timed */
	uint32_t next_seq;  /* the highest sequence number seen, plus one */
	uint64_t lat_n;	    /* probes whose one-way latency was taken, and its min, max, sum */
	uint64_t lat_min_ns, lat_max_ns, lat_sum_ns;
	uint64_t lat_bad;   /* probes whose latency could not be taken: sent "after" arrival, or
			     * a 'T' probe at a receiver without CLOCK_TAI */
	uint64_t jitter_ns; /* RFC 3550 interarrival jitter after jitter_n probes */
	uint64_t jitter_n;
	uint64_t gap_frames; /* paced run: frames whose arrival was timed, first and last */
	uint64_t gap_first_ns, gap_last_ns;
};

/* One run id's counts at the receiver, summed over CPUs. */
struct pb_rx_run {
	uint32_t run_id;
	uint64_t instance;	/* who counted: an agent's id, random at its start; 0: unknown */
	bool seen;		/* any frame with this run id arrived */
	bool kept;		/* the receiver holds it where new run ids cannot push it out */
	bool evicted;		/* the receiver knows counts of it were pushed out of its table */
	uint64_t runs_evicted;	/* runs the receiver's table pushed out since it started */
	uint64_t frames, bytes; /* unique frames: each sequence number once */
	/*
	 * By sequence number (docs/accounting.md): frames that arrived again (not in frames),
	 * after a later one of their stream (in frames), too far out of order to tell (not in
	 * frames), and counted with no sequence check (in frames)
	 */
	uint64_t dup, late, stray, unchecked;
	/* with its signature, but not what the host would take (not in frames): an IPv4 header
	 * checksum or version, a UDP checksum, lengths that disagree; another destination MAC
	 * or IP address */
	uint64_t corrupt, not_host;
	uint32_t nqueues; /* RX queues reported (<= PB_RX_MAX_QUEUES) */
	uint64_t queue_frames[PB_RX_MAX_QUEUES];
	uint64_t first_ns, last_ns; /* arrival of the first / last frame (receiver's clock) */
	uint32_t flows_seen;	    /* distinct UDP source ports */
	uint32_t nvlans;	    /* VLAN ids seen (0: untagged), ascending */
	uint16_t vlans[PB_RX_MAX_VLANS];
	bool rx_tai;	   /* the receiver reads CLOCK_TAI ('T' probes get a latency) */
	uint32_t nstreams; /* streams with probes or timed frames, in streams[] */
	struct pb_rx_stream streams[PB_RX_MAX_STREAMS];
};

/* The receiving interface's own counters: frames it lost before or after XDP saw them. */
struct pb_rx_ifstats {
	uint64_t rx_packets, rx_dropped, rx_missed_errors, rx_fifo_errors;
	uint64_t driver_drops;	 /* ethtool -S names with drop/discard/miss: reported raw only */
	uint64_t foreign_frames; /* the receiver's: frames without a pktbench signature, passed */
	uint64_t instance;	 /* as in struct pb_rx_run: a new one means a restarted agent */
};

/* The histograms a receiver keeps per run (read_hist), summed over the streams, in ns. */
enum pb_rx_hist {
	PB_RX_HIST_LAT, /* the probes' one-way latency */
	PB_RX_HIST_GAP, /* a paced run: the gaps between consecutive frames of a stream */
};

struct pb_rx_source {
	void *ctx;
	const char *what; /* "lab receiver", "agent http://..." for messages */
	/* the receiver reads this host's CLOCK_MONOTONIC (the lab): probe latency needs no sync */
	bool same_clock;
	int (*read_run)(void *ctx, uint32_t run_id, struct pb_rx_run *out); /* 0 or -errno */
	int (*read_ifstats)(void *ctx, struct pb_rx_ifstats *out);	    /* 0 or -errno */
	/*
	 * One of the run's histograms as PB_RX_HIST_BUCKETS counts (a run without it: all 0).
	 * 0 or -errno. Optional: NULL, the receiver keeps none (no percentiles then).
	 */
	int (*read_hist)(void *ctx, uint32_t run_id, enum pb_rx_hist which, uint64_t *counts);
	/*
	 * Why the last read failed in the receiver's own words (an agent's answer), into buf;
	 * "" when it has none to add to the -errno. Optional.
	 */
	void (*last_error)(void *ctx, char *buf, size_t len);
	/*
	 * Bounds the reads that follow to ms milliseconds, connecting included (0: the source's
	 * own bound again), so a read inside the window ends with it. Optional: NULL, the
	 * source never blocks (the lab's receiver is read in-process).
	 */
	void (*set_timeout)(void *ctx, unsigned int ms);
	/* Detaches or disconnects, frees ctx. Optional: NULL, the owner of ctx frees it. */
	void (*close)(void *ctx);
};

/* What a receiver says of itself when it is attached: the sender's defaults and messages. */
#define PB_RX_PEER_ADDRS 16
struct pb_rx_peer {
	char ifname[IF_NAMESIZE];
	char driver[32];
	char xdp_mode[16]; /* "native" or "generic" */
	uint8_t mac[6];
	uint32_t naddrs;
	struct pb_addr addrs[PB_RX_PEER_ADDRS];
};

/*
 * The lab's receiver, loaded and attached to an interface of the calling thread's namespace
 * (receiver/rx.c); it can be read from any namespace afterwards. 0 or -errno, reason said.
 */
int pb_rx_source_lab(struct pb_rx_source *src, int ifindex, const char *ifname,
		     enum pb_xdp_mode mode);
/*
 * A `pktbench receive` agent at url (receiver/client.c): it must answer /v1/info, which fills
 * peer, before src reads it over HTTP. Once *stop is set (a signal), the reads still made
 * get half a second in all. 0, or -errno with why in err.
 */
int pb_rx_source_agent(struct pb_rx_source *src, const char *url, const int *stop,
		       struct pb_rx_peer *peer, char *err, size_t errlen);

/* Undoes either of the above and clears src; a cleared src is left alone. */
static inline void pb_rx_source_close(struct pb_rx_source *src)
{
	if (src->close)
		src->close(src->ctx);
	*src = (struct pb_rx_source){ 0 };
}

#endif
