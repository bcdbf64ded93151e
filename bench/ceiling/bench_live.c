// SPDX-License-Identifier: MIT
/*
 * bench_live: the kernel's own transmit loop, the software ceiling a send path is measured
 * against. BPF_PROG_RUN with BPF_F_TEST_XDP_LIVE_FRAMES runs an XDP program that returns
 * XDP_TX over one frame (60 bytes, or LEN) again and again inside the kernel, with no system
 * call per frame; each call runs CHUNK frames, and calls repeat until SECS have passed. A live
 * frame is at most a page less the XDP headroom: the kernel refuses a longer one (EINVAL).
 *
 *   bench_live IFACE SECS DSTMAC SRCMAC [LEN]
 *
 * It prints what it handed the loop; what arrived is counted at the receiving end.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/bpf.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "ref_frame.h"
#include "ref_tx.skel.h"

/* frames per BPF_PROG_RUN: about 0.1 s at 10 Mpps, so the deadline is kept to that */
#define CHUNK (1u << 20)

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

int main(int argc, char **argv)
{
	struct ref_tx *skel = NULL;
	static uint8_t frame[REF_FRAME_MAX];
	struct xdp_md ctx = { 0 };
	unsigned long long sent = 0;
	size_t len = REF_FRAME_LEN;
	double secs, t0, end;
	int ret = 1, err;

	if (argc != 5 && argc != 6) {
		fprintf(stderr, "usage: bench_live IFACE SECS DSTMAC SRCMAC [LEN]\n");
		return 2;
	}
	ctx.ingress_ifindex = if_nametoindex(argv[1]);
	if (!ctx.ingress_ifindex || ref_parse_secs(argv[2], &secs) ||
	    (argc == 6 && ref_parse_len(argv[5], &len)) ||
	    ref_frame_build(frame, len, argv[3], argv[4])) {
		fprintf(stderr, "bench_live: bad interface, seconds, MAC or length\n");
		return 2;
	}
	ctx.data_end = (__u32)len;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	skel = ref_tx__open_and_load();
	if (!skel) {
		fprintf(stderr, "bench_live: cannot load the XDP_TX program: %s\n",
			strerror(errno));
		goto out;
	}
	t0 = ref_now();
	end = t0 + secs;
	while (!stop && ref_now() < end) {
		LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame, .data_size_in = (__u32)len,
			    .ctx_in = &ctx, .ctx_size_in = sizeof(ctx), .repeat = CHUNK,
			    .flags = BPF_F_TEST_XDP_LIVE_FRAMES, .batch_size = 64);

		err = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.ref_tx), &opts);
		if (err == -EINTR)
			break; /* the signal that ends the run */
		if (err) {
			fprintf(stderr, "bench_live: BPF_PROG_RUN: %s\n", strerror(-err));
			goto out;
		}
		sent += CHUNK;
	}
	printf("bench_live: %llu frames handed to the loop in %.2f s\n", sent, ref_now() - t0);
	ret = 0;
out:
	ref_tx__destroy(skel);
	return ret;
}
