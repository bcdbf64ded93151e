// SPDX-License-Identifier: MIT
/*
 * Many senders as one test: --start-at's two forms (RFC 3339 against known Unix times, a Unix
 * time in ns) and what they refuse; --shard I/N and --test-id; a start in the past or more
 * than a day ahead refused; shards' flows disjoint and covering, their rates and counts
 * adding up to the test's exactly. The start's wait on a simulated clock: it sleeps to the
 * instant exactly (on CLOCK_TAI with --synced-clocks), reports a late wake and the wait for
 * a CPU in it exactly, returns at once for an instant past, and stops when told.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "fleet.h"

static void test_start_at(void)
{
	static const struct {
		const char *s;
		int64_t ns;
	} good[] = {
		{ "1970-01-01T00:00:00Z", 0 },
		{ "2026-12-01T16:30:00Z", 1796142600ll * 1000000000ll },
		{ "2026-12-01t16:30:00z", 1796142600ll * 1000000000ll },
		{ "2026-12-01 16:30:00Z", 1796142600ll * 1000000000ll },
		{ "2026-12-01T17:30:00+01:00", 1796142600ll * 1000000000ll },
		{ "2026-12-01T16:00:00-00:30", 1796142600ll * 1000000000ll },
		{ "2024-02-29T00:00:00.5Z", 1709164800ll * 1000000000ll + 500000000 },
		{ "2000-03-01T00:00:00.123456789Z", 951868800ll * 1000000000ll + 123456789 },
		{ "1796142600000000000", 1796142600ll * 1000000000ll },
		/* RFC 3339 allows any number of fraction digits: those below a ns are dropped */
		{ "2026-12-01T16:30:00.123456789123Z", 1796142600ll * 1000000000ll + 123456789 },
		/* the last instant 64 bits of ns hold */
		{ "2262-04-11T23:47:16.854775807Z", INT64_MAX },
	};
	/* beyond 2262-04-11T23:47:16.854775807Z: refused as out of range, never wrapped */
	static const char *const far[] = {
		"2611-06-24T07:20:38Z",
		"2262-04-11T23:47:16.854775808Z",
		"2262-04-11T23:47:17Z",
		"9999-12-31T23:59:59Z",
		"2262-04-11T23:30:00-00:30",
		"9223372036854775808",
		"99999999999999999999",
	};
	static const char *const bad[] = {
		"",
		"now",
		"2026-12-01",
		"2026-12-01T16:30:00",		   /* no zone */
		"2026-12-01T16:30Z",		   /* no seconds */
		"2026-13-01T16:30:00Z",		   /* month */
		"2026-02-29T00:00:00Z",		   /* not a leap year */
		"2026-04-31T00:00:00Z",		   /* April has 30 */
		"2026-12-01T24:00:00Z",		   /* hour */
		"2026-12-01T16:30:00.Z",	   /* empty fraction */
		"2026-12-01T16:30:00+1:00",	   /* offset */
		"2026-12-01T16:30:00Zjunk",
		"1969-12-31T23:59:59Z",
		"-5",
	};
	unsigned int i;
	int64_t ns;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		ns = -1;
		CHECK(!pb_parse_start_at(good[i].s, &ns) && ns == good[i].ns,
		      "'%s' is %lld, got %lld", good[i].s, (long long)good[i].ns, (long long)ns);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(pb_parse_start_at(bad[i], &ns) == -EINVAL, "'%s' refused", bad[i]);
	for (i = 0; i < sizeof(far) / sizeof(far[0]); i++)
		CHECK(pb_parse_start_at(far[i], &ns) == -ERANGE, "'%s' out of range", far[i]);
}

static void test_shard_and_id(void)
{
	static const char *const bad[] = { "",	  "1",	  "/3",	  "1/",	    "3/3",
					   "0/0", "-1/3", "1/3x", "1/4097", "99999999999/3",
					   "a/b" };
	char id[40];
	uint32_t i, n;
	unsigned int k;

	CHECK(!pb_parse_shard("0/1", &i, &n) && i == 0 && n == 1, "0/1");
	CHECK(!pb_parse_shard("2/3", &i, &n) && i == 2 && n == 3, "2/3");
	CHECK(!pb_parse_shard("4095/4096", &i, &n) && i == 4095 && n == 4096, "4095/4096");
	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++)
		CHECK(pb_parse_shard(bad[k], &i, &n) == -EINVAL, "shard '%s' refused", bad[k]);
	CHECK(!pb_parse_test_id("6F9619FF-8B86-D011-B42D-00C04FC964FF", id) &&
		      !strcmp(id, "6f9619ff-8b86-d011-b42d-00c04fc964ff"),
	      "a UUID, lower-cased: %s", id);
	CHECK(pb_parse_test_id("6f9619ff8b86d011b42d00c04fc964ff", id) == -EINVAL, "no dashes");
	CHECK(pb_parse_test_id("6f9619ff-8b86-d011-b42d-00c04fc964fg", id) == -EINVAL, "not hex");
	CHECK(pb_parse_test_id("6f9619ff-8b86-d011-b42d-00c04fc964ff0", id) == -EINVAL, "long");
	CHECK(pb_parse_test_id("6f9619ff-8b86-d011-b42d_00c04fc964ff", id) == -EINVAL, "dash");
}

static void test_validate(void)
{
	struct pb_config cfg;
	int64_t now = 1796142600ll * 1000000000ll;
	char err[256];

	memset(&cfg, 0, sizeof(cfg));
	snprintf(cfg.start_at_spec, sizeof(cfg.start_at_spec), "2026-12-01T16:29:59Z");
	CHECK(pb_fleet_validate(&cfg, now, err, sizeof(err)) == -EINVAL && strstr(err, "past"),
	      "a second ago: %s", err);
	snprintf(cfg.start_at_spec, sizeof(cfg.start_at_spec), "2026-12-02T16:30:01Z");
	CHECK(pb_fleet_validate(&cfg, now, err, sizeof(err)) == -EINVAL &&
		      strstr(err, "more than a day"),
	      "a day and a second ahead: %s", err);
	/* 2611 wrapped 64 bits of ns into a time in the past, and the run started at once */
	snprintf(cfg.start_at_spec, sizeof(cfg.start_at_spec), "2611-06-24T07:20:38Z");
	CHECK(pb_fleet_validate(&cfg, now, err, sizeof(err)) == -EINVAL &&
		      strstr(err, "more than a day ahead") && strstr(err, "2262"),
	      "the year 2611: %s", err);
	snprintf(cfg.start_at_spec, sizeof(cfg.start_at_spec), "2026-12-01T16:30:02Z");
	CHECK(!pb_fleet_validate(&cfg, now, err, sizeof(err)) &&
		      cfg.start_at_ns == now + 2000000000ll,
	      "two seconds ahead: %s", err);
	memset(&cfg, 0, sizeof(cfg));
	cfg.srcport = 65000;
	cfg.flows = 600;
	cfg.streams = 1;
	snprintf(cfg.shard_spec, sizeof(cfg.shard_spec), "0/2");
	CHECK(pb_fleet_validate(&cfg, now, err, sizeof(err)) == -EINVAL && strstr(err, "fit"),
	      "shards of flows beyond port 65535: %s", err);
}

/* N shards of a test: flows disjoint and covering; rate and count add up. */
static void test_apply(uint32_t n, uint32_t flows, uint32_t streams, uint64_t count)
{
	static unsigned char seen[65536];
	struct pb_config base, cfg;
	double pps = 0;
	uint64_t sent = 0;
	uint32_t i, p, total = 0, dup = 0;

	memset(seen, 0, sizeof(seen));
	memset(&base, 0, sizeof(base));
	base.srcport = 10000;
	base.flows = flows;
	base.streams = streams;
	base.pps = 90000;
	base.count = count;
	base.shard_count = n;
	for (i = 0; i < n; i++) {
		cfg = base;
		cfg.shard_index = i;
		pb_shard_apply(&cfg);
		pps += cfg.pps;
		sent += cfg.count;
		CHECK(cfg.flows >= cfg.streams, "a flow per stream at least");
		for (p = cfg.srcport; p < (uint32_t)cfg.srcport + cfg.flows; p++) {
			dup += seen[p];
			seen[p] = 1;
			total++;
		}
	}
	CHECK(fabs(pps - 90000) < 1e-6, "%u shards' rates add up to the test's: %f", n, pps);
	CHECK(sent == count, "%u shards' counts add up: %llu of %llu", n, (unsigned long long)sent,
	      (unsigned long long)count);
	CHECK(!dup, "%u shards of %u flows: no source port twice (%u)", n, flows, dup);
	CHECK(total >= (flows > streams ? flows : streams),
	      "%u shards of %u flows: every flow is someone's (%u)", n, flows, total);
}

/*
 * Simulated time: a sleep into the future wakes wake_late_ns after its instant, having waited
 * cpu_wait_ns of that for a CPU (run_delay grows by it); a sleep for an instant past returns
 * at once, as clock_nanosleep does. intr_at: the first sleep is cut short by a signal there
 * (EINTR), setting *stop when stop_on_intr. CLOCK_TAI is tai_off_ns ahead of UTC, read
 * tai_read_ns off (a read a little later than the other clock's).
 */
struct sim {
	int64_t now, tai_off_ns, tai_read_ns, wake_late_ns, cpu_wait_ns, run_delay, intr_at;
	/* a stop another thread's handler sets at this time: no sleep of this one is broken */
	int64_t stop_at;
	/* after the wake, before the settling: after_ns pass, after_wait_ns of them off a CPU */
	int64_t cpu, after_ns, after_wait_ns;
	int sleeps, known, no_cpu, stop_on_intr, *stop;
	clockid_t slept_clk;
	int64_t slept_until;
};

static int64_t sim_now(void *ctx, clockid_t clk)
{
	struct sim *s = ctx;

	return s->now + (clk == CLOCK_TAI ? s->tai_off_ns + s->tai_read_ns : 0);
}

static int sim_sleep_until(void *ctx, clockid_t clk, int64_t t)
{
	struct sim *s = ctx;
	int64_t off = clk == CLOCK_TAI ? s->tai_off_ns : 0;

	s->sleeps++;
	s->slept_clk = clk;
	s->slept_until = t;
	if (s->intr_at && s->intr_at < t - off) {
		s->now = s->intr_at;
		s->intr_at = 0;
		if (s->stop_on_intr)
			*s->stop = 1;
		return EINTR;
	}
	if (t - off > s->now) {
		s->now = t - off + s->wake_late_ns;
		s->run_delay += s->cpu_wait_ns;
	}
	if (s->stop_at && s->now >= s->stop_at)
		*s->stop = 1;
	return 0;
}

static int64_t sim_run_delay(void *ctx)
{
	struct sim *s = ctx;

	return s->known ? s->run_delay : -1;
}

static int64_t sim_cpu(void *ctx)
{
	struct sim *s = ctx;

	return s->no_cpu ? -1 : s->cpu;
}

#define T0 (1796142600ll * 1000000000ll)
#define US 1000ll

/* A start at T0 + 2 s, the clock at T0; *s set up by the caller beyond that. */
static int sim_wait(struct sim *s, bool synced, int *stop, int64_t *actual, int64_t *wait)
{
	struct pb_fleet_clock clock = { sim_now, sim_sleep_until, sim_run_delay, sim_cpu, s };
	struct pb_start st = { .fd = -1 };
	struct pb_config cfg;
	int err;

	memset(&cfg, 0, sizeof(cfg));
	cfg.start_at_ns = T0 + 2000000000ll;
	cfg.synced_clocks = synced;
	s->stop = stop;
	*actual = *wait = -2;
	err = pb_start_wait_clock(&cfg, &clock, stop, &st);
	*actual = st.actual_ns;
	/* the first frame: time passes, some of it waiting for a CPU */
	s->now += s->after_ns;
	s->run_delay += s->after_wait_ns;
	s->cpu += s->after_ns - s->after_wait_ns;
	*wait = pb_start_settle(&st);
	return err;
}

static void test_start_wait(void)
{
	const int64_t at = T0 + 2000000000ll;
	int64_t actual, wait;
	struct sim s;
	int stop = 0, err;

	/* a timer exact to the ns, no wait for a CPU */
	s = (struct sim){ .now = T0, .known = 1, .run_delay = 5000 * US };
	err = sim_wait(&s, false, &stop, &actual, &wait);
	CHECK(!err && s.sleeps == 20 && s.slept_clk == CLOCK_REALTIME && s.slept_until == at,
	      "naps of 100 ms on CLOCK_REALTIME, the last until the instant: %d sleeps until %+lld ns",
	      s.sleeps, (long long)(s.slept_until - at));
	CHECK(actual == at && wait == 0, "wakes at the instant: %+lld ns, cpu wait %lld ns",
	      (long long)(actual - at), (long long)wait);

	/* woken 300 us late, 200 us of it waiting for a CPU: 100 us are the timer's */
	s = (struct sim){
		.now = T0, .known = 1, .wake_late_ns = 300 * US, .cpu_wait_ns = 200 * US
	};
	err = sim_wait(&s, false, &stop, &actual, &wait);
	CHECK(!err && actual == at + 300 * US && wait == 200 * US,
	      "a wake 300 us late with 200 us of CPU wait: %+lld ns late, cpu wait %lld ns",
	      (long long)(actual - at), (long long)wait);

	/* more run_delay than lateness (a preemption before the sleep): the wait is the lateness */
	s = (struct sim){
		.now = T0, .known = 1, .wake_late_ns = 100 * US, .cpu_wait_ns = 2500 * US
	};
	err = sim_wait(&s, false, &stop, &actual, &wait);
	CHECK(!err && actual == at + 100 * US && wait == 100 * US,
	      "a wait for a CPU never exceeds the lateness: %+lld ns late, cpu wait %lld ns",
	      (long long)(actual - at), (long long)wait);

	/*
	 * the first frame after the wake took 60 us, 45 of them waiting for a CPU: not the
	 * start's (read then, a wake 300 us late with 200 us of wait would show 245 us of it)
	 */
	s = (struct sim){ .now = T0, .known = 1, .wake_late_ns = 300 * US, .cpu_wait_ns = 200 * US,
			  .after_ns = 60 * US, .after_wait_ns = 45 * US };
	err = sim_wait(&s, false, &stop, &actual, &wait);
	CHECK(!err && actual == at + 300 * US && wait == 200 * US,
	      "a wait after the wake is not the start's: %+lld ns late, cpu wait %lld ns",
	      (long long)(actual - at), (long long)wait);

	/* without the thread's CPU time the whole span after the wake is taken off */
	s = (struct sim){ .now = T0, .known = 1, .no_cpu = 1, .wake_late_ns = 300 * US,
			  .cpu_wait_ns = 200 * US, .after_ns = 60 * US, .after_wait_ns = 45 * US };
	err = sim_wait(&s, false, &stop, &actual, &wait);
	CHECK(!err && actual == at + 300 * US && wait == 185 * US,
	      "no CPU clock: the span after the wake taken off whole: cpu wait %lld ns",
	      (long long)wait);

	/* the kernel does not say: the wait is unknown, the lateness still exact */
	s = (struct sim){ .now = T0, .wake_late_ns = 40 * US };
	err = sim_wait(&s, false, &stop, &actual, &wait);
	CHECK(!err && actual == at + 40 * US && wait == -1,
	      "no schedstat: %+lld ns late, cpu wait %lld", (long long)(actual - at),
	      (long long)wait);

	/* --synced-clocks: the same instant on CLOCK_TAI, the offset in whole seconds */
	s = (struct sim){ .now = T0, .known = 1, .tai_off_ns = 37000000000ll, .tai_read_ns = 123 };
	err = sim_wait(&s, true, &stop, &actual, &wait);
	CHECK(!err && s.slept_clk == CLOCK_TAI && s.slept_until == at + 37000000000ll &&
		      actual == at && wait == 0,
	      "on CLOCK_TAI until the instant + 37 s: %+lld ns, woke %+lld ns",
	      (long long)(s.slept_until - at - 37000000000ll), (long long)(actual - at));

	/* an instant already past: back at once, not a ns later */
	s = (struct sim){ .now = at + 7 * US, .known = 1, .wake_late_ns = 300 * US };
	err = sim_wait(&s, false, &stop, &actual, &wait);
	CHECK(!err && actual == at + 7 * US && wait == 0,
	      "an instant past returns at once: %+lld ns, cpu wait %lld", (long long)(actual - at),
	      (long long)wait);

	/* a signal that is not a stop: asleep again, to the same instant */
	s = (struct sim){ .now = T0, .known = 1, .intr_at = T0 + 500000000ll };
	err = sim_wait(&s, false, &stop, &actual, &wait);
	CHECK(!err && s.sleeps == 21 && actual == at,
	      "EINTR without a stop sleeps on: %d sleeps, woke %+lld ns", s.sleeps,
	      (long long)(actual - at));

	/* SIGTERM mid-wait: -EINTR there and then */
	s = (struct sim){ .now = T0, .known = 1, .intr_at = T0 + 500000000ll, .stop_on_intr = 1 };
	err = sim_wait(&s, false, &stop, &actual, &wait);
	CHECK(err == -EINTR && s.sleeps == 6 && actual == T0 + 500000000ll,
	      "a stop mid-wait: %d after %d sleeps at %+lld ns", err, s.sleeps,
	      (long long)(actual - at));

	/*
	 * the stop set by another thread, this one's sleep unbroken (a signal goes to any thread):
	 * seen by the next nap's end, not at the instant (a Ctrl-C 4 s before it was)
	 */
	stop = 0;
	s = (struct sim){ .now = T0, .known = 1, .stop_at = T0 + 450000000ll };
	err = sim_wait(&s, false, &stop, &actual, &wait);
	CHECK(err == -EINTR && actual == T0 + 500000000ll,
	      "a stop another thread saw: %d, seen %+lld ns after it", err,
	      (long long)(actual - T0 - 450000000ll));

	/* stopped before: no sleep at all */
	s = (struct sim){ .now = T0, .known = 1 };
	stop = 1;
	err = sim_wait(&s, false, &stop, &actual, &wait);
	CHECK(err == -EINTR && s.sleeps == 0 && actual == T0,
	      "stopped already: %d, %d sleeps, at %+lld ns", err, s.sleeps,
	      (long long)(actual - at));
}

int main(void)
{
	test_start_at();
	test_shard_and_id();
	test_validate();
	test_start_wait();
	test_apply(3, 300, 1, 1000);
	test_apply(3, 10, 1, 7);
	test_apply(4, 1, 1, 0);
	test_apply(2, 64, 4, 100001);
	test_apply(2, 4, 4, 10);
	test_apply(3, 5, 2, 10);
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
