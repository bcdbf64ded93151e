// SPDX-License-Identifier: MIT
/*
 * The sender's default placement (place.h) over made-up topologies: each case's CPU is a known
 * answer of the rule, and the topology reader over a made-up sysfs and procfs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "place.h"
#include "check.h"

static struct pb_topo topo(unsigned int n)
{
	struct pb_topo t;
	unsigned int i;

	memset(&t, 0, sizeof(t));
	t.ncpus = n;
	for (i = 0; i < n; i++) {
		t.cpu[i].usable = true;
		t.cpu[i].busy = 0;
	}
	return t;
}

static void place1(const struct pb_topo *t, int want, const char *what)
{
	uint32_t cpus[4] = { 99, 99, 99, 99 };
	char why[256] = "";
	int n = pb_place(t, 1, cpus, why, sizeof(why));

	CHECK(n == 1 && cpus[0] == (uint32_t)want, "%s: got n %d cpu %u, want cpu %d (%s)", what,
	      n, cpus[0], want, why);
	CHECK(why[0] != '\0', "%s: no reason given", what);
}

/* a veth lab on 2 CPUs: no IRQs; the busier CPU (the one the hypervisor or IRQs load) loses */
static void test_veth(void)
{
	struct pb_topo t = topo(2);

	t.cpu[0].busy = 0.21;
	t.cpu[1].busy = 0.03;
	place1(&t, 1, "veth, cpu 0 busier");
	{
		uint32_t c[1];
		char why[256];

		pb_place(&t, 1, c, why, sizeof(why));
		CHECK(!strcmp(why, "least busy (3 %, cpu 0 21 %)"), "why: %s", why);
	}
	t.cpu[0].busy = 0.02;
	t.cpu[1].busy = 0.30;
	place1(&t, 0, "veth, cpu 1 busier");
	/* within the noise of each other: the highest numbered, away from CPU 0's housekeeping */
	t.cpu[0].busy = 0.03;
	t.cpu[1].busy = 0.05;
	place1(&t, 1, "veth, equally busy");
	/* unknown load: the same tie-break */
	t.cpu[0].busy = -1;
	t.cpu[1].busy = -1;
	place1(&t, 1, "veth, load unknown");
	/* a CPU outside the affinity is never taken, however idle */
	t = topo(4);
	t.cpu[3].usable = false;
	t.cpu[2].busy = 0.5;
	place1(&t, 1, "cpu 3 not usable, 2 busy");
}

/*
 * A NIC whose IRQs are affine to CPU 2 of 4: the sender goes beside its completions there,
 * even when another CPU is a little less busy; a threaded NAPI kthread pinned to a CPU pushes
 * the sender off it; the lab's DUT CPU comes last.
 */
static void test_nic(void)
{
	struct pb_topo t = topo(4);
	uint32_t cpus[4];
	char why[256];
	int n;

	t.has_irqs = true;
	t.cpu[2].iface_irq = true;
	t.cpu[2].busy = 0.10;
	place1(&t, 2, "nic, irq on cpu 2");
	CHECK(pb_place(&t, 1, cpus, why, sizeof(why)) == 1 &&
		      !strcmp(why, "the interface's IRQs go there"),
	      "the reason names the IRQ: %s", why);

	/* NAPI kthread pinned to CPU 2: the sender would take turns with it */
	t.cpu[2].napi_thread = true;
	t.cpu[1].busy = 0.20;
	place1(&t, 3, "nic, napi thread on the irq cpu");

	/* two IRQ CPUs: the less busy one; a second stream the other */
	t = topo(4);
	t.has_irqs = true;
	t.cpu[0].iface_irq = t.cpu[1].iface_irq = true;
	t.cpu[1].busy = 0.4;
	n = pb_place(&t, 2, cpus, why, sizeof(why));
	CHECK(n == 2 && cpus[0] == 0 && cpus[1] == 1, "2 streams: %d: %u %u (%s)", n, cpus[0],
	      cpus[1], why);

	/* without IRQs (veth) the irq flag means nothing: no such CPU to prefer */
	t.has_irqs = false;
	t.cpu[1].busy = 0;
	place1(&t, 3, "no irqs: flags ignored");

	/* the DUT's CPU, however idle, is the last choice */
	t = topo(2);
	t.cpu[1].reserved = true;
	t.cpu[0].busy = 0.5;
	place1(&t, 0, "dut on cpu 1");
}

/* More streams than CPUs: each CPU once, ranked; n says how many */
static void test_streams(void)
{
	struct pb_topo t = topo(3);
	uint32_t cpus[8];
	char why[256];
	int n;

	t.cpu[2].busy = 0.5;
	n = pb_place(&t, 8, cpus, why, sizeof(why));
	CHECK(n == 3 && cpus[0] == 1 && cpus[1] == 0 && cpus[2] == 2, "8 streams on 3: %d: %u %u %u",
	      n, cpus[0], cpus[1], cpus[2]);
	t = topo(2);
	t.cpu[0].usable = t.cpu[1].usable = false;
	CHECK(pb_place(&t, 1, cpus, why, sizeof(why)) == -ENODEV, "no usable CPU");
}

/* /proc/stat read twice: each CPU's busy share, idle and iowait being the idle part */
static void test_busy(void)
{
	const char *a = "cpu  100 0 100 800 0 0 0 0 0 0\n"
			"cpu0 50 0 50 400 0 0 0 0 0 0\n"
			"cpu1 50 0 50 400 0 0 0 0 0 0\n"
			"intr 12345\n";
	/* cpu0: 100 ticks, 20 busy (10 user, 5 irq, 5 steal); cpu1: 100 ticks, 90 idle + iowait */
	const char *b = "cpu  200 0 200 1600 0 0 0 0 0 0\n"
			"cpu0 60 0 50 480 0 5 0 5 0 0\n"
			"cpu1 55 0 55 480 10 0 0 0 0 0\n";
	struct pb_topo t = topo(3);

	CHECK(pb_topo_busy(a, b, &t) == 2, "two CPUs in both readings");
	CHECK(t.cpu[0].busy > 0.199 && t.cpu[0].busy < 0.201, "cpu0 busy %g, want 0.2",
	      t.cpu[0].busy);
	CHECK(t.cpu[1].busy > 0.099 && t.cpu[1].busy < 0.101, "cpu1 busy %g, want 0.1",
	      t.cpu[1].busy);
	CHECK(t.cpu[2].busy < 0, "cpu2 not in the readings: unknown, got %g", t.cpu[2].busy);
	/* niced work (a build at nice 19) yields to the sender: not busy; softirq is */
	t = topo(2);
	CHECK(pb_topo_busy("cpu0 0 0 0 0 0 0 0 0\ncpu1 0 0 0 0 0 0 0 0\n",
			   "cpu0 0 90 0 10 0 0 0 0\ncpu1 0 0 0 10 0 0 90 0\n", &t) == 2,
	      "nice and softirq readings");
	CHECK(t.cpu[0].busy < 1e-9 && t.cpu[1].busy > 0.899 && t.cpu[1].busy < 0.901,
	      "nice 90 %% busy %g (want 0), softirq 90 %% busy %g (want 0.9)", t.cpu[0].busy,
	      t.cpu[1].busy);
	/* text that is not /proc/stat: nothing, no crash */
	t = topo(2);
	CHECK(pb_topo_busy("cpu0 x\ncpu", "cpu0 1 2\ncpu99999999999 1", &t) == 0,
	      "garbage: no shares");
}

static char root[] = "/tmp/pb-place-XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	CHECK(f != NULL, "cannot write %s", path);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The reader over a made-up tree: 4 CPUs, eth9's IRQs on CPUs 2 and 3, its NAPI thread on 3 */
static void test_read(void)
{
	struct pb_topo t;
	char cmd[300];

	if (!mkdtemp(root)) {
		CHECK(0, "mkdtemp");
		return;
	}
	put("sys/devices/system/cpu/online", "0-3\n");
	put("sys/class/net/eth9/device/msi_irqs/40", "msix\n");
	put("sys/class/net/eth9/device/msi_irqs/41", "msix\n");
	put("proc/irq/40/smp_affinity_list", "2\n");
	/* allowed anywhere, delivered to CPU 3 (effective_affinity_list): that is where it runs */
	put("proc/irq/41/smp_affinity_list", "0-3\n");
	put("proc/irq/41/effective_affinity_list", "3\n");
	put("proc/55/comm", "napi/eth9-8193\n");
	put("proc/55/status", "Name:\tnapi/eth9-8193\nCpus_allowed_list:\t3\n");
	put("proc/stat", "cpu0 1 0 1 10 0 0 0 0\n");
	CHECK(pb_topo_read(&t, root, "eth9", 0) == 0, "read");
	CHECK(t.ncpus == 4 && t.cpu[0].usable && t.cpu[3].usable, "4 usable CPUs: %u", t.ncpus);
	CHECK(t.has_irqs && !t.cpu[1].iface_irq && t.cpu[2].iface_irq && t.cpu[3].iface_irq,
	      "IRQs on 2 and 3");
	CHECK(t.cpu[3].napi_thread && !t.cpu[2].napi_thread, "NAPI thread on 3");
	place1(&t, 2, "read: the IRQ CPU without the NAPI thread");

	/* a veth: no device folder, no IRQs */
	put("sys/class/net/veth0/threaded", "0\n");
	CHECK(pb_topo_read(&t, root, "veth0", 0) == 0 && !t.has_irqs, "veth: no IRQs");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0, "%s", cmd);
	CHECK(pb_topo_read(&t, root, NULL, 0) < 0, "no root: an error");
}

/*
 * Senders started together: a CPU another pktbench holds comes after every free one, however
 * idle it looks (nobody sends yet); the DUT's CPU still last. Then the claims themselves, in
 * a directory of the test's: a claim taken shows in the next process's look (an open file
 * description of its own, as another process's would be) and is gone once closed.
 */
static void test_claims(void)
{
	struct pb_topo t = topo(2);
	char dir[64], why[256];
	uint32_t cpus[2] = { 1, 1 };
	int fds[2], n, lock, i;

	t.cpu[1].claimed = true;
	t.cpu[0].busy = 0.30;
	place1(&t, 0, "cpu 1 claimed, cpu 0 busier");
	pb_place(&t, 1, cpus, why, sizeof(why));
	CHECK(!strcmp(why, "cpu 1 is another pktbench's"), "why: %s", why);
	t = topo(3);
	t.cpu[0].reserved = true;
	t.cpu[1].claimed = t.cpu[2].claimed = true;
	place1(&t, 2, "every free cpu claimed but the DUT's");

	snprintf(dir, sizeof(dir), "/tmp/pb-claims.XXXXXX");
	CHECK(mkdtemp(dir) != NULL, "mkdtemp: %s", strerror(errno));
	strcat(dir, "/cpus");
	t = topo(2);
	lock = pb_claims_begin(dir, &t);
	CHECK(lock >= 0 && !t.cpu[0].claimed && !t.cpu[1].claimed, "fresh: lock %d, %d %d", lock,
	      t.cpu[0].claimed, t.cpu[1].claimed);
	cpus[0] = cpus[1] = 1; /* two streams on one CPU: one claim */
	n = pb_claims_take(dir, cpus, 2, fds);
	CHECK(n == 1, "claims taken: %d", n);
	pb_claims_end(lock);
	t = topo(2);
	lock = pb_claims_begin(dir, &t);
	CHECK(lock >= 0 && !t.cpu[0].claimed && t.cpu[1].claimed, "held: %d %d", t.cpu[0].claimed,
	      t.cpu[1].claimed);
	pb_claims_end(lock);
	for (i = 0; i < n; i++)
		close(fds[i]);
	t = topo(2);
	lock = pb_claims_begin(dir, &t);
	CHECK(lock >= 0 && !t.cpu[1].claimed, "released: %d", t.cpu[1].claimed);
	pb_claims_end(lock);
	CHECK(pb_claims_begin("/proc/pb-no/cpus", &t) < 0, "a directory that cannot be: -errno");
	unlink(strcat(strcpy(why, dir), "/cpu0"));
	unlink(strcat(strcpy(why, dir), "/cpu1"));
	unlink(strcat(strcpy(why, dir), "/place.lock"));
	rmdir(dir);
	*strrchr(dir, '/') = '\0';
	rmdir(dir);
}

int main(void)
{
	test_veth();
	test_nic();
	test_streams();
	test_busy();
	test_read();
	test_claims();
	return check_summary();
}
