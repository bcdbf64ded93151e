/* SPDX-License-Identifier: MIT */
/*
 * What the reference loops share: the one 60-byte UDP/IPv4 frame they send (198.18.0.1:9 to
 * 198.18.0.2:9, 18 zero bytes of payload, the size pktbench sends by default), the MACs from
 * the command line and a monotonic clock.
 */
#ifndef PB_REF_FRAME_H
#define PB_REF_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define REF_FRAME_LEN 60

/* Fills f[REF_FRAME_LEN]; 0, or -EINVAL for a MAC that does not parse. */
int ref_frame_build(uint8_t *f, const char *dstmac, const char *srcmac);
double ref_now(void);
/* A positive number of seconds from s, or -EINVAL. */
int ref_parse_secs(const char *s, double *secs);

#endif
