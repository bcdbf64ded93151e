/* SPDX-License-Identifier: MIT */
/*
 * Many senders as one test: a start instant all senders wait for (--start-at), sender I of N
 * taking its share of the flows, the rate and the count (--shard I/N), and the test's name
 * (--test-id UUID). The parsers take outside input: strict, one-line errors.
 */
#ifndef PB_FLEET_H
#define PB_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "config.h"

#define PB_START_AT_MAX_AHEAD_NS (24ll * 3600 * 1000000000ll) /* a day */

/*
 * --start-at: RFC 3339 ("2026-12-01T16:30:00Z", any fraction digits, kept to the ns, Z or
 * +hh:mm) or a Unix time in ns (digits only), into ns since the epoch (UTC); 0, -EINVAL, or
 * -ERANGE past 2262-04-11T23:47:16.854775807Z (the end of 64 bits of ns).
 */
int pb_parse_start_at(const char *s, int64_t *unix_ns);
/* --shard "I/N": 0 <= I < N <= PB_SHARD_MAX; 0 or -EINVAL. */
#define PB_SHARD_MAX 4096
int pb_parse_shard(const char *s, uint32_t *index, uint32_t *count);
/* --test-id: a UUID in its 8-4-4-4-12 hex form; lower-cased into out (37 bytes); 0 or -EINVAL. */
int pb_parse_test_id(const char *s, char *out);

/*
 * The fleet options' cross-checks, with now_ns the wall clock: the specs parsed into cfg, a
 * start in the past or more than a day ahead refused; 0 or -EINVAL with err.
 */
int pb_fleet_validate(struct pb_config *cfg, int64_t now_ns, char *err, size_t errlen);

/*
 * This sender's share of the whole test, applied to its own copy of the configuration: the
 * rate, the count and the flows (a disjoint block of source ports, or of source addresses
 * with --flows-src-ip). Without --shard nothing changes.
 */
void pb_shard_apply(struct pb_config *cfg);

/*
 * The clock the start waits on, supplied by the caller so that tests drive it with simulated
 * time; pb_start_wait uses the machine's, with the timer's slack at its least.
 *   now_ns: clk's time (CLOCK_REALTIME or CLOCK_TAI) in ns;
 *   sleep_until_ns: sleeps until clk reads t; 0 on reaching it, EINTR when a signal woke it;
 *   run_delay_ns: the calling thread's total time runnable but waiting for a CPU, -1 unknown;
 *   cpu_ns: the calling thread's CPU time (NULL or -1: unknown).
 */
struct pb_fleet_clock {
	int64_t (*now_ns)(void *ctx, clockid_t clk);
	int (*sleep_until_ns)(void *ctx, clockid_t clk, int64_t t);
	int64_t (*run_delay_ns)(void *ctx);
	int64_t (*cpu_ns)(void *ctx);
	void *ctx;
};

/* A start from its wait to its settling, after the first frame (pb_start_settle). */
struct pb_start {
	struct pb_fleet_clock clock;
	int64_t target_ns;  /* --start-at, UTC */
	int64_t actual_ns;  /* the wall clock on waking */
	int64_t delay0;	    /* run_delay before the sleep */
	int64_t cpu_wake;   /* the thread's CPU time on waking */
	int fd, slack;	    /* pb_start_wait's schedstat and timer slack, until settled */
};

/*
 * Waits for --start-at (CLOCK_REALTIME; CLOCK_TAI at the same instant with --synced-clocks),
 * returning at once when it has passed or when *stop is set, with the wall clock on waking
 * in st->actual_ns and nothing else read, so that the first frame can follow at once. 0, or
 * -EINTR when stopped; pb_start_settle follows either way.
 * pb_start_settle, after the first frame: how long the thread, woken, waited for a CPU
 * meanwhile (the scheduler's run_delay, -1 when the kernel does not say), the part of a late
 * start that is the machine's load and not the timer's: never more than the start's
 * lateness, since a wait before the instant delayed nothing, nor any wait after the wake.
 */
int pb_start_wait(const struct pb_config *cfg, const int *stop, struct pb_start *st);
int pb_start_wait_clock(const struct pb_config *cfg, const struct pb_fleet_clock *clock,
			const int *stop, struct pb_start *st);
int64_t pb_start_settle(struct pb_start *st);

/*
 * The run's announcement (pb_bpf.h, PB_SIG_KIND_ANNOUNCE) as a frame in buf (PB_FRAME_MAX
 * bytes), and sending it on the run's interface: three copies, before the window, when the
 * run belongs to a named test or shard, or replays a capture (its frames are counted by the
 * run's MAC once it has announced itself). 0 or -errno.
 */
int pb_announce_build(const struct pb_config *cfg, bool tagged, uint8_t *buf, uint32_t *len);
int pb_announce(const struct pb_config *cfg, bool tagged);

/* The wall clock in ns since the epoch. */
int64_t pb_wall_ns(void);

#endif
