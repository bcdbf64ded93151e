// SPDX-License-Identifier: MIT
/* Unit test of the result arithmetic: wire math on worked examples, and the guarded divisions. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats.h"
#include "check.h"

/* Relative tolerance: the figures are products of doubles, exact only up to rounding. */
static int near(double got, double want, double rel)
{
	if (want == 0)
		return fabs(got) <= rel;
	return fabs(got - want) <= rel * fabs(want);
}

#define CHECK_NEAR(got, want, rel)                                                                 \
	CHECK(near((got), (want), (rel)), "%s = %.9g, want %.9g", #got, (double)(got),             \
	      (double)(want))

#define CHECK_U(got, want)                                                                         \
	CHECK((got) == (want), "%s = %llu, want %llu", #got, (unsigned long long)(got),            \
	      (unsigned long long)(want))

static void test_wire_bytes(void)
{
	CHECK_U(pb_wire_bytes(60, false), 84);
	/* A short frame is padded on the wire: it costs the same as the minimum. */
	CHECK_U(pb_wire_bytes(50, false), 84);
	CHECK_U(pb_wire_bytes(0, false), 84);
	CHECK_U(pb_wire_bytes(64, false), 88);
	CHECK_U(pb_wire_bytes(1514, false), 1538);
	/* Tagged, the minimum is 64 bytes including the 4-byte tag. */
	CHECK_U(pb_wire_bytes(64, true), 88);
	CHECK_U(pb_wire_bytes(60, true), 88);
	CHECK_U(pb_wire_bytes(1518, true), 1542);
	CHECK_U(PB_L1_OVERHEAD, 24);
}

static void test_rates(void)
{
	/* 13.3 Mpps of 60-byte frames plus a VLAN tag (64 bytes in the frame): 88 on the wire. */
	CHECK_NEAR(pb_wire_gbps(13.3e6, 64, true), 9.3632, 1e-6);
	/* 100G line rate: 142.06 Mpps of untagged 64-byte frames. */
	CHECK_NEAR(pb_wire_gbps(142.06e6, 64, false), 100.01024, 1e-6);
	/* 10G line rate of minimum frames: 14.88 Mpps x 84 x 8. */
	CHECK_NEAR(pb_wire_gbps(14880952.38, 60, false), 10.0, 1e-6);
	CHECK_NEAR(pb_wire_gbps(1e6, 50, false), 0.672, 1e-9);
	CHECK_NEAR(pb_app_mbps(1e6, 60), 480.0, 1e-12);
	CHECK_NEAR(pb_app_mbps(1e6, 1514), 12112.0, 1e-12);
	CHECK_NEAR(pb_app_mbps(0, 60), 0.0, 0);
	CHECK_NEAR(pb_wire_gbps(0, 60, false), 0.0, 0);
}

static struct pb_result lab_row(void)
{
	struct pb_result r;

	memset(&r, 0, sizeof(r));
	snprintf(r.method, sizeof(r.method), "udp_sendto");
	snprintf(r.mode, sizeof(r.mode), "socket");
	r.status = PB_STATUS_OK;
	r.duration_s = 2.0;
	r.frame_bytes = 60;
	r.streams = 1;
	r.frames_sent = 2000000;
	r.has_receiver = true;
	r.delivered_known = true;
	r.frames_delivered = 1980000;
	r.raw.have_tx = true;
	r.raw.tx_dropped = 20000;
	r.cpu_s = 1.5;
	return r;
}

static void test_compute_lab(void)
{
	struct pb_result r = lab_row();

	pb_result_compute(&r);
	CHECK_NEAR(r.pps, 1e6, 1e-12);
	CHECK_NEAR(r.app_mbps, 480.0, 1e-12);
	CHECK_NEAR(r.wire_gbps, 0.672, 1e-12);
	CHECK_NEAR(r.delivered_pct, 99.0, 1e-12);
	CHECK_NEAR(r.accounted_pct, 100.0, 1e-12);
	CHECK_NEAR(r.cpu_ns_per_pkt, 750.0, 1e-12);

	/* Double counting must show as more than 100 %, not be capped away. */
	r = lab_row();
	r.frames_delivered = 2000000;
	pb_result_compute(&r);
	CHECK_NEAR(r.accounted_pct, 101.0, 1e-12);
	CHECK_NEAR(r.delivered_pct, 100.0, 1e-12);

	/* Tagged frames use the 64-byte minimum on the wire. */
	r = lab_row();
	r.frame_bytes = 64;
	r.vlan = true;
	r.frames_sent = 26600000;
	pb_result_compute(&r);
	CHECK_NEAR(r.wire_gbps, 9.3632, 1e-6);
}

static void test_compute_no_receiver(void)
{
	struct pb_result r = lab_row();

	/* A real NIC: whatever sits in the counters, no percentage is derived from it. */
	r.has_receiver = false;
	r.delivered_pct = 55;
	r.accounted_pct = 55;
	pb_result_compute(&r);
	CHECK_NEAR(r.delivered_pct, 0.0, 0);
	CHECK_NEAR(r.accounted_pct, 0.0, 0);
	CHECK_NEAR(r.pps, 1e6, 1e-12);
	CHECK_NEAR(r.cpu_ns_per_pkt, 750.0, 1e-12);
}

static void test_compute_guards(void)
{
	struct pb_result r = lab_row();

	r.duration_s = 0;
	pb_result_compute(&r);
	CHECK(r.pps == 0 && r.app_mbps == 0 && r.wire_gbps == 0, "zero duration: pps %g", r.pps);
	CHECK(isfinite(r.delivered_pct) && isfinite(r.cpu_ns_per_pkt), "zero duration: NaN");

	r = lab_row();
	r.duration_s = NAN;
	pb_result_compute(&r);
	CHECK(r.pps == 0 && isfinite(r.wire_gbps), "NaN duration: pps %g", r.pps);

	r = lab_row();
	r.duration_s = -1;
	pb_result_compute(&r);
	CHECK(r.pps == 0, "negative duration: pps %g", r.pps);

	r = lab_row();
	r.frames_sent = 0;
	r.frames_delivered = 0;
	r.raw.tx_dropped = 0;
	pb_result_compute(&r);
	CHECK(r.pps == 0 && r.delivered_pct == 0 && r.accounted_pct == 0 && r.cpu_ns_per_pkt == 0,
	      "zero sent: pps %g delivered %g accounted %g cpu %g", r.pps, r.delivered_pct,
	      r.accounted_pct, r.cpu_ns_per_pkt);

	r = lab_row();
	r.frames_sent = 0;
	r.duration_s = 0;
	pb_result_compute(&r);
	CHECK(!isnan(r.pps) && !isnan(r.delivered_pct) && !isnan(r.accounted_pct) &&
		      !isnan(r.cpu_ns_per_pkt),
	      "zero sent and zero duration: NaN");
}

static void test_compute_not_ok(void)
{
	struct pb_result r = lab_row();

	/* Stale figures (a reused struct) must not survive on a skipped row. */
	r.status = PB_STATUS_SKIPPED;
	r.pps = r.app_mbps = r.wire_gbps = 1;
	r.delivered_pct = r.accounted_pct = r.cpu_ns_per_pkt = 1;
	pb_result_compute(&r);
	CHECK(r.pps == 0 && r.app_mbps == 0 && r.wire_gbps == 0 && r.delivered_pct == 0 &&
		      r.accounted_pct == 0 && r.cpu_ns_per_pkt == 0,
	      "skipped row has derived figures");

	r = lab_row();
	r.status = PB_STATUS_ERROR;
	pb_result_compute(&r);
	CHECK(r.pps == 0 && r.cpu_ns_per_pkt == 0, "error row has derived figures");
}

static void test_status_name(void)
{
	CHECK(!strcmp(pb_status_name(PB_STATUS_OK), "ok"), "ok");
	CHECK(!strcmp(pb_status_name(PB_STATUS_SKIPPED), "skipped"), "skipped");
	CHECK(!strcmp(pb_status_name(PB_STATUS_ERROR), "error"), "error");
}

/*
 * IMIX: 7 x 64 + 4 x 594 + 1 x 1518 wire bytes (with FCS) is 60/590/1514 without; the wire
 * average with preamble and gap is (7 x 84 + 4 x 614 + 1538) / 12 = 381.83 bytes, the app
 * average (7 x 60 + 4 x 590 + 1514) / 12 = 357.83 bytes.
 */
static void test_imix_average(void)
{
	static const uint32_t frames[12] = { 60, 60, 60, 60, 60, 60, 60, 590, 590, 590, 590, 1514 };
	struct pb_result r = { .status = PB_STATUS_OK, .duration_s = 1, .frames_sent = 1200000 };
	uint32_t i;

	for (i = 0; i < 12; i++) {
		r.frame_avg += frames[i] / 12.0;
		r.wire_avg += pb_wire_bytes(frames[i], false) / 12.0;
	}
	CHECK_NEAR(r.wire_avg, 4582.0 / 12, 1e-12);
	pb_result_compute(&r);
	CHECK_NEAR(r.wire_gbps, 1.2e6 * 4582.0 / 12 * 8 / 1e9, 1e-9);
	CHECK_NEAR(r.app_mbps, 1.2e6 * 4294.0 / 12 * 8 / 1e6, 1e-9);
}

/* The RX queue spread: coefficient of variation of the per-queue counts. */
static void test_spread(void)
{
	uint64_t even[2] = { 500, 500 }, skew[2] = { 1000, 0 }, one[1] = { 7 },
		 tri[3] = { 1, 2, 3 };

	CHECK_NEAR(pb_spread(even, 2), 0, 1e-12);
	CHECK_NEAR(pb_spread(skew, 2), 1, 1e-12);
	CHECK_NEAR(pb_spread(one, 1), 0, 1e-12);
	CHECK_NEAR(pb_spread(tri, 3), sqrt(2.0 / 3) / 2, 1e-12);
}

/* Every delta of two counter reads: a counter that went back gives 0 and says so. */
static void test_ctr_delta(void)
{
	bool back = false;

	CHECK_U(pb_ctr_delta(5, 8, &back), 3);
	CHECK(!back, "5 -> 8 is not a decrease");
	CHECK_U(pb_ctr_delta(0, UINT64_MAX, &back), UINT64_MAX);
	CHECK(!back, "0 -> max is not a decrease");
	CHECK_U(pb_ctr_delta(8, 5, &back), 0);
	CHECK(back, "8 -> 5 went back");
	back = false;
	CHECK_U(pb_ctr_delta(1, 0, NULL), 0); /* no flag wanted: still never an underflow */
	CHECK_U(pb_ctr_delta(7, 7, &back), 0);
	CHECK(!back, "7 -> 7 is no decrease");
}

/* offered_pps: every attempt, retries included, over the window */
static void test_offered(void)
{
	struct pb_result r;

	memset(&r, 0, sizeof(r));
	r.frames_sent = 1000;
	r.frames_retried = 2000;
	r.duration_s = 1;
	r.frame_bytes = 60;
	pb_result_compute(&r);
	CHECK_NEAR(r.pps, 1000, 1e-12);
	CHECK_NEAR(r.offered_pps, 3000, 1e-12);
}

static struct pb_result run_at(double pps, enum pb_status st)
{
	struct pb_result r;

	memset(&r, 0, sizeof(r));
	r.pps = pps;
	r.status = st;
	return r;
}

/* --repeat: the median run makes the row, with its runs' spread; a failing last run is it */
static void test_pick(void)
{
	struct pb_result runs[3];
	uint32_t k;

	runs[0] = run_at(300, PB_STATUS_OK);
	runs[1] = run_at(100, PB_STATUS_OK);
	runs[2] = run_at(200, PB_STATUS_OK);
	k = pb_result_pick(runs, 3);
	CHECK(runs[k].pps == 200 && runs[k].pps_min == 100 && runs[k].pps_max == 300,
	      "median 200 of 100..300: got %g of %g..%g", runs[k].pps, runs[k].pps_min,
	      runs[k].pps_max);

	/* the third run failed after two ok ones: sorting by pps must not hide it */
	runs[0] = run_at(300, PB_STATUS_OK);
	runs[1] = run_at(100, PB_STATUS_OK);
	runs[2] = run_at(50, PB_STATUS_ERROR); /* failed early: the slowest */
	k = pb_result_pick(runs, 3);
	CHECK(runs[k].status == PB_STATUS_ERROR && runs[k].pps_max == 0,
	      "a failed last run is the row: status %d pps %g", runs[k].status, runs[k].pps);

	runs[0] = run_at(500, PB_STATUS_OK);
	k = pb_result_pick(runs, 1);
	CHECK(k == 0 && runs[0].pps_min == 0 && runs[0].pps_max == 0, "one run: no spread");
	CHECK(runs[0].nrounds == 0, "one run: no rounds kept, got %u", runs[0].nrounds);
}

/*
 * --repeat: the row keeps its rounds in the order they ran (with the CPU each sender was on)
 * and their spread, (max - min) / median: 100, 120, 90 on CPUs 1, 0, 1 spread 30 %.
 */
static void test_pick_rounds(void)
{
	struct pb_result runs[4];
	uint32_t k;

	runs[0] = run_at(100, PB_STATUS_OK);
	runs[0].sender_cpu[0] = 2; /* 1 + the CPU */
	runs[1] = run_at(120, PB_STATUS_OK);
	runs[1].sender_cpu[0] = 1;
	runs[2] = run_at(90, PB_STATUS_OK);
	runs[2].sender_cpu[0] = 2;
	k = pb_result_pick(runs, 3);
	CHECK(runs[k].nrounds == 3, "3 rounds kept, got %u", runs[k].nrounds);
	CHECK(runs[k].rounds[0].pps == 100 && runs[k].rounds[1].pps == 120 &&
		      runs[k].rounds[2].pps == 90,
	      "rounds in the order they ran: %g %g %g", runs[k].rounds[0].pps,
	      runs[k].rounds[1].pps, runs[k].rounds[2].pps);
	CHECK(runs[k].rounds[0].sender_cpu == 2 && runs[k].rounds[1].sender_cpu == 1,
	      "each round's sender CPU: %u %u", runs[k].rounds[0].sender_cpu,
	      runs[k].rounds[1].sender_cpu);
	CHECK_NEAR(runs[k].rounds_spread_pct, 30.0, 1e-12);

	/* within 10 %: 100, 104, 96 spread 8 % */
	runs[0] = run_at(100, PB_STATUS_OK);
	runs[1] = run_at(104, PB_STATUS_OK);
	runs[2] = run_at(96, PB_STATUS_OK);
	k = pb_result_pick(runs, 3);
	CHECK_NEAR(runs[k].rounds_spread_pct, 8.0, 1e-12);

	/* an even count: the row is runs[n / 2] of the sorted runs (110), the spread against it */
	runs[0] = run_at(100, PB_STATUS_OK);
	runs[1] = run_at(110, PB_STATUS_OK);
	runs[2] = run_at(88, PB_STATUS_OK);
	runs[3] = run_at(132, PB_STATUS_OK);
	k = pb_result_pick(runs, 4);
	CHECK(runs[k].pps == 110, "row of 4: %g", runs[k].pps);
	CHECK_NEAR(runs[k].rounds_spread_pct, 40.0, 1e-12);
}

/* Delivered above sent: never ok; an error naming the extra frames (issue 28's 695 of 195). */
/* what the receiver's sequence windows found: which make the row an error */
static void test_seq_status(void)
{
	struct pb_result r = { .status = PB_STATUS_OK,
			       .has_receiver = true,
			       .delivered_known = true,
			       .frames_sent = 712473,
			       .frames_delivered = 1683,
			       .frames_out_of_window = 1 };

	/* a lossy trial (an RFC 2544 search over a tbf): a real frame far behind its CPU's
	 * highest is left out of delivered, and the trial is still a result */
	pb_result_check_seq(&r);
	CHECK(r.status == PB_STATUS_OK && !r.reason[0],
	      "1 frame out of the window, 1683 of 712473 delivered: ok (%s: %s)",
	      pb_status_name(r.status), r.reason);
	/* frames out of the window are delivered (unchecked): a steady run's 26 are no error */
	r = (struct pb_result){ .status = PB_STATUS_OK,
				.has_receiver = true,
				.delivered_known = true,
				.frames_sent = 110000,
				.frames_delivered = 110000,
				.frames_out_of_window = 26 };
	pb_result_check_seq(&r);
	CHECK(r.status == PB_STATUS_OK && !r.reason[0], "26 out of the window of 110000: ok (%s)",
	      r.reason);
	r.frames_duplicate = 2000;
	pb_result_check_seq(&r);
	CHECK(r.status == PB_STATUS_ERROR && !strncmp(r.reason, "duplicates: 2000", 16),
	      "2000 duplicates: an error that says so (%s)", r.reason);
	r = (struct pb_result){ .status = PB_STATUS_OK,
				.has_receiver = true,
				.delivered_known = true,
				.frames_sent = 20000,
				.frames_delivered = 18000,
				.frames_corrupt = 2000 };
	pb_result_check_seq(&r);
	CHECK(r.status == PB_STATUS_ERROR && !strncmp(r.reason, "corrupt: 2000", 13),
	      "2000 corrupt: an error that says so (%s)", r.reason);
}

static void test_extra(void)
{
	struct pb_result r = { .status = PB_STATUS_OK,
			       .measured = true,
			       .has_receiver = true,
			       .delivered_known = true,
			       .frames_sent = 195,
			       .frames_delivered = 695,
			       .duration_s = 4 };

	pb_result_check_extra(&r);
	CHECK(r.status == PB_STATUS_ERROR && r.frames_extra == 500 &&
		      strstr(r.reason, "delivered 695 of 195 sent: 500 more frames carried"),
	      "695 of 195: %s, extra %llu: %s", pb_status_name(r.status),
	      (unsigned long long)r.frames_extra, r.reason);
	pb_result_compute(&r);
	CHECK_NEAR(r.delivered_pct, 100.0 * 695 / 195, 1e-9); /* shown, on an error row */

	/* exactly sent, or fewer: nothing changes */
	r = (struct pb_result){ .status = PB_STATUS_OK,
				.has_receiver = true,
				.delivered_known = true,
				.frames_sent = 195,
				.frames_delivered = 195,
				.frames_extra = 7 };
	pb_result_check_extra(&r);
	CHECK(r.status == PB_STATUS_OK && !r.frames_extra && !r.reason[0], "195 of 195: ok");
	r.frames_delivered = 190;
	pb_result_check_extra(&r);
	CHECK(r.status == PB_STATUS_OK && !r.frames_extra, "190 of 195: ok");

	/* one frame over is over */
	r.frames_delivered = 196;
	pb_result_check_extra(&r);
	CHECK(r.status == PB_STATUS_ERROR && r.frames_extra == 1, "196 of 195: an error");

	/* an error already: its reason stays, the extras are still counted */
	r = (struct pb_result){ .status = PB_STATUS_ERROR,
				.has_receiver = true,
				.delivered_known = true,
				.frames_sent = 10,
				.frames_delivered = 12 };
	snprintf(r.reason, sizeof(r.reason), "send: No buffer space available");
	pb_result_check_extra(&r);
	CHECK(r.status == PB_STATUS_ERROR && r.frames_extra == 2 &&
		      !strcmp(r.reason, "send: No buffer space available"),
	      "the first error's reason: %s", r.reason);

	/* delivered unknown, or no receiver: no comparison */
	r = (struct pb_result){ .status = PB_STATUS_OK,
				.has_receiver = true,
				.frames_sent = 10,
				.frames_delivered = 12 };
	pb_result_check_extra(&r);
	CHECK(r.status == PB_STATUS_OK && !r.frames_extra, "delivered unknown");
	r.delivered_known = true;
	r.has_receiver = false;
	pb_result_check_extra(&r);
	CHECK(r.status == PB_STATUS_OK && !r.frames_extra, "no receiver");
}

int main(void)
{
	test_wire_bytes();
	test_rates();
	test_compute_lab();
	test_compute_no_receiver();
	test_compute_guards();
	test_compute_not_ok();
	test_status_name();
	test_imix_average();
	test_spread();
	test_ctr_delta();
	test_offered();
	test_pick();
	test_pick_rounds();
	test_extra();
	test_seq_status();
	return check_summary();
}
