// SPDX-License-Identifier: MIT
/*
 * RFC 2544 26.1's answer from its trials (rfc2544_int.h): the trial rows rfc2544.c makes,
 * built here from a search against a simulated device with a clean cliff, so the answer is
 * known exactly: the highest rate that passed. The summary must carry that trial's offered
 * rate, its wire rate and loss, and how the search ended, to the last bit: an answer one
 * search step low (the pass before the last) is within the search's precision, which
 * test_rfc2544_search holds the search to, and only an exact check sees it.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "rfc2544_int.h"
#include "rfc2544_search.h"

#define ROWS (PB_SEARCH_MAX_TRIALS + 8)

static struct pb_result rows[ROWS];
static unsigned int nrows;

/* A trial row as rfc_trial() leaves it: test, offered rate, loss, verdict. */
static struct pb_result *add_row(enum pb_rfc_test test, double offered, bool pass, double loss_pct)
{
	struct pb_result *r = &rows[nrows++];

	memset(r, 0, sizeof(*r));
	snprintf(r->method, sizeof(r->method), "udp_sendto");
	r->status = PB_STATUS_OK;
	r->frame_bytes = 60;
	r->offered_pps = offered;
	r->rfc.test = test;
	r->rfc.frame_size = 64;
	r->rfc.trial = nrows;
	r->rfc.passed = pass;
	r->rfc.loss_pct = loss_pct;
	return r;
}

/*
 * The device: forwards up to cap frames/s, loses the rest. The path offers what is asked less
 * short_by of it (0: exactly), and at most max. Rows are added as rfc_throughput() adds them:
 * the unpaced maximum first, then the search's trials, each recorded at what it offered.
 */
struct device {
	double cap, max, short_by;
};

static void run_search(struct pb_search *s, const struct device *d, unsigned int retries)
{
	const struct pb_search_opts so = { .min = fmax(1, d->max * 1e-4),
					   .max = d->max,
					   .precision = 0.01,
					   .max_trials = 40,
					   .retries = retries,
					   .confirm = true };
	double v, offered;
	bool pass;

	CHECK(!pb_search_init(s, &so), "search init");
	pb_search_next(s, &v);
	pass = d->max <= d->cap;
	add_row(PB_RFC_THROUGHPUT, d->max, pass, pass ? 0 : 100 * (1 - d->cap / d->max));
	pb_search_record_at(s, d->max, pass);
	while (pb_search_next(s, &v) && nrows < ROWS - 2) {
		offered = v >= d->max ? d->max : v * (1 - d->short_by);
		pass = offered <= d->cap;
		add_row(PB_RFC_THROUGHPUT, offered, pass, pass ? 0 : 100 * (1 - d->cap / offered));
		pb_search_record_at(s, offered, pass);
	}
}

/* The summary as rfc_throughput() makes it: a copy of the answering trial, then its answer. */
static void summarise(struct pb_result *sum, int best, const struct pb_search *s, double max,
		      bool pushed)
{
	memset(sum, 0, sizeof(*sum));
	if (best >= 0)
		*sum = rows[best];
	memset(&sum->rfc, 0, sizeof(sum->rfc));
	sum->rfc.test = PB_RFC_THROUGHPUT;
	sum->rfc.summary = true;
	sum->rfc.loss_pct = NAN;
	pb_rfc_throughput_fill(sum, best >= 0 ? &rows[best] : NULL, s, max, pushed);
}

/* The highest rate of rows[first, nrows) that passed: the answer of a clean cliff. */
static double highest_pass(unsigned int first)
{
	double hi = 0;
	unsigned int i;

	for (i = first; i < nrows; i++)
		if (rows[i].rfc.test == PB_RFC_THROUGHPUT && rows[i].rfc.passed)
			hi = fmax(hi, rows[i].offered_pps);
	return hi;
}

/* The second highest distinct rate that passed: an answer one step low. */
static double step_below(unsigned int first, double hi)
{
	double lo = 0;
	unsigned int i;

	for (i = first; i < nrows; i++)
		if (rows[i].rfc.test == PB_RFC_THROUGHPUT && rows[i].rfc.passed &&
		    rows[i].offered_pps < hi)
			lo = fmax(lo, rows[i].offered_pps);
	return lo;
}

/*
 * A device at 612,345 frames/s below a path of 1 M: the answer is the highest rate that passed,
 * exactly, never the pass a step below it. A throughput trial of an earlier frame size and a
 * latency trial after, both passing at that very rate, are not the answer's row.
 */
static void test_cliff(double short_by, const char *what)
{
	struct device d = { .cap = 612345, .max = 1e6, .short_by = short_by };
	unsigned int first, latency_row;
	struct pb_result sum;
	struct pb_search s;
	double want, low;
	int best;

	nrows = 0;
	/* before first: the earlier size's rows, its summary among them */
	add_row(PB_RFC_THROUGHPUT, 1e6, false, 40);
	add_row(PB_RFC_THROUGHPUT, 0, true, 0)->rfc.summary = true;
	first = nrows;
	run_search(&s, &d, 0);
	want = highest_pass(first);
	low = step_below(first, want);
	latency_row = nrows;
	add_row(PB_RFC_LATENCY, want, true, 0);
	rows[0].offered_pps = want;
	rows[0].rfc.passed = true;

	CHECK(s.state == PB_SEARCH_DONE, "%s: the search ended found (state %d)", what, s.state);
	CHECK(want > 0 && low > 0 && low < want, "%s: passes at %.3f and a step below, %.3f", what,
	      want, low);
	best = pb_rfc_throughput_best(rows, first, nrows, pb_search_result(&s));
	CHECK(best >= (int)first && best < (int)latency_row,
	      "%s: the answering row is one of this test's trials (%d of %u..%u)", what, best,
	      first, latency_row - 1);
	CHECK(best >= 0 && rows[best].offered_pps == want && rows[best].rfc.passed,
	      "%s: the answering row offered %.3f and passed (got %.3f)", what, want,
	      best >= 0 ? rows[best].offered_pps : -1);
	summarise(&sum, best, &s, d.max, false);
	CHECK(sum.rfc.throughput_pps == want, "%s: throughput %.6f, the highest pass %.6f (%s)",
	      what, sum.rfc.throughput_pps, want,
	      sum.rfc.throughput_pps == low ? "one step low" : "wrong");
	/* 60-byte frames: 84 bytes each on the wire (FCS, preamble, gap) */
	CHECK(fabs(sum.rfc.throughput_wire_gbps - want * 84 * 8 / 1e9) < 1e-12,
	      "%s: wire %.9f Gb/s = %.3f pps x 84 B", what, sum.rfc.throughput_wire_gbps, want);
	CHECK(sum.rfc.loss_pct == 0, "%s: its loss, 0 (got %g)", what, sum.rfc.loss_pct);
	CHECK(!strcmp(sum.rfc.search, "found") && !sum.rfc.sender_limited && !sum.rfc.pushed_back,
	      "%s: search '%s', the device the limit", what, sum.rfc.search);
	CHECK(sum.rfc.max_pps == d.max, "%s: max %.0f", what, sum.rfc.max_pps);
}

/* Mixed sizes (a replay's): the wire rate is the answer at the trial's mean wire bytes. */
static void test_wire_avg(void)
{
	struct device d = { .cap = 81234, .max = 200e3 };
	struct pb_result sum;
	struct pb_search s;
	unsigned int i;
	int best;

	nrows = 0;
	run_search(&s, &d, 1);
	for (i = 0; i < nrows; i++)
		rows[i].wire_avg = 537.25;
	best = pb_rfc_throughput_best(rows, 0, nrows, pb_search_result(&s));
	summarise(&sum, best, &s, d.max, false);
	CHECK(sum.rfc.throughput_pps == highest_pass(0), "wire_avg: throughput %.6f of %.6f",
	      sum.rfc.throughput_pps, highest_pass(0));
	CHECK(fabs(sum.rfc.throughput_wire_gbps - highest_pass(0) * 537.25 * 8 / 1e9) < 1e-12,
	      "wire_avg: %.9f Gb/s at 537.25 B a frame", sum.rfc.throughput_wire_gbps);
}

/*
 * Trials written out by hand, as a search of 1 M with a device at 664,100 runs them: the
 * answer is the confirmed 664,062.5 (its last trial), not 656,250 before it.
 */
static void test_by_hand(void)
{
	static const struct {
		double pps;
		bool passed;
	} t[] = { { 1e6, false },	 { 500000, true },   { 750000, false },
		  { 625000, true },	 { 687500, false },  { 656250, true },
		  { 671875, false },	 { 664062.5, true }, { 667968.75, false },
		  { 666015.625, false }, { 664062.5, true } };
	struct pb_search s = { .state = PB_SEARCH_DONE, .have_lo = true, .lo = 664062.5 };
	struct pb_result sum;
	unsigned int i;
	int best;

	nrows = 0;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		add_row(PB_RFC_THROUGHPUT, t[i].pps, t[i].passed, t[i].passed ? 0 : 1.5);
	rows[7].rfc.loss_pct = 0.25; /* the first try at the answer, to tell the two apart */
	s.o.min = 100;
	best = pb_rfc_throughput_best(rows, 0, nrows, 664062.5);
	CHECK(best == 10, "by hand: the confirmation, row 10, answers (got %d)", best);
	summarise(&sum, best, &s, 1e6, false);
	CHECK(sum.rfc.throughput_pps == 664062.5, "by hand: throughput %.2f, want 664062.50",
	      sum.rfc.throughput_pps);
	CHECK(sum.rfc.loss_pct == 0, "by hand: the confirmation's loss, 0 (got %g)",
	      sum.rfc.loss_pct);
}

/* The path is the limit: the unpaced maximum passes; held back by the path, unknown. */
static void test_path_max(void)
{
	struct device d = { .cap = 5e6, .max = 1e6 };
	struct pb_result sum;
	struct pb_search s;
	int best;

	nrows = 0;
	run_search(&s, &d, 0);
	best = pb_rfc_throughput_best(rows, 0, nrows, pb_search_result(&s));
	summarise(&sum, best, &s, d.max, false);
	CHECK(sum.rfc.throughput_pps == 1e6 && !strcmp(sum.rfc.search, "path-max") &&
		      sum.rfc.sender_limited && !sum.rfc.pushed_back,
	      "path-max: %.0f, '%s', sender_limited %d", sum.rfc.throughput_pps, sum.rfc.search,
	      sum.rfc.sender_limited);
	summarise(&sum, best, &s, d.max, true);
	CHECK(sum.rfc.throughput_pps == 1e6 && !strcmp(sum.rfc.search, "pushed-back") &&
		      !sum.rfc.sender_limited && sum.rfc.pushed_back,
	      "pushed back: %.0f, '%s', sender_limited %d", sum.rfc.throughput_pps, sum.rfc.search,
	      sum.rfc.sender_limited);
}

/* Nothing passes down to the search's least rate: no row answers, and the summary says why. */
static void test_none(void)
{
	struct device d = { .cap = 20, .max = 1e6 };
	struct pb_result sum;
	struct pb_search s;
	int best;

	nrows = 0;
	run_search(&s, &d, 0);
	best = pb_rfc_throughput_best(rows, 0, nrows, pb_search_result(&s));
	CHECK(best == -ENOENT, "none: no answering row (got %d)", best);
	summarise(&sum, best, &s, d.max, false);
	CHECK(sum.status == PB_STATUS_OK && sum.rfc.throughput_pps == 0 &&
		      !strcmp(sum.rfc.search, "none") &&
		      !strcmp(sum.reason, "no rate down to 100 pps passed: nothing to report"),
	      "none: status %d, %.0f, '%s', '%s'", sum.status, sum.rfc.throughput_pps,
	      sum.rfc.search, sum.reason);
}

int main(void)
{
	test_cliff(0, "cliff");
	test_cliff(0.003, "cliff, the path 0.3 % short of each pace");
	test_wire_avg();
	test_by_hand();
	test_path_max();
	test_none();
	return check_summary();
}
