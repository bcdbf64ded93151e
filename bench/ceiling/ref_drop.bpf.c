// SPDX-License-Identifier: GPL-2.0
/*
 * The receiving end of the ceiling lab: drops every frame at the veth's XDP hook, so the
 * receiver costs as little as it can; the veth's rx_packets still counts each one. Its being
 * attached also lets the peer's XDP_TX (ndo_xdp_xmit) reach this end at all.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int ref_drop(struct xdp_md *ctx)
{
	return XDP_DROP;
}

/* the same, multi-buffer: native XDP on a veth whose MTU is over a page takes only this */
SEC("xdp.frags")
int ref_drop_frags(struct xdp_md *ctx)
{
	return XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
