/* SPDX-License-Identifier: MIT */
/*
 * Putting one of our XDP programs on an interface without harming the one already there.
 * Ours always goes on through a BPF link, so it goes away with the process however the
 * process ends (only a kernel without XDP links gets a netlink attachment, with an owner
 * record so the next start removes it). An interface with a program is refused unless
 * --force; with --force that program is taken off (over netlink, as it was attached) and put
 * back, the same program id, on detach. Before it is taken off it is pinned in bpffs and an
 * owner record names it (/run/pktbench/xdp-NETNS-IFINDEX: our pid, its id, mode and pin), so
 * after a SIGKILL `pktbench receive --restore IFACE`, or the next attach on that interface,
 * puts it back. A record's programs are the user's: pktbench never records one of its own
 * (a program attached by a live pktbench is refused, a dead one's link is gone with it).
 * Shared by af_xdp and the receiver.
 */
#ifndef PB_XDP_ATTACH_H
#define PB_XDP_ATTACH_H

#include <stdbool.h>
#include <stdint.h>
#include <net/if.h>

struct pb_xdp_att {
	const char *who; /* prefix of the messages: "af_xdp", "receiver" */
	char ifname[IF_NAMESIZE];
	int ifindex;
	uint32_t mode; /* once attached: XDP_FLAGS_DRV_MODE or XDP_FLAGS_SKB_MODE; else 0 */
	int prog_fd;   /* ours, owned by the caller */
	int link_fd;   /* our attachment; -1 */
	int old_fd;    /* --force: the program we took off, held to put it back; -1 */
	uint32_t old_id, old_mode; /* what the interface had (0: nothing) */
	int netns_fd;		   /* the namespace to undo it in; -1 */
	bool replaced;		   /* old_fd was taken off for ours */
	bool netlink;		   /* ours went on over netlink: no XDP links here */
	bool recorded;		   /* the owner record (and pin) are ours */
	bool refused;		   /* --force could not take the old one off: no mode helps */
	char record[64];	   /* the owner record's path, set by pb_xdp_att_check() */
};

#define PB_XDP_ATT_INIT                                                                            \
	{                                                                                          \
		.link_fd = -1, .old_fd = -1, .netns_fd = -1                                        \
	}

/* For messages: what ip link calls a mode, with ours ("native (drv)"). */
const char *pb_xdp_mode_desc(uint32_t mode);
/*
 * Looks at the interface (an interface of the calling thread's namespace). First puts back
 * what a pktbench that is gone had taken off it (its owner record); an interface a running
 * pktbench replaced a program on is refused (-EBUSY). Then: 0 when we may attach (nothing
 * there, or force and a program we can replace), -EEXIST when not (said why), or the query's
 * -errno. a must be PB_XDP_ATT_INIT or detached.
 */
int pb_xdp_att_check(struct pb_xdp_att *a, const char *who, const char *ifname, int ifindex,
		     bool force);
/*
 * After pb_xdp_att_check(): attaches prog_fd in mode (XDP_FLAGS_DRV_MODE or SKB_MODE), in the
 * same namespace. quiet: no message when it fails (the caller tries another mode). 0 or
 * -errno; on failure the interface keeps what it had.
 */
int pb_xdp_att_attach(struct pb_xdp_att *a, int prog_fd, uint32_t mode, bool quiet);
/* Takes ours off and puts back what --force replaced, from any namespace. Idempotent. */
void pb_xdp_att_detach(struct pb_xdp_att *a);
/*
 * `pktbench receive --restore IFACE`: puts back the program a pktbench that is gone (killed)
 * had taken off the interface of the calling thread's namespace, said either way. 0 when it
 * is back or there was nothing to put back; -EBUSY when its pktbench still runs; -errno.
 */
int pb_xdp_att_restore(const char *who, const char *ifname, int ifindex);

struct bpf_program;
/* The kernel loads multi-buffer XDP programs (BPF_F_XDP_HAS_FRAGS, 5.18+). Probed once. */
bool pb_xdp_has_frags(void);
/*
 * Marks prog multi-buffer when the kernel has it, before the load: a veth or driver with an MTU over a page takes only such a program in
 * native mode. The program must then read a frame's length with bpf_xdp_get_buff_len(). True
 * when marked.
 */
bool pb_xdp_frags(struct bpf_program *prog);

#endif
