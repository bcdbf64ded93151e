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
/*
 * After pb_udp_sockets: idx[i] = the index in p->socks of pool frame i's socket, for methods
 * that keep state per socket (or register the sockets as an array). 0 or -ENOMEM.
 */
int pb_sock_index(const struct pb_worker *w, const struct pb_sock_priv *p, int *idx);

/* Allocates w->priv as a struct pb_sock_priv with fd -1 and dst = dstip:port. */
int pb_sock_priv_new(struct pb_worker *w, uint16_t port, struct pb_sock_priv **out);
/* A close hook for methods whose w->priv is a struct pb_sock_priv. */
void pb_sock_priv_close(struct pb_worker *w);

/* Asks the kernel to report local drops (ENOBUFS) on fd: IP_RECVERR / IPV6_RECVERR. */
void pb_sock_recverr(int fd, int family);
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
 * A short sendmmsg() count hides an error: when datagram k > 0 of a batch fails, the kernel
 * returns k and drops the errno. It was either a full socket (EAGAIN: not a drop) or a drop
 * the device or qdisc reported (ENOBUFS: counted in their drop counters, so it must be
 * counted as retried), or an ICMP error queued by IP_RECVERR. The send buffer is made large
 * enough (pb_sock_big_sndbuf: SO_SNDBUFFORCE, root) that a full socket means megabytes
 * queued, which SIOCOUTQ shows; a pending ICMP error shows on the error queue; anything else
 * was a reported drop.
 */
#define PB_SOCK_SNDBUF (16u << 20)
#define PB_SOCK_FULL   4096u /* SIOCOUTQ within this of the buffer: the socket was full */
/*
 * Asks for a PB_SOCK_SNDBUF send buffer on fd; returns what the kernel gave. Every socket
 * method's socket gets it (pb_udp_socket does it): with the default ~200 KB, frames queued
 * below the socket (a qdisc, a slow peer's input backlog) fill it, and the path then pushes
 * back on the sender (EAGAIN) instead of dropping, which the receiver would never see.
 */
int pb_sock_set_sndbuf(int fd);
/* Asks for a PB_SOCK_SNDBUF send buffer on each of s's sockets; returns what the kernel gave. */
int pb_sock_big_sndbuf(const struct pb_sock_priv *s);
/*
 * Whether the datagram (next_len bytes) after a short sendmmsg() count on fd, whose send
 * buffer is sndbuf, was a reported drop (see above). Its system calls count in o.
 */
bool pb_sock_short_was_drop(int fd, int sndbuf, size_t next_len, struct pb_outcome *o);
/* Sleeps until fd can take more (or 10 ms): the socket was full. The poll counts in o. */
void pb_sock_wait(int fd, struct pb_outcome *o);

/*
 * One frame handed to the kernel by a one-call-per-frame method: 0, or the errno of the
 * failed call, with *fd the descriptor it used (so a full socket can be waited on).
 */
typedef int (*pb_send_one_fn)(struct pb_worker *w, const struct pb_frame *f, uint32_t i, int *fd);

/*
 * The loop of the methods that make one system call per frame (udp_sendto, udp_connected,
 * raw_socket, pcap), written once: up to min(budget, w->batch) attempts on the pool frames
 * from *next on. A frame the kernel took is sent and *next moves on; a reported drop
 * (ENOBUFS) is retried with the same frame; a full socket (EAGAIN) ends the call after a
 * short wait; any other error ends it with -errno. Counts into o; 0 or -errno.
 */
int pb_frame_loop(struct pb_worker *w, uint32_t *next, unsigned int budget, struct pb_outcome *o,
		  pb_send_one_fn one);

#endif
