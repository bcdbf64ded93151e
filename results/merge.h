/* SPDX-License-Identifier: MIT */
/*
 * `pktbench merge A.json B.json ...`: the result sets of many senders of one test become one
 * table. Rows are matched by test id (when the rows carry one), method and frame size; rates
 * and bytes are summed, delivered % is the test's own (all delivered / all sent) beside the
 * worst sender's, and latency percentiles come from the senders' histograms added bucket by
 * bucket, never from averaged percentiles.
 *
 * What cannot be one test is refused, naming the field and the file: the same file twice, a
 * row twice in one file, a run or a shard twice, shards of different counts or of different
 * tests, a shard missing (unless partial: then merged and marked so), a count beyond 2^63 or a
 * sum that overflows, a rate no sender reaches, delivered above sent, an ok row without
 * frames_sent or a window (duration_s > 0), windows that disagree, a key twice in an object.
 */
#ifndef PB_MERGE_H
#define PB_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fleet.h"
#include "options.h"

/* One file a shard at most: a test has up to PB_SHARD_MAX (--shard I/N) */
#define PB_MERGE_MAX_FILES PB_SHARD_MAX
#define PB_MERGE_KEY_LEN   64
#define PB_MERGE_NAME_LEN  128
/* No sender reaches this: 800GbE at 64-byte frames is 1.19 Gpps (options.h's PB_PPS_MAX). */
#define PB_MERGE_PPS_MAX 1e10
/* A shard below this share of its asked rate fell behind (the sender's own warning's 2 %). */
#define PB_MERGE_BEHIND 0.98
/*
 * The windows (duration_s) of the rows summed into one agree within this many % of the
 * longest, or PB_MERGE_DURATION_MIN_S, whichever is more: rates over windows further apart
 * do not add up to one test's. --start-at starts them together; what differs is each
 * sender's drain, a few ms.
 */
#define PB_MERGE_DURATION_PCT	5.0
#define PB_MERGE_DURATION_MIN_S 0.1

/* One sender's row inside a merged row: where it came from, its shard and pace. */
struct pb_merge_member {
	char file[PB_MERGE_NAME_LEN];
	unsigned int file_idx, row; /* the file's order in the merge, the row's in its file */
	bool has_shard;
	uint32_t shard_index, shard_count;
	uint64_t run_id; /* 0: none */
	bool ok;
	double pps, target_pps; /* target 0: not paced, or not said */
	double duration_s;	/* the row's window (ok rows) */
};

/* One merged row: the sums over the senders' rows of one key. */
struct pb_merge_row {
	char test_id[PB_MERGE_KEY_LEN]; /* "" when the rows carry none */
	char method[PB_MERGE_KEY_LEN];
	char point[PB_MERGE_KEY_LEN]; /* a sweep's point, "" without --sweep */
	uint64_t frame_bytes;
	unsigned int senders; /* rows merged into this one */
	unsigned int not_ok;  /* of them, rows whose status was not ok (left out of the sums) */
	double pps, app_mbps, wire_gbps;
	uint64_t frames_sent, bytes_sent;
	bool delivered_known; /* every ok row had a receiver's count */
	uint64_t frames_delivered;
	double delivered_pct, worst_delivered_pct;
	/* latency: probes summed, the histograms added */
	bool lat_known; /* at least one ok row had timed probes with a histogram */
	uint64_t probes_sent, probes_received, probes_lost, samples;
	double min_us, max_us, p50_us, p90_us, p99_us, p999_us;
	uint64_t *hist; /* PB_HIST_BUCKETS counts, owned; NULL without latency */
	/* the test's shards: shards_total 0 when the rows carry no shard */
	unsigned int shards_total, shards_merged;
	bool partial;		     /* shards are missing, merged anyway (partial) */
	bool target_known;	     /* every ok row said its asked rate */
	double target_pps;	     /* the asked rates summed: the test's */
	unsigned int behind;	     /* ok rows below PB_MERGE_BEHIND of their asked rate */
	bool skew_known;	     /* an ok row waited for --start-at (start_skew_us) */
	double worst_skew_us;	     /* the latest sender's wake after the instant */
	struct pb_merge_member *mem; /* owned, nmem of them */
	unsigned int nmem;
};

/* A file already merged: its name and its text's hash, to refuse it a second time. */
struct pb_merge_file {
	char name[PB_MERGE_NAME_LEN];
	uint64_t hash;
};

struct pb_merge_result {
	struct pb_merge_row *rows;
	unsigned int n;
	unsigned int files;
	struct pb_merge_file *file; /* owned, files of them */
	bool partial;		    /* a row is partial */
	/* the test every row must be of, and the first file that said it */
	bool have_test;
	char test_id[PB_MERGE_KEY_LEN];
	char test_file[PB_MERGE_NAME_LEN];
};

enum pb_merge_format {
	PB_MERGE_FORMAT_TABLE,
	PB_MERGE_FORMAT_JSON,
};

struct pb_merge_opts {
	uint32_t format;
	bool wide;	    /* --wide: every column, whatever the terminal's width */
	unsigned int width; /* the table's width: the terminal's, or 0 (no limit) */
	bool partial;	    /* --partial: merge a test with shards missing, and say so */
};

/* Adds one result set (the text of a --format json file) to res; 0 or -errno with err set. */
int pb_merge_add_json(struct pb_merge_result *res, const char *text, const char *name, char *err,
		      size_t errlen);
/*
 * Adds what one file holds: a result set (as pb_merge_add_json), or a log (`kubectl logs`,
 * with --prefix, --timestamps, several pods' together) whose lines hold result sets among
 * other lines: each named FILE:LINE [POD] after the line it begins on. 0 or -errno, err set.
 */
int pb_merge_add_text(struct pb_merge_result *res, const char *text, const char *name, char *err,
		      size_t errlen);
/*
 * Once every file is in: refuses a test with shards missing unless partial (then marks its
 * rows), and derives the figures (delivered %, percentiles). 0 or -EINVAL with err set.
 */
int pb_merge_finish(struct pb_merge_result *res, bool partial, char *err, size_t errlen);
/*
 * A refusal is one line: what the input put in it (a method's name with a newline inside its
 * JSON string, a control character) becomes '?'. The functions above do it to their err.
 */
void pb_merge_one_line(char *err);
void pb_merge_result_free(struct pb_merge_result *res);
/* Whether m holds shard index; m's missing shards as "1/4, 3/4 and 2 more" into buf. */
bool pb_merge_has_shard(const struct pb_merge_row *m, uint32_t index);
size_t pb_merge_missing(const struct pb_merge_row *m, char *buf, size_t size);
/* An ok row below PB_MERGE_BEHIND of the rate it was asked for. */
bool pb_merge_behind(const struct pb_merge_member *p);

int pb_merge_write_table(FILE *f, const struct pb_merge_result *res, unsigned int width);
int pb_merge_write_json(FILE *f, const struct pb_merge_result *res);

extern const struct pb_cmd pb_cmd_merge;
int pb_merge_main(int argc, char **argv);

#endif
