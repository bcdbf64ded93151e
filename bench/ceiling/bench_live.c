// SPDX-License-Identifier: MIT
/*
 * bench_live: the kernel's own transmit loop, the software ceiling a send path is measured
 * against. BPF_PROG_RUN with BPF_F_TEST_XDP_LIVE_FRAMES runs an XDP program that returns
 * XDP_TX over one 60-byte frame again and again inside the kernel, with no system call per
 * frame; each call runs CHUNK frames, and calls repeat until SECS have passed.
 *
 *   bench_live IFACE SECS DSTMAC SRCMAC
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
	uint8_t frame[REF_FRAME_LEN];
	struct xdp_md ctx = { .data_end = REF_FRAME_LEN };
	unsigned long long sent = 0;
	double secs, t0, end;
	int ret = 1, err;

	if (argc != 5) {
		fprintf(stderr, "usage: bench_live IFACE SECS DSTMAC SRCMAC\n");
		return 2;
	}
	ctx.ingress_ifindex = if_nametoindex(argv[1]);
	if (!ctx.ingress_ifindex || ref_parse_secs(argv[2], &secs) ||
	    ref_frame_build(frame, argv[3], argv[4])) {
		fprintf(stderr, "bench_live: bad interface, seconds or MAC\n");
		return 2;
	}
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
		LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame,
			    .data_size_in = sizeof(frame), .ctx_in = &ctx,
			    .ctx_size_in = sizeof(ctx), .repeat = CHUNK,
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
