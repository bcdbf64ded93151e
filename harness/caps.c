// SPDX-License-Identifier: MIT
/* Capability checks through capget(2), so no libcap dependency for three bits. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/syscall.h>

#include "caps.h"

bool pb_cap_has(int cap)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};

	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[cap / 32].effective & (1u << (cap % 32));
}

int pb_caps_check(bool lab, bool raw, char *msg, size_t len)
{
	static const struct {
		int cap;
		const char *name;
		int need; /* 1: lab, 2: raw */
	} want[] = {
		{ CAP_SYS_ADMIN, "CAP_SYS_ADMIN", 1 },
		{ CAP_NET_ADMIN, "CAP_NET_ADMIN", 1 },
		{ CAP_NET_RAW, "CAP_NET_RAW", 2 },
	};
	size_t i, off = 0;

	msg[0] = '\0';
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		if (!((want[i].need == 1 && lab) || (want[i].need == 2 && raw)))
			continue;
		if (pb_cap_has(want[i].cap))
			continue;
		off += snprintf(msg + off, off < len ? len - off : 0, "%s%s", off ? ", " : "",
				want[i].name);
	}
	return off ? -EPERM : 0;
}
