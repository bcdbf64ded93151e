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

int ref_frame_build(uint8_t *f, const char *dstmac, const char *srcmac)
{
	static const uint8_t addrs[8] = { 198, 18, 0, 1, 198, 18, 0, 2 };
	uint8_t *ip = f + 14, *udp = f + 34;
	uint32_t sum = 0;
	int i;

	memset(f, 0, REF_FRAME_LEN);
	if (put_mac(f, dstmac) || put_mac(f + 6, srcmac))
		return -EINVAL;
	f[12] = 0x08; /* IPv4 */
	ip[0] = 0x45;
	ip[3] = REF_FRAME_LEN - 14; /* total length 46 */
	ip[8] = 64;		    /* TTL */
	ip[9] = 17;		    /* UDP */
	memcpy(ip + 12, addrs, sizeof(addrs));
	for (i = 0; i < 20; i += 2)
		sum += (uint32_t)(ip[i] << 8 | ip[i + 1]);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	ip[10] = (uint8_t)(~sum >> 8);
	ip[11] = (uint8_t)~sum;
	udp[1] = 9; /* discard, both ports */
	udp[3] = 9;
	udp[5] = REF_FRAME_LEN - 34; /* UDP length 26; checksum 0 = none (IPv4) */
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
