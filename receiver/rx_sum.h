/* SPDX-License-Identifier: MIT */
/*
 * Summing one run's counts out of the receiver's maps: each CPU's runs entry plus its slot
 * (struct pb_rx_slot in pb_bpf.h), taken only from reads that no flush ran through. Pure
 * arithmetic on copies of the map values, so it is tested without BPF (tests/unit).
 */
#ifndef PB_RX_SUM_H
#define PB_RX_SUM_H

#include <stdbool.h>
#include <stdint.h>

#include "pb_bpf.h"
#include "rx_source.h"

/*
 * One attempt, on ncpus CPUs: the slot read before (one value per CPU), the run's runs entry
 * read then (NULL: the run has none), the slot read after. For every CPU not done yet whose
 * seq was the same and even in both slot reads, its count (entry, plus the slot when it held
 * run_id) goes to acc[cpu] and done[cpu] is set; *seen is set when the run has an entry or a
 * slot. Returns how many CPUs are still not done: read again for those.
 */
int pb_rx_sum_take(uint32_t run_id, int ncpus, const struct pb_rx_slot *before,
		   const struct pb_rx_val *entry, const struct pb_rx_slot *after,
		   struct pb_rx_val *acc, bool *done, bool *seen);
/*
 * The run's totals from the per-CPU counts: frames, bytes, distinct ports, nqueues queues'
 * frames, first arrival (earliest of the CPUs that counted any) and last. Leaves run_id,
 * seen and the VLANs to the caller.
 */
void pb_rx_sum_total(const struct pb_rx_val *acc, int ncpus, uint32_t nqueues,
		     struct pb_rx_run *out);
/*
 * The n run ids sorted, each once; returns how many are left. A walk of an LRU map starts
 * over when the key it stands on is evicted, so the ids it lists can repeat.
 */
uint32_t pb_rx_ids_unique(uint32_t *ids, uint32_t n);

#endif
