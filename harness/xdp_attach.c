// SPDX-License-Identifier: MIT
/* Attaching our XDP programs: refuse, or replace and restore with --force (xdp_attach.h). */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "log.h"
#include "xdp_attach.h"

const char *pb_xdp_mode_desc(uint32_t mode)
{
	switch (mode) {
	case XDP_FLAGS_DRV_MODE:
		return "native (drv)";
	case XDP_FLAGS_SKB_MODE:
		return "generic (skb)";
	case XDP_FLAGS_HW_MODE:
		return "offloaded (hw)";
	}
	return "unknown";
}

/* The program already on the interface, if any: its id and the mode it runs in. */
static void xdp_att_found(const struct bpf_xdp_query_opts *q, uint32_t *id, uint32_t *mode)
{
	*id = 0;
	*mode = 0;
	if (q->drv_prog_id) {
		*id = q->drv_prog_id;
		*mode = XDP_FLAGS_DRV_MODE;
	} else if (q->skb_prog_id) {
		*id = q->skb_prog_id;
		*mode = XDP_FLAGS_SKB_MODE;
	} else if (q->hw_prog_id) {
		*id = q->hw_prog_id;
		*mode = XDP_FLAGS_HW_MODE;
	} else if (q->prog_id) {
		*id = q->prog_id;
		*mode = q->attach_mode == XDP_ATTACHED_SKB  ? XDP_FLAGS_SKB_MODE
			: q->attach_mode == XDP_ATTACHED_HW ? XDP_FLAGS_HW_MODE
							    : XDP_FLAGS_DRV_MODE;
	}
}

int pb_xdp_att_check(struct pb_xdp_att *a, const char *who, const char *ifname, int ifindex,
		     bool force)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	int err;

	a->who = who;
	snprintf(a->ifname, sizeof(a->ifname), "%s", ifname);
	a->ifindex = ifindex;
	err = bpf_xdp_query(ifindex, 0, &q);
	if (err) {
		pr_err("%s: cannot query the XDP program of %s: %s\n", who, ifname, strerror(-err));
		return err;
	}
	xdp_att_found(&q, &a->old_id, &a->old_mode);
	if (a->old_id && !force) {
		pr_err("%s: %s already has an XDP program (id %u, %s mode) and pktbench would "
		       "have to replace it; it is left alone. --force replaces it while pktbench "
		       "runs and puts it back afterwards\n",
		       who, ifname, a->old_id, pb_xdp_mode_desc(a->old_mode));
		return -EEXIST;
	}
	if (a->old_id && a->old_mode == XDP_FLAGS_HW_MODE) {
		pr_err("%s: %s has an offloaded XDP program (id %u); pktbench does not replace "
		       "offloaded programs, even with --force\n",
		       who, ifname, a->old_id);
		return -EEXIST;
	}
	return 0;
}

/* --force: our program in place of old_fd; the old one stays if anything fails. */
static int xdp_att_replace(int ifindex, int fd, uint32_t mode, int old_fd, uint32_t old_mode)
{
	LIBBPF_OPTS(bpf_xdp_attach_opts, opts, .old_prog_fd = old_fd);
	int err;

	if (old_mode == mode)
		return bpf_xdp_attach(ifindex, fd, mode | XDP_FLAGS_REPLACE, &opts);
	/* native and generic cannot be attached at once: the old one goes first */
	err = bpf_xdp_detach(ifindex, old_mode | XDP_FLAGS_REPLACE, &opts);
	if (err)
		return err;
	err = bpf_xdp_attach(ifindex, fd, mode | XDP_FLAGS_UPDATE_IF_NOEXIST, NULL);
	if (err)
		bpf_xdp_attach(ifindex, old_fd, old_mode | XDP_FLAGS_UPDATE_IF_NOEXIST, NULL);
	return err;
}

/* Puts the replaced program back in place of ours (fd). */
static int xdp_att_restore(int ifindex, int fd, uint32_t mode, int old_fd, uint32_t old_mode)
{
	LIBBPF_OPTS(bpf_xdp_attach_opts, opts, .old_prog_fd = fd);
	int err;

	if (old_mode == mode)
		return bpf_xdp_attach(ifindex, old_fd, mode | XDP_FLAGS_REPLACE, &opts);
	err = bpf_xdp_detach(ifindex, mode | XDP_FLAGS_REPLACE, &opts);
	if (err)
		return err;
	return bpf_xdp_attach(ifindex, old_fd, old_mode | XDP_FLAGS_UPDATE_IF_NOEXIST, NULL);
}

int pb_xdp_att_attach(struct pb_xdp_att *a, int prog_fd, uint32_t mode, bool quiet)
{
	int err;

	a->prog_fd = prog_fd;
	if (!a->old_id) {
		/* a BPF link: detached when the process ends, however it ends */
		LIBBPF_OPTS(bpf_link_create_opts, lopts, .flags = mode);

		a->link_fd = bpf_link_create(prog_fd, a->ifindex, BPF_XDP, &lopts);
		if (a->link_fd < 0) {
			err = a->link_fd;
			a->link_fd = -1;
			if (!quiet)
				pr_err("%s: cannot attach an XDP program to %s in %s mode: %s%s\n",
				       a->who, a->ifname, pb_xdp_mode_desc(mode), strerror(-err),
				       mode == XDP_FLAGS_DRV_MODE
					       ? " (does the driver have native XDP? try "
						 "--xdp-mode generic)"
					       : "");
			return err;
		}
		a->mode = mode;
		return 0;
	}

	/* --force: a program attached over netlink is replaced over netlink, and restored */
	if (a->old_fd < 0) {
		a->old_fd = bpf_prog_get_fd_by_id(a->old_id);
		if (a->old_fd < 0) {
			err = -errno;
			a->old_fd = -1;
			pr_err("%s: --force: cannot hold XDP program id %u of %s: %s\n", a->who,
			       a->old_id, a->ifname, strerror(-err));
			return err;
		}
	}
	/* it is put back in this namespace, wherever the detach is called from */
	if (a->netns_fd < 0)
		a->netns_fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	err = xdp_att_replace(a->ifindex, prog_fd, mode, a->old_fd, a->old_mode);
	if (err) {
		if (!quiet)
			pr_err("%s: --force: cannot replace XDP program id %u on %s: %s%s\n",
			       a->who, a->old_id, a->ifname, strerror(-err),
			       err == -EBUSY ? " (it is held by a BPF link, which only its owner "
					       "can replace)"
					     : "");
		return err;
	}
	a->mode = mode;
	a->replaced = true;
	pr_warn("%s: --force: XDP program id %u (%s mode) on %s is replaced while pktbench runs "
		"and put back at the end\n",
		a->who, a->old_id, pb_xdp_mode_desc(a->old_mode), a->ifname);
	return 0;
}

/* Runs the restore in the namespace of the attachment, then returns to the caller's. */
static int xdp_att_restore_in_ns(struct pb_xdp_att *a)
{
	int here = -1, err;

	if (a->netns_fd >= 0) {
		here = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
		if (here < 0 || setns(a->netns_fd, CLONE_NEWNET)) {
			err = -errno;
			if (here >= 0)
				close(here);
			return err;
		}
	}
	err = xdp_att_restore(a->ifindex, a->prog_fd, a->mode, a->old_fd, a->old_mode);
	if (here >= 0) {
		if (setns(here, CLONE_NEWNET))
			pr_err("%s: cannot return to the caller's network namespace: %s\n", a->who,
			       strerror(errno));
		close(here);
	}
	return err;
}

void pb_xdp_att_detach(struct pb_xdp_att *a)
{
	int err;

	if (a->link_fd >= 0) {
		bpf_link_detach(a->link_fd);
		close(a->link_fd);
		a->link_fd = -1;
	}
	if (a->replaced) {
		err = xdp_att_restore_in_ns(a);
		if (err)
			pr_err("%s: cannot put XDP program id %u back on %s (%s mode): %s; attach "
			       "it again by hand\n",
			       a->who, a->old_id, a->ifname, pb_xdp_mode_desc(a->old_mode),
			       strerror(-err));
		a->replaced = false;
	}
	if (a->old_fd >= 0)
		close(a->old_fd);
	a->old_fd = -1;
	if (a->netns_fd >= 0)
		close(a->netns_fd);
	a->netns_fd = -1;
	a->mode = 0;
	a->old_id = 0;
}
