/* SPDX-License-Identifier: MIT */
/*
 * The namespace lab: two network namespaces joined by a veth pair, the sender's end in one,
 * the receiver's in the other, addresses from 198.18.0.0/15 and 2001:2::/48, a permanent
 * neighbour entry each way, UDP segmentation offload off on the sending end. With a device
 * under test (router or bridge), a third namespace sits between them, joined to each by a
 * veth pair of its own. Nothing on the host's own interfaces or routes changes. Removed on
 * exit; a lab whose owner died is found and removed by the next run.
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
	PB_LAB_DUT,
};

struct pb_lab_opts {
	struct pb_addr tx_addr, rx_addr; /* the lab's sender and receiver addresses */
	uint32_t queues;		 /* veth queues on each end (>= 1) */
	uint32_t mtu;			 /* of both veth ends; 0: the kernel's default (1500) */
	int xps_cpu[PB_MAX_STREAMS];	 /* TX queue q is used by CPU xps_cpu[q] (-1: any) */
	bool keep;			 /* leave it behind for debugging */
	enum pb_lab_kind kind;
	/*
	 * router: tx_addr and rx_addr lie in different /24s (/64s); the router takes host .254
	 * (::fe) in each. bridge and direct: one /24 (/64) for both.
	 */
	const char *dut_setup; /* a shell script run inside the DUT's namespace once it is built */
	/* when it fails: "--lab-dut-setup FILE exited with status N: its last line", for the user
	 */
	char *dut_setup_err;
	size_t dut_setup_errlen;
	/*
	 * The CPU the DUT forwards on (RPS on its input), -1: wherever the frame arrives. A
	 * veth hands frames over in the sender's own context, so without this the DUT's work
	 * runs in the sender's softirq, and a DUT that queues (a tbf) slows the sender down
	 * instead of dropping what it cannot forward, which no real device can do.
	 */
	int dut_cpu;
};

struct pb_lab {
	char id[16]; /* unique per run: hex */
	enum pb_lab_kind kind;
	char tx_ns[32], rx_ns[32], dut_ns[32]; /* namespace names under /run/netns */
	struct pb_netif tx, rx;		       /* the sender's and the receiver's veth ends */
	struct pb_netif dut_in, dut_out; /* the DUT's ends, towards the sender and the receiver */
	int dut_bridge;			 /* bridge: its ifindex in the DUT's namespace */
	int dut_cpu;			 /* the CPU it forwards on; -1: the sender's */
	struct pb_addr dut_in_addr, dut_out_addr; /* router: its address on each side */
	uint8_t next_hop_mac[6]; /* where the sender's frames go: the router's end, else rx */
	int host_fd, tx_fd, rx_fd, dut_fd;	/* namespace fds; -1 when not open */
	struct nl_sock *tx_nl, *rx_nl, *dut_nl; /* rtnetlink in each namespace */
	int lock_fd; /* flock held while we live: how stale labs are told */
	bool keep;
	bool created;
};

/* Mounts bpffs on /sys/fs/bpf if it is not mounted. 0 or -errno. */
int pb_bpffs_ensure(void);
/* Removes labs whose owning process is gone. Returns how many, or -errno. */
int pb_lab_cleanup_stale(void);
/* Builds the lab; on failure nothing is left behind. The caller stays in the host ns. */
int pb_lab_create(struct pb_lab *lab, const struct pb_lab_opts *opts);
/* The name of a --lab value ("direct", "router", "bridge"). */
const char *pb_lab_kind_name(enum pb_lab_kind kind);
/* Moves the calling thread into one side's namespace (threads it creates later follow). */
int pb_lab_enter(struct pb_lab *lab, enum pb_lab_side side);
/* Removes it all (unless keep); safe on a half-built or zeroed lab. */
void pb_lab_destroy(struct pb_lab *lab);

#endif
