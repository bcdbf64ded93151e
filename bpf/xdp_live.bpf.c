// SPDX-License-Identifier: GPL-2.0
/*
 * The xdp_live generator: BPF_PROG_RUN with BPF_F_TEST_XDP_LIVE_FRAMES runs this program
 * once per frame, in the kernel, and transmits every frame it returns XDP_TX for out of
 * the ingress interface given in the context. It is a program of its own, not a shared
 * one, so the frames can later be varied here per packet.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int pb_xdp_live(struct xdp_md *ctx)
{
	/* per-packet field variation (source port / address) goes here, before XDP_TX */
	return XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";
