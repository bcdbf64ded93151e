/* SPDX-License-Identifier: MIT */
/*
 * --replay: a capture's frames become the run's frames. The file (pcap, nanosecond pcap or
 * pcapng, read with libpcap) is preloaded when --preload allows (auto: when that takes at most
 * --preload-max MiB), else streamed from disk: read once for its schedule, then pass by pass by
 * a reader thread into each stream's window of at most 2048 frames, which the method copies
 * out as it sends (PB_M_STREAM methods only: the others take their frames once at open, and
 * skip). A frame method sends every frame whole, as captured, from the run's source MAC (the
 * receiver counts by it; pb_bpf.h), rewritten only where --rewrite-ip, --rewrite-port and the
 * VLAN options ask; a socket method's UDP frames are rebuilt with this run's addresses, ports
 * and signature, the others left out and counted. Each keeps its size and its place in time.
 * Flows (the capture's 5-tuples) are hashed to streams so each flow keeps its order.
 *
 * The schedule: frame k of a stream is due at t0 + (k / n) * period + off[k % n], an absolute
 * deadline on CLOCK_MONOTONIC from t0, when the stream first asks to send (just after the
 * clock start), so errors never add up. The offsets are the file's own
 * gaps (--timing original, divided by --multiplier), evenly spaced frames (--pps), the frames'
 * own wire time (--rate), or all 0 (--topspeed). The wrap rule: the first frame of the next
 * pass follows the last frame of this one by what one more frame would take (the file's mean
 * gap, 1 / --pps, or the last frame's wire time at --rate), plus --loop-delay.
 */
#ifndef PB_REPLAY_H
#define PB_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "frame.h"
#include "method.h"
#include "replay_source.h"

/* The engine's door (harness/replay_source.h): the functions below, for the session to hand. */
extern const struct pb_replay_source pb_replay_source;

/*
 * Reads cfg->replay and builds every stream's frames and schedule for method m. 0; or
 * -EOPNOTSUPP (m cannot replay: a skipped row) or another -errno, with why filled.
 */
int pb_replay_open(struct pb_replay **out, const struct pb_method *m, const struct pb_config *cfg,
		   char *why, size_t len);
void pb_replay_free(struct pb_replay *r);
/*
 * Sets the run's --count to the frames --loop N sends (0 with --loop 0: until --duration) and,
 * unless given, a --count-timeout 10 s past the schedule's end.
 */
void pb_replay_apply(const struct pb_replay *r, struct pb_config *cfg);
/*
 * Moves stream i's frames (file order; streamed: its window) into pool, which the caller then
 * owns, and frees only after pb_replay_stop().
 */
void pb_replay_take_pool(struct pb_replay *r, uint32_t i, struct pb_pool *pool);
/* Streamed: where the stream's worker counts the frames it took out of the window. */
void pb_replay_attach(struct pb_replay_stream *s, const uint64_t *taken);
/* Streamed: starts the reader thread, just before the clock. 0 or -errno. */
int pb_replay_start(struct pb_replay *r);
/* Stops the reader thread, if any, and waits for it. */
void pb_replay_stop(struct pb_replay *r);
/* Streamed: the reader is done and the stream has taken all it wrote. */
bool pb_replay_exhausted(const struct pb_replay_stream *s);
/* Stream i's frames to send: n x loops, UINT64_MAX with --loop 0. */
uint64_t pb_replay_quota(const struct pb_replay *r, uint32_t i);
struct pb_replay_stream *pb_replay_stream(struct pb_replay *r, uint32_t i);
/*
 * Frames whose deadlines have come by t (seconds since the clock start; the first call sets
 * the stream's t0), given handed frames
 * handed over so far; UINT64_MAX with --topspeed. 0 with *next set: when the next is due (since the
 * clock start).
 */
uint64_t pb_replay_allowance(struct pb_replay_stream *s, double t, uint64_t handed, double *next);
/*
 * After a send() call: handed frames are now handed over; those new since the last note
 * departed at the time of the last allowance. Their lateness goes into the stream's figures.
 */
void pb_replay_note(struct pb_replay_stream *s, uint64_t handed);
/* The replay's figures (res->replay) from every stream's departures. */
void pb_replay_result(const struct pb_replay *r, struct pb_result *res);
/*
 * After the receiver's figures: the arrival gaps (res->gaps) against the file's own gaps
 * as scheduled, quantile by quantile.
 */
void pb_replay_gaps(const struct pb_replay *r, struct pb_result *res);
/* Cross-option checks for --replay and its options; 0 or -EINVAL with err filled. */
int pb_replay_validate(const struct pb_config *cfg, char *err, size_t errlen);
/*
 * Whether path is a capture a run can open (readable, a format libpcap reads, Ethernet),
 * from its header alone: bad input is found before anything runs. 0 or -EINVAL with err.
 */
int pb_replay_check_file(const char *path, char *err, size_t errlen);

/* Pure helpers, exported for the unit tests. */
/* When stream frame k is due: (k / n) * period + off[k % n]. */
double pb_replay_due(const double *off, uint32_t n, double period, uint64_t k);

#endif
