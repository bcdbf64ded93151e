// SPDX-License-Identifier: GPL-2.0
/*
 * The lab receiver: counts frames whose UDP payload starts with this run's signature
 * (per RX queue, per CPU), counts everything else apart, and drops all of it, so the
 * receiving namespace's stack never spends time on benchmark traffic.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/in.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "pb_bpf.h"

const volatile __u32 run_id; /* set between open and load */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PB_BPF_MAX_QUEUES);
	__type(key, __u32);
	__type(value, struct pb_rx_slot);
} rx_slots SEC(".maps");

/* One bit per UDP source port seen with this run's signature: how many flows arrived. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 65536 / 64);
	__type(key, __u32);
	__type(value, __u64);
} seen_ports SEC(".maps");

/* One bit per 802.1Q VLAN id seen (outer tag) on signature frames; bit 0: untagged. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4096 / 64);
	__type(key, __u32);
	__type(value, __u64);
} seen_vlans SEC(".maps");

/* Sets bit n of a bitmap map of 64-bit words, once. */
static __always_inline void mark(void *map, __u32 n)
{
	__u32 word = n / 64;
	__u64 *bits = bpf_map_lookup_elem(map, &word);

	if (bits && !(*bits & (1ull << (n % 64))))
		__sync_fetch_and_or(bits, 1ull << (n % 64));
}

struct vlan_hdr {
	__be16 tci;
	__be16 proto;
};

/* Returns the UDP payload, or NULL when the frame is not UDP over IPv4/IPv6. */
static __always_inline void *udp_payload(void *data, void *end, __u16 *sport, __u16 *vlan)
{
	struct ethhdr *eth = data;
	struct udphdr *udp;
	void *l3;
	__u16 proto;
	int i;

	if ((void *)(eth + 1) > end)
		return NULL;
	proto = eth->h_proto;
	l3 = eth + 1;
#pragma unroll
	for (i = 0; i < 2; i++) { /* up to two tags: 802.1Q, 802.1ad */
		struct vlan_hdr *vh = l3;

		if (proto != bpf_htons(ETH_P_8021Q) && proto != bpf_htons(ETH_P_8021AD))
			break;
		if ((void *)(vh + 1) > end)
			return NULL;
		if (!i)
			*vlan = bpf_ntohs(vh->tci) & 0xfff;
		proto = vh->proto;
		l3 = vh + 1;
	}

	if (proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *ip = l3;

		if ((void *)(ip + 1) > end || ip->protocol != IPPROTO_UDP || ip->ihl < 5)
			return NULL;
		udp = (void *)ip + ip->ihl * 4;
	} else if (proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = l3;

		if ((void *)(ip6 + 1) > end || ip6->nexthdr != IPPROTO_UDP)
			return NULL;
		udp = (void *)(ip6 + 1);
	} else {
		return NULL;
	}
	if ((void *)(udp + 1) > end)
		return NULL;
	*sport = bpf_ntohs(udp->source);
	return udp + 1;
}

SEC("xdp")
int pb_receiver(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u32 queue = ctx->rx_queue_index & (PB_BPF_MAX_QUEUES - 1);
	__u64 len = end - data;
	struct pb_rx_slot *slot;
	__u16 sport = 0, vlan = 0;
	__be32 *sig;

	slot = bpf_map_lookup_elem(&rx_slots, &queue);
	if (!slot)
		return XDP_DROP;
	sig = udp_payload(data, end, &sport, &vlan);
	/* "pb", kind 'N' or 'P', any stream id, then this run's id */
	if (sig && (void *)(sig + 2) <= end &&
	    ((sig[0] & bpf_htonl(0xffffff00)) ==
		     bpf_htonl(PB_SIG_P0 << 24 | PB_SIG_P1 << 16 | PB_SIG_KIND_FRAME << 8) ||
	     (sig[0] & bpf_htonl(0xffffff00)) ==
		     bpf_htonl(PB_SIG_P0 << 24 | PB_SIG_P1 << 16 | PB_SIG_KIND_PROBE << 8)) &&
	    sig[1] == bpf_htonl(run_id)) {
		slot->frames++;
		slot->bytes += len;
		mark(&seen_ports, sport);
		mark(&seen_vlans, vlan);
	} else {
		slot->foreign_frames++;
		slot->foreign_bytes += len;
	}
	return XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
