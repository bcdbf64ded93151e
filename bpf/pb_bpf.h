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

/* One per RX queue and CPU; user space sums them. */
struct pb_rx_slot {
	__u64 frames; /* with this run's signature */
	__u64 bytes;
	__u64 foreign_frames; /* anything else that reached the receiver */
	__u64 foreign_bytes;
};

#endif
