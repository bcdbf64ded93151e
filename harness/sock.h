/* SPDX-License-Identifier: MIT */
/* Socket helpers shared by the socket methods: one place for addresses, binds and waits. */
#ifndef PB_SOCK_H
#define PB_SOCK_H

#include <stdbool.h>
#include <sys/socket.h>

#include "method.h"

/* addr:port as a sockaddr of the right family; returns its length. */
socklen_t pb_sockaddr(const struct pb_addr *addr, uint16_t port, struct sockaddr_storage *ss);
/*
 * A UDP socket bound to srcip:(srcport + worker id), connected to dstip:dstport when
 * connect_it. *fd on success; 0 or -errno.
 */
int pb_udp_socket(const struct pb_worker *w, bool connect_it, int *fd);
/* Waits up to 10 ms for fd to take more, so a full queue costs no busy loop. */
void pb_wait_writable(int fd);
/* -errno of a failed send, mapped so the harness retries only what is transient. */
int pb_send_errno(int err);

#endif
