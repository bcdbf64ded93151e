// SPDX-License-Identifier: MIT
/*
 * pktbench rfc2544's table format: one box per test over its summary rows (the trials are in
 * JSON and CSV), then the rows that could not answer, with the reason, and what the numbers
 * mean. Formatting only: every figure was computed when the row was made.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "box.h"
#include "writers.h"

#define RFC_COLS 11
#define RFC_CELL 40

struct rfc_trow {
	char cell[RFC_COLS][RFC_CELL];
};

struct rfc_table {
	enum pb_rfc_test test;
	const char *title;
	struct pb_box_col cols[RFC_COLS];
	unsigned int ncols;
	void (*fill)(struct rfc_trow *t, const struct pb_result *r);
	bool mlr; /* --search mlr's goal rows (test throughput), which no other box shows */
};

static void rfc_who(struct rfc_trow *t, const struct pb_result *r)
{
	pb_box_cell(t->cell[0], RFC_CELL, "%.*s%s", (int)strnlen(r->method, sizeof(r->method)),
		    r->method, r->interrupted ? "*" : "");
	pb_box_cell(t->cell[1], RFC_CELL, "%" PRIu32, r->rfc.frame_size);
}

static void rfc_fill_throughput(struct rfc_trow *t, const struct pb_result *r)
{
	const struct pb_rfc_row *f = &r->rfc;

	rfc_who(t, r);
	pb_box_cell(t->cell[2], RFC_CELL, "%.0f", f->throughput_pps);
	pb_box_cell(t->cell[3], RFC_CELL, "%.3f", f->throughput_wire_gbps);
	pb_box_cell(t->cell[4], RFC_CELL, "%.0f", f->max_pps);
	pb_box_cell(t->cell[5], RFC_CELL, "%.1f",
		    f->max_pps > 0 ? 100 * f->throughput_pps / f->max_pps : 0);
	pb_box_cell(t->cell[6], RFC_CELL, "%.4f", isfinite(f->loss_pct) ? f->loss_pct : 0);
	pb_box_cell(t->cell[7], RFC_CELL, "%" PRIu32, f->trials);
	pb_box_cell(t->cell[8], RFC_CELL, "%s",
		    f->pushed_back	? "unknown: sender pushed back"
		    : f->sender_limited ? "send path"
					: "DUT");
}

static void rfc_fill_mlr(struct rfc_trow *t, const struct pb_result *r)
{
	const struct pb_rfc_row *f = &r->rfc;

	rfc_who(t, r);
	pb_box_cell(t->cell[2], RFC_CELL, "loss %g%% final %gs sum %gs exceed %g%%",
		    100 * f->mlr.loss_ratio, f->mlr.final_s, f->mlr.sum_s,
		    100 * f->mlr.exceed_ratio);
	pb_box_cell(t->cell[3], RFC_CELL, "%.0f", f->throughput_pps);
	pb_box_cell(t->cell[4], RFC_CELL, "%.0f", f->lower_pps);
	if (isfinite(f->upper_pps))
		pb_box_cell(t->cell[5], RFC_CELL, "%.0f", f->upper_pps);
	else
		pb_box_cell(t->cell[5], RFC_CELL, "-");
	/* RFC 9971: an irregular result's figures are marked as such */
	pb_box_cell(t->cell[6], RFC_CELL, "%s", f->regular ? "regular" : "irregular");
	pb_box_cell(t->cell[7], RFC_CELL, "%.3f", f->throughput_wire_gbps);
	pb_box_cell(t->cell[8], RFC_CELL, "%" PRIu32, f->trials);
	pb_box_cell(t->cell[9], RFC_CELL, "%.1f", f->search_s);
	pb_box_cell(t->cell[10], RFC_CELL, "%s",
		    f->pushed_back	? "unknown: sender pushed back"
		    : f->sender_limited ? "send path"
					: "DUT");
}

static void rfc_fill_latency(struct rfc_trow *t, const struct pb_result *r)
{
	const struct pb_rfc_row *f = &r->rfc;

	rfc_who(t, r);
	pb_box_cell(t->cell[2], RFC_CELL, "%.0f", f->lat_rate_pps);
	pb_box_cell(t->cell[3], RFC_CELL, "%.1f", f->p50_us);
	pb_box_cell(t->cell[4], RFC_CELL, "%.1f", f->p99_us);
	pb_box_cell(t->cell[5], RFC_CELL, "%.1f", f->max_us);
	pb_box_cell(t->cell[6], RFC_CELL, "%.1f", f->mean_us);
}

static void rfc_fill_loss(struct rfc_trow *t, const struct pb_result *r)
{
	rfc_who(t, r);
	pb_box_cell(t->cell[2], RFC_CELL, "%.0f", r->rfc.load_pct);
	pb_box_cell(t->cell[3], RFC_CELL, "%.0f", r->offered_pps);
	if (r->interrupted) /* cut short: no loss to read */
		pb_box_cell(t->cell[4], RFC_CELL, "interrupted");
	else
		pb_box_cell(t->cell[4], RFC_CELL, "%.4f", r->rfc.loss_pct);
	pb_box_cell(t->cell[5], RFC_CELL, "%" PRIu64, r->frames_sent);
	pb_box_cell(t->cell[6], RFC_CELL, "%" PRIu64, r->frames_delivered);
}

static void rfc_fill_b2b(struct rfc_trow *t, const struct pb_result *r)
{
	const struct pb_rfc_row *f = &r->rfc;

	rfc_who(t, r);
	pb_box_cell(t->cell[2], RFC_CELL, "%.1f", f->burst_mean);
	pb_box_cell(t->cell[3], RFC_CELL, "%" PRIu64, f->burst_min);
	pb_box_cell(t->cell[4], RFC_CELL, "%" PRIu64, f->burst_max);
	pb_box_cell(t->cell[5], RFC_CELL, "%.1f", f->burst_stddev);
	pb_box_cell(t->cell[6], RFC_CELL, "%" PRIu32, f->repetitions);
	pb_box_cell(t->cell[7], RFC_CELL, "%.0f", f->max_pps);
	pb_box_cell(t->cell[8], RFC_CELL, "%s", f->sender_limited ? "send path" : "DUT");
}

static const struct rfc_table rfc_tables[] = {
	{ PB_RFC_THROUGHPUT,
	  "26.1 throughput: the highest rate that lost no more than the tolerance",
	  { { "Method", true },
	    { "Frame" },
	    { "Throughput pps", .abbr = "Tput pps" },
	    { "Gb/s (wire L1)", .abbr = "Gb/s L1", .drop = 3 },
	    { "Max pps", .drop = 1 },
	    { "% of max", .abbr = "% max", .drop = 2 },
	    { "Loss %", .drop = 4 },
	    { "Trials", .drop = 5 },
	    { "Limit", true } },
	  9,
	  rfc_fill_throughput },
	{ PB_RFC_THROUGHPUT,
	  "26.1 throughput by RFC 9971's MLRsearch, per goal: the conditional throughput at the "
	  "relevant lower bound",
	  { { "Method", true },
	    { "Frame" },
	    { "Goal", true },
	    { "Cond. tput pps", .abbr = "Tput pps" },
	    { "Lower pps", .drop = 2 },
	    { "Upper pps", .drop = 3 },
	    { "Result", true },
	    { "Gb/s (wire L1)", .abbr = "Gb/s L1", .drop = 1 },
	    { "Trials", .drop = 4 },
	    { "Trial s", .drop = 5 },
	    { "Limit", true } },
	  11,
	  rfc_fill_mlr,
	  .mlr = true },
	{ PB_RFC_LATENCY,
	  "26.2 latency at the throughput rate, one way, in microseconds",
	  { { "Method", true },
	    { "Frame" },
	    { "Rate pps", .drop = 2 },
	    { "p50 us" },
	    { "p99 us" },
	    { "max us", .drop = 1 },
	    { "mean us", .drop = 3 } },
	  7,
	  rfc_fill_latency },
	{ PB_RFC_LOSS,
	  "26.3 frame loss rate: loss at each load, % of the unpaced maximum",
	  { { "Method", true },
	    { "Frame" },
	    { "Load %" },
	    { "Offered pps", .abbr = "Offered" },
	    { "Loss %" },
	    { "Sent", .drop = 2 },
	    { "Delivered", .drop = 1 } },
	  7,
	  rfc_fill_loss },
	{ PB_RFC_B2B,
	  "26.4 back-to-back: the longest burst at the maximum rate without loss",
	  { { "Method", true },
	    { "Frame" },
	    { "Burst frames", .abbr = "Burst" },
	    { "Min", .drop = 4 },
	    { "Max", .drop = 3 },
	    { "Std dev", .drop = 5 },
	    { "Repeats", .drop = 6 },
	    { "Burst pps", .drop = 1 },
	    { "Limit", true } },
	  9,
	  rfc_fill_b2b },
};

/* A summary row of tb that has an answer (answered), or one that says why it has none. */
static bool rfc_row_of(const struct pb_result *r, const struct rfc_table *tb, bool answered)
{
	enum pb_rfc_test test = tb->test;
	bool ok = r->status == PB_STATUS_OK &&
		  !(test == PB_RFC_THROUGHPUT && !(r->rfc.throughput_pps > 0)) &&
		  !(test == PB_RFC_LATENCY && !isfinite(r->rfc.p50_us));

	return r->rfc.summary && r->rfc.test == test && !r->rfc.goal == !tb->mlr && ok == answered;
}

/* Two rows that did not answer for the same reason, said the same way. */
static bool rfc_same_reason(const struct pb_result *a, const struct pb_result *b)
{
	return a->status == b->status && !strncmp(a->reason, b->reason, sizeof(a->reason));
}

/* One test's box over its ok summary rows, then its rows that did not answer. */
static int rfc_table_write(FILE *f, const struct pb_report *rep, const struct rfc_table *tb)
{
	struct pb_box_col cols[RFC_COLS];
	struct rfc_trow *rows = NULL;
	unsigned int i, n = 0, other = 0;

	for (i = 0; i < rep->n; i++) {
		n += rfc_row_of(&rep->results[i], tb, true);
		other += rfc_row_of(&rep->results[i], tb, false);
	}
	if (!n && !other)
		return 0;
	fprintf(f, "RFC 2544 %s\n", tb->title);
	if (n) {
		rows = calloc(n, sizeof(*rows));
		if (!rows)
			return -ENOMEM;
		memcpy(cols, tb->cols, sizeof(cols));
		for (i = 0, n = 0; i < rep->n; i++)
			if (rfc_row_of(&rep->results[i], tb, true))
				tb->fill(&rows[n++], &rep->results[i]);
		pb_box_table(f, cols, tb->ncols, rows, sizeof(*rows), RFC_CELL, n, rep->width);
		pb_box_dropped_note(f, cols, tb->ncols, rep->width);
		free(rows);
	}
	for (i = 0; i < rep->n; i++) {
		const struct pb_result *r = &rep->results[i];
		unsigned int same = 0, k;

		if (!rfc_row_of(r, tb, false))
			continue;
		/*
		 * A reason that every method and size share (latency without synchronised
		 * clocks, say) is one line, said once, not once a row
		 */
		for (k = 0; k < rep->n; k++)
			if (rfc_row_of(&rep->results[k], tb, false) &&
			    rfc_same_reason(&rep->results[k], r)) {
				if (k < i)
					break;
				same++;
			}
		if (k < rep->n)
			continue; /* said with the first row that has it */
		if (same > 1)
			pb_box_note(f, rep->width, "  %-8s %u method and size pairs: %.*s",
				    r->status == PB_STATUS_OK ? "no rate"
							      : pb_status_name(r->status),
				    same, (int)strnlen(r->reason, sizeof(r->reason)),
				    r->reason[0] ? r->reason : "no reason given");
		else
			pb_box_note(f, rep->width, "  %-8s %.*s %" PRIu32 " B: %.*s",
				    r->status == PB_STATUS_OK ? "no rate"
							      : pb_status_name(r->status),
				    (int)strnlen(r->method, sizeof(r->method)), r->method,
				    r->rfc.frame_size, (int)strnlen(r->reason, sizeof(r->reason)),
				    r->reason[0] ? r->reason : "no reason given");
	}
	fputc('\n', f);
	return 0;
}

int pb_rfc2544_write_table(FILE *f, const struct pb_report *rep)
{
	const struct pb_rfc2544_opts *o = rep->rfc2544;
	size_t w = rep->width;
	bool partial = false;
	unsigned int i;
	int err;

	if (!rep->n) {
		fputs("  no results\n", f);
		return pb_stream_status(f);
	}
	for (i = 0; i < sizeof(rfc_tables) / sizeof(rfc_tables[0]); i++) {
		err = rfc_table_write(f, rep, &rfc_tables[i]);
		if (err)
			return err;
	}
	for (i = 0; i < rep->n; i++)
		partial |= rep->results[i].interrupted;
	pb_box_note(f, w,
		    "  frame: bytes on the wire with the 4-byte FCS, as RFC 2544 counts them "
		    "(pktbench's --frame-size is 4 less)");
	if (o->search == PB_RFC_SEARCH_MLR)
		pb_box_note(
			f, w,
			"  loss = offered (sent + retried) - delivered (the receiver's count); "
			"MLRsearch: a trial losing more than a goal's loss ratio is high-loss "
			"for it; trials %g s apart; the other searches to %g %%, trials of %g s",
			o->trial_gap_s, o->precision_pct, o->trial_s);
	else
		pb_box_note(f, w,
			    "  loss = offered (sent + retried) - delivered (the receiver's count); "
			    "%s: a trial passes with %s; trials of %g s (confirmation %g s), %g s "
			    "apart; searches to %g %%",
			    o->loss_tolerance_pct > 0 ? "PDR" : "NDR",
			    o->loss_tolerance_pct > 0 ? "at most --loss-tolerance lost"
						      : "no frame lost",
			    o->trial_s, o->final_trial_s, o->trial_gap_s, o->precision_pct);
	if (o->search == PB_RFC_SEARCH_MLR)
		pb_box_note(
			f, w,
			"  MLRsearch (RFC 9971): Goal: its loss ratio, final trial duration, "
			"duration sum, exceed ratio; Cond. tput: the lower bound's load x the "
			"forwarding ratio of its quantile trial; Lower, Upper: the relevant "
			"bounds (loads); irregular: no upper bound (the maximum met the goal) or "
			"not within the goal's width; Trial s: the whole search's, every goal's");
	pb_box_note(f, w,
		    "  Max pps: what the unpaced trial offered, the loss table's 100 %%; Limit: "
		    "what stopped the rate, the device under test, the send path itself, or "
		    "unknown (the path held the sender back)");
	if (partial)
		pb_box_note(f, w, "  * partial: interrupted by signal");
	return pb_stream_status(f);
}
