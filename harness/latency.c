// SPDX-License-Identifier: MIT
/* Probe and gap figures from the receiver's per-stream counts and histograms. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counter.h"
#include "latency.h"
#include "rx_source.h"

_Static_assert(PB_RX_HIST_BUCKETS == PB_HIST_BUCKETS, "one histogram layout on both sides");

uint64_t pb_hist_quantile(const uint64_t *counts, uint64_t total, double p, uint64_t lo,
			  uint64_t hi)
{
	uint64_t rank, seen = 0, v;
	uint32_t b;

	if (!total)
		return 0;
	/* the rank as a nearest-rank percentile; the epsilon keeps 0.999 x 1000 at 999 */
	rank = (uint64_t)ceil(p * (double)total - 1e-9);
	rank = rank < 1 ? 1 : rank > total ? total : rank;
	for (b = 0; b < PB_HIST_BUCKETS; b++) {
		seen += counts[b];
		if (seen >= rank)
			break;
	}
	v = pb_hist_upper(b < PB_HIST_BUCKETS ? b : PB_HIST_BUCKETS - 1);
	return v < lo ? lo : v > hi ? hi : v;
}

int pb_hist_pairs(const uint64_t *counts, struct pb_hist_pair **out, uint32_t *n)
{
	uint32_t b, k = 0;

	*out = NULL;
	*n = 0;
	for (b = 0; b < PB_HIST_BUCKETS; b++)
		k += counts[b] != 0;
	if (!k)
		return 0;
	*out = malloc(sizeof(**out) * k);
	if (!*out)
		return -ENOMEM;
	for (b = 0; b < PB_HIST_BUCKETS; b++)
		if (counts[b])
			(*out)[(*n)++] = (struct pb_hist_pair){ pb_hist_upper(b), counts[b] };
	return 0;
}

static uint64_t hist_total(const uint64_t *counts)
{
	uint64_t total = 0;
	uint32_t b;

	for (b = 0; b < PB_HIST_BUCKETS; b++)
		total += counts[b];
	return total;
}

static uint64_t lat_sent(const struct pb_lat_input *in, uint32_t s)
{
	return s < in->streams && in->probes_sent ? in->probes_sent[s] : 0;
}

/* Which streams have anything to say: sent probes, or the receiver saw some. */
static uint32_t lat_streams(const struct pb_rx_run *rx, const struct pb_lat_input *in, bool *used)
{
	uint32_t s, n = 0;

	memset(used, 0, sizeof(bool) * PB_RX_MAX_STREAMS);
	for (s = 0; s < in->streams && s < PB_RX_MAX_STREAMS; s++)
		used[s] = lat_sent(in, s) > 0;
	for (s = 0; rx && s < rx->nstreams && s < PB_RX_MAX_STREAMS; s++)
		if (rx->streams[s].stream < PB_RX_MAX_STREAMS && rx->streams[s].probes)
			used[rx->streams[s].stream] = true;
	for (s = 0; s < PB_RX_MAX_STREAMS; s++)
		n += used[s];
	return n;
}

static const struct pb_rx_stream *lat_rx_stream(const struct pb_rx_run *rx, uint32_t id)
{
	uint32_t s;

	for (s = 0; rx && s < rx->nstreams && s < PB_RX_MAX_STREAMS; s++)
		if (rx->streams[s].stream == id)
			return &rx->streams[s];
	return NULL;
}

/* Why the latency figures cannot be trusted with these clocks, or NULL. */
static const char *lat_clock_why(const struct pb_rx_run *rx, const struct pb_lat_input *in)
{
	if (in->tai)
		return rx->rx_tai ? NULL
				  : "the receiver cannot read CLOCK_TAI (its kernel is older than "
				    "6.1): one-way latency unknown";
	if (!in->same_clock)
		return "one-way latency unknown: the receiver is on another host; keep the "
		       "clocks within 1 us (PTP) and add --synced-clocks (jitter and loss need "
		       "none)";
	return NULL;
}

int pb_latency_compute(struct pb_latency *lat, const struct pb_rx_run *rx,
		       const struct pb_lat_input *in)
{
	uint64_t sum = 0, lo = UINT64_MAX, hi = 0, total = 0, jsum = 0;
	uint32_t s, k = 0, njit = 0;
	bool used[PB_RX_MAX_STREAMS];
	const char *why;

	lat->tai = in->tai;
	lat->nstreams = lat_streams(rx, in, used);
	if (lat->nstreams) {
		lat->streams = calloc(lat->nstreams, sizeof(*lat->streams));
		if (!lat->streams)
			return -ENOMEM;
	}
	for (s = 0; s < PB_RX_MAX_STREAMS; s++) {
		const struct pb_rx_stream *r = lat_rx_stream(rx, s);
		struct pb_lat_stream *o;

		if (!used[s])
			continue;
		o = &lat->streams[k++];
		o->stream = s;
		o->sent = lat_sent(in, s);
		lat->probes_sent += o->sent;
		if (in->probes_dropped && s < in->streams)
			lat->probes_dropped += in->probes_dropped[s];
		/* what never arrived, the tail included (a lost last probe leaves no gap) */
		o->received = r ? r->probes : 0;
		o->lost = rx && o->sent > o->received ? o->sent - o->received : 0;
		if (!r)
			continue;
		o->reordered = r->late;
		o->duplicated = r->dup;
		o->samples = r->lat_n;
		lat->clock_errors += r->lat_bad;
		if (r->lat_n) {
			o->min_us = r->lat_min_ns / 1e3;
			o->max_us = r->lat_max_ns / 1e3;
			o->mean_us = (double)r->lat_sum_ns / r->lat_n / 1e3;
			lo = r->lat_min_ns < lo ? r->lat_min_ns : lo;
			hi = r->lat_max_ns > hi ? r->lat_max_ns : hi;
			sum += r->lat_sum_ns;
			total += r->lat_n;
		}
		o->jitter_known = r->jitter_n >= 2;
		o->jitter_us = r->jitter_ns / 1e3;
		if (o->jitter_known) {
			jsum += r->jitter_ns;
			njit++;
		}
	}
	for (s = 0; s < lat->nstreams; s++) {
		lat->probes_received += lat->streams[s].received;
		lat->lost += lat->streams[s].lost;
		lat->reordered += lat->streams[s].reordered;
		lat->duplicated += lat->streams[s].duplicated;
	}
	if (!rx) {
		snprintf(lat->why, sizeof(lat->why), "no receiver: nothing counted the probes");
		return 0;
	}
	lat->measured = true;
	lat->samples = total;
	lat->jitter_known = njit > 0;
	lat->jitter_us = njit ? (double)jsum / njit / 1e3 : 0;
	why = lat_clock_why(rx, in);
	if (!why && !total)
		why = lat->probes_received ? "no probe's latency could be taken (clock errors)"
					   : "no probe arrived";
	if (why) {
		snprintf(lat->why, sizeof(lat->why), "%s", why);
		return 0;
	}
	lat->timed = true;
	lat->min_us = lo / 1e3;
	lat->max_us = hi / 1e3;
	lat->mean_us = (double)sum / total / 1e3;
	if (!in->lat_hist)
		return 0;
	/* the histogram's own total: the streams' counts and it were read a moment apart */
	total = hist_total(in->lat_hist);
	lat->p50_us = pb_hist_quantile(in->lat_hist, total, 0.50, lo, hi) / 1e3;
	lat->p90_us = pb_hist_quantile(in->lat_hist, total, 0.90, lo, hi) / 1e3;
	lat->p99_us = pb_hist_quantile(in->lat_hist, total, 0.99, lo, hi) / 1e3;
	lat->p999_us = pb_hist_quantile(in->lat_hist, total, 0.999, lo, hi) / 1e3;
	return pb_hist_pairs(in->lat_hist, &lat->hist, &lat->nhist);
}

int pb_gaps_compute(struct pb_gaps *g, const struct pb_rx_run *rx, const struct pb_lat_input *in)
{
	double span = 0, var = 0, mean;
	uint64_t total = 0, n = 0;
	uint32_t s, b;

	g->target_us = in->gap_target_s * 1e6;
	for (s = 0; rx && s < rx->nstreams && s < PB_RX_MAX_STREAMS; s++) {
		const struct pb_rx_stream *r = &rx->streams[s];

		if (r->gap_frames < 2)
			continue;
		span += (double)pb_ctr_delta(r->gap_first_ns, r->gap_last_ns, NULL);
		n += r->gap_frames - 1;
	}
	if (rx && in->gap_hist)
		total = hist_total(in->gap_hist);
	if (!n || !total) {
		snprintf(g->why, sizeof(g->why), "%s",
			 !rx ? "no receiver" : "the receiver timed no gap between frames");
		return 0;
	}
	g->measured = true;
	g->n = total;
	/* the mean is exact; the spread around it comes from the buckets' midpoints */
	mean = span / n;
	g->mean_us = mean / 1e3;
	for (b = 0; b < PB_HIST_BUCKETS; b++) {
		double mid = (pb_hist_lower(b) + pb_hist_upper(b)) / 2.0;

		if (in->gap_hist[b])
			var += in->gap_hist[b] * (mid - mean) * (mid - mean);
	}
	g->cv = mean > 0 ? sqrt(var / total) / mean : 0;
	g->p1_us = pb_hist_quantile(in->gap_hist, total, 0.01, 0, UINT64_MAX) / 1e3;
	g->p50_us = pb_hist_quantile(in->gap_hist, total, 0.50, 0, UINT64_MAX) / 1e3;
	g->p99_us = pb_hist_quantile(in->gap_hist, total, 0.99, 0, UINT64_MAX) / 1e3;
	g->max_us = pb_hist_quantile(in->gap_hist, total, 1.0, 0, UINT64_MAX) / 1e3;
	return pb_hist_pairs(in->gap_hist, &g->hist, &g->nhist);
}

void pb_latency_release(struct pb_latency *lat)
{
	free(lat->hist);
	free(lat->streams);
	lat->hist = NULL;
	lat->streams = NULL;
	lat->nhist = lat->nstreams = 0;
}

void pb_gaps_release(struct pb_gaps *g)
{
	free(g->hist);
	g->hist = NULL;
	g->nhist = 0;
}
