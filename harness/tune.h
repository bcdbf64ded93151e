/* SPDX-License-Identifier: MIT */
/*
 * A method's own knobs (batch, segments, ring), set by --sweep and searched by --tune: a short
 * trial at each candidate value, one knob after the other, keeping the fastest setting whose
 * frames arrived.
 */
#ifndef PB_TUNE_H
#define PB_TUNE_H

#include <stdio.h>

#include "config.h"
#include "method.h"
#include "stats.h"

/* Sets what a sweep kind names (frame-size, streams, batch, segments, ring) to v in cfg. */
void pb_knob_set(struct pb_config *cfg, enum pb_sweep_kind kind, uint32_t v);

#endif
