/* SPDX-License-Identifier: MIT */
/*
 * Latency probes' arithmetic, shared by the receiver's BPF program and user space (the
 * percentiles, the unit tests), so a test checks the very code the receiver runs: the
 * log-linear histogram's buckets, a stream's sequence window (received, late, duplicate,
 * missing) and RFC 3550's interarrival jitter. Plain UAPI types, no calls, bounded loops
 * only: both compilers take it, the verifier too.
 */
#ifndef PB_LAT_H
#define PB_LAT_H

#include <linux/types.h>

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

/*
 * Log-linear histogram of nanoseconds: exact below 2^(SUB_BITS+1) = 256 ns, then 2^SUB_BITS =
 * 128 buckets per power of two, so a bucket's upper bound is within 1/128 (0.78 %) of any
 * value in it, from 256 ns up to 2^MAX_BITS ns (17.2 s); larger values land in the last
 * bucket (the exact maximum is kept apart).
 */
#define PB_HIST_SUB_BITS 7
#define PB_HIST_SUB	 (1u << PB_HIST_SUB_BITS)
#define PB_HIST_MAX_BITS 34
#define PB_HIST_BUCKETS	 ((PB_HIST_MAX_BITS - PB_HIST_SUB_BITS + 1) * PB_HIST_SUB)

/* The highest set bit of v (v > 0), by halving: BPF has no count-leading-zeros. */
static __always_inline __u32 pb_msb64(__u64 v)
{
	__u32 r = 0;

	if (v >> 32) {
		v >>= 32;
		r += 32;
	}
	if (v >> 16) {
		v >>= 16;
		r += 16;
	}
	if (v >> 8) {
		v >>= 8;
		r += 8;
	}
	if (v >> 4) {
		v >>= 4;
		r += 4;
	}
	if (v >> 2) {
		v >>= 2;
		r += 2;
	}
	if (v >> 1)
		r += 1;
	return r;
}

static __always_inline __u32 pb_hist_bucket(__u64 v)
{
	__u32 shift;

	if (v < 2 * PB_HIST_SUB)
		return (__u32)v;
	if (v >> PB_HIST_MAX_BITS)
		return PB_HIST_BUCKETS - 1;
	/* v >> shift is in [SUB, 2 SUB): the top SUB_BITS + 1 bits of v */
	shift = pb_msb64(v) - PB_HIST_SUB_BITS;
	return (shift + 1) * PB_HIST_SUB + (__u32)(v >> shift) - PB_HIST_SUB;
}

/* The smallest and largest value bucket b holds. */
static __always_inline __u64 pb_hist_lower(__u32 b)
{
	__u32 shift;

	if (b < 2 * PB_HIST_SUB)
		return b;
	shift = b / PB_HIST_SUB - 1;
	return (__u64)(b % PB_HIST_SUB + PB_HIST_SUB) << shift;
}

static __always_inline __u64 pb_hist_upper(__u32 b)
{
	if (b < 2 * PB_HIST_SUB)
		return b;
	return pb_hist_lower(b) + (1ull << (b / PB_HIST_SUB - 1)) - 1;
}

/*
 * A stream's probe sequence as the receiver sees it. Sequence numbers start at 0 for every
 * stream of every run. A window of the last 64 numbers tells a late probe (its bit is clear:
 * it fills a gap) from a duplicate (its bit is set); older than the window, a probe fills a
 * gap if there is one (late), else it can only be a duplicate.
 */
#define PB_SEQ_WINDOW 64

struct pb_seq {
	__u32 next; /* the highest sequence number seen, plus one; 0: none yet */
	__u32 pad;
	__u64 window;	/* bit i: next - 1 - i has arrived */
	__u64 received; /* distinct probes */
	__u64 late;	/* arrived after a higher number did (reordered) */
	__u64 dup;	/* arrived again */
	__u64 missing;	/* numbers skipped and not filled (yet) */
};

enum pb_seq_kind {
	PB_SEQ_NEW,  /* the highest so far */
	PB_SEQ_LATE, /* filled a gap */
	PB_SEQ_DUP,  /* seen before */
};

static __always_inline enum pb_seq_kind pb_seq_update(struct pb_seq *s, __u32 seq)
{
	__s32 d = (__s32)(seq - s->next);
	__u32 back;

	if (d >= 0) {
		/* d numbers skipped; the window moves up by d + 1 */
		s->missing += (__u32)d;
		s->window = (__u32)d >= PB_SEQ_WINDOW - 1 ? 1 : s->window << ((__u32)d + 1) | 1;
		s->next = seq + 1;
		s->received++;
		return PB_SEQ_NEW;
	}
	back = (__u32)(-(d + 1)); /* seq = next - 1 - back */
	if (back < PB_SEQ_WINDOW) {
		if (s->window & (1ull << back)) {
			s->dup++;
			return PB_SEQ_DUP;
		}
		s->window |= 1ull << back;
	} else if (!s->missing) {
		s->dup++; /* no gap left to fill: it was here before */
		return PB_SEQ_DUP;
	}
	s->missing--;
	s->late++;
	s->received++;
	return PB_SEQ_LATE;
}

/*
 * Timestamps travel as nanoseconds modulo 2^48 (78 hours). A latency is the difference of
 * two such values modulo 2^48; above 2^47 it was negative: the clocks disagree.
 */
#define PB_TS_BITS 48
#define PB_TS_MASK ((1ull << PB_TS_BITS) - 1)

static __always_inline __u64 pb_ts_diff(__u64 rx, __u64 tx)
{
	return (rx - tx) & PB_TS_MASK;
}

static __always_inline int pb_ts_negative(__u64 diff)
{
	return diff >> (PB_TS_BITS - 1);
}

/*
 * RFC 3550 interarrival jitter (6.4.1, A.8) in integer nanoseconds: with transit = arrival -
 * send time (any offset between the clocks cancels), D = transit_i - transit_{i-1} and
 * J += (|D| - J) / 16, the division truncating toward zero.
 */
struct pb_jitter {
	__u64 prev_transit; /* the previous probe's transit, modulo 2^48 */
	__u64 j;	    /* nanoseconds */
	__u64 n;	    /* probes that went into it */
};

static __always_inline void pb_jitter_update(struct pb_jitter *jt, __u64 transit)
{
	__u64 d;

	if (jt->n++) {
		d = pb_ts_diff(transit, jt->prev_transit);
		if (pb_ts_negative(d))
			d = (PB_TS_MASK + 1) - d; /* |D| */
		if (d >= jt->j)
			jt->j += (d - jt->j) / 16;
		else
			jt->j -= (jt->j - d) / 16;
	}
	jt->prev_transit = transit;
}

#endif
