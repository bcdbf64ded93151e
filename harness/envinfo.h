/* SPDX-License-Identifier: MIT */
/*
 * What a run's figures depend on beyond the code: the kernel and its mitigations, the CPU
 * frequency governor, busy polling, the interface's IRQs and NAPI threads and its ring,
 * channel, coalescing and offload settings, where the sender was placed. Each is read at run
 * time and kept as text; what cannot be read says "unknown (why)", never a silent 0. The
 * result set carries them as its `environment` object, `pktbench environment` prints them
 * and compare warns about each one that differs between two sets.
 */
#ifndef PB_ENVINFO_H
#define PB_ENVINFO_H

#include <stdbool.h>
#include <stddef.h>

#define PB_ENVINFO_MAX 72   /* fields: about 25 mitigations, the rest fixed */
#define PB_ENVINFO_KEY 48
#define PB_ENVINFO_VAL 1024 /* an interface's active offloads, by name */

struct pb_envinfo_field {
	char key[PB_ENVINFO_KEY];
	char val[PB_ENVINFO_VAL];
	bool known; /* false: val is "unknown (why)" */
};

struct pb_envinfo {
	unsigned int n;
	struct pb_envinfo_field f[PB_ENVINFO_MAX];
};

/*
 * Reads the host's fields and, with iface (may be NULL), the interface's from sysfs and
 * procfs under root ("/" on a live system; a test's made-up tree). Appends to e; never fails:
 * each field that cannot be read says why in its text.
 */
void pb_envinfo_read(struct pb_envinfo *e, const char *root, const char *iface);
/*
 * pb_envinfo_read(e, "/", iface) with sysfs mounted from the calling thread's network
 * namespace (the lab's, which the host's sysfs does not show), in a child process with a
 * mount namespace of its own, as ip netns exec does. 0, or -errno with e unchanged.
 */
int pb_envinfo_read_netns(struct pb_envinfo *e, const char *iface);
/*
 * The interface's ring, channel, coalescing and offload settings (ethtool -g, -l, -c, -k),
 * asked over SIOCETHTOOL in the calling thread's network namespace. Appends to e.
 */
void pb_envinfo_read_ethtool(struct pb_envinfo *e, const char *iface);
/* Sets key to the printf text (known), replacing a field of that key or appending one. */
void pb_envinfo_set(struct pb_envinfo *e, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same, as unknown: val becomes "unknown (TEXT)". */
void pb_envinfo_unknown(struct pb_envinfo *e, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The field of key, or NULL. */
const struct pb_envinfo_field *pb_envinfo_get(const struct pb_envinfo *e, const char *key);

struct ethtool_ringparam;
struct ethtool_channels;
struct ethtool_coalesce;
/* The texts ethtool's answers become (pure: the unit test feeds them made-up answers). */
void pb_envinfo_fmt_ring(const struct ethtool_ringparam *r, char *buf, size_t len);
void pb_envinfo_fmt_channels(const struct ethtool_channels *c, char *buf, size_t len);
void pb_envinfo_fmt_coalesce(const struct ethtool_coalesce *c, char *buf, size_t len);

#endif
