/* SPDX-License-Identifier: MIT */
/*
 * Frame builder: Ethernet II + IPv4 + UDP with correct checksums and this run's signature
 * in the payload. Socket methods take the payload, raw sockets the IP packet, frame
 * methods the whole frame, all from the same bytes.
 */
#ifndef PB_FRAME_H
#define PB_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"

#define PB_ETH_HLEN	 14
#define PB_ETH_MIN_FRAME 60 /* without FCS; 64 with an 802.1Q tag */
#define PB_FRAME_MAX	 9216

/* The signature at the start of every UDP payload: magic, then the run id, big-endian. */
#define PB_SIG_MAGIC 0x70624e31u /* "pbN1" */
#define PB_SIG_LEN   8

struct pb_frame_spec {
	uint8_t dstmac[6], srcmac[6];
	struct pb_addr srcip, dstip;
	uint16_t srcport, dstport;
	uint32_t payload_len;
	uint32_t run_id;
};

struct pb_frame {
	uint8_t data[PB_FRAME_MAX];
	uint32_t len;	      /* bytes handed to the kernel, padding included */
	uint32_t unpadded;    /* headers + payload, before padding to the Ethernet minimum */
	uint32_t l3_off;      /* start of the IP header */
	uint32_t payload_off; /* start of the UDP payload */
	uint32_t payload_len;
};

/* Fills the payload: the signature, then a fixed pattern. len >= PB_SIG_LEN. */
void pb_payload_fill(uint8_t *payload, uint32_t len, uint32_t run_id);
/* Builds one frame; 0 or -EINVAL (payload too short for the signature, or too long). */
int pb_frame_build(struct pb_frame *f, const struct pb_frame_spec *spec);
/* The Internet checksum (RFC 1071) of buf, folded, not inverted, starting from sum. */
uint32_t pb_csum_add(uint32_t sum, const void *buf, size_t len);
uint16_t pb_csum_fold(uint32_t sum);
/* Header bytes below the UDP payload for an address family: Ethernet + IP + UDP. */
uint32_t pb_frame_overhead(int family);

#endif
