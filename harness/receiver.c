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

/* Zeroes a bitmap map of nwords 64-bit words. */
static int rx_bitmap_clear(int fd, uint32_t nwords)
{
	uint64_t zero = 0;
	uint32_t k;

	for (k = 0; k < nwords; k++)
		if (bpf_map_update_elem(fd, &k, &zero, BPF_ANY))
			return -errno;
	return 0;
}

/* Calls fn for every bit set in a bitmap map; returns how many, or -errno. */
static int rx_bitmap_walk(int fd, uint32_t nwords, void (*fn)(uint32_t bit, void *ctx), void *ctx)
{
	uint64_t bits;
	uint32_t k;
	int n = 0;

	for (k = 0; k < nwords; k++) {
		if (bpf_map_lookup_elem(fd, &k, &bits))
			return -errno;
		for (; bits; bits &= bits - 1, n++)
			if (fn)
				fn(k * 64 + (uint32_t)__builtin_ctzll(bits), ctx);
	}
	return n;
}

int pb_receiver_clear_ports(struct pb_receiver *r)
{
	int err = rx_bitmap_clear(bpf_map__fd(r->skel->maps.seen_ports), 65536 / 64);

	return err ? err : rx_bitmap_clear(bpf_map__fd(r->skel->maps.seen_vlans), 4096 / 64);
}

int pb_receiver_count_ports(struct pb_receiver *r, uint32_t *out)
{
	int n = rx_bitmap_walk(bpf_map__fd(r->skel->maps.seen_ports), 65536 / 64, NULL, NULL);

	*out = n > 0 ? (uint32_t)n : 0;
	return n < 0 ? n : 0;
}

struct rx_vlans {
	uint16_t *ids;
	uint32_t max, n;
};

static void rx_vlan_add(uint32_t bit, void *ctx)
{
	struct rx_vlans *v = ctx;

	if (v->n < v->max)
		v->ids[v->n++] = (uint16_t)bit;
}

int pb_receiver_vlans(struct pb_receiver *r, uint16_t *ids, uint32_t max, uint32_t *n)
{
	struct rx_vlans v = { ids, max, 0 };
	int err = rx_bitmap_walk(bpf_map__fd(r->skel->maps.seen_vlans), 4096 / 64, rx_vlan_add, &v);

	*n = v.n;
	return err < 0 ? err : 0;
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
