// SPDX-License-Identifier: GPL-2.0
/*
 * A no-op XDP program for the af_xdp method: AF_XDP transmit needs no program, but some NIC
 * drivers run their zero-copy TX path only while one is attached (go-pktgen attaches a no-op
 * for the same reason). af_xdp attaches it only when asked (--xdp-mode native|generic) or when
 * a zero-copy driver refuses to transmit without one. Every frame goes on to the stack.
 * af_xdp loads it multi-buffer (BPF_F_XDP_HAS_FRAGS) where the kernel has that, since a veth
 * or driver with an MTU over a page takes no other in native mode; passing a frame on reads
 * none of it, so its fragments need nothing here.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int pb_xdp_pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
