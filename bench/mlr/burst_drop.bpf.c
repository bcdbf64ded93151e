// SPDX-License-Identifier: GPL-2.0
/*
 * bench/mlr.sh's noisy device: a tc classifier (clsact egress of the DUT's way out, before
 * its tbf) that drops every pktbench frame (UDP, "pb" in the payload) arriving in the first
 * PB_BURST_MS milliseconds of every PB_BURST_EVERY-th second of the clock, and passes
 * everything else. The share of seconds with a burst (1 / PB_BURST_EVERY) and the share of
 * such a second's frames lost (PB_BURST_MS / 1000) do not depend on the rate offered: a
 * trial is hit or not by where it falls in time, as a device's periodic housekeeping would.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/in.h>
#include <linux/pkt_cls.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#ifndef PB_BURST_EVERY
#define PB_BURST_EVERY 4
#endif
#ifndef PB_BURST_MS
#define PB_BURST_MS 20
#endif
#define NS_PER_S 1000000000ULL

SEC("tc")
int pb_burst_drop(struct __sk_buff *skb)
{
	struct {
		struct ethhdr eth;
		struct iphdr ip;
		struct udphdr udp;
		__u8 sig[2];
	} __attribute__((packed)) f;
	__u64 now = bpf_ktime_get_ns();

	/* copied, not read in place: a GSO or zero-copy sender's payload is in the skb's pages */
	if (bpf_skb_load_bytes(skb, 0, &f, sizeof(f)) ||
	    f.eth.h_proto != bpf_htons(ETH_P_IP) || f.ip.protocol != IPPROTO_UDP ||
	    f.ip.ihl != 5 || f.sig[0] != 'p' || f.sig[1] != 'b')
		return TC_ACT_UNSPEC;
	if ((now / NS_PER_S) % PB_BURST_EVERY == 0 &&
	    now % NS_PER_S < PB_BURST_MS * 1000000ULL)
		return TC_ACT_SHOT;
	return TC_ACT_UNSPEC;
}

char LICENSE[] SEC("license") = "GPL";
