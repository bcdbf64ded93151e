// SPDX-License-Identifier: MIT
/*
 * --rewrite-ip and --rewrite-port (replay_rewrite.c) against known answers: the addresses a
 * map gives, every checksum over them good again by naive_csum.h's independent reading, a
 * fragment's checksum the whole datagram's, and the options' refusals.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "options.h"
#include "replay_rewrite.h"
#include "check.h"
#include "naive_csum.h"

/* Folds a naive sum into the checksum at c over the bytes it covers. */
static void fill(uint8_t *c, unsigned int sum)
{
	unsigned int v = ~sum & 0xffff;

	c[0] = (uint8_t)(v >> 8);
	c[1] = (uint8_t)v;
}

/* The L4 checksum over its pseudo-header, put right (proto at its offset at). */
static void fill_l4(uint8_t *ip, int family, uint8_t proto, uint32_t at)
{
	static uint8_t pseudo[40 + 4096];
	size_t len, n;
	uint8_t *l4 = (uint8_t *)naive_udp(ip, family, &len);

	l4[at] = l4[at + 1] = 0;
	if (family == AF_INET) {
		memcpy(pseudo, ip + 12, 8);
		pseudo[8] = 0;
		pseudo[9] = proto;
		pseudo[10] = (uint8_t)(len >> 8);
		pseudo[11] = (uint8_t)len;
		n = 12;
	} else {
		memcpy(pseudo, ip + 8, 32);
		memset(pseudo + 32, 0, 8);
		pseudo[34] = (uint8_t)(len >> 8);
		pseudo[35] = (uint8_t)len;
		pseudo[39] = proto;
		n = 40;
	}
	memcpy(pseudo + n, l4, len);
	fill(l4 + at, naive_sum(pseudo, n + len));
}

/*
 * From the EtherType on: IPv4 or IPv6, proto (UDP, TCP, ICMP, ICMPv6) from 10.1.2.3 port
 * 9 to 10.200.0.5 port 53 (IPv6: 2001:db8::3 to 2001:db8::5), 30 bytes of payload, every
 * checksum good. Its length.
 */
static uint32_t mk(uint8_t *p, int family, uint8_t proto)
{
	uint32_t hl = proto == IPPROTO_TCP ? 20 : 8, l3 = family == AF_INET ? 20 : 40, i;
	uint8_t *ip = p + 2, *l4 = ip + l3;

	memset(p, 0, 256);
	for (i = 0; i < 30; i++)
		l4[hl + i] = (uint8_t)(i * 13 + 5);
	if (proto == IPPROTO_TCP || proto == IPPROTO_UDP) {
		l4[1] = 9;
		l4[3] = 53;
	}
	if (proto == IPPROTO_UDP) {
		l4[4] = 0;
		l4[5] = (uint8_t)(hl + 30);
	}
	if (proto == IPPROTO_TCP)
		l4[12] = 5 << 4;
	if (family == AF_INET) {
		p[0] = 0x08;
		ip[0] = 0x45;
		ip[3] = (uint8_t)(20 + hl + 30);
		ip[8] = 64;
		ip[9] = proto;
		memcpy(ip + 12, "\x0a\x01\x02\x03\x0a\xc8\x00\x05", 8);
		fill(ip + 10, naive_sum(ip, 20));
	} else {
		p[0] = 0x86;
		p[1] = 0xdd;
		ip[0] = 0x60;
		ip[5] = (uint8_t)(hl + 30);
		ip[6] = proto;
		ip[7] = 64;
		inet_pton(AF_INET6, "2001:db8::3", ip + 8);
		inet_pton(AF_INET6, "2001:db8::5", ip + 24);
	}
	if (proto == IPPROTO_ICMP)
		fill(l4 + 2, naive_sum(l4, hl + 30));
	else
		fill_l4(ip, family, proto,
			proto == IPPROTO_TCP   ? 16
			: proto == IPPROTO_UDP ? 6
					       : 2);
	return 2 + l3 + hl + 30;
}

static struct rp_rw parse(const char *ip, const char *port, int family, int want)
{
	struct pb_config cfg;
	struct rp_rw rw;
	char err[256] = "";
	int ret;

	CHECK(pb_cmd_defaults(&pb_cmd_main, &cfg, err, sizeof(err)) == 0, "defaults: %s", err);
	if (family == AF_INET6) {
		pb_parse_addr("2001:2::1", &cfg.srcip);
		pb_parse_addr("2001:2::2", &cfg.dstip);
	} else {
		pb_parse_addr("198.18.0.1", &cfg.srcip);
		pb_parse_addr("198.19.0.2", &cfg.dstip);
	}
	snprintf(cfg.rewrite_ip, sizeof(cfg.rewrite_ip), "%s", ip);
	snprintf(cfg.rewrite_port, sizeof(cfg.rewrite_port), "%s", port);
	ret = rp_rewrite_parse(&cfg, &rw, err, sizeof(err));
	CHECK(ret == want && (!ret || err[0]), "'%s' '%s': %d, want %d (%s)", ip, port, ret, want,
	      err);
	return rw;
}

static void test_parse(void)
{
	struct rp_rw rw;

	rw = parse("10.0.0.0/8=198.18.0.0/15,2001:db8::/32=2001:2::/48", "9=7777,53=5353", AF_INET,
		   0);
	CHECK(rw.nip == 2 && rw.ip[0].from_len == 8 && rw.ip[0].to_len == 15 &&
		      rw.ip[1].from.family == AF_INET6 && rw.nport == 2 && rw.port[1].to == 5353,
	      "two rules of each kind");
	rw = parse("198.18.0.9=198.18.0.10", "", AF_INET, 0);
	CHECK(rw.nip == 1 && rw.ip[0].from_len == 32, "an address alone is a /32");
	rw = parse("run", "", AF_INET, 0);
	CHECK(rw.run && !rw.nip, "run");
	parse("10.0.0.0/8=2001:2::/48", "", AF_INET, -EINVAL);
	parse("10.0.0.0/33=198.18.0.0/15", "", AF_INET, -EINVAL);
	parse("10.0.0.0/8", "", AF_INET, -EINVAL);
	parse("nonsense=198.18.0.0/15", "", AF_INET, -EINVAL);
	parse("1.0.0.0/8=198.18.0.0/15,2.0.0.0/8=198.18.0.0/15,3.0.0.0/8=198.18.0.0/15,"
	      "4.0.0.0/8=198.18.0.0/15,5.0.0.0/8=198.18.0.0/15,6.0.0.0/8=198.18.0.0/15,"
	      "7.0.0.0/8=198.18.0.0/15,8.0.0.0/8=198.18.0.0/15,9.0.0.0/8=198.18.0.0/15",
	      "", AF_INET, -EINVAL);
	parse("", "80=", AF_INET, -EINVAL);
	parse("", "80=70000", AF_INET, -EINVAL);
	parse("", "x", AF_INET, -EINVAL);
	parse("", "80=81,", AF_INET, -EINVAL);
}

/* Every kind of frame through a map and a port map: the known addresses, checksums good. */
static void test_frames(void)
{
	static const struct {
		int family;
		uint8_t proto;
	} kinds[] = {
		{ AF_INET, IPPROTO_UDP },  { AF_INET, IPPROTO_TCP },  { AF_INET, IPPROTO_ICMP },
		{ AF_INET6, IPPROTO_UDP }, { AF_INET6, IPPROTO_TCP }, { AF_INET6, IPPROTO_ICMPV6 },
	};
	uint8_t p[256], want[16];
	unsigned int k;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		int fam = kinds[k].family;
		uint8_t proto = kinds[k].proto;
		struct rp_rw rw = parse("10.0.0.0/8=198.18.0.0/15,2001:db8::/32=2001:2::/48",
					"9=7777", fam, 0);
		uint32_t len = mk(p, fam, proto);
		uint8_t *ip = p + 2, *l4 = ip + (fam == AF_INET ? 20 : 40);
		bool ok;

		CHECK(rp_rewrite(p, len, &rw), "kind %u: rewritten", k);
		if (fam == AF_INET) {
			/* 10.1.2.3: 198.18/15's first 15 bits, then its own: 198.19.2.3 */
			ok = !memcmp(ip + 12, "\xc6\x13\x02\x03\xc6\x12\x00\x05", 8);
			CHECK(ok && naive_ipv4_ok(ip),
			      "kind %u: 198.19.2.3 -> 198.18.0.5, IPv4 "
			      "checksum good",
			      k);
		} else {
			inet_pton(AF_INET6, "2001:2::3", want);
			CHECK(!memcmp(ip + 8, want, 16), "kind %u: 2001:2::3", k);
		}
		if (proto == IPPROTO_ICMP)
			CHECK(naive_sum(l4, 8 + 30) == 0xffff, "kind %u: ICMP checksum good", k);
		else
			CHECK(naive_l4_ok(ip, fam, proto), "kind %u: L4 checksum good", k);
		if (proto == IPPROTO_TCP || proto == IPPROTO_UDP)
			CHECK(l4[0] == 7777 >> 8 && l4[1] == (7777 & 0xff) && l4[3] == 53,
			      "kind %u: source port 9 -> 7777, 53 kept", k);
	}
}

/*
 * A first fragment's checksum covers the whole datagram, which the frame does not hold: the
 * incremental update gives what the whole datagram's would be. A later fragment: addresses.
 * A UDP checksum of 0 (none) stays 0. ARP's addresses. --rewrite-ip run.
 */
static void test_odd(void)
{
	struct rp_rw rw = parse("10.0.0.0/8=198.18.0.0/15", "", AF_INET, 0);
	uint8_t whole[256], frag[256], *ip;
	uint32_t len = mk(whole, AF_INET, IPPROTO_UDP);

	memcpy(frag, whole, len);
	frag[2 + 6] = 0x20; /* MF: the header's checksum again */
	frag[2 + 10] = frag[2 + 11] = 0;
	fill(frag + 2 + 10, naive_sum(frag + 2, 20));
	rp_rewrite(whole, len, &rw);
	rp_rewrite(frag, 2 + 20 + 8 + 10, &rw); /* the fragment: 10 of the 30 bytes */
	CHECK(naive_udp_ok(whole + 2, AF_INET) && !memcmp(frag + 2 + 26, whole + 2 + 26, 2) &&
		      naive_ipv4_ok(frag + 2),
	      "first fragment: the whole datagram's checksum");

	len = mk(frag, AF_INET, IPPROTO_UDP);
	ip = frag + 2;
	ip[6] = 0x00;
	ip[7] = 0x10; /* offset 128: a later fragment, its bytes not a UDP header */
	ip[10] = ip[11] = 0;
	fill(ip + 10, naive_sum(ip, 20));
	memcpy(whole, frag, len);
	rp_rewrite(frag, len, &rw);
	CHECK(naive_ipv4_ok(ip) && !memcmp(ip + 12, "\xc6\x13\x02\x03", 4) &&
		      !memcmp(ip + 20, whole + 22, len - 22),
	      "later fragment: its addresses, its bytes after the header as they were");

	len = mk(frag, AF_INET, IPPROTO_UDP);
	frag[2 + 26] = frag[2 + 27] = 0;
	rp_rewrite(frag, len, &rw);
	CHECK(!frag[2 + 26] && !frag[2 + 27], "a UDP checksum of 0 stays 0");

	memset(frag, 0, 64);
	memcpy(frag, "\x08\x06\x00\x01\x08\x00\x06\x04\x00\x01", 10);
	memcpy(frag + 2 + 14, "\x0a\x00\x00\x01", 4);
	memcpy(frag + 2 + 24, "\x0a\x00\x00\x02", 4);
	rw = parse("run", "", AF_INET, 0);
	CHECK(rp_rewrite(frag, 2 + 28, &rw) && !memcmp(frag + 2 + 14, "\xc6\x12\x00\x01", 4) &&
		      !memcmp(frag + 2 + 24, "\xc6\x13\x00\x02", 4),
	      "ARP, --rewrite-ip run: sender --srcip, target --dstip");
	len = mk(frag, AF_INET6, IPPROTO_TCP);
	CHECK(!rp_rewrite(frag, len, &rw), "run: an IPv6 frame in an IPv4 run is left");
	len = mk(frag, AF_INET, IPPROTO_TCP);
	CHECK(rp_rewrite(frag, len, &rw) && naive_l4_ok(frag + 2, AF_INET, IPPROTO_TCP) &&
		      !memcmp(frag + 2 + 12, "\xc6\x12\x00\x01\xc6\x13\x00\x02", 8),
	      "run: TCP from --srcip to --dstip, checksum good");
	rw = parse("", "", AF_INET, 0);
	memcpy(whole, frag, len);
	CHECK(!rp_rewrite(frag, len, &rw) && !memcmp(whole, frag, len), "no rules: untouched");
}

/*
 * --fixcsum: every checksum a frame holds whole, wrong or 0 in the capture, computed afresh
 * (IPv4's header, UDP, TCP, ICMPv6; a UDP one that comes out 0 goes as 0xffff); a fragment's
 * L4 checksum and a frame captured short of its datagram are left as they were.
 */
static void test_fixcsum(void)
{
	static const struct {
		int family;
		uint8_t proto;
	} kinds[] = {
		{ AF_INET, IPPROTO_UDP },  { AF_INET, IPPROTO_TCP },	 { AF_INET6, IPPROTO_UDP },
		{ AF_INET6, IPPROTO_TCP }, { AF_INET6, IPPROTO_ICMPV6 },
	};
	uint8_t p[256], *ip, *l4;
	uint32_t len, k, at, z;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		int fam = kinds[k].family;
		uint8_t proto = kinds[k].proto;

		at = proto == IPPROTO_TCP ? 16 : proto == IPPROTO_UDP ? 6 : 2;
		for (z = 0; z < 2; z++) { /* a wrong checksum, then 0 */
			len = mk(p, fam, proto);
			ip = p + 2;
			l4 = ip + (fam == AF_INET ? 20 : 40);
			l4[at] = z ? 0 : l4[at] ^ 0x5a;
			l4[at + 1] = z ? 0 : l4[at + 1] ^ 0xa5;
			if (fam == AF_INET)
				ip[10] = ip[11] = (uint8_t)(z ? 0 : 0x77);
			CHECK(rp_fixcsum(p, len) && naive_l4_ok(ip, fam, proto) &&
				      (fam != AF_INET || naive_ipv4_ok(ip)),
			      "--fixcsum, kind %u, checksum %s: every one good again", k,
			      z ? "0" : "wrong");
			CHECK(!rp_fixcsum(p, len), "--fixcsum, kind %u: good ones are left", k);
		}
	}
	/* a first fragment: its IPv4 header's checksum, not its L4's (the rest is not here) */
	len = mk(p, AF_INET, IPPROTO_UDP);
	ip = p + 2;
	ip[6] = 0x20;
	ip[10] = ip[11] = 0;
	ip[26] ^= 0xff;
	rp_fixcsum(p, len);
	CHECK(naive_ipv4_ok(ip) && !naive_l4_ok(ip, AF_INET, IPPROTO_UDP),
	      "--fixcsum, a first fragment: its header's checksum only");
	/* captured short: the UDP datagram is not all here */
	len = mk(p, AF_INET, IPPROTO_UDP);
	ip[26] ^= 0xff;
	rp_fixcsum(p, len - 10);
	ip[26] ^= 0xff;
	CHECK(naive_l4_ok(ip, AF_INET, IPPROTO_UDP),
	      "--fixcsum, captured short: its UDP checksum left as it was");
	CHECK(!rp_fixcsum(p, 1) && !rp_fixcsum(p, 21), "--fixcsum: too short to hold a header");
}

int main(void)
{
	test_parse();
	test_frames();
	test_odd();
	test_fixcsum();
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
