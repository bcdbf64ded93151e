// SPDX-License-Identifier: MIT
/*
 * af_xdp's multi-buffer frames without a device (af_xdp.h): the descriptors a frame takes,
 * the chain written into the TX ring (every chunk but the last full and marked
 * XDP_PKT_CONTD, across the ring's wrap), and the completions counted back into frames, a
 * frame only once all of its descriptors came back.
 */
#include <stdint.h>
#include <string.h>

#include "af_xdp.h"
#include "check.h"

static void test_descs(void)
{
	CHECK(pb_af_xdp_descs(60, 2048) == 1, "60 in 2048");
	CHECK(pb_af_xdp_descs(2048, 2048) == 1, "2048 in 2048");
	CHECK(pb_af_xdp_descs(4096, 4096) == 1, "4096 in 4096");
	CHECK(pb_af_xdp_descs(4097, 4096) == 2, "4097 in 4096");
	CHECK(pb_af_xdp_descs(8192, 4096) == 2, "8192 in 4096");
	CHECK(pb_af_xdp_descs(9000, 4096) == 3, "9000 in 4096");
	CHECK(pb_af_xdp_descs(9216, 4096) == 3, "9216 (PB_FRAME_MAX) in 4096");
	CHECK(pb_af_xdp_descs(18 * 4096, 4096) == PB_AF_XDP_COPY_SEGS, "the copy-mode limit");
}

/* A TX ring of 8 descriptors, its memory ours: the chain as the kernel would read it. */
static void test_chain(void)
{
	struct xdp_desc descs[8];
	struct xsk_ring_prod tx = { .mask = 7, .size = 8, .ring = descs };
	uint64_t addr = 3 * 3 * 4096; /* slot 3 of 3-chunk slots */
	uint32_t n;

	memset(descs, 0xff, sizeof(descs));
	/* from index 6: 6, 7, then 0 after the wrap */
	n = pb_af_xdp_chain(&tx, 6, addr, 9000, 4096);
	CHECK(n == 3, "9000 bytes: %u descriptors", n);
	CHECK(descs[6].addr == addr && descs[6].len == 4096 && descs[6].options == XDP_PKT_CONTD,
	      "first: %llu %u %u", (unsigned long long)descs[6].addr, descs[6].len,
	      descs[6].options);
	CHECK(descs[7].addr == addr + 4096 && descs[7].len == 4096 &&
		      descs[7].options == XDP_PKT_CONTD,
	      "second: %llu %u %u", (unsigned long long)descs[7].addr, descs[7].len,
	      descs[7].options);
	CHECK(descs[0].addr == addr + 8192 && descs[0].len == 9000 - 8192 && descs[0].options == 0,
	      "last, after the wrap: %llu %u %u", (unsigned long long)descs[0].addr, descs[0].len,
	      descs[0].options);
	CHECK(descs[1].len == 0xffffffffu, "nothing past the chain");

	/* exactly two chunks: the second full, and the end */
	n = pb_af_xdp_chain(&tx, 2, 0, 8192, 4096);
	CHECK(n == 2 && descs[2].options == XDP_PKT_CONTD && descs[3].len == 4096 &&
		      descs[3].options == 0,
	      "8192 bytes: %u descriptors, %u %u", n, descs[3].len, descs[3].options);

	/* one chunk: one plain descriptor, as without multi-buffer */
	n = pb_af_xdp_chain(&tx, 4, 4096, 1518, 4096);
	CHECK(n == 1 && descs[4].addr == 4096 && descs[4].len == 1518 && descs[4].options == 0,
	      "1518 bytes: %u descriptors", n);
}

static void test_chains(void)
{
	uint8_t ring[4];
	struct pb_af_xdp_chains c = { .descs = ring, .mask = 3 };
	uint32_t i, sent = 0;

	pb_af_xdp_chains_push(&c, 3);
	pb_af_xdp_chains_push(&c, 3);
	pb_af_xdp_chains_push(&c, 2);
	CHECK(pb_af_xdp_chains_inflight(&c) == 3, "3 frames in flight");
	CHECK(pb_af_xdp_chains_complete(&c, 2) == 0, "2 of 3 descriptors: no frame");
	CHECK(pb_af_xdp_chains_complete(&c, 1) == 1, "the 3rd: the first frame");
	CHECK(pb_af_xdp_chains_complete(&c, 4) == 1, "4 more: the second frame, half the third");
	CHECK(pb_af_xdp_chains_inflight(&c) == 1, "1 frame in flight");
	CHECK(pb_af_xdp_chains_complete(&c, 0) == 0, "nothing more: nothing");
	CHECK(pb_af_xdp_chains_complete(&c, 1) == 1, "the rest of the third");
	CHECK(pb_af_xdp_chains_inflight(&c) == 0 && c.done == 0, "none in flight, none left");

	/* many laps of the ring, completions in odd lumps: every frame counted once */
	for (i = 0; i < 1000; i++) {
		pb_af_xdp_chains_push(&c, 1 + i % 3);
		if (pb_af_xdp_chains_inflight(&c) == 4 || i == 999)
			while (pb_af_xdp_chains_inflight(&c))
				sent += pb_af_xdp_chains_complete(&c, 2);
	}
	CHECK(sent == 1000, "1000 frames over the laps: %u", sent);
}

int main(void)
{
	test_descs();
	test_chain();
	test_chains();
	return check_summary();
}
