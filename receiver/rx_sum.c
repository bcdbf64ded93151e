// SPDX-License-Identifier: MIT
/* One run's counts out of the receiver's per-CPU runs entry and slot (see rx_sum.h). */
#include <stdlib.h>
#include <string.h>

#include "rx_sum.h"

int pb_rx_sum_take(uint32_t run_id, int ncpus, const struct pb_rx_slot *before,
		   const struct pb_rx_val *entry, const struct pb_rx_slot *after,
		   struct pb_rx_val *acc, bool *done, bool *seen)
{
	uint64_t tag = PB_BPF_SLOT_TAG(run_id);
	int c, left = 0;

	if (entry)
		*seen = true;
	for (c = 0; c < ncpus; c++) {
		if (done[c])
			continue;
		if ((before[c].seq & 1) || before[c].seq != after[c].seq) {
			left++; /* a flush ran through this read of this CPU */
			continue;
		}
		if (entry)
			acc[c] = entry[c];
		else
			memset(&acc[c], 0, sizeof(acc[c]));
		done[c] = true;
		if (before[c].tag != tag)
			continue;
		*seen = true;
		pb_rx_val_merge(&acc[c], &before[c].val);
	}
	return left;
}

void pb_rx_sum_total(const struct pb_rx_val *acc, int ncpus, uint32_t nqueues,
		     struct pb_rx_run *out)
{
	uint64_t flows = 0;
	uint32_t q;
	int c;

	out->frames = out->bytes = out->first_ns = out->last_ns = 0;
	out->dup = out->late = out->stray = out->unchecked = 0;
	out->corrupt = out->not_host = 0;
	out->nqueues = nqueues < PB_RX_MAX_QUEUES ? nqueues : PB_RX_MAX_QUEUES;
	memset(out->queue_frames, 0, sizeof(out->queue_frames));
	for (c = 0; c < ncpus; c++) {
		const struct pb_rx_val *v = &acc[c];

		/* modulo 2^64: a resync takes back a stray another CPU counted */
		out->dup += v->dup;
		out->late += v->late;
		out->stray += v->stray;
		out->unchecked += v->unchecked;
		out->corrupt += v->corrupt;
		out->not_host += v->not_host;
		if (!v->frames)
			continue;
		out->frames += v->frames;
		out->bytes += v->bytes;
		flows += v->flows;
		for (q = 0; q < PB_RX_MAX_QUEUES; q++)
			out->queue_frames[q] += v->queue_frames[q];
		if (!out->first_ns || v->first_ns < out->first_ns)
			out->first_ns = v->first_ns;
		if (v->last_ns > out->last_ns)
			out->last_ns = v->last_ns;
	}
	out->flows_seen = flows < UINT32_MAX ? (uint32_t)flows : UINT32_MAX;
}

static int rx_id_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

uint32_t pb_rx_ids_unique(uint32_t *ids, uint32_t n)
{
	uint32_t i, k = 0;

	if (!n)
		return 0;
	qsort(ids, n, sizeof(*ids), rx_id_cmp);
	for (i = 1; i < n; i++)
		if (ids[i] != ids[k])
			ids[++k] = ids[i];
	return k + 1;
}
