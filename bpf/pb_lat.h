/* SPDX-License-Identifier: MIT */
/*
 * Latency probes' arithmetic, shared by the receiver's BPF program and user space (the
 * percentiles, the unit tests), so a test checks the very code the receiver runs: the
 * log-linear histogram's buckets, a stream's sequence window (received, late, duplicate,
 * missing, stray) and RFC 3550's interarrival jitter. Plain UAPI types, no calls, bounded loops
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
 * A stream's probe sequence as the receiver sees it. Numbers start at 0 for every stream of
 * every run and compare in serial number arithmetic (RFC 1982, 32 bits), so they wrap after
 * 2^32 probes without a false gap. The receiver holds a window of the PB_SEQ_WINDOW numbers up
 * to the highest seen, one bit each, which tells a late probe (its bit clear: it fills a gap)
 * from a duplicate (its bit set), as RFC 4303 3.4.3's anti-replay window does. The bits are a
 * ring of PB_SEQ_WORDS words, word n / 64 for number n (RFC 6479): moving the window up clears
 * the words of the blocks of 64 it enters, no shift, no per-bit loop (the verifier's limits),
 * and one word holds the highest number's own block, so the window is one word short of the
 * ring.
 *
 * A probe 1 .. PB_SEQ_WINDOW ahead of the highest moves the window up; the numbers it skips
 * are missing until they arrive. Anything else, a number behind the window (or before 0) or
 * farther ahead, is out of the window ("stray"): counted apart, not received, and it moves
 * nothing, so one probe forged far ahead makes no later one late, and an old duplicate is
 * never taken for a gap filled. A jump ahead is bounded so: at most PB_SEQ_WINDOW numbers,
 * which stay in the window, so what a forged probe inside the bound opens, the real ones fill.
 *
 * A real loss of more than PB_SEQ_WINDOW probes in a row must not leave the stream out of the
 * window for good: two out-of-window probes in a row, the second the first plus one, restart
 * the window there (RFC 3550 A.1's resync). Both count as received; the numbers skipped by
 * that jump are not in missing (a sender's lost, its sent minus received, has them). A pair
 * up to PB_SEQ_FAR behind the highest (late, or old duplicates) never pulls it back; so two
 * probes forged in a row can put the window at most that far from the real ones, which are
 * then out of it until they catch up, and one forged beyond it only until two real ones follow.
 */
#define PB_SEQ_WORDS  16u
#define PB_SEQ_WINDOW ((PB_SEQ_WORDS - 1) * 64)
#define PB_SEQ_FAR    65536u

#define PB_SEQ_ARMED 1u /* the last probe was out of the window and far: resync waits at it + 1 */

struct pb_seq {
	__u32 next;   /* the highest sequence number seen, plus one; 0 with none yet */
	__u32 depth;  /* numbers up to the highest that the window holds (<= PB_SEQ_WINDOW) */
	__u32 resync; /* with PB_SEQ_ARMED: the number that restarts the window */
	__u32 flags;
	__u64 window[PB_SEQ_WORDS]; /* bit n % 64 of word (n / 64) % PB_SEQ_WORDS: n arrived */
	__u64 received; /* distinct probes */
	__u64 late;	/* arrived after a higher number did, and filled its gap (reordered) */
	__u64 dup;	/* arrived again */
	__u64 missing;	/* numbers skipped and not filled (yet) */
	__u64 stray;	/* out of the window: too old to tell, before 0, or too far ahead */
};

enum pb_seq_kind {
	PB_SEQ_NEW,    /* the highest so far */
	PB_SEQ_LATE,   /* filled a gap */
	PB_SEQ_DUP,    /* seen before */
	PB_SEQ_STRAY,  /* out of the window: not received, nothing moved */
	PB_SEQ_RESYNC, /* the window restarted here: this one and the stray before it received */
};

static __always_inline __u64 *pb_seq_word(struct pb_seq *s, __u32 seq)
{
	return &s->window[(seq / 64) & (PB_SEQ_WORDS - 1)];
}

static __always_inline enum pb_seq_kind pb_seq_update(struct pb_seq *s, __u32 seq)
{
	__u32 top = s->next - 1, ahead = seq - top, back = top - seq, armed = s->flags;
	__u32 blocks = (seq / 64 - top / 64) & (~0u / 64), k; /* block numbers wrap at 2^26 */
	__u64 *w, bit = 1ull << (seq % 64);

	s->flags = 0;
	if (ahead >= 1 && ahead <= PB_SEQ_WINDOW) {
		/*
		 * ahead - 1 numbers skipped; the blocks entered (at most PB_SEQ_WORDS - 1) held
		 * numbers a ring ago. Above the highest, its own block has no bit set.
		 */
		for (k = 1; k < PB_SEQ_WORDS && k <= blocks; k++)
			s->window[(top / 64 + k) & (PB_SEQ_WORDS - 1)] = 0;
		*pb_seq_word(s, seq) |= bit;
		s->missing += ahead - 1;
		s->depth = s->depth + ahead < PB_SEQ_WINDOW ? s->depth + ahead : PB_SEQ_WINDOW;
		s->next = seq + 1;
		s->received++;
		return PB_SEQ_NEW;
	}
	if (back < s->depth) {
		w = pb_seq_word(s, seq);
		if (*w & bit) {
			s->dup++;
			return PB_SEQ_DUP;
		}
		*w |= bit;
		s->missing--; /* a clear bit within depth is a number counted missing */
		s->late++;
		s->received++;
		return PB_SEQ_LATE;
	}
	if ((armed & PB_SEQ_ARMED) && seq == s->resync) {
		/* the window starts again at seq, with seq - 1 (the stray before) in it */
		for (k = 0; k < PB_SEQ_WORDS; k++)
			s->window[k] = 0;
		*pb_seq_word(s, seq - 1) |= 1ull << ((seq - 1) % 64);
		*pb_seq_word(s, seq) |= bit;
		s->depth = 2;
		s->next = seq + 1;
		s->stray--;
		s->received += 2;
		return PB_SEQ_RESYNC;
	}
	/* a number just behind the window (a late pair, an old duplicate) never restarts it */
	if (back > PB_SEQ_FAR) {
		s->flags = PB_SEQ_ARMED;
		s->resync = seq + 1;
	}
	s->stray++;
	return PB_SEQ_STRAY;
}

/*
 * A window that starts at seq, where earlier numbers of the stream may still arrive (a
 * receiver's per-CPU window of frames, taken in the middle of a run): the PB_SEQ_WINDOW numbers
 * up to seq (none before 0) are open, so one of them arriving later is late, not stray.
 */
static __always_inline void pb_seq_start(struct pb_seq *s, __u32 seq)
{
	__u32 k;

	for (k = 0; k < PB_SEQ_WORDS; k++)
		s->window[k] = 0;
	*pb_seq_word(s, seq) |= 1ull << (seq % 64);
	s->next = seq + 1;
	s->depth = seq < PB_SEQ_WINDOW ? seq + 1 : PB_SEQ_WINDOW;
	s->flags = 0;
	s->missing = s->depth - 1;
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
