/* SPDX-License-Identifier: MIT */
/*
 * MSG_ZEROCOPY on UDP sockets (methods/udp_zerocopy.c), plain (udp_zerocopy) or with
 * UDP_SEGMENT datagrams (gso_zerocopy): datagrams count as sent when the socket's error queue
 * says the kernel let go of their pages.
 */
#ifndef PB_UDP_ZEROCOPY_H
#define PB_UDP_ZEROCOPY_H

#include <stdbool.h>
#include <stddef.h>

#include "gso.h"
#include "method.h"

int pb_zc_probe(const struct pb_config *cfg, bool gso, char *reason, size_t len);
int pb_zc_open(struct pb_worker *w, bool gso);
int pb_zc_send(struct pb_worker *w, unsigned int budget, struct pb_outcome *o);
void pb_zc_close(struct pb_worker *w);

#endif
