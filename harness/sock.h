/* SPDX-License-Identifier: MIT */
/* Socket helpers shared by the socket methods: one place for addresses, binds and waits. */
#ifndef PB_SOCK_H
#define PB_SOCK_H

#include <stdbool.h>
#include <sys/socket.h>

#include "method.h"

/* The state of a method that is one socket and one destination (udp_*, raw_socket). */
struct pb_sock_priv {
	int fd;
	struct sockaddr_storage dst;
	socklen_t dstlen;
};

/* Allocates w->priv as a struct pb_sock_priv with fd -1 and dst = dstip:port. */
int pb_sock_priv_new(struct pb_worker *w, uint16_t port, struct pb_sock_priv **out);
/* A close hook for methods whose w->priv is a struct pb_sock_priv. */
void pb_sock_priv_close(struct pb_worker *w);

/* addr:port as a sockaddr of the right family; returns its length. */
socklen_t pb_sockaddr(const struct pb_addr *addr, uint16_t port, struct sockaddr_storage *ss);
/*
 * A UDP socket bound to srcip:(srcport + worker id), connected to dstip:dstport when
 * connect_it. *fd on success; 0 or -errno.
 */
int pb_udp_socket(const struct pb_worker *w, bool connect_it, int *fd);
/* -errno of a failed send, mapped so the harness retries only what is transient. */
int pb_send_errno(int err);
/*
 * After a send on fd failed with err (errno) having sent `done` frames in this call: counts a
 * reported drop (ENOBUFS) as retried, waits briefly when the socket is full, and returns
 * what the method returns: done when some frames went, else the mapped -errno.
 */
int pb_send_failed(struct pb_worker *w, int fd, int err, unsigned int done);

#endif
