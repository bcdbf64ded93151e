// SPDX-License-Identifier: MIT
/*
 * --replay's reader, rewriting and schedule against known answers. The captures are written
 * here by a small writer of our own (pcap in microseconds and nanoseconds, pcapng), so every
 * stamp, size and skip reason is known; checksums are re-verified by naive_csum.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "method.h"
#include "options.h"
#include "replay.h"
#include "stats.h"
#include "check.h"
#include "naive_csum.h"

enum fmt { F_PCAP, F_NSEC, F_PCAPNG };

struct cap {
	FILE *f;
	enum fmt fmt;
	char path[64];
};

static void put32(FILE *f, uint32_t v)
{
	fwrite(&v, 4, 1, f);
}

static void put16(FILE *f, uint16_t v)
{
	fwrite(&v, 2, 1, f);
}

static void cap_open(struct cap *c, enum fmt fmt)
{
	static int seq;

	snprintf(c->path, sizeof(c->path), "/tmp/pb_replay_%d_%d.cap", (int)getpid(), seq++);
	c->f = fopen(c->path, "wb");
	c->fmt = fmt;
	if (fmt == F_PCAPNG) {
		put32(c->f, 0x0A0D0D0A); /* section header: 28 bytes */
		put32(c->f, 28);
		put32(c->f, 0x1A2B3C4D);
		put16(c->f, 1);
		put16(c->f, 0);
		put32(c->f, 0xffffffff);
		put32(c->f, 0xffffffff);
		put32(c->f, 28);
		put32(c->f, 1); /* interface: Ethernet, if_tsresol 9 (ns), 32 bytes */
		put32(c->f, 32);
		put16(c->f, 1);
		put16(c->f, 0);
		put32(c->f, 65535);
		put16(c->f, 9);
		put16(c->f, 1);
		put32(c->f, 9);
		put32(c->f, 0);
		put32(c->f, 32);
		return;
	}
	put32(c->f, fmt == F_NSEC ? 0xA1B23C4D : 0xA1B2C3D4);
	put16(c->f, 2);
	put16(c->f, 4);
	put32(c->f, 0);
	put32(c->f, 0);
	put32(c->f, 65535);
	put32(c->f, 1);
}

/* One record: caplen bytes of data, wirelen as the wire had it, at ts_ns. */
static void cap_put(struct cap *c, uint64_t ts_ns, const uint8_t *d, uint32_t caplen,
		    uint32_t wirelen)
{
	static const uint8_t zero[4];

	if (c->fmt == F_PCAPNG) {
		uint32_t pad = (4 - caplen % 4) % 4, len = 32 + caplen + pad;

		put32(c->f, 6);
		put32(c->f, len);
		put32(c->f, 0);
		put32(c->f, (uint32_t)(ts_ns >> 32));
		put32(c->f, (uint32_t)ts_ns);
		put32(c->f, caplen);
		put32(c->f, wirelen);
		fwrite(d, 1, caplen, c->f);
		fwrite(zero, 1, pad, c->f);
		put32(c->f, len);
		return;
	}
	put32(c->f, (uint32_t)(ts_ns / 1000000000));
	put32(c->f, (uint32_t)(c->fmt == F_NSEC ? ts_ns % 1000000000 : ts_ns % 1000000000 / 1000));
	put32(c->f, caplen);
	put32(c->f, wirelen);
	fwrite(d, 1, caplen, c->f);
}

static void cap_close(struct cap *c)
{
	fclose(c->f);
}

/* Builds a captured frame into d: its length. proto 17 = UDP; flags below. */
#define K_V6	 1
#define K_VLAN	 2
#define K_FRAG	 4
#define K_EXTHDR 8
static uint32_t mk(uint8_t *d, uint32_t plen, uint8_t proto, unsigned int kind, uint16_t sport)
{
	uint32_t o = 12, l4, i;

	memset(d, 0, 2048 + 64);
	memcpy(d, "\x02\0\0\0\0\x02\x02\0\0\0\0\x01", 12);
	if (kind & K_VLAN) {
		memcpy(d + o, "\x81\x00\x60\x2a", 4); /* prio 3, vid 42 */
		o += 4;
	}
	if (kind & K_V6) {
		memcpy(d + o, "\x86\xdd", 2);
		o += 2;
		d[o] = 0x60;
		d[o + 4] = (uint8_t)((8 + plen) >> 8);
		d[o + 5] = (uint8_t)(8 + plen);
		d[o + 6] = kind & K_EXTHDR ? 0 : proto; /* 0: hop-by-hop first */
		d[o + 7] = 64;
		d[o + 8] = 0x20; /* 2001:2::1 -> 2001:2::2 */
		d[o + 9] = 0x01;
		d[o + 11] = 0x02;
		d[o + 23] = 1;
		d[o + 24] = 0x20;
		d[o + 25] = 0x01;
		d[o + 27] = 0x02;
		d[o + 39] = 2;
		l4 = o + 40;
	} else {
		memcpy(d + o, "\x08\x00", 2);
		o += 2;
		d[o] = 0x45;
		d[o + 2] = (uint8_t)((28 + plen) >> 8);
		d[o + 3] = (uint8_t)(28 + plen);
		d[o + 6] = kind & K_FRAG ? 0x20 : 0x40; /* MF, or DF */
		d[o + 8] = 64;
		d[o + 9] = proto;
		memcpy(d + o + 12, "\xc6\x12\x05\x01\xc6\x13\x09\x09", 8);
		l4 = o + 20;
	}
	d[l4] = (uint8_t)(sport >> 8);
	d[l4 + 1] = (uint8_t)sport;
	d[l4 + 3] = 9;
	d[l4 + 4] = (uint8_t)((8 + plen) >> 8);
	d[l4 + 5] = (uint8_t)(8 + plen);
	for (i = 0; i < plen; i++)
		d[l4 + 8 + i] = (uint8_t)(i * 7 + 1);
	return l4 + 8 + plen;
}

static const struct pb_method frame_m = { .name = "fake_frames", .flags = PB_M_FRAME };
static const struct pb_method sock_m = { .name = "fake_sock" };
static const struct pb_method stream_m = { .name = "fake_stream",
					   .flags = PB_M_FRAME | PB_M_STREAM };

static void cfg_init(struct pb_config *cfg)
{
	char err[256];

	CHECK(pb_cmd_defaults(&pb_cmd_main, cfg, err, sizeof(err)) == 0, "defaults: %s", err);
	cfg->run_id = 0x01020304;
	cfg->mtu = 1500;
	memcpy(cfg->dstmac, "\x02\xaa\0\0\0\x02", 6);
	memcpy(cfg->srcmac, "\x02\xaa\0\0\0\x01", 6);
}

static struct pb_replay *open_ok(const struct pb_method *m, const struct pb_config *cfg)
{
	struct pb_replay *r = NULL;
	char why[256] = "";
	int err = pb_replay_open(&r, m, cfg, why, sizeof(why));

	CHECK(err == 0 && r, "open %s: %d %s", cfg->replay, err, why);
	return r;
}

/* Timestamps kept exactly, in every format; a constant rate's schedule and its wrap. */
static void test_formats(void)
{
	static const enum fmt fmts[] = { F_PCAP, F_NSEC, F_PCAPNG };
	uint8_t d[2200];
	unsigned int f;

	for (f = 0; f < 3; f++) {
		struct pb_config cfg;
		struct pb_replay *r;
		struct pb_replay_stream *s;
		struct pb_result res;
		struct pb_pool pool;
		struct cap c;
		double next = -1;
		uint64_t i, gap = fmts[f] == F_PCAP ? 50000 : 50001; /* ns: 50 us, or 50.001 */
		uint32_t len = mk(d, 18, 17, 0, 1000);

		cap_open(&c, fmts[f]);
		for (i = 0; i < 100; i++)
			cap_put(&c, 1700000000ull * 1000000000ull + i * gap, d, len, len);
		cap_close(&c);
		cfg_init(&cfg);
		snprintf(cfg.replay, sizeof(cfg.replay), "%s", c.path);
		cfg.loop = 3;
		r = open_ok(&frame_m, &cfg);
		if (!r)
			continue;
		pb_replay_apply(r, &cfg);
		CHECK(cfg.count == 300, "fmt %u: --loop 3 of 100: count %llu", f,
		      (unsigned long long)cfg.count);
		CHECK(pb_replay_quota(r, 0) == 300, "fmt %u: quota", f);
		pb_replay_take_pool(r, 0, &pool);
		CHECK(pool.n == 100 && pool.frames[0].len == 60, "fmt %u: 100 frames of 60 bytes",
		      f);
		s = pb_replay_stream(r, 0);
		/* the first ask sets the origin at 10.0: frame 0 is due at once, frame 1 not yet */
		CHECK(pb_replay_allowance(s, 10.0, 0, &next) == 1, "fmt %u: frame 0 due at once",
		      f);
		pb_replay_note(s, 1);
		CHECK(pb_replay_allowance(s, 10.0, 1, &next) == 0 &&
			      fabs(next - (10.0 + gap / 1e9)) < 1e-12,
		      "fmt %u: frame 1 is due at exactly %llu ns: %.12f", f,
		      (unsigned long long)gap, next - 10.0);
		/* 120 us in: frames 1 and 2 (50 and 100 us) */
		CHECK(pb_replay_allowance(s, 10.00012, 1, &next) == 2, "fmt %u: two due by 120 us",
		      f);
		pb_replay_note(s, 3);
		/* the wrap: frame 100 follows frame 99 by the mean gap */
		CHECK(pb_replay_allowance(s, 10.0 + 99.5 * gap / 1e9, 3, &next) == 97,
		      "fmt %u: the rest of the pass due", f);
		pb_replay_note(s, 100);
		CHECK(pb_replay_allowance(s, 10.0 + 99.5 * gap / 1e9, 100, &next) == 0 &&
			      fabs(next - 10.0 - 100 * gap / 1e9) < 1e-12,
		      "fmt %u: frame 100 due one mean gap after frame 99: %.9f", f, next - 10.0);
		memset(&res, 0, sizeof(res));
		pb_replay_result(r, &res);
		CHECK(res.replay.frames == 100 && res.replay.loops == 1 &&
			      res.replay.bytes == 6000 && res.replay.file_frames == 100 &&
			      res.replay.pass_frames == 100,
		      "fmt %u: figures: %llu frames, %llu loops, %llu bytes", f,
		      (unsigned long long)res.replay.frames, (unsigned long long)res.replay.loops,
		      (unsigned long long)res.replay.bytes);
		CHECK(fabs(res.replay.file_duration_s - 99 * gap / 1e9) < 1e-12,
		      "fmt %u: file duration %.9f", f, res.replay.file_duration_s);
		/* frames 1, 2 left 20 and 70 us late, 3..99 up to 49.5 gaps early..late */
		CHECK(res.replay.dep_max_us > 0 && !strcmp(res.replay.timing, "original"),
		      "fmt %u: departures measured", f);
		pb_pool_free(&pool);
		pb_replay_free(r);
		unlink(c.path);
	}
}

/* Every frame that cannot be replayed is counted under its reason, never cut or sent. */
static void test_skips(void)
{
	struct pb_config cfg;
	struct pb_replay *r;
	struct pb_result res;
	uint8_t d[2200];
	struct cap c;
	uint32_t len;

	cap_open(&c, F_NSEC);
	len = mk(d, 18, 17, 0, 1000);
	cap_put(&c, 1000, d, len, len); /* kept */
	len = mk(d, 18, 6, 0, 1000);
	cap_put(&c, 2000, d, len, len); /* TCP */
	len = mk(d, 18, 17, K_FRAG, 1000);
	cap_put(&c, 3000, d, len, len); /* a first fragment */
	len = mk(d, 18, 17, K_V6 | K_EXTHDR, 1000);
	cap_put(&c, 4000, d, len, len); /* IPv6 with a hop-by-hop header */
	len = mk(d, 4, 17, 0, 1000);
	cap_put(&c, 5000, d, len, len); /* a 4-byte payload */
	len = mk(d, 18, 17, 0, 1000);
	cap_put(&c, 6000, d, len - 10, len); /* captured short */
	len = mk(d, 2000, 17, 0, 1000);
	cap_put(&c, 7000, d, len, len); /* over a 1500 MTU */
	memset(d, 0, 60);
	memcpy(d + 12, "\x08\x06", 2);
	cap_put(&c, 8000, d, 60, 60); /* ARP */
	len = mk(d, 30, 17, K_V6 | K_VLAN, 1000);
	cap_put(&c, 9000, d, len, len); /* kept */
	/* an MLDv2 report: IPv6, a hop-by-hop header (router alert), then ICMPv6 */
	memcpy(d, "\x33\x33\0\0\0\x16\x02\0\0\0\0\x01\x86\xdd\x60\0\0\0\0\x24\0\x01", 22);
	memset(d + 22, 0, 68);
	d[22] = 0xfe; /* fe80::1 -> ff02::16 */
	d[23] = 0x80;
	d[37] = 1;
	d[38] = 0xff;
	d[39] = 0x02;
	d[53] = 0x16;
	memcpy(d + 54, "\x3a\0\x05\x02\0\0\x01\0\x8f\0\0\0\0\0\0\x01\x04", 17);
	cap_put(&c, 10000, d, 90, 90);
	cap_close(&c);

	cfg_init(&cfg);
	snprintf(cfg.replay, sizeof(cfg.replay), "%s", c.path);
	/* a frame method sends every frame whole: all but the one captured short and the big */
	r = open_ok(&frame_m, &cfg);
	if (r) {
		memset(&res, 0, sizeof(res));
		pb_replay_result(r, &res);
		CHECK(res.replay.file_frames == 10 && res.replay.pass_frames == 8 &&
			      res.replay.skipped[PB_RSKIP_TRUNCATED] == 1 &&
			      res.replay.skipped[PB_RSKIP_TOO_BIG] == 1,
		      "frame method: 10 frames, 8 replayed (TCP, fragments, IPv6 with an "
		      "extension header, a short payload, ARP, MLD too): %llu",
		      (unsigned long long)res.replay.pass_frames);
		pb_replay_free(r);
	}
	/* a socket method sends UDP payloads only: each other frame counted under its reason */
	r = open_ok(&sock_m, &cfg);
	if (r) {
		memset(&res, 0, sizeof(res));
		pb_replay_result(r, &res);
		/* the IPv6 one stays IPv6: an IPv4 run's socket cannot send it */
		CHECK(res.replay.file_frames == 10 && res.replay.pass_frames == 1 &&
			      res.replay.skipped[PB_RSKIP_FAMILY] == 1,
		      "10 frames, 1 replayable, 1 of the other family: %llu %llu",
		      (unsigned long long)res.replay.file_frames,
		      (unsigned long long)res.replay.pass_frames);
		/*
		 * the MLD report is not UDP, not a fragment (issue 46: it was named "IP
		 * fragments"); the hop-by-hop header whose length runs past the frame is cut
		 */
		CHECK(res.replay.skipped[PB_RSKIP_NOT_UDP] == 2 &&
			      res.replay.skipped[PB_RSKIP_FRAGMENT] == 1 &&
			      res.replay.skipped[PB_RSKIP_SHORT_PAYLOAD] == 1 &&
			      res.replay.skipped[PB_RSKIP_TRUNCATED] == 2 &&
			      res.replay.skipped[PB_RSKIP_TOO_BIG] == 1 &&
			      res.replay.skipped[PB_RSKIP_NOT_IP] == 1,
		      "each reason counted: udp %llu frag %llu short %llu trunc %llu big %llu ip "
		      "%llu",
		      (unsigned long long)res.replay.skipped[PB_RSKIP_NOT_UDP],
		      (unsigned long long)res.replay.skipped[PB_RSKIP_FRAGMENT],
		      (unsigned long long)res.replay.skipped[PB_RSKIP_SHORT_PAYLOAD],
		      (unsigned long long)res.replay.skipped[PB_RSKIP_TRUNCATED],
		      (unsigned long long)res.replay.skipped[PB_RSKIP_TOO_BIG],
		      (unsigned long long)res.replay.skipped[PB_RSKIP_NOT_IP]);
		pb_replay_free(r);
	}
	/* a 9000-byte MTU takes the big one */
	cfg.mtu = 9000;
	r = open_ok(&sock_m, &cfg);
	if (r) {
		memset(&res, 0, sizeof(res));
		pb_replay_result(r, &res);
		CHECK(res.replay.pass_frames == 2 && !res.replay.skipped[PB_RSKIP_TOO_BIG],
		      "MTU 9000: the 2000-byte payload goes");
		pb_replay_free(r);
	}
	/*
	 * a method that holds frames of up to 2048 bytes (xdp_live's map) and a capture with a
	 * longer one: a skipped row that says why, never an error of its open (issue 46: "open:
	 * Message too long", exit 1)
	 */
	unlink(c.path);
	{
		const struct pb_method *xl = pb_method_find("xdp_live", NULL);
		char why[256] = "";

		cap_open(&c, F_NSEC);
		len = mk(d, 2060, 17, 0, 1000);
		cap_put(&c, 1000, d, len, len);
		cap_close(&c);
		snprintf(cfg.replay, sizeof(cfg.replay), "%s", c.path);
		r = NULL;
		CHECK(xl && pb_replay_open(&r, xl, &cfg, why, sizeof(why)) == -EOPNOTSUPP && !r &&
			      strstr(why, "2048"),
		      "xdp_live, a frame of %u bytes over its 2048: a skipped row: %s", len, why);
		pb_replay_free(r);
		unlink(c.path);
	}
	/* a file that is not a capture, and one with nothing to replay: errors that say so */
	{
		char why[256] = "";

		snprintf(cfg.replay, sizeof(cfg.replay), "/nonexistent/x.pcap");
		CHECK(pb_replay_open(&r, &frame_m, &cfg, why, sizeof(why)) == -EINVAL && why[0] &&
			      !r,
		      "a missing file: %s", why);
		CHECK(pb_replay_open(&r,
				     &(struct pb_method){ .name = "gso", .knobs = PB_K_SEGMENTS },
				     &cfg, why, sizeof(why)) == -EOPNOTSUPP,
		      "a GSO method cannot replay: %s", why);
	}
}

/* A capture of the one frame d (len bytes), opened for m with cfg; the file is gone after. */
static struct pb_replay *open_one(const struct pb_method *m, struct pb_config *cfg,
				  const uint8_t *d, uint32_t len)
{
	struct pb_replay *r;
	struct cap c;

	cap_open(&c, F_PCAP);
	cap_put(&c, 0, d, len, len);
	cap_close(&c);
	snprintf(cfg->replay, sizeof(cfg->replay), "%s", c.path);
	r = open_ok(m, cfg);
	unlink(c.path);
	return r;
}

/* The rebuilt frames: this run's addresses, the capture's payload, valid checksums. */
static void test_rewrite(void)
{
	static const unsigned int kinds[] = { 0, K_V6, K_VLAN, K_V6 | K_VLAN };
	uint8_t d[2200];
	unsigned int k, m;

	for (k = 0; k < 4; k++) {
		for (m = 0; m < 2; m++) {
			struct pb_config cfg;
			struct pb_replay *r;
			struct pb_pool pool;
			const struct pb_frame *f;
			uint32_t len = mk(d, 100, 17, kinds[k], 4242), i;
			bool v6 = kinds[k] & K_V6, ok = true;
			const uint8_t *p;

			cfg_init(&cfg);
			if (v6) {
				pb_parse_addr("2001:2::1", &cfg.srcip);
				pb_parse_addr("2001:2::2", &cfg.dstip);
			}
			cfg.dstport = 7777;
			r = open_one(m ? &sock_m : &frame_m, &cfg, d, len);
			if (!r)
				continue;
			pb_replay_take_pool(r, 0, &pool);
			f = &pool.frames[0];
			p = f->data;
			if (!m) {
				/* as captured, but for the path's MAC and the run's (timed: 0xc0)
				 */
				CHECK(f->len == len && !memcmp(p, cfg.dstmac, 6) &&
					      !memcmp(p + 6, "\x72\xc0\x01\x02\x03\x04", 6) &&
					      !memcmp(p + 12, d + 12, len - 12),
				      "kind %u: a frame method sends the frame whole, its MACs the "
				      "path's and the run's",
				      k);
				pb_pool_free(&pool);
				pb_replay_free(r);
				goto vlan;
			}
			CHECK(!memcmp(p, cfg.dstmac, 6) && !memcmp(p + 6, cfg.srcmac, 6),
			      "kind %u: this run's MACs", k);
			/* a socket's kernel builds no tag */
			CHECK(f->l3_off == 14, "kind %u method %u: untagged", k, m);
			if (v6) {
				CHECK(!memcmp(p + f->l3_off + 24, &cfg.dstip.v6, 16),
				      "kind %u: --dstip", k);
				CHECK(naive_udp_ok(p + f->l3_off, AF_INET6),
				      "kind %u: UDP/IPv6 checksum", k);
			} else {
				CHECK(!memcmp(p + f->l3_off + 16, &cfg.dstip.v4, 4),
				      "kind %u: --dstip", k);
				CHECK(naive_ipv4_ok(p + f->l3_off), "kind %u: IPv4 checksum", k);
				CHECK(naive_udp_ok(p + f->l3_off, AF_INET), "kind %u: UDP checksum",
				      k);
			}
			CHECK(p[f->payload_off - 6] == 7777 >> 8 &&
				      p[f->payload_off - 5] == (7777 & 0xff) &&
				      f->srcport == cfg.srcport,
			      "kind %u: --dstport, source port --srcport + flow 0", k);
			CHECK(p[f->payload_off] == 'p' && p[f->payload_off + 1] == 'b' &&
				      p[f->payload_off + 4] == 1 && p[f->payload_off + 7] == 4,
			      "kind %u: the run's signature", k);
			for (i = 8; i < 100; i++)
				ok &= p[f->payload_off + i] == (uint8_t)(i * 7 + 1);
			CHECK(ok && f->payload_len == 100, "kind %u: the capture's payload", k);
			pb_pool_free(&pool);
			pb_replay_free(r);
			continue;
		vlan:
			/* --vlan sets the tag on frame methods: over the capture's, or added */
			cfg.vlan = 100;
			r = open_one(&frame_m, &cfg, d, len);
			if (!r)
				continue;
			pb_replay_take_pool(r, 0, &pool);
			p = pool.frames[0].data;
			i = kinds[k] & K_VLAN ? 16 : 12; /* where the capture's EtherType is */
			CHECK(p[12] == 0x81 && p[14] == 0 && p[15] == 100 &&
				      !memcmp(p + 16, d + i, len - i) &&
				      pool.frames[0].len == len - i + 16,
			      "kind %u: --vlan 100 wins", k);
			pb_pool_free(&pool);
			pb_replay_free(r);
			cfg.vlan = 0;
			if (!(kinds[k] & K_VLAN))
				continue;
			/* --vlan-strip: the capture's tag taken out */
			cfg.vlan_strip = true;
			r = open_one(&frame_m, &cfg, d, len);
			if (!r)
				continue;
			pb_replay_take_pool(r, 0, &pool);
			p = pool.frames[0].data;
			CHECK(pool.frames[0].len == len - 4 && !memcmp(p + 12, d + 16, len - 16),
			      "kind %u: --vlan-strip", k);
			pb_pool_free(&pool);
			pb_replay_free(r);
		}
	}
}

/* Flows hashed to streams: each stream holds whole flows, in file order. */
static void test_streams(void)
{
	struct pb_config cfg;
	struct pb_replay *r;
	struct pb_pool pool;
	uint8_t d[2200];
	struct cap c;
	uint32_t i, s;

	cap_open(&c, F_NSEC);
	for (i = 0; i < 40; i++) {
		uint32_t len = mk(d, 18 + i, 17, 0, (uint16_t)(5000 + i % 4));

		cap_put(&c, (uint64_t)i * 1000, d, len, len);
	}
	cap_close(&c);
	cfg_init(&cfg);
	cfg.streams = 2;
	snprintf(cfg.replay, sizeof(cfg.replay), "%s", c.path);
	r = open_ok(&sock_m, &cfg);
	if (r) {
		for (s = 0; s < 2; s++) {
			struct pb_replay_stream *st = pb_replay_stream(r, s);
			double next = 0;
			bool ok = true;

			pb_replay_take_pool(r, s, &pool);
			CHECK(pool.n == 20, "stream %u: 20 frames", s);
			/* flows 0..3 in order of appearance; stream s has flows s and s + 2 */
			for (i = 0; i < pool.n; i++)
				ok &= (uint32_t)(pool.frames[i].srcport - cfg.srcport) % 2 == s &&
				      (i == 0 ||
				       pool.frames[i].payload_len > pool.frames[i - 1].payload_len);
			CHECK(ok, "stream %u: its own flows, in file order", s);
			/* its frames keep their places in the file's time: 2 us apart from s us */
			CHECK(pb_replay_allowance(st, 0, 0, &next) == (s == 0),
			      "stream %u: first frame due at %u us", s, s);
			CHECK(pb_replay_allowance(st, 0.0000025, 0, &next) == 2 - s,
			      "stream %u: frames by 2.5 us", s);
			pb_pool_free(&pool);
		}
		pb_replay_free(r);
	}
	/*
	 * --flows 6 --flows-src-ip: the capture's 4 flows give way to 6 taken in turn (frame i on
	 * flow i % 6), numbered as the generator's pools number them: the source address first
	 */
	cfg.flows = 6;
	cfg.flows_src_ip = true;
	{
		char why[256] = "";

		CHECK(pb_replay_open(&r, &frame_m, &cfg, why, sizeof(why)) == -EINVAL &&
			      strstr(why, "--flows"),
		      "--flows on a frame method, which sends the capture's own: %s", why);
	}
	r = open_ok(&sock_m, &cfg);
	if (r) {
		for (s = 0; s < 2; s++) {
			bool ok = true;

			pb_replay_take_pool(r, s, &pool);
			CHECK(pool.n == 20, "--flows 6, stream %u: 20 frames", s);
			for (i = 0; i < pool.n; i++) {
				/* stream s: frames 2i + s of the file, on flow (2i + s) % 6 */
				uint32_t k = (2 * i + s) % 6;
				struct pb_addr a = cfg.srcip;

				pb_addr_add(&a, k);
				ok &= pool.frames[i].srcport == cfg.srcport &&
				      !memcmp(&pool.frames[i].srcip.v4, &a.v4, 4) &&
				      pool.frames[i].payload_len == 18 + 2 * i + s;
			}
			CHECK(ok, "--flows 6 --flows-src-ip, stream %u: frame i on flow i %% 6", s);
			pb_pool_free(&pool);
		}
		pb_replay_free(r);
	}
	cfg.flows = 1;
	cfg.flows_src_ip = false;
	/* more streams than flows: an error that says so */
	{
		char why[256] = "";

		cfg.streams = 5;
		CHECK(pb_replay_open(&r, &sock_m, &cfg, why, sizeof(why)) == -EINVAL &&
			      strstr(why, "flows"),
		      "5 streams, 4 flows: %s", why);
	}
	unlink(c.path);
}

/* --pps, --rate, --multiplier, --topspeed, --loop-delay: their offsets and wraps. */
static void test_timings(void)
{
	struct pb_config cfg;
	struct pb_replay *r;
	struct pb_replay_stream *s;
	uint8_t d[2200];
	struct cap c;
	double next = 0;
	uint32_t i;

	cap_open(&c, F_NSEC);
	for (i = 0; i < 10; i++) {
		/* 60-byte and 1514-byte frames, 1 ms apart */
		uint32_t len = mk(d, i % 2 ? 1472 : 18, 17, 0, 1000);

		cap_put(&c, (uint64_t)i * 1000000, d, len, len);
	}
	cap_close(&c);

	cfg_init(&cfg);
	snprintf(cfg.replay, sizeof(cfg.replay), "%s", c.path);
	cfg.multiplier = 4;
	r = open_ok(&frame_m, &cfg);
	s = r ? pb_replay_stream(r, 0) : NULL;
	if (s) {
		pb_replay_allowance(s, 0, 0, &next);
		CHECK(pb_replay_allowance(s, 0.0002, 1, &next) == 0 && fabs(next - 0.00025) < 1e-12,
		      "--multiplier 4: 1 ms gaps become 250 us: %.9f", next);
		/* the wrap: 9 gaps of 250 us, then one more */
		CHECK(pb_replay_allowance(s, 0.0024, 1, &next) == 9 &&
			      pb_replay_allowance(s, 0.0024, 10, &next) == 0 &&
			      fabs(next - 0.0025) < 1e-12,
		      "--multiplier 4: the next pass 250 us after the last frame: %.9f", next);
		pb_replay_free(r);
	}
	cfg.multiplier = 0;
	cfg.pps = 1000;
	cfg.loop_delay_s = 0.5;
	r = open_ok(&frame_m, &cfg);
	s = r ? pb_replay_stream(r, 0) : NULL;
	if (s) {
		pb_replay_allowance(s, 0, 0, &next);
		CHECK(pb_replay_allowance(s, 0.0095, 1, &next) == 9,
		      "--pps 1000: frames 1..9 due by 9.5 ms");
		CHECK(pb_replay_allowance(s, 0.0095, 10, &next) == 0 && fabs(next - 0.51) < 1e-12,
		      "--pps 1000 --loop-delay 0.5: the next pass at 10 ms + 0.5 s: %.9f", next);
		/* a sender that took only some of them is offered the rest, not rescanned */
		CHECK(pb_replay_allowance(s, 0.0095, 3, &next) == 7, "--pps 1000: 7 still due");
		pb_replay_free(r);
	}
	cfg.pps = 0;
	cfg.loop_delay_s = 0;
	cfg.rate_gbps = 1;
	r = open_ok(&frame_m, &cfg);
	s = r ? pb_replay_stream(r, 0) : NULL;
	if (s) {
		/* wire bytes: 60 -> 84, 1514 -> 1538; at 1 Gb/s 672 ns and 12304 ns */
		pb_replay_allowance(s, 0, 0, &next);
		CHECK(pb_replay_allowance(s, 0, 1, &next) == 0 && fabs(next - 672e-9) < 1e-15,
		      "--rate 1: frame 1 after frame 0's 672 ns: %.12f", next);
		CHECK(pb_replay_allowance(s, 672e-9 + 12303e-9, 1, &next) == 1 &&
			      pb_replay_allowance(s, 672e-9 + 12303e-9, 2, &next) == 0 &&
			      fabs(next - (672e-9 + 12304e-9)) < 1e-15,
		      "--rate 1: frame 2 after frame 1's 12304 ns");
		pb_replay_free(r);
	}
	cfg.rate_gbps = 0;
	cfg.topspeed = true;
	cfg.loop = 0;
	r = open_ok(&frame_m, &cfg);
	s = r ? pb_replay_stream(r, 0) : NULL;
	if (s) {
		struct pb_result res;

		CHECK(pb_replay_allowance(s, 0, 0, &next) == UINT64_MAX &&
			      pb_replay_quota(r, 0) == UINT64_MAX,
		      "--topspeed --loop 0: no deadlines, no end but --duration");
		pb_replay_note(s, 25);
		memset(&res, 0, sizeof(res));
		pb_replay_result(r, &res);
		CHECK(res.replay.loops == 2 && res.replay.frames == 25 && !res.replay.timed,
		      "25 frames of 10: 2 whole passes, untimed");
		pb_replay_free(r);
	}
	unlink(c.path);
}

/* Departure errors: exact deadlines give 0; a call 1 ms late shows as 1000 us. */
static void test_departures(void)
{
	struct pb_config cfg;
	struct pb_replay *r;
	struct pb_replay_stream *s;
	struct pb_result res;
	uint8_t d[2200];
	struct cap c;
	double next = 0;
	uint32_t i, len = mk(d, 18, 17, 0, 1000);

	cap_open(&c, F_NSEC);
	for (i = 0; i < 200; i++)
		cap_put(&c, (uint64_t)i * 100000, d, len, len); /* 10 kpps */
	cap_close(&c);
	cfg_init(&cfg);
	snprintf(cfg.replay, sizeof(cfg.replay), "%s", c.path);
	r = open_ok(&frame_m, &cfg);
	s = r ? pb_replay_stream(r, 0) : NULL;
	if (s) {
		for (i = 0; i < 200; i++) {
			double t = 5.0 + i * 100e-6 + (i ? 1e-9 : 0) + (i == 100 ? 1e-3 : 0);

			CHECK(pb_replay_allowance(s, t, i, &next) >= 1, "frame %u due", i);
			pb_replay_note(s, i + 1);
		}
		memset(&res, 0, sizeof(res));
		pb_replay_result(r, &res);
		CHECK(res.replay.dep_p50_us <= 1 && fabs(res.replay.dep_max_us - 1000) < 1,
		      "p50 %.1f us, max %.1f us", res.replay.dep_p50_us, res.replay.dep_max_us);
		/* the receiver's gaps against the schedule's: 100 us apart, all but the late one */
		res.gaps.on = res.gaps.measured = true;
		res.gaps.p50_us = 100.5;
		res.gaps.p99_us = 1000;
		res.gaps.max_us = 1100;
		pb_replay_gaps(r, &res);
		CHECK(fabs(res.replay.gap_max_us - 100) < 1e-6 &&
			      fabs(res.replay.gap_err_max_us - 1000) < 1e-6,
		      "arrival gaps: the file's longest %.3f us, the longest arrival's error %.3f "
		      "us",
		      res.replay.gap_max_us, res.replay.gap_err_max_us);
		CHECK(res.replay.gaps_known && fabs(res.replay.gap_p50_us - 100) < 1e-6 &&
			      fabs(res.replay.gap_err_p50_us - 0.5) < 1e-6 &&
			      fabs(res.replay.gap_err_p99_us - 900) < 1e-6,
		      "arrival gaps: file p50 %.3f us, error p50 %.3f us", res.replay.gap_p50_us,
		      res.replay.gap_err_p50_us);
		CHECK(fabs(res.replay.run_duration_s - 0.0199) < 1e-8 &&
			      fabs(res.replay.sched_duration_s - 0.0199) < 1e-9 &&
			      fabs(res.replay.drift_ppm) < 1,
		      "run %.9f s, scheduled %.9f s, drift %.3f ppm", res.replay.run_duration_s,
		      res.replay.sched_duration_s, res.replay.drift_ppm);
		pb_replay_free(r);
	}
	unlink(c.path);
}

static void test_validate(void)
{
	struct pb_config cfg;
	char err[256];

	cfg_init(&cfg);
	CHECK(pb_replay_validate(&cfg, err, sizeof(err)) == 0, "defaults: fine");
	cfg.loop = 3;
	cfg.topspeed = true;
	cfg.pps = 1000;
	CHECK(pb_replay_validate(&cfg, err, sizeof(err)) == 0, "without --replay: not used");
	cfg.topspeed = false;
	cfg.pps = 0;
	snprintf(cfg.replay, sizeof(cfg.replay), "x.pcap");
	CHECK(pb_replay_validate(&cfg, err, sizeof(err)) == 0, "--replay --loop 3: fine");
	cfg.topspeed = true;
	cfg.pps = 1000;
	CHECK(pb_replay_validate(&cfg, err, sizeof(err)) == -EINVAL, "--topspeed --pps: %s", err);
	cfg.topspeed = false;
	cfg.multiplier = 2;
	CHECK(pb_replay_validate(&cfg, err, sizeof(err)) == -EINVAL, "--multiplier --pps: %s", err);
	cfg.multiplier = 0;
	cfg.pps = 0;
	cfg.count = 10;
	CHECK(pb_replay_validate(&cfg, err, sizeof(err)) == -EINVAL && strstr(err, "--limit"),
	      "--replay --count: refused, pointing to --limit: %s", err);
}

/*
 * --limit N: the replay's first N frames over its passes, in file order, each stream its own
 * among them. 40 frames alternating between 2 streams; --limit 45 --loop 2: one pass, then
 * frames 0..4 of the next (streams 0, 1, 0, 1, 0): 23 and 22, the run's count 45; --loop 1
 * bounds it to 40; --loop 0 (until --duration) takes the limit alone. Preloaded and streamed.
 */
static void test_limit(void)
{
	static const struct {
		uint32_t loop;
		uint64_t limit, count, q0, q1;
	} cases[] = {
		{ 2, 45, 45, 23, 22 },
		{ 1, 45, 40, 20, 20 },
		{ 0, 7, 7, 4, 3 },
		{ 3, 0, 120, 60, 60 },
	};
	const struct pb_method *ms[2] = { &frame_m, &stream_m };
	uint8_t d[2200];
	struct cap c;
	uint32_t i, k, m;

	cap_open(&c, F_NSEC);
	for (i = 0; i < 40; i++) {
		uint32_t len = mk(d, 18 + i, 17, 0, (uint16_t)(5000 + i % 4));

		cap_put(&c, (uint64_t)i * 1000, d, len, len);
	}
	cap_close(&c);
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		for (m = 0; m < 2; m++) {
			struct pb_config cfg;
			struct pb_replay *r;

			cfg_init(&cfg);
			cfg.streams = 2;
			cfg.loop = cases[k].loop;
			cfg.limit = cases[k].limit;
			cfg.preload = m ? PB_PRELOAD_NEVER : PB_PRELOAD_AUTO;
			snprintf(cfg.replay, sizeof(cfg.replay), "%s", c.path);
			r = open_ok(ms[m], &cfg);
			if (!r)
				continue;
			pb_replay_apply(r, &cfg);
			CHECK(cfg.count == cases[k].count && pb_replay_quota(r, 0) == cases[k].q0 &&
				      pb_replay_quota(r, 1) == cases[k].q1 &&
				      cfg.count_timeout_s > 10,
			      "--loop %u --limit %llu, %s: count %llu (want %llu), streams' "
			      "%llu, %llu (want %llu, %llu)",
			      cases[k].loop, (unsigned long long)cases[k].limit,
			      m ? "streamed" : "preloaded", (unsigned long long)cfg.count,
			      (unsigned long long)cases[k].count,
			      (unsigned long long)pb_replay_quota(r, 0),
			      (unsigned long long)pb_replay_quota(r, 1),
			      (unsigned long long)cases[k].q0, (unsigned long long)cases[k].q1);
			pb_replay_free(r);
		}
	}
	unlink(c.path);
}

/* --preload: a file over the bound (auto) or any file (never) is streamed, not refused. */
static void test_preload(void)
{
	struct pb_config cfg;
	struct pb_replay *r = NULL;
	struct pb_result res;
	struct cap c;
	uint8_t d[2200];
	char err[256] = "";
	uint32_t len = mk(d, 1472, 17, 0, 1000), i;

	cap_open(&c, F_PCAP);
	for (i = 0; i < 1000; i++) /* about 1.5 MiB */
		cap_put(&c, 1700000000ull * 1000000000ull + i * 50000, d, len, len);
	cap_close(&c);
	cfg_init(&cfg);
	snprintf(cfg.replay, sizeof(cfg.replay), "%s", c.path);
	CHECK(cfg.preload == PB_PRELOAD_AUTO && cfg.preload_max_mib == 1024,
	      "defaults: --preload auto, --preload-max 1024 MiB");
	CHECK(pb_replay_validate(&cfg, err, sizeof(err)) == 0, "auto, 1.5 MiB under 1024: %s", err);
	r = open_ok(&frame_m, &cfg);
	memset(&res, 0, sizeof(res));
	if (r)
		pb_replay_result(r, &res);
	CHECK(r && !res.replay.streamed, "auto, under the bound: read into memory");
	pb_replay_free(r);
	r = NULL;
	cfg.preload_max_mib = 1;
	CHECK(pb_replay_validate(&cfg, err, sizeof(err)) == 0, "auto, over 1 MiB: fine: %s", err);
	CHECK(pb_replay_open(&r, &frame_m, &cfg, err, sizeof(err)) == -EOPNOTSUPP && !r &&
		      strstr(err, "fake_frames takes its frames once at open") &&
		      !strchr(err, '\n') && strlen(err) < sizeof(res.reason),
	      "auto, over the bound, a method that cannot stream: a skipped row: %s", err);
	r = open_ok(&stream_m, &cfg);
	memset(&res, 0, sizeof(res));
	if (r)
		pb_replay_result(r, &res);
	CHECK(r && res.replay.streamed && res.replay.window_frames == 2048 &&
		      res.replay.pass_frames == 1000,
	      "auto, over the bound: streamed through a 2048-frame window");
	pb_replay_free(r);
	cfg.preload = PB_PRELOAD_ALWAYS;
	CHECK(pb_replay_validate(&cfg, err, sizeof(err)) == 0, "always: read whatever its size");
	r = open_ok(&frame_m, &cfg);
	pb_replay_free(r);
	cfg.preload = PB_PRELOAD_NEVER;
	cfg.preload_max_mib = 1024;
	r = open_ok(&stream_m, &cfg);
	memset(&res, 0, sizeof(res));
	if (r)
		pb_replay_result(r, &res);
	CHECK(r && res.replay.streamed, "never: streamed, however small");
	pb_replay_free(r);
	unlink(c.path);

	/*
	 * auto bounds the memory, not the file: 0.85 MiB of 60-byte frames is under 1 MiB, but
	 * preloaded its 11,700 frames take about 100 bytes each beside their own: streamed
	 */
	len = mk(d, 18, 17, 0, 1000);
	cap_open(&c, F_PCAP);
	for (i = 0; i < 11700; i++)
		cap_put(&c, 1700000000ull * 1000000000ull + i * 50000, d, len, len);
	cap_close(&c);
	snprintf(cfg.replay, sizeof(cfg.replay), "%s", c.path);
	cfg.preload = PB_PRELOAD_AUTO;
	cfg.preload_max_mib = 1;
	r = open_ok(&stream_m, &cfg);
	memset(&res, 0, sizeof(res));
	if (r)
		pb_replay_result(r, &res);
	CHECK(r && res.replay.streamed && res.replay.pass_frames == 11700,
	      "auto, a file under the bound whose preload is over it: streamed");
	pb_replay_free(r);
	cfg.preload_max_mib = 3;
	r = open_ok(&stream_m, &cfg);
	memset(&res, 0, sizeof(res));
	if (r)
		pb_replay_result(r, &res);
	CHECK(r && !res.replay.streamed && res.replay.pass_frames == 11700,
	      "auto, its preload under a 3 MiB bound: read into memory");
	pb_replay_free(r);
	unlink(c.path);
}

/*
 * Streaming against preloading, frame by frame: a worker that takes a few frames at a time
 * out of its window (as af_packet and af_xdp copy them out) while the reader thread refills
 * it gets exactly the preloaded frames, in order, over two passes of two streams, and the
 * same schedule.
 */
static void test_stream(void)
{
	static const uint32_t sizes[] = { 18, 554, 1472, 100 };
	struct pb_replay *ref = NULL, *r = NULL;
	struct pb_pool rp[2], sp[2];
	struct pb_result rres, sres;
	uint64_t taken[2] = { 0, 0 }, bad = 0, rounds = 0;
	struct pb_config cfg;
	uint8_t d[2200];
	struct cap c;
	double next;
	uint32_t i;

	cap_open(&c, F_NSEC);
	for (i = 0; i < 5000; i++) { /* 10 kpps, about 3 MB, flows 1000 and 1001 in turn */
		uint32_t len = mk(d, sizes[i % 4], 17, 0, (uint16_t)(1000 + i % 2));

		cap_put(&c, 1700000000ull * 1000000000ull + i * 100000ull, d, len, len);
	}
	cap_close(&c);
	cfg_init(&cfg);
	snprintf(cfg.replay, sizeof(cfg.replay), "%s", c.path);
	cfg.streams = 2;
	cfg.loop = 2;
	cfg.preload = PB_PRELOAD_ALWAYS;
	ref = open_ok(&stream_m, &cfg);
	cfg.preload = PB_PRELOAD_NEVER;
	r = open_ok(&stream_m, &cfg);
	if (!ref || !r)
		goto out;
	for (i = 0; i < 2; i++) {
		pb_replay_take_pool(ref, i, &rp[i]);
		pb_replay_take_pool(r, i, &sp[i]);
		pb_replay_attach(pb_replay_stream(r, i), &taken[i]);
	}
	CHECK(rp[0].n == 2500 && sp[0].n == 2048 && sp[0].streamed && !rp[0].streamed,
	      "2500 frames a stream preloaded, a 2048-frame window streamed");
	CHECK(pb_replay_quota(r, 0) == 5000 && pb_replay_quota(ref, 1) == 5000, "quota 2 x 2500");
	CHECK(pb_replay_start(r) == 0, "the reader starts");
	for (i = 0; i < 2; i++) { /* both schedules start at 0: everything is due by 100 s */
		pb_replay_allowance(pb_replay_stream(r, i), 0, 0, &next);
		pb_replay_allowance(pb_replay_stream(ref, i), 0, 0, &next);
	}
	while ((!pb_replay_exhausted(pb_replay_stream(r, 0)) ||
		!pb_replay_exhausted(pb_replay_stream(r, 1))) &&
	       rounds++ < 10000000) {
		for (i = 0; i < 2; i++) {
			struct pb_replay_stream *s = pb_replay_stream(r, i);
			uint64_t n = pb_replay_allowance(s, 100.0, 0, &next), k;

			/* 1 to 97 frames a call, never more than offered */
			for (k = 0; k < n && k < 1 + rounds % 97; k++) {
				const struct pb_frame *a = &sp[i].frames[taken[i] & (sp[i].n - 1)];
				const struct pb_frame *b = &rp[i].frames[taken[i] % rp[i].n];

				bad += a->len != b->len || memcmp(a->data, b->data, b->len);
				taken[i]++;
			}
			pb_replay_note(s, 0);
			/* the preloaded one is told the same, by what was handed over */
			pb_replay_allowance(pb_replay_stream(ref, i), 100.0, taken[i], &next);
			pb_replay_note(pb_replay_stream(ref, i), taken[i]);
		}
	}
	CHECK(taken[0] == 5000 && taken[1] == 5000 && !bad,
	      "streamed: 2 x 5000 frames taken, %llu unlike the preloaded ones",
	      (unsigned long long)bad);
	pb_replay_stop(r);
	memset(&rres, 0, sizeof(rres));
	memset(&sres, 0, sizeof(sres));
	pb_replay_result(ref, &rres);
	pb_replay_result(r, &sres);
	CHECK(sres.replay.frames == 10000 && sres.replay.loops == 2 &&
		      sres.replay.bytes == rres.replay.bytes && sres.replay.file_frames == 5000 &&
		      sres.status != PB_STATUS_ERROR,
	      "streamed: 10000 frames, 2 passes, %llu bytes as preloaded",
	      (unsigned long long)sres.replay.bytes);
	CHECK(fabs(sres.replay.sched_duration_s - rres.replay.sched_duration_s) < 1e-9 &&
		      fabs(rres.replay.sched_duration_s - 0.9999) < 1e-9,
	      "the same schedule: %.9f s and %.9f s", sres.replay.sched_duration_s,
	      rres.replay.sched_duration_s);
	sres.gaps.on = sres.gaps.measured = rres.gaps.on = rres.gaps.measured = true;
	pb_replay_gaps(ref, &rres);
	pb_replay_gaps(r, &sres);
	CHECK(sres.replay.gaps_known && fabs(sres.replay.gap_p50_us - 200) < 0.05 &&
		      fabs(rres.replay.gap_p50_us - 200) < 1e-6,
	      "the schedule's gaps: 200 us a stream, streamed %.3f us, preloaded %.3f us",
	      sres.replay.gap_p50_us, rres.replay.gap_p50_us);
	for (i = 0; i < 2; i++) {
		pb_pool_free(&rp[i]);
		pb_pool_free(&sp[i]);
	}
out:
	pb_replay_free(r);
	pb_replay_free(ref);
	unlink(c.path);
}

/* A replay's figures, opened with cfg (NULL: it did not open). */
static struct pb_replay *odd_open(const struct pb_method *m, struct pb_config *cfg,
				  struct pb_result *res)
{
	struct pb_replay *r = open_ok(m, cfg);

	memset(res, 0, sizeof(*res));
	if (r)
		pb_replay_result(r, res);
	return r;
}

/* Streamed: the reader goes through every pass to the file's cut end without failing. */
static void odd_stream_all(struct pb_replay *r, uint64_t want, const char *what)
{
	struct pb_replay_stream *s = pb_replay_stream(r, 0);
	struct pb_result res;
	struct pb_pool pool;
	uint64_t taken = 0, rounds = 0;
	double next;

	pb_replay_take_pool(r, 0, &pool);
	pb_replay_attach(s, &taken);
	CHECK(pb_replay_start(r) == 0, "%s: the reader starts", what);
	pb_replay_allowance(s, 0, 0, &next);
	while (!pb_replay_exhausted(s) && rounds++ < 10000000) {
		taken += pb_replay_allowance(s, 1e12, 0, &next);
		pb_replay_note(s, 0);
	}
	pb_replay_stop(r);
	memset(&res, 0, sizeof(res));
	pb_replay_result(r, &res);
	CHECK(taken == want && !res.replay.reader_failed,
	      "%s: streamed, %llu frames taken (want %llu), reader failed %d", what,
	      (unsigned long long)taken, (unsigned long long)want, res.replay.reader_failed);
	pb_pool_free(&pool);
}

/*
 * A capture whose last record is cut (the capturing process stopped mid-write): its whole
 * frames replay, preloaded or streamed (every pass ends at the cut), and the row says how
 * many bytes are missing. Cut in the record's data (40 bytes short, pcap and pcapng) and in
 * a pcap record's header (5 of its 16 bytes there).
 */
static void test_cut(void)
{
	static const struct {
		enum fmt fmt;
		long cut;      /* bytes taken off the file's end */
		uint64_t want; /* what libpcap then misses */
	} cases[] = { { F_PCAP, 40, 40 }, { F_PCAPNG, 40, 40 }, { F_PCAP, 71, 11 } };
	uint8_t d[2200];
	unsigned int k, i;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		uint32_t len = mk(d, 18, 17, 0, 1000); /* 60 bytes */
		struct pb_config cfg;
		struct pb_replay *r;
		struct pb_result res;
		struct cap c;
		char what[64];
		FILE *f;
		long size;

		cap_open(&c, cases[k].fmt);
		for (i = 0; i < 6; i++)
			cap_put(&c, 1000000000ull + i * 1000000ull, d, len, len);
		cap_close(&c);
		f = fopen(c.path, "rb");
		fseek(f, 0, SEEK_END);
		size = ftell(f);
		fclose(f);
		CHECK(truncate(c.path, size - cases[k].cut) == 0, "truncate %s", c.path);
		cfg_init(&cfg);
		snprintf(cfg.replay, sizeof(cfg.replay), "%s", c.path);
		cfg.loop = 2;
		snprintf(what, sizeof(what), "cut %u (%s, %ld bytes off)", k,
			 cases[k].fmt == F_PCAPNG ? "pcapng" : "pcap", cases[k].cut);
		cfg.preload = PB_PRELOAD_ALWAYS;
		r = odd_open(&frame_m, &cfg, &res);
		CHECK(r && res.replay.file_frames == 5 && res.replay.pass_frames == 5 &&
			      res.replay.cut && res.replay.cut_bytes == cases[k].want,
		      "%s, preloaded: %llu frames, %llu replayed (want 5, 5), cut %d by %llu "
		      "bytes (want %llu)",
		      what, (unsigned long long)res.replay.file_frames,
		      (unsigned long long)res.replay.pass_frames, res.replay.cut,
		      (unsigned long long)res.replay.cut_bytes, (unsigned long long)cases[k].want);
		pb_replay_free(r);
		cfg.preload = PB_PRELOAD_NEVER;
		r = odd_open(&stream_m, &cfg, &res);
		CHECK(r && res.replay.pass_frames == 5 && res.replay.cut &&
			      res.replay.cut_bytes == cases[k].want,
		      "%s, streamed: %llu replayed, cut %d by %llu bytes", what,
		      (unsigned long long)res.replay.pass_frames, res.replay.cut,
		      (unsigned long long)res.replay.cut_bytes);
		if (r)
			odd_stream_all(r, 10, what);
		pb_replay_free(r);
		unlink(c.path);
	}
}

/*
 * Stamps that go back replay in file order, as tcpreplay replays them: a frame stamped before
 * the latest stamp so far goes at once and the file's clock stays at that latest stamp, so
 * the file lasts from its first stamp to its latest (never negative) and a step back is never
 * added again through the next gap (issue 46: 26.6 s of capture took 80.6 s). 1, 2, 0 s: 1 s
 * (it was -1.0); 1, 5, 2, 3 s: due at 0, 4, 4, 4 s (was 0, 4, 4, 5); 0, 2, 1, 3, 1, 4 s: 4 s,
 * 2 went back (was 7 s). A pcap record's 32-bit seconds past 2^31 (libpcap reads them signed)
 * and a 4e9 s gap keep their 64-bit value (it was -294967296).
 */
static void test_stamps(void)
{
	static const struct {
		enum fmt fmt;
		uint64_t ts[6]; /* s */
		unsigned int n;
		double file_s;
		uint64_t back;
	} cases[] = {
		{ F_NSEC, { 1, 2, 0 }, 3, 1.0, 1 },
		{ F_NSEC, { 1, 5, 2, 3 }, 4, 4.0, 1 },
		{ F_NSEC, { 0, 2, 1, 3, 1, 4 }, 6, 4.0, 2 },
		{ F_PCAP, { 0, 4000000000ull }, 2, 4e9, 0 },
		{ F_PCAP, { 2147483647ull, 2147483649ull, 2147483650ull }, 3, 3.0, 0 },
		{ F_PCAPNG, { 1, 8589934593ull }, 2, 8589934592.0, 0 },
	};
	uint8_t d[2200];
	unsigned int k, i;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		uint32_t len = mk(d, 18, 17, 0, 1000);
		struct pb_config cfg;
		struct pb_replay *r;
		struct pb_result res;
		struct cap c;

		cap_open(&c, cases[k].fmt);
		for (i = 0; i < cases[k].n; i++)
			cap_put(&c, cases[k].ts[i] * 1000000000ull, d, len, len);
		cap_close(&c);
		cfg_init(&cfg);
		snprintf(cfg.replay, sizeof(cfg.replay), "%s", c.path);
		r = odd_open(&frame_m, &cfg, &res);
		CHECK(r && res.replay.file_duration_s == cases[k].file_s &&
			      res.replay.backwards == cases[k].back &&
			      res.status != PB_STATUS_ERROR,
		      "stamps %u: file duration %.9f s (want %.1f), %llu went back (want %llu)", k,
		      res.replay.file_duration_s, cases[k].file_s,
		      (unsigned long long)res.replay.backwards, (unsigned long long)cases[k].back);
		if (r && k == 1) {
			struct pb_replay_stream *s = pb_replay_stream(r, 0);
			double next = 0;
			uint64_t a, b;

			/* from an origin at 10 s: frame 0 at once, 1, 2 and 3 at 14 s */
			a = pb_replay_allowance(s, 10.0, 0, &next);
			pb_replay_note(s, a);
			b = pb_replay_allowance(s, 10.0, 1, &next);
			CHECK(a == 1 && b == 0 && next == 14.0,
			      "back: frame 0 at once (%llu), frame 1 due at +%.9f s (want 4)",
			      (unsigned long long)a, next - 10.0);
			b = pb_replay_allowance(s, 14.0, 1, &next);
			pb_replay_note(s, 1 + b);
			CHECK(b == 3, "back: frames 1, 2 and 3 all at +4 s (%llu due, want 3)",
			      (unsigned long long)b);
		}
		pb_replay_free(r);
		cfg.preload = PB_PRELOAD_NEVER;
		r = odd_open(&stream_m, &cfg, &res);
		CHECK(r && res.replay.file_duration_s == cases[k].file_s &&
			      res.replay.backwards == cases[k].back,
		      "stamps %u, streamed: file duration %.9f s, %llu went back", k,
		      res.replay.file_duration_s, (unsigned long long)res.replay.backwards);
		pb_replay_free(r);
		unlink(c.path);
	}
}

int main(void)
{
#ifndef PB_HAVE_PCAP
	printf("SKIP: --replay reads captures with libpcap, which this build lacks (Debian package "
	       "libpcap-dev)\n");
	return 77;
#endif
	test_formats();
	test_skips();
	test_rewrite();
	test_streams();
	test_timings();
	test_departures();
	test_validate();
	test_limit();
	test_preload();
	test_stream();
	test_cut();
	test_stamps();
	return check_summary();
}
