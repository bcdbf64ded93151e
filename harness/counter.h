/* SPDX-License-Identifier: MIT */
/* The one delta of two reads of a counter, for everything that subtracts counter reads. */
#ifndef PB_COUNTER_H
#define PB_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

/*
 * after - before, or 0 when the counter went back (a restarted receiver, a recreated
 * interface), which sets *back (may be NULL). Every difference of two counter reads goes
 * through here, so none can underflow.
 */
static inline uint64_t pb_ctr_delta(uint64_t before, uint64_t after, bool *back)
{
	if (after >= before)
		return after - before;
	if (back)
		*back = true;
	return 0;
}

#endif
