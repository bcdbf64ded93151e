/* SPDX-License-Identifier: MIT */
/*
 * Link-level helpers over rtnetlink (libnl-route-3): look an interface up, read its
 * counters, wait for its carrier. Each takes the netlink socket of the namespace the
 * interface lives in, so the same calls serve the host, the sender and the receiver side.
 */
#ifndef PB_NETIF_H
#define PB_NETIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>

struct nl_sock;

struct pb_netif {
	char name[IF_NAMESIZE];
	int ifindex;
	uint8_t mac[6];
	uint32_t mtu;
	uint32_t tx_queues, rx_queues;
	char driver[32]; /* from ethtool; "" when unknown */
};

struct pb_link_stats {
	uint64_t rx_packets, tx_packets;
	uint64_t rx_bytes, tx_bytes;
	uint64_t rx_dropped, tx_dropped;
	uint64_t rx_missed_errors, rx_fifo_errors; /* what the NIC lost before the stack */
};

/* A connected NETLINK_ROUTE socket in the calling thread's current namespace. */
int pb_nl_open(struct nl_sock **out);
void pb_nl_close(struct nl_sock *sk);
/* A libnl error (-NLE_*) as the -errno the kernel most likely gave; -EIO when unknown. */
int pb_nl_errno(int nlerr);
/* By name; -ENODEV when there is no such interface. */
int pb_netif_get(struct nl_sock *sk, const char *name, struct pb_netif *out);
int pb_netif_stats(struct nl_sock *sk, int ifindex, struct pb_link_stats *out);
struct ethtool_gstrings;
/* One SIOCETHTOOL request (data starts with its ETHTOOL_* cmd) on fd. 0 or -errno. */
int pb_ethtool(int fd, const char *ifname, void *data);
/*
 * The names of one ethtool string set (ETH_SS_STATS, ETH_SS_FEATURES, ...): *out holds
 * (*out)->len names of ETH_GSTRING_LEN bytes, zero when the driver has none; the caller
 * frees it. 0 or -errno.
 */
int pb_ethtool_strings(int fd, const char *ifname, uint32_t set, struct ethtool_gstrings **out);
/*
 * Adds up the driver statistics (ethtool -S) whose names end in suffix, e.g. the per-queue
 * "xdp_xmit_errors" of a veth. Call it in the interface's namespace. 0, or -errno (and 0).
 */
int pb_netif_ethtool_sum(const char *name, const char *suffix, uint64_t *out);
/*
 * Adds up the driver statistics whose names match(name, its length, arg) says, asking on fd:
 * a socket's ethtool requests act in the namespace it was made in, wherever the caller is
 * now. 0, or -errno (and 0).
 */
int pb_ethtool_stats_sum(int fd, const char *ifname,
			 bool (*match)(const char *stat, size_t len, const void *arg),
			 const void *arg, uint64_t *out);
struct pb_clock;

/* Naps of a carrier wait end at least this often, so a stop is seen soon. */
#define PB_LINK_NAP_S 0.1

/*
 * A carrier to wait for: up() reads it (1 up, 0 down, -errno); nap() sleeps until it may have
 * changed or clk reads until, whichever comes first (early is fine); end() (optional) once
 * the wait is over. A unit test's simulated path supplies its own.
 */
struct pb_carrier {
	int (*up)(void *ctx);
	void (*nap)(void *ctx, const struct pb_clock *clk, double until);
	void (*end)(void *ctx);
	void *ctx;
};

/*
 * Waits on clk until c is up: 0 with *waited_s (clk's seconds from the start to the read that
 * saw it up), -ETIMEDOUT once timeout_s have passed (*waited_s >= timeout_s), -EINTR when
 * *stop is set, or up()'s -errno.
 */
int pb_link_wait(const struct pb_carrier *c, const struct pb_clock *clk, double timeout_s,
		 double *waited_s, const int *stop);

/* An interface's carrier as a struct pb_carrier's ctx: its state, and its link events. */
struct pb_netif_carrier {
	struct nl_sock *sk; /* the caller's rtnetlink socket, in the interface's namespace */
	int ifindex;
	struct nl_sock *ev; /* RTM_NEWLINK notifications, from the first nap; NULL: none yet */
};
int pb_netif_carrier(struct pb_netif_carrier *n);
void pb_netif_carrier_nap(struct pb_netif_carrier *n, const struct pb_clock *clk, double until);
void pb_netif_carrier_end(struct pb_netif_carrier *n);

/*
 * Waits until the interface is up and running (IFF_UP and IFF_RUNNING, operstate UP or
 * UNKNOWN), woken by RTM_NEWLINK events (subscribed in the calling thread's namespace, which
 * must be the interface's): pb_link_wait on CLOCK_MONOTONIC.
 */
int pb_netif_wait_up(struct nl_sock *sk, int ifindex, double timeout_s, double *waited_s,
		     const int *stop);
/* 1 when up and running (as the wait above means it), 0 when not, -errno. */
int pb_netif_link_up(struct nl_sock *sk, int ifindex);
/* 1 when set up (IFF_UP: `ip link set IFACE up`), whatever its carrier; 0 when not, -errno. */
int pb_netif_admin_up(struct nl_sock *sk, int ifindex);

/*
 * Watches one interface's carrier through RTM_NEWLINK events (subscribed in the calling
 * thread's namespace, which must be the interface's): the measured window's link watch.
 */
struct pb_link_watch;
int pb_link_watch_open(struct pb_link_watch **out, struct nl_sock *sk, int ifindex);
/* Sleeps up to ms for a change; returns the state then (1 up, 0 down). */
int pb_link_watch_wait(struct pb_link_watch *w, int ms);
void pb_link_watch_close(struct pb_link_watch *w); /* NULL-safe */
/*
 * The addresses of interface name (IPv4 and IPv6, as getifaddrs lists them) in the calling
 * thread's namespace, at most max into out: how many, or -errno.
 */
struct pb_addr;
int pb_netif_addrs(const char *name, struct pb_addr *out, int max);
/* The drop counters of the interface's root qdiscs, summed. 0 or -errno. */
int pb_netif_qdisc_drops(struct nl_sock *sk, int ifindex, uint64_t *drops);

#endif
