// SPDX-License-Identifier: MIT
/*
 * bench_xsk: the smallest AF_XDP transmit loop that counts honestly, the reference pktbench's
 * af_xdp is measured against. One socket on queue 0 in copy mode, a UMEM written once with
 * the same frame (60 bytes, or LEN) in every frame's chunks, 64 frames per round, a kick only
 * when the kernel asks for one (need_wakeup), and a frame counted only when it comes back on
 * the completion ring. A frame over a chunk goes as a chain of chunks (XDP_USE_SG, every
 * descriptor but the last marked XDP_PKT_CONTD; the kernel completes each descriptor).
 * TX only: no XDP program is loaded, so a veth of any MTU takes the socket.
 *
 *   bench_xsk IFACE SECS DSTMAC SRCMAC [LEN]
 */
#include <errno.h>
#include <linux/if_link.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <xdp/xsk.h>

#include "ref_frame.h"

#define UMEM_SIZE (8u << 20) /* 4096 chunks of 2048 bytes; 2048 of 4096 for a frame over 2048 */
#define RING	  2048
#define BATCH	  64

#ifndef XDP_USE_SG
#define XDP_USE_SG (1 << 4)
#endif
#ifndef XDP_PKT_CONTD
#define XDP_PKT_CONTD (1 << 0)
#endif

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

int main(int argc, char **argv)
{
	struct xsk_umem_config ucfg = { .fill_size = RING, .comp_size = RING, .frame_size = 2048 };
	struct xsk_socket_config scfg = {
		.tx_size = RING,
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
		.bind_flags = XDP_COPY | XDP_USE_NEED_WAKEUP,
	};
	struct xsk_ring_prod fill, tx;
	struct xsk_ring_cons comp;
	struct xsk_umem *umem = NULL;
	struct xsk_socket *xsk = NULL;
	static uint8_t frame[REF_FRAME_MAX];
	unsigned long long completed = 0, next = 0;
	size_t len = UMEM_SIZE, flen = REF_FRAME_LEN, chunk, per, slots;
	double secs, t0, end;
	unsigned int rounds = 0;
	int ret = 1, err;
	size_t i, c;
	char *area;

	if (argc != 5 && argc != 6) {
		fprintf(stderr, "usage: bench_xsk IFACE SECS DSTMAC SRCMAC [LEN]\n");
		return 2;
	}
	if (ref_parse_secs(argv[2], &secs) || (argc == 6 && ref_parse_len(argv[5], &flen)) ||
	    ref_frame_build(frame, flen, argv[3], argv[4])) {
		fprintf(stderr, "bench_xsk: bad seconds, MAC or length\n");
		return 2;
	}
	chunk = flen <= 2048 ? 2048 : 4096; /* as pktbench's af_xdp chooses */
	ucfg.frame_size = (__u32)chunk;
	per = (flen + chunk - 1) / chunk; /* chunks a frame takes */
	slots = len / chunk / per;
	if (per > 1)
		scfg.bind_flags |= XDP_USE_SG;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	area = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED) {
		fprintf(stderr, "bench_xsk: UMEM: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < slots; i++)
		memcpy(area + i * per * chunk, frame, flen);
	err = xsk_umem__create(&umem, area, len, &fill, &comp, &ucfg);
	if (!err)
		err = xsk_socket__create(&xsk, argv[1], 0, umem, NULL, &tx, &scfg);
	if (err) {
		fprintf(stderr, "bench_xsk: AF_XDP socket on %s: %s\n", argv[1], strerror(-err));
		goto out;
	}
	t0 = ref_now();
	end = t0 + secs;
	/* the clock is read once every 256 rounds: a round costs well under a microsecond */
	while (!stop && ((++rounds & 255) || ref_now() < end)) {
		unsigned int idx, n, k;

		/* all or nothing: whole frames only */
		n = xsk_ring_prod__reserve(&tx, BATCH * per, &idx);
		for (k = 0; k < n; k += per, next++) {
			for (c = 0; c < per; c++) {
				struct xdp_desc *d = xsk_ring_prod__tx_desc(&tx, idx + k + c);

				d->addr = ((next % slots) * per + c) * chunk;
				d->len = (__u32)(c + 1 < per ? chunk : flen - c * chunk);
				d->options = c + 1 < per ? XDP_PKT_CONTD : 0;
			}
		}
		xsk_ring_prod__submit(&tx, n);
		if (xsk_ring_prod__needs_wakeup(&tx))
			sendto(xsk_socket__fd(xsk), NULL, 0, MSG_DONTWAIT, NULL, 0);
		n = xsk_ring_cons__peek(&comp, RING, &idx);
		xsk_ring_cons__release(&comp, n);
		completed += n;
	}
	printf("bench_xsk: %llu frames completed in %.2f s\n", completed / per, ref_now() - t0);
	ret = 0;
out:
	xsk_socket__delete(xsk);
	xsk_umem__delete(umem);
	munmap(area, len);
	return ret;
}
