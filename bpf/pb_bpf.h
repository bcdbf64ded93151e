/* SPDX-License-Identifier: MIT */
/*
 * What the BPF programs and the user-space side share: the payload signature, the
 * receiver's map layouts and limits. Plain UAPI types, so both compilers take it.
 */
#ifndef PB_BPF_H
#define PB_BPF_H

#include <linux/types.h>

/*
 * The signature at the start of every UDP payload pktbench sends (PB_SIG_LEN = 8 bytes):
 *   bytes 0-1  "pb"
 *   byte  2    kind: PB_SIG_KIND_FRAME or PB_SIG_KIND_PROBE (a latency probe)
 *   byte  3    stream id (0 .. 63)
 *   bytes 4-7  run id, big-endian
 */
#define PB_SIG_P0	  'p'
#define PB_SIG_P1	  'b'
#define PB_SIG_KIND_FRAME 'N'
#define PB_SIG_KIND_PROBE 'P'

#define PB_BPF_MAX_QUEUES 64
#define PB_BPF_MAX_RUNS	  1024 /* run ids the receiver keeps at once (LRU beyond) */

/*
 * The receiver's "seen" bitmaps are 64-bit words keyed by { run id, word }: words
 * 0 .. PB_BPF_PORT_WORDS - 1 hold one bit per UDP source port, the next PB_BPF_VLAN_WORDS
 * one bit per VLAN id (bit 0: untagged).
 */
#define PB_BPF_PORT_WORDS (65536 / 64)
#define PB_BPF_VLAN_WORDS (4096 / 64)
#define PB_BPF_SEEN_WORDS (PB_BPF_PORT_WORDS + PB_BPF_VLAN_WORDS)
#define PB_BPF_MAX_WORDS  32768 /* bitmap words kept (LRU beyond): 32 runs using every port */

/* One run id's counters on one CPU; user space sums them over the CPUs. */
struct pb_rx_val {
	__u64 frames, bytes;
	__u64 first_ns, last_ns; /* bpf_ktime_get_ns() at this CPU's first / last frame */
	__u64 flows;		 /* source ports whose bit this CPU set first */
	__u64 queue_frames[PB_BPF_MAX_QUEUES];
};

struct pb_rx_word_key {
	__u32 run_id;
	__u32 word;
};

/* A CPU's copy of a bitmap word it knows is set in the shared map; tag 0: empty. */
struct pb_rx_cache {
	__u64 tag; /* 1 << 32 | run id */
	__u64 bits;
};

/* Frames without a pktbench signature, per CPU. */
struct pb_rx_foreign {
	__u64 frames, bytes;
};

#endif
