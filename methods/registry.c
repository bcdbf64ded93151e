// SPDX-License-Identifier: MIT
/* The methods built into this binary, in benchmark order: one explicit list, no magic. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "method.h"

/*
 * A method whose library was missing at build time is still listed, so a benchmark says why
 * there is no row for it instead of silently leaving it out.
 */
#define PB_NOT_BUILT(var, mname, pkg, mflags, ...)                                                 \
	static int var##_not_built(const struct pb_config *cfg, char *reason, size_t len)          \
	{                                                                                          \
		snprintf(reason, len, "not built: " pkg " was not found at build time");           \
		return -EOPNOTSUPP;                                                                \
	}                                                                                          \
	static const struct pb_method var = {                                                      \
		.name = mname,                                                                     \
		.aliases = { __VA_ARGS__ },                                                        \
		.help = "not built (" pkg " was missing)",                                         \
		.flags = mflags,                                                                   \
		.probe = var##_not_built,                                                          \
	}

#ifdef PB_HAVE_AF_XDP
extern const struct pb_method pb_method_af_xdp;
#else
PB_NOT_BUILT(pb_method_af_xdp, "af_xdp", "libxdp-dev", PB_M_FRAME | PB_M_NEEDS_RAW);
#endif
#ifdef PB_HAVE_IO_URING
extern const struct pb_method pb_method_io_uring, pb_method_io_uring_fixed,
	pb_method_io_uring_sqpoll, pb_method_io_uring_gso;
#else
PB_NOT_BUILT(pb_method_io_uring, "io_uring", "liburing-dev", 0);
PB_NOT_BUILT(pb_method_io_uring_fixed, "io_uring_fixed", "liburing-dev", 0);
PB_NOT_BUILT(pb_method_io_uring_sqpoll, "io_uring_sqpoll", "liburing-dev", 0);
PB_NOT_BUILT(pb_method_io_uring_gso, "io_uring_gso", "liburing-dev", 0);
#endif
#ifdef PB_HAVE_PCAP
extern const struct pb_method pb_method_pcap;
#else
PB_NOT_BUILT(pb_method_pcap, "pcap", "libpcap-dev", PB_M_FRAME | PB_M_NEEDS_RAW, { "af_pcap" });
#endif
extern const struct pb_method pb_method_xdp_live, pb_method_udp_sendto, pb_method_udp_connected,
	pb_method_sendmmsg, pb_method_gso, pb_method_gso_mmsg, pb_method_udp_zerocopy,
	pb_method_gso_zerocopy, pb_method_raw_socket, pb_method_af_packet, pb_method_af_packet_v2,
	pb_method_af_packet_qdisc, pb_method_null;

const struct pb_method *const pb_methods[] = {
	&pb_method_af_xdp,
	&pb_method_xdp_live,
	&pb_method_udp_sendto,
	&pb_method_udp_connected,
	&pb_method_sendmmsg,
	&pb_method_io_uring,
	&pb_method_io_uring_fixed,
	&pb_method_io_uring_sqpoll,
	&pb_method_io_uring_gso,
	&pb_method_gso,
	&pb_method_gso_mmsg,
	&pb_method_udp_zerocopy,
	&pb_method_gso_zerocopy,
	&pb_method_raw_socket,
	&pb_method_af_packet,
	&pb_method_af_packet_v2,
	&pb_method_af_packet_qdisc,
	&pb_method_pcap,
	&pb_method_null,
};

const unsigned int pb_methods_count = sizeof(pb_methods) / sizeof(pb_methods[0]);

const struct pb_method *pb_method_find(const char *name, unsigned int *batch)
{
	unsigned int i, j;

	if (batch)
		*batch = 0;
	for (i = 0; i < pb_methods_count; i++) {
		const struct pb_method *m = pb_methods[i];

		/* in any case: AF_PACKET is af_packet */
		if (!strcasecmp(m->name, name))
			return m;
		for (j = 0; j < 3 && m->aliases[j].name; j++) {
			if (strcasecmp(m->aliases[j].name, name))
				continue;
			if (batch)
				*batch = m->aliases[j].batch;
			return m;
		}
	}
	return NULL;
}

int pb_methods_select(const char *spec, struct pb_selected *out, unsigned int max, char *bad,
		      size_t badlen)
{
	unsigned int n = 0, i;
	const char *p = spec;

	if (!strcmp(spec, "benchmark")) {
		for (i = 0; i < pb_methods_count; i++)
			if (n < max && out)
				out[n++] = (struct pb_selected){ pb_methods[i], 0 };
		return out ? (int)n : (int)pb_methods_count;
	}
	while (*p) {
		size_t len = strcspn(p, ",");
		char name[64];
		const struct pb_method *m;
		unsigned int batch = 0;

		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		m = len < sizeof(name) ? pb_method_find(name, &batch) : NULL;
		if (!m) {
			snprintf(bad, badlen, "%s", name);
			return -EINVAL;
		}
		if (out && n < max)
			out[n] = (struct pb_selected){ m, batch };
		n++;
		p += len + (p[len] == ',');
	}
	if (!n) {
		snprintf(bad, badlen, "%s", spec);
		return -EINVAL;
	}
	return (int)n;
}
