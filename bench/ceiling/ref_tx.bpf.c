// SPDX-License-Identifier: GPL-2.0
/* bench_live's program: every frame the kernel's live-frame loop hands it goes straight out. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int ref_tx(struct xdp_md *ctx)
{
	return XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";
