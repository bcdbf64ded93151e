// SPDX-License-Identifier: GPL-2.0
/*
 * net/test_seq's device under test: a tc classifier on clsact egress that does one thing to
 * every PB_NTH-th IPv4 frame of a pktbench run (UDP, "pb", an ordinary frame's kind: 'N', 'S'
 * or their paced twins; probes pass untouched), chosen when the test builds it:
 *   PB_MODE_DUP      sends it twice (bpf_clone_redirect to its own device's egress)
 *   PB_MODE_DROP     drops it
 *   PB_MODE_DUPDROP  drops every PB_NTH-th and sends the (PB_NTH / 2)-th of each PB_NTH twice:
 *                    as many duplicated as lost
 *   PB_MODE_SWAP     swaps the sequence numbers (payload bytes 8-11) of frames k and k + 1
 *                    for every k a multiple of PB_NTH, UDP checksum kept right: to the
 *                    receiver, frame k + 1 arrived before frame k
 *   PB_MODE_CSUM4    adds 1 to its IPv4 header checksum: a header the host would refuse
 *   PB_MODE_MAC      flips the last bit of its destination MAC: another host's frame
 * Counted, not timed: what it does does not depend on how fast the sender is. A clone comes
 * back through this hook with skb->mark PB_MARK and passes as it is.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/in.h>
#include <linux/pkt_cls.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#ifndef PB_NTH
#define PB_NTH 10
#endif
#define PB_MARK 0x7062 /* "pb" */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} seen SEC(".maps"); /* 0: frames seen; 1: the sequence number held by PB_MODE_SWAP */

struct frame {
	struct ethhdr eth;
	struct iphdr ip;
	struct udphdr udp;
	__u8 sig[8];
	__be32 seq;
} __attribute__((packed));

#define SEQ_OFF	    __builtin_offsetof(struct frame, seq)
#define CSUM_OFF    (__builtin_offsetof(struct frame, udp) + __builtin_offsetof(struct udphdr, check))
#define IP_CSUM_OFF (__builtin_offsetof(struct frame, ip) + __builtin_offsetof(struct iphdr, check))

static __always_inline int set_seq(struct __sk_buff *skb, __be32 old, __be32 now)
{
	/* CHECKSUM_PARTIAL (a socket's frame): the helper leaves the pseudo-header sum alone */
	if (bpf_l4_csum_replace(skb, CSUM_OFF, old, now, sizeof(now)))
		return -1;
	return bpf_skb_store_bytes(skb, SEQ_OFF, &now, sizeof(now), 0);
}

SEC("tc")
int pb_mangle(struct __sk_buff *skb)
{
	__u32 key = 0, held = 1;
	struct frame f;
	__u64 *n, *h, k;

	if (skb->mark == PB_MARK)
		return TC_ACT_OK;
	/* copied, not read in place: a zero-copy or GSO sender's payload is in the skb's pages */
	if (bpf_skb_load_bytes(skb, 0, &f, sizeof(f)) || f.eth.h_proto != bpf_htons(ETH_P_IP) ||
	    f.ip.protocol != IPPROTO_UDP || f.ip.ihl != 5 || f.sig[0] != 'p' || f.sig[1] != 'b' ||
	    ((f.sig[2] | 0x20) != 'n' && (f.sig[2] | 0x20) != 's'))
		return TC_ACT_OK;
	n = bpf_map_lookup_elem(&seen, &key);
	h = bpf_map_lookup_elem(&seen, &held);
	if (!n || !h)
		return TC_ACT_OK;
	/* atomic: the count is exact whichever CPUs forward */
	k = __sync_fetch_and_add(n, 1);
#if defined(PB_MODE_DROP)
	return k % PB_NTH == PB_NTH - 1 ? TC_ACT_SHOT : TC_ACT_OK;
#elif defined(PB_MODE_DUPDROP)
	if (k % PB_NTH == PB_NTH - 1)
		return TC_ACT_SHOT;
	if (k % PB_NTH == PB_NTH / 2) {
		skb->mark = PB_MARK;
		bpf_clone_redirect(skb, skb->ifindex, 0);
		skb->mark = 0;
	}
	return TC_ACT_OK;
#elif defined(PB_MODE_CSUM4)
	if (k % PB_NTH == PB_NTH - 1) {
		__be16 c = bpf_htons(bpf_ntohs(f.ip.check) + 1);

		bpf_skb_store_bytes(skb, IP_CSUM_OFF, &c, sizeof(c), 0);
	}
	return TC_ACT_OK;
#elif defined(PB_MODE_MAC)
	if (k % PB_NTH == PB_NTH - 1) {
		__u8 b = f.eth.h_dest[5] ^ 1;

		bpf_skb_store_bytes(skb, 5, &b, 1, 0);
	}
	return TC_ACT_OK;
#elif defined(PB_MODE_SWAP)
	/* one stream, one CPU forwarding in order: k + 1 is the frame after k */
	if (k % PB_NTH == 0) {
		*h = f.seq;
		set_seq(skb, f.seq, bpf_htonl(bpf_ntohl(f.seq) + 1));
	} else if (k % PB_NTH == 1) {
		set_seq(skb, f.seq, (__be32)*h);
	}
	return TC_ACT_OK;
#else /* PB_MODE_DUP */
	if (k % PB_NTH == PB_NTH - 1) {
		skb->mark = PB_MARK;
		bpf_clone_redirect(skb, skb->ifindex, 0);
		skb->mark = 0;
	}
	return TC_ACT_OK;
#endif
}

char LICENSE[] SEC("license") = "GPL";
