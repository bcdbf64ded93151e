// SPDX-License-Identifier: MIT
/*
 * Latency probes' arithmetic, the code the receiver's BPF program runs (bpf/pb_lat.h) and
 * what user space makes of it (harness/latency.c): histogram buckets and their bounds;
 * percentiles against a naive sort of the same samples; a stream's sequence window (gaps,
 * late, duplicate) on hand-made sequences; RFC 3550 jitter against a plain re-reading of the
 * formula; the row's figures from a receiver's counts, the clock rule included.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "latency.h"
#include "pb_lat.h"
#include "rx_source.h"
#include "check.h"

static uint64_t rng = 88172645463325252ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void test_buckets(void)
{
	uint64_t v, bad = 0, worst_v = 0;
	double worst = 0;
	uint32_t b, prev = 0;
	int i;

	CHECK(PB_HIST_BUCKETS == 3584, "3584 buckets, got %u", PB_HIST_BUCKETS);
	/* contiguous: each bucket starts where the last one ended */
	CHECK(pb_hist_lower(0) == 0, "bucket 0 starts at 0");
	for (b = 0; b + 1 < PB_HIST_BUCKETS; b++)
		bad += pb_hist_lower(b + 1) != pb_hist_upper(b) + 1 ||
		       pb_hist_upper(b) < pb_hist_lower(b);
	CHECK(bad == 0, "%llu buckets not contiguous", (unsigned long long)bad);
	CHECK(pb_hist_upper(PB_HIST_BUCKETS - 1) == (1ull << PB_HIST_MAX_BITS) - 1,
	      "the last bucket ends at 2^34 - 1, got %llu",
	      (unsigned long long)pb_hist_upper(PB_HIST_BUCKETS - 1));
	/* every value in its bucket, monotonic, within 1/128 of the upper bound */
	for (v = 0, bad = 0; v < (1u << 20); v++) {
		b = pb_hist_bucket(v);
		bad += b < prev || v < pb_hist_lower(b) || v > pb_hist_upper(b);
		prev = b;
		if (v >= 1 && (double)(pb_hist_upper(b) - v) / v > worst) {
			worst = (double)(pb_hist_upper(b) - v) / v;
			worst_v = v;
		}
	}
	for (i = 0; i < 1000000; i++) {
		v = rnd() >> (30 + rnd() % 34); /* every magnitude up to 2^34 */
		v = v ? v : 1;
		b = pb_hist_bucket(v);
		bad += v < pb_hist_lower(b) || v > pb_hist_upper(b);
		if ((double)(pb_hist_upper(b) - v) / v > worst) {
			worst = (double)(pb_hist_upper(b) - v) / v;
			worst_v = v;
		}
	}
	CHECK(bad == 0, "%llu values outside their bucket", (unsigned long long)bad);
	CHECK(worst < 1.0 / 128, "relative error %.5f at %llu ns: more than 1/128", worst,
	      (unsigned long long)worst_v);
	CHECK(pb_hist_bucket(255) == 255 && pb_hist_bucket(256) == 256, "exact below 256 ns");
	CHECK(pb_hist_bucket(1000) != pb_hist_bucket(1010), "1 us and 1.01 us apart");
	CHECK(pb_hist_bucket(10000000000ull) != pb_hist_bucket(10100000000ull),
	      "10 s and 10.1 s apart");
	CHECK(pb_hist_bucket(1ull << 40) == PB_HIST_BUCKETS - 1 &&
		      pb_hist_bucket(UINT64_MAX) == PB_HIST_BUCKETS - 1,
	      "beyond 17 s: the last bucket");
	CHECK(pb_msb64(1) == 0 && pb_msb64(0x8000000000000000ull) == 63 && pb_msb64(1000) == 9,
	      "the highest bit by halving");
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* One distribution: the histogram's percentiles against the sorted samples themselves. */
static void quantiles_case(const char *name, uint64_t *v, uint32_t n)
{
	static const double ps[] = { 0.001, 0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0 };
	static uint64_t counts[PB_HIST_BUCKETS];
	uint64_t lo = UINT64_MAX, hi = 0;
	uint32_t i;

	memset(counts, 0, sizeof(counts));
	for (i = 0; i < n; i++) {
		counts[pb_hist_bucket(v[i])]++;
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		uint64_t rank = (uint64_t)ceil(ps[i] * n - 1e-9), naive, h;

		rank = rank < 1 ? 1 : rank;
		naive = v[rank - 1];
		h = pb_hist_quantile(counts, n, ps[i], lo, hi);
		CHECK(h >= naive && (double)(h - naive) <= naive / 128.0,
		      "%s: p%g of %u: histogram %llu ns, sorted %llu ns", name, ps[i] * 100, n,
		      (unsigned long long)h, (unsigned long long)naive);
	}
}

static void test_quantiles(void)
{
	static uint64_t v[200000];
	static uint64_t counts[PB_HIST_BUCKETS];
	uint32_t i;

	for (i = 0; i < 100000; i++)
		v[i] = 1000 + rnd() % 9000000; /* 1 us .. 9 ms, uniform */
	quantiles_case("uniform", v, 100000);
	for (i = 0; i < 200000; i++) /* log-uniform: 1 us .. 10 s */
		v[i] = (uint64_t)(1000 * pow(10, (rnd() % 1000000) / 1e6 * 7));
	quantiles_case("log-uniform", v, 200000);
	for (i = 0; i < 5000; i++) /* two modes: 20 us and 6 ms (a queue) */
		v[i] = i % 10 ? 6000000 + rnd() % 100000 : 20000 + rnd() % 500;
	quantiles_case("bimodal", v, 5000);
	for (i = 0; i < 7; i++)
		v[i] = 123456 * (i + 1);
	quantiles_case("seven", v, 7);
	v[0] = 42;
	quantiles_case("one", v, 1);
	for (i = 0; i < 1000; i++)
		v[i] = 100 + i % 50; /* below 256 ns: exact */
	quantiles_case("exact", v, 1000);

	memset(counts, 0, sizeof(counts));
	CHECK(pb_hist_quantile(counts, 0, 0.5, 0, UINT64_MAX) == 0, "no samples: 0");
	counts[pb_hist_bucket(5000000)] = 10;
	CHECK(pb_hist_quantile(counts, 10, 0.5, 5000000, 5000000) == 5000000,
	      "clamped to the exact extremes");
	{
		struct pb_hist_pair *pairs;
		uint32_t np;

		counts[pb_hist_bucket(1000)] = 3;
		CHECK(!pb_hist_pairs(counts, &pairs, &np) && np == 2 &&
			      pairs[0].upper_ns == pb_hist_upper(pb_hist_bucket(1000)) &&
			      pairs[0].count == 3 && pairs[1].count == 10,
		      "pairs: the buckets that hold samples, ascending");
		free(pairs);
	}
}

struct seq_case {
	const char *name;
	uint32_t seqs[16];
	uint32_t n;
	uint64_t received, late, dup, missing;
};

/*
 * A fresh stream brought to its highest number n the way a receiver can be: two probes far
 * from it in a row restart the window (twice, so any n is reached from 0's start).
 */
static void seq_start_at(struct pb_seq *s, uint32_t n)
{
	memset(s, 0, sizeof(*s));
	pb_seq_update(s, n ^ 0x80000000u);
	pb_seq_update(s, (n ^ 0x80000000u) + 1);
	pb_seq_update(s, n - 1);
	pb_seq_update(s, n);
}

static void test_sequences(void)
{
	static const struct seq_case cases[] = {
		{ "in order", { 0, 1, 2, 3 }, 4, 4, 0, 0, 0 },
		{ "a gap that stays", { 0, 1, 3, 4 }, 4, 4, 0, 0, 1 },
		{ "head lost", { 3, 4 }, 2, 2, 0, 0, 3 },
		{ "a swap", { 0, 2, 1, 3 }, 4, 4, 1, 0, 0 },
		{ "a duplicate", { 0, 1, 1, 2 }, 4, 3, 0, 1, 0 },
		{ "a duplicate of the highest", { 0, 1, 2, 2, 2 }, 5, 3, 0, 2, 0 },
		{ "late, then again", { 0, 2, 1, 1 }, 4, 3, 1, 1, 0 },
		{ "late by 40", { 0, 41, 1, 2 }, 4, 4, 2, 0, 38 },
		{ "late by 63 (the window's edge)", { 0, 64, 1 }, 3, 3, 1, 0, 62 },
		{ "late by 150: a gap to fill", { 0, 151, 1 }, 3, 3, 1, 0, 149 },
		{ "a jump of the whole window", { 0, 960, 1 }, 3, 3, 1, 0, 958 },
		{ "a jump past the window: stray", { 0, 961, 1 }, 3, 2, 0, 0, 0 },
		{ "duplicates of the highest and of 0", { 0, 0, 1, 1, 0 }, 5, 2, 0, 3, 0 },
		{ "two gaps, one filled", { 0, 2, 4, 3 }, 4, 4, 1, 0, 1 },
		{ "a duplicate 39 back, gaps open", { 0, 1, 3, 40, 1 }, 5, 4, 0, 1, 37 },
	};
	struct pb_seq s;
	uint32_t i, k;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct seq_case *c = &cases[i];

		memset(&s, 0, sizeof(s));
		for (k = 0; k < c->n; k++)
			pb_seq_update(&s, c->seqs[k]);
		CHECK(s.received == c->received && s.late == c->late && s.dup == c->dup &&
			      s.missing == c->missing,
		      "%s: received %llu late %llu dup %llu missing %llu, want %llu %llu %llu %llu",
		      c->name, (unsigned long long)s.received, (unsigned long long)s.late,
		      (unsigned long long)s.dup, (unsigned long long)s.missing,
		      (unsigned long long)c->received, (unsigned long long)c->late,
		      (unsigned long long)c->dup, (unsigned long long)c->missing);
	}

	/* beyond the window with no gap left: it can only have been here before */
	memset(&s, 0, sizeof(s));
	for (k = 0; k < 100; k++)
		pb_seq_update(&s, k);
	CHECK(pb_seq_update(&s, 5) == PB_SEQ_DUP && s.dup == 1 && s.missing == 0,
	      "an old number with no gap open is a duplicate");
	CHECK(pb_seq_update(&s, 36) == PB_SEQ_DUP, "within the window its bit tells: duplicate");
	CHECK(pb_seq_update(&s, 100) == PB_SEQ_NEW && s.next == 101, "and the next is new");

	/*
	 * a gap across a word of the ring, once it has gone round: every bit of the numbers
	 * skipped is cleared (1151 is bit 63 of the word 127 set a round before)
	 */
	memset(&s, 0, sizeof(s));
	for (k = 0; k <= 1140; k++)
		pb_seq_update(&s, k);
	pb_seq_update(&s, 1160);
	CHECK(s.missing == 19, "1141..1159 skipped: missing %llu", (unsigned long long)s.missing);
	for (k = 1141; k < 1160; k++)
		CHECK(pb_seq_update(&s, k) == PB_SEQ_LATE, "%u fills its gap", k);
	CHECK(s.missing == 0 && s.late == 19 && s.dup == 0, "all filled: late %llu dup %llu",
	      (unsigned long long)s.late, (unsigned long long)s.dup);

	/* the window's edge: 960 numbers up to the highest, then stray */
	memset(&s, 0, sizeof(s));
	for (k = 0; k <= 2000; k++)
		pb_seq_update(&s, k);
	CHECK(PB_SEQ_WINDOW == 960, "the window: 15 words of the ring's 16");
	CHECK(pb_seq_update(&s, 2000 - 959) == PB_SEQ_DUP &&
		      pb_seq_update(&s, 2000 - 960) == PB_SEQ_STRAY && s.stray == 1 && s.dup == 1 &&
		      s.received == 2001,
	      "959 behind: a duplicate; 960 behind: stray");

	/* the kinds returned */
	memset(&s, 0, sizeof(s));
	CHECK(pb_seq_update(&s, 0) == PB_SEQ_NEW && pb_seq_update(&s, 2) == PB_SEQ_NEW &&
		      pb_seq_update(&s, 1) == PB_SEQ_LATE && pb_seq_update(&s, 1) == PB_SEQ_DUP,
	      "new, new, late, duplicate");

	/* sequence numbers wrap after 2^32 probes without a false gap */
	seq_start_at(&s, 0xfffffffd);
	CHECK(s.next == 0xfffffffe && s.received == 4 && s.stray == 0 && s.missing == 0,
	      "restarted at 0xfffffffd: next %#x received %llu stray %llu", s.next,
	      (unsigned long long)s.received, (unsigned long long)s.stray);
	CHECK(pb_seq_update(&s, 0xfffffffe) == PB_SEQ_NEW &&
		      pb_seq_update(&s, 0xffffffff) == PB_SEQ_NEW &&
		      pb_seq_update(&s, 0) == PB_SEQ_NEW && pb_seq_update(&s, 1) == PB_SEQ_NEW,
	      "0xfffffffe, 0xffffffff, 0, 1: each the highest");
	CHECK(s.missing == 0 && s.received == 8 && s.next == 2, "across the wrap: no gap");
	CHECK(pb_seq_update(&s, 0xffffffff) == PB_SEQ_DUP && pb_seq_update(&s, 3) == PB_SEQ_NEW &&
		      pb_seq_update(&s, 2) == PB_SEQ_LATE && s.missing == 0 && s.late == 1,
	      "across the wrap: a duplicate behind 0, a gap after it filled");

	/* random reordering within the window: every number once, nothing missing, some late */
	memset(&s, 0, sizeof(s));
	{
		uint32_t order[1000];

		for (k = 0; k < 1000; k++)
			order[k] = k;
		for (k = 0; k + 1 < 1000; k += 2) {
			if (rnd() % 3 == 0) {
				uint32_t j = k + 1 + (uint32_t)(rnd() % 20), t;

				j = j < 1000 ? j : 999;
				t = order[k];
				order[k] = order[j];
				order[j] = t;
			}
		}
		for (k = 0; k < 1000; k++)
			pb_seq_update(&s, order[k]);
		CHECK(s.received == 1000 && s.missing == 0 && s.dup == 0 && s.late > 0,
		      "shuffled: %llu received, %llu missing, %llu late",
		      (unsigned long long)s.received, (unsigned long long)s.missing,
		      (unsigned long long)s.late);
	}
}

/*
 * A receiver's per-CPU frame window taken in the middle of a run (pb_seq_start): the 960
 * numbers up to the first one it sees are open (late when they come, a duplicate the second
 * time), none before 0, and a restart's resync says so (PB_SEQ_RESYNC, not PB_SEQ_NEW).
 */
static void test_sequence_start(void)
{
	struct pb_seq s;
	uint32_t k;

	memset(&s, 0, sizeof(s));
	pb_seq_start(&s, 5000);
	CHECK(s.next == 5001 && s.depth == PB_SEQ_WINDOW, "started at 5000: next %u depth %u",
	      s.next, s.depth);
	CHECK(pb_seq_update(&s, 5000) == PB_SEQ_DUP, "5000 again: a duplicate");
	CHECK(pb_seq_update(&s, 4999) == PB_SEQ_LATE && pb_seq_update(&s, 4999) == PB_SEQ_DUP,
	      "4999 after it: late, then a duplicate");
	CHECK(pb_seq_update(&s, 5000 - 959) == PB_SEQ_LATE &&
		      pb_seq_update(&s, 5000 - 960) == PB_SEQ_STRAY,
	      "959 behind the start: late; 960: out of the window");
	CHECK(pb_seq_update(&s, 5001) == PB_SEQ_NEW, "5001: the highest");

	memset(&s, 0, sizeof(s));
	pb_seq_start(&s, 3);
	CHECK(s.depth == 4 && pb_seq_update(&s, 0) == PB_SEQ_LATE &&
		      pb_seq_update(&s, 0xffffffff) == PB_SEQ_STRAY,
	      "started at 3: 0 is late, nothing before 0 is in the window");

	/* two far ahead in a row restart the window, and say so */
	memset(&s, 0, sizeof(s));
	for (k = 0; k < 10; k++)
		pb_seq_update(&s, k);
	CHECK(pb_seq_update(&s, 100000) == PB_SEQ_STRAY &&
		      pb_seq_update(&s, 100001) == PB_SEQ_RESYNC && s.received == 12 && !s.stray,
	      "100000, 100001: the window restarts there, both received");
}

/*
 * The sequence rules of pb_lat.h read plainly, on unwrapped 64-bit numbers and a set of those
 * that arrived (tagged slots of a large ring, not the receiver's 1024-bit one): a probe 1 ..
 * PB_SEQ_WINDOW above the highest moves it; one within the window's depth behind it is late
 * (not there yet) or a duplicate; two out-of-window probes in a row, the first more than
 * PB_SEQ_FAR behind or anywhere ahead, the second the first plus one, restart the window;
 * anything else is stray.
 */
#define REF_SLOTS (1u << 20)

struct seq_ref {
	int64_t hi, start; /* the highest; the lowest number the window may hold */
	bool armed;
	int64_t resync;
	uint64_t received, late, dup, missing, stray;
	int64_t *tag; /* REF_SLOTS: the number that arrived at slot v % REF_SLOTS */
};

static bool ref_has(const struct seq_ref *r, int64_t v)
{
	return r->tag[(uint64_t)v % REF_SLOTS] == v;
}

static void ref_set(struct seq_ref *r, int64_t v, bool on)
{
	r->tag[(uint64_t)v % REF_SLOTS] = on ? v : INT64_MIN;
}

static enum pb_seq_kind ref_update(struct seq_ref *r, int64_t v)
{
	bool armed = r->armed;
	int64_t x, lo;

	r->armed = false;
	if (v > r->hi && v - r->hi <= PB_SEQ_WINDOW) {
		for (x = r->hi + 1; x < v; x++)
			ref_set(r, x, false);
		r->missing += (uint64_t)(v - r->hi - 1);
		ref_set(r, v, true);
		r->hi = v;
		r->received++;
		return PB_SEQ_NEW;
	}
	lo = r->hi - PB_SEQ_WINDOW + 1 > r->start ? r->hi - PB_SEQ_WINDOW + 1 : r->start;
	if (v <= r->hi && v >= lo) {
		if (ref_has(r, v)) {
			r->dup++;
			return PB_SEQ_DUP;
		}
		ref_set(r, v, true);
		r->missing--;
		r->late++;
		r->received++;
		return PB_SEQ_LATE;
	}
	if (armed && v == r->resync) {
		ref_set(r, v - 1, true);
		ref_set(r, v, true);
		r->start = v - 1;
		r->hi = v;
		r->stray--;
		r->received += 2;
		return PB_SEQ_RESYNC;
	}
	if (v > r->hi || r->hi - v > PB_SEQ_FAR) {
		r->armed = true;
		r->resync = v + 1;
	}
	r->stray++;
	return PB_SEQ_STRAY;
}

/*
 * One random stream from base (its start, unwrapped), n probes, both sides compared. Calm, the
 * events that clear the window (long losses, forged and old probes) are rare, so its ring goes
 * round many times: a bit left set from the round before shows as a duplicate.
 */
static void seq_model_case(int64_t base, uint32_t n, bool calm, int64_t *tag)
{
	struct seq_ref r = { .tag = tag };
	uint64_t r0[5];
	struct pb_seq s;
	int64_t real = base, recent[64], v;
	uint32_t i, bad = 0, nrecent = 0;
	enum pb_seq_kind kr, ks;

	for (i = 0; i < REF_SLOTS; i++)
		tag[i] = INT64_MIN;
	if (base) {
		seq_start_at(&s, (uint32_t)base);
		r.hi = base;
		r.start = base - 1;
		ref_set(&r, base - 1, true);
		ref_set(&r, base, true);
		real = base + 1;
	} else {
		memset(&s, 0, sizeof(s));
		r.hi = -1; /* numbers start at 0: nothing before it */
	}
	r0[0] = s.received - r.received;
	r0[1] = s.late;
	r0[2] = s.dup;
	r0[3] = s.missing;
	r0[4] = s.stray;
	for (i = 0; i < n && bad < 5; i++) {
		uint64_t what = rnd() % 1000;

		if (calm && ((what >= 800 && what < 830) || (what >= 900 && what < 955)) &&
		    rnd() % 50)
			what = 0;

		if (what < 700) { /* the next real one */
			v = real++;
		} else if (what < 800) { /* a few lost */
			real += 1 + (int64_t)(rnd() % 8);
			v = real++;
		} else if (what < 830) { /* a run lost: past the window, rarely past FAR */
			real += 1 + (int64_t)(rnd() % (what < 828 ? 3000 : 200000));
			v = real++;
		} else if (what < 860 && nrecent) { /* a late or repeated one, near */
			v = recent[rnd() % nrecent] - (int64_t)(rnd() % 40);
		} else if (what < 900) { /* just behind the highest: gaps just opened */
			v = r.hi - (int64_t)(rnd() % 70);
		} else if (what < 920) { /* old: near the window's edge or beyond */
			v = real - 1000 + (int64_t)(rnd() % 100) - (rnd() % 2 ? 0 : 5000);
		} else if (what < 940) { /* forged, far ahead (2^31 - 1 at most) */
			v = real + 1 + (int64_t)(rnd() % 0x7fffffffu);
		} else if (what < 950) { /* forged, far behind */
			v = real - 70000 - (int64_t)(rnd() % 0x7ffe0000u);
		} else if (what < 955) { /* a forged pair: the stream restarts there */
			v = real + (rnd() % 2 ? 2000 + (int64_t)(rnd() % 3000)
					      : 0x7fff0000ll + (int64_t)(rnd() % 0x10000));
			kr = ref_update(&r, v);
			ks = pb_seq_update(&s, (uint32_t)v);
			bad += kr != ks;
			v++;
		} else { /* a duplicate of the highest */
			v = r.hi;
		}
		kr = ref_update(&r, v);
		ks = pb_seq_update(&s, (uint32_t)v);
		if (kr != ks || s.received - r0[0] != r.received || s.late - r0[1] != r.late ||
		    s.dup - r0[2] != r.dup || s.missing - r0[3] != r.missing ||
		    s.stray - r0[4] != r.stray || s.next != (uint32_t)(r.hi + 1)) {
			bad++;
			CHECK(0,
			      "model from %#llx, probe %u (%#x, %lld from the highest): kind %d, "
			      "want %d; received %llu late %llu dup %llu missing %llu stray %llu "
			      "next %#x, want %llu %llu %llu %llu %llu %#x",
			      (unsigned long long)base, i, (uint32_t)v, (long long)(v - r.hi), ks,
			      kr, (unsigned long long)(s.received - r0[0]),
			      (unsigned long long)(s.late - r0[1]),
			      (unsigned long long)(s.dup - r0[2]),
			      (unsigned long long)(s.missing - r0[3]),
			      (unsigned long long)(s.stray - r0[4]), s.next,
			      (unsigned long long)r.received, (unsigned long long)r.late,
			      (unsigned long long)r.dup, (unsigned long long)r.missing,
			      (unsigned long long)r.stray, (uint32_t)(r.hi + 1));
		}
		if (kr == PB_SEQ_NEW || kr == PB_SEQ_RESYNC) {
			if (nrecent < 64)
				recent[nrecent++] = v;
			else
				recent[rnd() % 64] = v;
		}
	}
	CHECK(bad == 0, "model from %#llx: %u probes differ", (unsigned long long)base, bad);
}

static void test_sequence_model(void)
{
	static const int64_t bases[] = {
		0, 0xfffffffdll, 0xfffff000ll, 0xffffffffll - 2000, 0x7ffffff0ll, 12345
	};
	int64_t *tag = malloc(sizeof(*tag) * REF_SLOTS);
	uint32_t i, k;

	if (!tag) {
		CHECK(0, "out of memory");
		return;
	}
	for (k = 0; k < 4; k++)
		for (i = 0; i < sizeof(bases) / sizeof(bases[0]); i++)
			seq_model_case(bases[i], 20000, k % 2, tag);
	free(tag);
}

/*
 * Issue 44's defects, as a receiver saw them: a stream whose first probes were 0xfffffffe
 * and 0xffffffff showed missing 2^64 - 2; one probe forged 2^31 - 1 ahead made every later
 * one late; a duplicate older than the window counted as late while a gap was open.
 */
static void test_sequence_defects(void)
{
	struct pb_seq s;
	uint32_t k;

	memset(&s, 0, sizeof(s));
	pb_seq_update(&s, 0xfffffffe);
	pb_seq_update(&s, 0xffffffff);
	pb_seq_update(&s, 0);
	pb_seq_update(&s, 1);
	CHECK(s.missing == 0 && s.late == 0 && s.dup == 0 && s.received == 2,
	      "first probes 0xfffffffe, 0xffffffff, then 0, 1: received %llu late %llu dup %llu "
	      "missing %llu, want 2 0 0 0 (numbers start at 0: nothing before it is missing)",
	      (unsigned long long)s.received, (unsigned long long)s.late, (unsigned long long)s.dup,
	      (unsigned long long)s.missing);

	memset(&s, 0, sizeof(s));
	for (k = 0; k < 10; k++)
		pb_seq_update(&s, k);
	pb_seq_update(&s, 9 + 0x7fffffffu);
	for (k = 10; k < 2000; k++)
		pb_seq_update(&s, k);
	CHECK(s.late == 0 && s.missing == 0 && s.received == 2000,
	      "one probe forged 2^31 - 1 ahead: received %llu late %llu missing %llu, want 2000 "
	      "0 0",
	      (unsigned long long)s.received, (unsigned long long)s.late,
	      (unsigned long long)s.missing);

	memset(&s, 0, sizeof(s));
	pb_seq_update(&s, 0);
	for (k = 2; k < 5000; k++)
		pb_seq_update(&s, k);
	pb_seq_update(&s, 2);
	CHECK(s.late == 0 && s.missing == 1 && s.received == 4999,
	      "a duplicate far behind, gap 1 open: late %llu missing %llu received %llu, want 0 "
	      "1 4999 (it fills no gap)",
	      (unsigned long long)s.late, (unsigned long long)s.missing,
	      (unsigned long long)s.received);
}

/* RFC 3550's J += (|D| - J) / 16, read plainly in signed integers. */
static int64_t naive_jitter(const int64_t *transit, int n)
{
	int64_t j = 0, d;
	int i;

	for (i = 1; i < n; i++) {
		d = transit[i] - transit[i - 1];
		d = d < 0 ? -d : d;
		j += (d - j) / 16;
	}
	return j;
}

static void test_jitter(void)
{
	int64_t transit[2000];
	struct pb_jitter jt;
	int i;

	memset(&jt, 0, sizeof(jt));
	for (i = 0; i < 100; i++)
		pb_jitter_update(&jt, 5000000);
	CHECK(jt.j == 0 && jt.n == 100, "a constant delay has no jitter");

	/* an offset between the clocks (here 1 h, and transit modulo 2^48) cancels */
	memset(&jt, 0, sizeof(jt));
	for (i = 0; i < 2000; i++) {
		transit[i] = 20000 + (int64_t)(rnd() % 3000000) - (i % 7 == 0 ? 1500000 : 0);
		pb_jitter_update(&jt,
				 ((uint64_t)transit[i] + 3600000000000ull - 7777) & PB_TS_MASK);
	}
	CHECK((int64_t)jt.j == naive_jitter(transit, 2000),
	      "jitter %llu ns, the formula read plainly %lld ns", (unsigned long long)jt.j,
	      (long long)naive_jitter(transit, 2000));

	/* transit wrapping at 2^48 in between */
	memset(&jt, 0, sizeof(jt));
	pb_jitter_update(&jt, PB_TS_MASK - 500);
	pb_jitter_update(&jt, 1099);
	CHECK(jt.j == 1600 / 16, "across the 2^48 wrap |D| = 1600: J = 100, got %llu",
	      (unsigned long long)jt.j);

	CHECK(pb_ts_diff(1000, 400) == 600 && !pb_ts_negative(pb_ts_diff(1000, 400)), "600 ns");
	CHECK(pb_ts_negative(pb_ts_diff(400, 1000)), "sent after it arrived: negative");
	CHECK(pb_ts_diff(5, PB_TS_MASK - 4) == 10, "across the wrap");
}

/* A receiver's view of two streams, as pb_rx_read_run reports it. */
static void fill_run(struct pb_rx_run *rx, uint64_t *hist)
{
	uint32_t i;

	memset(rx, 0, sizeof(*rx));
	memset(hist, 0, sizeof(uint64_t) * PB_HIST_BUCKETS);
	rx->seen = true;
	rx->nstreams = 2;
	rx->streams[0] = (struct pb_rx_stream){ .stream = 0,
						.probe_kind = 'P',
						.probes = 100,
						.late = 2,
						.dup = 1,
						.missing = 0,
						.next_seq = 100,
						.lat_n = 100,
						.lat_min_ns = 10000,
						.lat_max_ns = 1000000,
						.lat_sum_ns = 100 * 50000ull,
						.jitter_ns = 3000,
						.jitter_n = 100 };
	rx->streams[1] = (struct pb_rx_stream){ .stream = 3,
						.probe_kind = 'P',
						.probes = 95,
						.missing = 3,
						.next_seq = 98,
						.lat_n = 94,
						.lat_bad = 1,
						.lat_min_ns = 20000,
						.lat_max_ns = 60000,
						.lat_sum_ns = 94 * 40000ull,
						.jitter_ns = 1000,
						.jitter_n = 95 };
	for (i = 0; i < 194; i++)
		hist[pb_hist_bucket(i < 190 ? 40000 : 1000000)]++;
}

static void test_compute(void)
{
	static uint64_t hist[PB_HIST_BUCKETS], gh[PB_HIST_BUCKETS];
	uint64_t sent[4] = { 100, 0, 0, 100 }, dropped[4] = { 0, 0, 0, 2 };
	struct pb_lat_input in = { .streams = 4,
				   .probes_sent = sent,
				   .probes_dropped = dropped,
				   .same_clock = true,
				   .lat_hist = hist };
	struct pb_latency lat = { .on = true };
	struct pb_gaps g = { .on = true };
	struct pb_rx_run rx;
	uint32_t i;

	fill_run(&rx, hist);
	CHECK(pb_latency_compute(&lat, &rx, &in) == 0, "computes");
	CHECK(lat.measured && lat.timed, "the lab: measured and timed (%s)", lat.why);
	CHECK(lat.probes_sent == 200 && lat.probes_received == 195 && lat.lost == 5 &&
		      lat.reordered == 2 && lat.duplicated == 1 && lat.probes_dropped == 2,
	      "sent %llu received %llu lost %llu (the lost tail counts too)",
	      (unsigned long long)lat.probes_sent, (unsigned long long)lat.probes_received,
	      (unsigned long long)lat.lost);
	CHECK(lat.nstreams == 2 && lat.streams[1].stream == 3 && lat.streams[1].lost == 5,
	      "per stream: %u, stream 3 lost 5", lat.nstreams);
	CHECK(lat.min_us == 10 && lat.max_us == 1000, "min %g max %g", lat.min_us, lat.max_us);
	CHECK(fabs(lat.mean_us - (5000000.0 + 3760000) / 194 / 1e3) < 1e-9, "mean %g", lat.mean_us);
	CHECK(fabs(lat.p50_us - 40) <= 40 / 128.0 && lat.p50_us >= 40, "p50 %g", lat.p50_us);
	CHECK(lat.p99_us == 1000 && lat.p999_us == 1000, "p99 %g p99.9 %g", lat.p99_us,
	      lat.p999_us);
	CHECK(lat.jitter_known && lat.jitter_us == 2, "jitter: the streams' mean, %g",
	      lat.jitter_us);
	CHECK(lat.clock_errors == 1 && lat.samples == 194, "clock errors and samples");
	CHECK(lat.nhist == 2 && lat.hist[0].count == 190 && lat.hist[1].count == 4,
	      "the histogram as pairs");
	pb_latency_release(&lat);

	/* another host without --synced-clocks: counts, jitter, no latency */
	in.same_clock = false;
	lat = (struct pb_latency){ .on = true };
	pb_latency_compute(&lat, &rx, &in);
	CHECK(lat.measured && !lat.timed && strstr(lat.why, "--synced-clocks") && lat.lost == 5 &&
		      lat.jitter_known,
	      "remote, unsynchronised: loss and jitter, latency null (%s)", lat.why);
	pb_latency_release(&lat);
	/* synchronised, but the receiver has no TAI */
	in.tai = true;
	lat = (struct pb_latency){ .on = true };
	pb_latency_compute(&lat, &rx, &in);
	CHECK(!lat.timed && strstr(lat.why, "TAI"), "TAI missing at the receiver (%s)", lat.why);
	pb_latency_release(&lat);
	rx.rx_tai = true;
	lat = (struct pb_latency){ .on = true };
	pb_latency_compute(&lat, &rx, &in);
	CHECK(lat.timed && lat.tai, "synchronised with TAI at both ends: timed (%s)", lat.why);
	pb_latency_release(&lat);
	/* no receiver */
	lat = (struct pb_latency){ .on = true };
	pb_latency_compute(&lat, NULL, &in);
	CHECK(!lat.measured && lat.probes_sent == 200 && lat.why[0], "no receiver: %s", lat.why);
	pb_latency_release(&lat);
	/* nothing arrived */
	memset(&rx, 0, sizeof(rx));
	in = (struct pb_lat_input){
		.streams = 4, .probes_sent = sent, .same_clock = true, .lat_hist = hist
	};
	lat = (struct pb_latency){ .on = true };
	pb_latency_compute(&lat, &rx, &in);
	CHECK(lat.measured && !lat.timed && lat.lost == 200 && strstr(lat.why, "no probe"),
	      "all lost: %llu, %s", (unsigned long long)lat.lost, lat.why);
	pb_latency_release(&lat);

	/* gaps: 10 us apart, a few bursts of back-to-back frames */
	memset(&rx, 0, sizeof(rx));
	memset(gh, 0, sizeof(gh));
	rx.nstreams = 1;
	rx.streams[0] = (struct pb_rx_stream){ .stream = 0,
					       .gap_frames = 10001,
					       .gap_first_ns = 1000000,
					       .gap_last_ns = 1000000 + 10000 * 10000ull };
	for (i = 0; i < 10000; i++)
		gh[pb_hist_bucket(10000)]++;
	in = (struct pb_lat_input){ .streams = 1, .gap_target_s = 10e-6, .gap_hist = gh };
	CHECK(pb_gaps_compute(&g, &rx, &in) == 0 && g.measured, "gaps computed (%s)", g.why);
	CHECK(g.n == 10000 && g.mean_us == 10 && g.target_us == 10, "mean %g target %g", g.mean_us,
	      g.target_us);
	CHECK(fabs(g.p1_us - 10) < 0.1 && fabs(g.p50_us - 10) < 0.1 && fabs(g.p99_us - 10) < 0.1,
	      "steady: p1 %g p50 %g p99 %g", g.p1_us, g.p50_us, g.p99_us);
	CHECK(g.cv < 0.01, "steady: cv %g", g.cv);
	pb_gaps_release(&g);
	gh[pb_hist_bucket(10000)] -= 400;
	gh[pb_hist_bucket(300)] += 200;	   /* a burst: frames 300 ns apart */
	gh[pb_hist_bucket(200000)] += 200; /* and the stalls before them */
	g = (struct pb_gaps){ .on = true };
	pb_gaps_compute(&g, &rx, &in);
	CHECK(g.p1_us < 1 && g.p99_us > 100 && g.cv > 0.5, "bursts show: p1 %g p99 %g cv %g",
	      g.p1_us, g.p99_us, g.cv);
	pb_gaps_release(&g);
}

int main(void)
{
	test_buckets();
	test_quantiles();
	test_sequences();
	test_sequence_start();
	test_sequence_defects();
	test_sequence_model();
	test_jitter();
	test_compute();
	return check_summary();
}
