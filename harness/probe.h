/* SPDX-License-Identifier: MIT */
/*
 * Latency probes (--latency), the sender's half: which frame of a stream is a probe, and the
 * one helper that stamps it (kind, sequence number, transmit time; payload layout in
 * bpf/pb_bpf.h) immediately before the method hands that frame to the kernel.
 *
 * The runner arms a stream's next probe by time (--latency-pps over the streams) before a
 * send() call: w->probe.at becomes the index of the frame the schedule has leave at the
 * probe's time (0 unpaced, or when the probe is overdue). Every method checks, at the one
 * place it hands a frame over, pb_probe_due(&w->probe, i) with i the frame's index among
 * those the call hands over, and stamps that frame where it lies (a UMEM chunk, a ring slot,
 * a GSO segment) or sends a stamped copy (pb_probe_copy) where its buffers are shared. A call
 * carries at most one probe. Without --latency at is PB_PROBE_NONE for good: the check is one
 * compare that never holds.
 *
 * A probe counts as sent once it is handed to the kernel, whatever the path does next: a
 * frame the path drops and reports is retried for the frame counts, but the probe it carried
 * is lost (pb_probe_dropped notes that the sender was told). A frame that was never taken
 * (EAGAIN) gives its stamp back (pb_probe_unsent).
 */
#ifndef PB_PROBE_H
#define PB_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "config.h"
#include "frame.h"
#include "pb_bpf.h"

#define PB_PROBE_NONE	UINT32_MAX
#define PB_PROBE_COPIES 64 /* stamped copies one stream may have in flight at once */

struct pb_probe {
	uint32_t at; /* index, among the frames the current call hands over, of the probe */
	bool on;
	uint8_t kind;	    /* 'P' or 'T', lower case in a paced run */
	uint8_t frame_kind; /* what the stream's other frames carry: 'N' or 'n' */
	int clock;	    /* CLOCK_MONOTONIC, or CLOCK_TAI with --synced-clocks */
	uint32_t seq;	    /* the next probe's sequence number */
	uint32_t stamped;   /* index of the probe this call stamped, or PB_PROBE_NONE */
	uint64_t sent;	    /* probes handed to the kernel */
	uint64_t dropped;   /* of those, reported dropped by the path */
	double interval;    /* seconds between this stream's probes, on average */
	uint64_t rng;	    /* xorshift64 state: each gap is 0.5 to 1.5 intervals */
	double next_t;	    /* when the next one is due (CLOCK_MONOTONIC, pb_now) */
	double prev_t;	    /* next_t before the last stamp, for pb_probe_unsent */
	uint8_t *copies;    /* PB_PROBE_COPIES frames of stride bytes */
	uint8_t busy[PB_PROBE_COPIES];
	uint32_t stride, next_copy;
	struct pb_frame copy; /* what pb_probe_copy returns: the copy's data, f's offsets */
};

/*
 * Sets up a stream's probes for a run, or marks them off (on false: no --latency, or a
 * method that puts nothing on a wire): paced tells the kinds' case; max_len is the longest
 * frame of the stream's pool. 0 or -ENOMEM.
 */
int pb_probe_init(struct pb_probe *p, const struct pb_config *cfg, bool on, bool paced,
		  uint32_t max_len);
void pb_probe_free(struct pb_probe *p);

/*
 * The runner, before each send() call of a stream with probes; now is pb_now(). at: which of
 * the call's frames the probe rides when it is due: the one the schedule has leave at the
 * probe's time (a paced call hands over a bunch; pb_pacer_frame_at), else 0. An at beyond
 * the frames the call hands over leaves the probe to a later call.
 */
static inline void pb_probe_arm(struct pb_probe *p, double now, uint32_t at)
{
	p->stamped = PB_PROBE_NONE;
	if (now >= p->next_t)
		p->at = at;
}

/* Whether the call's frame i is the probe. */
static inline bool pb_probe_due(const struct pb_probe *p, uint32_t i)
{
	return __builtin_expect(i == p->at, 0);
}

/* The probe's index when it is among the call's first n frames, else PB_PROBE_NONE. */
static inline uint32_t pb_probe_in(const struct pb_probe *p, uint32_t n)
{
	return __builtin_expect(p->at < n, 0) ? p->at : PB_PROBE_NONE;
}

/*
 * Stamps the probe into the payload of a frame about to be handed over: kind, sequence
 * number, the time now. csum: the two bytes before payload are the frame's UDP checksum,
 * kept right (RFC 1624); false where the kernel computes the checksum of a bare payload.
 */
void pb_probe_stamp(struct pb_probe *p, uint8_t *payload, bool csum);
/*
 * RFC 1624 (eqn. 3): the UDP checksum at check after the 16-bit words of a region changed from
 * old to now (len even, the region starting at an even offset of the UDP datagram).
 */
void pb_csum_fix(uint8_t *check, const uint8_t *old, const uint8_t *now, size_t len);
/*
 * For methods whose frame buffers are shared (a pool frame sent many times in one batch): a
 * stamped copy of f to send instead (data and offsets as f's). *slot says which copy, for
 * pb_probe_release once the kernel is done with it. NULL when every copy is still in flight:
 * send f as it is then, and the probe waits for the next call.
 */
const struct pb_frame *pb_probe_copy(struct pb_probe *p, const struct pb_frame *f, int *slot);
void pb_probe_release(struct pb_probe *p, int slot);
/* The probe's frame was not handed over after all (the path was full): undo its stamp. */
void pb_probe_unsent(struct pb_probe *p);
/* The path dropped the probe's frame and said so: the probe is lost, and the sender knows. */
static inline void pb_probe_dropped(struct pb_probe *p)
{
	p->dropped++;
}
/* A method stamped k probes itself (xdp_live, in BPF): they count, and the schedule moves on. */
void pb_probe_stamped(struct pb_probe *p, uint32_t k);
/*
 * A probe counted as sent was not taken after all, a later completion says (io_uring): it
 * no longer counts; its sequence number stays a gap.
 */
static inline void pb_probe_untaken(struct pb_probe *p)
{
	if (p->sent)
		p->sent--;
}
/*
 * Every frame of a stream carries its own sequence number (payload bytes 8-11, pb_bpf.h), from
 * 0 in each run, so the receiver counts a frame that arrives twice once, and tells one that
 * arrived after a later one. Stamps seq into a payload about to be handed over, where the
 * frame was built with PB_SIG_KIND_SEQ (else nothing: a frame with no room for one); csum as
 * for pb_probe_stamp. A probe stamped after it carries its own number there instead.
 */
static inline void pb_frame_seq_stamp(uint8_t *pl, uint32_t seq, bool csum)
{
	uint8_t old[4], *at = pl + PB_FRAME_SEQ_OFF;

	if ((pl[2] | PB_SIG_PACED) != (PB_SIG_KIND_SEQ | PB_SIG_PACED))
		return;
	if (csum)
		memcpy(old, at, 4);
	at[0] = (uint8_t)(seq >> 24);
	at[1] = (uint8_t)(seq >> 16);
	at[2] = (uint8_t)(seq >> 8);
	at[3] = (uint8_t)seq;
	if (csum)
		pb_csum_fix(pl - 2, old, at, 4);
}

/* Puts the signature and checksum of a stamped frame back as in orig (its pool frame). */
void pb_probe_restore(uint8_t *frame, const struct pb_frame *orig);

#endif
