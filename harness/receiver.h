/* SPDX-License-Identifier: MIT */
/*
 * The lab receiver: an XDP program (bpf/receiver.bpf.c) on the receiving veth end that
 * counts frames carrying this run's signature, counts the others apart, and drops all.
 */
#ifndef PB_RECEIVER_H
#define PB_RECEIVER_H

#include <stdint.h>

#define PB_RX_MAX_QUEUES 64

struct pb_rx_counts {
	uint64_t frames, bytes;			 /* with this run's signature */
	uint64_t foreign_frames, foreign_bytes;	 /* everything else */
	uint64_t queue_frames[PB_RX_MAX_QUEUES]; /* signature frames per RX queue */
};

struct pb_receiver;

/*
 * Loads the program with run_id and attaches it in native (driver) mode to ifindex, which
 * must be an interface of the calling thread's namespace. 0 or -errno.
 */
int pb_receiver_attach(struct pb_receiver **out, int ifindex, uint32_t run_id);
/* Sums the per-CPU counters: totals since attach. */
int pb_receiver_read(struct pb_receiver *r, struct pb_rx_counts *out);
/* Forgets the source ports and VLAN ids seen so far (before each run). 0 or -errno. */
int pb_receiver_clear_ports(struct pb_receiver *r);
/* How many distinct UDP source ports arrived with the signature since the last clear. */
int pb_receiver_count_ports(struct pb_receiver *r, uint32_t *out);
/*
 * The VLAN ids seen on signature frames since the last clear (0 stands for untagged), up to
 * max of them, in ascending order. 0 or -errno.
 */
int pb_receiver_vlans(struct pb_receiver *r, uint16_t *ids, uint32_t max, uint32_t *n);
/* Detaches (in the namespace it was attached in) and frees. NULL-safe. */
void pb_receiver_detach(struct pb_receiver *r);

#endif
