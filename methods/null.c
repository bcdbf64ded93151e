// SPDX-License-Identifier: MIT
/*
 * null: no system call at all. Tests the harness without privileges and shows what the
 * harness itself costs per packet.
 */
#include <stdio.h>

#include "method.h"

static int null_open(struct pb_worker *w)
{
	snprintf(w->mode, sizeof(w->mode), "no-wire");
	return 0;
}

static int null_send(struct pb_worker *w, unsigned int budget, struct pb_outcome *o)
{
	o->sent = budget < w->batch ? budget : w->batch;
	return 0;
}

const struct pb_method pb_method_null = {
	.name = "null",
	.help = "no system call: the harness's own cost per packet (nothing reaches a wire)",
	.flags = PB_M_NO_WIRE,
	.default_batch = 1, /* one call per frame: the harness's cost per send() call */
	.open = null_open,
	.send = null_send,
};
