// SPDX-License-Identifier: MIT
/* Frame builder: Ethernet II + IPv4/IPv6 + UDP with correct checksums and the run's signature. */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>
#include <netinet/udp.h>

#include "frame.h"

uint32_t pb_csum_add(uint32_t sum, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	/* fold now and then so a long buffer cannot overflow 32 bits */
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum;
}

uint16_t pb_csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

uint32_t pb_frame_overhead(int family)
{
	uint32_t ip = family == AF_INET6 ? sizeof(struct ip6_hdr) : sizeof(struct iphdr);

	return PB_ETH_HLEN + ip + sizeof(struct udphdr);
}

void pb_payload_fill(uint8_t *payload, uint32_t len, uint32_t run_id)
{
	uint32_t be[2] = { htonl(PB_SIG_MAGIC), htonl(run_id) };
	uint32_t i;

	memcpy(payload, be, PB_SIG_LEN);
	/* a recognisable, non-zero pattern after the signature */
	for (i = PB_SIG_LEN; i < len; i++)
		payload[i] = (uint8_t)i;
}

/* UDP checksum over the pseudo-header, header and payload (both families). */
static uint16_t frame_udp_csum(const struct pb_frame_spec *s, const struct udphdr *udp,
			       uint32_t udp_len)
{
	uint32_t sum = 0;
	uint8_t tail[4];
	uint16_t csum;

	if (s->srcip.family == AF_INET6) {
		sum = pb_csum_add(sum, &s->srcip.v6, 16);
		sum = pb_csum_add(sum, &s->dstip.v6, 16);
		memcpy(tail, &(uint32_t){ htonl(udp_len) }, 4);
		sum = pb_csum_add(sum, tail, 4);
	} else {
		sum = pb_csum_add(sum, &s->srcip.v4, 4);
		sum = pb_csum_add(sum, &s->dstip.v4, 4);
		tail[0] = 0;
		tail[1] = IPPROTO_UDP;
		tail[2] = udp_len >> 8;
		tail[3] = udp_len & 0xff;
		sum = pb_csum_add(sum, tail, 4);
	}
	sum += IPPROTO_UDP * (s->srcip.family == AF_INET6);
	sum = pb_csum_add(sum, udp, udp_len);
	csum = (uint16_t)~pb_csum_fold(sum);
	/* 0 means "no checksum" in UDP: send its ones' complement twin instead (RFC 768) */
	return htons(csum ? csum : 0xffff);
}

int pb_frame_build(struct pb_frame *f, const struct pb_frame_spec *s)
{
	uint32_t hdr = pb_frame_overhead(s->srcip.family);
	uint32_t udp_len = sizeof(struct udphdr) + s->payload_len;
	uint8_t *p = f->data;
	struct udphdr *udp;
	uint16_t ethertype;

	if (s->payload_len < PB_SIG_LEN || hdr + s->payload_len > PB_FRAME_MAX ||
	    s->srcip.family != s->dstip.family)
		return -EINVAL;

	memset(f, 0, sizeof(*f));
	memcpy(p, s->dstmac, 6);
	memcpy(p + 6, s->srcmac, 6);
	ethertype = htons(s->srcip.family == AF_INET6 ? ETH_P_IPV6 : ETH_P_IP);
	memcpy(p + 12, &ethertype, 2);
	f->l3_off = PB_ETH_HLEN;

	if (s->srcip.family == AF_INET6) {
		struct ip6_hdr *ip6 = (struct ip6_hdr *)(p + f->l3_off);

		ip6->ip6_flow = htonl(6u << 28);
		ip6->ip6_plen = htons(udp_len);
		ip6->ip6_nxt = IPPROTO_UDP;
		ip6->ip6_hlim = 64;
		ip6->ip6_src = s->srcip.v6;
		ip6->ip6_dst = s->dstip.v6;
		udp = (struct udphdr *)(ip6 + 1);
	} else {
		struct iphdr *ip = (struct iphdr *)(p + f->l3_off);

		ip->version = 4;
		ip->ihl = 5;
		ip->tot_len = htons(sizeof(*ip) + udp_len);
		ip->frag_off = htons(IP_DF);
		ip->ttl = 64;
		ip->protocol = IPPROTO_UDP;
		ip->saddr = s->srcip.v4.s_addr;
		ip->daddr = s->dstip.v4.s_addr;
		ip->check = htons((uint16_t)~pb_csum_fold(pb_csum_add(0, ip, sizeof(*ip))));
		udp = (struct udphdr *)(ip + 1);
	}

	udp->source = htons(s->srcport);
	udp->dest = htons(s->dstport);
	udp->len = htons(udp_len);
	f->payload_off = (uint32_t)((uint8_t *)(udp + 1) - p);
	f->payload_len = s->payload_len;
	pb_payload_fill(p + f->payload_off, s->payload_len, s->run_id);
	udp->check = frame_udp_csum(s, udp, udp_len);

	f->unpadded = hdr + s->payload_len;
	/* the padding bytes are already zero from the memset */
	f->len = f->unpadded < PB_ETH_MIN_FRAME ? PB_ETH_MIN_FRAME : f->unpadded;
	return 0;
}
