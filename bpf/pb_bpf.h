/* SPDX-License-Identifier: MIT */
/* What the BPF programs and the user-space side share: counter layout and limits. */
#ifndef PB_BPF_H
#define PB_BPF_H

#define PB_BPF_MAX_QUEUES 64

/* One per RX queue and CPU; user space sums them. */
struct pb_rx_slot {
	__u64 frames; /* with this run's signature */
	__u64 bytes;
	__u64 foreign_frames; /* anything else that reached the receiver */
	__u64 foreign_bytes;
};

#endif
