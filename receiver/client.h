/* SPDX-License-Identifier: MIT */
/*
 * The sender's side of a `pktbench receive` agent: its /v1/info before the runs, and a
 * struct pb_rx_source that reads each run over HTTP (libcurl), so the runner counts against
 * an agent exactly as against the lab's receiver. Every request is bounded in time, so an
 * agent that goes away makes a read fail (delivered unknown), never hang.
 */
#ifndef PB_CLIENT_H
#define PB_CLIENT_H

#include <stddef.h>

#include "api.h"
#include "rx_source.h"

#define PB_AGENT_CONNECT_MS 1000 /* to connect */
#define PB_AGENT_REQUEST_MS 2000 /* for a whole request, connecting included */
#define PB_AGENT_STOP_GRACE_MS 500 /* for the reads after a stop (a signal), all of them */

struct pb_agent;

/* Checks the URL (pb_api_check_url) and gets a handle ready; 0 or -errno (err says why). */
int pb_agent_open(struct pb_agent **out, const char *url, char *err, size_t errlen);
/* GET /v1/info. 0, or -errno with "cannot reach the agent at URL: ..." (or what) in err. */
int pb_agent_info(struct pb_agent *a, struct pb_api_info *info, char *err, size_t errlen);
/* A source whose reads are GET /v1/runs/RUN_ID (the interface counters: /v1/runs/0). */
void pb_agent_source(struct pb_agent *a, struct pb_rx_source *src);
/* NULL-safe. */
void pb_agent_close(struct pb_agent *a);

#endif
