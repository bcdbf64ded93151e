// SPDX-License-Identifier: MIT
/* Loads the receiver (bpf/receiver.bpf.c) through its skeleton, attaches it and reads it. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "clock.h"
#include "log.h"
#include "netif.h"
#include "pb_bpf.h"
#include "rx.h"
#include "rx_sum.h"
#include "xdp_attach.h"
#include "receiver.skel.h"

_Static_assert(PB_RX_MAX_QUEUES == PB_BPF_MAX_QUEUES, "one queue limit on both sides");
_Static_assert(PB_RX_HIST_BUCKETS == PB_HIST_BUCKETS, "one histogram on both sides");
_Static_assert(sizeof(struct pb_rx_hist_val) == PB_RX_HIST_BUCKETS * sizeof(uint64_t),
	       "a histogram's map value is its counts");
_Static_assert(PB_RX_MAX_STREAMS == PB_BPF_MAX_QUEUES, "a stream id is a byte below 64");

/*
 * A run in the kept map. Its counts are the kept map's entry, plus base: what its runs map
 * entry held when it was moved over (the map's entry is then deleted, so it cannot be pushed
 * out later with them).
 */
struct rx_keep {
	uint32_t run_id;
	double read_at;		/* the last pb_rx_keep() of it, CLOCK_MONOTONIC seconds */
	struct pb_rx_val *base; /* one per CPU; NULL: nothing was moved over */
	bool lost;		/* its runs entry was pushed out before the move: counts lost */
};

struct pb_rx {
	struct receiver *skel;
	struct pb_xdp_att att;
	char ifname[IF_NAMESIZE];
	/* the interface as attach found it */
	struct pb_netif nif;
	uint32_t nqueues; /* RX queues of the interface, up to PB_RX_MAX_QUEUES */
	int ncpus;	  /* possible CPUs: per-CPU values come one per CPU */
	bool have_tai;	  /* the program reads CLOCK_TAI for 'T' probes */
	bool frags;	  /* loaded multi-buffer: counts a jumbo frame's fragments too */
	/*
	 * Opened at attach, in the interface's namespace: netlink and ethtool requests act in
	 * the namespace their socket was made in, so later reads find the right interface
	 * whichever namespace the reading thread is in by then.
	 */
	struct nl_sock *nl;
	int ethtool_fd;
	pthread_mutex_t nl_mu; /* a libnl socket is not for two threads at once (the agent) */
	char what[IF_NAMESIZE + 32];
	uint64_t instance; /* the lab's reads say who counted, as an agent's do */
	/*
	 * The runs in the kept map, which readers asked for (pb_rx_keep), and what the runs map
	 * saw this side do: entries moved out of it (deletes) and back (inserts), and the most
	 * evictions told so far (a counter never goes back). keep_mu: the agent's and the lab's
	 * readers, and a move's steps, one at a time.
	 */
	pthread_mutex_t keep_mu;
	struct rx_keep keep[PB_BPF_MAX_KEPT];
	uint32_t nkeep;
	uint64_t lru_deletes, lru_inserts, evicted_told;
	struct pb_rx_addrs addrs; /* what the program checks destinations against */
};

static int rx_attach_mode(struct pb_rx *rx, enum pb_xdp_mode mode)
{
	int fd = bpf_program__fd(rx->skel->progs.pb_receiver), err;

	switch (mode) {
	case PB_XDP_NATIVE:
		return pb_xdp_att_attach(&rx->att, fd, XDP_FLAGS_DRV_MODE, false);
	case PB_XDP_GENERIC:
		return pb_xdp_att_attach(&rx->att, fd, XDP_FLAGS_SKB_MODE, false);
	case PB_XDP_AUTO:
		break;
	}
	err = pb_xdp_att_attach(&rx->att, fd, XDP_FLAGS_DRV_MODE, true);
	if (!err || rx->att.refused)
		return err; /* refused whatever the mode: said once */
	pr_info("receiver: no native XDP on %s (%s); attaching in generic mode\n", rx->ifname,
		strerror(-err));
	return pb_xdp_att_attach(&rx->att, fd, XDP_FLAGS_SKB_MODE, false);
}

int pb_rx_attach(struct pb_rx **out, const struct pb_rx_opts *opts)
{
	struct pb_rx *rx;
	int err;

	*out = NULL;
	rx = calloc(1, sizeof(*rx));
	if (!rx)
		return -ENOMEM;
	rx->att = (struct pb_xdp_att)PB_XDP_ATT_INIT;
	rx->ethtool_fd = -1;
	pthread_mutex_init(&rx->nl_mu, NULL);
	pthread_mutex_init(&rx->keep_mu, NULL);
	if (getrandom(&rx->instance, sizeof(rx->instance), 0) != sizeof(rx->instance))
		rx->instance = (uint64_t)getpid() << 20 ^ (uint64_t)time(NULL);
	rx->instance = rx->instance % ((1ull << 53) - 1) + 1; /* as an agent's: never 0 */
	if (opts->ifname && opts->ifname[0]) {
		snprintf(rx->ifname, sizeof(rx->ifname), "%s", opts->ifname);
	} else if (!if_indextoname((unsigned int)opts->ifindex, rx->ifname)) {
		err = -errno;
		pr_err("receiver: no interface with index %d: %s\n", opts->ifindex, strerror(-err));
		goto out;
	}
	rx->ncpus = libbpf_num_possible_cpus();
	if (rx->ncpus < 0) {
		err = rx->ncpus;
		goto out;
	}
	err = pb_nl_open(&rx->nl);
	if (err)
		goto out;
	err = pb_netif_get(rx->nl, rx->ifname, &rx->nif);
	if (err) {
		pr_err("receiver: %s: %s\n", rx->ifname,
		       err == -ENODEV ? "no such interface" : strerror(-err));
		goto out;
	}
	rx->nqueues = rx->nif.rx_queues < PB_RX_MAX_QUEUES ? rx->nif.rx_queues : PB_RX_MAX_QUEUES;
	snprintf(rx->what, sizeof(rx->what), "receiver on %s", rx->ifname);
	rx->ethtool_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (rx->ethtool_fd < 0) {
		err = -errno;
		goto out;
	}

	err = pb_xdp_att_check(&rx->att, "receiver", rx->ifname, rx->nif.ifindex, opts->force);
	if (err)
		goto out;
	rx->skel = receiver__open();
	if (!rx->skel) {
		err = -errno;
		pr_err("receiver: cannot open the XDP program: %s\n", strerror(-err));
		goto out;
	}
	/* 'T' probes need CLOCK_TAI here (Linux 6.1+); without it their latency is unknown */
	rx->have_tai =
		libbpf_probe_bpf_helper(BPF_PROG_TYPE_XDP, BPF_FUNC_ktime_get_tai_ns, NULL) > 0;
	rx->skel->rodata->have_tai = rx->have_tai;
	rx->frags = pb_xdp_frags(rx->skel->progs.pb_receiver);
	rx->skel->rodata->have_frags = rx->frags;
	/* a frame to another MAC is not one the host takes (all zero: no MAC, no check) */
	memcpy((void *)rx->skel->rodata->host_mac, rx->nif.mac, 6);
	rx->skel->rodata->host_mac_set = !!(rx->nif.mac[0] | rx->nif.mac[1] | rx->nif.mac[2] |
					    rx->nif.mac[3] | rx->nif.mac[4] | rx->nif.mac[5]);
	err = receiver__load(rx->skel);
	if (err) {
		pr_err("receiver: cannot load the XDP program: %s\n", strerror(-err));
		goto out;
	}
	/* before the first frame: a frame to another address is not one the host takes */
	err = pb_rx_refresh_addrs(rx);
	if (err) {
		pr_err("receiver: %s: cannot read its addresses: %s\n", rx->ifname, strerror(-err));
		goto out;
	}
	err = rx_attach_mode(rx, opts->mode);
	if (err)
		goto out;
	pr_info("receiver: attached to %s in %s mode%s\n", rx->ifname, pb_rx_mode(rx),
		rx->frags ? ", multi-buffer" : "");
	*out = rx;
	return 0;
out:
	pb_rx_detach(rx);
	return err;
}

int pb_rx_refresh_addrs(struct pb_rx *rx)
{
	struct pb_addr all[4 * PB_RX_ADDRS];
	struct pb_rx_addrs a;
	char name[IF_NAMESIZE];
	uint32_t zero = 0;
	int n, k;

	memset(&a, 0, sizeof(a));
	/* by index: the agent follows an interface that is renamed */
	if (!if_indextoname((unsigned int)rx->nif.ifindex, name))
		return -errno;
	n = pb_netif_addrs(name, all, (int)(sizeof(all) / sizeof(all[0])));
	if (n < 0)
		return n;
	for (k = 0; k < n; k++) {
		if (all[k].family == AF_INET && a.n4 < PB_RX_ADDRS)
			a.v4[a.n4++] = all[k].v4.s_addr;
		else if (all[k].family == AF_INET6 && a.n6 < PB_RX_ADDRS)
			memcpy(a.v6[a.n6++], &all[k].v6, 16);
	}
	if (!memcmp(&a, &rx->addrs, sizeof(a)))
		return 0;
	if (bpf_map_update_elem(bpf_map__fd(rx->skel->maps.host_addrs), &zero, &a, BPF_ANY))
		return -errno;
	rx->addrs = a;
	return 0;
}

/* Lookup of a per-CPU map entry into ncpus values of size each; -ENOENT when absent. */
static void *rx_percpu(const struct pb_rx *rx, int fd, const void *key, size_t size, int *err)
{
	void *vals = calloc((size_t)rx->ncpus, size);

	*err = vals ? 0 : -ENOMEM;
	if (vals && bpf_map_lookup_elem(fd, key, vals)) {
		*err = -errno;
		free(vals);
		vals = NULL;
	}
	return vals;
}

/* The run's VLAN ids, from its bitmap words (absent words: none in that range). */
static int rx_read_vlans(struct pb_rx *rx, uint32_t run_id, struct pb_rx_run *out)
{
	int fd = bpf_map__fd(rx->skel->maps.seen_words);
	struct pb_rx_word_key key = { .run_id = run_id };
	uint64_t bits;
	uint32_t w;

	for (w = 0; w < PB_BPF_VLAN_WORDS; w++) {
		key.word = PB_BPF_PORT_WORDS + w;
		if (bpf_map_lookup_elem(fd, &key, &bits)) {
			if (errno == ENOENT)
				continue;
			return -errno;
		}
		for (; bits && out->nvlans < PB_RX_MAX_VLANS; bits &= bits - 1)
			out->vlans[out->nvlans++] = (uint16_t)(w * 64 + __builtin_ctzll(bits));
	}
	return 0;
}

/*
 * Reads of a run around slot flushes (pb_bpf.h): a flush moves a slot's counts into the runs
 * map, at most once per PB_BPF_SLOT_IDLE_NS on a CPU, so a read is retried a few times at
 * most; each CPU's count is kept from the first read that no flush ran through.
 */
#define PB_RX_READ_TRIES 100

/*
 * A kept run (pb_rx_keep) nobody read for this long, and without a frame for as long, goes
 * back to the runs map: a sender reads its run every second until its row is written.
 */
#define PB_RX_KEEP_IDLE_S 30.0

/*
 * One slot read: the per-CPU values in order of address, which is how the kernel copies them
 * (and, on x86, how the loads are seen), so a value's seq is read before its counts.
 */
static int rx_read_slot(struct pb_rx *rx, struct pb_rx_slot *out)
{
	uint32_t zero = 0;

	return bpf_map_lookup_elem(bpf_map__fd(rx->skel->maps.slot), &zero, out) ? -errno : 0;
}

/* Each stream's probes and paced gaps (read once the run's frames have arrived). */
static int rx_read_streams(struct pb_rx *rx, uint32_t run_id, struct pb_rx_run *out)
{
	int fd = bpf_map__fd(rx->skel->maps.streams);
	struct pb_rx_stream_key key = { .run_id = run_id };
	struct pb_rx_stream_val v;

	out->rx_tai = rx->have_tai;
	for (key.stream = 0; key.stream < PB_RX_MAX_STREAMS; key.stream++) {
		struct pb_rx_stream *o = &out->streams[out->nstreams];

		/*
		 * A run's streams are 0 .. n-1, and a stream without probes or pacing has no
		 * entry: the first one missing ends the list, so a run without either costs one
		 * lookup (the agent reads every run for /metrics)
		 */
		if (bpf_map_lookup_elem(fd, &key, &v))
			return errno == ENOENT ? 0 : -errno;
		*o = (struct pb_rx_stream){
			.stream = key.stream,
			.probe_kind = (uint8_t)v.kind,
			.probes = v.seq.received + v.busy_probes,
			.late = v.seq.late,
			.dup = v.seq.dup,
			.missing = v.seq.missing,
			.stray = v.seq.stray,
			.next_seq = v.seq.next,
			.lat_n = v.lat_n,
			.lat_min_ns = v.lat_min_ns,
			.lat_max_ns = v.lat_max_ns,
			.lat_sum_ns = v.lat_sum_ns,
			.lat_bad = v.lat_bad,
			.jitter_ns = v.jitter.j,
			.jitter_n = v.jitter.n,
			.gap_frames = v.gap_frames,
			.gap_first_ns = v.gap_first_ns,
			.gap_last_ns = v.gap_last_ns,
		};
		out->nstreams++;
	}
	return 0;
}

int pb_rx_read_hist(struct pb_rx *rx, uint32_t run_id, enum pb_rx_hist which, uint64_t *counts)
{
	struct pb_rx_hist_key key = { .run_id = run_id,
				      .which = which == PB_RX_HIST_GAP ? PB_BPF_HIST_GAP
								       : PB_BPF_HIST_LAT };
	int err = 0;

	/* the map's value is the counts alone: looked up into the caller's array */
	if (bpf_map_lookup_elem(bpf_map__fd(rx->skel->maps.hists), &key, counts)) {
		err = errno == ENOENT ? 0 : -errno;
		memset(counts, 0, sizeof(struct pb_rx_hist_val));
	}
	return err;
}

static struct rx_keep *rx_kept(struct pb_rx *rx, uint32_t run_id)
{
	uint32_t i;

	for (i = 0; i < rx->nkeep; i++)
		if (rx->keep[i].run_id == run_id)
			return &rx->keep[i];
	return NULL;
}

/*
 * A per-CPU map's entry for run_id into vals (ncpus of them): 1 when there is one, 0 when
 * there is none (vals zeroed), or -errno.
 */
static int rx_lookup(struct pb_rx *rx, struct bpf_map *map, uint32_t run_id, struct pb_rx_val *vals)
{
	if (!bpf_map_lookup_elem(bpf_map__fd(map), &run_id, vals))
		return 1;
	if (errno != ENOENT)
		return -errno;
	memset(vals, 0, sizeof(*vals) * (size_t)rx->ncpus);
	return 0;
}

/*
 * The run's per-CPU counts outside the slots: its kept entry, its runs entry and what was
 * moved over from the latter (k, or NULL), added up into entry. 1 when it has any (a kept
 * entry holds none until the run's first frame), 0 when none, or -errno. tmp: ncpus values.
 */
static int rx_read_entry(struct pb_rx *rx, const struct rx_keep *k, uint32_t run_id,
			 struct pb_rx_val *entry, struct pb_rx_val *tmp)
{
	int c, have = 0, got;

	memset(entry, 0, sizeof(*entry) * (size_t)rx->ncpus);
	got = k ? rx_lookup(rx, rx->skel->maps.kept, run_id, tmp) : 0;
	for (c = 0; got > 0 && c < rx->ncpus; c++) {
		have |= pb_rx_val_any(&tmp[c]);
		pb_rx_val_merge(&entry[c], &tmp[c]);
	}
	if (got >= 0)
		got = rx_lookup(rx, rx->skel->maps.runs, run_id, tmp);
	if (got < 0)
		return got;
	have |= got;
	for (c = 0; c < rx->ncpus; c++) {
		pb_rx_val_merge(&entry[c], &tmp[c]);
		if (k && k->base) {
			have |= pb_rx_val_any(&k->base[c]);
			pb_rx_val_merge(&entry[c], &k->base[c]);
		}
	}
	return have;
}

/* The run's announcement says its counts were pushed out of the runs map once. */
static bool rx_meta_evicted(struct pb_rx *rx, uint32_t run_id)
{
	struct pb_rx_meta m;
	bool found;

	return !pb_rx_read_meta(rx, run_id, &m, &found) && found && (m.flags & PB_RX_META_EVICTED);
}

int pb_rx_read_run(struct pb_rx *rx, uint32_t run_id, struct pb_rx_run *out)
{
	size_t n = (size_t)rx->ncpus;
	struct pb_rx_slot *before, *after;
	struct pb_rx_val *entry, *acc, *tmp;
	struct rx_keep *k;
	bool *done, seen = false;
	int tries, left = rx->ncpus, err = -ENOMEM;

	memset(out, 0, sizeof(*out));
	out->run_id = run_id;
	before = calloc(n, sizeof(*before));
	after = calloc(n, sizeof(*after));
	entry = calloc(n, sizeof(*entry));
	tmp = calloc(n, sizeof(*tmp));
	acc = calloc(n, sizeof(*acc));
	done = calloc(n, sizeof(*done));
	pthread_mutex_lock(&rx->keep_mu);
	k = rx_kept(rx, run_id);
	if (!before || !after || !entry || !tmp || !acc || !done)
		goto out;
	for (tries = 0; left && tries < PB_RX_READ_TRIES; tries++) {
		int have;

		err = rx_read_slot(rx, before);
		if (err)
			goto out;
		have = rx_read_entry(rx, k, run_id, entry, tmp);
		if (have < 0) {
			err = have;
			goto out;
		}
		err = rx_read_slot(rx, after);
		if (err)
			goto out;
		left = pb_rx_sum_take(run_id, rx->ncpus, before, have ? entry : NULL, after, acc,
				      done, &seen);
	}
	if (left) {
		err = -EAGAIN; /* flushes all along: cannot happen at one per idle period */
		goto out;
	}
	out->seen = seen;
	out->kept = k != NULL;
	out->evicted = (k && k->lost) || rx_meta_evicted(rx, run_id);
	pb_rx_sum_total(acc, rx->ncpus, rx->nqueues, out);
	err = seen ? rx_read_vlans(rx, run_id, out) : 0;
	if (!err && seen)
		err = rx_read_streams(rx, run_id, out);
out:
	pthread_mutex_unlock(&rx->keep_mu);
	free(before);
	free(after);
	free(entry);
	free(tmp);
	free(acc);
	free(done);
	return err;
}

/* Sets flag in the run's announcement, when it made one. */
static void rx_meta_flag(struct pb_rx *rx, uint32_t run_id, uint32_t flag)
{
	int fd = bpf_map__fd(rx->skel->maps.meta);
	struct pb_rx_meta m;

	if (!bpf_map_lookup_elem(fd, &run_id, &m) && !(m.flags & flag)) {
		m.flags |= flag;
		bpf_map_update_elem(fd, &run_id, &m, BPF_EXIST);
	}
}

/*
 * Kept runs nobody read for PB_RX_KEEP_IDLE_S and that had no frame for as long go back to
 * the runs map with their counts (a run with none is simply let go), where they age out as
 * any run does: the kept map is for runs someone is reading. Called with keep_mu held.
 */
static void rx_keep_expire(struct pb_rx *rx, double now, struct pb_rx_val *vals)
{
	uint32_t i = 0;
	uint64_t last;
	bool frames;
	int c;

	while (i < rx->nkeep) {
		struct rx_keep *k = &rx->keep[i];

		if (now - k->read_at < PB_RX_KEEP_IDLE_S ||
		    rx_read_entry(rx, k, k->run_id, vals, vals + rx->ncpus) < 0) {
			i++;
			continue;
		}
		for (c = 0, last = 0, frames = false; c < rx->ncpus; c++) {
			frames |= pb_rx_val_any(&vals[c]);
			if (vals[c].last_ns > last)
				last = vals[c].last_ns;
		}
		/* arrival times are CLOCK_MONOTONIC_COARSE: the same clock as pb_now(), coarser */
		if (frames && now - (double)last / 1e9 < PB_RX_KEEP_IDLE_S) {
			i++;
			continue;
		}
		if (frames && !bpf_map_update_elem(bpf_map__fd(rx->skel->maps.runs), &k->run_id,
						   vals, BPF_ANY)) {
			rx->lru_inserts++;
			/* counted: an entry made for it later means this one was pushed out */
			rx_meta_flag(rx, k->run_id, PB_RX_META_COUNTED);
		}
		bpf_map_delete_elem(bpf_map__fd(rx->skel->maps.kept), &k->run_id);
		free(k->base);
		*k = rx->keep[--rx->nkeep];
	}
}

int pb_rx_keep(struct pb_rx *rx, uint32_t run_id, bool *kept)
{
	/* longer than any program run that looked the kept map up before the insert */
	const struct timespec settle = { 0, 2 * 1000 * 1000 };
	int kfd = bpf_map__fd(rx->skel->maps.kept), rfd = bpf_map__fd(rx->skel->maps.runs);
	struct pb_rx_val *vals = calloc((size_t)rx->ncpus * 2, sizeof(*vals));
	double now = pb_now();
	struct rx_keep *k;
	int err = 0, had;

	*kept = false;
	if (!vals)
		return -ENOMEM;
	pthread_mutex_lock(&rx->keep_mu);
	rx_keep_expire(rx, now, vals);
	k = rx_kept(rx, run_id);
	if (k) {
		k->read_at = now;
		*kept = true;
		goto out;
	}
	if (rx->nkeep == PB_BPF_MAX_KEPT)
		goto out; /* full: the run stays in the runs map, where it can be pushed out */
	memset(vals, 0, sizeof(*vals) * (size_t)rx->ncpus);
	if (bpf_map_update_elem(kfd, &run_id, vals, BPF_NOEXIST)) {
		err = errno == E2BIG ? 0 : -errno;
		goto out;
	}
	k = &rx->keep[rx->nkeep++];
	*k = (struct rx_keep){ .run_id = run_id, .read_at = now };
	*kept = true;
	/*
	 * Its frames are counted in the kept entry from now on. What its runs entry holds is
	 * moved over once no program is still adding to it, and the entry deleted: it would be
	 * pushed out later, counts and all.
	 */
	had = rx_lookup(rx, rx->skel->maps.runs, run_id, vals);
	if (had <= 0) {
		err = had;
		goto out;
	}
	nanosleep(&settle, NULL);
	had = rx_lookup(rx, rx->skel->maps.runs, run_id, vals);
	if (had < 0) {
		err = had;
	} else if (!had) {
		k->lost = true; /* pushed out in the meantime */
	} else {
		k->base = malloc(sizeof(*vals) * (size_t)rx->ncpus);
		if (!k->base) {
			err = -ENOMEM; /* left where it is: the runs entry is read as before */
			goto out;
		}
		memcpy(k->base, vals, sizeof(*vals) * (size_t)rx->ncpus);
		if (!bpf_map_delete_elem(rfd, &run_id))
			rx->lru_deletes++;
		rx_meta_flag(rx, run_id, PB_RX_META_COUNTED);
	}
out:
	pthread_mutex_unlock(&rx->keep_mu);
	free(vals);
	return err;
}

uint32_t pb_rx_kept(struct pb_rx *rx)
{
	uint32_t n;

	pthread_mutex_lock(&rx->keep_mu);
	n = rx->nkeep;
	pthread_mutex_unlock(&rx->keep_mu);
	return n;
}

int pb_rx_table_stats(struct pb_rx *rx, struct pb_rx_table_stats *out)
{
	int fd = bpf_map__fd(rx->skel->maps.runs), err = 0, c;
	uint32_t key, next, zero = 0, n = 0;
	struct pb_rx_table *t = NULL;
	uint32_t *ids = NULL;
	void *prev = NULL;
	uint64_t made = 0;
	int64_t ev;

	memset(out, 0, sizeof(*out));
	out->capacity = PB_BPF_MAX_RUNS;
	out->kept_capacity = PB_BPF_MAX_KEPT;
	/* the walk starts over when the key it stands on is evicted: bounded, then unique */
	ids = calloc(2 * PB_BPF_MAX_RUNS, sizeof(*ids));
	t = rx_percpu(rx, bpf_map__fd(rx->skel->maps.table), &zero, sizeof(*t), &err);
	if (!ids || !t) {
		err = err ? err : -ENOMEM;
		goto out;
	}
	for (c = 0; c < rx->ncpus; c++)
		made += t[c].inserts;
	while (n < 2 * PB_BPF_MAX_RUNS && !bpf_map_get_next_key(fd, prev, &next)) {
		ids[n++] = next;
		key = next;
		prev = &key;
	}
	n = pb_rx_ids_unique(ids, n);
	pthread_mutex_lock(&rx->keep_mu);
	out->held = n < PB_BPF_MAX_RUNS ? n : PB_BPF_MAX_RUNS;
	out->kept = rx->nkeep;
	/* every entry made is held, deleted by us, or was evicted */
	ev = (int64_t)(made + rx->lru_inserts - rx->lru_deletes) - (int64_t)out->held;
	if (ev > 0 && (uint64_t)ev > rx->evicted_told)
		rx->evicted_told = (uint64_t)ev;
	out->evicted = rx->evicted_told;
	pthread_mutex_unlock(&rx->keep_mu);
out:
	free(ids);
	free(t);
	return err;
}

int pb_rx_read_foreign(struct pb_rx *rx, uint64_t *frames, uint64_t *bytes)
{
	struct pb_rx_foreign *f;
	uint32_t zero = 0;
	int c, err;

	*frames = *bytes = 0;
	f = rx_percpu(rx, bpf_map__fd(rx->skel->maps.foreign), &zero, sizeof(*f), &err);
	if (!f)
		return err;
	for (c = 0; c < rx->ncpus; c++) {
		*frames += f[c].frames;
		*bytes += f[c].bytes;
	}
	free(f);
	return 0;
}

int pb_rx_list_runs(struct pb_rx *rx, uint32_t *ids, uint32_t max, uint32_t *n)
{
	int fd = bpf_map__fd(rx->skel->maps.runs), c, err;
	struct pb_rx_slot *slots;
	uint32_t key, next;
	void *prev = NULL;

	*n = 0;
	/*
	 * The walk starts over from the first key when the one it stands on is evicted (new
	 * runs arriving), so it may list a run twice: bounded by max, and made unique below.
	 */
	while (*n < max) {
		if (bpf_map_get_next_key(fd, prev, &next)) {
			if (errno != ENOENT)
				return -errno;
			break;
		}
		ids[(*n)++] = next;
		key = next;
		prev = &key;
	}
	*n = pb_rx_ids_unique(ids, *n);
	/* the kept runs (those without a frame yet are read as not seen) */
	pthread_mutex_lock(&rx->keep_mu);
	for (c = 0; (uint32_t)c < rx->nkeep && *n < max; c++)
		ids[(*n)++] = rx->keep[c].run_id;
	pthread_mutex_unlock(&rx->keep_mu);
	/* a run counted only in a slot so far has no entry yet */
	slots = calloc((size_t)rx->ncpus, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	err = rx_read_slot(rx, slots);
	*n = pb_rx_ids_unique(ids, *n);
	for (c = 0; !err && c < rx->ncpus && *n < max; c++)
		if (slots[c].tag)
			ids[(*n)++] = (uint32_t)slots[c].tag;
	*n = pb_rx_ids_unique(ids, *n);
	free(slots);
	return err;
}

int pb_rx_slot_switches(struct pb_rx *rx, uint64_t *n)
{
	struct pb_rx_slot *slots = calloc((size_t)rx->ncpus, sizeof(*slots));
	int c, err;

	*n = 0;
	if (!slots)
		return -ENOMEM;
	err = rx_read_slot(rx, slots);
	/* seq goes up by two a flush; a slot's first run came without one */
	for (c = 0; !err && c < rx->ncpus; c++)
		*n += slots[c].seq / 2 - (slots[c].seq >= 2);
	free(slots);
	return err;
}

/*
 * ethtool -S names that say the driver lost frames: drop, discard, miss (any case). Not those
 * with "xdp" in them (veth's rx_queue_N_xdp_drops, a NIC's rx_xdp_drop): they count XDP
 * verdicts, our own XDP_DROPs among them, not frames the NIC lost.
 */
static bool rx_drop_stat(const char *stat, size_t len, const void *arg)
{
	static const char *const words[] = { "drop", "discard", "miss" };
	char name[ETH_GSTRING_LEN + 1];
	size_t i;

	snprintf(name, sizeof(name), "%.*s", (int)len, stat);
	if (strcasestr(name, "xdp"))
		return false;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcasestr(name, words[i]))
			return true;
	return false;
}

int pb_rx_ifname(struct pb_rx *rx, char *name)
{
	struct ifreq ifr = { .ifr_ifindex = rx->nif.ifindex };

	/* the socket was made in the interface's namespace: the index is looked up there */
	if (ioctl(rx->ethtool_fd, SIOCGIFNAME, &ifr))
		return -errno;
	snprintf(name, IF_NAMESIZE, "%.*s", IF_NAMESIZE - 1, ifr.ifr_name);
	return 0;
}

int pb_rx_read_ifstats(struct pb_rx *rx, struct pb_rx_ifstats *out)
{
	char name[IF_NAMESIZE];
	struct pb_link_stats ls;
	uint64_t bytes;
	int err;

	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&rx->nl_mu);
	err = pb_netif_stats(rx->nl, rx->nif.ifindex, &ls);
	pthread_mutex_unlock(&rx->nl_mu);
	if (err)
		return err;
	out->rx_packets = ls.rx_packets;
	out->rx_dropped = ls.rx_dropped;
	out->rx_missed_errors = ls.rx_missed_errors;
	out->rx_fifo_errors = ls.rx_fifo_errors;
	/* ethtool asks by name: the name now, so a renamed interface is still read */
	err = pb_rx_ifname(rx, name);
	if (!err)
		err = pb_ethtool_stats_sum(rx->ethtool_fd, name, rx_drop_stat, NULL,
					   &out->driver_drops);
	/* a driver without statistics has no drop counters to add */
	if (err && err != -EOPNOTSUPP)
		return err;
	return pb_rx_read_foreign(rx, &out->foreign_frames, &bytes);
}

const struct pb_netif *pb_rx_netif(const struct pb_rx *rx)
{
	return &rx->nif;
}

const char *pb_rx_mode(const struct pb_rx *rx)
{
	switch (rx->att.mode) {
	case XDP_FLAGS_DRV_MODE:
		return "native";
	case XDP_FLAGS_SKB_MODE:
		return "generic";
	}
	return "none";
}

bool pb_rx_frags(const struct pb_rx *rx)
{
	return rx->frags;
}

void pb_rx_detach(struct pb_rx *rx)
{
	if (!rx)
		return;
	pb_xdp_att_detach(&rx->att);
	receiver__destroy(rx->skel);
	pb_nl_close(rx->nl);
	if (rx->ethtool_fd >= 0)
		close(rx->ethtool_fd);
	pthread_mutex_destroy(&rx->nl_mu);
	while (rx->nkeep)
		free(rx->keep[--rx->nkeep].base);
	pthread_mutex_destroy(&rx->keep_mu);
	free(rx);
}

int pb_rx_read_asked(struct pb_rx *rx, uint32_t run_id, struct pb_rx_run *out)
{
	struct pb_rx_table_stats ts = { 0 };
	bool kept;
	int err = run_id ? pb_rx_keep(rx, run_id, &kept) : 0;

	if (!err)
		err = pb_rx_read_run(rx, run_id, out);
	if (!err)
		err = pb_rx_table_stats(rx, &ts);
	out->runs_evicted = ts.evicted;
	return err;
}

/* As the agent answers a sender (pb_rx_read_asked), with the lab's instance. */
static int rx_source_run(void *ctx, uint32_t run_id, struct pb_rx_run *out)
{
	struct pb_rx *rx = ctx;
	int err = pb_rx_read_asked(rx, run_id, out);

	out->instance = rx->instance;
	return err;
}

static int rx_source_ifstats(void *ctx, struct pb_rx_ifstats *out)
{
	struct pb_rx *rx = ctx;
	int err = pb_rx_read_ifstats(rx, out);

	out->instance = rx->instance;
	return err;
}

static int rx_source_hist(void *ctx, uint32_t run_id, enum pb_rx_hist which, uint64_t *counts)
{
	return pb_rx_read_hist(ctx, run_id, which, counts);
}

void pb_rx_source_init(struct pb_rx *rx, struct pb_rx_source *src)
{
	*src = (struct pb_rx_source){
		.ctx = rx,
		.what = rx->what,
		/* in this process, so on this host: both ends read one CLOCK_MONOTONIC */
		.same_clock = true,
		.read_run = rx_source_run,
		.read_ifstats = rx_source_ifstats,
		.read_hist = rx_source_hist,
	};
}

static void rx_source_close(void *ctx)
{
	pb_rx_detach(ctx);
}

int pb_rx_source_lab(struct pb_rx_source *src, int ifindex, const char *ifname,
		     enum pb_xdp_mode mode)
{
	struct pb_rx_opts ro = { .ifindex = ifindex, .ifname = ifname, .mode = mode };
	struct pb_rx *rx;
	int ret;

	ret = pb_rx_attach(&rx, &ro);
	if (ret)
		return ret;
	pb_rx_source_init(rx, src);
	src->close = rx_source_close;
	return 0;
}

int pb_rx_list_meta(struct pb_rx *rx, uint32_t *ids, struct pb_rx_meta *metas, uint32_t max,
		    uint32_t *n)
{
	int fd = bpf_map__fd(rx->skel->maps.meta);
	uint32_t key, next;
	void *prev = NULL;

	*n = 0;
	while (*n < max && !bpf_map_get_next_key(fd, prev, &next)) {
		/* gone between the two calls: the walk goes on from it all the same */
		if (!bpf_map_lookup_elem(fd, &next, &metas[*n]))
			ids[(*n)++] = next;
		key = next;
		prev = &key;
	}
	return 0;
}

int pb_rx_read_meta(struct pb_rx *rx, uint32_t run_id, struct pb_rx_meta *out, bool *found)
{
	*found = !bpf_map_lookup_elem(bpf_map__fd(rx->skel->maps.meta), &run_id, out);
	if (!*found && errno != ENOENT)
		return -errno;
	if (!*found)
		memset(out, 0, sizeof(*out));
	return 0;
}
