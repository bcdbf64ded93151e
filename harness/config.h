/* SPDX-License-Identifier: MIT */
/*
 * The run's configuration: filled from the option table (options.c), then resolved
 * (addresses, interface, MACs) before any method opens. Methods only read it.
 */
#ifndef PB_CONFIG_H
#define PB_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <net/if.h>
#include <netinet/in.h>

#define PB_MAX_STREAMS	64
#define PB_MAX_REPEAT	99 /* --repeat N: at most this many rounds a row */
#define PB_MAX_SEGMENTS 64 /* UDP_MAX_SEGMENTS: what one GSO datagram may carry */
#define PB_IMIX_MAX	64 /* frames in one cycle of a mix: the weights' sum */

/* An IPv4 or IPv6 address; family is AF_INET or AF_INET6. */
struct pb_addr {
	int family;
	union {
		struct in_addr v4;
		struct in6_addr v6;
	};
};

enum pb_format {
	PB_FORMAT_TABLE,
	PB_FORMAT_JSON,
	PB_FORMAT_CSV,
};

/* --xdp-mode: how an XDP attachment or AF_XDP bind is made; auto tries native first. */
enum pb_xdp_mode {
	PB_XDP_AUTO,
	PB_XDP_NATIVE,
	PB_XDP_GENERIC,
};

/* --zerocopy and similar on/off/auto switches. */
enum pb_tristate {
	PB_AUTO,
	PB_ON,
	PB_OFF,
};

/* --lab: what sits between the lab's sender and receiver. */
enum pb_lab_kind {
	PB_LAB_DIRECT, /* nothing: one veth pair */
	PB_LAB_ROUTER, /* a namespace that routes IPv4 and IPv6 between two prefixes */
	PB_LAB_BRIDGE, /* a namespace with a Linux bridge joining two veths */
};

#define PB_MAX_SWEEP 32

#define PB_LATENCY_PPS 1000.0 /* --latency-pps's default: probes per second over all streams */

/* --sweep: one run per value, each a row of its own. */
enum pb_sweep_kind {
	PB_SWEEP_NONE,
	PB_SWEEP_FRAME_SIZE, /* frame bytes without FCS, as --frame-size */
	PB_SWEEP_STREAMS,
	PB_SWEEP_BATCH,	   /* as --batch */
	PB_SWEEP_SEGMENTS, /* as --segments */
	PB_SWEEP_RING,	   /* as --ring */
	PB_SWEEP_PPS,	   /* as --pps: one run per rate */
};

struct pb_sweep {
	enum pb_sweep_kind kind;
	uint32_t values[PB_MAX_SWEEP];
	uint32_t n;
	/* a --pps profile: each value a step of secs[i] seconds, one method's steps in a row */
	bool profile;
	double secs[PB_MAX_SWEEP];
};

/* --timing: how a --replay capture is scheduled (--pps or --rate space it evenly instead). */
enum pb_replay_timing {
	PB_TIMING_ORIGINAL, /* the file's own gaps, divided by --multiplier */
	PB_TIMING_TOPSPEED, /* no deadlines: as fast as the path goes */
};

/* --preload: whether a --replay capture is read into memory or streamed from disk. */
enum pb_replay_preload {
	PB_PRELOAD_AUTO,   /* into memory when the file is at most --preload-max, else streamed */
	PB_PRELOAD_ALWAYS, /* into memory whatever its size */
	PB_PRELOAD_NEVER,  /* streamed from disk through a bounded window */
};

/* --pace: how a paced sender waits for its next frame. */
enum pb_pace {
	PB_PACE_AUTO,  /* sleep for --pps and --rate; spin for a --replay's schedule */
	PB_PACE_SLEEP, /* slept to the instant (1 ns timer slack); what fell due goes at once */
	PB_PACE_SPIN,  /* the last 100 us of every wait spun: exact gaps, a CPU busy */
};

/* pktbench rfc2544: which tests (--tests), as bits. */
#define PB_RFC_T_THROUGHPUT (1u << 0)
#define PB_RFC_T_LATENCY    (1u << 1)
#define PB_RFC_T_LOSS	    (1u << 2)
#define PB_RFC_T_B2B	    (1u << 3)
#define PB_RFC_MAX_SIZES    16

/* pktbench rfc2544 --search: how throughput is searched. */
enum pb_rfc_search {
	PB_RFC_SEARCH_BINARY, /* RFC 2544's: one loss tolerance, a bisection */
	PB_RFC_SEARCH_MLR,    /* RFC 9971's multiple loss ratio search: every --goal at once */
};

#define PB_RFC_MAX_GOALS 8

/* An RFC 9971 Search Goal (--goal), in its units: ratios (not %) and seconds. */
struct pb_rfc_goal {
	double loss_ratio;   /* Goal Loss Ratio */
	double final_s;	     /* Goal Final Trial Duration */
	double sum_s;	     /* Goal Duration Sum */
	double exceed_ratio; /* Goal Exceed Ratio */
	double initial_s;    /* Goal Initial Trial Duration */
	double width;	     /* Goal Width, relative to the upper bound */
};

/* pktbench rfc2544's own options (harness/rfc2544.c); zero for pktbench itself. */
struct pb_rfc2544_opts {
	char tests_spec[64];		  /* --tests as given */
	char sizes_spec[160];		  /* --frame-sizes as given */
	unsigned int tests;		  /* PB_RFC_T_* from tests_spec */
	uint32_t sizes[PB_RFC_MAX_SIZES]; /* RFC frame sizes: wire bytes, FCS included */
	uint32_t nsizes;
	double trial_s;		   /* --trial: each trial's seconds */
	double final_trial_s;	   /* --final-trial: the throughput's confirmation; 0: trial_s */
	double trial_gap_s;	   /* --trial-gap: pause before each trial */
	double loss_tolerance_pct; /* 0: NDR */
	double precision_pct;	   /* the searches' resolution */
	double loss_step_pct;	   /* 26.3's load step */
	uint32_t max_trials;	   /* per search */
	uint32_t retries;	   /* a failed search trial is tried this many times more */
	uint32_t b2b_repeat;	   /* 26.4's repetitions */
	int search;		   /* --search: enum pb_rfc_search */
	char goals_spec[512];	   /* --goal as given, one goal after another, ';' apart */
	struct pb_rfc_goal goals[PB_RFC_MAX_GOALS]; /* from goals_spec, or NDR and PDR */
	uint32_t ngoals;
};

/*
 * The options the user gave (the command line or a scenario file), by long name: what a check
 * of two options needs that a value equal to its default cannot tell (options/cmd.c).
 */
#define PB_GIVEN_MAX 128 /* a command's rows at most (rfc2544's table holds 128) */
struct pb_given {
	const char *name[PB_GIVEN_MAX]; /* the rows' own names */
	unsigned int n;
};

/* Whether the user gave the option name (a row's long name). */
static inline bool pb_given(const struct pb_given *g, const char *name)
{
	unsigned int i;

	for (i = 0; i < g->n; i++)
		if (!strcmp(g->name[i], name))
			return true;
	return false;
}

struct pb_config {
	/* what to run: a method, a comma-separated list of them, or "benchmark" */
	char method[256];
	struct pb_sweep sweep;
	char config[256]; /* --config: the scenario file the values below started from */
	double duration_s;
	uint64_t count;		/* 0: run for duration_s */
	double count_timeout_s; /* --count's time bound; 0: derived from the count and rate */
	uint32_t repeat;	/* runs per row; the row is the median run by packets/s */
	uint32_t batch;		/* 0: the method's default */
	uint32_t streams;
	uint32_t segments; /* gso: segments per sendmsg */
	bool segments_set; /* given: not lowered to what fits a datagram */
	uint32_t ring;	  /* --ring: descriptors / slots / entries of a method's ring; 0: its own */
	bool tune;	  /* --tune: search each method's knobs first, then run at the best */
	double pps;	  /* aggregate rate limit over all workers; 0: as fast as it goes */
	double rate_gbps; /* the same as wire (L1) Gb/s; turned into pps once the frame is known */
	uint32_t cpus[PB_MAX_STREAMS]; /* --cpus: worker i runs on cpus[i % ncpus] */
	uint32_t ncpus;

	/* where: an empty iface means the namespace lab */
	char iface[IF_NAMESIZE];
	enum pb_lab_kind lab_kind; /* --lab: direct, router or bridge */
	bool lab_set; /* --lab was given (rfc2544 asks for a device under test) */
	char lab_dut_setup[256];   /* --lab-dut-setup: a script run in the DUT's namespace */
	bool keep_lab;
	uint32_t lab_mtu;	/* --mtu: the lab's veth MTU; 0: 1500, or what the frame needs */
	char lab_tx_setup[256]; /* a script run in the lab's sender namespace once it is up */
	double link_timeout_s;
	enum pb_xdp_mode xdp_mode;
	enum pb_tristate zerocopy;
	bool force; /* may replace an XDP program found on --iface (and restores it after) */
	bool allow_mgmt_iface; /* --iface may be the default route's or the SSH session's */
	char receiver[256];    /* --iface: a `pktbench receive` agent's URL; "": no receiver */

	/* many senders as one test (fleet.h) */
	char start_at_spec[64]; /* --start-at as given */
	int64_t start_at_ns;	/* its instant, ns since the epoch (UTC); 0: start at once */
	char shard_spec[16];	/* --shard as given */
	uint32_t shard_index, shard_count; /* this sender is shard_index of shard_count; 0: none */
	char test_id[40];		   /* --test-id: the whole test's UUID, lower case */

	/* the traffic */
	struct pb_addr srcip, dstip;
	bool dstip_set; /* --dstip was given: the router lab's default lies in 198.19.0.0/24 */
	uint8_t srcmac[6], dstmac[6];
	bool srcmac_set, dstmac_set;
	uint16_t srcport, dstport;
	uint32_t payloadsize;
	uint32_t frame_size;  /* --frame-size: overrides payloadsize once the headers are known */
	bool imix;	      /* a mix of sizes: the 7:4:1 of 64/594/1518, or --imix-sizes */
	char imix_sizes[160]; /* --imix-sizes: wire sizes and weights, "64:7,594:4,9018:1" */
	uint32_t imix_cycle[PB_IMIX_MAX]; /* one cycle of the mix's frames (without FCS) */
	uint32_t imix_n;
	uint32_t flows;	   /* flows over all streams (at least one per stream) */
	bool flows_src_ip; /* flows vary the source address first, then the port */
	uint32_t vlan;	   /* 802.1Q VLAN id, 0: untagged */
	uint32_t vlan_prio;

	/* --replay (replay.h): a capture's UDP frames instead of built ones */
	char replay[256];
	enum pb_replay_timing replay_timing;
	bool topspeed;	     /* --topspeed: the same as --timing topspeed */
	double multiplier;   /* --multiplier: original gaps divided by it; 0: 1 */
	uint32_t loop;	     /* passes over the file; 0: until --duration */
	double loop_delay_s; /* added to the gap at each wrap */
	enum pb_pace pace;
	enum pb_replay_preload preload;
	uint32_t preload_max_mib; /* --preload auto: the most memory a preloaded file may take */
	char rewrite_ip[256];	  /* --rewrite-ip: "run", or FROM/LEN=TO/LEN[,...] */
	char rewrite_port[128];	  /* --rewrite-port: FROM=TO[,...] */
	bool vlan_strip; /* --vlan-strip: a frame method sends the capture's frames untagged */
	uint64_t limit;	 /* --limit: the replay's first N frames at most; 0: no bound */
	bool fixcsum;	 /* --fixcsum: a frame method computes a frame's checksums afresh */

	/* latency probes (probe.h) */
	bool latency;	    /* one frame in N of each stream is a probe */
	double latency_pps; /* probes per second over all streams; 0: PB_LATENCY_PPS */
	bool synced_clocks; /* the user asserts the clocks are synchronised: stamp CLOCK_TAI */

	struct pb_rfc2544_opts rfc; /* pktbench rfc2544 only */

	/* output */
	enum pb_format format;
	char output[256];
	char stream[256]; /* --stream: NDJSON intervals and rows as they happen ("-": stdout) */
	bool quiet;
	bool show_counters; /* the table adds the three-point accounting */
	bool wide;	    /* --wide: the table's every column, whatever the terminal's width */
	int verbose;

	/* resolved before the run, never set by the user */
	bool lab;
	char ifname[IF_NAMESIZE]; /* the sending interface: --iface, or the lab's sender end */
	int ifindex;		  /* its index, in the namespace the sender runs in */
	uint32_t mtu;
	uint32_t tx_queues;
	/*
	 * The run's id, in every payload: the runner draws a fresh one for every run (method x
	 * repeat x sweep point) into its own copy of the configuration, so late frames of one
	 * run are never counted for the next.
	 */
	uint32_t run_id;
	char command[1024];
	struct pb_given given;
};

/* A paced run (--pps, --rate): its frames carry the paced kinds, and the receiver times them. */
static inline bool pb_config_paced(const struct pb_config *cfg)
{
	return cfg->pps > 0 || cfg->rate_gbps > 0;
}

#endif
