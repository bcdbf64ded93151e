/* SPDX-License-Identifier: MIT */
/*
 * --replay streamed from disk (replay_disk.c): the first read for the schedule, each stream's
 * window, and the reader thread that refills them pass by pass. replay.c is its only caller
 * (pb_replay_start() and the rest are its doors to these).
 */
#ifndef PB_REPLAY_DISK_H
#define PB_REPLAY_DISK_H

#include "replay_int.h"

/* The first read, the windows, the first window's worth. 0 or -errno, said why. */
int rp_open_streamed(struct pb_replay *rp, const struct pb_method *m, char *why, size_t len);
/* The reader thread, just before the clock; 0 or -errno. */
int rp_disk_start(struct pb_replay *r);
/* Stops the reader thread, if any, and waits for it. */
void rp_disk_stop(struct pb_replay *r);

#endif
