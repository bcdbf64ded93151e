/* SPDX-License-Identifier: MIT */
/*
 * Where the sending threads run when --cpus does not say: a rule over the machine's topology
 * (pb_place, pure, unit-tested with made-up topologies) and the reading of that topology from
 * sysfs and procfs (pb_topo_read).
 *
 * The rule, CPUs ranked by, in this order (docs/performance.md, "Where the sender runs"):
 *  1. not reserved: a CPU the run gave to something else (the lab's DUT) is the last choice;
 *     then not claimed: a CPU another pktbench's sender was placed on (pb_claims_begin) comes
 *     after every free one, since senders started together see the same idle CPUs;
 *  2. no threaded-NAPI kthread of the interface pinned there: it would take turns with the
 *     sender for the CPU instead of running beside it;
 *  3. for an interface with IRQs (a NIC): a CPU its IRQs are affine to first, as the kernel's
 *     pktgen does: the transmit completions then free each frame on the CPU that made it
 *     (no cache line crosses); a veth has no IRQs, its receive work runs inline in the
 *     sender's softirq on whichever CPU it is;
 *  4. the least busy with other work over a short look (interrupts, softirqs, a hypervisor's
 *     steal time, other tasks; not niced ones, which yield to the sender): the sender's own
 *     softirq work (all of a veth's receive side) then has the CPU to itself;
 *  5. of equals the highest numbered (CPU 0 takes most of a machine's housekeeping).
 * Streams take the ranked CPUs in turn, wrapping round when there are more streams.
 */
#ifndef PB_PLACE_H
#define PB_PLACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PB_PLACE_MAX_CPUS 256

/* How long pktbench looks at each CPU's other work before placing a sender (pb_topo_read). */
#define PB_PLACE_LOOK_MS 200

/* A CPU busier than another by less than this share counts as equally busy (noise). */
#define PB_PLACE_BUSY_EPS 0.05

struct pb_topo_cpu {
	bool usable;	  /* online and in this process's affinity */
	bool reserved;	  /* the run gave it to something else (the lab's DUT) */
	bool claimed;	  /* another pktbench's sender was placed there and still runs */
	bool napi_thread; /* a NAPI kthread of the interface is pinned to it */
	bool iface_irq;	  /* an IRQ of the interface is affine to it */
	double busy;	  /* share of the CPU other work took over the look, 0..1; < 0 unknown */
};

struct pb_topo {
	unsigned int ncpus; /* cpu[0 .. ncpus) */
	bool has_irqs;	    /* the interface has IRQs (a NIC); false: virtual (veth) or unknown */
	struct pb_topo_cpu cpu[PB_PLACE_MAX_CPUS];
};

/*
 * The rule above: cpus[0 .. n) the CPUs streams 0, 1, ... run on (stream i on cpus[i % n]),
 * n = min(streams, usable CPUs), and in why one line that says what decided. Returns n, or
 * -ENODEV when no CPU is usable.
 */
int pb_place(const struct pb_topo *t, uint32_t streams, uint32_t *cpus, char *why, size_t len);

/*
 * Each CPU's busy share between two readings of /proc/stat (text a, then b); CPUs not in
 * both, or with no ticks between them, get -1. Returns how many CPUs got a share.
 */
int pb_topo_busy(const char *a, const char *b, struct pb_topo *t);

/*
 * The topology under root ("/" live): online CPUs (restricted to this process's affinity
 * when root is "/"), the interface's IRQ affinities and NAPI kthreads (iface may be NULL),
 * each CPU's busy share over look_ms of /proc/stat. 0, or -errno when not even the online
 * CPUs can be read.
 */
int pb_topo_read(struct pb_topo *t, const char *root, const char *iface, unsigned int look_ms);
/* root/proc/stat's text into buf: a first look taken early, for pb_topo_read_since. 0, -errno. */
int pb_topo_stat(const char *root, char *buf, size_t len);
/*
 * pb_topo_read, the busy shares over the time since first (a pb_topo_stat text): a session
 * takes its first look before it builds its lab, and so does not wait for a second.
 */
int pb_topo_read_since(struct pb_topo *t, const char *root, const char *iface, const char *first);

/*
 * CPU claims between pktbench processes on one host (rule 1): one file a CPU in dir
 * (PB_PLACE_CLAIM_DIR), which a sender placed on that CPU holds flock'ed shared for as long
 * as it runs. pb_claims_begin takes dir's lock (exclusive, held only while one process
 * places, so two never choose at once; waited for a second at most), marks in t the CPUs
 * whose file another process holds, and returns the lock's descriptor, or -errno (placement
 * then goes on without claims).
 * pb_claims_take holds the files of cpus[0 .. n) into fds (how many: the caller keeps them
 * open for the process's life; they close on exec, so a child never holds a claim), and
 * pb_claims_end lets the next process place.
 */
#define PB_PLACE_CLAIM_DIR "/run/pktbench/cpus"
int pb_claims_begin(const char *dir, struct pb_topo *t);
int pb_claims_take(const char *dir, const uint32_t *cpus, int n, int *fds);
void pb_claims_end(int fd);

/* Calls fn for each CPU of a list "0-3,8" below max, in order: how many, or -EINVAL. */
int pb_cpulist_each(const char *s, int max, void (*fn)(int cpu, void *arg), void *arg);

#endif
