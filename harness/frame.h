/* SPDX-License-Identifier: MIT */
/*
 * Frame builder: Ethernet II + IPv4 + UDP with correct checksums and this run's signature
 * in the payload. Socket methods take the payload, raw sockets the IP packet, frame
 * methods the whole frame, all from the same bytes.
 */
#ifndef PB_FRAME_H
#define PB_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "pb_bpf.h"

#define PB_ETH_HLEN	 14
#define PB_ETH_MIN_FRAME 60 /* without FCS; 64 with an 802.1Q tag */
#define PB_VLAN_HLEN	 4
#define PB_FRAME_MAX	 9216
#define PB_UDP_MAX_PAYLOAD 65507u /* one UDP datagram over IPv4 */

/* A frame's place in a buffer: its length rounded up to whole cache lines (64 bytes). */
static inline uint32_t pb_cache_align(uint32_t len)
{
	return (len + 63) & ~63u;
}

/*
 * The signature at the start of every UDP payload (layout in pb_bpf.h): "pb", the kind, the
 * stream id, the run id (big-endian). The receiver counts a frame as ours by it.
 */
#define PB_SIG_LEN 8

struct pb_frame_spec {
	uint8_t dstmac[6], srcmac[6];
	struct pb_addr srcip, dstip;
	uint16_t srcport, dstport;
	uint32_t payload_len;
	uint32_t run_id;
	uint8_t stream_id; /* 0 .. 63; pb_pool_build() sets its stream's */
	uint8_t kind;	   /* the signature's kind: PB_SIG_KIND_FRAME (also when 0),
			    * PB_SIG_KIND_SEQ (a sequence number at 0, stamped as it goes: a
			    * payload too short for one gets PB_SIG_KIND_FRAME) or their paced
			    * twins */
	uint16_t vlan_id;  /* 802.1Q tag when 1..4094; 0: untagged */
	uint8_t vlan_prio;
	/* a replay's: the payload's bytes after the signature come from payload + PB_SIG_LEN */
	const uint8_t *payload;
};

/* One built frame; data points into storage its owner (a pool, a test) provides. */
struct pb_frame {
	uint8_t *data;
	uint32_t len;	      /* bytes handed to the kernel, padding included */
	uint32_t unpadded;    /* headers + payload, before padding to the Ethernet minimum */
	uint32_t l3_off;      /* start of the IP header */
	uint32_t payload_off; /* start of the UDP payload */
	uint32_t payload_len;
	uint16_t srcport; /* this frame's flow: source port and address */
	struct pb_addr srcip;
};

/* Which flows a stream's pool holds: see pb_pool_build(). */
struct pb_flows {
	uint32_t n;	 /* flows in the whole run (>= streams) */
	uint32_t stream; /* this stream: it takes flows stream, stream + streams, ... */
	uint32_t streams;
	bool vary_addr;	       /* flows differ by source address first, then port */
	uint64_t seed;	       /* the shuffle: the order frames are sent in */
	const uint32_t *sizes; /* --imix: frame sizes (without FCS) cycled over the pool */
	uint32_t nsizes;
};

/* A stream's frames, built once: methods cycle through them; nothing is built per packet. */
struct pb_pool {
	struct pb_frame *frames;
	uint8_t *buf;
	uint32_t n;
	uint32_t max_len; /* the longest frame in the pool */
	bool ordered;	  /* a replay's: the frames must go in this order, cycled */
	/*
	 * a replay streamed from disk: a window whose frames change as they are taken (k is
	 * in frames[k % n] only while in the window); PB_M_STREAM methods copy each as it goes
	 */
	bool streamed;
};

/* The run's base frame as the configuration describes it; tagged: with --vlan's tag. */
void pb_frame_spec_from_config(const struct pb_config *cfg, bool tagged,
			       struct pb_frame_spec *spec);
/*
 * A replayed frame's source MAC (pb_bpf.h: PB_RUN_MAC0): the receiver counts the run's frames
 * by it, whatever they carry.
 */
void pb_run_mac(uint8_t mac[6], uint32_t run_id, uint8_t stream, bool paced);
/* Bytes a frame of this spec takes, padding included. */
uint32_t pb_frame_len(const struct pb_frame_spec *spec);
/* Fills the payload: the signature (kind 'N'), then a fixed pattern. len >= PB_SIG_LEN. */
void pb_payload_fill(uint8_t *payload, uint32_t len, uint32_t run_id, uint8_t stream_id);
/*
 * Builds one frame into f->data, which must hold pb_frame_len(spec) bytes. 0, or -EINVAL
 * (payload too short for the signature, too long, or mixed address families).
 */
int pb_frame_build(struct pb_frame *f, const struct pb_frame_spec *spec);
/* a + k in its last 32 bits (IPv4: the address, IPv6: the low word): a flow's or shard's source. */
void pb_addr_add(struct pb_addr *a, uint32_t k);
/*
 * Builds a stream's pool: flow k (0 .. flows->n - 1) is source port base + k % P and source
 * address base + k / P, where P is the number of ports (vary_addr: addresses vary first);
 * this stream gets every streams-th flow, in a shuffled order, so consecutive packets are
 * pseudo-random flows and never step in lockstep. Its frames carry flows->stream as their
 * stream id. 0, -EINVAL or -ENOMEM.
 */
int pb_pool_build(struct pb_pool *pool, const struct pb_frame_spec *base,
		  const struct pb_flows *flows);
void pb_pool_free(struct pb_pool *pool);
/*
 * Flow k of a run's n flows into spec, from base: source port base + k % P and the base
 * address + k / P, P the ports above base's (vary_addr: the address varies first, over what
 * its /15 or 2^32 block holds), as pb_pool_build() numbers them.
 */
void pb_flow_apply(struct pb_frame_spec *spec, const struct pb_frame_spec *base, uint32_t k,
		   uint32_t n, bool vary_addr);
/* How many flows fit above the base port and address (the address within its /15 or /48). */
uint64_t pb_flows_available(const struct pb_frame_spec *base, bool vary_addr);
/* The Internet checksum (RFC 1071) of buf, folded, not inverted, starting from sum. */
uint32_t pb_csum_add(uint32_t sum, const void *buf, size_t len);
uint16_t pb_csum_fold(uint32_t sum);
/* Header bytes below the UDP payload for an address family: Ethernet + IP + UDP. */
uint32_t pb_frame_overhead(int family);

#endif
