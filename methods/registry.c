// SPDX-License-Identifier: MIT
/* The methods built into this binary, in benchmark order: one explicit list, no magic. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "method.h"

#ifndef PB_HAVE_PCAP
/* Listed all the same, so a benchmark says why there is no pcap row instead of omitting it. */
static int pcap_not_built(const struct pb_config *cfg, char *reason, size_t len)
{
	snprintf(reason, len, "not built: libpcap was not found at build time (libpcap-dev)");
	return -EOPNOTSUPP;
}

static const struct pb_method pb_method_pcap = {
	.name = "pcap",
	.aliases = { "af_pcap" },
	.help = "libpcap pcap_inject() (not built: libpcap-dev was missing)",
	.flags = PB_M_FRAME | PB_M_NEEDS_RAW,
	.probe = pcap_not_built,
};
#endif

extern const struct pb_method pb_method_udp_sendto, pb_method_udp_connected, pb_method_sendmmsg,
	pb_method_gso, pb_method_raw_socket, pb_method_af_packet, pb_method_null;
#ifdef PB_HAVE_PCAP
extern const struct pb_method pb_method_pcap;
#endif

const struct pb_method *const pb_methods[] = {
	&pb_method_udp_sendto, &pb_method_udp_connected, &pb_method_sendmmsg, &pb_method_gso,
	&pb_method_raw_socket, &pb_method_af_packet,	 &pb_method_pcap,     &pb_method_null,
};

const unsigned int pb_methods_count = sizeof(pb_methods) / sizeof(pb_methods[0]);

const struct pb_method *pb_method_find(const char *name)
{
	unsigned int i, j;

	for (i = 0; i < pb_methods_count; i++) {
		if (!strcmp(pb_methods[i]->name, name))
			return pb_methods[i];
		for (j = 0; j < 3 && pb_methods[i]->aliases[j]; j++)
			if (!strcmp(pb_methods[i]->aliases[j], name))
				return pb_methods[i];
	}
	return NULL;
}
