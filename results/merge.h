/* SPDX-License-Identifier: MIT */
/*
 * `pktbench merge A.json B.json ...`: the result sets of many senders of one test become one
 * table. Rows are matched by test id (when the rows carry one), method and frame size; rates
 * and bytes are summed, delivered % is the test's own (all delivered / all sent) beside the
 * worst sender's, and latency percentiles come from the senders' histograms added bucket by
 * bucket, never from averaged percentiles.
 */
#ifndef PB_MERGE_H
#define PB_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "options.h"

#define PB_MERGE_MAX_FILES 256
#define PB_MERGE_KEY_LEN   64

/* One merged row: the sums over the senders' rows of one key. */
struct pb_merge_row {
	char test_id[PB_MERGE_KEY_LEN]; /* "" when the rows carry none */
	char method[PB_MERGE_KEY_LEN];
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
};

struct pb_merge_result {
	struct pb_merge_row *rows;
	unsigned int n;
	unsigned int files;
};

enum pb_merge_format {
	PB_MERGE_FORMAT_TABLE,
	PB_MERGE_FORMAT_JSON,
};

struct pb_merge_opts {
	uint32_t format;
	bool wide;	    /* --wide: every column, whatever the terminal's width */
	unsigned int width; /* the table's width: the terminal's, or 0 (no limit) */
};

/* Adds one result set (the text of a --format json file) to res; 0 or -errno with err set. */
int pb_merge_add_json(struct pb_merge_result *res, const char *text, const char *name, char *err,
		      size_t errlen);
/* The figures derived from the sums (delivered %, percentiles), once every file is in. */
void pb_merge_finish(struct pb_merge_result *res);
void pb_merge_result_free(struct pb_merge_result *res);

int pb_merge_write_table(FILE *f, const struct pb_merge_result *res, unsigned int width);
int pb_merge_write_json(FILE *f, const struct pb_merge_result *res);

extern const struct pb_cmd pb_cmd_merge;
int pb_merge_main(int argc, char **argv);

#endif
