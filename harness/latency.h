/* SPDX-License-Identifier: MIT */
/*
 * What a run's latency probes and (paced runs) frame gaps came to: the receiver's per-stream
 * counts and histograms (struct pb_rx_run) and the sender's probe counts turned into the
 * row's `latency` and `gaps` objects. The arithmetic is here; writers only format it.
 */
#ifndef PB_LATENCY_H
#define PB_LATENCY_H

#include <stdbool.h>
#include <stdint.h>

#include "pb_lat.h"

struct pb_rx_run;

/* A histogram bucket that holds samples: its upper bound and how many. */
struct pb_hist_pair {
	uint64_t upper_ns;
	uint64_t count;
};

/* One stream's probes. */
struct pb_lat_stream {
	uint32_t stream;
	uint64_t sent, received, lost, reordered, duplicated;
	uint64_t samples; /* probes whose latency was taken */
	double min_us, mean_us, max_us;
	bool jitter_known; /* two probes or more arrived */
	double jitter_us;
};

struct pb_latency {
	bool on;       /* --latency: the row has a latency object */
	bool measured; /* the receiver reported the run's probes: the counts mean something */
	bool timed;    /* the latency figures mean something; else why says why they are null */
	char why[160];
	bool tai;		 /* the probes carried CLOCK_TAI (--synced-clocks) */
	bool includes_retries;	 /* the path re-sends a dropped probe with its first stamp
				  * (PB_M_REPOST): none is lost, the retries are in its latency */
	uint64_t probes_sent;	 /* handed to the kernel, by the sender's count */
	uint64_t probes_dropped; /* of those, dropped by the path and reported to the sender */
	uint64_t probes_received, lost, reordered, duplicated;
	uint64_t samples;      /* probes whose latency was taken */
	uint64_t clock_errors; /* probes whose latency could not be taken (arrived "before" sent) */
	double min_us, mean_us, p50_us, p90_us, p99_us, p999_us, max_us;
	bool jitter_known;
	double jitter_us;	   /* RFC 3550, the mean over the streams */
	struct pb_hist_pair *hist; /* owned; the buckets that hold samples, ascending */
	uint32_t nhist;
	struct pb_lat_stream *streams; /* owned; the streams that sent or received probes */
	uint32_t nstreams;
};

/* The gaps between consecutive frames of each stream of a paced run, at the receiver. */
struct pb_gaps {
	bool on;       /* a paced run with a receiver: the row has a gaps object */
	bool measured; /* the receiver timed at least one gap */
	char why[96];
	double target_us; /* what the pacer aims at: 1 / (the stream's share of the rate) */
	uint64_t n;	  /* gaps timed */
	double mean_us;	  /* exact: from each stream's first and last arrival */
	double p1_us, p50_us, p99_us;
	double max_us; /* the top of the highest bucket with a gap in it */
	double cv;     /* standard deviation / mean, from the histogram */
	struct pb_hist_pair *hist;
	uint32_t nhist;
};

/* What the runner knows besides the receiver's counts. */
struct pb_lat_input {
	uint32_t streams;
	const uint64_t *probes_sent;	/* per stream */
	const uint64_t *probes_dropped; /* per stream, may be NULL */
	bool tai;			/* probes carried CLOCK_TAI */
	bool same_clock;	  /* the receiver reads the sender's CLOCK_MONOTONIC (the lab) */
	double gap_target_s;	  /* paced: the per-stream gap; 0: not paced */
	const uint64_t *lat_hist; /* the receiver's histograms (PB_HIST_BUCKETS), or NULL */
	const uint64_t *gap_hist;
};

/*
 * The p-quantile (0 < p <= 1) of the total samples in counts (PB_HIST_BUCKETS of them): the
 * upper bound of the bucket that holds the ceil(p total)-th smallest sample, within
 * [lo, hi] (the exact extremes, when known). 0 when there are no samples.
 */
uint64_t pb_hist_quantile(const uint64_t *counts, uint64_t total, double p, uint64_t lo,
			  uint64_t hi);
/* The buckets that hold samples as (upper bound, count) pairs, into *out (malloc'd). */
int pb_hist_pairs(const uint64_t *counts, struct pb_hist_pair **out, uint32_t *n);
/*
 * Fills lat (lat->on must be set) from the receiver's counts of the run and what the sender
 * knows. 0 or -ENOMEM.
 */
int pb_latency_compute(struct pb_latency *lat, const struct pb_rx_run *rx,
		       const struct pb_lat_input *in);
/* Fills gaps (gaps->on must be set) the same way. 0 or -ENOMEM. */
int pb_gaps_compute(struct pb_gaps *gaps, const struct pb_rx_run *rx,
		    const struct pb_lat_input *in);
void pb_latency_release(struct pb_latency *lat);
void pb_gaps_release(struct pb_gaps *gaps);

#endif
