// SPDX-License-Identifier: MIT
/* Absolute-deadline pacing with a smooth, bounded catch-up; the arithmetic is pure and tested. */
#include <math.h>
#include <string.h>

#include "pacer.h"

void pb_pacer_init(struct pb_pacer *p, double rate, double t0, double burst_s)
{
	p->rate = rate > 0 ? rate : 0;
	p->t0 = t0;
	p->burst = fmax(1.0, floor(p->rate * burst_s));
	p->forgiven = 0;
	p->peak_gap = p->rate ? 1.0 / (PB_PACE_PEAK * p->rate) : 0;
	p->pk_t = t0;
	p->pk_n = 0;
	p->call_s = 0;
	p->last_t = 0;
	p->wake_s = 0;
	p->batch = 0;
	memset(p->hist, 0, sizeof(p->hist));
	p->departed = 0;
	p->err_max = 0;
}

void pb_pacer_sleeps(struct pb_pacer *p)
{
	p->wake_s = PB_PACE_WAKE_S;
	p->batch = floor(p->rate * PB_PACE_SLEEP_MIN_S);
}

void pb_pacer_depart(struct pb_pacer *p, double t, uint64_t from, uint64_t to)
{
	uint64_t i;

	if (!p->rate)
		return;
	for (i = from; i < to; i++) {
		/* frame i's nominal deadline, with the debt forgiven so far */
		double err = t - (p->t0 + ((double)i + 1 + p->forgiven) / p->rate);
		double us = err > 0 ? err * 1e6 : 0;

		p->hist[us < PB_PACE_HIST ? (uint32_t)us : PB_PACE_HIST]++;
		p->err_max = fmax(p->err_max, us);
	}
	p->departed += to > from ? to - from : 0;
}

/* When frame done may go by the peak rule. */
static double pacer_peak_due(const struct pb_pacer *p, uint64_t done)
{
	return p->pk_t + (double)(done - p->pk_n) * p->peak_gap;
}

/*
 * The typical length of a send() call: every call is timed, from the allowance that let its
 * frames go to the next allowance. It follows shorter calls at once and longer ones slowly,
 * and a call PB_PACE_STALL times the usual is a stall, not a call.
 */
static void pacer_time_call(struct pb_pacer *p, double d)
{
	if (!p->call_s || d < p->call_s)
		p->call_s = p->call_s ? (p->call_s + d) / 2 : d;
	else if (d < PB_PACE_STALL * p->call_s)
		p->call_s += (d - p->call_s) / 16;
}

uint64_t pb_pacer_allowance(struct pb_pacer *p, double t, uint64_t done)
{
	double due, owed, ncall, k, d;

	if (!p->rate)
		return UINT64_MAX;
	if (t <= p->t0)
		return 0;
	/* the last call's length: from the allowance that let its frames go to this one */
	d = p->last_t ? t - p->last_t : 0;
	if (d)
		pacer_time_call(p, d);
	p->last_t = 0;
	/* the epsilon keeps 14 ms at 1 kpps from flooring to 13.999 frames */
	due = floor((t - p->t0) * p->rate + 1e-6) - p->forgiven;
	if (due - (double)done > p->burst) {
		/* too far behind: keep the catch-up window, forgive the rest */
		p->forgiven += due - (double)done - p->burst;
		due = (double)done + p->burst;
	}
	owed = due - (double)done;
	if (owed < 1)
		return 0;
	/*
	 * The peak rule: frames a peak gap apart, bunched only into what the last call lasted,
	 * and never more than a few usual calls' worth (a stall inside a call), so a path whose
	 * calls take longer than a gap keeps its rate. A schedule that fell further behind than
	 * that (a stall, a long sleep) starts again from now.
	 */
	d = fmax(fmin(d, PB_PACE_BUNCH * p->call_s), p->wake_s);
	ncall = fmax(1.0, ceil(d / p->peak_gap - 1e-9));
	if (pacer_peak_due(p, done) < t - (ncall - 1) * p->peak_gap) {
		p->pk_t = t - (ncall - 1) * p->peak_gap;
		p->pk_n = done;
	}
	k = floor((t - pacer_peak_due(p, done)) / p->peak_gap + 1e-9) + 1;
	k = fmin(k, owed);
	if (k < 1)
		return 0;
	p->last_t = t;
	return (uint64_t)k;
}

double pb_pacer_next(const struct pb_pacer *p, uint64_t done)
{
	double nominal;

	if (!p->rate)
		return p->t0;
	nominal = p->t0 + ((double)done + 1 + p->batch + p->forgiven) / p->rate;
	return fmax(nominal, pacer_peak_due(p, done));
}

uint32_t pb_pacer_frame_at(const struct pb_pacer *p, double t, uint64_t done)
{
	/* frame n's nominal deadline is t0 + (n + 1 + forgiven) / rate (pb_pacer_allowance) */
	double n;

	if (!p->rate)
		return 0;
	n = ceil((t - p->t0) * p->rate - 1 - p->forgiven - 1e-6) - (double)done;
	return n <= 0 ? 0 : n >= UINT32_MAX ? UINT32_MAX - 1 : (uint32_t)n;
}

uint64_t pb_pacer_behind(const struct pb_pacer *p, double t, uint64_t done)
{
	double due, owed;

	if (!p->rate || t <= p->t0)
		return 0;
	due = floor((t - p->t0) * p->rate + 1e-6) - p->forgiven;
	owed = due > (double)done ? due - (double)done : 0;
	return (uint64_t)(p->forgiven + owed);
}

void pb_stall_init(struct pb_stall *st, double t)
{
	st->sent = 0;
	st->last = t;
	st->from = t;
	st->quiet = 0;
}

double pb_stall_look(struct pb_stall *st, double t, uint64_t sent, bool watch)
{
	double dt = t - st->last;

	/* a look before watching starts (a window that opens at --start-at) sees nothing */
	if (t < st->from && !st->sent && !st->quiet)
		return 0;
	st->last = t;
	if (sent != st->sent || !watch) {
		st->sent = sent;
		st->from = t;
		st->quiet = 0;
		return 0;
	}
	if (dt > 0 && dt <= PB_STALL_GAP_S)
		st->quiet += dt;
	return st->quiet;
}

double pb_stall_after(double rate)
{
	return rate > 0 ? fmax(PB_STALL_S, PB_STALL_FRAMES / rate) : PB_STALL_S;
}
