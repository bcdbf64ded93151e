// SPDX-License-Identifier: MIT
/*
 * bench_xsk: the smallest AF_XDP transmit loop that counts honestly, the reference pktbench's
 * af_xdp is measured against. One socket on queue 0 in copy mode, a UMEM written once with
 * the same 60-byte frame in every chunk, 64 descriptors per round, a kick only when the
 * kernel asks for one (need_wakeup), and a frame counted only when it comes back on the
 * completion ring.
 *
 *   bench_xsk IFACE SECS DSTMAC SRCMAC
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

#define CHUNKS	   4096
#define CHUNK_SIZE 2048
#define RING	   2048
#define BATCH	   64

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

int main(int argc, char **argv)
{
	struct xsk_umem_config ucfg = { .fill_size = RING,
					.comp_size = RING,
					.frame_size = CHUNK_SIZE };
	struct xsk_socket_config scfg = { .rx_size = RING,
					  .tx_size = RING,
					  .xdp_flags = XDP_FLAGS_DRV_MODE,
					  .bind_flags = XDP_COPY | XDP_USE_NEED_WAKEUP };
	struct xsk_ring_prod fill, tx;
	struct xsk_ring_cons comp, rx;
	struct xsk_umem *umem = NULL;
	struct xsk_socket *xsk = NULL;
	uint8_t frame[REF_FRAME_LEN];
	unsigned long long completed = 0, next = 0;
	size_t len = (size_t)CHUNKS * CHUNK_SIZE;
	double secs, t0, end;
	unsigned int rounds = 0;
	int ret = 1, err, i;
	char *area;

	if (argc != 5) {
		fprintf(stderr, "usage: bench_xsk IFACE SECS DSTMAC SRCMAC\n");
		return 2;
	}
	if (ref_parse_secs(argv[2], &secs) || ref_frame_build(frame, argv[3], argv[4])) {
		fprintf(stderr, "bench_xsk: bad seconds or MAC\n");
		return 2;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	area = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED) {
		fprintf(stderr, "bench_xsk: UMEM: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < CHUNKS; i++)
		memcpy(area + (size_t)i * CHUNK_SIZE, frame, sizeof(frame));
	err = xsk_umem__create(&umem, area, len, &fill, &comp, &ucfg);
	if (!err)
		err = xsk_socket__create(&xsk, argv[1], 0, umem, &rx, &tx, &scfg);
	if (err) {
		fprintf(stderr, "bench_xsk: AF_XDP socket on %s: %s\n", argv[1], strerror(-err));
		goto out;
	}
	t0 = ref_now();
	end = t0 + secs;
	/* the clock is read once every 256 rounds: a round costs well under a microsecond */
	while (!stop && ((++rounds & 255) || ref_now() < end)) {
		unsigned int idx, n, k;

		n = xsk_ring_prod__reserve(&tx, BATCH, &idx);
		for (k = 0; k < n; k++, next++) {
			struct xdp_desc *d = xsk_ring_prod__tx_desc(&tx, idx + k);

			d->addr = (next % CHUNKS) * CHUNK_SIZE;
			d->len = sizeof(frame);
		}
		xsk_ring_prod__submit(&tx, n);
		if (xsk_ring_prod__needs_wakeup(&tx))
			sendto(xsk_socket__fd(xsk), NULL, 0, MSG_DONTWAIT, NULL, 0);
		n = xsk_ring_cons__peek(&comp, RING, &idx);
		xsk_ring_cons__release(&comp, n);
		completed += n;
	}
	printf("bench_xsk: %llu frames completed in %.2f s\n", completed, ref_now() - t0);
	ret = 0;
out:
	xsk_socket__delete(xsk);
	xsk_umem__delete(umem);
	munmap(area, len);
	return ret;
}
