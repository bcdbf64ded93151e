/* SPDX-License-Identifier: MIT */
/*
 * What the reference loops share: the one UDP/IPv4 frame they send (198.18.0.1:9 to
 * 198.18.0.2:9, zero bytes of payload; 60 bytes, the size pktbench sends by default, unless a
 * length is given), the MACs from the command line and a monotonic clock.
 */
#ifndef PB_REF_FRAME_H
#define PB_REF_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define REF_FRAME_LEN 60
#define REF_FRAME_MAX 9216 /* a jumbo frame of the largest MTU a veth here takes, and more */

/* Fills f[len], len 60 .. REF_FRAME_MAX; 0, or -EINVAL for a MAC that does not parse. */
int ref_frame_build(uint8_t *f, size_t len, const char *dstmac, const char *srcmac);
/* A frame length from s (60 .. REF_FRAME_MAX), or -EINVAL. */
int ref_parse_len(const char *s, size_t *len);
double ref_now(void);
/* A positive number of seconds from s, or -EINVAL. */
int ref_parse_secs(const char *s, double *secs);

#endif
