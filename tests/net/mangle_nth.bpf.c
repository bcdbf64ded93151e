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
 *   PB_MODE_UDPCSUM  puts a wrong UDP checksum in it: neither the datagram's own nor the
 *                    pseudo-header's sum a socket's frame carries before a device finishes it
 *                    (CHECKSUM_PARTIAL, which is all a veth delivers), nor 0 (none)
 *   PB_MODE_IP       flips the last bit of its destination IPv4 address, both checksums kept
 *                    right: a well-formed datagram to another host
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

#ifdef PB_MODE_UDPCSUM
static __always_inline __u32 fold(__u64 s)
{
	s = (s & 0xffffffff) + (s >> 32);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (__u32)((s & 0xffff) + (s >> 16));
}

/*
 * A UDP checksum no receiver can take: the datagram's sum gives the right one, the
 * pseudo-header's the seed a socket's frame carries; the wrong one is the seed plus 1 to 4,
 * the first that is neither of them nor 0 or 0xffff.
 */
static __always_inline void udp_csum_spoil(struct __sk_buff *skb, const struct frame *f)
{
	__u32 ulen = bpf_ntohs(f->udp.len), seed, right, bad;
	__u64 pseudo = (f->ip.saddr & 0xffff) + (f->ip.saddr >> 16) + (f->ip.daddr & 0xffff) +
		       (f->ip.daddr >> 16) + bpf_htons(IPPROTO_UDP) + f->udp.len;
	__u8 buf[256];
	__s64 sum;
	__be16 c;

	/* the datagram, zero-padded (zeros add nothing); the tests' are at most 256 bytes */
	if (ulen < 8 || ulen > sizeof(buf))
		return;
	__builtin_memset(buf, 0, sizeof(buf));
	if (bpf_skb_load_bytes(skb, __builtin_offsetof(struct frame, udp), buf,
			       ((ulen - 1) & (sizeof(buf) - 1)) + 1))
		return;
	sum = bpf_csum_diff(NULL, 0, (__be32 *)buf, sizeof(buf), 0);
	if (sum < 0)
		return;
	seed = fold(pseudo);
	/* the sum without the checksum field: its complement added */
	right = ~fold(pseudo + (__u32)sum + (__u16)~f->udp.check) & 0xffff;
	/* four tries, unrolled: right, 0 and 0xffff are in the way of three at most */
	bad = (seed + 1) & 0xffff;
	if (bad == right || !bad || bad == 0xffff)
		bad = (seed + 2) & 0xffff;
	if (bad == right || !bad || bad == 0xffff)
		bad = (seed + 3) & 0xffff;
	if (bad == right || !bad || bad == 0xffff)
		bad = (seed + 4) & 0xffff;
	c = (__be16)bad;
	bpf_skb_store_bytes(skb, CSUM_OFF, &c, sizeof(c), 0);
}
#endif

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
#elif defined(PB_MODE_UDPCSUM)
	if (k % PB_NTH == PB_NTH - 1)
		udp_csum_spoil(skb, &f);
	return TC_ACT_OK;
#elif defined(PB_MODE_IP)
	if (k % PB_NTH == PB_NTH - 1) {
		__be32 to = f.ip.daddr ^ bpf_htonl(1);

		bpf_l4_csum_replace(skb, CSUM_OFF, f.ip.daddr, to, BPF_F_PSEUDO_HDR | sizeof(to));
		bpf_l3_csum_replace(skb, IP_CSUM_OFF, f.ip.daddr, to, sizeof(to));
		bpf_skb_store_bytes(skb, __builtin_offsetof(struct frame, ip.daddr), &to, sizeof(to), 0);
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
