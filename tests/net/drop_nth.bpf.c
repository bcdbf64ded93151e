// SPDX-License-Identifier: GPL-2.0
/*
 * net/test_accounting's device under test: a tc classifier (cls_bpf, direct action, under an
 * htb root) that drops exactly every PB_DROP_NTH-th IPv4 frame of a pktbench run (UDP, "pb"
 * and an ordinary frame's kind in the payload: 'N', 'S' or their paced twins) and passes
 * everything else. Counted, not timed: the drops do not depend on how fast the sender is, and
 * htb counts each in its root's drops, which the lab reads as dut_qdisc_drops. Built by the
 * test with clang -target bpf.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/in.h>
#include <linux/pkt_cls.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#ifndef PB_DROP_NTH
#define PB_DROP_NTH 10
#endif

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} seen SEC(".maps");

SEC("tc")
int pb_drop_nth(struct __sk_buff *skb)
{
	struct {
		struct ethhdr eth;
		struct iphdr ip;
		struct udphdr udp;
		__u8 sig[3];
	} __attribute__((packed)) f;
	__u32 key = 0;
	__u64 *n, k;

	/* copied, not read in place: a zero-copy, registered-buffer or GSO sender's payload is
	 * in the skb's pages, past what direct access reaches */
	if (bpf_skb_load_bytes(skb, 0, &f, sizeof(f)) ||
	    f.eth.h_proto != bpf_htons(ETH_P_IP) || f.ip.protocol != IPPROTO_UDP ||
	    f.ip.ihl != 5 || f.sig[0] != 'p' || f.sig[1] != 'b' ||
	    ((f.sig[2] | 0x20) != 'n' && (f.sig[2] | 0x20) != 's'))
		return TC_ACT_UNSPEC;
	n = bpf_map_lookup_elem(&seen, &key);
	if (!n)
		return TC_ACT_UNSPEC;
	/* atomic: the count is exact whichever CPUs forward */
	k = __sync_fetch_and_add(n, 1);
	return k % PB_DROP_NTH == PB_DROP_NTH - 1 ? TC_ACT_SHOT : TC_ACT_UNSPEC;
}

char LICENSE[] SEC("license") = "GPL";
