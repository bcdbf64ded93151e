/* SPDX-License-Identifier: MIT */
/*
 * Results: raw counts from a run, then the derived figures. The arithmetic lives here and
 * nowhere else; writers (results/) only format a finished struct pb_result.
 */
#ifndef PB_STATS_H
#define PB_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "counter.h"
#include "latency.h"

#define PB_L1_OVERHEAD	 24 /* 4 FCS + 8 preamble/SFD + 12 inter-frame gap */
#define PB_RESULT_QUEUES 16 /* RX queues a result reports one by one */

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
	bool delivered_known; /* the receiver answered for this second */
	/* --latency with --stream: the probes that arrived in this second, their latency */
	bool lat_known;
	uint64_t lat_n;
	double lat_p50_us, lat_p99_us;
};

/*
 * Counter deltas over the window, exactly as read from the path. The netting (what is
 * subtracted from what) happens in pb_result_compute() alone; these stay raw in the JSON.
 */
struct pb_raw_counts {
	bool have_tx;		  /* the sending interface's counters were read before and after */
	uint64_t tx_packets;	  /* its tx_packets (others' traffic too, when shared) */
	uint64_t tx_dropped;	  /* its own drop counter */
	uint64_t qdisc_drops;	  /* its root qdiscs' drops */
	uint64_t xdp_xmit_errors; /* veth: XDP frames the peer refused */
	bool have_rx;		  /* the receiving interface's counters were read */
	uint64_t rx_packets, rx_dropped, rx_missed_errors, rx_fifo_errors;
	uint64_t rx_driver_drops; /* ethtool's drop/discard/miss counters: shown, not netted */
	bool have_dut; /* a device under test's counters were read (the router or bridge lab) */
	uint64_t dut_rx_dropped, dut_tx_dropped, dut_qdisc_drops;
};

/* How frames_dropped came out of the raw counts. */
enum pb_netting {
	PB_NET_OK,
	PB_NET_SKIPPED,	 /* no drop counters could be read: dropped and accounted unknown */
	PB_NET_NEGATIVE, /* the reported drops exceed what the counters saw: dropped set to 0 */
};

/* pktbench rfc2544: what a row is in the report. */
enum pb_rfc_test {
	PB_RFC_NONE, /* not an RFC 2544 row */
	PB_RFC_THROUGHPUT,
	PB_RFC_LATENCY,
	PB_RFC_LOSS,
	PB_RFC_B2B,
};

struct pb_rfc_row {
	enum pb_rfc_test test;
	bool summary;	       /* the test's answer; else one of its trials (a normal run) */
	uint32_t frame_size;   /* the RFC's frame size: wire bytes, FCS included */
	uint32_t trial;	       /* trials: 1, 2, ... within test, frame size and method */
	uint32_t repetition;   /* back-to-back trials: which repetition, from 1 */
	double load_pct;       /* loss: the offered load, % of the unpaced maximum; < 0: none */
	double loss_pct;       /* trials: 100 x (sent - delivered) / sent; loss rows: the answer */
	bool passed;	       /* trials: lost no more than --loss-tolerance */
	uint64_t burst_frames; /* back-to-back: the trial's burst; summary: the mean, rounded */
	/* summary rows: the answer */
	double throughput_pps, throughput_wire_gbps;
	bool sender_limited; /* the send path's own maximum passed: the DUT is not the limit */
	bool pushed_back;    /* the maximum passed, but the path held the sender to it: unknown */
	double max_pps;	     /* the unpaced maximum the test started from */
	double burst_mean, burst_stddev;
	uint64_t burst_min, burst_max;
	uint32_t repetitions;
	uint32_t trials; /* trials the answer took */
	char search[16]; /* how the search ended: found, none, exhausted, path-max */
	/* latency: at the throughput rate, as the row's probes reported it; NAN: none */
	double lat_rate_pps, p50_us, p99_us, max_us, mean_us;
	/* --search mlr: a summary row per goal, RFC 9971's Goal Result (throughput_pps is the
	 * conditional throughput) */
	uint32_t goal;		     /* which goal, from 1; 0: not an MLRsearch row */
	struct pb_rfc_goal mlr;	     /* the goal's attributes */
	char goal_spec[160];	     /* ... as --goal takes them (loss=0.005,final=2,...) */
	double lower_pps, upper_pps; /* the relevant lower and upper bound (loads); NAN: none */
	bool regular;		     /* both bounds, within the goal's width */
	double search_s;	     /* the trial seconds of the whole search, every goal's */
};

/* Why frames of a --replay capture were not sent (replay.c). */
enum pb_replay_skip {
	PB_RSKIP_NOT_IP,	/* not IPv4 or IPv6 over Ethernet (ARP, LLDP, ...) */
	PB_RSKIP_NOT_UDP,	/* TCP, ICMP, ...: a socket method sends UDP payloads only */
	PB_RSKIP_FRAGMENT,	/* an IP fragment (IPv6: a fragment header) */
	PB_RSKIP_TRUNCATED,	/* captured shorter than it was, or a malformed header */
	PB_RSKIP_SHORT_PAYLOAD, /* under the 8 bytes the signature needs */
	PB_RSKIP_TOO_BIG,	/* more than the interface's MTU: reported, never cut */
	PB_RSKIP_FAMILY,	/* UDP of the other address family than the run's socket's */
	PB_RSKIP_N,
};

/* --replay: what was replayed, and how well the sender kept the schedule. */
struct pb_replay_stats {
	bool on;
	bool timed;	    /* false with --topspeed: no deadlines to miss */
	const char *timing; /* "original", "pps", "rate" or "topspeed" */
	double multiplier;
	uint64_t file_frames; /* every frame in the file */
	uint64_t pass_frames; /* of those, replayed once per pass */
	uint64_t skipped[PB_RSKIP_N];
	uint64_t frames; /* handed to the kernel over the run, all passes */
	uint64_t bytes;	 /* their bytes as handed over */
	bool rx_known;
	uint64_t rx_bytes;	 /* the bytes of this run's frames the receiver counted */
	uint64_t loops;		 /* complete passes */
	double file_duration_s;	 /* first to last replayed frame, as the file times them */
	uint64_t backwards;	 /* stamps that went back in file order: gaps taken as zero */
	bool cut;		 /* the file's last record was cut short ... */
	uint64_t cut_bytes;	 /* ... by this many bytes: the frames before it replayed */
	double sched_duration_s; /* first to last frame sent, as the schedule asked */
	double run_duration_s;	 /* first to last departure */
	double drift_ppm;	 /* (run - scheduled) / scheduled, in ppm */
	double dep_p50_us, dep_p99_us, dep_max_us; /* departure after deadline */
	bool gaps_known;			   /* the receiver timed the arrival gaps */
	double gap_p50_us, gap_p99_us, gap_max_us; /* the schedule's own gaps in a stream */
	/* arrival gap quantile - the schedule's (max: to the receiver's histogram bucket) */
	double gap_err_p50_us, gap_err_p99_us, gap_err_max_us;
	bool streamed;		/* read from disk through a window, not preloaded */
	uint64_t window_frames; /* streamed: the windows' frames, all streams */
	uint64_t reader_waits;	/* streamed: times a sender found its window empty */
	bool reader_failed;	/* streamed: the reader stopped on an error (said why) */
};

/* --repeat: one round of a row, in the order it ran. */
struct pb_round {
	double pps;
	uint16_t sender_cpu; /* 1 + the CPU its first stream was found on most; 0: not looked */
};

/* A row whose rounds spread more than this ((max - min) / median, %) is not a steady figure. */
#define PB_ROUNDS_SPREAD_MARK_PCT 10.0

struct pb_result {
	char method[32];
	char mode[64];
	char point[32]; /* the sweep point, e.g. "frame-size=64"; "" without --sweep */
	enum pb_status status;
	char reason[160];
	bool interrupted; /* Ctrl-C/SIGTERM ended it early: a partial result */
	bool timed_out;	  /* --count was not reached within --count-timeout: partial */
	bool measured;	  /* the window ran: the figures below mean something (even on error) */
	uint32_t runs;	  /* --repeat: the runs this row is the median of (0 or 1: one run) */
	double pps_min, pps_max; /* --repeat: the slowest and the fastest run; 0 for one run */
	uint32_t nrounds;	 /* --repeat: the rounds below (0: one run) */
	struct pb_round rounds[PB_MAX_REPEAT];
	double rounds_spread_pct; /* (max - min) / the row's pps, in %; with nrounds > 1 */
	uint32_t run_id;	 /* the signature this run's frames carried */
	/* many senders as one test (fleet.h): the configuration's, and the start instant */
	char test_id[40];
	char node[64];				   /* the sender's host name */
	char shard[24];				   /* "I/N"; "" without --shard */
	int64_t start_planned_ns, start_actual_ns; /* 0: no --start-at wait before this run */
	int64_t start_cpu_wait_ns; /* of the start's lateness, waiting for a CPU; -1 unknown */

	/* raw counts */
	double duration_s;    /* measured window: clock start to the last worker drained */
	double link_wait_s;   /* carrier wait before the clock started, outside the window */
	double link_down_s;   /* time the carrier was down inside the window */
	uint32_t link_downs;  /* times it went down inside the window */
	bool link_failed;     /* the link was not up within --link-timeout: nothing was sent */
	uint32_t frame_bytes; /* per frame, as handed to the kernel, without FCS */
	bool vlan;	      /* tagged frames: the wire minimum is 64, not 60 */
	bool imix;	      /* mixed sizes: frame_bytes is the (rounded) average */
	double frame_avg;     /* mean bytes per frame; 0: frame_bytes */
	double wire_avg;      /* mean wire (L1) bytes per frame; 0: from frame_bytes */
	bool padded;	      /* the frame was padded up to the Ethernet minimum */
	uint32_t streams;
	uint64_t frames_sent;	   /* accepted or completed by the kernel, not reported dropped */
	uint64_t frames_retried;   /* attempts the path dropped and reported, sent again */
	uint64_t frames_undrained; /* still in flight when the drain limit passed: not counted */
	uint64_t send_errors;	   /* calls that found the path full (EAGAIN) and were retried */
	uint64_t send_eagain;	   /* of those, the calls a full socket or ring refused (EAGAIN) */
	double send_blocked_s;	   /* time the path held the sender back: from a refused call
				    * (its own wait included) to the next call that moved frames */
	uint64_t paced_behind;	   /* paced: frames the schedule had due that never went (the
				    * sender fell behind: a full path, or its CPU) */
	uint16_t sender_cpu[PB_MAX_STREAMS]; /* 1 + the CPU each stream was found on most; 0: not
						looked */
	uint32_t sender_cpu_moves; /* looks (one a second) that found a stream on a new CPU */
	const char *pacing;	   /* paced: "sleep" or "spin" (--pace); NULL: not paced */
	double pace_p50_us, pace_p99_us, pace_max_us; /* paced: departures' lateness */
	double send_call_s;   /* paced: time inside send() calls (a qdisc run by the sending
			       * thread, its timers: a wait the probes' stamps do not see) */
	bool rx_restarted;    /* the receiver restarted inside the window: counts unknown */
	bool rx_evicted;      /* the receiver's runs table pushed this run's counts out */
	uint64_t syscalls;    /* system calls the method made in the window */
	bool has_receiver;    /* a receiver was asked: false on a bare --iface */
	bool delivered_known; /* the receiver answered; false: rx_error says why */
	char rx_error[96];
	uint64_t frames_delivered; /* counted by the receiver with this run's signature */
	uint64_t bytes_delivered;  /* their bytes, each frame whole (FCS not counted) */
	uint64_t frames_foreign;   /* frames the receiver saw without a pktbench signature */
	uint64_t frames_extra;	   /* delivered beyond sent: frames with this run's signature
				    * that it did not send (pb_result_check_extra) */
	/*
	 * By sequence number at the receiver (docs/accounting.md): a number seen before (not
	 * delivered), after a later one (delivered), too far out of order to tell (not
	 * delivered), no sequence check (delivered: a frame without a number, or its window
	 * busy with another run's stream)
	 */
	uint64_t frames_duplicate, frames_reordered, frames_out_of_window, frames_unchecked;
	/* with its signature, but what the host would not take (not delivered) */
	uint64_t frames_corrupt, frames_not_for_host;
	struct pb_raw_counts raw;
	bool shared_iface;    /* --iface: raw.tx_packets includes traffic that is not ours */
	bool veth_pair;	      /* the lab: a refused XDP frame is in both ends' drop counters */
	bool dut_veth;	      /* a lab DUT's input counts the sender's tx drops again */
	double cpu_s;	      /* CPU time of the sending threads over their sending window */
	uint32_t flows_seen;  /* distinct source ports the receiver saw (with a receiver) */
	uint16_t rx_vlans[4]; /* VLAN ids the receiver saw (0: untagged), the first few */
	uint32_t nrx_vlans;
	uint32_t rx_queues; /* RX queues the receiver counted on (<= PB_RESULT_QUEUES) */
	uint64_t rx_queue_frames[PB_RESULT_QUEUES]; /* delivered per RX queue */
	double target_pps;			    /* --pps / --rate as packets/s; 0: unlimited */
	struct pb_sample *samples; /* one a second, owned: pb_result_release() frees them */
	uint32_t nsamples;
	struct pb_latency latency; /* --latency: the probes (owns its lists, released likewise) */
	struct pb_gaps gaps;	   /* a paced run: the gaps between frames at the receiver */
	struct pb_rfc_row rfc;	   /* pktbench rfc2544: the row's place in the report */
	struct pb_replay_stats replay; /* --replay */

	/* derived by pb_result_compute() */
	enum pb_netting netting;
	uint64_t netting_deficit; /* PB_NET_NEGATIVE: by how much the counters fell short */
	uint64_t frames_dropped;  /* lost on the path, by the kernel's counters, net */
	double rx_queue_cv;	  /* the per-queue spread: stddev / mean over the queues counted */
	double pps;
	double offered_pps; /* every attempt over the window: sent + retried (what was offered) */
	bool pushed_back; /* the path held the sender back (send_blocked_s >= PB_PUSHBACK_SHARE) */
	double app_mbps;
	double wire_gbps;
	double delivered_pct; /* meaningful only with has_receiver && delivered_known */
	double accounted_pct; /* (delivered + dropped) / sent; also needs netting != SKIPPED */
	double cpu_ns_per_pkt;
	double syscalls_per_frame;
};

/* A sender blocked this share of its window was held back by the path, not by its CPU. */
#define PB_PUSHBACK_SHARE 0.05

/* Wire (L1) bytes of one frame: max(frame, 60 or 64 tagged) + 24. */
/*
 * A replay's frames left out, kind by kind ("not UDP (TCP, ICMP...) 20, IP fragments 3"), into
 * buf: how many in all (0: none, buf empty).
 */
uint64_t pb_replay_skips_str(const uint64_t skipped[PB_RSKIP_N], char *buf, size_t len);
/*
 * A histogram of lateness in 1 us buckets, nb of them, then one for later (h[nb]), total
 * samples: the upper bound of the bucket that holds the q-th quantile, at most max_us (the
 * exact latest). The replay's departures and the pacer's use it.
 */
double pb_us_quantile(const uint64_t *h, uint32_t nb, uint64_t total, double q, double max_us);
uint32_t pb_wire_bytes(uint32_t frame_bytes, bool vlan);
/* pps x bytes x 8 in Gb/s: the L1 rate of a given packet rate. */
double pb_wire_gbps(double pps, uint32_t frame_bytes, bool vlan);
double pb_app_mbps(double pps, uint32_t frame_bytes);
/* Coefficient of variation (population stddev / mean) of n counts; 0 below 2 or mean 0. */
double pb_spread(const uint64_t *v, uint32_t n);
/*
 * Fills the derived fields from the raw counts, the netting included:
 *   dropped = tx_dropped + qdisc_drops + rx_dropped + rx_missed_errors + rx_fifo_errors
 *             + dut_rx_dropped + dut_tx_dropped + dut_qdisc_drops (a DUT in the path)
 *             - xdp_xmit_errors (veth pair only: counted at both ends)
 *             - tx_dropped (a lab DUT: its input end counted the same frames)
 *             - frames_retried (reported drops, already not counted as sent)
 */
void pb_result_compute(struct pb_result *r);
/*
 * Delivered above sent is never a result: more frames carried the run's signature than it
 * sent (forged, replayed, or counted twice), so delivered is not what this run delivered.
 * Sets frames_extra to the difference and makes the row an error that names it (the first
 * error's reason stays, where the row was one already). 0 extra: nothing changes.
 */
void pb_result_check_extra(struct pb_result *r);
/*
 * Frames that arrived twice, corrupt or for another host make delivered no proof of what the
 * path delivered (a duplicate hides a loss): such a row is an error whose reason starts with
 * what happened ("duplicates: ...", "corrupt: ..."), the first error's reason kept where the
 * row was one already. Frames out of the window are delivered unchecked, and make no error of
 * their own. None: nothing changes.
 */
void pb_result_check_seq(struct pb_result *r);
/* Whether delivered % and accounted % can be shown for r. */
bool pb_result_has_delivered(const struct pb_result *r);
bool pb_result_has_accounted(const struct pb_result *r);
const char *pb_netting_name(enum pb_netting n);
const char *pb_status_name(enum pb_status s);
/* "throughput", "latency", "loss", "back-to-back"; NULL for PB_RFC_NONE. */
const char *pb_rfc_test_name(enum pb_rfc_test t);
/* Frees what a result owns (samples, latency lists); the struct stays valid, empty of them. */
void pb_result_release(struct pb_result *r);
/*
 * --repeat: which of runs[0..n) (n > 0, in the order they ran; only the last may be not ok)
 * makes the row. A last run that was skipped or failed is the row, whatever the runs before
 * it did. Else the runs are sorted by pps, the median is the row, and with n > 1 it gets the
 * slowest and fastest run's pps (pps_min, pps_max), its rounds in the order they ran and
 * their spread, (max - min) / its pps (rounds_spread_pct). Returns the row's index into runs.
 */
uint32_t pb_result_pick(struct pb_result *runs, uint32_t n);

#endif
