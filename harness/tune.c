// SPDX-License-Identifier: MIT
/* --tune and --sweep's knobs: see tune.h. */
#include "tune.h"

void pb_knob_set(struct pb_config *cfg, enum pb_sweep_kind kind, uint32_t v)
{
	switch (kind) {
	case PB_SWEEP_FRAME_SIZE:
		cfg->frame_size = v;
		break;
	case PB_SWEEP_STREAMS:
		cfg->streams = v;
		break;
	case PB_SWEEP_BATCH:
		cfg->batch = v;
		break;
	case PB_SWEEP_SEGMENTS:
		cfg->segments = v;
		break;
	case PB_SWEEP_RING:
		cfg->ring = v;
		break;
	case PB_SWEEP_NONE:
		break;
	}
}
