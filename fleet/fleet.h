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
#include "fleet_door.h"

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

/* The door's implementation (harness/fleet_door.h), which the session hands the engine. */
extern const struct pb_fleet_door pb_fleet_door;

/* The door's members, by name: pb_fleet_door holds these. */
void pb_shard_apply(struct pb_config *cfg);
int pb_start_wait(const struct pb_config *cfg, const int *stop, struct pb_start *st);
/* pb_start_wait on a clock of the caller's (a test's simulated time) */
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

#endif
