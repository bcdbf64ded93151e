/* SPDX-License-Identifier: MIT */
/*
 * The replay's one door from the engine: how the runner takes a --replay capture's frames and
 * schedule without including anything above itself. replay/ implements it (pb_replay_source,
 * replay/replay.h); the session hands it to the runner in struct pb_env, as it hands a
 * receiver in struct pb_path. What the schedule means: replay/replay.h.
 */
#ifndef PB_REPLAY_SOURCE_H
#define PB_REPLAY_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "frame.h"
#include "method.h"

struct pb_replay;	 /* replay/'s: the capture's frames and schedules */
struct pb_replay_stream; /* ... one stream's */
struct pb_result;

struct pb_replay_source {
	/*
	 * Reads cfg->replay and builds every stream's frames and schedule for method m. 0; or
	 * -EOPNOTSUPP (m cannot replay: a skipped row) or another -errno, with why filled.
	 */
	int (*open)(struct pb_replay **out, const struct pb_method *m, const struct pb_config *cfg,
		    char *why, size_t len);
	/* Stops the reader, if any, and frees r (NULL: nothing). */
	void (*free)(struct pb_replay *r);
	/* The run's --count and --count-timeout from the replay's passes. */
	void (*apply)(const struct pb_replay *r, struct pb_config *cfg);
	/* Moves stream i's frames into pool, which the caller frees after stop. */
	void (*take_pool)(struct pb_replay *r, uint32_t i, struct pb_pool *pool);
	struct pb_replay_stream *(*stream)(struct pb_replay *r, uint32_t i);
	/* Streamed: where the stream's worker counts the frames it took out of the window. */
	void (*attach)(struct pb_replay_stream *s, const uint64_t *taken);
	/* Stream i's frames to send: UINT64_MAX until the stop. */
	uint64_t (*quota)(const struct pb_replay *r, uint32_t i);
	/* Streamed: the reader thread, just before the clock (0 or -errno); stopped. */
	int (*start)(struct pb_replay *r);
	void (*stop)(struct pb_replay *r);
	/* The send loop's: what is due by t, what was handed over, whether all was taken. */
	uint64_t (*allowance)(struct pb_replay_stream *s, double t, uint64_t handed, double *next);
	void (*note)(struct pb_replay_stream *s, uint64_t handed);
	bool (*exhausted)(const struct pb_replay_stream *s);
	/* The row's figures: the departures, then the arrival gaps against the schedule's. */
	void (*result)(const struct pb_replay *r, struct pb_result *res);
	void (*gaps)(const struct pb_replay *r, struct pb_result *res);
};

#endif
