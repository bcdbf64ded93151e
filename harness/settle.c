// SPDX-License-Identifier: MIT
/* Settling the receiver's count after a window (settle.h). */
#include "settle.h"

void pb_settle_start(struct pb_settle *s, double now)
{
	*s = (struct pb_settle){ .start = now, .moved = now };
}

enum pb_settle_verdict pb_settle_next(struct pb_settle *s, double now, uint64_t frames,
				      uint64_t sent)
{
	if (!s->read || frames != s->prev)
		s->moved = now;
	s->read = true;
	s->prev = frames;
	if (frames >= sent || (frames && now - s->moved >= PB_SETTLE_QUIET_S))
		return PB_SETTLE_DONE;
	if (!frames && now - s->start >= PB_SETTLE_MAX_S)
		return PB_SETTLE_NONE;
	/* a count that moved in the last PB_SETTLE_QUIET_S has more to come: read on, a while */
	if (now - s->start >= PB_SETTLE_RISING_MAX_S)
		return PB_SETTLE_RISING;
	return PB_SETTLE_WAIT;
}
