// SPDX-License-Identifier: MIT
/* The path ops for a real interface (or the lab's sending veth): rtnetlink and ethtool. */
#include <errno.h>
#include <string.h>

#include "netif.h"
#include "path.h"

static int path_tx_stats(void *ctx, struct pb_tx_stats *out)
{
	struct pb_path_netif *n = ctx;
	struct pb_link_stats ls;
	int err;

	memset(out, 0, sizeof(*out));
	err = pb_netif_stats(n->nl, n->ifindex, &ls);
	if (err)
		return err;
	out->tx_packets = ls.tx_packets;
	out->tx_dropped = ls.tx_dropped;
	/* a device without qdiscs (noqueue) or drivers without these stats simply add 0 */
	pb_netif_qdisc_drops(n->nl, n->ifindex, &out->qdisc_drops);
	pb_netif_ethtool_sum(n->ifname, "xdp_xmit_errors", &out->xdp_xmit_errors);
	return 0;
}

static int path_carrier(void *ctx)
{
	struct pb_path_netif *n = ctx;

	n->car.sk = n->nl;
	n->car.ifindex = n->ifindex;
	return pb_netif_carrier(&n->car);
}

static void path_carrier_nap(void *ctx, const struct pb_clock *clk, double until)
{
	struct pb_path_netif *n = ctx;

	pb_netif_carrier_nap(&n->car, clk, until);
}

static void path_carrier_end(void *ctx)
{
	struct pb_path_netif *n = ctx;

	pb_netif_carrier_end(&n->car);
}

static int path_watch_start(void *ctx)
{
	struct pb_path_netif *n = ctx;

	return pb_link_watch_open(&n->watch, n->nl, n->ifindex);
}

static int path_link_state(void *ctx, int ms)
{
	struct pb_path_netif *n = ctx;

	return n->watch ? pb_link_watch_wait(n->watch, ms) : -ENOTCONN;
}

static void path_watch_stop(void *ctx)
{
	struct pb_path_netif *n = ctx;

	pb_link_watch_close(n->watch);
	n->watch = NULL;
}

static int path_dut_stats(void *ctx, struct pb_dut_stats *out)
{
	struct pb_path_dut *d = ctx;
	struct pb_link_stats ls;
	uint64_t drops;
	unsigned int i;
	int err;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < d->n; i++) {
		err = pb_netif_stats(d->nl, d->ifindex[i], &ls);
		if (err)
			return err;
		out->tx_dropped += ls.tx_dropped;
		out->rx_dropped += ls.rx_dropped + ls.rx_missed_errors + ls.rx_fifo_errors;
		if (!pb_netif_qdisc_drops(d->nl, d->ifindex[i], &drops))
			out->qdisc_drops += drops;
	}
	return 0;
}

void pb_path_dut(struct pb_path *p, struct pb_path_dut *d)
{
	p->dut_stats = path_dut_stats;
	p->dut_ctx = d;
}

void pb_path_netif(struct pb_path *p, struct pb_path_netif *n)
{
	memset(p, 0, sizeof(*p));
	p->ctx = n;
	n->car = (struct pb_netif_carrier){ 0 };
	p->tx_stats = path_tx_stats;
	p->carrier = path_carrier;
	p->carrier_nap = path_carrier_nap;
	p->carrier_end = path_carrier_end;
	p->watch_start = path_watch_start;
	p->link_state = path_link_state;
	p->watch_stop = path_watch_stop;
}
