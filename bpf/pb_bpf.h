/* SPDX-License-Identifier: MIT */
/*
 * What the BPF programs and the user-space side share: the payload signature, the
 * receiver's map layouts and limits. Plain UAPI types, so both compilers take it.
 */
#ifndef PB_BPF_H
#define PB_BPF_H

#include <linux/types.h>

#include "pb_lat.h"

/*
 * The signature at the start of every UDP payload pktbench sends (PB_SIG_LEN = 8 bytes):
 *   bytes 0-1  "pb"
 *   byte  2    kind: PB_SIG_KIND_SEQ (a frame with its sequence number), PB_SIG_KIND_FRAME (a
 *              frame without one), or a latency probe: PB_SIG_KIND_PROBE (its timestamp
 *              is CLOCK_MONOTONIC) or PB_SIG_KIND_TAI (CLOCK_TAI, --synced-clocks); in lower
 *              case (| PB_SIG_PACED) in a paced run, whose frames the receiver times one by one
 *   byte  3    stream id (0 .. 63)
 *   bytes 4-7  run id, big-endian
 * in a PB_SIG_KIND_SEQ frame (PB_FRAME_SEQ_LEN = 12 bytes at least):
 *   bytes 8-11   the stream's frame sequence number, big-endian, from 0 in every run: the
 *                receiver tells a duplicate and a reordered frame by it
 * and in a probe (PB_PROBE_LEN = 18 bytes at least):
 *   bytes 8-11   the stream's probe sequence number, big-endian, from 0 in every run
 *   bytes 12-17  the transmit time in ns modulo 2^48, big-endian
 */
#define PB_SIG_P0	  'p'
#define PB_SIG_P1	  'b'
#define PB_SIG_KIND_FRAME 'N'
#define PB_SIG_KIND_SEQ	  'S'
#define PB_SIG_KIND_PROBE 'P'
#define PB_SIG_KIND_TAI	  'T'
#define PB_SIG_PACED	  0x20 /* ASCII's lower case bit */
#define PB_PROBE_SEQ_OFF  8
#define PB_PROBE_TS_OFF	  12
#define PB_PROBE_LEN	  18
#define PB_FRAME_SEQ_OFF  8
#define PB_FRAME_SEQ_LEN  12

/*
 * A replayed capture's frames go as captured, with no signature to carry: a frame method
 * gives each the run's source MAC instead, which the receiver counts them by, whatever their
 * protocol:
 *   byte  0    PB_RUN_MAC0: locally administered, unicast
 *   byte  1    PB_RUN_MAC_MARK | PB_RUN_MAC_PACED (a timed replay) | the stream id (0 .. 63)
 *   bytes 2-5  the run id, big-endian
 */
#define PB_RUN_MAC0	 0x72
#define PB_RUN_MAC_MARK	 0x80
#define PB_RUN_MAC_PACED 0x40

/*
 * A sender of a named test (--test-id, --shard) announces its run before the window, a few
 * times: kind PB_SIG_KIND_ANNOUNCE, stream 0, its run id, then
 *   bytes 8-23   the test's UUID, 16 bytes as written
 *   bytes 24-27  the shard index, big-endian
 *   bytes 28-31  the shard count, big-endian (0: no --shard)
 * The receiver keeps it per run id (struct pb_rx_meta), counts the frame as foreign (it is not
 * one of the run's frames) and drops it.
 */
#define PB_SIG_KIND_ANNOUNCE 'A'
#define PB_ANNOUNCE_LEN	     32

struct pb_rx_meta {
	__u8 test[16];
	__u32 shard_index, shard_count;
	__u32 flags; /* PB_RX_META_*: what became of the run's counts since it announced */
};

/*
 * The run's counts got an entry in the runs map (COUNTED); a second entry was made for it
 * later, so the first had been pushed out with its counts (EVICTED). Set by the program when
 * it makes an entry, and by the reader when it moves a run into or out of the kept map.
 */
#define PB_RX_META_COUNTED 1u
#define PB_RX_META_EVICTED 2u

/*
 * xdp_live --replay: the frames of a stream, in order, one map entry each (a frame is at most
 * PB_XDP_REPLAY_LEN bytes), which the program writes over the live frame, one a run.
 */
#define PB_XDP_REPLAY_LEN    2048
#define PB_XDP_REPLAY_FRAMES 8192
struct pb_xdp_replay_frame {
	__u32 len;
	__u8 data[PB_XDP_REPLAY_LEN];
};

#define PB_BPF_MAX_QUEUES 64
#define PB_BPF_MAX_RUNS	  1024 /* run ids the receiver keeps at once (LRU beyond) */

/*
 * Runs a reader asked for (a sender reads its run before its window and every second), kept
 * apart from the LRU in a map of their own that nothing evicts: a flood of run ids nobody
 * asked about churns the LRU only. The program looks a run up here first. The reader puts a
 * run in (zero, or the LRU's counts moved over) and takes it out once nobody reads it and no
 * frame of it arrives for a while (receiver/rx.c); when this map is full, a run stays in the
 * LRU, where it can be pushed out.
 */
#define PB_BPF_MAX_KEPT 256

/* What the program tells of the runs map, per CPU: entries it made (the LRU evicts beyond). */
struct pb_rx_table {
	__u64 inserts;
};

/*
 * The receiver's "seen" bitmaps are 64-bit words keyed by { run id, word }: words
 * 0 .. PB_BPF_PORT_WORDS - 1 hold one bit per UDP source port, the next PB_BPF_VLAN_WORDS
 * one bit per VLAN id (bit 0: untagged).
 */
#define PB_BPF_PORT_WORDS (65536 / 64)
#define PB_BPF_VLAN_WORDS (4096 / 64)
#define PB_BPF_SEEN_WORDS (PB_BPF_PORT_WORDS + PB_BPF_VLAN_WORDS)
#define PB_BPF_MAX_WORDS  32768 /* bitmap words kept (LRU beyond): 32 runs using every port */

/*
 * One run id's counters on one CPU; user space sums them over the CPUs. Arrival times are
 * CLOCK_MONOTONIC_COARSE (bpf_ktime_get_coarse_ns(), read once per tick per CPU): the time
 * of the last scheduler tick, so exact to a tick (4 ms at HZ=250). The precise clock costs
 * ~31 ns a frame on a VM that traps the TSC, the coarse one ~13 ns, jiffies nothing.
 */
struct pb_rx_val {
	__u64 frames, bytes;	 /* unique frames (duplicates and strays are not counted) */
	__u64 first_ns, last_ns; /* this CPU's first / last frame, coarse clock */
	__u64 flows;		 /* source ports whose bit this CPU set first */
	/*
	 * By the frame's sequence number (or a probe's), in its stream's window on this CPU
	 * (struct pb_rx_win): dup arrived again (not in frames); late arrived after a later one
	 * (in frames); stray too far out of order to tell (not in frames; one taken back, so
	 * modulo 2^64, when a resync finds it was real); unchecked counted with no sequence
	 * check (in frames): a frame without a number, or its window busy with another run.
	 */
	__u64 dup, late, stray, unchecked;
	/*
	 * Frames with the run's signature the host would not take (not in frames): corrupt (an
	 * IPv4 header checksum or version, lengths that disagree), not_host (another
	 * destination MAC)
	 */
	__u64 corrupt, not_host;
	__u64 queue_frames[PB_BPF_MAX_QUEUES];
};

/* Whether a CPU's counts hold anything: a frame, or only duplicates and strays. */
static __always_inline int pb_rx_val_any(const struct pb_rx_val *v)
{
	return v->frames || v->dup || v->stray || v->corrupt || v->not_host;
}

/*
 * Adds a slot's counts into the run's entry, where the two hold one CPU's count between them:
 * the receiver's flush and the reader's sum (receiver/rx_sum.c) are this one function.
 */
static __always_inline void pb_rx_val_merge(struct pb_rx_val *to, const struct pb_rx_val *from)
{
	int i;

	/* a CPU that saw only duplicates has counts too */
	to->dup += from->dup;
	to->late += from->late;
	to->stray += from->stray;
	to->unchecked += from->unchecked;
	to->corrupt += from->corrupt;
	to->not_host += from->not_host;
	if (!from->frames)
		return;
	if (!to->frames || from->first_ns < to->first_ns)
		to->first_ns = from->first_ns;
	if (from->last_ns > to->last_ns)
		to->last_ns = from->last_ns;
	to->frames += from->frames;
	to->bytes += from->bytes;
	to->flows += from->flows;
	for (i = 0; i < PB_BPF_MAX_QUEUES; i++)
		to->queue_frames[i] += from->queue_frames[i];
}

/*
 * The run a CPU counts now, in front of the runs map: frames of that run are counted here
 * with no hash lookup. A frame of another run id takes the slot only once the slot's run
 * has been idle on this CPU for PB_BPF_SLOT_IDLE_NS: its counts are added to its runs entry
 * (the flush) and the slot starts again for the new run; until then the other run is
 * counted in the runs map directly. So a slot switches at most once per idle period: a
 * steady interleave of runs costs no more than the map alone did, and a reader retrying
 * around a flush (below) always gets through.
 *
 * seq is odd while a flush is under way and goes up by two with each. A reader reads the
 * slot, then the runs entry, then the slot again: on a CPU whose seq was the same and even
 * both times, the entry plus the slot (when it held the run) is that CPU's exact count;
 * other CPUs are read again.
 */
struct pb_rx_slot {
	__u64 seq;
	__u64 tag;	     /* 1 << 32 | run id; 0: empty */
	__u64 tick, tick_ns; /* this CPU's coarse clock, read in the tick jiffies says */
	__u64 used_ns;	     /* the slot's run's last frame, counted or not */
	struct pb_rx_val val;
};

#define PB_BPF_SLOT_TAG(run) (1ull << 32 | (__u32)(run))
#define PB_BPF_SLOT_IDLE_NS  10000000ull /* 10 ms: more than one tick at HZ >= 100 */

/*
 * The frames' sequence windows, per CPU (no atomic operation, no shared line): one per stream
 * of a run, direct-mapped by run id and stream into PB_BPF_WINS entries, tagged with both. A
 * stream whose entry another run holds takes it once that run has been idle on this CPU for
 * PB_BPF_SLOT_IDLE_NS (a fresh window: pb_seq_start), and until then is counted unchecked.
 * A duplicate is told apart only on the CPU its original arrived on: the same flow, so the
 * same RX queue, on one NIC.
 */
#define PB_BPF_WINS 1024

struct pb_rx_win {
	__u64 tag; /* 1 << 40 | stream << 32 | run id; 0: empty */
	__u64 last_ns;
	struct pb_seq seq;
};

#define PB_BPF_WIN_TAG(run, stream) (1ull << 40 | (__u64)(stream) << 32 | (__u32)(run))

static __always_inline __u32 pb_rx_win_index(__u32 run, __u32 stream)
{
	/* a run's streams side by side: they never collide with each other */
	return (((run * 2654435761u) >> 22) + stream) & (PB_BPF_WINS - 1);
}

struct pb_rx_word_key {
	__u32 run_id;
	__u32 word;
};

/* A CPU's copy of a bitmap word it knows is set in the shared map; tag 0: empty. */
struct pb_rx_cache {
	__u64 tag; /* 1 << 32 | run id */
	__u64 bits;
};

/*
 * The receiving interface's addresses, which a frame the host takes is sent to: written by the
 * loader at attach and again as they change (the agent looks every second); none of a family:
 * no check for it. Up to PB_RX_ADDRS of each; an interface with more is checked against its
 * first ones only, so a frame to a later one would be counted not for this host.
 */
#define PB_RX_ADDRS 8
struct pb_rx_addrs {
	__u32 n4, n6;
	__be32 v4[PB_RX_ADDRS];
	__be32 v6[PB_RX_ADDRS][4];
};

/* Frames without a pktbench signature, per CPU. */
struct pb_rx_foreign {
	__u64 frames, bytes;
};

/*
 * Latency probes and a paced run's frames, kept apart from the counts above: one entry per
 * stream of a run, shared by the CPUs (a stream may arrive on several). The probe's sequence
 * window, latency and jitter change only while busy is held (taken with a compare-and-swap:
 * an LRU map cannot hold a bpf_spin_lock), the gap fields with atomics. Times are the precise
 * clock (bpf_ktime_get_ns(), CLOCK_MONOTONIC; CLOCK_TAI for a 'T' probe's latency).
 */
#define PB_BPF_MAX_STREAMS 4096 /* streams kept at once (LRU beyond): 64 runs of 64 */
#define PB_BPF_MAX_HISTS   64	/* histograms kept at once (LRU beyond): two per run */

struct pb_rx_stream_key {
	__u32 run_id;
	__u32 stream;
};

struct pb_rx_stream_val {
	__u32 busy; /* a CPU is updating the probe fields below */
	__u32 kind; /* the probes' kind, 'P' or 'T'; 0: no probe yet */
	struct pb_seq seq;
	struct pb_jitter jitter; /* transit measured on CLOCK_MONOTONIC, whatever the probe's */
	__u64 lat_n, lat_min_ns, lat_max_ns, lat_sum_ns;
	__u64 lat_bad;	   /* no latency: sent "after" it arrived, or TAI with no TAI clock here */
	__u64 busy_probes; /* arrived while another CPU held busy: received, nothing else taken */
	__u64 gap_frames, gap_first_ns, gap_last_ns; /* paced: frames timed, first, last */
};

enum {
	PB_BPF_HIST_LAT, /* probe latency */
	PB_BPF_HIST_GAP, /* gaps between consecutive frames of a stream (paced runs) */
};

struct pb_rx_hist_key {
	__u32 run_id;
	__u32 which;
};

/* A log-linear histogram (pb_lat.h) of ns, summed over a run's streams. */
struct pb_rx_hist_val {
	__u64 counts[PB_HIST_BUCKETS];
};

#endif
