/* SPDX-License-Identifier: MIT */
/*
 * af_xdp's multi-buffer frames (XDP_USE_SG, Linux 6.6): a frame longer than a UMEM chunk
 * goes out as a chain of descriptors over consecutive chunks, each but the last marked
 * XDP_PKT_CONTD, and its descriptors come back one by one on the completion ring. Here, apart
 * from the socket, so the unit tests check the chain and the count without a device.
 */
#ifndef PB_AF_XDP_H
#define PB_AF_XDP_H

#include <stdint.h>
#include <linux/if_xdp.h>
#include <xdp/xsk.h>

/* Debian 12's headers are Linux 6.1's, older than multi-buffer AF_XDP */
#ifndef XDP_USE_SG
#define XDP_USE_SG (1 << 4)
#endif
#ifndef XDP_PKT_CONTD
#define XDP_PKT_CONTD (1 << 0)
#endif

/*
 * The longest chain copy mode takes: CONFIG_MAX_SKB_FRAGS + 1 descriptors, 18 with the
 * config's least (af_xdp.rst); a longer one the kernel drops as invalid. Zero-copy takes what
 * the driver says (netdev's xdp-zc-max-segs).
 */
#define PB_AF_XDP_COPY_SEGS 18u

/* Descriptors a len-byte frame takes in chunk-byte chunks. */
static inline uint32_t pb_af_xdp_descs(uint32_t len, uint32_t chunk)
{
	return (len + chunk - 1) / chunk;
}

/*
 * Writes the chain of a len-byte frame that starts at UMEM address addr and fills consecutive
 * chunks into tx's descriptors from idx (reserved by the caller); how many it wrote.
 */
static inline uint32_t pb_af_xdp_chain(struct xsk_ring_prod *tx, uint32_t idx, uint64_t addr,
				       uint32_t len, uint32_t chunk)
{
	uint32_t n = 0;

	for (;;) {
		struct xdp_desc *d = xsk_ring_prod__tx_desc(tx, idx + n++);

		d->addr = addr;
		if (len <= chunk) {
			d->len = len;
			d->options = 0;
			return n;
		}
		d->len = chunk;
		d->options = XDP_PKT_CONTD;
		addr += chunk;
		len -= chunk;
	}
}

/*
 * The frames in flight, oldest first, as the descriptors each took: completions are counted
 * in descriptors and a frame is sent once all of its own came back. That a frame's come back
 * before the next frame's is assumed: the kernel completes a copy-mode frame's descriptors
 * together when its skb is freed, and a zero-copy driver completes a queue in order.
 */
struct pb_af_xdp_chains {
	uint8_t *descs; /* a ring of mask + 1 entries, at least the descriptors in flight */
	uint32_t mask;
	uint32_t head, tail; /* free-running: frames in flight = tail - head */
	uint32_t done;	     /* descriptors completed of the oldest frame, not all yet */
};

static inline void pb_af_xdp_chains_push(struct pb_af_xdp_chains *c, uint32_t descs)
{
	c->descs[c->tail++ & c->mask] = (uint8_t)descs;
}

static inline uint32_t pb_af_xdp_chains_inflight(const struct pb_af_xdp_chains *c)
{
	return c->tail - c->head;
}

/* n more descriptors completed: the frames that are now complete. */
static inline uint32_t pb_af_xdp_chains_complete(struct pb_af_xdp_chains *c, uint32_t n)
{
	uint32_t frames = 0;

	c->done += n;
	while (c->head != c->tail && c->done >= c->descs[c->head & c->mask]) {
		c->done -= c->descs[c->head++ & c->mask];
		frames++;
	}
	return frames;
}

#endif
