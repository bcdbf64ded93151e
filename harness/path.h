/* SPDX-License-Identifier: MIT */
/*
 * What a run reads around the method it measures: the sending interface's counters and
 * carrier, and the receiver. The runner knows them only through these ops, so the same
 * runner drives a real interface, the lab, an agent on another host, or a unit test's fakes.
 */
#ifndef PB_PATH_H
#define PB_PATH_H

#include <stdbool.h>
#include <stdint.h>

#include "netif.h"

struct pb_clock;
struct pb_rx_source;

/* The sending side's counters, cumulative; the runner takes deltas over the window. */
struct pb_tx_stats {
	uint64_t tx_packets, tx_dropped;
	uint64_t qdisc_drops;	  /* drop counters of the interface's root qdiscs */
	uint64_t xdp_xmit_errors; /* veth: XDP frames its peer refused (ethtool -S) */
};

/*
 * A device under test between sender and receiver (the lab's router or bridge): its drop
 * counters, cumulative, summed over its interfaces.
 */
struct pb_dut_stats {
	uint64_t rx_dropped, tx_dropped;
	uint64_t qdisc_drops; /* its root qdiscs' drops (a tbf the user put there) */
};

struct pb_path {
	void *ctx;
	/* The sending interface's counters; NULL when there are none to read. 0 or -errno. */
	int (*tx_stats)(void *ctx, struct pb_tx_stats *out);
	/*
	 * The carrier before the window, as struct pb_carrier's ops (the runner waits on its
	 * clock with pb_link_wait): 1 up, 0 down, -errno. NULL: always up.
	 */
	int (*carrier)(void *ctx);
	void (*carrier_nap)(void *ctx, const struct pb_clock *clk, double until);
	void (*carrier_end)(void *ctx); /* NULL: nothing to end */
	/*
	 * The carrier during the window: sleeps up to ms for a change and returns 1 up, 0 down
	 * (-errno: unknown). NULL: not watched. watch_start/stop bracket the window.
	 */
	int (*watch_start)(void *ctx);
	int (*link_state)(void *ctx, int ms);
	void (*watch_stop)(void *ctx);
	const struct pb_rx_source *rx; /* the receiver; NULL: none (delivered is unknown) */
	/* The device under test's counters (0 or -errno); NULL: no DUT, or none readable. */
	int (*dut_stats)(void *dut_ctx, struct pb_dut_stats *out);
	void *dut_ctx;
	bool shared;	/* the interface carries others' traffic too: tx_packets includes it */
	bool veth_pair; /* the lab: a refused XDP frame is in both ends' drop counters */
	/*
	 * The DUT's input is the sender's veth peer: whatever the sender's end counts as a
	 * transmit drop, the DUT's end counts as a receive drop too.
	 */
	bool dut_veth;
};

/* The state behind pb_path_netif's ops; the caller keeps it alive as long as the path. */
struct pb_path_netif {
	struct nl_sock *nl; /* rtnetlink in the interface's namespace */
	int ifindex;
	char ifname[16];
	struct pb_link_watch *watch;
	struct pb_netif_carrier car; /* the wait before the window */
};

/* Fills p with ops that read the interface behind n (counters, qdiscs, carrier). */
void pb_path_netif(struct pb_path *p, struct pb_path_netif *n);

#define PB_DUT_MAX_IFACES 4

/* The lab DUT's interfaces, as its dut_stats op reads them; kept alive as long as the path. */
struct pb_path_dut {
	struct nl_sock *nl; /* rtnetlink in the DUT's namespace */
	int ifindex[PB_DUT_MAX_IFACES];
	unsigned int n;
};

/* Adds d's counters to p as its device under test. */
void pb_path_dut(struct pb_path *p, struct pb_path_dut *d);

#endif
