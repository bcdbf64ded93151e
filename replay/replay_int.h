/* SPDX-License-Identifier: MIT */
/*
 * --replay's insides: the structures that replay.c (the engine's door: the schedule, the
 * figures), replay_file.c (the capture's frames) and replay_disk.c (streaming a capture from
 * disk through each stream's window) share. Nothing outside them includes it.
 */
#ifndef PB_REPLAY_INT_H
#define PB_REPLAY_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#ifdef PB_HAVE_PCAP
#include <pcap/pcap.h>
#endif

#include "config.h"
#include "frame.h"
#include "method.h"
#include "replay_rewrite.h"
#include "stats.h"

#define RP_HIST_US   10000 /* 1 us buckets of departure error up to 10 ms; later in the last */
#define RP_ALLOW_MAX 4096u /* frames one allowance hands out at most (a batch is smaller) */
/*
 * Streaming from disk: each stream's window holds at most RP_WIN_FRAMES frames and all of
 * them RP_WIN_BYTES (at 1 Mpps 2048 frames are 2 ms ahead of the sender); the reader and a
 * sender that finds its window full or empty nap RP_NAP_NS.
 */
#define RP_WIN_FRAMES  2048u
#define RP_WIN_MIN     64u
#define RP_WIN_BYTES   (16u << 20)
#define RP_NAP_NS      20000L
#define RP_GAP_BUCKETS (1u << 17) /* streamed: the schedule's gaps in 100 ns buckets, 13 ms */

/*
 * One replayable frame of the file, before it is rebuilt (UDP) or rewritten (whole). Whole
 * frames are held with RP_HEADROOM bytes free before each, so that a tag goes in, or out,
 * by moving the two MACs alone.
 */
struct rp_rec {
	uint64_t ts_ns;
	uint64_t data; /* offset in rp_file.buf of the whole frame, or of its UDP payload */
	uint32_t len;  /* the frame's captured bytes, or its UDP payload's */
	uint32_t flow; /* index of its 5-tuple (or MACs and EtherType), by first appearance */
	uint16_t tci;  /* its 802.1Q tag, when tagged */
	bool tagged;
};

#define RP_HEADROOM 4u
/*
 * What a preloaded frame takes beside its bytes: its record, its pool frame, its offset and
 * length in the stream's schedule (--preload auto's bound counts it).
 */
#define RP_FRAME_COST (sizeof(struct rp_rec) + sizeof(struct pb_frame) + sizeof(double) + 4)

struct rp_file {
	bool whole;	 /* a frame method's: every frame kept whole, not UDP payloads */
	uint64_t budget; /* the most a preload may take (RP_FRAME_COST a frame): 0, no bound */
	int family;	 /* not whole: the run's address family, the only one its socket sends */
	struct rp_rec *rec;
	uint32_t n, cap;
	uint8_t *buf;
	size_t used, room;
	uint64_t frames; /* every frame read */
	uint64_t skipped[PB_RSKIP_N];
	uint64_t cut_bytes; /* the last record was cut: this many of its bytes are missing */
	bool cut;
	uint32_t flows;
	/* the flow table: open addressing over 5-tuple keys */
	struct rp_flow {
		uint8_t key[37];
		bool used;
		uint32_t idx;
	} * ft;
	uint32_t ft_cap;
};

/* A pass's schedule as it is read, frame by frame (rp_offset). */
struct rp_clock {
	uint64_t k;	    /* frames of the pass so far: the next one's index */
	uint64_t t_prev;    /* the previous frame's stamp */
	uint64_t t_max;	    /* the file's clock: the latest stamp so far */
	uint64_t acc_ns;    /* the file's time to its clock: t_max less the first stamp */
	uint64_t backwards; /* stamps earlier than the one before: each such frame goes at once */
	double at;	    /* --rate: the wire time so far */
	double prev;	    /* the latest frame's offset */
	uint32_t wire;	    /* --rate: the latest frame's wire bytes */
};

struct pb_replay_stream {
	double *off;   /* each frame's offset in a pass, seconds */
	uint32_t *len; /* bytes each frame hands over */
	uint32_t n;
	double period;
	bool timed;
	struct pb_pool pool;
	double call_t; /* when the last allowance was asked (the departure of what follows) */
	double anchor; /* the schedule's origin: when the stream first asked */
	bool started;
	uint64_t noted; /* frames handed over so far */
	uint64_t due_k; /* frames before it are known due: deadlines never go back */
	uint64_t bytes;
	double first_t, last_t;
	uint64_t *hist; /* RP_HIST_US + 1 buckets */
	double max_err;
	double first_due, last_due; /* the first frame's deadline, the last noted one's */
	/*
	 * Streamed from disk: pool is a window of mask + 1 frames, written by the reader thread;
	 * frame k (counted as the worker takes them, *taken) is in win[k & mask], due at
	 * due[k & mask] from the anchor, and s->len[k & mask] long.
	 */
	bool streamed;
	struct pb_frame *win;
	double *due;
	uint32_t mask;
	const uint64_t *taken;
	const int *reader_done;
	uint64_t avail;	  /* frames the reader has written (atomic: the reader stores it) */
	uint64_t freed;	  /* frames whose places the reader may write again (atomic) */
	uint64_t waits;	  /* times the sender found its window empty, the reader behind */
	bool starved;	  /* in such a wait now */
	bool exhausted;	  /* the reader is done and the stream took all it wrote */
	uint32_t max_len; /* its longest frame, from the scan */
	double scan_off;  /* the scan's last offset in the stream, for its gaps */
	uint64_t limit;	  /* --limit: its frames among the replay's first N; UINT64_MAX: none */
};

/* The reader thread of a streamed replay, and the frame it holds when a window is full. */
struct rp_reader {
#ifdef PB_HAVE_PCAP
	pcap_t *pc;
#endif
	pthread_t th;
	bool running;
	int stop; /* atomic: the run is over */
	int done; /* atomic: it wrote every pass it will, or failed */
	int err;
	uint64_t pass;
	struct rp_clock clk; /* the pass being read; clk.k: its frames so far */
	bool held;
	struct rp_rec rec;
	const uint8_t *data; /* the held frame's bytes: valid until libpcap reads the next */
	double due;
};

struct pb_replay {
	uint32_t streams;
	uint32_t loops;
	double period, file_s;
	const char *timing;
	double multiplier;
	bool timed;
	uint64_t file_frames, pass_frames;
	uint64_t skipped[PB_RSKIP_N];
	uint64_t backwards; /* a pass's stamps that went back */
	uint64_t cut_bytes; /* the file's last record was cut: its missing bytes */
	bool cut;
	struct pb_replay_stream *st;
	uint32_t flows; /* the frames' flows: --flows, or the capture's 5-tuples */
	/* streamed from disk (--preload never, or a file over --preload-max) */
	bool streamed, frames;
	/* preloaded whole frames: rewritten in place in the file's buffer, which pools point into
	 */
	uint8_t *held;
	struct pb_config cfg;	   /* the run's, for the reader */
	struct pb_frame_spec base; /* the run's frame, from cfg, before a capture's frame's */
	struct rp_file file;	   /* its flow table, kept for the passes */
	struct rp_rw rw;	   /* --rewrite-ip, --rewrite-port: a frame method's rewrites */
	struct rp_reader rd;
	uint64_t *gap_hist; /* the schedule's gaps, RP_GAP_BUCKETS + 1 */
	double gap_max;
	/* --limit over several streams: each kept frame's stream, in file order */
	uint8_t *order;
	uint64_t norder, order_cap;
};

#endif
