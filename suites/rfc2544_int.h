/* SPDX-License-Identifier: MIT */
/*
 * What rfc2544.c decides from its trials' rows, apart from running them, and nothing else
 * uses: here so that a unit test can hand it known trials and check the exact answer
 * (tests/unit/test_rfc2544_answer.c).
 */
#ifndef PB_RFC2544_INT_H
#define PB_RFC2544_INT_H

#include <stdbool.h>

#include "rfc2544_search.h"
#include "stats.h"

/*
 * 26.1's answering trial: of rows[first, n), the last throughput trial (summaries skipped)
 * that passed offering exactly answer, the rate the search found (pb_search_result()); its
 * index, or -ENOENT when none did (nothing passed).
 */
int pb_rfc_throughput_best(const struct pb_result *rows, unsigned int first, unsigned int n,
			   double answer);

/*
 * The throughput summary's answer fields, from the search s that ended, its answering trial
 * best (NULL: none passed), the unpaced maximum max_pps it searched below, and whether the
 * path held that maximum back (pushed): the rate and its wire rate as best offered them, its
 * loss, how the search ended; with no answer, why, and the status ok.
 */
void pb_rfc_throughput_fill(struct pb_result *sum, const struct pb_result *best,
			    const struct pb_search *s, double max_pps, bool pushed);

#endif
