// SPDX-License-Identifier: MIT
/*
 * Frame builder: built frames against golden bytes (made by an independent Python
 * implementation of the same headers, pasted below), and checksums re-verified here by a
 * second, deliberately naive routine that shares no code with frame.c. The goldens carry the
 * signature "pb", kind 'N', a stream id (0, 63, 7 and 1), then the run id.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include "frame.h"
#include "probe.h"
#include "check.h"
#include "naive_csum.h"

static const uint8_t golden_v4_18[60] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x45,
	0x00, 0x00, 0x2e, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0xae, 0x97, 0xc6, 0x12, 0x00, 0x01,
	0xc6, 0x12, 0x00, 0x02, 0x30, 0x39, 0x30, 0x39, 0x00, 0x1a, 0x14, 0x76, 0x70, 0x62, 0x4e,
	0x00, 0x01, 0x02, 0x03, 0x04, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11,
};
static const uint8_t golden_v4_8[60] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x45,
	0x00, 0x00, 0x24, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0xae, 0xa1, 0xc6, 0x12, 0x00, 0x01,
	0xc6, 0x12, 0x00, 0x02, 0x30, 0x39, 0x30, 0x39, 0x00, 0x10, 0xb6, 0xf4, 0x70, 0x62, 0x4e,
	0x3f, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};
static const uint8_t golden_v4_100[142] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x45,
	0x00, 0x00, 0x80, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0xae, 0x45, 0xc6, 0x12, 0x00, 0x01,
	0xc6, 0x12, 0x00, 0x02, 0x30, 0x39, 0x30, 0x39, 0x00, 0x6c, 0xc0, 0x4e, 0x70, 0x62, 0x4e,
	0x07, 0x01, 0x02, 0x03, 0x04, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11,
	0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x20,
	0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
	0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x3b, 0x3c, 0x3d, 0x3e,
	0x3f, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d,
	0x4e, 0x4f, 0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x5b, 0x5c,
	0x5d, 0x5e, 0x5f, 0x60, 0x61, 0x62, 0x63,
};
static const uint8_t golden_v6_18[80] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x86, 0xdd,
	0x60, 0x00, 0x00, 0x00, 0x00, 0x1a, 0x11, 0x40, 0x20, 0x01, 0x00, 0x02, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x20, 0x01, 0x00, 0x02,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x30, 0x39,
	0x30, 0x39, 0x00, 0x1a, 0x60, 0x94, 0x70, 0x62, 0x4e, 0x01, 0x01, 0x02, 0x03, 0x04,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11,
};

/* A frame's IPv4 header and UDP checksums hold when each covered sum is 0xffff. */
static void verify_checksums(const struct pb_frame *f, int family, const char *name)
{
	const uint8_t *ip = f->data + f->l3_off;

	if (family == AF_INET)
		CHECK(naive_ipv4_ok(ip), "%s: IPv4 header checksum", name);
	CHECK(naive_udp_ok(ip, family), "%s: UDP checksum", name);
	CHECK(naive_udp_nonzero(ip, family), "%s: UDP checksum is not 0", name);
}

static uint8_t frame_buf[PB_FRAME_MAX];
static struct pb_frame f_vlan;

static void build(struct pb_frame *f, uint32_t payload, uint32_t run_id, uint8_t stream, int family)
{
	struct pb_frame_spec s = {
		.dstmac = { 2, 0, 0, 0, 0, 2 },
		.srcmac = { 2, 0, 0, 0, 0, 1 },
		.srcport = 12345,
		.dstport = 12345,
		.payload_len = payload,
		.run_id = run_id,
		.stream_id = stream,
	};

	s.srcip.family = s.dstip.family = family;
	if (family == AF_INET) {
		inet_pton(AF_INET, "198.18.0.1", &s.srcip.v4);
		inet_pton(AF_INET, "198.18.0.2", &s.dstip.v4);
	} else {
		inet_pton(AF_INET6, "2001:2::1", &s.srcip.v6);
		inet_pton(AF_INET6, "2001:2::2", &s.dstip.v6);
	}
	f->data = frame_buf;
	CHECK(pb_frame_build(f, &s) == 0, "build payload %u", payload);
}

static void golden(const char *name, uint32_t payload, uint32_t run_id, uint8_t stream, int family,
		   const uint8_t *want, size_t len, uint32_t unpadded)
{
	static struct pb_frame f;
	size_t i;

	build(&f, payload, run_id, stream, family);
	CHECK(f.len == len, "%s: length %u, want %zu", name, f.len, len);
	CHECK(f.unpadded == unpadded, "%s: unpadded %u, want %u", name, f.unpadded, unpadded);
	for (i = 0; i < len && i < f.len; i++)
		if (f.data[i] != want[i])
			break;
	CHECK(i == len, "%s: byte %zu is 0x%02x, want 0x%02x", name, i, f.data[i], want[i]);
	verify_checksums(&f, family, name);
}

/* The signature as the receiver reads it: "pb", kind 'N', stream id, run id big-endian. */
static void test_signature(void)
{
	static const uint8_t want[PB_SIG_LEN] = { 'p', 'b', 'N', 42, 0x89, 0xab, 0xcd, 0xef };
	uint8_t payload[20];
	uint32_t i;

	pb_payload_fill(payload, sizeof(payload), 0x89abcdefu, 42);
	CHECK(!memcmp(payload, want, PB_SIG_LEN), "signature pb N 42 89abcdef");
	for (i = PB_SIG_LEN; i < sizeof(payload); i++)
		if (payload[i] != (uint8_t)i)
			break;
	CHECK(i == sizeof(payload), "the pattern after the signature (byte %u)", i);
}

/* The base spec of the pool tests: 198.18.0.1:12345 -> 198.18.0.2:12345, 18-byte payload. */
static struct pb_frame_spec pool_base(int family)
{
	struct pb_frame_spec s = {
		.dstmac = { 2, 0, 0, 0, 0, 2 },
		.srcmac = { 2, 0, 0, 0, 0, 1 },
		.srcport = 12345,
		.dstport = 12345,
		.payload_len = 18,
		.run_id = 7,
	};

	s.srcip.family = s.dstip.family = family;
	if (family == AF_INET) {
		inet_pton(AF_INET, "198.18.0.1", &s.srcip.v4);
		inet_pton(AF_INET, "198.18.0.2", &s.dstip.v4);
	} else {
		inet_pton(AF_INET6, "2001:2::1", &s.srcip.v6);
		inet_pton(AF_INET6, "2001:2::2", &s.dstip.v6);
	}
	return s;
}

/*
 * A 1000-flow pool: every frame's checksums hold (checked by the naive routine), every flow
 * is there once, and the order is spread: consecutive frames do not step through the ports.
 */
static void test_pool_flows(int family, bool vary_addr)
{
	struct pb_frame_spec base = pool_base(family);
	struct pb_flows fl = {
		.n = 1000, .stream = 0, .streams = 1, .vary_addr = vary_addr, .seed = 42
	};
	static uint8_t seen[65536];
	struct pb_pool pool;
	uint32_t i, distinct = 0, steps = 0, addrs = 0;
	char name[64];

	CHECK(pb_pool_build(&pool, &base, &fl) == 0 && pool.n == 1000,
	      "1000-flow pool builds, with %u frames", pool.n);
	if (pool.n != 1000)
		return;
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < pool.n; i++) {
		const struct pb_frame *f = &pool.frames[i];
		uint32_t key = f->srcport;

		/* with addresses varying, the key is the address's low 16 bits */
		if (vary_addr && family == AF_INET)
			key = ntohl(f->srcip.v4.s_addr) & 0xffffu;
		else if (vary_addr)
			key = (uint32_t)f->srcip.v6.s6_addr[14] << 8 | f->srcip.v6.s6_addr[15];

		snprintf(name, sizeof(name), "pool frame %u", i);
		verify_checksums(f, family, name);
		distinct += !seen[key]++;
		if (i && (vary_addr ? memcmp(&f->srcip, &pool.frames[i - 1].srcip, sizeof(f->srcip))
				    : 0) != 0)
			addrs++;
		/* a lockstep walk would move by exactly one flow at nearly every step */
		if (i && !vary_addr && f->srcport == (uint16_t)(pool.frames[i - 1].srcport + 1))
			steps++;
	}
	CHECK(distinct == 1000, "%s: 1000 distinct flows, got %u", vary_addr ? "addr" : "port",
	      distinct);
	CHECK(steps < 20, "ports are spread, not walked: %u of 999 steps were +1", steps);
	if (vary_addr)
		CHECK(addrs > 900, "source addresses vary frame to frame (%u changes)", addrs);
	pb_pool_free(&pool);
}

/* Streams split the flows between them, with no flow in two streams. */
static void test_pool_streams(void)
{
	struct pb_frame_spec base = pool_base(AF_INET);
	struct pb_pool a, b;
	struct pb_flows fa = { .n = 100, .stream = 0, .streams = 2, .seed = 1 };
	struct pb_flows fb = { .n = 100, .stream = 1, .streams = 2, .seed = 2 };
	uint32_t i, j, shared = 0;

	CHECK(pb_pool_build(&a, &base, &fa) == 0 && pb_pool_build(&b, &base, &fb) == 0,
	      "two streams' pools build");
	CHECK(a.n == 50 && b.n == 50, "each stream gets half the flows (%u, %u)", a.n, b.n);
	for (i = 0; i < a.n; i++)
		for (j = 0; j < b.n; j++)
			shared += a.frames[i].srcport == b.frames[j].srcport;
	CHECK(shared == 0, "no flow in both streams (%u shared)", shared);
	/* each pool's frames carry their stream's id in the signature */
	for (i = 0, j = 0; i < a.n && i < b.n; i++)
		j += a.frames[i].data[a.frames[i].payload_off + 3] == 0 &&
		     b.frames[i].data[b.frames[i].payload_off + 3] == 1 &&
		     b.frames[i].data[b.frames[i].payload_off + 2] == 'N';
	CHECK(j == 50, "stream ids 0 and 1 in the two pools' signatures (%u of 50)", j);
	pb_pool_free(&a);
	pb_pool_free(&b);
	/* more flows than fit above the base port are refused */
	fa.n = 65535;
	fa.streams = 1;
	CHECK(pb_pool_build(&a, &base, &fa) == -EINVAL, "65535 flows above port 12345 refused");
}

/* An IMIX pool: 7:4:1 of 60/590/1514-byte frames, exactly, every checksum right. */
static void test_pool_imix(void)
{
	static const uint32_t sizes[12] = { 60, 60, 60, 60, 60, 60, 60, 590, 590, 590, 590, 1514 };
	struct pb_frame_spec base = pool_base(AF_INET);
	struct pb_flows fl = { .n = 5, .streams = 1, .seed = 3, .sizes = sizes, .nsizes = 12 };
	struct pb_pool pool;
	uint32_t i, n60 = 0, n590 = 0, n1514 = 0;

	CHECK(pb_pool_build(&pool, &base, &fl) == 0, "IMIX pool builds");
	for (i = 0; i < pool.n; i++) {
		n60 += pool.frames[i].len == 60;
		n590 += pool.frames[i].len == 590;
		n1514 += pool.frames[i].len == 1514;
		verify_checksums(&pool.frames[i], AF_INET, "imix frame");
	}
	CHECK(pool.n % 12 == 0 && n60 * 12 == pool.n * 7 && n590 * 12 == pool.n * 4 &&
		      n1514 * 12 == pool.n,
	      "7:4:1 over %u frames: %u/%u/%u", pool.n, n60, n590, n1514);
	CHECK(pool.max_len == 1514, "longest frame 1514, got %u", pool.max_len);
	pb_pool_free(&pool);
}

/* A VLAN-tagged frame: the tag, the inner ethertype, 64 bytes at the minimum. */
static void test_vlan(void)
{
	struct pb_frame_spec s = pool_base(AF_INET);
	uint8_t want[4] = { 0x81, 0x00, 0xa0, 0x64 }; /* prio 5, id 100 */

	s.vlan_id = 100;
	s.vlan_prio = 5;
	f_vlan.data = frame_buf;
	CHECK(pb_frame_build(&f_vlan, &s) == 0, "tagged frame builds");
	CHECK(!memcmp(f_vlan.data + 12, want, 4), "802.1Q tag 100, priority 5");
	CHECK(f_vlan.data[16] == 0x08 && f_vlan.data[17] == 0x00, "inner ethertype IPv4");
	CHECK(f_vlan.len == 64 && f_vlan.l3_off == 18, "64-byte tagged frame, IP at 18 (%u, %u)",
	      f_vlan.len, f_vlan.l3_off);
	verify_checksums(&f_vlan, AF_INET, "tagged frame");
}

/*
 * Every frame's own sequence number (kind 'S'): built at 0 with room for it, stamped in place
 * with the UDP checksum kept right (checked by the naive routine) at every payload size, both
 * families, paced or not; a payload without room for one is an ordinary 'N' frame, which a
 * stamp leaves alone.
 */
static void test_seq_stamp(void)
{
	static const uint32_t seqs[] = { 1, 0x7fffffff, 0x80000000, 0xffffffff, 0, 0x01020304 };
	static const int fams[] = { AF_INET, AF_INET6 };
	uint32_t p, i, j, bad = 0;

	for (j = 0; j < 2; j++) {
		for (p = 8; p <= 9000; p += (p < 64 ? 1 : 61)) {
			struct pb_frame_spec s = {
				.dstmac = { 2, 0, 0, 0, 0, 2 },
				.srcmac = { 2, 0, 0, 0, 0, 1 },
				.srcport = 12345,
				.dstport = 12345,
				.payload_len = p,
				.run_id = p * 2654435761u,
				.stream_id = (uint8_t)(p % 64),
				.kind = p % 2 ? PB_SIG_KIND_SEQ : PB_SIG_KIND_SEQ | PB_SIG_PACED,
			};
			struct pb_frame f = { .data = frame_buf };
			const uint8_t *pl, *ip;
			bool room = p >= PB_FRAME_SEQ_LEN;

			s.srcip.family = s.dstip.family = fams[j];
			if (fams[j] == AF_INET) {
				inet_pton(AF_INET, "198.18.0.1", &s.srcip.v4);
				inet_pton(AF_INET, "198.18.0.2", &s.dstip.v4);
			} else {
				inet_pton(AF_INET6, "2001:2::1", &s.srcip.v6);
				inet_pton(AF_INET6, "2001:2::2", &s.dstip.v6);
			}
			if (pb_frame_build(&f, &s)) {
				bad++;
				continue;
			}
			pl = f.data + f.payload_off;
			ip = f.data + f.l3_off;
			bad += pl[2] !=
			       (room ? s.kind : (PB_SIG_KIND_FRAME | (s.kind & PB_SIG_PACED)));
			bad += room && (pl[8] | pl[9] | pl[10] | pl[11]);
			bad += !naive_udp_ok(ip, fams[j]);
			for (i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++) {
				uint8_t before[4];

				memcpy(before, pl + 8, sizeof(before));
				pb_frame_seq_stamp(f.data + f.payload_off, seqs[i], true);
				if (room)
					bad += (uint32_t)pl[8] << 24 != (seqs[i] & 0xff000000u) ||
					       pl[9] != (uint8_t)(seqs[i] >> 16) ||
					       pl[10] != (uint8_t)(seqs[i] >> 8) ||
					       pl[11] != (uint8_t)seqs[i];
				else
					bad += memcmp(before, pl + 8, sizeof(before)) != 0;
				bad += !naive_udp_ok(ip, fams[j]) ||
				       !naive_udp_nonzero(ip, fams[j]);
			}
		}
	}
	CHECK(bad == 0, "sequence numbers: %u frames wrong (kind, number or checksum)", bad);
}

int main(void)
{
	static struct pb_frame f;
	struct pb_frame_spec bad = { .payload_len = 7 };
	uint32_t p;

	golden("ipv4 payload 18", 18, 0x01020304, 0, AF_INET, golden_v4_18, sizeof(golden_v4_18),
	       60);
	golden("ipv4 payload 8 (padded)", 8, 0xdeadbeef, 63, AF_INET, golden_v4_8,
	       sizeof(golden_v4_8), 50);
	golden("ipv4 payload 100", 100, 0x01020304, 7, AF_INET, golden_v4_100,
	       sizeof(golden_v4_100), 142);
	golden("ipv6 payload 18", 18, 0x01020304, 1, AF_INET6, golden_v6_18, sizeof(golden_v6_18),
	       80);
	test_signature();
	test_seq_stamp();

	/* every payload size from the minimum to a jumbo frame: checksums hold, odd or even */
	for (p = 8; p <= 9000; p += (p < 64 ? 1 : 61)) {
		char name[32];

		snprintf(name, sizeof(name), "ipv4 payload %u", p);
		build(&f, p, p * 2654435761u, (uint8_t)(p % 64), AF_INET);
		verify_checksums(&f, AF_INET, name);
		snprintf(name, sizeof(name), "ipv6 payload %u", p);
		build(&f, p, p, (uint8_t)(p % 64), AF_INET6);
		verify_checksums(&f, AF_INET6, name);
	}

	f.data = frame_buf;
	bad.srcip.family = bad.dstip.family = AF_INET;
	CHECK(pb_frame_build(&f, &bad) < 0, "a payload without room for the signature is refused");
	bad.payload_len = 18;
	bad.dstip.family = AF_INET6;
	CHECK(pb_frame_build(&f, &bad) < 0, "mixed address families are refused");
	bad.dstip.family = AF_INET;
	bad.payload_len = PB_FRAME_MAX;
	CHECK(pb_frame_build(&f, &bad) < 0, "a frame larger than the buffer is refused");
	bad.payload_len = 18;
	bad.stream_id = 64;
	CHECK(pb_frame_build(&f, &bad) < 0, "a stream id above 63 is refused");

	test_pool_flows(AF_INET, false);
	test_pool_flows(AF_INET, true);
	test_pool_flows(AF_INET6, false);
	test_pool_streams();
	test_pool_imix();
	test_vlan();
	return check_summary();
}
