/* SPDX-License-Identifier: MIT */
/*
 * The netdev generic-netlink family (Linux 6.3+): what a device says of its XDP features and
 * AF_XDP limits. One request: the family's id, then the device's attribute.
 */
#ifndef PB_NETDEV_H
#define PB_NETDEV_H

#include <stddef.h>
#include <stdint.h>

/* netdev's attributes of a device (include/uapi/linux/netdev.h, not in older headers) */
#define PB_NETDEV_A_DEV_XDP_FEATURES	3 /* u64 (u32 in some kernels) */
#define PB_NETDEV_A_DEV_XDP_ZC_MAX_SEGS 4 /* u32, Linux 6.6, with XDP_USE_SG */
#define PB_NETDEV_XDP_ACT_NDO_XMIT	4 /* in XDP_FEATURES: takes frames of other devices */

/*
 * Attribute attr of ifindex, in the calling thread's namespace, copied into out (up to outlen
 * bytes). Its length, or -errno: the kernel's, or -ENOENT when it does not say (no netdev
 * family, or the device lacks the attribute).
 */
int pb_netdev_attr(int ifindex, uint16_t attr, void *out, size_t outlen);

#endif
