/* SPDX-License-Identifier: MIT */
/* Which capabilities this process holds, so a missing one is named before anything starts. */
#ifndef PB_CAPS_H
#define PB_CAPS_H

#include <stdbool.h>
#include <stddef.h>

/* true when the effective set holds capability cap (CAP_NET_RAW, ...). */
bool pb_cap_has(int cap);
/*
 * Checks the capabilities the run needs: the lab needs CAP_SYS_ADMIN (namespaces, bpffs,
 * BPF), CAP_NET_ADMIN (links, XDP); frame methods need CAP_NET_RAW. 0, or -EPERM with the
 * missing ones named in msg.
 */
int pb_caps_check(bool lab, bool raw, char *msg, size_t len);

#endif
