// SPDX-License-Identifier: MIT
/*
 * The sender's half of latency probes (harness/probe.c): off, nothing is ever due; on, the
 * schedule arms by time and moves on after each stamp; the stamp writes the kind, the
 * stream's next sequence number and the time now where the signature says, and the frame's
 * UDP checksum still holds (checked by a naive routine); an unsent probe gives its number
 * back; copies leave the pool frame as it was and run out when all are in flight; a restored
 * frame is the built one again.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>

#include "clock.h"
#include "frame.h"
#include "pb_lat.h"
#include "probe.h"
#include "check.h"
#include "naive_csum.h"

static uint64_t now_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static uint64_t be48(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 6; i++)
		v = v << 8 | p[i];
	return v;
}

static void build(struct pb_frame *f, uint8_t *buf, bool v6, uint32_t payload)
{
	struct pb_frame_spec spec = { .srcport = 12345,
				      .dstport = 9,
				      .payload_len = payload,
				      .run_id = 0xa1b2c3d4,
				      .stream_id = 5 };

	spec.srcip.family = spec.dstip.family = v6 ? AF_INET6 : AF_INET;
	inet_pton(spec.srcip.family, v6 ? "2001:2::1" : "198.18.0.1", &spec.srcip.v4);
	inet_pton(spec.dstip.family, v6 ? "2001:2::2" : "198.18.0.2", &spec.dstip.v4);
	f->data = buf;
	CHECK(pb_frame_build(f, &spec) == 0, "the frame builds");
}

static void test_off(void)
{
	struct pb_config cfg = { .streams = 1 };
	struct pb_probe p;
	uint32_t i;
	bool any = false;

	CHECK(pb_probe_init(&p, &cfg, cfg.latency, false, 60) == 0 && !p.on,
	      "without --latency: off");
	for (i = 0; i < 100000; i++)
		any |= pb_probe_due(&p, i);
	CHECK(!any && pb_probe_in(&p, UINT32_MAX - 1) == PB_PROBE_NONE, "off: nothing is due");
	pb_probe_free(&p);
}

static void test_stamp(bool v6)
{
	struct pb_config cfg = { .streams = 2, .latency = true, .latency_pps = 1000 };
	static uint8_t buf[256], orig[256];
	const char *fam = v6 ? "ipv6" : "ipv4";
	struct pb_probe p;
	struct pb_frame f;
	uint8_t *pl;
	uint64_t t0, ts;
	uint32_t k;

	build(&f, buf, v6, 40);
	memcpy(orig, buf, f.len);
	pl = buf + f.payload_off;
	CHECK(pb_probe_init(&p, &cfg, cfg.latency, false, f.len) == 0 && p.on, "%s: on", fam);
	CHECK(p.kind == 'P' && p.frame_kind == 'N' && p.clock == CLOCK_MONOTONIC,
	      "%s: monotonic probes 'P' among 'N' frames", fam);
	CHECK(p.interval == 2.0 / 1000, "%s: 1000/s over 2 streams: 2 ms apart, got %g", fam,
	      p.interval);
	CHECK(!pb_probe_due(&p, 0), "%s: nothing due before the runner arms", fam);

	pb_probe_arm(&p, 100.0, 0);
	CHECK(pb_probe_due(&p, 0) && !pb_probe_due(&p, 1) && pb_probe_in(&p, 8) == 0,
	      "%s: the first frame of the first call", fam);
	t0 = now_ns(CLOCK_MONOTONIC);
	pb_probe_stamp(&p, pl, true);
	ts = be48(pl + PB_PROBE_TS_OFF);
	CHECK(pl[0] == 'p' && pl[1] == 'b' && pl[2] == 'P' && pl[3] == 5 &&
		      be32(pl + 4) == 0xa1b2c3d4,
	      "%s: the signature with kind P", fam);
	CHECK(be32(pl + PB_PROBE_SEQ_OFF) == 0, "%s: sequence number 0", fam);
	CHECK(ts >= (t0 & PB_TS_MASK) && ts - (t0 & PB_TS_MASK) < 1000000,
	      "%s: the transmit time now, modulo 2^48", fam);
	CHECK(!memcmp(pl + PB_PROBE_LEN, orig + f.payload_off + PB_PROBE_LEN, 40 - PB_PROBE_LEN),
	      "%s: the payload after the probe untouched", fam);
	CHECK(naive_udp_ok(buf + f.l3_off, v6 ? AF_INET6 : AF_INET) &&
		      naive_udp_nonzero(buf + f.l3_off, v6 ? AF_INET6 : AF_INET),
	      "%s: the UDP checksum still holds", fam);
	CHECK(p.sent == 1 && p.seq == 1 && p.stamped == 0 && !pb_probe_due(&p, 0),
	      "%s: counted, and no second probe in the call", fam);
	CHECK(p.next_t > t0 / 1e9 && p.next_t <= t0 / 1e9 + 0.0031,
	      "%s: the next one is due 0.5 to 1.5 intervals on", fam);

	/* the schedule: not yet due, then due; a stamp over a stamp keeps the checksum */
	pb_probe_arm(&p, p.next_t - 1e-4, 0);
	CHECK(!pb_probe_due(&p, 0), "%s: not before its time", fam);
	pb_probe_arm(&p, p.next_t, 0);
	CHECK(pb_probe_due(&p, 0), "%s: armed at its time", fam);
	pb_probe_stamp(&p, pl, true);
	CHECK(be32(pl + PB_PROBE_SEQ_OFF) == 1 &&
		      naive_udp_ok(buf + f.l3_off, v6 ? AF_INET6 : AF_INET),
	      "%s: number 1, checksum holds over a restamp", fam);

	/* a probe the kernel did not take gives its number back */
	pb_probe_unsent(&p);
	CHECK(p.sent == 1 && p.seq == 1 && pb_probe_due(&p, 0), "%s: unsent: still due", fam);
	pb_probe_stamp(&p, pl, true);
	CHECK(be32(pl + PB_PROBE_SEQ_OFF) == 1 && p.seq == 2, "%s: and goes again as 1", fam);
	pb_probe_unsent(&p);
	pb_probe_unsent(&p); /* twice undoes nothing more */
	CHECK(p.seq == 1 && p.sent == 1, "%s: one stamp undone once", fam);

	/* restored: the frame is the built one again, checksum and all */
	pb_probe_restore(buf, &(struct pb_frame){ .data = orig, .payload_off = f.payload_off });
	CHECK(!memcmp(buf, orig, f.len), "%s: restored to the built frame", fam);

	/* copies: stamped, the pool frame untouched, at most PB_PROBE_COPIES in flight */
	{
		int slot = -1, first = -1;
		const struct pb_frame *c;
		uint32_t n = 0;

		for (k = 0; k < PB_PROBE_COPIES + 2; k++) {
			pb_probe_arm(&p, 1e9, 0);
			c = pb_probe_copy(&p, &f, &slot);
			if (!c)
				break;
			first = first < 0 ? slot : first;
			n += c->data != buf && c->len == f.len &&
			     c->data[f.payload_off + 2] == 'P' &&
			     naive_udp_ok(c->data + f.l3_off, v6 ? AF_INET6 : AF_INET);
		}
		CHECK(k == PB_PROBE_COPIES && n == PB_PROBE_COPIES,
		      "%s: %u good copies, then none (%u)", fam, n, k);
		CHECK(!memcmp(buf, orig, f.len), "%s: the pool frame untouched", fam);
		CHECK(pb_probe_due(&p, 0), "%s: no copy: the probe stays due", fam);
		pb_probe_release(&p, first);
		c = pb_probe_copy(&p, &f, &slot);
		CHECK(c && slot == first, "%s: a released copy is used again", fam);
	}
	pb_probe_free(&p);
}

static void test_kinds(void)
{
	struct pb_config cfg = { .streams = 4, .latency = true, .synced_clocks = true };
	static uint8_t buf[256];
	struct pb_probe p;
	struct pb_frame f;
	uint64_t tai;

	build(&f, buf, false, 18);
	pb_probe_init(&p, &cfg, cfg.latency, true, f.len);
	CHECK(p.kind == 't' && p.frame_kind == 'n' && p.clock == CLOCK_TAI,
	      "--synced-clocks in a paced run: 't' probes among 'n' frames");
	CHECK(p.interval == 4.0 / PB_LATENCY_PPS, "the default rate: 1000/s over 4 streams");
	pb_probe_arm(&p, 0, 0);
	tai = now_ns(CLOCK_TAI) & PB_TS_MASK;
	pb_probe_stamp(&p, buf + f.payload_off, true);
	CHECK(be48(buf + f.payload_off + PB_PROBE_TS_OFF) - tai < 1000000,
	      "stamped with CLOCK_TAI");
	CHECK(naive_udp_ok(buf + f.l3_off, AF_INET), "an 18-byte payload's checksum holds");
	/* on time, the schedule is absolute: one interval after the last due time, not after now */
	p.next_t = pb_now() + 10;
	pb_probe_arm(&p, p.next_t, 0);
	pb_probe_stamp(&p, buf + f.payload_off, true);
	CHECK(p.next_t >= p.prev_t + 0.5 * p.interval && p.next_t < p.prev_t + 1.5 * p.interval,
	      "absolute: due + 0.5 to 1.5 intervals");
	/* a stall: the schedule skips ahead instead of owing probes */
	p.next_t = 1.0;
	pb_probe_arm(&p, 5.0, 0);
	pb_probe_stamp(&p, buf + f.payload_off, false);
	CHECK(p.next_t > 5.0, "after a stall the next probe is one interval from now");
	pb_probe_stamped(&p, 3);
	CHECK(p.seq == 6 && p.sent == 6, "probes a method stamped itself count");
	pb_probe_free(&p);
}

/*
 * The gaps between probes: 0.5 to 1.5 intervals, uniform, so their mean is the interval (the
 * rate --latency-pps asks) and no phase of a periodic path is sampled alone.
 */
static void test_gaps(void)
{
	struct pb_config cfg = { .streams = 1, .latency = true };
	static uint8_t buf[256];
	double lo = 1e9, hi = 0, sum = 0, g;
	struct pb_probe p;
	struct pb_frame f;
	int i, n = 20000, low = 0;

	build(&f, buf, false, 18);
	pb_probe_init(&p, &cfg, true, false, f.len);
	p.next_t = pb_now() + 10; /* ahead of the clock: no stall rule */
	for (i = 0; i < n; i++) {
		pb_probe_arm(&p, p.next_t, 0);
		pb_probe_stamp(&p, buf + f.payload_off, false);
		g = (p.next_t - p.prev_t) / p.interval;
		sum += g;
		lo = g < lo ? g : lo;
		hi = g > hi ? g : hi;
		low += g < 1;
	}
	CHECK(fabs(sum / n - 1) < 0.01 && lo >= 0.5 && hi < 1.5 && lo < 0.51 && hi > 1.49 &&
		      low > n * 0.48 && low < n * 0.52,
	      "%d gaps: mean %.4f intervals, from %.4f to %.4f, %d below 1", n, sum / n, lo, hi,
	      low);
	pb_probe_free(&p);
}

int main(void)
{
	test_off();
	test_gaps();
	test_stamp(false);
	test_stamp(true);
	test_kinds();
	return check_summary();
}
