/* SPDX-License-Identifier: MIT */
/*
 * --stream FILE: the results as they happen, one JSON object a line (NDJSON): an "interval"
 * object each second of every run, then the run's "row", as --format json writes it. Its
 * fields: docs/options.md. Formatting only: the runner hands over its samples, main the rows.
 */
#ifndef PB_STREAM_H
#define PB_STREAM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"

struct pb_stream {
	FILE *f;   /* NULL: no --stream */
	bool own;  /* opened here (not stdout): closed by pb_stream_close */
	int error; /* the first write's -errno: once it failed, nothing more is written */
};

/* Opens path ("-": stdout) for writing, truncated; 0 or -errno with err filled. */
int pb_stream_open(struct pb_stream *s, const char *path, char *err, size_t errlen);
/* The first write error (-errno) or 0; closes what was opened. */
int pb_stream_close(struct pb_stream *s);

/*
 * One interval of run run_id (method, point: "" for none), from the runner's sample prev (all
 * zero: the window's start) to now: frames sent and delivered in it, their rates, the link.
 */
void pb_stream_interval(struct pb_stream *s, const char *method, const char *point, uint32_t run_id,
			const struct pb_sample *prev, const struct pb_sample *now, bool link_up);

/*
 * A run's end: the rest since its last interval (the window's last part and the drain), so
 * that its intervals add up to the row's frames_sent and frames_delivered, then the row.
 */
void pb_stream_row(struct pb_stream *s, const struct pb_result *r);

/*
 * The end of the stream: the result set's own fields (where, on what, with which command), as
 * --format json's top level holds them, so that the rows above it make a result set.
 */
struct pb_report;
void pb_stream_set(struct pb_stream *s, const struct pb_report *rep);

#endif
