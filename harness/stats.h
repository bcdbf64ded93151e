/* SPDX-License-Identifier: MIT */
/*
 * Results: raw counts from a run, then the derived figures. The arithmetic lives here and
 * nowhere else; writers (results/) only format a finished struct pb_result.
 */
#ifndef PB_STATS_H
#define PB_STATS_H

#include <stdbool.h>
#include <stdint.h>

#define PB_L1_OVERHEAD 24
#define PB_RESULT_QUEUES                                                                           \
	16 /* RX queues a result reports one by one */ /* 4 FCS + 8 preamble/SFD + 12 inter-frame  \
							  gap */

enum pb_status {
	PB_STATUS_OK,
	PB_STATUS_SKIPPED, /* probe said no: reason holds why */
	PB_STATUS_ERROR,   /* it started but failed: reason holds the error */
};

/* Cumulative counts at t seconds after the clock started: the per-second view of a run. */
struct pb_sample {
	double t;
	uint64_t sent;
	uint64_t delivered;
};

struct pb_result {
	char method[32];
	char mode[32];
	char point[32]; /* the sweep point, e.g. "frame-size=64"; "" without --sweep */
	enum pb_status status;
	char reason[160];
	bool interrupted; /* Ctrl-C/SIGTERM ended it early: a partial result */
	uint32_t runs;	  /* --repeat: the runs this row is the median of (0 or 1: one run) */

	/* raw counts */
	double duration_s;    /* measured window: clock start to the last worker drained */
	double link_wait_s;   /* carrier wait before the clock started, outside the window */
	uint32_t frame_bytes; /* per frame, as handed to the kernel, without FCS */
	bool vlan;	      /* tagged frames: the wire minimum is 64, not 60 */
	bool imix;	      /* mixed sizes: frame_bytes is the (rounded) average */
	double frame_avg;     /* mean bytes per frame; 0: frame_bytes */
	double wire_avg;      /* mean wire (L1) bytes per frame; 0: from frame_bytes */
	bool padded;	      /* the frame was padded up to the Ethernet minimum */
	uint32_t streams;
	uint64_t frames_sent;	   /* accepted or completed by the kernel */
	bool has_receiver;	   /* false on a real NIC: delivered is unknown, not zero */
	uint64_t frames_delivered; /* counted by the lab receiver with this run's signature */
	uint64_t frames_foreign;   /* frames the receiver saw without this run's signature */
	uint64_t frames_dropped;   /* drops the kernel counted on the path, less retried */
	uint64_t frames_retried;   /* dropped attempts that were sent again (not lost) */
	uint64_t send_errors;	   /* transient errors (EAGAIN, ENOBUFS) the harness retried */
	double cpu_s;		   /* user + system CPU time of the process in the window */
	uint32_t flows_seen;	   /* distinct source ports the receiver saw (with a receiver) */
	uint16_t rx_vlans[4];	   /* VLAN ids the receiver saw (0: untagged), the first few */
	uint32_t nrx_vlans;
	uint32_t rx_queues; /* RX queues the receiver counted on (<= PB_RESULT_QUEUES) */
	uint64_t rx_queue_frames[PB_RESULT_QUEUES]; /* delivered per RX queue */
	double target_pps;			    /* --pps / --rate as packets/s; 0: unlimited */
	struct pb_sample *samples; /* one a second, owned: pb_result_release() frees them */
	uint32_t nsamples;

	/* derived by pb_result_compute() */
	double rx_queue_cv; /* the per-queue spread: stddev / mean over the queues counted */
	double pps;
	double app_mbps;
	double wire_gbps;
	double delivered_pct; /* meaningful only with has_receiver */
	double accounted_pct; /* (delivered + dropped) / sent */
	double cpu_ns_per_pkt;
};

/* Wire (L1) bytes of one frame: max(frame, 60 or 64 tagged) + 24. */
uint32_t pb_wire_bytes(uint32_t frame_bytes, bool vlan);
/* pps x bytes x 8 in Gb/s: the L1 rate of a given packet rate. */
double pb_wire_gbps(double pps, uint32_t frame_bytes, bool vlan);
double pb_app_mbps(double pps, uint32_t frame_bytes);
/* Coefficient of variation (population stddev / mean) of n counts; 0 below 2 or mean 0. */
double pb_spread(const uint64_t *v, uint32_t n);
/* Fills the derived fields from the raw counts. */
void pb_result_compute(struct pb_result *r);
const char *pb_status_name(enum pb_status s);
/* Frees what a result owns (its samples); the struct itself stays valid and empty of them. */
void pb_result_release(struct pb_result *r);

#endif
