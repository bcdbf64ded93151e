// SPDX-License-Identifier: MIT
/* Loads the lab receiver (bpf/receiver.bpf.c) through its skeleton and reads its counters. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "log.h"
#include "receiver.h"
#include "pb_bpf.h"
#include "receiver.skel.h"

struct pb_receiver {
	struct receiver *skel;
	int link_fd; /* a BPF link: closing it (or our death) detaches the program */
	int ncpus;
};

int pb_receiver_attach(struct pb_receiver **out, int ifindex, uint32_t run_id)
{
	LIBBPF_OPTS(bpf_link_create_opts, lopts, .flags = XDP_FLAGS_DRV_MODE);
	struct pb_receiver *r;
	int err;

	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->link_fd = -1;
	r->ncpus = libbpf_num_possible_cpus();
	if (r->ncpus < 0) {
		err = r->ncpus;
		goto out;
	}
	r->skel = receiver__open();
	if (!r->skel) {
		err = -errno;
		pr_err("receiver: cannot open the BPF object: %s\n", strerror(-err));
		goto out;
	}
	r->skel->rodata->run_id = run_id;
	err = receiver__load(r->skel);
	if (err) {
		pr_err("receiver: cannot load the XDP program: %s\n", strerror(-err));
		goto out;
	}
	/*
	 * A link, not a netlink attachment: the kernel detaches it when the fd closes, so a
	 * crashed run cannot leave the receiver behind.
	 */
	r->link_fd = bpf_link_create(bpf_program__fd(r->skel->progs.pb_receiver), ifindex, BPF_XDP,
				     &lopts);
	if (r->link_fd < 0) {
		err = -errno;
		pr_err("receiver: cannot attach in native XDP mode to ifindex %d: %s\n", ifindex,
		       strerror(-err));
		goto out;
	}
	*out = r;
	return 0;
out:
	pb_receiver_detach(r);
	return err;
}

int pb_receiver_read(struct pb_receiver *r, struct pb_rx_counts *out)
{
	int fd = bpf_map__fd(r->skel->maps.rx_slots);
	struct pb_rx_slot *per_cpu;
	uint32_t q;
	int c, err = 0;

	per_cpu = calloc(r->ncpus, sizeof(*per_cpu));
	if (!per_cpu)
		return -ENOMEM;
	memset(out, 0, sizeof(*out));
	for (q = 0; q < PB_BPF_MAX_QUEUES && q < PB_RX_MAX_QUEUES; q++) {
		if (bpf_map_lookup_elem(fd, &q, per_cpu)) {
			err = -errno;
			goto out;
		}
		for (c = 0; c < r->ncpus; c++) {
			out->frames += per_cpu[c].frames;
			out->bytes += per_cpu[c].bytes;
			out->foreign_frames += per_cpu[c].foreign_frames;
			out->foreign_bytes += per_cpu[c].foreign_bytes;
			out->queue_frames[q] += per_cpu[c].frames;
		}
	}
out:
	free(per_cpu);
	return err;
}

void pb_receiver_detach(struct pb_receiver *r)
{
	if (!r)
		return;
	if (r->link_fd >= 0)
		close(r->link_fd);
	receiver__destroy(r->skel);
	free(r);
}
