// SPDX-License-Identifier: MIT
/* The netdev generic-netlink family, asked without libnl: two requests a question. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <sys/socket.h>

#include "netdev.h"

#define NETDEV_FAMILY	       "netdev"
#define NETDEV_CMD_DEV_GET     1
#define NETDEV_A_DEV_IFINDEX   1

/* Appends one attribute to a netlink request whose buffer has room for it. */
static void nla_put(struct nlmsghdr *nh, uint16_t type, const void *data, uint16_t len)
{
	struct nlattr *a = (struct nlattr *)((char *)nh + NLMSG_ALIGN(nh->nlmsg_len));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, data, len);
	nh->nlmsg_len = NLMSG_ALIGN(nh->nlmsg_len) + NLA_ALIGN(a->nla_len);
}

/*
 * A generic-netlink "do" request with one attribute; copies attribute want of the reply
 * into out (up to outlen bytes). Its length, or -errno (the kernel's, or -ENOENT).
 */
static int genl_do(int fd, uint16_t family, uint8_t cmd, uint16_t attr, const void *val,
		   uint16_t vlen, uint16_t want, void *out, size_t outlen)
{
	struct {
		struct nlmsghdr nh;
		struct genlmsghdr gh;
		char attrs[64];
	} req = {
		.nh = { .nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN),
			.nlmsg_type = family,
			.nlmsg_flags = NLM_F_REQUEST,
			.nlmsg_seq = 1 },
		.gh = { .cmd = cmd, .version = 1 },
	};
	char buf[8192] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct nlmsghdr *nh;
	ssize_t n;

	nla_put(&req.nh, attr, val, vlen);
	if (send(fd, &req, req.nh.nlmsg_len, 0) < 0)
		return -errno;
	n = recv(fd, buf, sizeof(buf), 0);
	if (n < 0)
		return -errno;
	for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, n); nh = NLMSG_NEXT(nh, n)) {
		struct nlattr *a;
		int rem;

		if (nh->nlmsg_type == NLMSG_ERROR) {
			int err = ((struct nlmsgerr *)NLMSG_DATA(nh))->error;

			return err ? err : -ENOENT;
		}
		if (nh->nlmsg_type != family)
			continue;
		a = (struct nlattr *)((char *)NLMSG_DATA(nh) + GENL_HDRLEN);
		rem = (int)nh->nlmsg_len - (int)NLMSG_LENGTH(GENL_HDRLEN);
		while (rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= rem) {
			if ((a->nla_type & NLA_TYPE_MASK) == want) {
				size_t plen = a->nla_len - NLA_HDRLEN;

				memcpy(out, (char *)a + NLA_HDRLEN, plen < outlen ? plen : outlen);
				return (int)plen;
			}
			rem -= NLA_ALIGN(a->nla_len);
			a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len));
		}
	}
	return -ENOENT;
}

int pb_netdev_attr(int ifindex, uint16_t attr, void *out, size_t outlen)
{
	uint32_t idx = (uint32_t)ifindex;
	uint16_t family = 0;
	int fd, n;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -errno;
	n = genl_do(fd, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME, NETDEV_FAMILY,
		    sizeof(NETDEV_FAMILY), CTRL_ATTR_FAMILY_ID, &family, sizeof(family));
	if (n == sizeof(family))
		n = genl_do(fd, family, NETDEV_CMD_DEV_GET, NETDEV_A_DEV_IFINDEX, &idx,
			    sizeof(idx), attr, out, outlen);
	else if (n >= 0)
		n = -EPROTO;
	close(fd);
	return n;
}
