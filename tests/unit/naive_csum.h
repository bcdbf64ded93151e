/* SPDX-License-Identifier: MIT */
/*
 * The tests' own checksum checks: deliberately naive, sharing no code with frame.c or the
 * BPF programs, so a frame is judged by a second, independent reading.
 */
#ifndef PB_NAIVE_CSUM_H
#define PB_NAIVE_CSUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

/* Ones' complement sum of big-endian 16-bit words, folded once at the end. */
static inline unsigned int naive_sum(const uint8_t *p, size_t len)
{
	unsigned long long s = 0;
	size_t i;

	for (i = 0; i < len; i++)
		s += (i % 2) ? p[i] : (unsigned int)p[i] * 256;
	while (s > 0xffff)
		s = (s & 0xffff) + (s >> 16);
	return (unsigned int)s;
}

/* The IPv4 header at ip (20 bytes, no options) sums to 0xffff with its checksum. */
static inline bool naive_ipv4_ok(const uint8_t *ip)
{
	return naive_sum(ip, 20) == 0xffff;
}

/* Where the UDP header of the IP packet at ip starts, and how long the datagram is. */
static inline const uint8_t *naive_udp(const uint8_t *ip, int family, size_t *len)
{
	if (family == AF_INET) {
		*len = (size_t)ip[2] * 256 + ip[3] - 20;
		return ip + 20;
	}
	*len = (size_t)ip[4] * 256 + ip[5];
	return ip + 40;
}

/*
 * The checksum of the L4 header after the IP header at ip (20 bytes, or 40: no options or
 * extension headers) holds over its pseudo-header (protocol proto), header and payload: UDP,
 * TCP or ICMPv6.
 */
static inline bool naive_l4_ok(const uint8_t *ip, int family, uint8_t proto)
{
	static uint8_t pseudo[40 + 65536];
	size_t len, n;
	const uint8_t *udp = naive_udp(ip, family, &len);

	if (family == AF_INET) {
		memcpy(pseudo, ip + 12, 8);
		pseudo[8] = 0;
		pseudo[9] = proto;
		pseudo[10] = len >> 8;
		pseudo[11] = len & 0xff;
		n = 12;
	} else {
		memcpy(pseudo, ip + 8, 32);
		memset(pseudo + 32, 0, 8);
		pseudo[34] = len >> 8;
		pseudo[35] = len & 0xff;
		pseudo[39] = proto;
		n = 40;
	}
	memcpy(pseudo + n, udp, len);
	return naive_sum(pseudo, n + len) == 0xffff;
}

/* The UDP checksum holds over its pseudo-header, header and payload (IPv4 or IPv6). */
static inline bool naive_udp_ok(const uint8_t *ip, int family)
{
	return naive_l4_ok(ip, family, 17);
}

/* A UDP checksum of 0 means "none" (and is invalid in IPv6): ours never send it. */
static inline bool naive_udp_nonzero(const uint8_t *ip, int family)
{
	size_t len;
	const uint8_t *udp = naive_udp(ip, family, &len);

	return udp[6] || udp[7];
}

#endif
