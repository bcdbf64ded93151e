// SPDX-License-Identifier: MIT
/*
 * --replay's rewrites past the MACs (replay_rewrite.h): addresses and ports, with the
 * checksums over them updated rather than computed again, since a captured frame may hold
 * only the start of its datagram (a fragment, a snap length) and its checksum the rest.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <netinet/in.h>

#include "replay_rewrite.h"

bool rp_rewrite_any(const struct rp_rw *rw)
{
	return rw->run || rw->nip || rw->nport;
}

/* FROM/LEN: an address and its prefix length (the whole address without one). */
static int rp_prefix(const char *s, struct pb_addr *a, uint8_t *plen)
{
	char buf[INET6_ADDRSTRLEN + 8], *slash, *end;
	unsigned long n;
	int max;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (slash)
		*slash = '\0';
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, buf, &a->v4) == 1)
		a->family = AF_INET;
	else if (inet_pton(AF_INET6, buf, &a->v6) == 1)
		a->family = AF_INET6;
	else
		return -EINVAL;
	max = a->family == AF_INET ? 32 : 128;
	*plen = (uint8_t)max;
	if (!slash)
		return 0;
	errno = 0;
	n = strtoul(slash + 1, &end, 10);
	if (errno || end == slash + 1 || *end || n > (unsigned long)max)
		return -EINVAL;
	*plen = (uint8_t)n;
	return 0;
}

static uint8_t *rp_bytes(struct pb_addr *a)
{
	return a->family == AF_INET ? (uint8_t *)&a->v4 : a->v6.s6_addr;
}

/* Whether a's first len bits are b's. */
static bool rp_in(const struct pb_addr *a, const struct pb_addr *b, uint32_t len)
{
	const uint8_t *x = a->family == AF_INET ? (const uint8_t *)&a->v4 : a->v6.s6_addr;
	const uint8_t *y = b->family == AF_INET ? (const uint8_t *)&b->v4 : b->v6.s6_addr;
	uint32_t i;

	if (a->family != b->family)
		return false;
	for (i = 0; i < len; i++)
		if ((x[i / 8] ^ y[i / 8]) & (0x80 >> (i % 8)))
			return false;
	return true;
}

void rp_rewrite_map(struct pb_addr *a, const struct rp_ip_rule *r)
{
	struct pb_addr to = r->to;
	uint8_t *x = rp_bytes(a), *y = rp_bytes(&to);
	uint32_t i;

	for (i = 0; i < r->to_len; i++) {
		uint8_t bit = 0x80 >> (i % 8);

		x[i / 8] = (uint8_t)((x[i / 8] & ~bit) | (y[i / 8] & bit));
	}
}

static int rp_parse_ip(const char *spec, struct rp_rw *rw, char *err, size_t errlen)
{
	char *copy = strdup(spec), *tok, *save = NULL;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct rp_ip_rule *r = &rw->ip[rw->nip];
		char *eq = strchr(tok, '=');

		if (rw->nip == RP_RW_MAX) {
			snprintf(err, errlen, "--rewrite-ip: at most %u rules", RP_RW_MAX);
			ret = -EINVAL;
			break;
		}
		if (eq)
			*eq = '\0';
		if (!eq || rp_prefix(tok, &r->from, &r->from_len) ||
		    rp_prefix(eq + 1, &r->to, &r->to_len) || r->from.family != r->to.family) {
			snprintf(err, errlen,
				 "--rewrite-ip '%s': want run, or FROM/LEN=TO/LEN[,...] of one "
				 "address family each (10.0.0.0/8=198.18.0.0/15)",
				 spec);
			ret = -EINVAL;
			break;
		}
		rw->nip++;
	}
	free(copy);
	return ret;
}

static int rp_parse_port(const char *spec, struct rp_rw *rw, char *err, size_t errlen)
{
	const char *p = spec;

	while (*p) {
		unsigned long from, to;
		char *end;

		errno = 0;
		from = strtoul(p, &end, 10);
		if (errno || end == p || *end != '=' || from > 65535 || rw->nport == RP_RW_MAX)
			goto bad;
		p = end + 1;
		to = strtoul(p, &end, 10);
		if (errno || end == p || (*end && *end != ',') || to > 65535)
			goto bad;
		rw->port[rw->nport].from = (uint16_t)from;
		rw->port[rw->nport].to = (uint16_t)to;
		rw->nport++;
		p = *end ? end + 1 : end;
		if (*end && !*p)
			goto bad;
	}
	return 0;
bad:
	snprintf(err, errlen,
		 "--rewrite-port '%s': want FROM=TO[,...] (at most %u), ports 0..65535", spec,
		 RP_RW_MAX);
	return -EINVAL;
}

int rp_rewrite_parse(const struct pb_config *cfg, struct rp_rw *rw, char *err, size_t errlen)
{
	int ret;

	memset(rw, 0, sizeof(*rw));
	rw->srcip = cfg->srcip;
	rw->dstip = cfg->dstip;
	if (!strcmp(cfg->rewrite_ip, "run")) {
		rw->run = true;
	} else if (cfg->rewrite_ip[0]) {
		ret = rp_parse_ip(cfg->rewrite_ip, rw, err, errlen);
		if (ret)
			return ret;
	}
	return cfg->rewrite_port[0] ? rp_parse_port(cfg->rewrite_port, rw, err, errlen) : 0;
}

/*
 * RFC 1624: the checksum at c (big-endian, in the frame) brought along for len bytes (even)
 * changing from old to new; call it before the bytes change. A UDP checksum of 0 over IPv4
 * means none and stays so (udp); one that comes out 0 is sent as 0xffff.
 */
static void rp_csum_fix(uint8_t *c, const uint8_t *old, const uint8_t *new, uint32_t len, bool udp)
{
	uint32_t sum = (uint16_t) ~(c[0] << 8 | c[1]), i;
	uint16_t out;

	if (udp && !c[0] && !c[1])
		return;
	for (i = 0; i < len; i += 2) {
		sum += (uint16_t) ~(old[i] << 8 | old[i + 1]);
		sum += (uint16_t)(new[i] << 8 | new[i + 1]);
	}
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	out = (uint16_t)~sum;
	if (udp && !out)
		out = 0xffff;
	c[0] = (uint8_t)(out >> 8);
	c[1] = (uint8_t)out;
}

/* Where a frame's checksums that cover its addresses or ports are, when it holds them. */
struct rp_sums {
	uint8_t *ip;	/* IPv4's header checksum */
	uint8_t *l4;	/* TCP's, UDP's or ICMPv6's: over the pseudo-header */
	uint8_t *ports; /* TCP's or UDP's ports */
	bool udp;
};

/* The address at p (a->family's size) as rw maps it, the checksums brought along. */
static bool rp_addr(uint8_t *p, const struct rp_rw *rw, const struct pb_addr *run, int family,
		    const struct rp_sums *s)
{
	uint32_t n = family == AF_INET ? 4 : 16, i;
	struct pb_addr a = { .family = family };
	uint8_t *b = rp_bytes(&a);

	memcpy(b, p, n);
	if (rw->run) {
		if (run->family != family)
			return false;
		a = *run;
	} else {
		for (i = 0; i < rw->nip; i++)
			if (rp_in(&a, &rw->ip[i].from, rw->ip[i].from_len))
				break;
		if (i == rw->nip)
			return false;
		rp_rewrite_map(&a, &rw->ip[i]);
	}
	b = rp_bytes(&a);
	if (!memcmp(p, b, n))
		return false;
	if (s->ip)
		rp_csum_fix(s->ip, p, b, n, false);
	if (s->l4)
		rp_csum_fix(s->l4, p, b, n, s->udp);
	memcpy(p, b, n);
	return true;
}

static bool rp_port(uint8_t *p, const struct rp_rw *rw, const struct rp_sums *s)
{
	uint16_t port = (uint16_t)(p[0] << 8 | p[1]);
	uint8_t to[2];
	uint32_t i;

	for (i = 0; i < rw->nport; i++) {
		if (rw->port[i].from != port || rw->port[i].to == port)
			continue;
		to[0] = (uint8_t)(rw->port[i].to >> 8);
		to[1] = (uint8_t)rw->port[i].to;
		if (s->l4)
			rp_csum_fix(s->l4, p, to, 2, s->udp);
		memcpy(p, to, 2);
		return true;
	}
	return false;
}

/* The L4 header's checksum and ports, when the capture holds them (csum: its offset). */
static void rp_l4(uint8_t *l4, uint32_t room, uint8_t proto, struct rp_sums *s)
{
	uint32_t at = proto == IPPROTO_TCP ? 16 : proto == IPPROTO_UDP ? 6 : 2;

	if (proto != IPPROTO_TCP && proto != IPPROTO_UDP && proto != IPPROTO_ICMPV6)
		return;
	if (room >= at + 2)
		s->l4 = l4 + at;
	s->udp = proto == IPPROTO_UDP;
	if (proto != IPPROTO_ICMPV6 && room >= 4)
		s->ports = l4;
}

/* IPv6's extension headers walked to the L4 header: its offset and protocol, or 0. */
static uint32_t rp_v6_l4(const uint8_t *ip, uint32_t len, uint8_t *proto)
{
	uint32_t off = 40;
	uint8_t nh = ip[6];
	int i;

	for (i = 0; i < 8; i++) {
		if (nh == IPPROTO_TCP || nh == IPPROTO_UDP || nh == IPPROTO_ICMPV6) {
			*proto = nh;
			return off;
		}
		if (off + 8 > len)
			return 0;
		if (nh == IPPROTO_FRAGMENT) {
			/* a later fragment holds no L4 header */
			if ((ip[off + 2] << 8 | ip[off + 3]) & 0xfff8)
				return 0;
			nh = ip[off];
			off += 8;
		} else if (nh == IPPROTO_HOPOPTS || nh == IPPROTO_ROUTING ||
			   nh == IPPROTO_DSTOPTS) {
			nh = ip[off];
			off += (ip[off + 1] + 1u) * 8;
		} else {
			return 0;
		}
	}
	return 0;
}

/*
 * From the EtherType on (p, len at least 2): the L3 type past one inner 802.1Q tag, *ip its
 * header and *len what is left of the frame from there.
 */
static uint16_t rp_l3(uint8_t *p, uint32_t *len, uint8_t **ip)
{
	uint16_t type = (uint16_t)(p[0] << 8 | p[1]);

	*ip = p + 2;
	*len -= 2;
	if (type == ETH_P_8021Q && *len >= 4) { /* an inner tag */
		type = (uint16_t)((*ip)[2] << 8 | (*ip)[3]);
		*ip += 4;
		*len -= 4;
	}
	return type;
}

bool rp_rewrite(uint8_t *p, uint32_t len, const struct rp_rw *rw)
{
	struct rp_sums s = { 0 };
	bool any = false;
	uint16_t type;
	uint8_t *ip;

	if (!rp_rewrite_any(rw) || len < 2)
		return false;
	type = rp_l3(p, &len, &ip);
	if (type == ETH_P_IP && len >= 20 && (ip[0] >> 4) == 4) {
		uint32_t ihl = (ip[0] & 15u) * 4;

		s.ip = ip + 10;
		if (ihl >= 20 && len >= ihl && !((ip[6] << 8 | ip[7]) & 0x1fff))
			rp_l4(ip + ihl, len - ihl, ip[9], &s);
		any |= rw->nip || rw->run ? rp_addr(ip + 12, rw, &rw->srcip, AF_INET, &s) : false;
		any |= rw->nip || rw->run ? rp_addr(ip + 16, rw, &rw->dstip, AF_INET, &s) : false;
	} else if (type == ETH_P_IPV6 && len >= 40 && (ip[0] >> 4) == 6) {
		uint8_t proto = 0;
		uint32_t l4 = rp_v6_l4(ip, len, &proto);

		if (l4)
			rp_l4(ip + l4, len - l4, proto, &s);
		any |= rw->nip || rw->run ? rp_addr(ip + 8, rw, &rw->srcip, AF_INET6, &s) : false;
		any |= rw->nip || rw->run ? rp_addr(ip + 24, rw, &rw->dstip, AF_INET6, &s) : false;
	} else if (type == ETH_P_ARP && len >= 28 && ip[4] == 6 && ip[5] == 4 &&
		   (ip[2] << 8 | ip[3]) == ETH_P_IP && (rw->nip || rw->run)) {
		/* IPv4 over Ethernet: the sender's and the target's addresses; no checksum */
		any |= rp_addr(ip + 14, rw, &rw->srcip, AF_INET, &s);
		any |= rp_addr(ip + 24, rw, &rw->dstip, AF_INET, &s);
		return any;
	} else {
		return false;
	}
	if (s.ports && rw->nport) {
		any |= rp_port(s.ports, rw, &s);
		any |= rp_port(s.ports + 2, rw, &s);
	}
	return any;
}

/* The ones' complement sum of len bytes at p, added to sum (not folded). */
static uint32_t rp_sum(const uint8_t *p, uint32_t len, uint32_t sum)
{
	uint32_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

/*
 * The checksum at c computed afresh over the n bytes at p it covers (c among them) and a
 * pseudo-header's sum; UDP's 0 goes out as 0xffff. True when it changed.
 */
static bool rp_sum_put(uint8_t *c, const uint8_t *p, uint32_t n, uint32_t pseudo, bool udp)
{
	uint16_t old = (uint16_t)(c[0] << 8 | c[1]), out;
	uint32_t sum;

	c[0] = 0;
	c[1] = 0;
	sum = rp_sum(p, n, pseudo);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	out = (uint16_t)~sum;
	if (udp && !out)
		out = 0xffff;
	c[0] = (uint8_t)(out >> 8);
	c[1] = (uint8_t)out;
	return out != old;
}

/* The L4 checksum of seg (n bytes, all of the datagram) over a pseudo-header's sum. */
static bool rp_l4_fix(uint8_t *seg, uint32_t n, uint8_t proto, uint32_t pseudo)
{
	uint32_t at = proto == IPPROTO_TCP ? 16 : proto == IPPROTO_UDP ? 6 : 2;

	if (n < at + 2 || (proto == IPPROTO_UDP && (uint32_t)(seg[4] << 8 | seg[5]) != n))
		return false;
	return rp_sum_put(seg + at, seg, n, pseudo + proto + n, proto == IPPROTO_UDP);
}

/* Whether IPv6's headers before its L4 header at l4 (rp_v6_l4) hold a fragment header. */
static bool rp_v6_frag(const uint8_t *ip, uint32_t l4)
{
	uint32_t off = 40;
	uint8_t nh = ip[6];

	while (off < l4) {
		if (nh == IPPROTO_FRAGMENT)
			return true;
		nh = ip[off];
		off += (ip[off + 1] + 1u) * 8;
	}
	return false;
}

bool rp_fixcsum(uint8_t *p, uint32_t len)
{
	uint16_t type;
	bool any = false;
	uint8_t *ip, proto = 0;

	if (len < 2)
		return false;
	type = rp_l3(p, &len, &ip);
	if (type == ETH_P_IP && len >= 20 && (ip[0] >> 4) == 4) {
		uint32_t ihl = (ip[0] & 15u) * 4, tot = (uint32_t)(ip[2] << 8 | ip[3]);

		if (ihl < 20 || len < ihl)
			return false;
		any = rp_sum_put(ip + 10, ip, ihl, 0, false);
		/* the datagram whole here: neither a fragment nor captured short */
		proto = ip[9];
		if (tot < ihl || tot > len || ((ip[6] << 8 | ip[7]) & 0x3fff) ||
		    (proto != IPPROTO_UDP && proto != IPPROTO_TCP))
			return any;
		any |= rp_l4_fix(ip + ihl, tot - ihl, proto, rp_sum(ip + 12, 8, 0));
	} else if (type == ETH_P_IPV6 && len >= 40 && (ip[0] >> 4) == 6) {
		uint32_t tot = 40 + (uint32_t)(ip[4] << 8 | ip[5]);
		uint32_t l4 = rp_v6_l4(ip, len, &proto);

		/* a first fragment has its L4 header but not its whole datagram */
		if (!l4 || tot > len || l4 > tot || rp_v6_frag(ip, l4))
			return false;
		any = rp_l4_fix(ip + l4, tot - l4, proto, rp_sum(ip + 8, 32, 0));
	}
	return any;
}
