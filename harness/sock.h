/* SPDX-License-Identifier: MIT */
/* Socket helpers shared by the socket methods: one place for addresses, binds and waits. */
#ifndef PB_SOCK_H
#define PB_SOCK_H

#include <stdbool.h>
#include <sys/socket.h>

#include "method.h"

/*
 * The state of a socket method: its sockets and destination, and where it is in the pool.
 * UDP methods have one socket per source port of the pool (a flow is a source port);
 * raw_socket has one socket for all.
 */
struct pb_sock_priv {
	int fd;	    /* the first (or only) socket */
	int *fds;   /* fds[i]: the socket for pool frame i; NULL: fd for every frame */
	int *socks; /* the distinct sockets, each closed once */
	uint32_t nsocks;
	uint32_t next; /* the next pool frame to send */
	struct sockaddr_storage dst;
	socklen_t dstlen;
};

/* The pool frame to send next, and its socket. */
static inline const struct pb_frame *pb_sock_frame(const struct pb_worker *w,
						   const struct pb_sock_priv *p, int *fd)
{
	*fd = p->fds ? p->fds[p->next] : p->fd;
	return &w->pool->frames[p->next];
}

/* Moves on to the next pool frame (after a frame went). */
static inline void pb_sock_advance(const struct pb_worker *w, struct pb_sock_priv *p)
{
	p->next = p->next + 1 == w->pool->n ? 0 : p->next + 1;
}

/*
 * Opens one UDP socket per distinct source port in the worker's pool (see pb_udp_socket)
 * into p->fds / p->socks. 0 or -errno.
 */
int pb_udp_sockets(struct pb_worker *w, bool connect_it, struct pb_sock_priv *p);

/* Allocates w->priv as a struct pb_sock_priv with fd -1 and dst = dstip:port. */
int pb_sock_priv_new(struct pb_worker *w, uint16_t port, struct pb_sock_priv **out);
/* A close hook for methods whose w->priv is a struct pb_sock_priv. */
void pb_sock_priv_close(struct pb_worker *w);

/* addr:port as a sockaddr of the right family; returns its length. */
socklen_t pb_sockaddr(const struct pb_addr *addr, uint16_t port, struct sockaddr_storage *ss);
/*
 * A UDP socket bound to srcip:srcport on the sending interface, connected to
 * dstip:dstport when connect_it. *fd on success; 0 or -errno.
 */
int pb_udp_socket(const struct pb_worker *w, uint16_t srcport, bool connect_it, int *fd);
/* -errno of a failed send, mapped so the harness retries only what is transient. */
int pb_send_errno(int err);
/*
 * After a send on fd failed with err (errno) having sent `done` frames in this call: counts a
 * reported drop (ENOBUFS) as retried, waits briefly when the socket is full, and returns
 * what the method returns: done when some frames went, else the mapped -errno.
 */
int pb_send_failed(struct pb_worker *w, int fd, int err, unsigned int done);

#endif
