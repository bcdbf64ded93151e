/* SPDX-License-Identifier: MIT */
/*
 * pktbench rfc2544's table format: a box per test over the summary rows. It reads only the
 * rows and the run's parameters, so the writers call it and it needs nothing of theirs.
 */
#ifndef PB_RFC2544_REPORT_H
#define PB_RFC2544_REPORT_H

#include <stdio.h>

#include "config.h"
#include "stats.h"

/* The n rows res (trials and summaries) of a run with parameters o; 0 or -errno. */
int pb_rfc2544_write_table(FILE *f, const struct pb_result *res, unsigned int n,
			   const struct pb_rfc2544_opts *o);

#endif
