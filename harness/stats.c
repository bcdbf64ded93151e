// SPDX-License-Identifier: MIT
/* The derived figures of a run (rates, percentages, CPU cost), computed in this one place. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

#define PB_ETH_MIN	60 /* shortest Ethernet frame without FCS */
#define PB_ETH_MIN_VLAN 64 /* the same with an 802.1Q tag: the tag does not count as payload */

uint64_t pb_replay_skips_str(const uint64_t skipped[PB_RSKIP_N], char *buf, size_t len)
{
	static const char *const what[PB_RSKIP_N] = { "not IP (ARP, LLDP...)",
						      "not UDP (TCP, ICMP...)",
						      "IP fragments",
						      "captured short",
						      "UDP payload under 8 bytes",
						      "over the MTU",
						      "UDP of the other address family" };
	uint64_t out = 0;
	size_t o = 0;
	int k;

	if (len)
		buf[0] = '\0';
	for (k = 0; k < PB_RSKIP_N; k++) {
		out += skipped[k];
		if (skipped[k] && o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s %" PRIu64, o ? ", " : "",
					      what[k], skipped[k]);
	}
	return out;
}

double pb_us_quantile(const uint64_t *h, uint32_t nb, uint64_t total, double q, double max_us)
{
	uint64_t want = (uint64_t)ceil(q * (double)total), seen = 0;
	uint32_t i;

	for (i = 0; i <= nb && total; i++) {
		seen += h[i];
		if (seen >= want && seen)
			return i < nb ? fmin(i + 1.0, max_us) : max_us;
	}
	return max_us;
}

uint32_t pb_wire_bytes(uint32_t frame_bytes, bool vlan)
{
	uint32_t min = vlan ? PB_ETH_MIN_VLAN : PB_ETH_MIN;

	/* A NIC pads a short frame before it goes out, so the wire pays for the minimum. */
	return (frame_bytes > min ? frame_bytes : min) + PB_L1_OVERHEAD;
}

double pb_wire_gbps(double pps, uint32_t frame_bytes, bool vlan)
{
	return pps * pb_wire_bytes(frame_bytes, vlan) * 8.0 / 1e9;
}

double pb_app_mbps(double pps, uint32_t frame_bytes)
{
	return pps * frame_bytes * 8.0 / 1e6;
}

double pb_spread(const uint64_t *v, uint32_t n)
{
	double mean = 0, var = 0;
	uint32_t i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)
		mean += (double)v[i];
	mean /= n;
	if (mean <= 0)
		return 0;
	for (i = 0; i < n; i++)
		var += ((double)v[i] - mean) * ((double)v[i] - mean);
	return sqrt(var / n) / mean;
}

void pb_result_check_extra(struct pb_result *r)
{
	r->frames_extra = 0;
	if (!r->has_receiver || !r->delivered_known || r->frames_delivered <= r->frames_sent)
		return;
	r->frames_extra = r->frames_delivered - r->frames_sent;
	if (r->status != PB_STATUS_OK)
		return;
	r->status = PB_STATUS_ERROR;
	snprintf(r->reason, sizeof(r->reason),
		 "delivered %" PRIu64 " of %" PRIu64 " sent: %" PRIu64
		 " more frames carried its signature (forged, replayed or counted twice)",
		 r->frames_delivered, r->frames_sent, r->frames_extra);
}

void pb_result_check_seq(struct pb_result *r)
{
	if (!r->has_receiver || !r->delivered_known || r->status != PB_STATUS_OK)
		return;
	if (r->frames_corrupt) {
		r->status = PB_STATUS_ERROR;
		snprintf(r->reason, sizeof(r->reason),
			 "corrupt: %" PRIu64 " frames the host would refuse (an IP or UDP "
			 "checksum, a version or a length), not counted; delivered "
			 "%" PRIu64 " of %" PRIu64 " sent",
			 r->frames_corrupt, r->frames_delivered, r->frames_sent);
	} else if (r->frames_not_for_host) {
		r->status = PB_STATUS_ERROR;
		snprintf(r->reason, sizeof(r->reason),
			 "not for this host: %" PRIu64 " frames arrived with another destination "
			 "MAC or IP address, not counted; delivered %" PRIu64 " of %" PRIu64
			 " sent",
			 r->frames_not_for_host, r->frames_delivered, r->frames_sent);
	} else if (r->frames_duplicate) {
		r->status = PB_STATUS_ERROR;
		snprintf(r->reason, sizeof(r->reason),
			 "duplicates: %" PRIu64 " frames arrived again (a sequence number seen "
			 "before), not counted; delivered %" PRIu64 " of %" PRIu64
			 " sent, each once",
			 r->frames_duplicate, r->frames_delivered, r->frames_sent);
	}
	/*
	 * Frames out of the window are delivered, unchecked (bpf/receiver.bpf.c): no error of
	 * their own; a forger's frames there make delivered exceed sent (pb_result_check_extra)
	 */
}

bool pb_result_has_delivered(const struct pb_result *r)
{
	return r->has_receiver && r->delivered_known && r->frames_sent > 0 &&
	       (r->status == PB_STATUS_OK || r->measured);
}

bool pb_result_has_accounted(const struct pb_result *r)
{
	return pb_result_has_delivered(r) && r->netting != PB_NET_SKIPPED;
}

/* The one netting of drop counters: see stats.h. */
static void pb_result_net(struct pb_result *r)
{
	const struct pb_raw_counts *c = &r->raw;
	uint64_t seen = 0, minus = r->frames_retried;

	r->frames_dropped = 0;
	r->netting_deficit = 0;
	if (!c->have_tx && !c->have_rx) {
		r->netting = PB_NET_SKIPPED;
		return;
	}
	if (c->have_tx)
		seen += c->tx_dropped + c->qdisc_drops;
	if (c->have_rx)
		seen += c->rx_dropped + c->rx_missed_errors + c->rx_fifo_errors;
	if (c->have_dut)
		seen += c->dut_rx_dropped + c->dut_tx_dropped + c->dut_qdisc_drops;
	if (r->veth_pair && c->have_tx && c->have_rx)
		minus += c->xdp_xmit_errors;
	if (r->dut_veth && c->have_tx && c->have_dut)
		minus += c->tx_dropped;
	if (seen < minus) {
		/* something reported a drop no counter saw: show it, never hide it */
		r->netting = PB_NET_NEGATIVE;
		r->netting_deficit = minus - seen;
		return;
	}
	r->netting = PB_NET_OK;
	r->frames_dropped = seen - minus;
}

void pb_result_compute(struct pb_result *r)
{
	double sent = (double)r->frames_sent;

	r->pps = 0;
	r->offered_pps = 0;
	r->pushed_back = false;
	r->app_mbps = 0;
	r->wire_gbps = 0;
	r->delivered_pct = 0;
	r->accounted_pct = 0;
	r->cpu_ns_per_pkt = 0;
	r->syscalls_per_frame = 0;
	pb_result_net(r);

	/*
	 * A skipped or failed row has no figures, unless its window ran (a --count-timeout, a
	 * receiver gone mid-run): then they are the partial figures, and the row says so.
	 */
	if (r->status != PB_STATUS_OK && !r->measured)
		return;

	/* "> 0" also refuses a NaN duration, not only a zero one. */
	if (r->duration_s > 0) {
		r->pps = sent / r->duration_s;
		r->offered_pps = (sent + (double)r->frames_retried) / r->duration_s;
		r->pushed_back = r->send_blocked_s >= PB_PUSHBACK_SHARE * r->duration_s;
	}
	r->rx_queue_cv = pb_spread(r->rx_queue_frames, r->rx_queues);
	/* a mix (--imix) is averaged per frame: mean bytes, and mean wire bytes with each padded */
	r->app_mbps = r->frame_avg > 0 ? r->pps * r->frame_avg * 8 / 1e6
				       : pb_app_mbps(r->pps, r->frame_bytes);
	r->wire_gbps = r->wire_avg > 0 ? r->pps * r->wire_avg * 8 / 1e9
				       : pb_wire_gbps(r->pps, r->frame_bytes, r->vlan);

	if (!r->frames_sent)
		return;
	r->cpu_ns_per_pkt = r->cpu_s * 1e9 / sent;
	r->syscalls_per_frame = (double)r->syscalls / sent;
	if (!pb_result_has_delivered(r))
		return;
	r->delivered_pct = 100.0 * (double)r->frames_delivered / sent;
	if (!pb_result_has_accounted(r))
		return;
	/* Not capped: above 100 % means something was counted twice, and that must show. */
	r->accounted_pct = 100.0 * ((double)r->frames_delivered + (double)r->frames_dropped) / sent;
}

const char *pb_netting_name(enum pb_netting n)
{
	switch (n) {
	case PB_NET_OK:
		return "ok";
	case PB_NET_SKIPPED:
		return "skipped";
	case PB_NET_NEGATIVE:
		return "negative";
	}
	return "unknown";
}

const char *pb_status_name(enum pb_status s)
{
	switch (s) {
	case PB_STATUS_OK:
		return "ok";
	case PB_STATUS_SKIPPED:
		return "skipped";
	case PB_STATUS_ERROR:
		return "error";
	}
	return "unknown";
}

const char *pb_rfc_test_name(enum pb_rfc_test t)
{
	switch (t) {
	case PB_RFC_NONE:
		return NULL;
	case PB_RFC_THROUGHPUT:
		return "throughput";
	case PB_RFC_LATENCY:
		return "latency";
	case PB_RFC_LOSS:
		return "loss";
	case PB_RFC_B2B:
		return "back-to-back";
	}
	return NULL;
}

void pb_result_release(struct pb_result *r)
{
	free(r->samples);
	r->samples = NULL;
	r->nsamples = 0;
	pb_latency_release(&r->latency);
	pb_gaps_release(&r->gaps);
}

uint32_t pb_result_pick(struct pb_result *runs, uint32_t n)
{
	struct pb_round rounds[PB_MAX_REPEAT];
	uint32_t i, j, k, nr = n < PB_MAX_REPEAT ? n : PB_MAX_REPEAT;

	if (runs[n - 1].status != PB_STATUS_OK)
		return n - 1;
	/* before sorting: the rounds in the order they ran, so a slow one can be told apart */
	for (i = 0; i < nr; i++) {
		rounds[i].pps = runs[i].pps;
		rounds[i].sender_cpu = runs[i].sender_cpu[0];
	}
	/* insertion sort by pps: n is small */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && runs[j].pps < runs[j - 1].pps; j--) {
			struct pb_result t = runs[j];

			runs[j] = runs[j - 1];
			runs[j - 1] = t;
		}
	k = n / 2;
	if (n > 1) {
		/* how far this row's own runs spread: compare weighs a fall against it */
		runs[k].pps_min = runs[0].pps;
		runs[k].pps_max = runs[n - 1].pps;
		runs[k].nrounds = nr;
		memcpy(runs[k].rounds, rounds, nr * sizeof(rounds[0]));
		runs[k].rounds_spread_pct =
			runs[k].pps > 0 ? 100.0 * (runs[k].pps_max - runs[k].pps_min) / runs[k].pps
					: NAN;
	}
	return k;
}
