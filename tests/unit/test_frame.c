// SPDX-License-Identifier: MIT
/*
 * Frame builder: built frames against golden bytes (made by an independent Python
 * implementation of the same headers, pasted below), and checksums re-verified here by a
 * second, deliberately naive routine that shares no code with frame.c.
 */
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include "frame.h"

static int failed, passed;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (cond) {                                                                        \
			passed++;                                                                  \
		} else {                                                                           \
			failed++;                                                                  \
			printf("FAIL %s:%d: ", __FILE__, __LINE__);                                \
			printf(__VA_ARGS__);                                                       \
			printf("\n");                                                              \
		}                                                                                  \
	} while (0)

static const uint8_t golden_v4_18[60] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x45,
	0x00, 0x00, 0x2e, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0xae, 0x97, 0xc6, 0x12, 0x00, 0x01,
	0xc6, 0x12, 0x00, 0x02, 0x30, 0x39, 0x30, 0x39, 0x00, 0x1a, 0x14, 0x45, 0x70, 0x62, 0x4e,
	0x31, 0x01, 0x02, 0x03, 0x04, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11,
};
static const uint8_t golden_v4_8[60] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x45,
	0x00, 0x00, 0x24, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0xae, 0xa1, 0xc6, 0x12, 0x00, 0x01,
	0xc6, 0x12, 0x00, 0x02, 0x30, 0x39, 0x30, 0x39, 0x00, 0x10, 0xb7, 0x02, 0x70, 0x62, 0x4e,
	0x31, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};
static const uint8_t golden_v4_100[142] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x45,
	0x00, 0x00, 0x80, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0xae, 0x45, 0xc6, 0x12, 0x00, 0x01,
	0xc6, 0x12, 0x00, 0x02, 0x30, 0x39, 0x30, 0x39, 0x00, 0x6c, 0xc0, 0x24, 0x70, 0x62, 0x4e,
	0x31, 0x01, 0x02, 0x03, 0x04, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11,
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
	0x30, 0x39, 0x00, 0x1a, 0x60, 0x64, 0x70, 0x62, 0x4e, 0x31, 0x01, 0x02, 0x03, 0x04,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11,
};

/* Ones' complement sum of big-endian 16-bit words, folded once at the end. */
static unsigned int naive_sum(const uint8_t *p, size_t len)
{
	unsigned long long s = 0;
	size_t i;

	for (i = 0; i < len; i++)
		s += (i % 2) ? p[i] : (unsigned int)p[i] * 256;
	while (s > 0xffff)
		s = (s & 0xffff) + (s >> 16);
	return (unsigned int)s;
}

/* A frame's IPv4 header and UDP checksums hold when each covered sum is 0xffff. */
static void verify_checksums(const struct pb_frame *f, int family, const char *name)
{
	const uint8_t *ip = f->data + f->l3_off;
	uint8_t pseudo[40 + 65536];
	size_t udp_off, udp_len, n = 0;

	if (family == AF_INET) {
		udp_off = f->l3_off + 20;
		udp_len = (size_t)ip[2] * 256 + ip[3] - 20;
		CHECK(naive_sum(ip, 20) == 0xffff, "%s: IPv4 header checksum", name);
		memcpy(pseudo, ip + 12, 8);
		pseudo[8] = 0;
		pseudo[9] = 17;
		pseudo[10] = udp_len >> 8;
		pseudo[11] = udp_len & 0xff;
		n = 12;
	} else {
		udp_off = f->l3_off + 40;
		udp_len = (size_t)ip[4] * 256 + ip[5];
		memcpy(pseudo, ip + 8, 32);
		memset(pseudo + 32, 0, 8);
		pseudo[34] = udp_len >> 8;
		pseudo[35] = udp_len & 0xff;
		pseudo[39] = 17;
		n = 40;
	}
	memcpy(pseudo + n, f->data + udp_off, udp_len);
	CHECK(naive_sum(pseudo, n + udp_len) == 0xffff, "%s: UDP checksum", name);
	CHECK(f->data[udp_off + 6] || f->data[udp_off + 7], "%s: UDP checksum is not 0", name);
}

static void build(struct pb_frame *f, uint32_t payload, uint32_t run_id, int family)
{
	struct pb_frame_spec s = {
		.dstmac = { 2, 0, 0, 0, 0, 2 },
		.srcmac = { 2, 0, 0, 0, 0, 1 },
		.srcport = 12345,
		.dstport = 12345,
		.payload_len = payload,
		.run_id = run_id,
	};

	s.srcip.family = s.dstip.family = family;
	if (family == AF_INET) {
		inet_pton(AF_INET, "198.18.0.1", &s.srcip.v4);
		inet_pton(AF_INET, "198.18.0.2", &s.dstip.v4);
	} else {
		inet_pton(AF_INET6, "2001:2::1", &s.srcip.v6);
		inet_pton(AF_INET6, "2001:2::2", &s.dstip.v6);
	}
	CHECK(pb_frame_build(f, &s) == 0, "build payload %u", payload);
}

static void golden(const char *name, uint32_t payload, uint32_t run_id, int family,
		   const uint8_t *want, size_t len, uint32_t unpadded)
{
	static struct pb_frame f;
	size_t i;

	build(&f, payload, run_id, family);
	CHECK(f.len == len, "%s: length %u, want %zu", name, f.len, len);
	CHECK(f.unpadded == unpadded, "%s: unpadded %u, want %u", name, f.unpadded, unpadded);
	for (i = 0; i < len && i < f.len; i++)
		if (f.data[i] != want[i])
			break;
	CHECK(i == len, "%s: byte %zu is 0x%02x, want 0x%02x", name, i, f.data[i], want[i]);
	verify_checksums(&f, family, name);
}

int main(void)
{
	static struct pb_frame f;
	struct pb_frame_spec bad = { .payload_len = 7 };
	uint32_t p;

	golden("ipv4 payload 18", 18, 0x01020304, AF_INET, golden_v4_18, sizeof(golden_v4_18), 60);
	golden("ipv4 payload 8 (padded)", 8, 0xdeadbeef, AF_INET, golden_v4_8, sizeof(golden_v4_8),
	       50);
	golden("ipv4 payload 100", 100, 0x01020304, AF_INET, golden_v4_100, sizeof(golden_v4_100),
	       142);
	golden("ipv6 payload 18", 18, 0x01020304, AF_INET6, golden_v6_18, sizeof(golden_v6_18), 80);

	/* every payload size from the minimum to a jumbo frame: checksums hold, odd or even */
	for (p = 8; p <= 9000; p += (p < 64 ? 1 : 61)) {
		char name[32];

		snprintf(name, sizeof(name), "ipv4 payload %u", p);
		build(&f, p, p * 2654435761u, AF_INET);
		verify_checksums(&f, AF_INET, name);
		snprintf(name, sizeof(name), "ipv6 payload %u", p);
		build(&f, p, p, AF_INET6);
		verify_checksums(&f, AF_INET6, name);
	}

	bad.srcip.family = bad.dstip.family = AF_INET;
	CHECK(pb_frame_build(&f, &bad) < 0, "a payload without room for the signature is refused");
	bad.payload_len = 18;
	bad.dstip.family = AF_INET6;
	CHECK(pb_frame_build(&f, &bad) < 0, "mixed address families are refused");
	bad.dstip.family = AF_INET;
	bad.payload_len = PB_FRAME_MAX;
	CHECK(pb_frame_build(&f, &bad) < 0, "a frame larger than the buffer is refused");

	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
