// SPDX-License-Identifier: MIT
/* Interface lookup, counters and carrier wait over rtnetlink (libnl-route-3), plus ethtool. */
#include <errno.h>
#include <ifaddrs.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <net/if.h> /* before linux/if.h: the uapi header defers to glibc's */
#include <linux/ethtool.h>
#include <linux/if.h>
#include <linux/sockios.h>
#include <netlink/netlink.h>
#include <netlink/errno.h>
#include <netlink/route/link.h>
#include <netlink/route/qdisc.h>
#include <netlink/route/tc.h>
#include <linux/rtnetlink.h>

#include "clock.h"
#include "config.h"
#include "log.h"
#include "netif.h"

#define PB_WAIT_POLL_S 0.01 /* no link events to be had: the carrier is read this often */

int pb_nl_errno(int nlerr)
{
	/* The inverse of libnl's nl_syserr2nlerr(), so callers see the kernel's reason. */
	switch (nlerr < 0 ? -nlerr : nlerr) {
	case 0:
		return 0;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_NODEV:
		return -ENODEV;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_EXIST:
		return -EEXIST;
	case NLE_INVAL:
		return -EINVAL;
	case NLE_RANGE:
		return -ERANGE;
	case NLE_INTR:
		return -EINTR;
	case NLE_AGAIN:
		return -EAGAIN;
	case NLE_BUSY:
		return -EBUSY;
	case NLE_OPNOTSUPP:
		return -EOPNOTSUPP;
	case NLE_AF_NOSUPPORT:
		return -EAFNOSUPPORT;
	case NLE_PROTO_MISMATCH:
		return -EPROTONOSUPPORT;
	case NLE_NOADDR:
		return -EADDRNOTAVAIL;
	case NLE_PERM:
		return -EPERM;
	case NLE_NOACCESS:
		return -EACCES;
	case NLE_BAD_SOCK:
		return -EBADF;
	case NLE_MSGSIZE:
		return -EMSGSIZE;
	default:
		return -EIO;
	}
}

int pb_nl_open(struct nl_sock **out)
{
	struct nl_sock *sk;
	int err;

	*out = NULL;
	sk = nl_socket_alloc();
	if (!sk)
		return -ENOMEM;
	/* The kernel binds the socket to the calling thread's netns here, for good. */
	err = nl_connect(sk, NETLINK_ROUTE);
	if (err < 0) {
		pr_err("netlink connect: %s\n", nl_geterror(err));
		nl_socket_free(sk);
		return pb_nl_errno(err);
	}
	*out = sk;
	return 0;
}

/* A failed link lookup: whichever way libnl says "not there", it is a missing device. */
static int pb_link_errno(int nlerr)
{
	int err = nlerr < 0 ? pb_nl_errno(nlerr) : -ENODEV;

	return err == -ENOENT ? -ENODEV : err;
}

void pb_nl_close(struct nl_sock *sk)
{
	if (sk)
		nl_socket_free(sk);
}

/* The driver name; "" when ethtool can't tell. Asks in the calling thread's namespace. */
int pb_ethtool(int fd, const char *ifname, void *data)
{
	struct ifreq ifr = { 0 };

	strncpy(ifr.ifr_name, ifname, sizeof(ifr.ifr_name) - 1);
	ifr.ifr_data = data;
	return ioctl(fd, SIOCETHTOOL, &ifr) < 0 ? -errno : 0;
}

int pb_ethtool_strings(int fd, const char *ifname, uint32_t set, struct ethtool_gstrings **out)
{
	struct ethtool_sset_info *info;
	struct ethtool_gstrings *names = NULL;
	uint32_t n;
	int err;

	*out = NULL;
	info = calloc(1, sizeof(*info) + sizeof(uint32_t));
	if (!info)
		return -ENOMEM;
	info->cmd = ETHTOOL_GSSET_INFO;
	info->sset_mask = 1ull << set;
	err = pb_ethtool(fd, ifname, info);
	if (err)
		goto out;
	n = info->sset_mask ? info->data[0] : 0; /* the driver has no such set: none */
	names = calloc(1, sizeof(*names) + (size_t)n * ETH_GSTRING_LEN);
	if (!names) {
		err = -ENOMEM;
		goto out;
	}
	names->cmd = ETHTOOL_GSTRINGS;
	names->string_set = set;
	names->len = n;
	err = n ? pb_ethtool(fd, ifname, names) : 0;
	if (err) {
		free(names);
		names = NULL;
	}
out:
	free(info);
	*out = names;
	return err;
}

static void pb_netif_driver(const char *name, char *driver, size_t len)
{
	struct ethtool_drvinfo info = { .cmd = ETHTOOL_GDRVINFO };
	int fd, err;

	driver[0] = '\0';
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	err = pb_ethtool(fd, name, &info);
	if (!err) {
		size_t n = strnlen(info.driver, sizeof(info.driver));

		n = n < len ? n : len - 1;
		memcpy(driver, info.driver, n);
		driver[n] = '\0';
	} else {
		pr_debug("%s: no driver name from ethtool: %s\n", name, strerror(-err));
	}
	close(fd);
}

int pb_netif_addrs(const char *name, struct pb_addr *out, int max)
{
	struct ifaddrs *ifa, *i;
	int n = 0;

	if (getifaddrs(&ifa))
		return -errno;
	for (i = ifa; i && n < max; i = i->ifa_next) {
		if (!i->ifa_addr || strcmp(i->ifa_name, name))
			continue;
		if (i->ifa_addr->sa_family == AF_INET) {
			out[n].family = AF_INET;
			out[n++].v4 = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;
		} else if (i->ifa_addr->sa_family == AF_INET6) {
			out[n].family = AF_INET6;
			out[n++].v6 = ((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr;
		}
	}
	freeifaddrs(ifa);
	return n;
}

int pb_netif_get(struct nl_sock *sk, const char *name, struct pb_netif *out)
{
	struct rtnl_link *link = NULL;
	struct nl_addr *addr;
	int err;

	memset(out, 0, sizeof(*out));
	if (strlen(name) >= sizeof(out->name))
		return -ENODEV;
	err = rtnl_link_get_kernel(sk, 0, name, &link);
	if (err < 0 || !link) {
		err = pb_link_errno(err);
		if (err != -ENODEV)
			pr_err("%s: link lookup: %s\n", name, strerror(-err));
		goto out;
	}

	snprintf(out->name, sizeof(out->name), "%s", name);
	out->ifindex = rtnl_link_get_ifindex(link);
	addr = rtnl_link_get_addr(link);
	/* Interfaces without an Ethernet address (lo, tun) keep an all-zero MAC. */
	if (addr && nl_addr_get_len(addr) == sizeof(out->mac))
		memcpy(out->mac, nl_addr_get_binary_addr(addr), sizeof(out->mac));
	out->mtu = rtnl_link_get_mtu(link);
	out->tx_queues = rtnl_link_get_num_tx_queues(link);
	out->rx_queues = rtnl_link_get_num_rx_queues(link);
	pb_netif_driver(name, out->driver, sizeof(out->driver));
	err = 0;
out:
	rtnl_link_put(link);
	return err;
}

int pb_netif_stats(struct nl_sock *sk, int ifindex, struct pb_link_stats *out)
{
	struct rtnl_link *link = NULL;
	int err;

	memset(out, 0, sizeof(*out));
	err = rtnl_link_get_kernel(sk, ifindex, NULL, &link);
	if (err < 0 || !link) {
		err = pb_link_errno(err);
		pr_err("ifindex %d: link stats: %s\n", ifindex, strerror(-err));
		goto out;
	}
	out->rx_packets = rtnl_link_get_stat(link, RTNL_LINK_RX_PACKETS);
	out->tx_packets = rtnl_link_get_stat(link, RTNL_LINK_TX_PACKETS);
	out->rx_bytes = rtnl_link_get_stat(link, RTNL_LINK_RX_BYTES);
	out->tx_bytes = rtnl_link_get_stat(link, RTNL_LINK_TX_BYTES);
	out->rx_dropped = rtnl_link_get_stat(link, RTNL_LINK_RX_DROPPED);
	out->tx_dropped = rtnl_link_get_stat(link, RTNL_LINK_TX_DROPPED);
	out->rx_missed_errors = rtnl_link_get_stat(link, RTNL_LINK_RX_MISSED_ERR);
	out->rx_fifo_errors = rtnl_link_get_stat(link, RTNL_LINK_RX_FIFO_ERR);
	err = 0;
out:
	rtnl_link_put(link);
	return err;
}

/*
 * A socket subscribed to RTNLGRP_LINK in the calling thread's namespace: the kernel's
 * RTM_NEWLINK notifications wake the wait below as soon as the carrier changes. NULL when
 * it cannot be had; the wait then polls.
 */
static struct nl_sock *pb_link_events(void)
{
	struct nl_sock *ev = NULL;

	if (pb_nl_open(&ev))
		return NULL;
	nl_socket_disable_seq_check(ev);
	if (nl_socket_add_membership(ev, RTNLGRP_LINK) || nl_socket_set_nonblocking(ev)) {
		pb_nl_close(ev);
		return NULL;
	}
	return ev;
}

/* The interface's flags and operational state, read once; 0 or -errno. */
static int netif_state(struct nl_sock *sk, int ifindex, unsigned int *flags, uint8_t *oper)
{
	struct rtnl_link *link = NULL;
	int err;

	err = rtnl_link_get_kernel(sk, ifindex, NULL, &link);
	if (err < 0 || !link) {
		err = pb_link_errno(err);
		rtnl_link_put(link);
		return err;
	}
	*flags = rtnl_link_get_flags(link);
	*oper = rtnl_link_get_operstate(link);
	rtnl_link_put(link);
	return 0;
}

int pb_netif_link_up(struct nl_sock *sk, int ifindex)
{
	unsigned int flags;
	uint8_t oper;
	int err = netif_state(sk, ifindex, &flags, &oper);

	if (err)
		return err;
	/* Many virtual devices report UNKNOWN rather than UP: both carry traffic. */
	return (flags & IFF_UP) && (flags & IFF_RUNNING) &&
	       (oper == IF_OPER_UP || oper == IF_OPER_UNKNOWN);
}

int pb_netif_admin_up(struct nl_sock *sk, int ifindex)
{
	unsigned int flags;
	uint8_t oper;
	int err = netif_state(sk, ifindex, &flags, &oper);

	return err ? err : !!(flags & IFF_UP);
}

/*
 * Sleeps until a link event arrives on ev (or ms pass), then drops what arrived. True when
 * one did.
 */
static bool pb_link_events_wait(struct nl_sock *ev, int ms)
{
	struct pollfd pfd = { .fd = nl_socket_get_fd(ev), .events = POLLIN };
	char drain[4096];

	if (poll(&pfd, 1, ms) <= 0)
		return false;
	while (recv(pfd.fd, drain, sizeof(drain), MSG_DONTWAIT) > 0)
		; /* the event only wakes us: the state is read fresh afterwards */
	return true;
}

int pb_link_wait(const struct pb_carrier *c, const struct pb_clock *clk, double timeout_s,
		 double *waited_s, const int *stop)
{
	double start = pb_clock_now(clk), now = start;
	int err;

	for (;;) {
		if (stop && __atomic_load_n(stop, __ATOMIC_RELAXED)) {
			err = -EINTR;
			break;
		}
		err = c->up(c->ctx);
		now = pb_clock_now(clk);
		if (err) {
			err = err > 0 ? 0 : err;
			break;
		}
		if (now - start >= timeout_s) {
			err = -ETIMEDOUT;
			break;
		}
		/* down: until a change, the bound, or PB_LINK_NAP_S to look at the stop */
		c->nap(c->ctx, clk, fmin(start + timeout_s, now + PB_LINK_NAP_S));
	}
	if (c->end)
		c->end(c->ctx);
	if (waited_s)
		*waited_s = now - start;
	return err;
}

int pb_netif_carrier(struct pb_netif_carrier *n)
{
	int up = pb_netif_link_up(n->sk, n->ifindex);

	if (up < 0)
		pr_err("ifindex %d: waiting for link: %s\n", n->ifindex, strerror(-up));
	return up;
}

void pb_netif_carrier_nap(struct pb_netif_carrier *n, const struct pb_clock *clk, double until)
{
	double left;

	/* subscribed on the first nap, kept until the wait ends */
	if (!n->ev)
		n->ev = pb_link_events();
	if (!n->ev) {
		pb_clock_sleep_until(clk, fmin(until, pb_clock_now(clk) + PB_WAIT_POLL_S));
		return;
	}
	left = until - pb_clock_now(clk);
	if (left > 0)
		pb_link_events_wait(n->ev, (int)ceil(left * 1000));
}

void pb_netif_carrier_end(struct pb_netif_carrier *n)
{
	pb_nl_close(n->ev);
	n->ev = NULL;
}

static int netif_carrier_up(void *ctx)
{
	return pb_netif_carrier(ctx);
}

static void netif_carrier_nap(void *ctx, const struct pb_clock *clk, double until)
{
	pb_netif_carrier_nap(ctx, clk, until);
}

static void netif_carrier_end(void *ctx)
{
	pb_netif_carrier_end(ctx);
}

int pb_netif_wait_up(struct nl_sock *sk, int ifindex, double timeout_s, double *waited_s,
		     const int *stop)
{
	struct pb_netif_carrier n = { .sk = sk, .ifindex = ifindex };
	const struct pb_carrier c = {
		.up = netif_carrier_up,
		.nap = netif_carrier_nap,
		.end = netif_carrier_end,
		.ctx = &n,
	};

	return pb_link_wait(&c, &pb_clock_mono, timeout_s, waited_s, stop);
}

struct pb_link_watch {
	struct nl_sock *sk; /* to read the state; the caller's */
	struct nl_sock *ev; /* RTM_NEWLINK notifications; NULL: read every time */
	int ifindex;
	int up; /* the last state read */
};

int pb_link_watch_open(struct pb_link_watch **out, struct nl_sock *sk, int ifindex)
{
	struct pb_link_watch *w = calloc(1, sizeof(*w));
	int up;

	*out = NULL;
	if (!w)
		return -ENOMEM;
	w->sk = sk;
	w->ifindex = ifindex;
	w->ev = pb_link_events();
	/* subscribed first, then read: a change in between wakes the first wait */
	up = pb_netif_link_up(sk, ifindex);
	if (up < 0) {
		pb_link_watch_close(w);
		return up;
	}
	w->up = up;
	*out = w;
	return 0;
}

int pb_link_watch_wait(struct pb_link_watch *w, int ms)
{
	int up;

	if (!w->ev) {
		const struct timespec nap = { .tv_sec = ms / 1000,
					      .tv_nsec = (ms % 1000) * 1000000L };

		nanosleep(&nap, NULL);
	} else if (!pb_link_events_wait(w->ev, ms)) {
		return w->up; /* nothing changed */
	}
	up = pb_netif_link_up(w->sk, w->ifindex);
	if (up >= 0)
		w->up = up;
	return w->up;
}

void pb_link_watch_close(struct pb_link_watch *w)
{
	if (!w)
		return;
	pb_nl_close(w->ev);
	free(w);
}

int pb_netif_qdisc_drops(struct nl_sock *sk, int ifindex, uint64_t *drops)
{
	struct nl_cache *cache = NULL;
	struct nl_object *obj;
	int err;

	*drops = 0;
	err = rtnl_qdisc_alloc_cache(sk, &cache);
	if (err < 0)
		return pb_nl_errno(err);
	/* root qdiscs only: a classful root (mq, tbf, htb) already counts its children's drops */
	for (obj = nl_cache_get_first(cache); obj; obj = nl_cache_get_next(obj)) {
		struct rtnl_tc *tc = (struct rtnl_tc *)obj;

		if (rtnl_tc_get_ifindex(tc) == ifindex && rtnl_tc_get_parent(tc) == TC_H_ROOT)
			*drops += rtnl_tc_get_stat(tc, RTNL_TC_DROPS);
	}
	nl_cache_free(cache);
	return 0;
}

int pb_ethtool_stats_sum(int fd, const char *ifname,
			 bool (*match)(const char *stat, size_t len, const void *arg),
			 const void *arg, uint64_t *out)
{
	struct ethtool_gstrings *names = NULL;
	struct ethtool_stats *stats = NULL;
	uint32_t i;
	int err;

	*out = 0;
	err = pb_ethtool_strings(fd, ifname, ETH_SS_STATS, &names);
	if (err)
		goto out;
	stats = calloc(1, sizeof(*stats) + (size_t)names->len * sizeof(uint64_t));
	if (!stats) {
		err = -ENOMEM;
		goto out;
	}
	stats->cmd = ETHTOOL_GSTATS;
	stats->n_stats = names->len;
	err = pb_ethtool(fd, ifname, stats);
	if (err)
		goto out;
	for (i = 0; i < names->len && i < stats->n_stats; i++) {
		const char *s = (const char *)names->data + (size_t)i * ETH_GSTRING_LEN;

		if (match(s, strnlen(s, ETH_GSTRING_LEN), arg))
			*out += stats->data[i];
	}
out:
	free(stats);
	free(names);
	return err;
}

static bool pb_ends_with(const char *s, size_t len, const void *suffix)
{
	size_t slen = strlen(suffix);

	return len >= slen && !memcmp(s + len - slen, suffix, slen);
}

int pb_netif_ethtool_sum(const char *name, const char *suffix, uint64_t *out)
{
	int fd, err;

	*out = 0;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	err = pb_ethtool_stats_sum(fd, name, pb_ends_with, suffix, out);
	close(fd);
	return err;
}
