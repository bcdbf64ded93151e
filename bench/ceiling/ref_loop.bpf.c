// SPDX-License-Identifier: GPL-2.0
/*
 * A source of xdp_frames at the rate one CPU can make them, for what a receiver can take on
 * the receive path a NIC's driver gives XDP (no skb, no copy): bench/rx-cost.sh -x. Each
 * pktbench frame of kind 'S' (a sequence number, pb_bpf.h) or 'N' (none) that arrives goes out
 * again to every interface in `ports`: one back into this veth's peer, so it arrives here
 * again, and one to the receiver. An 'S' frame's number goes up by one each time round, the
 * UDP checksum with it (RFC 1624), so the receiver sees each stream's numbers in order, no
 * duplicate. A few frames, sent once, then circulate until the program is taken off.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/in.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32); /* ifindex */
} ports SEC(".maps");

/* the frames of rx-cost.sh: Ethernet, IPv4 without options, UDP, then "pb", kind, stream, run, seq */
SEC("xdp")
int ref_loop(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct udphdr *udp = (void *)(ip + 1);
	__be32 *sig = (void *)(udp + 1);
	__u32 old, new, sum, kind;

	if ((void *)(sig + 3) > end || eth->h_proto != bpf_htons(ETH_P_IP) || ip->ihl != 5 ||
	    ip->protocol != IPPROTO_UDP || (bpf_ntohl(sig[0]) >> 16) != ('p' << 8 | 'b'))
		return XDP_PASS;
	kind = bpf_ntohl(sig[0]) >> 8 & 0xff;
	if (kind == 'N')
		return bpf_redirect_map(&ports, 0, BPF_F_BROADCAST);
	if (kind != 'S')
		return XDP_PASS;
	old = sig[2];
	new = bpf_htonl(bpf_ntohl(old) + 1);
	sig[2] = new;
	if (udp->check) {
		/* HC' = ~(~HC + ~m + m'), 16 bits at a time (RFC 1624 3) */
		sum = (__u16)~udp->check;
		sum += (__u16)~old + (__u16)~(old >> 16) + (__u16)new + (__u16)(new >> 16);
		sum = (sum & 0xffff) + (sum >> 16);
		sum = (sum & 0xffff) + (sum >> 16);
		udp->check = ~sum ? (__u16)~sum : 0xffff;
	}
	return bpf_redirect_map(&ports, 0, BPF_F_BROADCAST);
}

char LICENSE[] SEC("license") = "GPL";
