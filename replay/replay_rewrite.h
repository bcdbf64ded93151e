/* SPDX-License-Identifier: MIT */
/*
 * --replay's rewrites of a whole frame past its MACs, in tcprewrite's spirit: IP addresses
 * (--rewrite-ip: the run's, or a map of prefixes) and TCP/UDP ports (--rewrite-port), each
 * checksum that covers them brought along (RFC 1624's incremental update, so a frame
 * captured short, or a fragment, stays right); and --fixcsum, every checksum computed
 * afresh where the frame holds what it covers. Nothing here reads a file or a clock.
 */
#ifndef PB_REPLAY_REWRITE_H
#define PB_REPLAY_REWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"

#define RP_RW_MAX 8 /* rules of each kind */

struct rp_rw {
	bool run; /* --rewrite-ip run: sources to --srcip, destinations to --dstip */
	struct pb_addr srcip, dstip;
	uint32_t nip;
	struct rp_ip_rule {
		struct pb_addr from, to;
		uint8_t from_len, to_len; /* prefix lengths */
	} ip[RP_RW_MAX];
	uint32_t nport;
	struct rp_port_rule {
		uint16_t from, to;
	} port[RP_RW_MAX];
};

/* --rewrite-ip and --rewrite-port of cfg into rw; 0 or -EINVAL with err filled. */
int rp_rewrite_parse(const struct pb_config *cfg, struct rp_rw *rw, char *err, size_t errlen);
/* Whether rw rewrites anything at all. */
bool rp_rewrite_any(const struct rp_rw *rw);
/*
 * The frame from its EtherType on (len bytes, as captured: perhaps short of its headers),
 * rewritten in place as rw asks. True when any byte changed.
 */
bool rp_rewrite(uint8_t *p, uint32_t len, const struct rp_rw *rw);
/*
 * --fixcsum: the frame from its EtherType on (len bytes) with its IPv4 header checksum and
 * its UDP, TCP or ICMPv6 checksum computed afresh, each where the frame holds all it covers
 * (not a fragment, not captured short). True when any byte changed.
 */
bool rp_fixcsum(uint8_t *p, uint32_t len);
/* An address mapped by rule r: r->to's first to_len bits, then a's own (for the tests). */
void rp_rewrite_map(struct pb_addr *a, const struct rp_ip_rule *r);

#endif
