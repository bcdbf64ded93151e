// SPDX-License-Identifier: MIT
#include <errno.h>
#include <netinet/ether.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ref_frame.h"

static int put_mac(uint8_t *to, const char *s)
{
	struct ether_addr *a = ether_aton(s);

	if (!a)
		return -EINVAL;
	memcpy(to, a->ether_addr_octet, 6);
	return 0;
}

int ref_frame_build(uint8_t *f, size_t len, const char *dstmac, const char *srcmac)
{
	static const uint8_t addrs[8] = { 198, 18, 0, 1, 198, 18, 0, 2 };
	uint8_t *ip = f + 14, *udp = f + 34;
	uint32_t sum = 0;
	int i;

	if (len < REF_FRAME_LEN || len > REF_FRAME_MAX)
		return -EINVAL;
	memset(f, 0, len);
	if (put_mac(f, dstmac) || put_mac(f + 6, srcmac))
		return -EINVAL;
	f[12] = 0x08; /* IPv4 */
	ip[0] = 0x45;
	ip[2] = (uint8_t)((len - 14) >> 8); /* total length: 46 for 60 bytes */
	ip[3] = (uint8_t)(len - 14);
	ip[8] = 64; /* TTL */
	ip[9] = 17; /* UDP */
	memcpy(ip + 12, addrs, sizeof(addrs));
	for (i = 0; i < 20; i += 2)
		sum += (uint32_t)(ip[i] << 8 | ip[i + 1]);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	ip[10] = (uint8_t)(~sum >> 8);
	ip[11] = (uint8_t)~sum;
	udp[1] = 9; /* discard, both ports */
	udp[3] = 9;
	udp[4] = (uint8_t)((len - 34) >> 8); /* UDP length; checksum 0 = none (IPv4) */
	udp[5] = (uint8_t)(len - 34);
	return 0;
}

double ref_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int ref_parse_secs(const char *s, double *secs)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v > 0))
		return -EINVAL;
	*secs = v;
	return 0;
}

int ref_parse_len(const char *s, size_t *len)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (end == s || *end || v < REF_FRAME_LEN || v > REF_FRAME_MAX)
		return -EINVAL;
	*len = v;
	return 0;
}
