// SPDX-License-Identifier: MIT
/* Absolute-deadline pacing with a bounded catch-up; the arithmetic is pure and unit-tested. */
#include <math.h>

#include "pacer.h"

void pb_pacer_init(struct pb_pacer *p, double rate, double t0, double burst_s)
{
	p->rate = rate > 0 ? rate : 0;
	p->t0 = t0;
	p->burst = fmax(1.0, floor(p->rate * burst_s));
	p->forgiven = 0;
}

uint64_t pb_pacer_allowance(struct pb_pacer *p, double t, uint64_t done)
{
	double due;

	if (!p->rate)
		return UINT64_MAX;
	if (t <= p->t0)
		return 0;
	/* the epsilon keeps 14 ms at 1 kpps from flooring to 13.999 frames */
	due = floor((t - p->t0) * p->rate + 1e-6) - p->forgiven;
	if (due - (double)done > p->burst) {
		/* too far behind: keep a short burst, forgive the rest */
		p->forgiven += due - (double)done - p->burst;
		due = (double)done + p->burst;
	}
	return due > (double)done ? (uint64_t)(due - (double)done) : 0;
}

double pb_pacer_next(const struct pb_pacer *p, uint64_t done)
{
	if (!p->rate)
		return p->t0;
	return p->t0 + ((double)done + 1 + p->forgiven) / p->rate;
}
