// SPDX-License-Identifier: MIT
/* Frame builder: Ethernet II + IPv4/IPv6 + UDP with correct checksums and the run's signature. */
#include <errno.h>
#include <stdlib.h>
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
	uint64_t wide = 0;
	size_t i;

	/*
	 * 32-bit words in host order, summed wide, then folded and put in network order: the
	 * one's complement sum does not depend on byte order (RFC 1071, 2.B), and a replay
	 * checksums every frame it streams
	 */
	for (i = 0; i + 4 <= len; i += 4) {
		uint32_t w;

		memcpy(&w, p + i, 4);
		wide += w;
	}
	while (wide >> 16)
		wide = (wide & 0xffff) + (wide >> 16);
	sum += ntohs((uint16_t)wide);
	for (; i + 1 < len; i += 2)
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

void pb_run_mac(uint8_t mac[6], uint32_t run_id, uint8_t stream, bool paced)
{
	mac[0] = PB_RUN_MAC0;
	mac[1] = (uint8_t)(PB_RUN_MAC_MARK | (paced ? PB_RUN_MAC_PACED : 0) | (stream & 0x3f));
	mac[2] = (uint8_t)(run_id >> 24);
	mac[3] = (uint8_t)(run_id >> 16);
	mac[4] = (uint8_t)(run_id >> 8);
	mac[5] = (uint8_t)run_id;
}

void pb_payload_fill(uint8_t *payload, uint32_t len, uint32_t run_id, uint8_t stream_id)
{
	uint32_t be = htonl(run_id);
	uint32_t i;

	payload[0] = PB_SIG_P0;
	payload[1] = PB_SIG_P1;
	payload[2] = PB_SIG_KIND_FRAME;
	payload[3] = stream_id;
	memcpy(payload + 4, &be, 4);
	/* a recognisable, non-zero pattern after the signature */
	for (i = PB_SIG_LEN; i < len; i++)
		payload[i] = (uint8_t)i;
}

/* UDP checksum over the pseudo-header, header and payload (both families). */
static uint16_t frame_udp_csum(const struct pb_frame_spec *s, const uint8_t *udp, uint32_t udp_len)
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

void pb_frame_spec_from_config(const struct pb_config *cfg, bool tagged, struct pb_frame_spec *spec)
{
	*spec = (struct pb_frame_spec){
		.srcip = cfg->srcip,
		.dstip = cfg->dstip,
		.srcport = cfg->srcport,
		.dstport = cfg->dstport,
		.payload_len = cfg->payloadsize,
		.run_id = cfg->run_id,
		.vlan_id = tagged ? (uint16_t)cfg->vlan : 0,
		.vlan_prio = (uint8_t)cfg->vlan_prio,
		/* a paced run's frames say so: the receiver times each one */
		.kind = pb_config_paced(cfg) ? PB_SIG_KIND_FRAME | PB_SIG_PACED : PB_SIG_KIND_FRAME,
	};
	memcpy(spec->dstmac, cfg->dstmac, 6);
	memcpy(spec->srcmac, cfg->srcmac, 6);
}

uint32_t pb_frame_len(const struct pb_frame_spec *s)
{
	uint32_t len = pb_frame_overhead(s->srcip.family) + s->payload_len;
	uint32_t min = PB_ETH_MIN_FRAME;

	if (s->vlan_id) {
		len += PB_VLAN_HLEN;
		min += PB_VLAN_HLEN;
	}
	return len < min ? min : len;
}

int pb_frame_build(struct pb_frame *f, const struct pb_frame_spec *s)
{
	uint32_t hdr = pb_frame_overhead(s->srcip.family) + (s->vlan_id ? PB_VLAN_HLEN : 0);
	uint32_t udp_len = sizeof(struct udphdr) + s->payload_len;
	uint8_t *p = f->data;
	struct udphdr udp = { 0 };
	uint32_t l4_off;
	uint16_t ethertype;

	if (s->payload_len < PB_SIG_LEN || hdr + s->payload_len > PB_FRAME_MAX ||
	    s->srcip.family != s->dstip.family || s->vlan_id > 4094 || s->vlan_prio > 7 ||
	    s->stream_id >= PB_MAX_STREAMS ||
	    (s->kind && (s->kind | PB_SIG_PACED) != (PB_SIG_KIND_FRAME | PB_SIG_PACED) &&
	     (s->kind | PB_SIG_PACED) != (PB_SIG_KIND_SEQ | PB_SIG_PACED)))
		return -EINVAL;

	memset(f, 0, sizeof(*f));
	f->data = p;
	/* every byte up to the payload's end is written below: only the padding is cleared */
	memset(p + hdr + s->payload_len, 0, pb_frame_len(s) - hdr - s->payload_len);
	memcpy(p, s->dstmac, 6);
	memcpy(p + 6, s->srcmac, 6);
	f->l3_off = PB_ETH_HLEN;
	if (s->vlan_id) {
		uint16_t tag[2] = { htons(ETH_P_8021Q),
				    htons((uint16_t)(s->vlan_prio << 13 | s->vlan_id)) };

		memcpy(p + 12, tag, sizeof(tag));
		f->l3_off += PB_VLAN_HLEN;
	}
	ethertype = htons(s->srcip.family == AF_INET6 ? ETH_P_IPV6 : ETH_P_IP);
	memcpy(p + f->l3_off - 2, &ethertype, 2);
	f->srcport = s->srcport;
	f->srcip = s->srcip;

	/*
	 * Headers are built in aligned locals and copied in: in the frame, the IP header sits
	 * 14 (or 18) bytes in, where its 32-bit fields are not aligned.
	 */
	if (s->srcip.family == AF_INET6) {
		struct ip6_hdr ip6 = { 0 };

		ip6.ip6_flow = htonl(6u << 28);
		ip6.ip6_plen = htons(udp_len);
		ip6.ip6_nxt = IPPROTO_UDP;
		ip6.ip6_hlim = 64;
		ip6.ip6_src = s->srcip.v6;
		ip6.ip6_dst = s->dstip.v6;
		memcpy(p + f->l3_off, &ip6, sizeof(ip6));
		l4_off = f->l3_off + sizeof(ip6);
	} else {
		struct iphdr ip = { 0 };

		ip.version = 4;
		ip.ihl = 5;
		ip.tot_len = htons(sizeof(ip) + udp_len);
		ip.frag_off = htons(IP_DF);
		ip.ttl = 64;
		ip.protocol = IPPROTO_UDP;
		ip.saddr = s->srcip.v4.s_addr;
		ip.daddr = s->dstip.v4.s_addr;
		ip.check = htons((uint16_t)~pb_csum_fold(pb_csum_add(0, &ip, sizeof(ip))));
		memcpy(p + f->l3_off, &ip, sizeof(ip));
		l4_off = f->l3_off + sizeof(ip);
	}

	udp.source = htons(s->srcport);
	udp.dest = htons(s->dstport);
	udp.len = htons(udp_len);
	f->payload_off = l4_off + sizeof(udp);
	f->payload_len = s->payload_len;
	memcpy(p + l4_off, &udp, sizeof(udp));
	if (s->payload) {
		pb_payload_fill(p + f->payload_off, PB_SIG_LEN, s->run_id, s->stream_id);
		memcpy(p + f->payload_off + PB_SIG_LEN, s->payload + PB_SIG_LEN,
		       s->payload_len - PB_SIG_LEN);
	} else {
		pb_payload_fill(p + f->payload_off, s->payload_len, s->run_id, s->stream_id);
	}
	if ((s->kind | PB_SIG_PACED) == (PB_SIG_KIND_SEQ | PB_SIG_PACED) &&
	    s->payload_len >= PB_FRAME_SEQ_LEN && !s->payload) {
		/* the number starts at 0; pb_frame_seq_stamp() writes each frame's own */
		memset(p + f->payload_off + PB_FRAME_SEQ_OFF, 0, 4);
		p[f->payload_off + 2] = s->kind;
	} else if (s->kind) {
		/* no room for a number (or a replay's bytes): a frame the receiver cannot check */
		p[f->payload_off + 2] = (uint8_t)(PB_SIG_KIND_FRAME | (s->kind & PB_SIG_PACED));
	}
	/* the checksum covers the header (its check field still 0) and the payload */
	udp.check = frame_udp_csum(s, p + l4_off, udp_len);
	memcpy(p + l4_off, &udp, sizeof(udp));

	f->unpadded = hdr + s->payload_len;
	f->len = pb_frame_len(s);
	return 0;
}

/* xorshift64*: a small, seeded, repeatable generator for the pool's order. */
static uint64_t pool_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* frame.h */
void pb_addr_add(struct pb_addr *a, uint32_t k)
{
	if (a->family == AF_INET) {
		a->v4.s_addr = htonl(ntohl(a->v4.s_addr) + k);
	} else {
		uint32_t lo;

		memcpy(&lo, &a->v6.s6_addr[12], 4);
		lo = htonl(ntohl(lo) + k);
		memcpy(&a->v6.s6_addr[12], &lo, 4);
	}
}

/* Source addresses from base up to the end of its /15 (IPv4) or of a 2^32 block (IPv6). */
static uint64_t addrs_available(const struct pb_addr *base)
{
	uint32_t lo;

	if (base->family == AF_INET) {
		lo = ntohl(base->v4.s_addr);
		return (uint64_t)(lo | 0x1ffffu) - lo + 1;
	}
	memcpy(&lo, &base->v6.s6_addr[12], 4);
	return (uint64_t)UINT32_MAX - ntohl(lo) + 1;
}

uint64_t pb_flows_available(const struct pb_frame_spec *base, bool vary_addr)
{
	uint64_t ports = 65536 - (uint64_t)base->srcport;

	return vary_addr ? ports * addrs_available(&base->srcip) : ports;
}

/*
 * The payload of a --imix frame of size bytes (without FCS): what the headers leave, but
 * never less than the signature. The mix's 60-byte frames cannot hold IPv6 (70 bytes at
 * the least), so there they become the smallest frame that can.
 */
static uint32_t pool_mix_payload(const struct pb_frame_spec *base, uint32_t size)
{
	uint32_t hdr = pb_frame_overhead(base->srcip.family) + (base->vlan_id ? PB_VLAN_HLEN : 0);

	return size >= hdr + PB_SIG_LEN ? size - hdr : PB_SIG_LEN;
}

void pb_pool_free(struct pb_pool *pool)
{
	free(pool->frames);
	free(pool->buf);
	memset(pool, 0, sizeof(*pool));
}

void pb_flow_apply(struct pb_frame_spec *spec, const struct pb_frame_spec *base, uint32_t k,
		   uint32_t n, bool vary_addr)
{
	/* in 64 bits: an IPv6 block from ::0 holds 2^32 addresses, which is 0 in 32 */
	uint64_t avail =
		vary_addr ? addrs_available(&base->srcip) : 65536u - (uint64_t)base->srcport;
	uint32_t span = (uint32_t)(avail < n ? avail : n);

	span = span ? span : 1;
	spec->srcip = base->srcip;
	if (vary_addr) {
		pb_addr_add(&spec->srcip, k % span);
		spec->srcport = (uint16_t)(base->srcport + k / span);
	} else {
		spec->srcport = (uint16_t)(base->srcport + k % span);
	}
}

int pb_pool_build(struct pb_pool *pool, const struct pb_frame_spec *base, const struct pb_flows *fl)
{
	uint32_t mine = 0, n, i, k, stride = 0;
	uint64_t state = fl->seed | 1;
	struct pb_frame_spec spec;
	uint32_t *order = NULL;
	int err = -ENOMEM;

	memset(pool, 0, sizeof(*pool));
	if (!fl->streams || fl->stream >= fl->streams || fl->n < fl->streams ||
	    fl->n > pb_flows_available(base, fl->vary_addr))
		return -EINVAL;
	mine = (fl->n - fl->stream + fl->streams - 1) / fl->streams;
	/* with --imix, a whole number of size cycles, so the mix is exact */
	n = mine;
	if (fl->nsizes > 1)
		n = ((mine + fl->nsizes - 1) / fl->nsizes) * fl->nsizes;

	spec = *base;
	for (i = 0; i < (fl->nsizes ? fl->nsizes : 1); i++) {
		if (fl->nsizes)
			spec.payload_len = pool_mix_payload(base, fl->sizes[i]);
		if (pb_frame_len(&spec) > stride)
			stride = pb_frame_len(&spec);
	}
	stride = pb_cache_align(stride); /* each frame on its own cache lines */

	order = malloc(sizeof(*order) * n);
	pool->frames = calloc(n, sizeof(*pool->frames));
	pool->buf = aligned_alloc(64, (size_t)stride * n);
	if (!order || !pool->frames || !pool->buf)
		goto out;
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n - 1; i > 0; i--) { /* Fisher-Yates */
		uint32_t j = (uint32_t)(pool_rand(&state) % (i + 1)), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}

	for (i = 0; i < n; i++) {
		uint32_t slot = order[i];

		/* the stream's (slot % mine)-th flow, the (slot % nsizes)-th size */
		k = fl->stream + (slot % mine) * fl->streams;
		spec = *base;
		spec.stream_id = (uint8_t)fl->stream;
		/* the field that varies first spans min(n, what is available); the other laps */
		pb_flow_apply(&spec, base, k, fl->n, fl->vary_addr);
		if (fl->nsizes)
			spec.payload_len = pool_mix_payload(base, fl->sizes[slot % fl->nsizes]);
		pool->frames[i].data = pool->buf + (size_t)i * stride;
		err = pb_frame_build(&pool->frames[i], &spec);
		if (err)
			goto out;
		if (pool->frames[i].len > pool->max_len)
			pool->max_len = pool->frames[i].len;
	}
	pool->n = n;
	err = 0;
out:
	free(order);
	if (err)
		pb_pool_free(pool);
	return err;
}
