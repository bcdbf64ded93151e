/* SPDX-License-Identifier: MIT */
/*
 * The namespace lab: two network namespaces joined by a veth pair, the sender's end in one,
 * the receiver's in the other, addresses from 198.18.0.0/15 and 2001:2::/48, a permanent
 * neighbour entry each way, UDP segmentation offload off on the sending end. Nothing on
 * the host's own interfaces or routes changes. Removed on exit; a lab whose owner died is
 * found and removed by the next run.
 */
#ifndef PB_LAB_H
#define PB_LAB_H

#include <stdbool.h>
#include <stdint.h>
#include <net/if.h>

#include "config.h"
#include "netif.h"

struct nl_sock;

enum pb_lab_side {
	PB_LAB_HOST,
	PB_LAB_TX,
	PB_LAB_RX,
};

struct pb_lab_opts {
	struct pb_addr tx_addr, rx_addr; /* the lab's sender and receiver addresses */
	uint32_t queues;		 /* veth queues on each end (>= 1) */
	uint32_t mtu;			 /* of both veth ends; 0: the kernel's default (1500) */
	int xps_cpu[PB_MAX_STREAMS];	 /* TX queue q is used by CPU xps_cpu[q] (-1: any) */
	bool keep;			 /* leave it behind for debugging */
};

struct pb_lab {
	char id[16];		       /* unique per run: hex */
	char tx_ns[32], rx_ns[32];     /* namespace names under /run/netns */
	struct pb_netif tx, rx;	       /* the two veth ends, each as seen in its namespace */
	int host_fd, tx_fd, rx_fd;     /* namespace fds; -1 when not open */
	struct nl_sock *tx_nl, *rx_nl; /* rtnetlink in each namespace */
	int lock_fd;		       /* flock held while we live: how stale labs are told */
	bool keep;
	bool created;
};

/* Mounts bpffs on /sys/fs/bpf if it is not mounted. 0 or -errno. */
int pb_bpffs_ensure(void);
/* Removes labs whose owning process is gone. Returns how many, or -errno. */
int pb_lab_cleanup_stale(void);
/* Builds the lab; on failure nothing is left behind. The caller stays in the host ns. */
int pb_lab_create(struct pb_lab *lab, const struct pb_lab_opts *opts);
/* Moves the calling thread into one side's namespace (threads it creates later follow). */
int pb_lab_enter(struct pb_lab *lab, enum pb_lab_side side);
/* Removes it all (unless keep); safe on a half-built or zeroed lab. */
void pb_lab_destroy(struct pb_lab *lab);

#endif
