// SPDX-License-Identifier: MIT
/*
 * Unit test of the receiver's reader (receiver/rx_sum.c) against a model of the BPF side:
 * one CPU counts run A in its slot, flushes it to the runs map step by step (as
 * bpf/receiver.bpf.c does), counts B in the slot and A in the map. A reader's three reads
 * (slot, entry, slot) are taken at every ordered triple of those states: whatever it accepts
 * must lie between the true counts at its first and last read, and every retry must end.
 */
#include <stdio.h>
#include <string.h>

#include "rx_sum.h"
#include "check.h"

#define RUN_A 0xa1a1a1a1u
#define RUN_B 0x00b2b2b2u

/* One CPU's view: its slot and its runs entries for A and B (have_*: the entry exists). */
struct cpu_state {
	struct pb_rx_slot slot;
	struct pb_rx_val a, b;
	bool have_a, have_b;
	uint64_t true_a; /* frames of A this CPU has counted, wherever they are */
};

#define MAX_STATES 64
static struct cpu_state timeline[MAX_STATES];
static int nstates;

static void snap(const struct cpu_state *s)
{
	timeline[nstates++] = *s;
}

static void count(struct pb_rx_val *v, uint64_t t, uint32_t queue)
{
	if (!v->frames)
		v->first_ns = t;
	v->last_ns = t;
	v->frames++;
	v->bytes += 60;
	v->queue_frames[queue]++;
}

/* The flush of the BPF side, one state per step a remote reader could see. */
static void flush_to(struct cpu_state *s, uint32_t run)
{
	struct pb_rx_val *to = (uint32_t)s->slot.tag == RUN_A ? &s->a : &s->b;
	bool *have = to == &s->a ? &s->have_a : &s->have_b;
	uint32_t q;

	*have = true; /* run_entry() before the seq goes odd */
	snap(s);
	s->slot.seq++;
	snap(s);
	/* the merge, field by field: a reader may copy the entry half added */
	to->frames += s->slot.val.frames;
	snap(s);
	to->bytes += s->slot.val.bytes;
	for (q = 0; q < PB_BPF_MAX_QUEUES; q++)
		to->queue_frames[q] += s->slot.val.queue_frames[q];
	if (!to->first_ns || s->slot.val.first_ns < to->first_ns)
		to->first_ns = s->slot.val.first_ns;
	to->last_ns = s->slot.val.last_ns > to->last_ns ? s->slot.val.last_ns : to->last_ns;
	snap(s);
	memset(&s->slot.val, 0, sizeof(s->slot.val));
	snap(s);
	s->slot.tag = PB_BPF_SLOT_TAG(run);
	snap(s);
	s->slot.seq++;
	snap(s);
}

static void build_timeline(void)
{
	struct cpu_state s;
	uint64_t t = 1000;
	int i;

	memset(&s, 0, sizeof(s));
	nstates = 0;
	snap(&s); /* nothing yet */
	s.slot.tag = PB_BPF_SLOT_TAG(RUN_A);
	s.slot.seq = 2;
	snap(&s);
	for (i = 0; i < 3; i++) {
		count(&s.slot.val, t++, 0);
		s.true_a++;
		snap(&s);
	}
	flush_to(&s, RUN_B); /* A idle: B takes the slot */
	count(&s.slot.val, t++, 1);
	snap(&s);
	s.have_a = true;
	count(&s.a, t++, 1); /* A again, while B holds the slot: straight to the map */
	s.true_a++;
	snap(&s);
	flush_to(&s, RUN_A); /* B idle: A takes it back */
	for (i = 0; i < 2; i++) {
		count(&s.slot.val, t++, 0);
		s.true_a++;
		snap(&s);
	}
}

/* Every ordered triple of states as one attempt: accepted counts are never wrong. */
static void test_every_interleaving(void)
{
	int i, j, k, accepted = 0, retried = 0, bad = 0;

	build_timeline();
	for (i = 0; i < nstates; i++)
		for (j = i; j < nstates; j++)
			for (k = j; k < nstates; k++) {
				const struct cpu_state *b = &timeline[i], *e = &timeline[j],
						       *a = &timeline[k];
				struct pb_rx_val acc;
				bool done = false, seen = false;
				int left;

				memset(&acc, 0, sizeof(acc));
				left = pb_rx_sum_take(RUN_A, 1, &b->slot, e->have_a ? &e->a : NULL,
						      &a->slot, &acc, &done, &seen);
				if (left) {
					retried++;
					CHECK(!done, "not done when left");
					continue;
				}
				accepted++;
				if (acc.frames < b->true_a || acc.frames > a->true_a) {
					if (!bad++)
						fprintf(stderr,
							"reads at %d,%d,%d: %llu frames, true "
							"%llu..%llu\n",
							i, j, k, (unsigned long long)acc.frames,
							(unsigned long long)b->true_a,
							(unsigned long long)a->true_a);
				}
				/* bytes and queues move with the frames in this model */
				if (acc.bytes != 60 * acc.frames ||
				    acc.queue_frames[0] + acc.queue_frames[1] != acc.frames)
					bad++;
				CHECK(seen == (b->true_a > 0 || e->have_a || i > 0),
				      "seen at %d,%d,%d", i, j, k);
			}
	CHECK(bad == 0, "%d accepted reads outside the true counts", bad);
	CHECK(accepted > 0 && retried > 0, "both cases met: %d accepted, %d retried", accepted,
	      retried);
	/* the same state three times is always accepted, and exact */
	for (i = 0; i < nstates; i++) {
		const struct cpu_state *s = &timeline[i];
		struct pb_rx_val acc;
		bool done = false, seen = false;
		int left = pb_rx_sum_take(RUN_A, 1, &s->slot, s->have_a ? &s->a : NULL, &s->slot,
					  &acc, &done, &seen);

		if (s->slot.seq & 1) {
			CHECK(left == 1, "state %d: odd seq must be retried", i);
			continue;
		}
		CHECK(left == 0 && acc.frames == s->true_a, "state %d: %llu frames, true %llu", i,
		      (unsigned long long)acc.frames, (unsigned long long)s->true_a);
	}
}

/* Two CPUs: one flushing, one quiet. The quiet one's first count is kept across a retry. */
static void test_retry_keeps_done_cpus(void)
{
	struct pb_rx_slot before[2], after[2];
	struct pb_rx_val entry[2], acc[2];
	bool done[2] = { false, false }, seen = false;
	int left;

	memset(before, 0, sizeof(before));
	memset(entry, 0, sizeof(entry));
	memset(acc, 0, sizeof(acc));
	before[0].tag = before[1].tag = PB_BPF_SLOT_TAG(RUN_A);
	before[0].seq = 4;
	before[1].seq = 6;
	count(&before[0].val, 10, 0);
	count(&before[1].val, 11, 1);
	count(&before[1].val, 12, 1);
	entry[0].frames = 5;
	entry[1].frames = 7;
	memcpy(after, before, sizeof(after));
	after[0].seq = 5; /* CPU 0 began a flush in between */
	left = pb_rx_sum_take(RUN_A, 2, before, entry, after, acc, done, &seen);
	CHECK(left == 1 && !done[0] && done[1], "first attempt: CPU 1 only (left %d)", left);
	CHECK(acc[1].frames == 9, "CPU 1: entry 7 + slot 2 = %llu",
	      (unsigned long long)acc[1].frames);
	CHECK(seen, "seen");

	/* second attempt: CPU 0 flushed (entry 6, slot B now); CPU 1 has counted more since */
	before[0].seq = after[0].seq = 6;
	before[0].tag = after[0].tag = PB_BPF_SLOT_TAG(RUN_B);
	entry[0].frames = 6;
	entry[1].frames = 100;
	left = pb_rx_sum_take(RUN_A, 2, before, entry, before, acc, done, &seen);
	CHECK(left == 0 && done[0], "second attempt completes (left %d)", left);
	CHECK(acc[0].frames == 6, "CPU 0: entry only, the slot holds B: %llu",
	      (unsigned long long)acc[0].frames);
	CHECK(acc[1].frames == 9, "CPU 1 kept from the first attempt: %llu",
	      (unsigned long long)acc[1].frames);
}

/* A run never seen: no entry, no slot: zero counts and not seen; another run's slot ignored. */
static void test_unseen(void)
{
	struct pb_rx_slot s[2];
	struct pb_rx_val acc[2];
	bool done[2] = { false, false }, seen = false;
	struct pb_rx_run r;

	memset(s, 0, sizeof(s));
	memset(acc, 0xff, sizeof(acc));
	s[1].tag = PB_BPF_SLOT_TAG(RUN_B);
	count(&s[1].val, 5, 0);
	CHECK(pb_rx_sum_take(RUN_A, 2, s, NULL, s, acc, done, &seen) == 0, "done at once");
	CHECK(!seen, "a run never seen is not seen");
	memset(&r, 0, sizeof(r));
	pb_rx_sum_total(acc, 2, 2, &r);
	CHECK(r.frames == 0 && r.bytes == 0 && r.first_ns == 0 && r.last_ns == 0 &&
		      r.flows_seen == 0 && r.nqueues == 2,
	      "zero counts");
	/* run id 0 is a run like any other, not the empty slot (tag 0) */
	memset(done, 0, sizeof(done));
	s[0].tag = PB_BPF_SLOT_TAG(0);
	CHECK(pb_rx_sum_take(0, 2, s, NULL, s, acc, done, &seen) == 0 && seen, "run id 0 seen");
	memset(done, 0, sizeof(done));
	seen = false;
	s[0].tag = 0;
	CHECK(pb_rx_sum_take(0, 2, s, NULL, s, acc, done, &seen) == 0 && !seen,
	      "an empty slot is not run id 0");
}

static void test_total(void)
{
	struct pb_rx_val acc[3];
	struct pb_rx_run r;

	memset(acc, 0, sizeof(acc));
	acc[0] = (struct pb_rx_val){
		.frames = 10, .bytes = 600, .first_ns = 50, .last_ns = 90, .flows = 3
	};
	acc[0].queue_frames[0] = 10;
	/* CPU 1 counted nothing: its zero times must not win the minimum */
	acc[2] = (struct pb_rx_val){
		.frames = 4, .bytes = 256, .first_ns = 40, .last_ns = 70, .flows = 1
	};
	acc[2].queue_frames[1] = 3;
	acc[2].queue_frames[63] = 1;
	pb_rx_sum_total(acc, 3, 100, &r);
	CHECK(r.frames == 14 && r.bytes == 856, "frames %llu bytes %llu",
	      (unsigned long long)r.frames, (unsigned long long)r.bytes);
	CHECK(r.first_ns == 40 && r.last_ns == 90, "first %llu last %llu",
	      (unsigned long long)r.first_ns, (unsigned long long)r.last_ns);
	CHECK(r.flows_seen == 4, "flows %u", r.flows_seen);
	CHECK(r.nqueues == PB_RX_MAX_QUEUES, "nqueues capped: %u", r.nqueues);
	CHECK(r.queue_frames[0] == 10 && r.queue_frames[1] == 3 && r.queue_frames[63] == 1,
	      "queues");
}

/*
 * The sequence verdicts sum over the CPUs too: a CPU that saw only duplicates (no frame) has
 * counts, and a stray one CPU counted and another took back by a resync (stray - 1, modulo
 * 2^64) nets to what the window said; a slot merged into its entry keeps them.
 */
static void test_seq_counts(void)
{
	struct pb_rx_val acc[3], to;
	struct pb_rx_run r;

	memset(acc, 0, sizeof(acc));
	acc[0] = (struct pb_rx_val){ .frames = 10, .late = 2, .stray = 1, .unchecked = 3 };
	acc[1] = (struct pb_rx_val){ .dup = 7 };
	acc[2] = (struct pb_rx_val){ .frames = 2, .stray = (uint64_t)-1, .dup = 1 };
	pb_rx_sum_total(acc, 3, 1, &r);
	CHECK(r.frames == 12 && r.dup == 8 && r.late == 2 && r.stray == 0 && r.unchecked == 3,
	      "frames %llu dup %llu late %llu stray %llu unchecked %llu",
	      (unsigned long long)r.frames, (unsigned long long)r.dup, (unsigned long long)r.late,
	      (unsigned long long)r.stray, (unsigned long long)r.unchecked);
	memset(&to, 0, sizeof(to));
	pb_rx_val_merge(&to, &acc[1]);
	pb_rx_val_merge(&to, &acc[0]);
	CHECK(to.frames == 10 && to.dup == 7 && to.late == 2 && to.stray == 1 &&
		      to.unchecked == 3 && pb_rx_val_any(&acc[1]),
	      "merged: a slot of duplicates alone is kept");
}

/* A listing that started over: every id once, in order, run id 0 and UINT32_MAX kept. */
static void test_ids_unique(void)
{
	uint32_t ids[] = { 7, 3, 0xffffffffu, 7, 0, 3, 3, 9, 0 };
	uint32_t want[] = { 0, 3, 7, 9, 0xffffffffu }, one = 5;
	uint32_t n = pb_rx_ids_unique(ids, sizeof(ids) / sizeof(ids[0]));

	CHECK(n == 5 && !memcmp(ids, want, sizeof(want)), "unique ids: %u", n);
	CHECK(pb_rx_ids_unique(&one, 1) == 1 && one == 5, "one id");
	CHECK(pb_rx_ids_unique(NULL, 0) == 0, "no ids");
}

int main(void)
{
	test_every_interleaving();
	test_retry_keeps_done_cpus();
	test_unseen();
	test_total();
	test_seq_counts();
	test_ids_unique();
	return check_summary();
}
